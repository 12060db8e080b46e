"""bash runs with an allow-listed environment: real bash, real `env`, secrets in this process."""

from __future__ import annotations

from pathlib import Path

import pytest
from pydantic import ValidationError

from jarvis.app.settings import SettingsError, load_settings
from jarvis.core.tools.builtins import BashTool, BuiltinToolSettings, builtin_tools
from tests.integration.tools._helpers import run

SECRETS = {
    "JARVIS_MODEL__API_KEY": "sk-model-1",
    "JARVIS_SECURITY__API_KEYS": '[{"name": "alice", "key": "hud-key-2"}]',
    "OPENAI_API_KEY": "sk-openai-3",
    "GITHUB_TOKEN": "ghp-4",
    "AWS_SECRET_ACCESS_KEY": "aws-5",
    "STRIPE_SECRET": "stripe-6",
    "PGPASSWORD": "pg-7",
    "my_db_password_file": "pw-8",
}


@pytest.fixture
def parent_env(monkeypatch: pytest.MonkeyPatch) -> None:
    for name, value in SECRETS.items():
        monkeypatch.setenv(name, value)
    monkeypatch.setenv("LC_ALL", "C.UTF-8")
    monkeypatch.setenv("PROJECT_MODE", "dev")
    monkeypatch.setenv("UNLISTED_SETTING", "not-for-bash")


def child_env(output: str) -> dict[str, str]:
    body = output.split("stdout:\n", 1)[1]
    return dict(line.split("=", 1) for line in body.splitlines() if "=" in line)


async def test_env_prints_none_of_the_secrets(tmp_path: Path, parent_env: None) -> None:
    result = await run(BashTool(), tmp_path, command='env; echo "[$OPENAI_API_KEY]"')
    assert not result.is_error and "[]" in result.content
    leaked = [name for name, value in SECRETS.items() if value in result.content]
    assert leaked == []


async def test_env_shows_no_secret_and_only_allowed_names(tmp_path: Path, parent_env: None) -> None:
    result = await run(BashTool(env_passthrough=("PROJECT_MODE",)), tmp_path, command="env")
    assert not result.is_error
    for value in SECRETS.values():
        assert value not in result.content
    seen = child_env(result.content)
    assert seen["PROJECT_MODE"] == "dev" and seen["LC_ALL"] == "C.UTF-8"
    assert "PATH" in seen and "HOME" in seen and "UNLISTED_SETTING" not in seen
    assert not [name for name in seen if name.startswith("JARVIS_")]


async def test_a_listed_secret_is_still_not_passed(tmp_path: Path, parent_env: None) -> None:
    tool = BashTool(env_passthrough=("GITHUB_TOKEN", "OPENAI_API_KEY"))
    result = await run(tool, tmp_path, command='echo "[$GITHUB_TOKEN$OPENAI_API_KEY]"')
    assert "[]" in result.content


async def test_the_setting_reaches_bash(tmp_path: Path, parent_env: None) -> None:
    settings = BuiltinToolSettings(bash_env_passthrough=["PROJECT_MODE"])
    bash = {tool.name: tool for tool in builtin_tools(settings)}["bash"]
    result = await run(bash, tmp_path, command='echo "mode=$PROJECT_MODE"')
    assert "mode=dev" in result.content


@pytest.mark.parametrize(
    "name", ["JARVIS_MODEL__API_KEY", "GITHUB_TOKEN", "OPENAI_API_KEY", "DB_PASSWORD", "X_SECRET"]
)
def test_a_secret_looking_passthrough_is_a_start_up_error(name: str) -> None:
    with pytest.raises(ValidationError):
        BuiltinToolSettings(bash_env_passthrough=[name])


def test_the_start_up_error_names_the_setting(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("JARVIS_HOME", str(tmp_path))
    monkeypatch.setenv("JARVIS_TOOLS__BASH_ENV_PASSTHROUGH", '["PATH", "GITHUB_TOKEN"]')
    with pytest.raises(SettingsError) as raised:
        load_settings()
    assert "JARVIS_TOOLS__BASH_ENV_PASSTHROUGH" in str(raised.value)
    assert "GITHUB_TOKEN" in str(raised.value)
