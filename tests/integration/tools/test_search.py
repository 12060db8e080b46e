"""glob, grep and list_dir over real directory trees."""

from __future__ import annotations

import asyncio
import os
from pathlib import Path

import pytest

from jarvis.core.tools.builtins import GlobTool, GrepTool, ListDirTool
from tests.integration.tools._helpers import run, tool_env

GLOB, GREP, LIST = GlobTool(), GrepTool(), ListDirTool()


def _tree(root: Path, files: dict[str, str | bytes], *, mtimes: bool = False) -> None:
    """Files in order; with `mtimes`, each one a second newer than the one before."""
    for i, (name, content) in enumerate(files.items()):
        path = root / name
        path.parent.mkdir(parents=True, exist_ok=True)
        if isinstance(content, bytes):
            path.write_bytes(content)
        else:
            path.write_text(content)
        if mtimes:
            os.utime(path, (1_000_000 + i, 1_000_000 + i))


async def test_glob_lists_newest_first_relative_to_the_workspace(tmp_path: Path) -> None:
    _tree(tmp_path, {"old.py": "", "src/mid.py": "", "src/deep/new.py": ""}, mtimes=True)
    result = await run(GLOB, tmp_path, pattern="**/*.py")
    assert result.content.splitlines() == ["src/deep/new.py", "src/mid.py", "old.py"]
    top = await run(GLOB, tmp_path, pattern="*.py")
    assert top.content == "old.py"


async def test_glob_under_a_path_keeps_workspace_relative_names(tmp_path: Path) -> None:
    _tree(tmp_path, {"src/a.py": "", "b.py": ""})
    result = await run(GLOB, tmp_path, pattern="*.py", path="src")
    assert result.content == "src/a.py"


async def test_glob_skips_vcs_and_dependency_dirs_unless_asked(tmp_path: Path) -> None:
    _tree(
        tmp_path,
        {
            ".git/hooks/x.py": "",
            ".venv/lib/y.py": "",
            "node_modules/z.py": "",
            "__pycache__/c.py": "",
            "app.py": "",
        },
    )
    assert (await run(GLOB, tmp_path, pattern="**/*.py")).content == "app.py"
    inside = await run(GLOB, tmp_path, pattern="**/*.py", path=".git")
    assert inside.content == ".git/hooks/x.py"


async def test_glob_lists_files_not_directories(tmp_path: Path) -> None:
    _tree(tmp_path, {"pkg/mod.py": ""})
    assert (await run(GLOB, tmp_path, pattern="*")).content == "no files match *"


async def test_glob_caps_the_count(tmp_path: Path) -> None:
    _tree(tmp_path, {f"f{i:02}.txt": "" for i in range(12)}, mtimes=True)
    result = await run(GlobTool(max_results=5), tmp_path, pattern="*.txt")
    lines = result.content.splitlines()
    assert lines[:5] == ["f11.txt", "f10.txt", "f09.txt", "f08.txt", "f07.txt"]
    assert lines[5] == "[truncated: showing 5 of 12 files]"


@pytest.mark.parametrize(
    ("args", "message"),
    [
        ({"pattern": "/etc/*"}, "pattern must be relative"),
        ({"pattern": ""}, "argument 'pattern' must not be empty"),
        ({"pattern": "*", "path": "nowhere"}, "no such directory: nowhere"),
        ({"pattern": "*", "path": "file.txt"}, "not a directory: file.txt"),
    ],
)
async def test_glob_errors(tmp_path: Path, args: dict[str, object], message: str) -> None:
    (tmp_path / "file.txt").write_text("")
    result = await GLOB.execute("c", args, tool_env(tmp_path))
    assert result.is_error and message in result.content


async def test_grep_prints_path_line_text(tmp_path: Path) -> None:
    _tree(tmp_path, {"a.txt": "hello\nworld\nhello again\n", "sub/b.py": "x = 'hello'\n"})
    result = await run(GREP, tmp_path, pattern=r"hel+o")
    assert result.content.splitlines() == [
        "a.txt:1:hello",
        "a.txt:3:hello again",
        "sub/b.py:1:x = 'hello'",
    ]


async def test_grep_skips_binaries_and_vcs_dirs(tmp_path: Path) -> None:
    _tree(
        tmp_path,
        {
            "a.txt": "needle\n",
            "b.bin": b"needle\x00\x01",
            ".git/config": "needle",
            "node_modules/m.js": "needle",
            "late.bin": b"needle" + b"\x00" * 10,
        },
    )
    assert (await run(GREP, tmp_path, pattern="needle")).content == "a.txt:1:needle"


