"""The workspace boundary inside the file tools (the gate judged the call; the tools judge again
at the moment they touch the file, and judge every file a walk meets).

- Secret locations are refused by every file tool and skipped by grep, glob and list_dir.
- write_file/edit_file refuse a path written inside the workspace whose real path leaves it
  (a symlink on the way, or `link/..`), naming the link.
- Files are opened by their real path with `O_NOFOLLOW`, so a symlink swapped in for the last
  component after the check is refused by the kernel.
"""

from __future__ import annotations

import functools
import os
from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path
from typing import IO, Any

from jarvis.core.policy.boundary import Boundary
from jarvis.core.policy.paths import Target, escaping_link, locate, real_workspace
from jarvis.core.tools.builtins._args import display_path

_NOFOLLOW = getattr(os, "O_NOFOLLOW", 0) | getattr(os, "O_CLOEXEC", 0)


@dataclass(frozen=True)
class SecretPlaces:
    """What the tools need to build a `Boundary` for a workspace."""

    home: str | None = None  # None: `~` at the time of the call
    jarvis_home: str | None = None
    extra: tuple[str, ...] = ()

    @classmethod
    def of(
        cls, home: Path | None, jarvis_home: Path | None, extra: Iterable[str] = ()
    ) -> SecretPlaces:
        return cls(
            os.path.realpath(home) if home is not None else None,
            os.path.realpath(jarvis_home) if jarvis_home is not None else None,
            tuple(extra),
        )

    def boundary(self, workspace: Path) -> Boundary:
        home = self.home or os.path.realpath(os.path.expanduser("~"))
        return _compiled(real_workspace(workspace), home, self.jarvis_home, self.extra)


@functools.lru_cache(maxsize=32)
def _compiled(
    workspace: str, home: str, jarvis_home: str | None, extra: tuple[str, ...]
) -> Boundary:
    return Boundary(workspace, home, jarvis_home, extra)


def target(path: Path, workspace: Path) -> Target:
    """Where `path` (already joined to the workspace) leads; the workspace prefix is swapped for
    its real path so both paths can be compared with the boundary's."""
    return locate(_on_real_workspace(path, workspace), real_workspace(workspace))


def secret_problem(boundary: Boundary, where: Target, shown: str, tool: str) -> str | None:
    for path in (where.lexical, where.real):
        label = boundary.secret(path)
        if label is not None:
            return (
                f"{shown} is a secret location (matches {label!r}); {tool} never reads or "
                "writes it, and no approval can change that"
            )
    return None


def write_problem(boundary: Boundary, path: Path, workspace: Path, tool: str) -> str | None:
    """Why `tool` must not write `path`: a secret, or a way out of the workspace."""
    where = target(path, workspace)
    shown = display_path(path, workspace)
    problem = secret_problem(boundary, where, shown, tool)
    if problem is not None:
        return problem
    if not boundary.inside(where.lexical) or boundary.inside(where.real):
        return None
    link = escaping_link(_on_real_workspace(path, workspace), boundary.workspace)
    via = f"{link} is a symbolic link leading outside the workspace, so " if link else ""
    return (
        f"refused: {via}{shown} really is {where.real}, outside the workspace. Writing through "
        "a link that leaves the workspace is never done; pass that real path instead if it is "
        "what you mean (a human will be asked)"
    )


def open_nofollow(path: str, flags: int, mode: str, **kwargs: Any) -> IO[Any]:
    fd = os.open(path, flags | _NOFOLLOW, 0o666)
    return os.fdopen(fd, mode, **kwargs)


def skipped_notice(secret: int, outside: int, noun: str = "file") -> str:
    def count(n: int) -> str:
        return f"{n:,} {noun if n == 1 else _PLURAL.get(noun, noun + 's')}"

    parts = []
    if secret:
        parts.append(f"{count(secret)} in secret locations (.env, keys, credentials) skipped")
    if outside:
        parts.append(f"{count(outside)} reached through links leading outside skipped")
    return f"\n[{'; '.join(parts)}]" if parts else ""


_PLURAL = {"entry": "entries"}


def _on_real_workspace(path: Path, workspace: Path) -> str:
    text, root = str(path), str(workspace).rstrip("/")
    real = real_workspace(workspace)
    if text == root:
        return real
    if root and text.startswith(root + "/"):
        return real.rstrip("/") + text[len(root) :]
    return text
