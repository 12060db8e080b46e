"""The next confined `bash` call's bubblewrap, started ahead and waiting for its command line.

Starting bwrap, and as root moving it into the call's `pids` cgroup (a cgroup migration: 2 ms
p50, ~15 ms p95 on a cgroup-v1 host), used to be on the call's path. A `Ready` does both before
the call: its process joins a fresh `PidsGroup` (as root; a bash that writes `0` to the group's
`cgroup.procs`, then `exec -c`s bwrap), then bwrap blocks reading more options (`--args FD`,
NUL-separated) from a pipe only Jarvis writes; its command (the outer bash and its script) is
already on its command line. `go(...)` writes the call's options — every allow-listed variable
as `--setenv` first (bwrap itself starts with an empty environment), the command as one more
variable (the outer bash takes it and unsets it), then the sandbox — and closes the pipe: bwrap
goes on as if Jarvis had just started it. The process is Jarvis's own child in its own
session, as bwrap started directly is; the output pipes, the status pipe and the outer stdin
were made with it and are handed to the call.

A `Ready` never used is `discard()`ed: the pipe closes empty, bwrap exits ("no command"), its
group is removed. If Jarvis dies, the pipe closes the same way.

- `prepare(confiner) -> Ready | None` (None where it cannot: not Linux, no sandbox);
- `ready.fresh()` (still waiting); `ready.pipes()` (the read ends of stdout, stderr and the
  status pipe, for `Capture`); `ready.go(options, environment, command) -> stdin` (the outer
  stdin's write end); `ready.discard()` (never used); `.popen`, `.group`.
"""

from __future__ import annotations

import contextlib
import os
import subprocess
from collections.abc import Sequence
from pathlib import Path

from jarvis.core.confine import Confiner
from jarvis.core.confine.pids import PidsGroup
from jarvis.core.confine.plan import limit_prefix
from jarvis.core.tools.builtins import _launch as launch
from jarvis.core.tools.builtins import _reaper as reaper

COMMAND = "JARVIS_BASH_COMMAND"


class Ready:
    def __init__(
        self,
        popen: subprocess.Popen[bytes],
        control: int,
        pipes: tuple[int, int, int],
        stdin: int,
        group: PidsGroup | None,
    ) -> None:
        self.popen = popen
        self._control: int | None = control
        self._pipes: tuple[int, int, int] | None = pipes
        self._stdin: int | None = stdin
        self.group = group

    def fresh(self) -> bool:
        return self._control is not None and self.popen.poll() is None

    def pipes(self) -> tuple[int, int, int]:
        """The read ends of stdout, stderr and status, once: the caller closes them from now."""
        assert self._pipes is not None
        pipes, self._pipes = self._pipes, None
        return pipes

    def go(self, options: Sequence[str], environment: dict[str, str], command: str) -> int:
        """Start the call: bwrap's `options` (the sandbox: `Confiner.wrap` without the command),
        the environment and the command (a variable the outer bash takes and unsets); the outer
        stdin's write end (the caller's from now). Synchronous: when this returns, bwrap has
        them and goes on."""
        setenv = [part for item in environment.items() for part in ("--setenv", *item)]
        args = [*setenv, "--setenv", COMMAND, command, *options]
        assert self._control is not None and self._stdin is not None
        control, self._control = self._control, None
        stdin, self._stdin = self._stdin, None
        try:
            os.write(control, b"".join(arg.encode() + b"\0" for arg in args))
        except BaseException:
            os.close(stdin)
            raise
        finally:
            os.close(control)
        return stdin

    def discard(self) -> None:
        """Never used: bwrap ends without running anything; what is still ours is closed."""
        if self._control is None:
            return  # used: the call owns the process
        os.close(self._control)
        self._control = None
        for fd in (*(self._pipes or ()), *((self._stdin,) if self._stdin is not None else ())):
            os.close(fd)
        self._pipes = self._stdin = None
        with contextlib.suppress(OSError):
            self.popen.kill()
        self.popen.wait()
        if self.group is not None:
            self.group.remove()


def prepare(confiner: Confiner) -> Ready | None:
    """The outer bash's script is `shell.py`'s for a confined call, less the cgroup join (bwrap
    is in the group already) and with the command from the variable `COMMAND`."""
    if not confiner.active:
        return None
    bwrap = confiner.probe.bwrap
    group = confiner.pids_group()
    control_r, control_w = os.pipe()
    out_r, out_w = os.pipe()
    err_r, err_w = os.pipe()
    status_r, status_w = os.pipe()
    stdin_r, stdin_w = os.pipe()
    alive = launch.lifeline()
    script = f"read -t 0 -u {alive} && exit 0; exec {alive}<&-; "
    script += limit_prefix(confiner.limits)
    script += f'set -- "${COMMAND}"; unset {COMMAND}; '
    script += reaper.OUTER_SCRIPT.format(status_fd=status_w)
    fds = [control_r, status_w, alive]
    sandbox = ["--args", str(control_r), "--", "/bin/bash", "-c", script, "bash"]
    if group is not None:
        fds.append(group.join_fd)
        join = f"echo 0 >&{group.join_fd} || exit 125; exec {group.join_fd}>&-; "
        argv = ["/bin/bash", "-c", f'{join}exec -c "$@"', "bash", bwrap, *sandbox]
    else:
        argv = [bwrap, *sandbox]
    try:
        popen = launch.start(argv, Path("/"), {}, stdin_r, out_w, err_w, fds)
    except BaseException:
        for fd in (control_w, out_r, err_r, status_r, stdin_w):
            os.close(fd)
        if group is not None:
            group.remove()
        raise
    finally:
        for fd in (control_r, out_w, err_w, status_w, stdin_r):
            os.close(fd)
        if group is not None:
            group.close_fd()
    return Ready(popen, control_w, (out_r, err_r, status_r), stdin_w, group)
