"""Reading sub-agent and team files: one or a list, strict keys, ids, model settings merged."""

from __future__ import annotations

from pathlib import Path

import pytest

from jarvis.core.agents.definitions import AgentDefinitions, read_subagent_file, read_team_file
from jarvis.core.extensions.report import InvalidExtension
from jarvis.model_layer.config import ModelSettings

BASE = ModelSettings(provider="openai", model="base", base_url="http://h:1/v1")


def write(path: Path, text: str) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text, encoding="utf-8")
    return path


@pytest.mark.parametrize(
    ("text", "names"),
    [
        ("name: planner\n", ["planner"]),
        ("- name: planner\n- name: writer\n  level: 1\n", ["planner", "writer"]),
    ],
)
def test_a_file_holds_one_subagent_or_a_list(tmp_path: Path, text: str, names: list[str]) -> None:
    specs = read_subagent_file(write(tmp_path / "a.yaml", text))
    assert [spec.name for spec in specs] == names
    assert specs[0].memory.stm == "per_parent_session" and specs[0].tool_name == "agent_planner"


@pytest.mark.parametrize(
    ("text", "error"),
    [
        ("name: Planner\n", "name"),  # ids are lower case
        ("name: p\ntols: [bash]\n", "tols"),  # a typo is an error, not ignored
        ("name: p\nmemory: {stm: forever}\n", "memory.stm"),
        ("- 3\n", "mapping"),
        ("[]\n", "mapping"),
    ],
)
def test_bad_subagent_files_say_what_is_wrong(tmp_path: Path, text: str, error: str) -> None:
    with pytest.raises(InvalidExtension, match=error):
        read_subagent_file(write(tmp_path / "a.yaml", text))


def test_a_team_file_merges_its_model_keys_over_the_apps(tmp_path: Path) -> None:
    agent = read_team_file(write(tmp_path / "karen.yaml", "name: KAREN\nmodel: {model: k}\n"), BASE)
    assert agent.agent_id == "karen" and agent.model is not None
    assert (agent.model.model, agent.model.base_url) == ("k", "http://h:1/v1")
    plain = read_team_file(write(tmp_path / "emma.yaml", "name: EMMA\n"), BASE)
    assert plain.model is None and plain.spec.tools is None


@pytest.mark.parametrize(
    ("file", "text", "error"),
    [
        ("main.yaml", "name: X\n", "not a usable agent id"),
        ("Bad Id.yaml", "name: X\n", "not a usable agent id"),
        ("k.yaml", "name: X\nmodel: {temperature: 9}\n", "temperature"),
        ("k.yaml", "name: X\nboundaries: {nevr: []}\n", "nevr"),
    ],
)
def test_bad_team_files_are_refused(tmp_path: Path, file: str, text: str, error: str) -> None:
    with pytest.raises(InvalidExtension, match=error):
        read_team_file(write(tmp_path / file, text), BASE)


def test_a_later_file_wins_a_clash_and_listeners_hear_each_reload(tmp_path: Path) -> None:
    write(tmp_path / "agents" / "a.yaml", "name: p\ndescription: first\n")
    write(tmp_path / "agents" / "b.yaml", "name: p\ndescription: second\n")
    definitions = AgentDefinitions(tmp_path, BASE)
    heard: list[int] = []
    definitions.listeners.append(lambda: heard.append(1))
    definitions.initial_load()
    assert definitions.subagents["p"].description == "second"
    assert len(heard) == 2  # agents, then team
