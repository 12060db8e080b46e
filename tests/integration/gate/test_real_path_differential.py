"""`paths.resolve` (the gate's fast walk below the workspace) against `os.path.realpath` on a
real tree of files, directories and symlinks: every path of up to four components from a
small alphabet must resolve the same way, for a workspace at the root too. A path the kernel
cannot follow (a symlink loop) is None: unresolved, and the gate asks (issue 23)."""

from __future__ import annotations

import errno
import itertools
import os
from pathlib import Path

import pytest

from jarvis.core.policy.paths import real_path, resolve

COMPONENTS = ["dir", "file", "in_link", "out_link", "rel_link", "loop", "missing", "..", ".", ""]


@pytest.fixture
def tree(tmp_path: Path) -> str:
    outside = tmp_path / "outside"
    (outside / "deep").mkdir(parents=True)
    workspace = tmp_path / "ws"
    (workspace / "dir" / "dir").mkdir(parents=True)
    for folder in (workspace, workspace / "dir", workspace / "dir" / "dir"):
        (folder / "file").write_text("x", encoding="utf-8")
        (folder / "in_link").symlink_to(workspace / "dir")
        (folder / "out_link").symlink_to(outside)
        (folder / "rel_link").symlink_to("../dir" if folder != workspace else "dir")
        (folder / "loop").symlink_to(folder / "loop")
    return os.path.realpath(workspace)


def kernel(path: str) -> str | None:
    """`os.path.realpath`, None when the path cannot be followed (only a missing tail is fine)."""
    try:
        return os.path.realpath(path, strict=True)
    except OSError as exc:
        if exc.errno not in (errno.ENOENT, errno.ENOTDIR):
            return None
    return os.path.realpath(path)


def test_every_short_path_resolves_like_realpath(tree: str) -> None:
    checked = unresolved = 0
    for size in range(1, 5):
        for parts in itertools.product(COMPONENTS, repeat=size):
            path = tree + "/" + "/".join(parts)
            expected = kernel(path)
            assert resolve(path, tree) == expected, path
            if expected is None:
                unresolved += 1
                assert real_path(path, tree) == os.path.normpath(path), path
            checked += 1
    assert checked == sum(len(COMPONENTS) ** n for n in range(1, 5))
    assert unresolved > 100  # the loops are in the tree


def test_a_workspace_at_the_root_walks_from_there(tree: str) -> None:
    for suffix in ("dir/file", "dir/in_link/file", "dir/out_link/deep", "dir/missing/../file"):
        path = f"{tree}/{suffix}"
        assert real_path(path, "/") == os.path.realpath(path), path
    assert real_path("/", "/") == "/"
    assert real_path("/..", "/") == "/"


def test_paths_outside_the_workspace_use_realpath(tree: str) -> None:
    sibling = os.path.dirname(tree) + "/outside/deep"
    assert real_path(sibling, tree) == os.path.realpath(sibling)
