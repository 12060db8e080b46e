"""Wrong settings through the real CLI: one line each, naming the variable or the file line."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from tests.support.hang import HANG_GUARD_SEC
from tests.support.ports import free_port

JARVIS = shutil.which("jarvis") or str(Path(sys.executable).parent / "jarvis")


def jarvis(home: Path, *args: str, **env: str) -> subprocess.CompletedProcess[str]:
    environment = {k: v for k, v in os.environ.items() if not k.startswith("JARVIS_")}
    environment.update(JARVIS_HOME=str(home), JARVIS_WORKSPACE=str(home), **env)
    return subprocess.run(
        [JARVIS, *args],
        capture_output=True,
        text=True,
        env=environment,
        timeout=HANG_GUARD_SEC,  # a busy CI machine: the process, not the test, decides the time
        cwd=home,
        stdin=subprocess.DEVNULL,
    )


def one_line_error(done: subprocess.CompletedProcess[str]) -> str:
    assert done.returncode == 2, (done.returncode, done.stdout, done.stderr)
    assert "Traceback" not in done.stderr
    assert done.stderr.strip().count("\n") == 0, done.stderr
    return done.stderr.strip()


@pytest.mark.parametrize("command", [["chat", "--demo"], ["serve", "--demo"]])
def test_a_list_setting_that_is_not_json_is_one_line(tmp_path: Path, command: list[str]) -> None:
    done = jarvis(tmp_path, *command, JARVIS_SECURITY__REQUIRE_APPROVAL_FOR="bash")
    line = one_line_error(done)
    assert "JARVIS_SECURITY__REQUIRE_APPROVAL_FOR" in line
    assert '\'["bash", "write_file"]\'' in line and "'bash'" in line


@pytest.mark.parametrize("command", [["chat"], ["serve", "--port", "1"]])
def test_an_unknown_provider_stops_chat_and_serve(tmp_path: Path, command: list[str]) -> None:
    line = one_line_error(
        jarvis(tmp_path, *command, JARVIS_MODEL__PROVIDER="ollama", JARVIS_LANGUAGE="en")
    )
    assert "environment variable JARVIS_MODEL__PROVIDER" in line
    assert "'ollama'" in line and "anthropic, faux, openai" in line
    assert "OpenAI-compatible servers" in line
    typo = one_line_error(jarvis(tmp_path, "chat", JARVIS_MODEL__PROVIDER="opnai"))
    assert "혹시 openai?" in typo


def test_a_wrong_value_in_config_yaml_names_the_file_and_line(tmp_path: Path) -> None:
    (tmp_path / "config.yaml").write_text(
        "language: en\n# limits\nloop:\n  max_turns: lots\n", encoding="utf-8"
    )
    line = one_line_error(jarvis(tmp_path, "chat", "--demo"))
    assert f"{tmp_path / 'config.yaml'}:4 loop.max_turns" in line
    assert line.startswith("Invalid setting")  # config.yaml's language is used for the error
    env = one_line_error(jarvis(tmp_path, "chat", "--demo", JARVIS_LOOP__MAX_TURNS="x"))
    assert "environment variable JARVIS_LOOP__MAX_TURNS" in env  # the stronger source wins


def test_unknown_config_keys_are_warned_with_a_suggestion(tmp_path: Path) -> None:
    (tmp_path / "config.yaml").write_text(
        "language: en\nmodle:\n  model: x\nsecurity:\n  approval_timout_sec: 3\n",
        encoding="utf-8",
    )
    done = jarvis(tmp_path, "audit")
    assert done.returncode == 0, done.stderr
    assert "config.yaml:2 unknown setting 'modle' (ignored) — did you mean model?" in done.stderr
    assert "config.yaml:5 unknown setting 'security.approval_timout_sec'" in done.stderr
    assert "did you mean approval_timeout_sec?" in done.stderr


def test_serve_says_at_start_when_the_model_is_unreachable(tmp_path: Path) -> None:
    nothing_there = f"http://127.0.0.1:{free_port()}/v1"
    # --workers 2 without PostgreSQL stops right after the check: no server is left running.
    done = jarvis(
        tmp_path,
        "serve",
        "--workers",
        "2",
        JARVIS_MODEL__BASE_URL=nothing_there,
        JARVIS_MODEL__MODEL="qwen3:4b",
        JARVIS_LANGUAGE="en",
    )
    assert f"Cannot reach the model server at {nothing_there}" in done.stderr
    assert "`ollama serve`" in done.stderr and "`ollama pull qwen3:4b`" in done.stderr
    assert "jarvis serve --demo" in done.stderr
