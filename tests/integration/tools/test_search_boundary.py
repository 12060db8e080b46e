"""grep, glob and list_dir never show a secret file and never follow a link out of the place
they search: real files and real symlinks in a temp workspace."""

from __future__ import annotations

from pathlib import Path

import pytest

from jarvis.core.tools.builtins import GlobTool, GrepTool, ListDirTool
from tests.integration.tools._helpers import run

GLOB, GREP, LIST = GlobTool(), GrepTool(), ListDirTool()


@pytest.fixture
def ws(tmp_path: Path) -> Path:
    path = tmp_path / "ws"
    (path / "app").mkdir(parents=True)
    (path / ".env").write_text("OPENAI_API_KEY=sk-live-123\n")
    (path / "app" / ".env.local").write_text("DB_PASSWORD=hunter2\n")
    (path / "app" / "settings.py").write_text("OPENAI_API_KEY = os.environ['OPENAI_API_KEY']\n")
    return path


async def test_grep_never_prints_a_dotenv_file(ws: Path) -> None:
    result = await run(GREP, ws, pattern="API_KEY|PASSWORD")
    assert "sk-live" not in result.content and "hunter2" not in result.content
    assert "app/settings.py:1:" in result.content
    assert "[2 files in secret locations (.env, keys, credentials) skipped]" in result.content


async def test_grep_skips_a_link_to_a_key(ws: Path, tmp_path: Path) -> None:
    key = tmp_path / "home" / ".ssh" / "id_rsa"
    key.parent.mkdir(parents=True)
    key.write_text("-----BEGIN OPENSSH PRIVATE KEY-----\n")
    (ws / "app" / "notes.txt").symlink_to(key)
    result = await run(GREP, ws, pattern="BEGIN")
    assert "PRIVATE KEY" not in result.content and result.content.startswith("no matches")
    refused = await run(GREP, ws, pattern="BEGIN", path=str(key.parent))
    assert refused.is_error and "secret location" in refused.content


async def test_grep_and_glob_skip_links_leading_outside(ws: Path, tmp_path: Path) -> None:
    outside = tmp_path / "outside.txt"
    outside.write_text("TOKEN in a file the human never approved\n")
    (ws / "app" / "mirror.txt").symlink_to(outside)
    grep = await run(GREP, ws, pattern="TOKEN", path="app")
    assert "never approved" not in grep.content
    assert "1 file reached through links leading outside skipped" in grep.content
    glob = await run(GLOB, ws, pattern="**/*.txt")
    assert "mirror.txt" not in glob.content


async def test_glob_hides_secret_files(ws: Path) -> None:
    result = await run(GLOB, ws, pattern="**/.env*")
    assert result.content == (
        "no files match **/.env*\n[2 files in secret locations (.env, keys, credentials) skipped]"
    )


async def test_glob_may_not_climb_out(ws: Path, tmp_path: Path) -> None:
    (tmp_path / "elsewhere.txt").write_text("x")
    result = await run(GLOB, ws, pattern="../*.txt")
    assert result.is_error and "'..'" in result.content


async def test_list_dir_hides_secret_entries(ws: Path) -> None:
    result = await run(LIST, ws)
    assert result.content == "app/\n[1 entry in secret locations (.env, keys, credentials) skipped]"