async def test_grep_ignore_case_and_glob_filter(tmp_path: Path) -> None:
    _tree(tmp_path, {"a.py": "TODO one\n", "docs/b.md": "todo two\n", "src/c.py": "todo three\n"})
    loose = await run(GREP, tmp_path, pattern="todo", ignore_case=True)
    assert len(loose.content.splitlines()) == 3
    strict = await run(GREP, tmp_path, pattern="todo")
    assert strict.content.splitlines() == ["docs/b.md:1:todo two", "src/c.py:1:todo three"]
    for pattern in ("*.py", "**/*.py"):
        only_py = await run(GREP, tmp_path, pattern="todo", ignore_case=True, glob=pattern)
        assert only_py.content.splitlines() == ["a.py:1:TODO one", "src/c.py:1:todo three"]
    nested = await run(GREP, tmp_path, pattern="todo", glob="src/*.py")
    assert nested.content == "src/c.py:1:todo three"


async def test_grep_one_file(tmp_path: Path) -> None:
    _tree(tmp_path, {"a.txt": "x\ny\nx\n", "b.txt": "x\n"})
    result = await run(GREP, tmp_path, pattern="x", path="a.txt")
    assert result.content.splitlines() == ["a.txt:1:x", "a.txt:3:x"]


async def test_grep_no_matches_is_not_an_error(tmp_path: Path) -> None:
    _tree(tmp_path, {"a.txt": "x"})
    result = await run(GREP, tmp_path, pattern="absent")
    assert not result.is_error and result.content == "no matches"


async def test_grep_stops_at_the_match_limit(tmp_path: Path) -> None:
    _tree(tmp_path, {"a.txt": "hit\n" * 50, "b.txt": "hit\n" * 50})
    result = await run(GrepTool(max_matches=10), tmp_path, pattern="hit")
    lines = result.content.splitlines()
    assert lines[:10] == [f"a.txt:{n}:hit" for n in range(1, 11)]
    assert lines[10].startswith("[truncated: showing the first 10 matches; narrow the pattern")


async def test_grep_caps_characters_and_clips_long_lines(tmp_path: Path) -> None:
    _tree(tmp_path, {"min.js": "var a='" + "q" * 5000 + "';\n", "many.txt": "word\n" * 3000})
    clipped = await run(GREP, tmp_path, pattern="var a", path="min.js")
    assert clipped.content.endswith("… [4,509 more characters]") and len(clipped.content) < 600
    capped = await run(GrepTool(max_matches=5000, output_chars=1000), tmp_path, pattern="word")
    assert "[truncated: showing 1,000 of" in capped.content


async def test_grep_invalid_regex_is_a_clear_error(tmp_path: Path) -> None:
    result = await run(GREP, tmp_path, pattern="(unclosed")
    assert result.is_error and result.content.startswith("invalid regular expression '(unclosed'")


async def test_grep_missing_path(tmp_path: Path) -> None:
    result = await run(GREP, tmp_path, pattern="x", path="gone")
    assert result.is_error and "no such file or directory: gone" in result.content


async def test_grep_stops_when_the_turn_is_aborted(tmp_path: Path) -> None:
    _tree(tmp_path, {"a.txt": "x\n"})
    abort = asyncio.Event()
    abort.set()
    result = await GREP.execute("c", {"pattern": "x"}, tool_env(tmp_path, abort))
    assert result.content == "no matches"


async def test_list_dir_sorts_and_marks_directories(tmp_path: Path) -> None:
    _tree(tmp_path, {"b.txt": "", "a/x": "", ".hidden": "", "c/y": ""})
    result = await run(LIST, tmp_path)
    assert result.content.splitlines() == [".hidden", "a/", "b.txt", "c/"]
    assert (await run(LIST, tmp_path, path="a")).content == "x"


async def test_list_dir_empty_capped_and_errors(tmp_path: Path) -> None:
    (tmp_path / "empty").mkdir()
    assert (await run(LIST, tmp_path, path="empty")).content == "empty is empty"
    _tree(tmp_path, {f"many/{i:03}": "" for i in range(30)})
    capped = await run(ListDirTool(max_entries=10), tmp_path, path="many")
    assert capped.content.splitlines()[-1] == "[truncated: showing 10 of 30 entries]"
    missing = await run(LIST, tmp_path, path="nope")
    assert missing.is_error and missing.content == "no such directory: nope"
    not_dir = await run(LIST, tmp_path, path="many/000")
    assert not_dir.is_error and not_dir.content == "not a directory: many/000"
