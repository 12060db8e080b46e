"""The edge of the workspace boundary: where a path argument really leads (file system reads).

API:
- `Target(lexical, real)`; `locate(raw, workspace) -> Target`: `raw` as the file tools read it
  (`~` expanded, relative to `workspace`); `lexical` folds `..` as text, `real` follows symlinks
  the way the kernel does (`link/..` is the link target's parent), keeping the part that does not
  exist yet as written. `workspace` must be a real path.
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


@functools.lru_cache(maxsize=64)
def real_workspace(path: Path | str) -> str:
    return os.path.realpath(path)


def joined(raw: str, workspace: str) -> str:
    """`raw` made absolute like the file tools do (`~` expanded, relative to the workspace)."""
    return posixpath.join(workspace, _expand(raw))


def locate(raw: str, workspace: str) -> Target:
    path = joined(raw, workspace)
    return Target(_collapse(posixpath.normpath(path)), real_path(path, workspace))


def real_path(path: str, workspace: str) -> str:
    """`os.path.realpath(path)`, with a fast walk for paths below the (real) workspace: one
    `lstat` per component under it instead of one per component from `/`."""
    prefix = workspace if workspace.endswith("/") else workspace + "/"
    if not path.startswith(prefix):
        return os.path.realpath(path)
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
        except OSError as exc:
            if exc.errno in _MISSING:  # the rest does not exist: it stays as written
                rest = parts[index + 1 :]
                if _UNPLAIN.isdisjoint(rest):
                    return "/".join((candidate, *rest))
                # `missing/../link` is folded by our tools before they open it, so the link
                # after the `..` is what they would follow: resolve the whole path
            return os.path.realpath(path)
        if stat.S_ISLNK(mode):
            return os.path.realpath(path)
        current = candidate
    return current or "/"


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
        except OSError:
            return None  # nothing further exists, so nothing further can lead elsewhere
        if is_link:
            target = os.path.realpath(candidate)
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
