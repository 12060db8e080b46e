"""The command table: every fixed command with its help in both languages, bound to a handler,
and the table's own rules (aliases, sources asked each time, screens, argument values)."""

from __future__ import annotations

from pathlib import Path

import pytest

from jarvis.app.agent_registry import AgentRegistry
from jarvis.app.commands import build_commands
from jarvis.app.infra import build_app
from jarvis.app.settings import Settings
from jarvis.common.i18n import t
from jarvis.core.commands import (
    BUILTINS,
    TERMINAL_ONLY,
    Argument,
    Command,
    CommandContext,
    CommandTable,
    ListedSource,
    Outcome,
    Reply,
    help_lines,
)
from jarvis.core.commands.builtins import unbound

# The table test: every fixed command, as `/help` lists it (usage, then the one-line help).
EXPECTED_EN = {
    "/new": "new session",
    "/sessions": "list sessions",
    "/resume ID": "continue a session",
    "/stop": "stop the running turn (Ctrl-C, Esc too)",
    "/status": "the model answering, the agent, the session",
    "/agent [ID]": "list agents, or a new session with that agent",
    "/orchestrate PATTERN TASK": "hand a task to sub-agents (PATTERN: supervisor, hierarchical,"
    " market, blackboard, joined by commas)",
    "/openloop [VERB ID]": "open loops to keep (VERB: done, dismiss, explain)",
    "/remember [TEXT]": "remember a fact (no TEXT: list what is remembered)",
    "/forget ID": "forget a memory",
    "/wrong": "mark the last answer wrong (reflected on as a failure)",
    "/note TEXT": "write to this session's shared working memory",
    "/procedures [VERB NAME]": "learned procedures (VERB: list, show, approve, reject, learn)",
    "/focus [OBJECTIVE]": "Start a long Focus task, or list yours",
    "/good": "mark the last thing Jarvis said first as welcome (👍)",
    "/bad": "mark the last thing Jarvis said first as unwelcome (👎)",
    "/doit": "do what Jarvis last offered (an ordinary request: approvals as usual)",
    "/learner [reset [KIND] | unmute TOPIC]": "what speaking first has learned (reset: forget"
    " it all or one kind; unmute: one topic)",
    "/help": "this list",
    "/exit": "quit (Ctrl-D)",
}


def test_every_fixed_command_with_its_help() -> None:
    assert {c.usage(): c.help("en") for c in BUILTINS} == EXPECTED_EN
    for command in BUILTINS:
        korean = command.help("ko")
        assert korean and korean != command.help("en"), command.name
        assert "unattended" not in command.screens, command.name


def test_only_exit_and_proactive_feedback_are_terminal_only() -> None:
    # /good, /bad, /doit: the HUD's proactive card has buttons for the same feedback
    terminal = ["good", "bad", "doit", "exit"]
    assert [c.name for c in BUILTINS if c.screens == TERMINAL_ONLY] == terminal
    assert [c.name for c in BUILTINS if c.during_turn] == ["stop", "status"]


@pytest.fixture
def table(tmp_path: Path) -> CommandTable:
    app = build_app(Settings(home=tmp_path, workspace=tmp_path), demo=True)
    return build_commands(AgentRegistry(app))


async def test_the_app_binds_every_fixed_command(table: CommandTable) -> None:
    assert [c.name for c in table.builtins()] == [c.name for c in BUILTINS]
    assert all(c.handler is not unbound for c in table.builtins())
    assert table.fixed["quit"] is table.fixed["exit"]
    hud = {c.name for c in await table.commands("main", "hud")}
    assert "exit" not in hud and "help" in hud


async def _reply(context: CommandContext) -> Outcome:
    return Reply("plugged")


def _command(name: str, **options: object) -> Command:
    return Command(name, _reply, help_text=f"{name} help", **options)  # type: ignore[arg-type]


