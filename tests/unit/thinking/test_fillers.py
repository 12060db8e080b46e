"""Fillers (issue 26 item 3): chosen by code, only for a long predicted wait, never repeated
within the last three, one per turn, never in history or in what the model sees."""

from __future__ import annotations

import io

import pytest
from pydantic import BaseModel

from jarvis.agent_layer.thought import load_weights
from jarvis.agent_layer.thought.engine import InnerThoughtEngine, TemplateSource
from jarvis.agent_layer.thought.events import ProactiveMessage
from jarvis.core.thinking import Fillers, TurnThinking, WaitTracker, choose_filler
from jarvis.core.thinking.fillers import (
    TOOL_ARGUMENT,
    choose_tool_filler,
    filler_lines,
    predicted_wait,
    tool_key,
    tool_keys,
    tool_line,
)
from jarvis.model_layer import FauxResponse
from jarvis.ui.cli.render import TerminalRenderer
from tests.unit.thinking.test_turn_thinking import FRAME, THINKY, Model, make_session

KO = filler_lines("first_round", "ko")
TH = filler_lines("thought", "en")


@pytest.mark.parametrize(
    ("pending", "wait", "last", "lang", "expected"),
    [
        ("first_round", None, [], "ko", None),  # nothing measured yet: no evidence of a wait
        ("first_round", 2.9, [], "ko", None),  # below the threshold
        ("first_round", 3.0, [], "ko", KO[0]),
        ("first_round", 9.0, [KO[0]], "ko", KO[1]),
        ("first_round", 9.0, [KO[0], KO[1], KO[2]], "ko", KO[3]),
        ("first_round", 9.0, [KO[3], KO[1], KO[2]], "ko", KO[0]),  # the oldest may come back
        ("first_round", 9.0, [KO[0], KO[1], KO[2], KO[3]], "ko", KO[0]),  # only the last three
        ("thought", 5.0, [], "en", TH[0]),
        ("thought", 5.0, [TH[0], "something else"], "en", TH[1]),
    ],
)
def test_choose_filler(
    pending: str, wait: float | None, last: list[str], lang: str, expected: str | None
) -> None:
    assert choose_filler(pending, wait, 3.0, last, lang) == expected  # type: ignore[arg-type]


def test_every_kind_has_distinct_lines_in_both_languages() -> None:
    for pending in ("thought", "first_round"):
        for lang in ("ko", "en"):
            lines = filler_lines(pending, lang)  # type: ignore[arg-type]
            assert len(set(lines)) == 4 and all(0 < len(line) <= 40 for line in lines)


def test_the_tracker_is_bounded_and_predicts_the_median() -> None:
    waits = WaitTracker()
    assert waits.predicted("m") is None and predicted_wait([]) is None
    for seconds in [100.0] * 5 + [1.0] * 20:  # old samples roll out
        waits.record("m", seconds)
    assert waits.predicted("m") == 1.0
    for i in range(1100):
        waits.said(f"s{i}", "x")
    assert waits.last_three("s0") == [] and waits.last_three("s1099") == ["x"]
    for line in "abcd":
        waits.said("s", line)
    assert waits.last_three("s") == ["b", "c", "d"]


async def test_a_slow_model_gets_one_filler_per_turn_outside_history_and_context() -> None:
    waits = WaitTracker()
    for _ in range(19):  # a slow model's history: this test's fast turns do not outvote it
        waits.record("answer", 5.0)
    model = Model(thought=None)
    thinking = TurnThinking(load_weights(), fillers=Fillers(waits, "answer", 3.0))
    session, store = await make_session(model, thinking)
    events: list[BaseModel] = []
    session.subscribe(events.append)
    lines = []
    for n in range(1, 6):
        events.clear()
        await session.prompt(f"README {n} 열어줘")
        fillers = [e for e in events if isinstance(e, ProactiveMessage)]
        assert len(fillers) == 1 and fillers[0].kind == "filler"
        assert fillers[0].message_id == f"filler:s1:{n}"
        kinds = [getattr(e, "type", "") for e in events]
        assert kinds.index("proactive_message") < kinds.index("agent_start")
        lines.append(fillers[0].text)
    assert lines[:4] == filler_lines("first_round", "ko") and lines[4] == lines[0]
    history = " ".join(e.message.content for e in await store.history("s1"))
    seen = " ".join(str(m.content) for ctx in model.answer.calls for m in ctx.messages)
    assert not any(line in history or line in seen for line in lines)


