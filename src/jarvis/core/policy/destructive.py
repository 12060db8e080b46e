"""Dangerous commands judged on the parsed form (argv and wiring), not on the raw string: what
blocks a bash call before any approval, even with a rule (the regex list in `dangerous.py`
stays as an extra layer). Pure; linear in the size of the analysis.

API: `find_danger(analysis, *, home) -> Danger | None`, `judge_command(command, home)` (the
same, cached by line), `Danger(code, command)`, `DANGER_CODES`, `home_directory()` (the home
the judgement protects: `~` of the server's user).

Codes (each looks through wrappers and runners, quoting, paths like `/bin/rm`, and the code of
`sh -c '..'` / `eval ..`, parsed again up to three levels deep; the arguments are judged after
brace expansion, `braces`, so `rm -rf {/,}` is `rm -rf /`):
- `delete_root`: recursive `rm` (or `mv` away, `unlink`, `rmdir`, `rsync --delete` into, or
  recursive `chmod`/`chown`) of a protected path
  (`danger_paths`: `/`, `//`, `/.`, `~`, `~/.`, `$HOME`, a top-level or system directory, a glob
  in one of them, `..`), of any word that is only an expansion (`rm -rf "$X"`), or of a relative
  glob after `cd` to such a place (`cd / && rm -rf *`).
- `delete_system`: `rm` (recursive or not), `unlink`, `rmdir`, `shred`, `mv`, `truncate` of a
  file in a system tree (`rm -f /etc/passwd`; `danger_paths.is_system`).
- `find_delete_root`: `find` from a protected start with `-delete` or an `-exec`/`-ok` action,
  or from a start in a system tree with `-delete` or `-exec rm` (`find /usr/lib/x -delete`).
- Through `xargs`, what the command feeding its pipe can give it: `find`'s starts, `echo`'s
  words (`find / -name x | xargs rm -f`); from anything else (`ls | xargs rm`) nothing is known
  and the line is asked about, not blocked.
- `pipe_to_shell`: a shell or interpreter that reads its code from a pipe or a process
  substitution (`curl x | sh`, `| env sh`, `| "python3"`, `bash < <(curl x)`), or is given a
  process substitution as its script (`bash <(curl x)`, `source <(curl x)`).
- `download_to_shell`: `eval`, `sh -c`, `python -c` ... of a substitution that downloads
  (`eval "$(curl x)"`, `bash -c "$(wget -O- x)"`).
- `fork_bomb`: a function that calls itself in a pipe or in the background, under any name.
- `device_write`: a write to a device other than the harmless ones (`> /dev/sda`, `tee /dev/sda`,
  `dd of=/dev/nvme0n1`, `cp img /dev/sdb`).
- `too_complex`: what cannot be judged whole: a command behind more wrappers than are looked
  through (`unwrap.MAX_VIEWS`), nesting deeper than the walker follows, or a line too large to
  walk (`shell.MAX_NODES`).
- `disk_tool`: filesystem makers and wipers (`mkfs*`, `mke2fs`, `mkswap`, `wipefs`, `shred`,
  `blkdiscard`, `sgdisk --zap-all`, `fdisk`/`parted` other than listing, ...).
"""

from __future__ import annotations

import functools
import os
import shlex
from dataclasses import dataclass

from jarvis.core.policy import danger_paths
from jarvis.core.policy.argv_policy import reads_code_from_input
from jarvis.core.policy.braces import LIMIT as BRACE_LIMIT
from jarvis.core.policy.braces import expand_braces
from jarvis.core.policy.programs import DOWNLOADERS, SHELLS, is_interpreter, program_name
from jarvis.core.policy.shell import ShellAnalysis, SimpleCommand, analyze_shell
from jarvis.core.policy.unwrap import MAX_SCRIPT_DEPTH, MAX_VIEWS, command_starts, inline_script

