"""write_file, edit_file and read_file on real files in a temp workspace."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from jarvis.core.tools.builtins import EditFileTool, ReadFileTool, WriteFileTool
from tests.integration.tools._helpers import run, tool_env

WRITE, EDIT, READ = WriteFileTool(), EditFileTool(), ReadFileTool()


async def test_write_creates_parents_and_reports_bytes(tmp_path: Path) -> None:
    result = await run(WRITE, tmp_path, path="a/b/c.txt", content="héllo")
    assert (tmp_path / "a/b/c.txt").read_text() == "héllo"
    assert result.content == "wrote 6 bytes to a/b/c.txt (new file)" and not result.is_error


async def test_write_overwrites(tmp_path: Path) -> None:
    (tmp_path / "f.txt").write_text("a much longer old content")
    result = await run(WRITE, tmp_path, path="f.txt", content="new")
    assert (tmp_path / "f.txt").read_text() == "new" and "(overwrote the file)" in result.content


async def test_write_keeps_content_byte_for_byte(tmp_path: Path) -> None:
    await run(WRITE, tmp_path, path="crlf.txt", content="one\r\ntwo\r\n")
    assert (tmp_path / "crlf.txt").read_bytes() == b"one\r\ntwo\r\n"


async def test_write_to_absolute_and_home_paths(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("HOME", str(tmp_path / "home"))
    workspace = tmp_path / "ws"
    workspace.mkdir()
    await run(WRITE, workspace, path="~/notes/n.txt", content="x")
    await run(WRITE, workspace, path=str(tmp_path / "abs.txt"), content="y")
    assert (tmp_path / "home/notes/n.txt").read_text() == "x"
    assert (tmp_path / "abs.txt").read_text() == "y"


async def test_write_errors(tmp_path: Path) -> None:
    (tmp_path / "dir").mkdir()
    (tmp_path / "file").write_text("")
    onto_dir = await run(WRITE, tmp_path, path="dir", content="x")
    assert onto_dir.is_error and "dir is a directory" in onto_dir.content
    under_file = await run(WRITE, tmp_path, path="file/child.txt", content="x")
    assert under_file.is_error
    assert under_file.content == "cannot write file/child.txt: file is a file, not a directory"
    missing = await run(WRITE, tmp_path, path="x.txt")
    assert missing.is_error and "missing required argument 'content'" in missing.content


@pytest.mark.parametrize(
    ("text", "old", "new", "replace_all", "expected", "message"),
    [
        ("a b c", "b", "X", False, "a X c", "replaced 1 occurrence in f.txt (first at line 1)"),
        ("a\nb\nb c", "b c", "X", False, "a\nb\nX", "first at line 3"),
        ("a b b", "b", "X", True, "a X X", "replaced 2 occurrences"),
        ("a b c", "b ", "", False, "a c", "replaced 1 occurrence"),
    ],
)
async def test_edit_replaces_exactly(
    tmp_path: Path, text: str, old: str, new: str, replace_all: bool, expected: str, message: str
) -> None:
    (tmp_path / "f.txt").write_text(text)
    result = await run(
        EDIT, tmp_path, path="f.txt", old_string=old, new_string=new, replace_all=replace_all
    )
    assert not result.is_error and message in result.content
    assert (tmp_path / "f.txt").read_text() == expected


@pytest.mark.parametrize(
    ("old", "new", "message"),
    [
        ("b", "X", "old_string occurs 2 times in f.txt; add surrounding lines"),
        ("z", "X", "old_string was not found in f.txt"),
        ("", "X", "old_string is empty; use write_file"),
        ("a", "a", "old_string and new_string are the same"),
    ],
)
async def test_edit_refusals_leave_the_file_alone(
    tmp_path: Path, old: str, new: str, message: str
) -> None:
    (tmp_path / "f.txt").write_text("a b b")
    result = await run(EDIT, tmp_path, path="f.txt", old_string=old, new_string=new)
    assert result.is_error and message in result.content
    assert (tmp_path / "f.txt").read_text() == "a b b"


async def test_edit_not_unique_suggests_replace_all(tmp_path: Path) -> None:
    (tmp_path / "f.txt").write_text("x x x")
    result = await run(EDIT, tmp_path, path="f.txt", old_string="x", new_string="y")
    assert "occurs 3 times" in result.content and "replace_all" in result.content


async def test_edit_missing_file_directory_and_binary(tmp_path: Path) -> None:
    missing = await run(EDIT, tmp_path, path="nope.txt", old_string="a", new_string="b")
    assert missing.is_error and "no such file: nope.txt" in missing.content
    directory = await run(EDIT, tmp_path, path=".", old_string="a", new_string="b")
    assert directory.is_error and "is a directory" in directory.content
    (tmp_path / "latin1.txt").write_bytes("café".encode("latin-1"))
    binary = await run(EDIT, tmp_path, path="latin1.txt", old_string="caf", new_string="b")
    assert binary.is_error and "not UTF-8 text" in binary.content


async def test_edit_keeps_crlf_line_endings(tmp_path: Path) -> None:
    (tmp_path / "f.txt").write_bytes(b"one\r\ntwo\r\nthree\r\n")
    await run(EDIT, tmp_path, path="f.txt", old_string="two", new_string="2")
    assert (tmp_path / "f.txt").read_bytes() == b"one\r\n2\r\nthree\r\n"


async def test_edit_bad_argument_types(tmp_path: Path) -> None:
    (tmp_path / "f.txt").write_text("a")
    result = await run(
        EDIT, tmp_path, path="f.txt", old_string="a", new_string="b", replace_all="yes"
    )
    assert result.is_error and "argument 'replace_all' must be true or false" in result.content


def _numbered_file(path: Path, count: int) -> None:
    path.write_text("".join(f"line {i}\n" for i in range(1, count + 1)))


async def test_read_whole_file_with_line_numbers(tmp_path: Path) -> None:
    _numbered_file(tmp_path / "f.txt", 3)
    result = await run(READ, tmp_path, path="f.txt")
    assert result.content == "     1\tline 1\n     2\tline 2\n     3\tline 3"


async def test_read_a_range_says_where_to_continue(tmp_path: Path) -> None:
    _numbered_file(tmp_path / "f.txt", 10)
    result = await run(READ, tmp_path, path="f.txt", offset=3, limit=2)
    assert re.findall(r"^\s+(\d+)\tline (\d+)$", result.content, re.M) == [("3", "3"), ("4", "4")]
    assert result.content.endswith("[showing lines 3-4 of 10; continue with offset=5]")
    tail = await run(READ, tmp_path, path="f.txt", offset=9)
    assert tail.content.splitlines() == ["     9\tline 9", "    10\tline 10"]


async def test_read_uses_the_default_line_limit(tmp_path: Path) -> None:
    _numbered_file(tmp_path / "f.txt", 50)
    result = await run(ReadFileTool(line_limit=20), tmp_path, path="f.txt")
    assert "[showing lines 1-20 of 50; continue with offset=21]" in result.content


async def test_read_caps_output_at_whole_lines(tmp_path: Path) -> None:
    _numbered_file(tmp_path / "f.txt", 1000)
    result = await run(ReadFileTool(output_chars=1000), tmp_path, path="f.txt")
    body, notice = result.content.rsplit("\n", 1)
    assert len(body) <= 1000 and body.endswith("\tline 67")
    assert notice == "[showing lines 1-67 of 1,000; continue with offset=68]"


async def test_read_cuts_a_single_overlong_line(tmp_path: Path) -> None:
    (tmp_path / "min.js").write_text("x" * 5000 + "\nnext\n")
    result = await run(ReadFileTool(output_chars=1000), tmp_path, path="min.js")
    assert "[truncated: showing 1,000 of 5,007 characters]" in result.content
    assert "continue with offset=2" in result.content


@pytest.mark.parametrize(
    ("args", "message"),
    [
        ({"path": "missing.txt"}, "no such file: missing.txt"),
        ({"path": "."}, "is a directory; use list_dir"),
        ({"path": "blob.bin"}, "blob.bin is a binary file (6 bytes)"),
        ({"path": "f.txt", "offset": 9}, "f.txt has 3 lines; offset 9 is past the end"),
        ({"path": "f.txt", "offset": 0}, "argument 'offset' must be at least 1"),
        ({"path": "f.txt", "limit": 1.5}, "argument 'limit' must be a whole number"),
        ({"path": 7}, "argument 'path' must be a string, got a number"),
    ],
)
async def test_read_errors(tmp_path: Path, args: dict[str, object], message: str) -> None:
    _numbered_file(tmp_path / "f.txt", 3)
    (tmp_path / "blob.bin").write_bytes(b"ab\x00\x01cd")
    result = await READ.execute("c", args, tool_env(tmp_path))
    assert result.is_error and message in result.content


async def test_read_empty_file(tmp_path: Path) -> None:
    (tmp_path / "empty.txt").write_text("")
    result = await run(READ, tmp_path, path="empty.txt")
    assert not result.is_error and result.content == "empty.txt is empty"
