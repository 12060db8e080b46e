"""The edge of the workspace boundary: where a path argument really leads (file system reads).

API:
- `Target(lexical, real, resolved)`; `locate(raw, workspace) -> Target`: `raw` as the file tools
  read it (`~` expanded, relative to `workspace`); `lexical` folds `..` as text, `real` follows
  symlinks the way the kernel does (`link/..` is the link target's parent), keeping the part that
  does not exist yet as written. `workspace` must be a real path. A path that cannot be followed
  (a symlink loop, a parent it may not search, a name too long, another user's `/proc/N/root`)
  is `resolved=False` with `real` = `lexical`: nobody can say where it leads, so the gate asks.
- `escaping_link(raw, workspace) -> str | None`: the first symlink on the way to `raw` whose
  target leaves the workspace (written relative to it), for a path written inside it.
- `real_workspace(path)`: the workspace's real path, cached.
"""

from __future__ import annotations

import errno
import functools
import os
import posixpath
import stat
from dataclasses import dataclass
from pathlib import Path

_MISSING = frozenset({errno.ENOENT, errno.ENOTDIR})
_UNPLAIN = frozenset({"", ".", ".."})  # components that need normalising


@dataclass(frozen=True, slots=True)
class Target:
    lexical: str
    real: str
    resolved: bool = True


@functools.lru_cache(maxsize=64)
def real_workspace(path: Path | str) -> str:
    return os.path.realpath(path)


def joined(raw: str, workspace: str) -> str:
    """`raw` made absolute like the file tools do (`~` expanded, relative to the workspace)."""
    return posixpath.join(workspace, _expand(raw))


def locate(raw: str, workspace: str) -> Target:
    path = joined(raw, workspace)
    lexical = _collapse(posixpath.normpath(path))
    real = resolve(path, workspace)
    return Target(lexical, lexical, resolved=False) if real is None else Target(lexical, real)


def real_path(path: str, workspace: str) -> str:
    """Where `path` leads; as written (normalised) when that cannot be found out."""
    real = resolve(path, workspace)
    return _collapse(posixpath.normpath(path)) if real is None else real


def resolve(path: str, workspace: str) -> str | None:
    """`os.path.realpath(path)`, with a fast walk for paths below the (real) workspace: one
    `lstat` per component under it instead of one per component from `/`. None when the path
    cannot be followed (`ELOOP`, `EACCES`, `ENAMETOOLONG`, …): only a missing tail is fine."""
    prefix = workspace if workspace.endswith("/") else workspace + "/"
    if not path.startswith(prefix):
        return _realpath(path)
    current = prefix[:-1]  # "" for the root, so `current + "/" + part` needs no join
    parts = path[len(prefix) :].split("/")
    for index, part in enumerate(parts):
        if part in _UNPLAIN:
            if part == "..":
                current = posixpath.dirname(current).rstrip("/")
            continue
        candidate = f"{current}/{part}"
        try:
            mode = os.lstat(candidate).st_mode
        except ValueError:  # an embedded NUL: no file has that name
            return None
        except OSError as exc:
            if exc.errno in _MISSING:  # the rest does not exist: it stays as written
                rest = parts[index + 1 :]
                if _UNPLAIN.isdisjoint(rest):
                    return "/".join((candidate, *rest))
                # `missing/../link` is folded by our tools before they open it, so the link
                # after the `..` is what they would follow: resolve the whole path
            return _realpath(path)
        if stat.S_ISLNK(mode):
            return _realpath(path)
        current = candidate
    return current or "/"


def _realpath(path: str) -> str | None:
    """The kernel's answer, or None when it has none: a missing tail is kept as written, any
    other failure (a loop, a permission, a name too long) leaves the path unresolved."""
    try:
        return os.path.realpath(path, strict=True)
    except OSError as exc:
        if exc.errno not in _MISSING:
            return None
    except ValueError:  # an embedded NUL
        return None
    try:
        return os.path.realpath(path)
    except (OSError, ValueError):
        return None


def escaping_link(raw: str, workspace: str) -> str | None:
    path = joined(raw, workspace)
    if not _within(_collapse(posixpath.normpath(path)), workspace):
        return None  # written outside: the gate asked about exactly this path
    current = ""
    for part in path.split("/"):
        if part in ("", "."):
            current = current or "/"
            continue
        if part == "..":
            current = posixpath.dirname(current)
            continue
        candidate = posixpath.join(current or "/", part)
        try:
            is_link = stat.S_ISLNK(os.lstat(candidate).st_mode)
        except (OSError, ValueError):
            return None  # nothing further exists, so nothing further can lead elsewhere
        if is_link:
            target = _realpath(candidate)
            if target is None:
                return posixpath.relpath(candidate, workspace)  # leads nobody knows where
            if _within(candidate, workspace) and not _within(target, workspace):
                return posixpath.relpath(candidate, workspace)
            candidate = target
        current = candidate
    return None


def _within(path: str, root: str) -> bool:
    return root == "/" or path == root or path.startswith(root.rstrip("/") + "/")


def _collapse(path: str) -> str:
    return "/" + path.lstrip("/") if path.startswith("//") else path


def _expand(raw: str) -> str:
    """`~` expanded; most paths have none, and expanduser reads the environment each time."""
    return os.path.expanduser(raw) if raw.startswith("~") else raw
