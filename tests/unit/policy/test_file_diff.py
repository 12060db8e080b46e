"""The diff an approval window shows for write_file / edit_file, on real files."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from jarvis.core.approvals.file_diff import MAX_DIFF_LINES, file_change_diff


def test_edit_file_shows_the_changed_line_with_context(tmp_path: Path) -> None:
    (tmp_path / "app.py").write_text("a = 1\nb = 2\nc = 3\n", encoding="utf-8")
    diff = file_change_diff(
        "edit_file", {"path": "app.py", "old_string": "b = 2", "new_string": "b = 20"}, tmp_path
    )
    assert diff is not None
    assert "--- a/app.py\n+++ b/app.py\n" in diff
    assert "-b = 2\n+b = 20\n" in diff and " a = 1\n" in diff


def test_write_file_over_an_existing_file_and_a_new_one(tmp_path: Path) -> None:
    (tmp_path / "notes.txt").write_text("old line\n", encoding="utf-8")
    diff = file_change_diff("write_file", {"path": "notes.txt", "content": "new line\n"}, tmp_path)
    assert diff is not None and "-old line\n+new line\n" in diff
    created = file_change_diff("write_file", {"path": "fresh.txt", "content": "hi\n"}, tmp_path)
    assert created is not None and "+hi\n" in created


@pytest.mark.parametrize(
    ("tool", "args"),
    [
        ("bash", {"command": "ls"}),
        ("edit_file", {"path": "app.py", "old_string": "missing", "new_string": "x"}),
        ("edit_file", {"path": "app.py", "old_string": "", "new_string": "x"}),
        ("write_file", {"path": "app.py"}),
        ("write_file", {"path": 3, "content": "x"}),
    ],
)
def test_no_diff_when_the_change_cannot_be_known(
    tmp_path: Path, tool: str, args: dict[str, object]
) -> None:
    (tmp_path / "app.py").write_text("a = 1\n", encoding="utf-8")
    assert file_change_diff(tool, args, tmp_path) is None


def test_a_fifo_is_never_opened(tmp_path: Path) -> None:
    os.mkfifo(tmp_path / "pipe")  # opening it for reading would block the server
    assert file_change_diff("write_file", {"path": "pipe", "content": "x"}, tmp_path) is None


def test_a_huge_change_is_cut_with_a_count(tmp_path: Path) -> None:
    content = "".join(f"line {i}\n" for i in range(5000))
    diff = file_change_diff("write_file", {"path": "big.txt", "content": content}, tmp_path)
    assert diff is not None
    assert diff.count("\n") <= MAX_DIFF_LINES + 1
    assert diff.rstrip().endswith("more diff lines")
