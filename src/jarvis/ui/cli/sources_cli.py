"""`jarvis sources [list] | add <id> <url> | grant <id> | edit <id> | remove <id> | check <id>`:
external sources (docs/sources.md) from a shell.

A source is added off; `grant` is the owner's pre-approval of web_fetch to its host (the same
store and audit lines as a schedule's tools) and turns it on. `check` polls now, prints what is
new and records it as seen (it was shown, so it is not said again).
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from typing import TYPE_CHECKING, Annotated

import typer

if TYPE_CHECKING:  # imported when a command runs: `jarvis --help` stays fast
    from jarvis.app.infra import AppAssembly
    from jarvis.core.scheduler.preapproval import PreapprovalStore

sources = typer.Typer(help="Feeds and pages watched for what is new.", invoke_without_command=True)
_User = Annotated[str, typer.Option("--user", help="Who asks (the terminal user: local).")]
Work = Callable[["AppAssembly", "PreapprovalStore"], Awaitable[str]]


def _run(work: Work) -> None:
    from jarvis.app.agent_registry import AgentRegistry
    from jarvis.app.unattended.runs import UnattendedTurns
    from jarvis.core.scheduler.preapproval import NotOwner
    from jarvis.ui.cli.assembly import fail
    from jarvis.ui.cli.storage_cmd import with_storage

    async def run(app: AppAssembly) -> str:
        try:
            store = UnattendedTurns(app, AgentRegistry(app).builders()).preapprovals
            return await work(app, store)
        except (LookupError, NotOwner, ValueError) as exc:
            raise fail(str(exc)) from None

    typer.echo(with_storage(run, demo=False))


async def _listing(app: AppAssembly, store: PreapprovalStore) -> str:
    from jarvis.app.sources.manage import row_line, source_rows

    rows = await source_rows(app.settings.home, store)
    return "\n".join(row_line(r) for r in rows) or "(no sources in ~/.jarvis/external_sources/)"


@sources.callback()
def listing(ctx: typer.Context) -> None:
    """Every source: on/off, URL, pre-approval, what its last poll said."""
    if ctx.invoked_subcommand is None:
        _run(_listing)


@sources.command("list")
def list_command() -> None:
    """Every source: on/off, URL, pre-approval, what its last poll said."""
    _run(_listing)


@sources.command()
def add(
    source_id: str,
    url: str,
    every: Annotated[str, typer.Option(help="How often: '30 minutes', '2 hours'.")] = "1 hour",
    match: Annotated[list[str] | None, typer.Option(help="A keyword (repeat for more).")] = None,
    interests: Annotated[
        bool, typer.Option("--interests", help="Also match your interests (user model).")
    ] = False,
    notify: Annotated[str, typer.Option(help="digest | immediate | off")] = "digest",
    max_per_day: Annotated[int, typer.Option(help="At most this many said a day.")] = 20,
    user: _User = "local",
) -> None:
    """Add a source (off until its owner pre-approves web_fetch to its host: `grant`)."""

    async def work(app: AppAssembly, store: PreapprovalStore) -> str:
        from jarvis.app.sources.manage import add_source

        source = add_source(
            app.settings.home,
            source_id,
            url,
            every=every,
            match=match or [],
            interests=interests,
            notify=notify,
            max_per_day=max_per_day,
            owner=user,
        )
        return (
            f"{source_id}: added, off. The owner pre-approves web_fetch to {source.host} and"
            f" turns it on with: jarvis sources grant {source_id}"
        )

    _run(work)


@sources.command()
def grant(source_id: str, user: _User = "local") -> None:
    """Pre-approve web_fetch to the source's host (the owner only) and turn it on."""

    async def work(app: AppAssembly, store: PreapprovalStore) -> str:
        from jarvis.app.sources.manage import grant_source

        source = await grant_source(app.settings.home, store, source_id, user)
        return f"{source_id}: web_fetch to {source.host} pre-approved by {user}; on"

    _run(work)


@sources.command()
def edit(
    source_id: str,
    notify: Annotated[str | None, typer.Option(help="digest | immediate | off")] = None,
    max_per_day: Annotated[str | None, typer.Option(help="1–1000")] = None,
    user: _User = "local",
) -> None:
    """Set a source's notify / max_per_day (the owner only; the file keeps its other lines)."""

    async def work(app: AppAssembly, store: PreapprovalStore) -> str:
        from jarvis.app.sources.manage import edit_source, find_source
        from jarvis.core.scheduler.preapproval import NotOwner

        owner = find_source(app.settings.home, source_id).owner
        if owner != user:
            raise NotOwner(f"only the owner ({owner}) may change source:{source_id}")
        changes = {"notify": notify, "max_per_day": max_per_day}
        changes = {k: v for k, v in changes.items() if v is not None}
        source = edit_source(app.settings.home, source_id, **changes)
        return f"{source_id}: notify {source.notify}, max_per_day {source.max_per_day}"

    _run(work)


@sources.command()
def remove(source_id: str) -> None:
    """Delete a source (what it saw stays in external_seen.jsonl)."""

    async def work(app: AppAssembly, store: PreapprovalStore) -> str:
        from jarvis.app.sources.manage import remove_source

        remove_source(app.settings.home, source_id)
        return f"{source_id}: removed"

    _run(work)


@sources.command()
def check(source_id: str) -> None:
    """Poll a source now and print what is new (it then counts as seen)."""

    async def work(app: AppAssembly, store: PreapprovalStore) -> str:
        from jarvis.app.sources.manage import find_source
        from jarvis.app.sources.poller import SourcePoller
        from jarvis.app.unattended.sources import source_fetcher

        source = find_source(app.settings.home, source_id)
        poller = SourcePoller(app.settings.home, source_fetcher(app), store, app.clock)
        report = await poller.poll(source, "check", notify=False)
        lines = [f"{source_id}: {report.line}"]
        lines += [f"new: {e.title} — {e.link}" for e in report.new]
        lines += [f"updated: {e.title} — {e.link}" for e in report.updated]
        return "\n".join(lines)

    _run(work)
