"""Which secret locations a confined process must not see: the gate's deny list made concrete.

The boundary's patterns (`core/policy/boundary.py`: `~/.ssh`, `~/.aws`, `$JARVIS_HOME`, `.env*`
anywhere, keyrings, …, plus `security.secret_paths`) are turned into the existing paths that
bubblewrap covers: anchored patterns (`~/…`, `/…`, `$JARVIS_HOME`) by globbing, bare names
(`.ssh`, `.env*`) by a bounded walk of the home directory and of every directory on the way
from `/` to the workspace. Secrets inside the workspace stay (the gate judges those); a secret
that holds the workspace cannot be covered and is left to the gate too.

API:
- `SecretLocations(boundary, scan_depth=3, scan_entries=20000)`; `.find() -> (dirs, files)`,
  real paths, sorted. The walk's result is kept for `rescan_sec`; the anchored ones are
  looked up on every call (a new `~/.aws` is hidden at once).
"""

from __future__ import annotations

import glob
import os
import time
from collections.abc import Iterable

from jarvis.core.policy.boundary import DEFAULT_SECRET_PATHS, JARVIS_HOME_TOKEN, Boundary

# Directories never walked for bare secret names: big, and no one keeps credentials there.
_OWN = ("/proc/", "/run/", "/var/run/")
_SKIP = frozenset({"node_modules", ".cache", ".git", ".venv", "venv", "__pycache__", ".npm"})


class SecretLocations:
    def __init__(
        self,
        boundary: Boundary,
        extra: Iterable[str] = (),
        *,
        scan_depth: int = 3,
        scan_entries: int = 20_000,
        rescan_sec: float = 30.0,
    ) -> None:
        self._boundary = boundary
        patterns = (*DEFAULT_SECRET_PATHS, *extra)
        self._anchored = tuple(p.strip() for p in patterns if _anchored(p.strip()))
        self._depth = scan_depth
        self._entries = scan_entries
        self._rescan = rescan_sec
        self._walked: tuple[float, frozenset[str]] | None = None

    def find(self) -> tuple[tuple[str, ...], tuple[str, ...]]:
        found = set(self._anchored_paths()) | self._walked_paths()
        keep = {real for real in map(os.path.realpath, found) if self._coverable(real)}
        dirs = sorted(path for path in keep if os.path.isdir(path))
        files = sorted(path for path in keep if path not in dirs and os.path.lexists(path))
        return tuple(_outermost(dirs)), tuple(f for f in files if not _under_any(f, dirs))

    def _coverable(self, path: str) -> bool:
        """Outside the workspace and not one of its ancestors (`/`, `~`)."""
        workspace = self._boundary.workspace
        return not self._boundary.inside(path) and not workspace.startswith(path.rstrip("/") + "/")

    def _anchored_paths(self) -> list[str]:
        b = self._boundary
        found: list[str] = []
        for pattern in self._anchored:
            if pattern.startswith(JARVIS_HOME_TOKEN):
                if b.jarvis_home is None:
                    continue
                rest = pattern[len(JARVIS_HOME_TOKEN) :].lstrip("/")
                if rest:
                    base = f"{b.jarvis_home}/{rest}"
                elif b.inside(b.jarvis_home) or b.workspace.startswith(b.jarvis_home + "/"):
                    # The data dir is (or holds) the workspace: only its secret entries go.
                    found += [e.path for e in _entries(b.jarvis_home) if b.secret(e.path)]
                    continue
                else:
                    base = b.jarvis_home
            elif pattern == "~" or pattern.startswith("~/"):
                base = b.home + pattern[1:]
            else:
                base = pattern
            found += glob.glob(base.replace("**", "*"), include_hidden=True)
        return found

    def _walked_paths(self) -> frozenset[str]:
        now = time.monotonic()
        if self._walked is not None and now - self._walked[0] < self._rescan:
            return self._walked[1]
        found: set[str] = set()
        budget = [self._entries]
        self._walk(self._boundary.home, self._depth, found, budget)
        ancestor = os.path.dirname(self._boundary.workspace)
        while True:
            self._walk(ancestor, 1, found, budget)
            if ancestor == "/":
                break
            ancestor = os.path.dirname(ancestor)
        result = frozenset(found)
        self._walked = (now, result)
        return result

    def _walk(self, root: str, depth: int, found: set[str], budget: list[int]) -> None:
        if depth <= 0 or budget[0] <= 0:
            return
        for entry in _entries(root):
            budget[0] -= 1
            if budget[0] <= 0:
                return
            if self._boundary.secret(entry.path) is not None:
                found.add(entry.path)
            elif (
                entry.name not in _SKIP and _is_dir(entry) and not self._boundary.inside(entry.path)
            ):
                self._walk(entry.path, depth - 1, found, budget)


def _anchored(pattern: str) -> bool:
    # The sandbox has its own /proc and an empty /run: nothing there to cover.
    return pattern.startswith(("~", "/", JARVIS_HOME_TOKEN)) and not pattern.startswith(_OWN)


def _entries(directory: str) -> list[os.DirEntry[str]]:
    try:
        with os.scandir(directory) as it:
            return list(it)
    except OSError:
        return []


def _is_dir(entry: os.DirEntry[str]) -> bool:
    try:
        return entry.is_dir(follow_symlinks=False)
    except OSError:
        return False


def _under_any(path: str, dirs: Iterable[str]) -> bool:
    return any(path.startswith(d.rstrip("/") + "/") for d in dirs)


def _outermost(dirs: list[str]) -> list[str]:
    """Drop directories inside another hidden one (its tmpfs already covers them)."""
    kept: list[str] = []
    for directory in sorted(dirs):
        if not _under_any(directory, kept):
            kept.append(directory)
    return kept
