"""Start-up on files that cannot be read: one line naming the file and what to do, exit 2, no
traceback (the settings file, the open-loop log, a data dir that cannot be written)."""

from __future__ import annotations

import os
from pathlib import Path

import pytest
from typer.testing import CliRunner

from jarvis.app.settings import SettingsError, load_settings
from jarvis.ui.cli.main import app


@pytest.fixture(autouse=True)
def _clean_env(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    for key in list(os.environ):
        if key.startswith("JARVIS_"):
            monkeypatch.delenv(key)
    monkeypatch.setenv("JARVIS_HOME", str(tmp_path))
    monkeypatch.setenv("JARVIS_LANGUAGE", "en")
    monkeypatch.chdir(tmp_path)


def make_unreadable_config(home: Path) -> None:
    """A config.yaml whose read fails with an OSError even for root (EIO from /proc/self/mem);
    the fault suite covers EACCES with a real permission bit as another user."""
    (home / "config.yaml").symlink_to("/proc/self/mem")


def test_a_non_utf8_config_yaml_is_one_line(tmp_path: Path) -> None:
    (tmp_path / "config.yaml").write_bytes(b"language: en\nname: caf\xe9\n")
    with pytest.raises(SettingsError) as caught:
        load_settings()
    message = str(caught.value)
    assert str(tmp_path / "config.yaml") in message and "UTF-8" in message
    assert len(message.splitlines()) == 1


def test_an_unreadable_config_yaml_is_one_line(tmp_path: Path) -> None:
    make_unreadable_config(tmp_path)
    with pytest.raises(SettingsError) as caught:
        load_settings()
    message = str(caught.value)
    assert "config.yaml" in message and "permissions" in message
    assert len(message.splitlines()) == 1


def run_cli(*args: str) -> tuple[int, str]:
    result = CliRunner().invoke(app, list(args))
    return result.exit_code, result.output


def test_cli_start_with_an_unreadable_config_exits_2_with_one_line(tmp_path: Path) -> None:
    make_unreadable_config(tmp_path)
    code, output = run_cli("chat", "--demo")
    assert code == 2
    [line] = output.strip().splitlines()
    assert "config.yaml" in line and "Traceback" not in output


def test_cli_start_with_an_unreadable_openloops_file_exits_2_with_one_line(
    tmp_path: Path,
) -> None:
    (tmp_path / "openloops.jsonl").mkdir()  # reading it fails with an OSError
    code, output = run_cli("chat", "--demo")
    assert code == 2
    [line] = output.strip().splitlines()
    assert str(tmp_path / "openloops.jsonl") in line and "move it aside" in line
