"""Which paths a destructive command must never be pointed at: `/`, a top-level directory, the
home directory and its ancestors, a few system trees, a glob directly inside any of those, the
workspace's parents, and any path bash would only know after an expansion.

API (pure, lexical: nothing is read from the disk):
- `resolve(word, home, cwd) -> str | None`: the path bash would use for `word` (quotes already
  removed), with `~`, `~/`, `$HOME` and `${HOME}` replaced by `home` and other expansions by
  nothing; relative words joined to `cwd`. None when it cannot be known: the whole word is one
  expansion (`$X`, `"$(..)"`), or `cwd` is unknown.
- `is_protected(path, home) -> bool`: the resolved path is one of the above (relative paths are
  inside the workspace; only `..`, `../..` and globs directly in them are protected).
- `is_system(path, home) -> bool`: protected, or inside a system tree (`/etc/passwd`,
  `/usr/lib/x`), not the home or a scratch tree (`/var/tmp`, `/dev/shm`).
- `change_directory(word, home, cwd) -> str | None`: `cwd` after `cd word` (None: unknown).
  `cwd` is "" for the workspace, a workspace-relative path, or an absolute path.
"""

from __future__ import annotations

import codecs
import fnmatch
import posixpath
import re

# Trees whose direct children are system directories too (`/usr/lib`, `/var/lib`, `/home/bob`).
_SYSTEM_TREES = frozenset(
    {"bin", "boot", "dev", "etc", "home", "lib", "lib32", "lib64", "opt", "proc", "root", "sbin",
     "snap", "srv", "sys", "usr", "var", "Users", "System", "Library", "Applications"}
)  # fmt: skip
_HOME_VARIABLE = re.compile(r"\$(?:HOME\b|\{HOME\})")
_EXPANSION = re.compile(r"\$(?:\{[^}]*\}|\([^)]*\)|[A-Za-z_][A-Za-z0-9_]*|[0-9@*#?$!-])|`[^`]*`")
_WHOLE_EXPANSION = re.compile(
    r"\$(?:\{[^}]*\}|\(.*\)|[A-Za-z_][A-Za-z0-9_]*|[0-9@*#?$!-])|`.*`", re.DOTALL
)
_GLOB = re.compile(r"[*?\[]")
_ANSI_C = re.compile(r"\$'((?:[^'\\]|\\.)*)'")


def resolve(word: str, home: str, cwd: str | None) -> str | None:
    if "$'" in word:
        decoded = _ansi_c(word)
        if decoded is None:
            return None
        word = decoded
    if _WHOLE_EXPANSION.fullmatch(word):
        return None
    text = _HOME_VARIABLE.sub(home, word)
    if text == "~" or text.startswith("~/"):
        text = home + text[1:]
    elif text.startswith("~"):
        text = "/home/" + text[1:]  # `~user`: some home directory
    text = _EXPANSION.sub("", text)
    if text.startswith("/"):
        return _normalise(text)
    if cwd is None:
        return None
    return _normalise(posixpath.join(cwd, text) if cwd else text or ".")


def is_protected(path: str, home: str) -> bool:
    if not path.startswith("/"):
        parts = path.split("/")
        if any(
            part[:1] == "." and _GLOB.search(part) and fnmatch.fnmatchcase("..", part)
            for part in parts
        ):
            return True  # `.*` matches `..` in bash before 5.2
        climbing = [part for part in parts if part != ".."]
        return len(climbing) < len(parts) and (
            not climbing or (len(climbing) == 1 and _GLOB.search(climbing[0]) is not None)
        )
    home = _normalise(home)
    if path == home or (home + "/").startswith(path.rstrip("/") + "/"):
        return True  # the home directory or one of its ancestors (`/`, `/home`)
    parent, name = posixpath.split(path)
    if _GLOB.search(name) and (is_protected(parent, home) or parent == home):
        return True  # `/*`, `~/*`, `/usr/*`
    depth = path.count("/")
    top = path.split("/")[1]
    return depth == 1 or (depth == 2 and top in _SYSTEM_TREES)


# Where the system keeps what it runs and its configuration: a file deleted there is not the
# person's to lose (`rm -f /etc/passwd`), except the trees programs write scratch files to.
_SYSTEM_TOPS = frozenset(
    {"bin", "boot", "dev", "etc", "lib", "lib32", "lib64", "libx32", "opt", "proc", "root",
     "sbin", "snap", "srv", "sys", "usr", "var", "System", "Library", "Applications"}
)  # fmt: skip
_SCRATCH = ("/var/tmp/", "/dev/shm/", "/dev/pts/", "/dev/mqueue/", "/dev/fd/")


def is_system(path: str, home: str) -> bool:
    """A resolved path inside a system tree (not the home directory or below, not a scratch
    tree like `/var/tmp`), or a protected one."""
    if not path.startswith("/"):
        return is_protected(path, home)
    home = _normalise(home)
    if path == home or path.startswith(home.rstrip("/") + "/"):
        return False
    if (path + "/").startswith(_SCRATCH):
        return False
    return path.split("/")[1] in _SYSTEM_TOPS or is_protected(path, home)


def change_directory(word: str | None, home: str, cwd: str | None) -> str | None:
    if word is None:
        return home  # `cd` alone goes home
    if word == "-":
        return None
    return resolve(word, home, cwd)


def _ansi_c(word: str) -> str | None:
    """`$'/'` as bash reads it (`$'\\x2f'` is `/`); None when it cannot be decoded."""
    try:
        return _ANSI_C.sub(lambda found: codecs.decode(found.group(1), "unicode_escape"), word)
    except (UnicodeDecodeError, ValueError):
        return None


def _normalise(path: str) -> str:
    normal = posixpath.normpath(path)
    if normal.startswith("//"):
        normal = "/" + normal.lstrip("/")  # the kernel reads `//` as `/`
    return normal
