"""Token file permissions, the order of one server's calls, the terminal's progress line."""

from __future__ import annotations

import asyncio
import stat
from pathlib import Path

import pytest
from mcp.shared.auth import OAuthToken

from jarvis.agent_layer.events import ToolProgress
from jarvis.core.mcp.call_order import CallOrder
from jarvis.core.mcp.form_answer import FormError, form_content
from jarvis.core.mcp.oauth import FileTokenStorage, token_path
from jarvis.ui.cli.render import progress_line


async def test_tokens_are_stored_owner_only(tmp_path: Path) -> None:
    storage = FileTokenStorage(token_path(tmp_path, "remote"))

    await storage.set_tokens(OAuthToken(access_token="a", refresh_token="r"))

    assert stat.S_IMODE(storage.path.stat().st_mode) == 0o600
    again = await FileTokenStorage(storage.path).get_tokens()
    assert again is not None and (again.access_token, again.refresh_token) == ("a", "r")
    assert await storage.get_client_info() is None


async def test_reads_share_writes_wait_and_order_is_kept() -> None:
    order = CallOrder()
    log: list[str] = []
    gates = {name: asyncio.Event() for name in ("w1", "r1", "r2", "w2")}

    async def run(name: str, shared: bool) -> None:
        async with order.turn(shared=shared):
            log.append(f"start {name}")
            await gates[name].wait()
            log.append(f"end {name}")

    tasks = [
        asyncio.create_task(run("w1", False)),
        asyncio.create_task(run("r1", True)),
        asyncio.create_task(run("r2", True)),
        asyncio.create_task(run("w2", False)),
    ]
    for _ in range(5):
        await asyncio.sleep(0)
    assert log == ["start w1"]  # the reads wait for the write made before them
    gates["w1"].set()
    while log[-1] != "start r2":
        await asyncio.sleep(0)
    assert log == ["start w1", "end w1", "start r1", "start r2"]  # reads together
    gates["r1"].set()
    gates["r2"].set()
    gates["w2"].set()
    await asyncio.gather(*tasks)
    assert log[-2:] == ["start w2", "end w2"]


def test_progress_line() -> None:
    event = ToolProgress(
        tool_call_id="c", tool_name="fs__copy", progress=3, total=6, message="copying\x1b[2J"
    )

    assert progress_line(event) == "… fs__copy 3/6 copying\\x1b[2J"


SCHEMA = {
    "type": "object",
    "properties": {
        "name": {"type": "string"},
        "check": {"type": "boolean"},
        "count": {"type": "integer", "default": 42, "minimum": 1, "maximum": 100},
        "ratio": {"type": "number"},
        "tags": {"type": "array", "items": {"type": "string", "enum": ["a", "b", "c"]}},
        "hero": {"type": "string", "oneOf": [{"const": "h1", "title": "Superman"}]},
    },
    "required": ["name"],
}


@pytest.mark.parametrize(
    ("line", "expected"),
    [
        ("name=Ada", {"name": "Ada", "count": 42}),
        (
            "name='Ada Lovelace' check=yes count=7",
            {"name": "Ada Lovelace", "check": True, "count": 7},
        ),
        (
            "name=A check=no ratio=0.5 tags=a,b",
            {"name": "A", "check": False, "ratio": 0.5, "tags": ["a", "b"], "count": 42},
        ),
        ("name=A hero=h1", {"name": "A", "hero": "h1", "count": 42}),
    ],
)
def test_a_typed_line_becomes_form_content(line: str, expected: dict[str, object]) -> None:
    assert form_content(SCHEMA, line) == expected


@pytest.mark.parametrize(
    ("line", "key", "fields"),
    [
        ("name='Ada", "unreadable", {"reason": "No closing quotation"}),
        ("name=A Lovelace", "not_a_pair", {"word": "Lovelace"}),
        ("name=A other=x", "unknown_field", {"field": "other"}),
        ("name=A check=maybe", "not_a_boolean", {"value": "maybe"}),
        ("name=A count=many", "not_an_integer", {"value": "many"}),
        ("name=A ratio=half", "not_a_number", {"value": "half"}),
        ("name=A count=101", "out_of_range", {"range": "1…100"}),
        ("name=A tags=a,z", "not_a_choice", {"value": "z", "choices": "a, b, c"}),
        ("name=A hero=Superman", "not_a_choice", {"value": "Superman", "choices": "h1"}),
        ("check=yes", "missing", {"fields": "name"}),
    ],
)
def test_a_line_that_does_not_fit_the_form_says_why(
    line: str, key: str, fields: dict[str, str]
) -> None:
    with pytest.raises(FormError) as caught:
        form_content(SCHEMA, line)
    assert caught.value.problem == key
    assert fields.items() <= caught.value.fields.items()