async def test_fast_turns_get_none_and_each_turn_measures_the_first_token() -> None:
    waits = WaitTracker()
    model = Model(thought=None)
    thinking = TurnThinking(load_weights(), fillers=Fillers(waits, "answer", 3.0))
    session, _ = await make_session(model, thinking)
    events: list[BaseModel] = []
    session.subscribe(events.append)
    await session.prompt("README 열어줘")
    await session.prompt("list the files")
    assert not [e for e in events if isinstance(e, ProactiveMessage)]
    samples = list(waits._waits["answer"])
    assert len(samples) == 2 and all(s >= 0 for s in samples)


async def test_a_slow_thought_gets_the_thought_filler_and_no_second_one() -> None:
    waits = WaitTracker()
    waits.record("answer", 5.0)
    waits.record("thought:m", 5.0)
    model = Model(thought=FauxResponse(text=FRAME))
    engine = InnerThoughtEngine(model, "m", TemplateSource(None))
    thinking = TurnThinking(
        load_weights(), mode="auto", engine=engine, fillers=Fillers(waits, "answer", 3.0)
    )
    session, _ = await make_session(model, thinking)
    events: list[BaseModel] = []
    session.subscribe(events.append)
    await session.prompt(THINKY)
    kinds = [getattr(e, "type", "") for e in events]
    assert kinds[:4] == ["thought_route", "proactive_message", "inner_thought", "thought_end"]
    fillers = [e for e in events if isinstance(e, ProactiveMessage)]
    assert [f.text for f in fillers] == [filler_lines("thought", "ko")[0]]
    assert len(waits._waits["thought:m"]) == 2  # the thought's own time was recorded


class Tty(io.StringIO):
    def isatty(self) -> bool:
        return True


@pytest.mark.parametrize(("out", "shown"), [(Tty(), True), (io.StringIO(), False)])
def test_the_terminal_prints_a_filler_dim_and_only_on_a_tty(out: io.StringIO, shown: bool) -> None:
    render = TerminalRenderer(out, "ko")
    render(ProactiveMessage(text="생각 중\x1b[31m…", kind="filler", message_id="f"))
    text = out.getvalue()
    assert (text != "") is shown
    if shown:
        assert text.startswith("\x1b[2m… 생각 중") and "\x1b[31m" not in text  # escapes shown
    tool = TerminalRenderer(out, "en")
    tool(ProactiveMessage(text=BASH_EN, kind="filler", message_id="f"))
    assert (f"\x1b[2m… {BASH_EN}\x1b[0m" in out.getvalue()) is shown


# --- per-tool fillers: the line names what runs, short and safe -------------------------------

BASH_EN = "checking `git status` with bash…"


@pytest.mark.parametrize(
    ("tool", "args", "lang", "expected"),
    [
        ("bash", {"command": "git status"}, "en", BASH_EN),
        ("bash", {"command": "git status"}, "ko", "bash로 `git status` 확인하는 중…"),
        ("read_file", {"path": "notes.md"}, "en", "reading notes.md…"),
        ("read_file", {"path": "notes.md"}, "ko", "notes.md 읽는 중…"),
        (
            "web_search",
            {"query": "llama.cpp cache"},
            "en",
            "searching the web for “llama.cpp cache”…",
        ),
        ("web_search", {"query": "서울 날씨"}, "ko", "웹에서 “서울 날씨” 검색하는 중…"),
        ("grep", {"pattern": "TODO"}, "en", "searching files for “TODO”…"),
        ("list_dir", {"path": "src"}, "en", "looking in src…"),
        # a URL: host and path only (no credentials, no query)
        (
            "web_fetch",
            {"url": "https://bob:pw@example.com/a/b?token=ghp_x&q=1"},
            "en",
            "fetching example.com/a/b…",
        ),
        # secrets the tool gate recognises are hidden, whatever else is shown
        (
            "bash",
            {"command": "curl -u bob:hunter22 x.io"},
            "en",
            "checking `curl -u ••• x.io` with bash…",
        ),
        (
            "bash",
            {"command": "GITHUB_TOKEN=abc123 gh pr list"},
            "en",
            "checking `••• gh pr list` with bash…",
        ),
        (
            "bash",
            {"command": "mysql -pS3cretPass db"},
            "en",
            "checking `mysql ••• db` with bash…",
        ),
        (
            "bash",
            {"command": "echo sk-abcdefghijklmnopqrstuvwx"},
            "en",
            "checking `echo •••` with bash…",
        ),
        # long, several lines, control characters, backticks: one short line
        ("bash", {"command": "x" * 60}, "en", f"checking `{'x' * 40}…` with bash…"),
        ("bash", {"command": "ls\nrm -rf /tmp/x"}, "en", "checking `ls…` with bash…"),
        (
            "bash",
            {"command": "echo \x1b[31mred`id`"},
            "en",
            "checking `echo [31mred'id'` with bash…",
        ),
        ("read_file", {"path": "a\u202etxt.exe"}, "en", "reading a txt.exe…"),
        # no usable argument, or a tool without its own line: the generic line names the tool
        ("bash", {}, "en", "running bash…"),
        ("read_file", {"path": 7}, "en", "running read_file…"),
        ("mcp__slow<b>", {"q": "x"}, "en", "running mcp__slowb…"),
        ("agent_planner", {"task": "plan"}, "ko", "agent_planner 도구 실행 중…"),
    ],
)
def test_tool_line(tool: str, args: dict[str, object], lang: str, expected: str) -> None:
    assert tool_line(tool, args, lang) == expected  # type: ignore[arg-type]


