"""`jarvis me list|set|forget|pin|check`: what Jarvis knows about you, and the fact guard.

The same file the sessions use (`~/.jarvis/user_model.json`); your edits are `corrected` facts,
which extraction never changes. `check --json -` runs the guard on one sentence per line.
"""

from __future__ import annotations

import asyncio
import sys
import time
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Any

import typer

if TYPE_CHECKING:
    from jarvis.core.user_model import Fact, UserModelStore

me = typer.Typer(help="What Jarvis knows about you (the user model).", no_args_is_help=True)

_User = Annotated[str, typer.Option("--user", help="Whose facts (the terminal user: local).")]


def _store() -> UserModelStore:
    from jarvis.app.settings import SettingsError, load_settings
    from jarvis.core.user_model import FILE_NAME, UserModelStore
    from jarvis.ui.cli.assembly import fail

    try:
        home: Path = load_settings().home
    except SettingsError as exc:
        raise fail(str(exc)) from None
    return UserModelStore(home / FILE_NAME)


def _update(user: str, change: Any) -> Any:
    from jarvis.core.user_model import UserModelFileError
    from jarvis.ui.cli.assembly import fail

    store = _store()
    try:
        return asyncio.run(store.update(user, change))
    except (OSError, UserModelFileError) as exc:
        raise fail(f"{store.path}: {exc}") from None


def _now() -> int:
    return int(time.time() * 1000)


@me.command("list")
def list_facts(
    user: _User = "local",
    every: Annotated[bool, typer.Option("--all", help="Retired facts too.")] = False,
    as_json: Annotated[bool, typer.Option("--json", help="One JSON object per line.")] = False,
) -> None:
    """Your facts: field, value, source, status, evidence."""
    import dataclasses

    from jarvis.common.jsonl import json_line

    facts = [f for f in _store().facts(user) if every or f.status != "retired"]
    for f in facts:
        if as_json:
            typer.echo(json_line(dataclasses.asdict(f)))
            continue
        flags = (" 📌" if f.pinned else "") + (f" ({f.retired_reason})" if f.retired_reason else "")
        evidence = f'  "{f.evidence}"' if f.evidence else ""
        typer.echo(f"{f.id[:8]}  {f.field}: {f.value}  [{f.source}, {f.status}]{flags}{evidence}")


@me.command("set")
def set_fact(field: str, value: str, user: _User = "local") -> None:
    """Say it yourself: a corrected fact that extraction never changes."""
    from jarvis.common.clock import new_id
    from jarvis.core.user_model import FIELDS, set_by_person

    if field not in FIELDS:
        raise typer.BadParameter(f"field must be one of: {', '.join(FIELDS)}")
    if not value.strip():
        raise typer.BadParameter("value is empty")

    def change(facts: list[Fact]) -> tuple[list[Fact], None]:
        return set_by_person(facts, field, value, _now(), new_id()[:12]), None

    _update(user, change)
    typer.echo(f"{field}: {value.strip()}")


@me.command()
def forget(fact_id: str, user: _User = "local") -> None:
    """Retire a fact (kept as forgotten, so it does not come back)."""
    from jarvis.core.user_model import forget as forget_fact

    hit = _update(user, lambda facts: forget_fact(facts, fact_id, _now()))
    typer.echo("forgotten" if hit else f"no active fact {fact_id}")
    if not hit:
        raise typer.Exit(1)


@me.command()
def pin(
    fact_id: str,
    user: _User = "local",
    off: Annotated[bool, typer.Option("--off", help="Unpin.")] = False,
) -> None:
    """Pin a fact: extraction never changes it, and it is shown first."""
    from jarvis.core.user_model import pin as pin_fact

    hit = _update(user, lambda facts: pin_fact(facts, fact_id, not off))
    typer.echo(("unpinned" if off else "pinned") if hit else f"no active fact {fact_id}")
    if not hit:
        raise typer.Exit(1)


@me.command()
def check(
    source: Annotated[str, typer.Argument(help="'-' reads one sentence per line from stdin.")],
    as_json: Annotated[bool, typer.Option("--json", help="One JSON object per line.")] = False,
) -> None:
    """Would the guard let this sentence become a fact? {"fact", "reason"} per line."""
    from jarvis.common.jsonl import json_line
    from jarvis.core.user_model import check_statement

    for raw in sys.stdin if source == "-" else [source]:
        result = check_statement(raw.rstrip("\r\n"))
        if as_json:
            typer.echo(json_line({"fact": result.fact, "reason": result.reason}))
        else:
            typer.echo(f"{'fact' if result.fact else 'no  '}  {result.reason}")
