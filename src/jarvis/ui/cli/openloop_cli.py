"""`jarvis openloop [list] | done <id> | dismiss <id> | explain <id>`: the AGENDA from a shell.

The same service and store as the HUD and `/openloop` (SPEC §13); an 8-character id prefix is
enough. `explain` prints why a loop was created, merged or kept apart, so a wrong merge can be
understood and reported.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from typing import TYPE_CHECKING, Annotated

import typer

if TYPE_CHECKING:  # imported when a command runs: `jarvis --help` stays fast
    from jarvis.app.infra import AppAssembly

openloop = typer.Typer(help="Promises on the AGENDA (open loops).", invoke_without_command=True)

_Agent = Annotated[str, typer.Option("--agent", help="Agent whose loops these are.")]
_User = Annotated[str, typer.Option("--user", help="Whose loops (the terminal user: local).")]


def _run(work: Callable[[AppAssembly], Awaitable[str]]) -> None:
    import asyncio

    from jarvis.app.settings import SettingsError
    from jarvis.ui.cli.main import assemble, fail

    async def run() -> str:
        app = assemble(demo=True)
        try:
            await app.open_storage()
        except SettingsError as exc:
            raise fail(str(exc)) from None
        try:
            return await work(app)
        finally:
            await app.close_storage()

    typer.echo(asyncio.run(run()))


def _command(args: str, agent: str, user: str) -> None:
    from jarvis.core.slash.openloop import openloop_command

    _run(lambda app: openloop_command(app.openloops, agent, user, args, app.settings.language))


@openloop.callback()
def listing(ctx: typer.Context, agent: _Agent = "main", user: _User = "local") -> None:
    """Open loops, newest first (with no sub-command)."""
    if ctx.invoked_subcommand is None:
        _command("", agent, user)


@openloop.command("list")
def list_loops(agent: _Agent = "main", user: _User = "local") -> None:
    """Open loops, newest first (the same as `jarvis openloop`)."""
    _command("", agent, user)


@openloop.command()
def done(loop_id: str, agent: _Agent = "main", user: _User = "local") -> None:
    """Close a loop as done."""
    _command(f"done {loop_id}", agent, user)


@openloop.command()
def dismiss(loop_id: str, agent: _Agent = "main", user: _User = "local") -> None:
    """Close a loop as dismissed."""
    _command(f"dismiss {loop_id}", agent, user)


@openloop.command()
def explain(loop_id: str, agent: _Agent = "main", user: _User = "local") -> None:
    """Why this loop was created, merged or kept apart (any status)."""
    _command(f"explain {loop_id}", agent, user)
