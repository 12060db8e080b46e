"""Every slash command through both screens — `jarvis chat` (a real process, lines on stdin) and
the HUD (the real server, a WebSocket tab sending what the message box sends) — with the same
outcome: the same line, the same kind of switch, the same turn. The homes are alike: one skill
one plugin-registered command and one learned procedure, a scripted model."""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
import sys
from pathlib import Path
from typing import Any

import httpx
import pytest

from jarvis.common.i18n import t
from jarvis.core.commands import TERMINAL_ONLY
from jarvis.core.commands.builtins import BUILTINS
from tests.integration.procedures.test_live import save_draft
from tests.support.hang import HANG_GUARD_SEC
from tests.support.live_server import Tab, live_server

JARVIS = shutil.which("jarvis") or str(Path(sys.executable).parent / "jarvis")
PROMPT = "› "
SKILL = "---\nname: greet\ndescription: greets someone\n---\nSay hello to {{args}}.\n"
PLUGIN = """
from jarvis.core.commands import Argument, Command, CommandContext, Reply


async def hello(context: CommandContext) -> Reply:
    return Reply(f"hello, {context.args or 'world'} ({context.screen} screen aside)")


class HelloPlugin:
    name = "hello"
    version = "1"
    commands = [
        Command("hello", hello, help_text="says hello", args=(Argument("NAME", optional=True),))
    ]
"""
ANSWER = "skill answered"

# Typed in this order on each screen; `/new` last (it changes the session), then the end.
LINES = [
    "/help",
    "/status",
    "/stop",
    "/sessions",
    "/remember 차는 녹차",
    "/remember",
    "/forget nope1234",
    "/wrong",
    "/note 회의 메모",
    "/procedures",
    "/procedures show nope",
    "/openloop",
    "/openloop explain",
    "/agent",
    "/agent nobody",
    "/orchestrate swarm do it",
    "/resume",
    "/resume nope1234",
    "/hello Bob",
    "/greet Bob",
    "/procedures approve list-and-echo",
    "/list-and-echo docs",
    "/learner",
    "/learner reset nope",
    "/new",
]


def _home(path: Path) -> Path:
    path.mkdir()
    (path / "skills").mkdir()
    (path / "skills" / "greet.md").write_text(SKILL, "utf-8")
    (path / "plugins").mkdir()
    (path / "plugins" / "hello.py").write_text(PLUGIN, "utf-8")
    save_draft(path, plan=False)  # a learned procedure, approved by a command below
    return path


def _masked(text: str) -> str:
    text = re.sub(r"\b[0-9a-f]{16}\b", "<session>", text)
    text = re.sub(r"\b[0-9a-f]{8}\b", "<id>", text)
    text = re.sub(r"\d{4}-\d\d-\d\d( \d\d:\d\d)?", "<when>", text)
    return re.sub(r"\((terminal|hud) screen aside\)", "", text).strip()


def _terminal(home: Path) -> dict[str, tuple[str, str]]:
    (home / "script.json").write_text(json.dumps([ANSWER, ANSWER]), "utf-8")
    env = {k: v for k, v in os.environ.items() if not k.startswith("JARVIS_")}
    env.update(
        JARVIS_HOME=str(home),
        JARVIS_WORKSPACE=str(home),
        JARVIS_MODEL__PROVIDER="faux",
        JARVIS_MODEL__MODEL="faux",
        JARVIS_MODEL__SCRIPT=str(home / "script.json"),
        JARVIS_OPENLOOP__ENABLED="false",
        JARVIS_PROCEDURES__LEARN="false",
        JARVIS_PROCEDURES__REFLECT="false",
    )
    done = subprocess.run(
        [JARVIS, "chat"],
        input="\n".join([*LINES, "/exit"]) + "\n",
        capture_output=True,
        text=True,
        env=env,
        cwd=home,
        timeout=HANG_GUARD_SEC,  # a hang guard, generous for a busy machine
    )
    assert done.returncode == 0, done.stderr
    shown = done.stdout.split(PROMPT)[1:]  # what each line printed, up to the next prompt
    assert len(shown) == len(LINES) + 1, done.stdout
    outcomes = {}
    for line, text in zip(LINES, shown, strict=False):
        switched = re.fullmatch(t("terminal.session", "ko", session=r"[0-9a-f]{16}"), text.strip())
        if switched:
            outcomes[line] = ("switch", "")
        elif ANSWER in text:
            outcomes[line] = ("turn", ANSWER)
        else:
            outcomes[line] = ("text", _masked(text))
    return outcomes


