"""Settings: env prefix, nested delimiter, config.yaml, and one clear line for a wrong value."""

from __future__ import annotations

from pathlib import Path

import pytest

from jarvis.app.settings import SettingsError, load_settings


@pytest.fixture(autouse=True)
def _clean_env(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    import os

    for key in list(os.environ):
        if key.startswith("JARVIS_"):
            monkeypatch.delenv(key)
    monkeypatch.setenv("JARVIS_HOME", str(tmp_path))
    monkeypatch.chdir(tmp_path)


def test_defaults_point_at_a_local_ollama_endpoint(tmp_path: Path) -> None:
    settings = load_settings()
    assert settings.home == tmp_path
    assert settings.model.base_url == "http://localhost:11434/v1"
    assert settings.loop.max_turns == 20
    assert settings.security.require_approval_for == ["bash", "write_file", "edit_file"]
    assert settings.storage.backend == "files"


def test_nested_env_values(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("JARVIS_MODEL__BASE_URL", "http://gpu:8000/v1")
    monkeypatch.setenv("JARVIS_LOOP__MAX_TURNS", "7")
    monkeypatch.setenv("JARVIS_SECURITY__REQUIRE_APPROVAL_FOR", '["bash"]')
    settings = load_settings()
    assert settings.model.base_url == "http://gpu:8000/v1"
    assert settings.loop.max_turns == 7
    assert settings.security.require_approval_for == ["bash"]


def test_config_yaml_in_home_is_read_and_env_wins(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    (tmp_path / "config.yaml").write_text(
        "language: en\nmodel:\n  model: qwen3\n  base_url: http://yaml/v1\n", encoding="utf-8"
    )
    monkeypatch.setenv("JARVIS_MODEL__BASE_URL", "http://env/v1")
    settings = load_settings()
    assert settings.language == "en"
    assert settings.model.model == "qwen3"
    assert settings.model.base_url == "http://env/v1"


def test_dotenv_file_is_read(tmp_path: Path) -> None:
    (tmp_path / ".env").write_text("JARVIS_MODEL__MODEL=from-dotenv\n", encoding="utf-8")
    assert load_settings().model.model == "from-dotenv"


@pytest.mark.parametrize(
    ("name", "value", "setting"),
    [
        ("JARVIS_LOOP__MAX_TURNS", "lots", "JARVIS_LOOP__MAX_TURNS"),
        ("JARVIS_LOOP__MAX_TURNS", "0", "JARVIS_LOOP__MAX_TURNS"),
        ("JARVIS_LANGUAGE", "fr", "JARVIS_LANGUAGE"),
        ("JARVIS_TIMEZONE", "Mars/Base", "JARVIS_TIMEZONE"),
        (
            "JARVIS_SECURITY__DANGEROUS_COMMANDS",
            '["(unclosed"]',
            "JARVIS_SECURITY__DANGEROUS_COMMANDS",
        ),
        ("JARVIS_STORAGE__BACKEND", "sqlite", "JARVIS_STORAGE__BACKEND"),
    ],
)
def test_a_wrong_value_is_one_line_naming_the_setting(
    monkeypatch: pytest.MonkeyPatch, name: str, value: str, setting: str
) -> None:
    monkeypatch.setenv(name, value)
    with pytest.raises(SettingsError) as err:
        load_settings()
    message = str(err.value)
    assert setting in message
    assert len(message.splitlines()) == 1


def test_broken_config_yaml_is_a_clear_error(tmp_path: Path) -> None:
    (tmp_path / "config.yaml").write_text("model: [unclosed\n", encoding="utf-8")
    with pytest.raises(SettingsError, match=r"config\.yaml"):
        load_settings()