DANGER_CODES = frozenset(
    {"delete_root", "delete_system", "find_delete_root", "pipe_to_shell", "download_to_shell",
     "fork_bomb", "device_write", "disk_tool", "too_complex"}
)  # fmt: skip
_HARMLESS_DEVICES = frozenset(
    {"/dev/null", "/dev/zero", "/dev/full", "/dev/random", "/dev/urandom", "/dev/stdin",
     "/dev/stdout", "/dev/stderr", "/dev/tty", "/dev/ptmx", "/dev/console"}
)  # fmt: skip
_HARMLESS_DEVICE_TREES = ("/dev/fd/", "/dev/pts/", "/dev/shm/", "/dev/mqueue/")
_ALWAYS_DISK_TOOLS = frozenset(
    {"mke2fs", "mkswap", "mkntfs", "mkdosfs", "mkexfatfs", "wipefs", "shred", "blkdiscard",
     "wipe", "scrub", "badblocks"}
)  # fmt: skip
# Tools that are harmless only with one of these words (a listing); anything else writes disks.
_LISTING_ONLY = {
    "fdisk": frozenset({"-l", "--list", "-s", "--getsz"}),
    "sfdisk": frozenset({"-l", "--list", "-d", "--dump", "-s", "--show-size", "-V", "--verify"}),
    "gdisk": frozenset({"-l"}),
    "cfdisk": frozenset(),
    "parted": frozenset({"-l", "--list", "print"}),
    "sgdisk": frozenset({"-p", "--print", "-v", "--verify", "-i", "--info", "-L"}),
}
_SUBCOMMAND_WIPES = {
    "nvme": frozenset({"format", "sanitize"}),
    "cryptsetup": frozenset({"luksFormat", "erase", "luksErase", "reencrypt"}),
    "zpool": frozenset({"destroy", "labelclear"}),
    "zfs": frozenset({"destroy"}),
    "hdparm": frozenset({"--security-erase", "--security-erase-enhanced", "--trim-sector-ranges"}),
    "mdadm": frozenset({"--zero-superblock", "--create", "-C"}),
}
_DELETERS = frozenset({"rm", "unlink", "rmdir", "shred", "mv", "truncate"})
_FIND_ACTIONS = frozenset({"-exec", "-execdir", "-ok", "-okdir"})
_RECURSIVE_OWNERS = frozenset({"chmod", "chown", "chgrp", "chattr", "setfacl"})
_JUDGED_BY_ARGUMENTS = frozenset(
    {
        "rm",
        "mv",
        "find",
        "dd",
        "tee",
        "cp",
        "install",
        "rsync",
        "ddrescue",
        "pv",
        "truncate",
        "unlink",
        "rmdir",
    }
    | _ALWAYS_DISK_TOOLS
    | _LISTING_ONLY.keys()
    | _SUBCOMMAND_WIPES.keys()
    | _RECURSIVE_OWNERS
)
_CODE_FLAGS = frozenset({"-c", "-e", "-E", "-r", "--eval", "--command", "-Command"})


@dataclass(frozen=True, slots=True)
class Danger:
    code: str
    command: str  # the offending simple command, re-quoted

    def describe(self) -> str:
        return f"{self.code}: {self.command}"


def home_directory() -> str:
    return os.path.expanduser("~")


@functools.lru_cache(maxsize=4096)  # the gate's hot path sees the same lines again and again
def judge_command(command: str, home: str) -> Danger | None:
    return find_danger(analyze_shell(command), home=home)


def find_danger(
    analysis: ShellAnalysis, *, home: str, depth: int = 0, cwd: str | None = ""
) -> Danger | None:
    commands = analysis.commands
    if "too_deep" in analysis.unsafe or "too_complex" in analysis.unsafe:
        return Danger("too_complex", commands[0].text()[:400] if commands else "")
    downloading = _holding_downloads(commands)
    for index, command in enumerate(commands):
        argv = command.argv
        if not argv:
            continue  # a bare assignment runs nothing
        if any(_is_device(target) for target in command.writes):
            return Danger("device_write", command.text()[:400])
        first = program_name(argv[0])
        starts = command_starts(argv)
        if len(starts) >= MAX_VIEWS:
            return Danger("too_complex", shlex.join(argv)[:400])
        for start in starts:
            name = first if start == 0 else program_name(argv[start])
            code = _judge(argv, start, name, command, home, cwd)
            if code is None and start and name in _DELETERS and "xargs" in argv[:start]:
                reach = _piped_reach(commands, index)  # `find / | xargs rm -f`
                if reach:
                    code = _judge((*argv, *reach), start, name, command, home, cwd)
            if code is None and index in downloading and _runs_given_code(argv, start):
                code = "download_to_shell"
            if code is not None:
                return Danger(code, shlex.join(argv[start:])[:400])
            if depth < MAX_SCRIPT_DEPTH and (name == "eval" or name in SHELLS):
                script = inline_script(argv, start)
                inner = None if script is None else analyze_shell(script)
                found = (
                    None
                    if inner is None
                    else find_danger(inner, home=home, depth=depth + 1, cwd=cwd)
                )
                if found is not None:
                    return found
        if first in ("cd", "pushd"):
            target = next((w for w in argv[1:] if not w.startswith("-")), None)
            cwd = danger_paths.change_directory(target, home, cwd)
        if command.function == first and _spawns(command):
            return Danger("fork_bomb", command.text()[:400])
    return None