async def test_sources_are_asked_each_time_and_fixed_names_win() -> None:
    listed: list[Command] = [_command("deploy")]

    async def listing(agent_id: str) -> list[Command]:
        return list(listed)

    table = CommandTable()
    table.register(_command("help"))
    table.add_source(ListedSource(listing))
    assert await table.find("deploy", "main") is not None
    listed[:] = [_command("ship"), _command("help")]  # a hot reload
    assert await table.find("deploy", "main") is None
    assert [c.name for c in await table.commands("main", "terminal")] == ["help", "ship"]
    assert (await table.find("help", "main")) is table.fixed["help"]


def test_a_name_or_alias_registered_twice_is_refused() -> None:
    table = CommandTable()
    table.register(_command("go", aliases=("g",)))
    with pytest.raises(ValueError, match="/g"):
        table.register(_command("g"))


async def test_argument_values_come_from_choices_and_named_sources() -> None:
    async def agents(agent_id: str, user_id: str) -> list[str]:
        return ["karen", "main"]

    table = CommandTable(values={"agents": agents})
    table.register(_command("agent", args=(Argument("ID", source="agents"),)))
    table.register(_command("mode", args=(Argument("M", choices=("fast", "slow")),)))
    assert await table.argument_values("/agent k", "main", "local") == ["karen"]
    assert await table.argument_values("/mode ", "main", "local") == ["fast", "slow"]
    assert await table.argument_values("/mode fast x", "main", "local") == []
    assert await table.argument_values("/nothing ", "main", "local") == []


def test_help_lines_are_aligned_usage_then_help() -> None:
    lines = help_lines(
        [_command("a", args=(Argument("X", optional=True),)), _command("long")], "en"
    )
    assert lines == ["  /a [X]  a help", "  /long   long help"]
    assert t("commands.header", "en") == "Commands:"


class _Plugin:
    name = "broken"
    version = "1"

    def __init__(self, commands: list[Command]) -> None:
        self.commands = commands


async def _raises(context: CommandContext) -> Outcome:
    raise RuntimeError("plugin bug")


async def test_plugin_commands_follow_a_reload_and_a_failure_is_answered(tmp_path: Path) -> None:
    app = build_app(Settings(home=tmp_path, workspace=tmp_path), demo=True)
    agents = AgentRegistry(app)
    table = build_commands(agents)
    old = _Plugin([_command("deploy")])
    app.plugins.register(old)
    assert (await table.find("deploy", "main")) is not None
    new = _Plugin([Command("explode", _raises, help_text="fails")])
    app.plugins.replace([old], [new])  # what a hot reload of ~/.jarvis/plugins does
    assert await table.find("deploy", "main") is None
    command = await table.find("explode", "main")
    assert command is not None and command.origin == "plugin"
    session = await agents.main.create()
    context = CommandContext(session, "local", "en", "hud", "/explode now")
    assert await table.run(context) == Reply(
        "/explode of the plugin broken failed (details in the log)."
    )


async def test_another_persons_session_is_neither_listed_nor_resumed(tmp_path: Path) -> None:
    app = build_app(Settings(home=tmp_path, workspace=tmp_path), demo=True)
    agents = AgentRegistry(app)
    table = build_commands(agents)
    alice = await agents.main.create(user_id="alice")
    await app.session_store.rename(alice.id, "alice's plans")
    bob = await agents.main.create(user_id="bob")

    async def typed(line: str) -> Outcome | None:
        return await table.run(CommandContext(bob, "bob", "en", "hud", line))

    missing = t("terminal.session_missing", "en", session=alice.id)
    assert await typed(f"/resume {alice.id}") == Reply(missing)
    listed = await typed("/sessions")
    assert isinstance(listed, Reply) and bob.id in listed.text and alice.id not in listed.text
    assert await table.argument_values("/resume ", "main", "bob") == [bob.id]
    assert await typed("/resume") == Reply(t("terminal.resume_usage", "en"))
