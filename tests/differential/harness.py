"""Running a command line under real bash with every program replaced by a logging stub, and
comparing what ran with what the gate listed.

- `StubBox(root)`: a stub directory (one logging stub per name, `PATH` is only that directory),
  a `BASH_ENV` file that disables every builtin (so `echo`, `eval`, `exec`, `:` run as stubs and
  are logged too) and sends unknown names to a logging `command_not_found_handle`, and a scratch
  working directory and `HOME`.
- `box.run(line) -> list[Executed]`: `env -i PATH=stubs HOME=scratch BASH_ENV=.. /bin/bash
  --norc --noprofile -c LINE` in the scratch directory, stdin from /dev/null, a generous
  timeout that only guards against hangs.
- `unlisted(listed, executed) -> list[Executed]`: each execution must match one listed simple
  command (program name as bash looked it up, and its argv; a listed word holding `~` matches
  any word, since bash expands it); what is left is a failure.
"""

from __future__ import annotations

import contextlib
import os
import select
import signal
import subprocess
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

BASH = "/bin/bash"
_LINE_TIMEOUT_SEC = 20.0
# `printf` of dash writes each field and a NUL; the field count comes first so that records
# appended to one file by a reused pid stay apart.
_STUB = """#!/bin/sh
printf '%s\\0' "$#" "${0##*/}" "$@" >> "$STUBLOG/$$"
"""


@dataclass(frozen=True)
class Executed:
    name: str
    args: tuple[str, ...]


class StubBox:
    def __init__(self, root: Path, names: Sequence[str]) -> None:
        self.stubs = root / "stubs"
        self.logs = root / "logs"
        self.cwd = root / "cwd"
        self.home = root / "home"
        for folder in (self.stubs, self.logs, self.cwd, self.home):
            folder.mkdir(parents=True, exist_ok=True)
        builtins = _builtins()
        for name in {*names, *builtins, "__notfound"}:
            if name in (".", "..") or "/" in name:
                continue  # no file can have these names; `.` stays disabled and unfound
            stub = self.stubs / name
            stub.write_text(_STUB, encoding="utf-8")
            stub.chmod(0o755)
        self.bash_env = root / "bash_env.sh"
        disabled = " ".join(_quote(name) for name in builtins if name != "enable")
        self.bash_env.write_text(
            "unset BASH_ENV\n"
            'command_not_found_handle() { __notfound "$@"; }\n'
            f"enable -n {disabled}\n"
            "enable -n enable\n",
            encoding="utf-8",
        )

    def run(self, line: str, slot: int = 0) -> list[Executed]:
        logs = self.logs / str(slot)
        logs.mkdir(exist_ok=True)
        for leftover in logs.iterdir():
            leftover.unlink()
        cwd = self.cwd / str(slot)
        cwd.mkdir(exist_ok=True)
        _empty(cwd)
        env = {
            "PATH": str(self.stubs),
            "HOME": str(self.home),
            "STUBLOG": str(logs),
            "BASH_ENV": str(self.bash_env),
        }
        # Every process the line starts inherits the write end of this pipe, so end-of-file on
        # the read end means all of them are gone, `&` ones included: no log is read early.
        barrier, held = os.pipe()
        try:
            process = subprocess.Popen(
                [BASH, "--norc", "--noprofile", "-c", line],
                env=env,
                cwd=cwd,
                stdin=subprocess.DEVNULL,
                stdout=subprocess.DEVNULL,
                stderr=subprocess.DEVNULL,
                pass_fds=(held,),
                start_new_session=True,
            )
            os.close(held)
            held = -1
            _wait_for_eof(barrier, process)
        finally:
            os.close(barrier)
            if held >= 0:
                os.close(held)
        return _read_logs(logs)


def _wait_for_eof(barrier: int, process: subprocess.Popen[bytes]) -> None:
    """Until every process holding the pipe has exited; a hang is killed after the timeout."""
    for _ in range(3):
        ready, _, _ = select.select([barrier], [], [], _LINE_TIMEOUT_SEC)
        if ready and not os.read(barrier, 4096):
            break
        if not ready:  # only guards against a hang; what ran is still judged
            with contextlib.suppress(ProcessLookupError):
                os.killpg(process.pid, signal.SIGKILL)
    process.wait()


def unlisted(listed: Sequence[tuple[str, ...]], executed: Sequence[Executed]) -> list[Executed]:
    remaining = [argv for argv in listed if argv]
    failures: list[Executed] = []
    # exact matches first, so a lenient `~` word is not taken by a run that matches another
    for exact in (True, False):
        unmatched: list[Executed] = []
        for run in executed:
            match = next((argv for argv in remaining if _same(argv, run, exact)), None)
            if match is None:
                unmatched.append(run)
            else:
                remaining.remove(match)
        executed = unmatched
    failures.extend(executed)
    return failures


def _same(argv: tuple[str, ...], run: Executed, exact: bool) -> bool:
    if argv[0].rpartition("/")[2] != run.name or len(argv) - 1 != len(run.args):
        return False
    if exact:
        return argv[1:] == run.args
    return all(want == got or "~" in want for want, got in zip(argv[1:], run.args, strict=True))


def _read_logs(logs: Path) -> list[Executed]:
    executed: list[Executed] = []
    for path in sorted(logs.iterdir()):
        fields = path.read_bytes().split(b"\0")
        index = 0
        while index + 1 < len(fields):
            count = int(fields[index])
            name = fields[index + 1].decode("utf-8", "surrogateescape")
            args = tuple(
                f.decode("utf-8", "surrogateescape") for f in fields[index + 2 : index + 2 + count]
            )
            if name == "__notfound" and args:
                name, args = args[0], args[1:]
            executed.append(Executed(name, args))
            index += 2 + count
    return executed


def _builtins() -> list[str]:
    listing = subprocess.run(
        [BASH, "--norc", "--noprofile", "-c", "compgen -b"],
        capture_output=True,
        text=True,
        check=True,
        env={"PATH": os.defpath},
    )
    return listing.stdout.split()


def _quote(name: str) -> str:
    return "'" + name.replace("'", "'\\''") + "'"


def _empty(folder: Path) -> None:
    for entry in folder.iterdir():
        if entry.is_dir() and not entry.is_symlink():
            _empty(entry)
            entry.rmdir()
        else:
            entry.unlink()
