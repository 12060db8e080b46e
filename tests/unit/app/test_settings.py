"""Settings: env prefix, nested delimiter, config.yaml, and one clear line for a wrong value."""

from __future__ import annotations

from pathlib import Path

import pytest

from jarvis.app.settings import SettingsError, config_warnings, load_settings


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


def test_the_seeds_embedding_variable_names_work(monkeypatch: pytest.MonkeyPatch) -> None:
    """Seed 001's setup: JARVIS_MEMORY__EMBEDDING_PROVIDER / _MODEL / _DIMENSIONS / _BASE_URL."""
    monkeypatch.setenv("JARVIS_MEMORY__EMBEDDING_PROVIDER", "ollama")
    monkeypatch.setenv("JARVIS_MEMORY__EMBEDDING_MODEL", "bge-m3")
    monkeypatch.setenv("JARVIS_MEMORY__EMBEDDING_DIMENSIONS", "1024")
    monkeypatch.setenv("JARVIS_MEMORY__EMBEDDING_BASE_URL", "http://host.docker.internal:11434")
    settings = load_settings()
    embedding = settings.memory.embedding
    assert (embedding.provider, embedding.model) == ("ollama", "bge-m3")
    assert embedding.dimensions == 1024
    assert embedding.base_url == "http://host.docker.internal:11434"
    assert config_warnings(settings) == []


def test_the_nested_spelling_wins_over_the_seeds(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("JARVIS_MEMORY__EMBEDDING_MODEL", "from-seed-name")
    monkeypatch.setenv("JARVIS_MEMORY__EMBEDDING__MODEL", "from-nested-name")
    assert load_settings().memory.embedding.model == "from-nested-name"


def test_a_wrong_seed_spelled_value_names_the_setting(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("JARVIS_MEMORY__EMBEDDING_DIMENSIONS", "many")
    with pytest.raises(SettingsError, match="JARVIS_MEMORY__EMBEDDING_DIMENSIONS: "):
        load_settings()


@pytest.mark.parametrize(
    ("name", "hint"),
    [
        ("JARVIS_MODEL__BASE_UR", "base_url"),
        ("JARVIS_MODLE__MODEL", "model"),
        ("JARVIS_MEMORY__EMBEDDING_PROVIDR", "embedding"),
        ("JARVIS_LANGAUGE", "language"),
        ("JARVIS_NOTHING_LIKE_IT", None),
    ],
)
def test_an_unknown_jarvis_variable_is_warned_about(
    monkeypatch: pytest.MonkeyPatch, name: str, hint: str | None
) -> None:
    monkeypatch.setenv(name, "x")
    warnings = config_warnings(load_settings())
    assert len(warnings) == 1 and name in warnings[0] and "\n" not in warnings[0]
    assert (hint in warnings[0]) if hint else ("?" not in warnings[0])


def test_known_variables_and_free_form_values_are_not_warned_about(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    for name, value in {
        "JARVIS_WORKSPACE": "/tmp",
        "JARVIS_MODEL__MODEL": "m",
        "JARVIS_SECURITY__REQUIRE_APPROVAL_FOR": '["bash"]',
        "JARVIS_MCP_SERVERS": "[]",
        "JARVIS_SERVE_DEMO": "1",
        "JARVIS_TEST_POSTGRES_DSN": "postgresql://x",
        "jarvis_model__provider": "faux",
    }.items():
        monkeypatch.setenv(name, value)
    assert config_warnings(load_settings()) == []