def _judge(
    argv: tuple[str, ...],
    start: int,
    name: str,
    command: SimpleCommand,
    home: str,
    cwd: str | None,
) -> str | None:
    """The danger of the command `name` at `argv[start:]`. The name is looked at first so that
    the rest is copied only for the few programs that need it (wrapper chains stay linear)."""
    if name in _JUDGED_BY_ARGUMENTS or name.startswith(("mkfs", "newfs")):
        args = _expanded(argv[start + 1 :])  # judged as bash will give them: `/{,}` is `/ /`
        if args is None:
            return "too_complex"
        if name == "rm" and _recursive(args) and _any_protected(_operands(args), home, cwd):
            return "delete_root"
        if name in _DELETERS and _any_system(_operands(args), home, cwd):
            return "delete_system"
        if name in ("unlink", "rmdir") and _any_protected(_operands(args), home, cwd):
            return "delete_root"
        if name == "rsync" and _rsync_deletes_root(args, home, cwd):
            return "delete_root"
        owners = name in _RECURSIVE_OWNERS and _recursive(args, "R")
        if owners and _any_protected(_operands(args)[1:], home, cwd):
            return "delete_root"
        if name == "mv" and _any_protected(_operands(args)[:-1], home, cwd):
            return "delete_root"
        if name == "find" and _find_deletes_root(args, home, cwd):
            return "find_delete_root"
        if any(_is_device(target) for target in _written_files(name, args)):
            return "device_write"
        if _wipes_disks(name, args):
            return "disk_tool"
    runs_code = name in ("source", ".") or is_interpreter(name)
    if runs_code and _feeds_code(argv[start + 1 :], command):
        return "pipe_to_shell"
    return None


def _expanded(args: tuple[str, ...]) -> tuple[str, ...] | None:
    """The words after brace expansion; None past `braces.LIMIT` words."""
    if not any("{" in word for word in args):
        return args
    words: list[str] = []
    for word in args:
        expanded = expand_braces(word)
        if expanded is None or len(words) + len(expanded) > BRACE_LIMIT:
            return None
        words.extend(expanded)
    return tuple(words)


def _rsync_deletes_root(args: tuple[str, ...], home: str, cwd: str | None) -> bool:
    """`rsync --delete empty/ /`: the destination loses everything the source lacks."""
    deletes = any(w.startswith("--del") or w.startswith("--remove-source") for w in args)
    operands = _operands(args)
    return deletes and len(operands) > 1 and _any_protected(operands[-1:], home, cwd)


def _spawns(command: SimpleCommand) -> bool:
    """A call that does not wait for itself: in a pipe or in the background."""
    return command.piped or command.background or command.stdin == "pipe"


def _recursive(args: tuple[str, ...], letters: str = "rR") -> bool:
    for word in args:
        if word == "--":
            return False
        if word == "--recursive" or (
            word.startswith("-") and not word.startswith("--") and any(c in word for c in letters)
        ):
            return True
    return False


def _operands(args: tuple[str, ...]) -> tuple[str, ...]:
    if "--" in args:
        cut = args.index("--")
        return tuple(w for w in args[:cut] if not w.startswith("-")) + args[cut + 1 :]
    return tuple(w for w in args if not w.startswith("-") or w == "-")


def _any_protected(words: tuple[str, ...], home: str, cwd: str | None) -> bool:
    for word in words:
        path = danger_paths.resolve(word, home, cwd)
        if path is None or danger_paths.is_protected(path, home):
            return True
    return False


