"""What a Stop left behind: processes found in `/proc` by a tag in their command line.

A process counts as a survivor unless it is gone, a zombie, or has SIGKILL pending (the kernel
finishes those; the members of a PID namespace whose init was killed look like that for a
moment). So "nothing survives" is checked without waiting on a clock.
"""

from __future__ import annotations

import asyncio
import os
import secrets
from pathlib import Path

_SIGKILL_BIT = 1 << 8


def tag() -> str:
    """A number unique to one test, for `sleep 61.<tag>` (its command line carries it)."""
    return str(secrets.randbelow(9_000_000) + 1_000_000)


def tagged(marker: str) -> list[int]:
    found = []
    for entry in os.listdir("/proc"):
        if not entry.isdigit() or int(entry) == os.getpid():
            continue
        try:
            argv = Path(f"/proc/{entry}/cmdline").read_bytes()
        except OSError:
            continue
        if marker.encode() in argv:
            found.append(int(entry))
    return found


def alive(pid: int) -> bool:
    try:
        status = Path(f"/proc/{pid}/status").read_text()
    except OSError:
        return False
    fields = dict(line.split(":", 1) for line in status.splitlines() if ":" in line)
    if fields.get("State", "").strip()[:1] in ("Z", "X"):
        return False
    pending = int(fields.get("SigPnd", "0"), 16) | int(fields.get("ShdPnd", "0"), 16)
    return not pending & _SIGKILL_BIT


def survivors(*markers: str) -> dict[int, str]:
    """Live processes whose command line has any of `markers`: pid → command line."""
    found: dict[int, str] = {}
    for marker in markers:
        for pid in tagged(marker):
            if alive(pid):
                argv = Path(f"/proc/{pid}/cmdline").read_bytes().replace(b"\0", b" ")
                found[pid] = argv.decode(errors="replace")
    return found


async def appears(path: Path) -> None:
    """Until `path` exists (pytest's timeout guards a file that never comes)."""
    while not path.exists():
        await asyncio.sleep(0.02)


async def none_survive(*markers: str, bound_sec: float = 120) -> dict[int, str]:
    """After a server was killed its processes die by a chain of parent-death signals: wait
    until none of `markers` is alive, or `bound_sec` (longer than any honest chain; a survivor
    sleeps for ten minutes). Returns the survivors at the end."""
    loop = asyncio.get_running_loop()
    end = loop.time() + bound_sec
    while (left := survivors(*markers)) and loop.time() < end:
        await asyncio.sleep(0.1)
    return left
