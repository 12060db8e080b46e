"""`jarvis openloop [list] | done <id> | dismiss <id> | explain <id>`: the AGENDA from a shell.

The same service and store as the HUD and `/openloop` (SPEC §13); an 8-character id prefix is
enough. `explain` prints why a loop was created, merged or kept apart, so a wrong merge can be
understood and reported.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Annotated

import typer

from jarvis.ui.cli.storage_cmd import run_on_storage

if TYPE_CHECKING:  # imported when a command runs: `jarvis --help` stays fast
    pass

openloop = typer.Typer(help="Promises on the AGENDA (open loops).", invoke_without_command=True)

_Agent = Annotated[str, typer.Option("--agent", help="Agent whose loops these are.")]
_User = Annotated[str, typer.Option("--user", help="Whose loops (the terminal user: local).")]


_run = run_on_storage


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