def _any_system(words: tuple[str, ...], home: str, cwd: str | None) -> bool:
    """Known paths only: `rm -f "$tmp"` is not judged here (a recursive one is, above)."""
    for word in words:
        path = danger_paths.resolve(word, home, cwd)
        if path is not None and danger_paths.is_system(path, home):
            return True
    return False


def _find_starts(args: tuple[str, ...]) -> tuple[str, ...]:
    starts: list[str] = []
    for word in args:
        if word in ("-H", "-L", "-P"):
            continue
        if word.startswith(("-", "(", "!", ",")):
            break
        starts.append(word)
    return tuple(starts) or (".",)


def _find_deletes_root(args: tuple[str, ...], home: str, cwd: str | None) -> bool:
    """Any action from a protected start; a deleting one (`-delete`, `-exec rm`) from a start
    in a system tree (`find /usr/lib/x -delete`)."""
    starts = _find_starts(args)
    acts = any(w == "-delete" or w in _FIND_ACTIONS for w in args)
    if acts and _any_protected(starts, home, cwd):
        return True
    deletes = "-delete" in args or any(
        word in _FIND_ACTIONS and program_name(args[i + 1]) in _DELETERS
        for i, word in enumerate(args[:-1])
    )
    return deletes and _any_system(starts, home, cwd)


def _piped_reach(commands: tuple[SimpleCommand, ...], index: int) -> tuple[str, ...] | None:
    """The paths `xargs` can be given by the command that feeds it: what `find` starts from,
    the words `echo`/`printf` print; None when the gate cannot say (`ls`, `cat list`)."""
    if index == 0 or commands[index].stdin != "pipe" or not commands[index - 1].piped:
        return None
    argv = commands[index - 1].argv
    name = program_name(argv[0]) if argv else ""
    if name == "find":
        return _find_starts(argv[1:])
    if name in ("echo", "printf"):
        return tuple(word for word in argv[1:] if not word.startswith("-"))
    return None


def _feeds_code(args: tuple[str, ...], command: SimpleCommand) -> bool:
    """A shell or interpreter whose code comes from a pipe or a process substitution."""
    if any(word.startswith("<(") for word in args):
        return True  # `bash <(curl x)`, `source <(curl x)`
    if command.stdin not in ("pipe", "process_substitution"):
        return False
    return reads_code_from_input(("sh", *args))  # `| xargs sh`: data as script names, a file


def _runs_given_code(argv: tuple[str, ...], start: int) -> bool:
    name = program_name(argv[start])
    if name == "eval" or inline_script(argv, start) is not None:
        return True
    return is_interpreter(name) and any(w in _CODE_FLAGS for w in argv[start + 1 :])


def _holding_downloads(commands: tuple[SimpleCommand, ...]) -> frozenset[int]:
    """Indices of the commands whose words hold a downloader's output (`$(curl ..)`), directly
    or through other substitutions."""
    holding: set[int] = set()
    for command in commands:
        if not command.argv or program_name(command.argv[0]) not in DOWNLOADERS:
            continue
        owner, steps = command.owner, 0
        while owner >= 0 and owner not in holding and steps < len(commands):
            holding.add(owner)
            owner, steps = commands[owner].owner, steps + 1
    return frozenset(holding)


def _written_files(name: str, args: tuple[str, ...]) -> tuple[str, ...]:
    if name == "dd":
        return tuple(w[3:] for w in args if w.startswith("of="))
    operands = _operands(args)
    if name == "tee":
        return operands
    if name in ("cp", "mv", "install", "rsync", "ddrescue", "pv", "truncate") and operands:
        return operands[-1:] if name != "truncate" else operands
    return ()


def _is_device(path: str) -> bool:
    path = path.strip("'\"")
    if not path.startswith("/dev/") or path in _HARMLESS_DEVICES:
        return False
    return not path.startswith(_HARMLESS_DEVICE_TREES)


def _wipes_disks(name: str, args: tuple[str, ...]) -> bool:
    if name in _ALWAYS_DISK_TOOLS or name.startswith(("mkfs", "newfs")):
        return True
    listing = _LISTING_ONLY.get(name)
    if listing is not None:
        return not any(word in listing for word in args)
    wipes = _SUBCOMMAND_WIPES.get(name)
    return wipes is not None and any(word in wipes for word in args)
