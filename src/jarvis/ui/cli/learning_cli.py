"""`jarvis memory list|show|forget` and `jarvis procedures list|show|approve|reject`.

What Jarvis remembers and what it learned, from a shell: the same stores and commands as the
chat's `/remember`, `/forget` and `/procedures` (an 8-character id prefix is enough).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Annotated

import typer

from jarvis.ui.cli.storage_cmd import run_on_storage

if TYPE_CHECKING:  # imported when a command runs: `jarvis --help` stays fast
    from jarvis.app.infra import AppAssembly

memory = typer.Typer(help="What Jarvis remembers (long-term memory).", no_args_is_help=True)
procedures = typer.Typer(help="Learned procedures and drafts.", invoke_without_command=True)

_Agent = Annotated[str, typer.Option("--agent", help="Whose memory / procedures.")]
_User = Annotated[str, typer.Option("--user", help="Which person (the terminal user: local).")]


_run = run_on_storage


@memory.command("list")
def memory_list(agent: _Agent = "main", user: _User = "local") -> None:
    """Remembered items, newest first."""
    from jarvis.core.slash import memory as memory_slash

    _run(lambda app: memory_slash.listing(app.memory, agent, user, app.settings.language))


@memory.command("show")
def memory_show(item_id: str, agent: _Agent = "main", user: _User = "local") -> None:
    """One item in full (an episode with its tool calls and marks)."""
    from jarvis.core.slash import memory as memory_slash

    _run(lambda app: memory_slash.show(app.memory, agent, user, item_id, app.settings.language))


@memory.command("forget")
def memory_forget(item_id: str, agent: _Agent = "main", user: _User = "local") -> None:
    """Delete one item."""
    from jarvis.core.slash import memory as memory_slash

    _run(lambda app: memory_slash.forget(app.memory, agent, user, item_id, app.settings.language))


def _procedures(args: str, agent: str, user: str) -> None:
    from jarvis.core.procedures.slash import procedures_command

    async def work(app: AppAssembly) -> str:
        assert app.learning is not None
        lang = app.settings.language
        return await procedures_command(
            app.learning.learner, agent, user, args, lang, app.clock.now_ms()
        )

    _run(work)


@procedures.callback()
def procedures_list(ctx: typer.Context, agent: _Agent = "main", user: _User = "local") -> None:
    """The agent's procedures and drafts (with no sub-command)."""
    if ctx.invoked_subcommand is None:
        _procedures("list", agent, user)


@procedures.command("show")
def procedures_show(name: str, agent: _Agent = "main", user: _User = "local") -> None:
    """The body, and a waiting revision beside it."""
    _procedures(f"show {name}", agent, user)


@procedures.command("approve")
def procedures_approve(name: str, agent: _Agent = "main", user: _User = "local") -> None:
    """Approve a draft or its waiting revision (a running server sees it on its next turn)."""
    _procedures(f"approve {name}", agent, user)


@procedures.command("reject")
def procedures_reject(name: str, agent: _Agent = "main", user: _User = "local") -> None:
    """Drop a draft, or only the waiting revision of an approved procedure."""
    _procedures(f"reject {name}", agent, user)
