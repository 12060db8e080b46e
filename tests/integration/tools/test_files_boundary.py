"""The file tools judge the boundary again when they touch a file: real files, real symlinks."""

from __future__ import annotations

from pathlib import Path

import pytest

from jarvis.core.tools.builtins import EditFileTool, ReadFileTool, WriteFileTool, builtin_tools
from jarvis.core.tools.builtins._boundary import SecretPlaces
from tests.integration.tools._helpers import run

WRITE, EDIT, READ = WriteFileTool(), EditFileTool(), ReadFileTool()


@pytest.fixture
def outside(tmp_path: Path) -> Path:
    path = tmp_path / "outside"
    path.mkdir()
    (path / "victim.txt").write_text("untouched")
    return path


@pytest.fixture
def ws(tmp_path: Path) -> Path:
    path = tmp_path / "ws"
    (path / "src" / "app").mkdir(parents=True)
    return path


async def test_a_write_through_a_link_leaving_the_workspace_is_refused(
    ws: Path, outside: Path
) -> None:
    (ws / "src" / "app" / "link").symlink_to(outside)
    result = await run(WRITE, ws, path="src/app/link/victim.txt", content="owned")
    assert result.is_error and "src/app/link is a symbolic link leading outside" in result.content
    assert str(outside / "victim.txt") in result.content
    assert (outside / "victim.txt").read_text() == "untouched"


async def test_link_dotdot_lands_where_the_kernel_says_and_is_refused(
    ws: Path, outside: Path
) -> None:
    deep = outside / "deep"
    deep.mkdir()
    (ws / "src" / "app" / "link").symlink_to(deep)
    result = await run(WRITE, ws, path="src/app/link/../victim.txt", content="owned")
    assert result.is_error and "src/app/link" in result.content
    assert (outside / "victim.txt").read_text() == "untouched"
    assert not (ws / "src" / "app" / "victim.txt").exists()


async def test_a_file_link_leaving_the_workspace_is_refused_for_edits(
    ws: Path, outside: Path
) -> None:
    (ws / "notes.txt").symlink_to(outside / "victim.txt")
    result = await run(EDIT, ws, path="notes.txt", old_string="untouched", new_string="owned")
    assert result.is_error and "notes.txt is a symbolic link leading outside" in result.content
    assert (outside / "victim.txt").read_text() == "untouched"


async def test_links_inside_the_workspace_still_work(ws: Path) -> None:
    (ws / "docs").mkdir()
    (ws / "README.md").symlink_to(ws / "docs" / "README.md")
    await run(WRITE, ws, path="README.md", content="hello")
    assert (ws / "docs" / "README.md").read_text() == "hello"
    assert (ws / "README.md").is_symlink()  # written through, not replaced
    edited = await run(EDIT, ws, path="README.md", old_string="hello", new_string="bye")
    assert not edited.is_error and (ws / "docs" / "README.md").read_text() == "bye"
    assert (await run(READ, ws, path="README.md")).content == "     1\tbye"


async def test_an_explicit_path_outside_is_written_once_approved(ws: Path, outside: Path) -> None:
    # The gate asked about exactly this path; the tool writes it.
    result = await run(WRITE, ws, path=str(outside / "new.txt"), content="ok")
    assert not result.is_error and (outside / "new.txt").read_text() == "ok"


@pytest.mark.parametrize(
    "name", [".env", ".env.local", "config/.env.production", ".ssh/id_ed25519", ".aws/config"]
)
async def test_secret_files_are_refused_by_every_file_tool(ws: Path, name: str) -> None:
    secret = ws / name
    secret.parent.mkdir(parents=True, exist_ok=True)
    secret.write_text("API_KEY=sk-live-123\n")
    read = await run(READ, ws, path=name)
    assert (
        read.is_error and "is a secret location" in read.content and "sk-live" not in read.content
    )
    write = await run(WRITE, ws, path=name, content="x")
    edit = await run(EDIT, ws, path=name, old_string="API_KEY", new_string="X")
    assert write.is_error and edit.is_error
    assert secret.read_text() == "API_KEY=sk-live-123\n"


async def test_a_link_to_a_secret_is_refused(ws: Path, tmp_path: Path) -> None:
    key = tmp_path / "home" / ".ssh" / "id_rsa"
    key.parent.mkdir(parents=True)
    key.write_text("PRIVATE KEY")
    (ws / "innocent.txt").symlink_to(key)
    result = await run(READ, ws, path="innocent.txt")
    assert result.is_error and "PRIVATE KEY" not in result.content
    assert result.content.startswith("innocent.txt is a secret location")


async def test_jarvis_home_is_refused_when_given(ws: Path, tmp_path: Path) -> None:
    data = tmp_path / "data"
    data.mkdir()
    (data / "config.yaml").write_text("model: {api_key: sk-live}\n")
    tools = {tool.name: tool for tool in builtin_tools(jarvis_home=data)}
    read = await run(tools["read_file"], ws, path=str(data / "config.yaml"))
    assert read.is_error and "sk-live" not in read.content
    write = await run(tools["write_file"], ws, path=str(data / "approvals.yaml"), content="x")
    assert write.is_error and not (data / "approvals.yaml").exists()


async def test_the_data_dir_as_workspace_keeps_ordinary_files_usable(tmp_path: Path) -> None:
    data = tmp_path / "data"
    data.mkdir()
    read = ReadFileTool(secrets=SecretPlaces.of(None, data))
    write = WriteFileTool(secrets=SecretPlaces.of(None, data))
    assert not (await run(write, data, path="notes.txt", content="hi")).is_error
    assert (await run(read, data, path="notes.txt")).content == "     1\thi"
    assert (await run(write, data, path="approvals.yaml", content="rules: []")).is_error