@pytest.mark.parametrize(
    ("wait", "last", "expected"),
    [
        (None, [], None),  # the tool never ran here: no evidence of a wait
        (2.9, [], None),  # it is usually quick
        (3.0, [], BASH_EN),
        (8.0, ["thinking it through…"], BASH_EN),
        (8.0, [BASH_EN, "a", "b"], None),  # said within the last three
        (8.0, [BASH_EN, "a", "b", "c"], BASH_EN),  # only the last three count
    ],
)
def test_choose_tool_filler(wait: float | None, last: list[str], expected: str | None) -> None:
    args = {"command": "git status"}
    assert choose_tool_filler("bash", args, wait, 3.0, last, "en") == expected


def test_every_tool_with_an_argument_has_its_line_in_both_languages() -> None:
    for tool, key in TOOL_ARGUMENT.items():
        for lang in ("ko", "en"):
            line = tool_line(tool, {key: "x"}, lang)  # type: ignore[arg-type]
            assert "x" in line and tool_line(tool, {}, lang) != line  # type: ignore[arg-type]


def test_the_tracker_keeps_a_bounded_number_of_keys() -> None:
    waits = WaitTracker()
    for i in range(300):
        waits.record(tool_key(f"t{i}"), 1.0)
    assert waits.predicted(tool_key("t0")) is None and waits.predicted(tool_key("t299")) == 1.0
    assert len(waits._waits) == 256


@pytest.mark.parametrize(
    ("tool", "args", "keys"),
    [
        ("bash", {"command": "git status"}, ("tool:bash:git status", "tool:bash")),
        ("bash", {"command": "/usr/bin/pytest -x tests"}, ("tool:bash:pytest", "tool:bash")),
        ("bash", {"command": "LANG=C TOKEN=s3cret npm test"}, ("tool:bash:npm test", "tool:bash")),
        ("bash", {"command": "python script.py"}, ("tool:bash:python", "tool:bash")),
        ("bash", {"command": "  "}, ("tool:bash",)),
        ("bash", {}, ("tool:bash",)),
        ("read_file", {"path": "notes.md"}, ("tool:read_file",)),
    ],
)
def test_tool_keys(tool: str, args: dict[str, object], keys: tuple[str, ...]) -> None:
    assert tool_keys(tool, args) == keys


def test_the_narrowest_measured_key_predicts() -> None:
    waits = WaitTracker()
    waits.record("tool:bash", 30.0)  # pytest is slow…
    waits.record("tool:bash:git status", 0.1)  # …git status is not
    assert waits.predicted("tool:bash:git status", "tool:bash") == 0.1
    assert waits.predicted("tool:bash:ls", "tool:bash") == 30.0  # never measured: the tool's
    assert waits.predicted("tool:nope") is None
    for i in range(255):  # the least recently recorded key goes first
        waits.record(f"k{i}", 1.0)
    waits.record("tool:bash", 1.0)
    waits.record("k-new", 1.0)
    assert waits.predicted("tool:bash:git status") is None and waits.predicted("tool:bash")
