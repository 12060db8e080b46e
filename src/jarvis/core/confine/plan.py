"""The bubblewrap command line for one confined process. Pure: every path comes in resolved.

API:
- `Limits(processes, memory_mb, file_mb, tmp_mb)`: the resource limits of one confined call.
- `Confinement(workspace, hidden_dirs, hidden_files, network, limits, writable)`.
- `bwrap_argv(bwrap, confinement, command) -> list[str]`: `bwrap … -- command…`:
  - `/` read-only; a fresh `/dev`, a `/proc` of its own PID namespace (no other process's
    `environ` or `root`), a private `/tmp` (tmpfs of `tmp_mb`) and an empty `/run` (no D-Bus,
    Docker, keyring or agent sockets);
  - the workspace (and `writable`) bound read-write;
  - `hidden_dirs` covered by an empty tmpfs, `hidden_files` by `/dev/null`;
  - every namespace unshared (network too unless `network`), all capabilities dropped, a new
    session (no `TIOCSTI` into the terminal), killed with its parent, and the command runs as
    PID 1 of its namespace: when it exits the kernel kills everything it left behind.
- `with_limits(limits, argv) -> list[str]`: `argv` run by `/bin/sh` after those `ulimit`s.
- `limit_prefix(limits) -> str`: shell lines (`ulimit`) that set the limits inside the sandbox,
  after bubblewrap made its user namespace (so the process count is the sandbox's own).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass


@dataclass(frozen=True)
class Limits:
    processes: int = 256
    memory_mb: int = 4096
    file_mb: int = 1024
    tmp_mb: int = 512


@dataclass(frozen=True)
class Confinement:
    workspace: str
    hidden_dirs: tuple[str, ...] = ()
    hidden_files: tuple[str, ...] = ()
    network: bool = False
    limits: Limits = Limits()
    writable: tuple[str, ...] = ()
    # Where resolv.conf really lives when it is under /run (systemd-resolved): bound back in
    # when the call has network.
    dns_dirs: tuple[str, ...] = ()
    # The command itself is PID 1 (bash: orphans come to it); else bwrap's own init is, which
    # reaps them for a long-running server that would not.
    as_pid_1: bool = True


def bwrap_argv(bwrap: str, confinement: Confinement, command: Sequence[str]) -> list[str]:
    c = confinement
    argv = [bwrap, "--ro-bind", "/", "/", "--dev", "/dev", "--proc", "/proc"]
    argv += ["--size", str(c.limits.tmp_mb * 1024 * 1024), "--tmpfs", "/tmp"]
    argv += ["--tmpfs", "/run"]
    if c.network:
        for directory in c.dns_dirs:
            argv += ["--ro-bind-try", directory, directory]
    for directory in c.hidden_dirs:
        argv += ["--tmpfs", directory]
    for file in c.hidden_files:
        argv += ["--ro-bind", "/dev/null", file]
    # Bound after the masks: a workspace under /tmp or beside a hidden name stays reachable.
    for path in (c.workspace, *c.writable):
        argv += ["--bind", path, path]
    argv += ["--chdir", c.workspace, "--setenv", "TMPDIR", "/tmp"]
    argv += ["--unshare-all"]
    if c.network:
        argv += ["--share-net"]
    argv += ["--cap-drop", "ALL", "--new-session", "--die-with-parent"]
    argv += ["--as-pid-1", "--"] if c.as_pid_1 else ["--"]
    return [*argv, *command]


def dns_dirs(resolv_conf_target: str) -> tuple[str, ...]:
    """The directory resolv.conf really lives in when that is under /run (systemd-resolved),
    which the empty /run would otherwise hide from a call that has network."""
    head = resolv_conf_target.rpartition("/")[0]
    return (head,) if head.startswith("/run/") else ()


def limit_prefix(limits: Limits) -> str:
    """`ulimit` lines for bash (`-v` in KiB, `-f` in KiB blocks); a limit the hard limit
    already keeps lower stays lower."""
    return (
        f"ulimit -u {limits.processes} 2>/dev/null; "
        f"ulimit -v {limits.memory_mb * 1024} 2>/dev/null; "
        f"ulimit -f {limits.file_mb * 1024} 2>/dev/null; "
    )


def with_limits(limits: Limits, argv: Sequence[str]) -> list[str]:
    return ["/bin/sh", "-c", limit_prefix(limits) + 'exec "$@"', "sh", *argv]
