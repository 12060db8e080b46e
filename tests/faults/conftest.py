"""Fault injection: a PostgreSQL path that is cut and restored (`proxy`), and on files:
a full disk (tmpfs), unreadable files (a real EACCES), corrupt
files, stalled reads and a slow user-tool import, each against a real server.

Every test checks that the server kept answering `GET /api/health` while the fault was in
force, by ordering rather than a stopwatch: the fault is held open (a FIFO nobody writes yet, an
import waiting for a file) while health is asked, and released only after it answered. How fast
it answered is measured by benchmarks/loop_stalls.py, not asserted here.
"""

from __future__ import annotations

import asyncio
import contextlib
import os
import pwd
import shutil
import subprocess
import sys
import tempfile
from collections.abc import AsyncIterator, Iterator
from pathlib import Path
from urllib.parse import urlsplit

import httpx
import pytest

from tests.support.hang import HANG_GUARD_SEC, log_tail
from tests.support.ports import free_port
from tests.support.processes import LAUNCH_TOKEN, hud_headers
from tests.support.tcp_proxy import TcpProxy, tcp_proxy

JARVIS = shutil.which("jarvis") or str(Path(sys.executable).parent / "jarvis")
OTHER_USER = "nobody"


def running_as_root() -> bool:
    return os.geteuid() == 0


@contextlib.contextmanager
def small_tmpfs(size: str = "1m") -> Iterator[Path]:
    """A tmpfs of `size` mounted on a fresh folder (root only; the caller skips otherwise)."""
    folder = Path(tempfile.mkdtemp(prefix="jarvis-full-"))
    subprocess.run(["mount", "-t", "tmpfs", "-o", f"size={size}", "tmpfs", str(folder)], check=True)
    try:
        yield folder
    finally:
        subprocess.run(["umount", "-l", str(folder)], check=False)
        folder.rmdir()


@pytest.fixture
def full_disk_home() -> Iterator[Path]:
    if not running_as_root():
        pytest.skip("a full disk needs a tmpfs mount, which needs root (CI runs as root)")
    with small_tmpfs() as folder:
        yield folder


def fill(folder: Path) -> Path:
    """Write a filler file until the disk is full; removing it frees the space."""
    filler = folder / "filler.bin"
    with filler.open("wb", buffering=0) as handle:
        try:
            while True:
                handle.write(b"\0" * 4096)
        except OSError:
            pass
    return filler


@pytest.fixture
def other_user_home() -> Iterator[tuple[Path, dict[str, object]]]:
    """A data dir for a `jarvis` process that file permissions apply to: as root, the process
    runs as `nobody` (root reads any file); otherwise as this user."""
    folder = Path(tempfile.mkdtemp(prefix="jarvis-perm-"))
    run_as: dict[str, object] = {}
    if running_as_root():
        entry = pwd.getpwnam(OTHER_USER)
        os.chown(folder, entry.pw_uid, entry.pw_gid)
        run_as = {"user": entry.pw_uid, "group": entry.pw_gid, "extra_groups": []}
    try:
        yield folder, run_as
    finally:
        shutil.rmtree(folder, ignore_errors=True)


def give_to_process(path: Path, run_as: dict[str, object]) -> None:
    """Make `path` (created by the test) the process user's, as if that user had written it."""
    if run_as:
        os.chown(path, int(str(run_as["user"])), int(str(run_as["group"])))


def make_unreadable(path: Path) -> None:
    """Owned by the test's user, mode 000: the process user (nobody, or us as non-root) gets
    EACCES opening it."""
    path.chmod(0)


def jarvis_env(home: Path) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if not k.startswith("JARVIS_")}
    env.update(JARVIS_HOME=str(home), JARVIS_WORKSPACE=str(home), JARVIS_LANGUAGE="en")
    env["JARVIS_WEB__TOKEN"] = LAUNCH_TOKEN  # scripts send it as a Bearer token (hud_headers)
    env["HOME"] = str(home)  # nobody's own home does not exist
    return env


def run_jarvis(
    home: Path, run_as: dict[str, object], *args: str
) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [JARVIS, *args],
        env=jarvis_env(home),
        cwd=home,
        capture_output=True,
        text=True,
        stdin=subprocess.DEVNULL,
        timeout=HANG_GUARD_SEC,
        **run_as,  # type: ignore[call-overload]
    )


@contextlib.contextmanager
def serve_files(home: Path, run_as: dict[str, object]) -> Iterator[tuple[str, Path]]:
    """`jarvis serve --demo` on the files backend; yields its base URL and its log file."""
    port = free_port()
    log_path = home / "serve.log"
    with log_path.open("w", encoding="utf-8") as log:
        give_to_process(log_path, run_as)
        process = subprocess.Popen(
            [JARVIS, "serve", "--demo", "--port", str(port)],
            env=jarvis_env(home),
            cwd=home,
            stdout=log,
            stderr=subprocess.STDOUT,
            **run_as,  # type: ignore[call-overload]
        )
    try:
        yield f"http://127.0.0.1:{port}", log_path
    finally:
        process.terminate()
        try:
            process.wait(HANG_GUARD_SEC)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait()


async def until_healthy(
    url: str, process: subprocess.Popen[str] | None = None, log: Path | None = None
) -> None:
    """Wait (no budget: pytest's timeout guards) until the server answers health, then check
    that it is the one this test started: health is public, so a server started elsewhere on a
    port this one could not bind answers it too, but refuses this process's launch token.
    With `process`, fails at once (with `log`'s tail) if it has ended."""
    async with httpx.AsyncClient(headers=hud_headers()) as http:
        while True:
            if process is not None and process.poll() is not None:
                tail = log_tail(log) if log is not None else ""
                raise AssertionError(f"the server on {url} ended ({process.returncode})\n{tail}")
            try:
                if (await http.get(f"{url}/api/health")).status_code == 200:
                    break
            except httpx.HTTPError:
                pass
            await asyncio.sleep(0.05)
        ours = await http.get(f"{url}/api/sessions")
        assert ours.status_code != 401, f"another server (another launch token) answers on {url}"


@pytest.fixture
async def proxy(dsn: str) -> AsyncIterator[TcpProxy]:
    """A cuttable TCP path to the test PostgreSQL (use `through(proxy, dsn)` as the DSN)."""
    parts = urlsplit(dsn)
    with tcp_proxy(parts.hostname or "127.0.0.1", parts.port or 5432) as running:
        yield running