async def _hud(home: Path) -> dict[str, tuple[str, str]]:
    outcomes: dict[str, tuple[str, str]] = {}
    with live_server(home, [ANSWER, ANSWER]) as server:
        tab = await Tab.open(server.ws_url())
        await tab.next("session")
        for line in LINES:
            await tab.send(type="prompt", text=line)  # as the HUD's message box sends it
            event = await tab.next(
                ("command_result", "agent_switch", "session_switch", "agent_end")
            )
            if event["type"] == "agent_end":
                outcomes[line] = ("turn", ANSWER if event["ended_by"] == "answer" else "")
            elif event["type"] == "command_result":
                outcomes[line] = ("text", _masked(event["text"]))
            else:
                outcomes[line] = ("switch", "")
        await tab.send(type="prompt", text="/exit")
        outcomes["/exit"] = ("text", (await tab.next("command_result"))["text"])
        await tab.close()
        async with httpx.AsyncClient(base_url=server.url, headers=server.headers) as http:
            listed = (await http.get("/api/commands", params={"lang": "en"})).json()["commands"]
        outcomes["GET /api/commands"] = ("listing", json.dumps(listed, ensure_ascii=False))
    return outcomes


@pytest.fixture(scope="module")
def screens(tmp_path_factory: pytest.TempPathFactory) -> dict[str, dict[str, tuple[str, str]]]:
    import asyncio

    base = tmp_path_factory.mktemp("screens")
    return {
        "terminal": _terminal(_home(base / "terminal")),
        "hud": asyncio.run(_hud(_home(base / "hud"))),
    }


# What the table itself says belongs to the terminal only (/exit, the feedback commands).
_TERMINAL_ONLY = tuple(f"/{c.name}" for c in BUILTINS if c.screens == TERMINAL_ONLY)


def _help_without_terminal_only(text: str) -> str:
    keep = [
        line
        for line in text.splitlines()
        if line.lstrip().split(" ", 1)[0] not in _TERMINAL_ONLY
        and line != t("commands.approval_keys", "ko")
    ]
    return "\n".join(keep)


@pytest.mark.parametrize("line", LINES)
def test_the_same_outcome_in_the_terminal_and_the_hud(
    screens: dict[str, dict[str, tuple[str, str]]], line: str
) -> None:
    terminal, hud = screens["terminal"][line], screens["hud"][line]
    if line == "/help":  # the terminal's list adds its own commands and the approval keys
        terminal = ("text", _help_without_terminal_only(terminal[1]))
    assert terminal == hud
    assert terminal[1] != t("commands.unknown", "ko", name=line.split()[0])


def test_help_lists_the_skill_and_the_plugin_command(
    screens: dict[str, dict[str, tuple[str, str]]],
) -> None:
    text = screens["hud"]["/help"][1]
    assert "/greet" in text and "greets someone" in text
    assert "/hello [NAME]" in text and "says hello" in text
    assert "/exit" not in text and "/exit" in screens["terminal"]["/help"][1]


def test_status_names_the_model_answering(screens: dict[str, Any]) -> None:
    for screen in ("terminal", "hud"):
        assert "faux · faux" in screens[screen]["/status"][1], screen


def test_exit_belongs_to_the_terminal(screens: dict[str, Any]) -> None:
    assert screens["hud"]["/exit"] == ("text", t("commands.not_here", "ko", name="/exit"))


def test_chat_help_lists_what_slash_help_lists(
    screens: dict[str, dict[str, tuple[str, str]]],
) -> None:
    env = {k: v for k, v in os.environ.items() if not k.startswith("JARVIS_")}
    done = subprocess.run(
        [JARVIS, "chat", "--help"], capture_output=True, text=True, env=env, timeout=HANG_GUARD_SEC
    )
    named = re.compile(r"^\s+(/[\w:-]+)", re.MULTILINE)
    in_help = named.findall(done.stdout.split(t("commands.header", "ko"), 1)[1])
    typed = named.findall(screens["terminal"]["/help"][1])
    extensions = ["/greet", "/hello"]  # the home's skill and plugin command
    assert in_help == [name for name in typed if name not in extensions]
    assert len(in_help) == 20  # 16 for both screens, /good /bad /doit /exit


def test_the_hud_lists_the_table_for_its_slash_suggestions(screens: dict[str, Any]) -> None:
    listed = json.loads(screens["hud"]["GET /api/commands"][1])
    by_name = {item["command"]: item for item in listed}
    assert by_name["/status"]["description"] == "the model answering, the agent, the session"
    assert by_name["/hello"]["usage"] == "/hello [NAME]" and by_name["/hello"]["origin"] == "plugin"
    assert by_name["/greet"]["description"] == "greets someone"
    assert by_name["/list-and-echo"]["origin"] == "procedure"  # approved by a command above
    assert "/exit" not in by_name and len(listed) == 19  # 16 fixed, skill, procedure, plugin
