"""`jarvis sources [list] | add <id> <url> | grant <id> | remove <id> | check <id>`: external
sources (docs/sources.md) from a shell.

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
    from jarvis.core.sources.definition import Source

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


def _find(app: AppAssembly, source_id: str) -> Source:
    from jarvis.core.sources.definition import load_sources

    found, errors = load_sources(app.settings.home)
    if source_id in errors:
        raise ValueError(f"{source_id}: broken file: {errors[source_id]}")
    for source in found:
        if source.id == source_id:
            return source
    raise LookupError(f"no source {source_id!r} in ~/.jarvis/external_sources/")


async def _listing(app: AppAssembly, store: PreapprovalStore) -> str:
    from jarvis.core.sources.definition import load_sources
    from jarvis.core.sources.store import read_status

    found, errors = load_sources(app.settings.home)
    lines = [f"{name}: broken file: {why}" for name, why in errors.items()]
    for source in found:
        status = read_status(app.settings.home, source.id)
        grants = ", ".join(f"{g.tool}:{g.state}" for g in await store.status(source))
        state = "paused" if status.paused else ("on" if source.enabled else "off")
        match = ", ".join(source.match) or "*"
        lines.append(
            f"{source.id} [{state}] {status.url or source.url} every {source.every}"
            f" notify {source.notify} match {match} (owner {source.owner}) {grants}"
            f" — {status.line or 'never polled'}"
        )
    return "\n".join(lines) or "(no sources in ~/.jarvis/external_sources/)"


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
    notify: Annotated[str, typer.Option(help="digest | immediate | off")] = "digest",
    max_per_day: Annotated[int, typer.Option(help="At most this many said a day.")] = 20,
    user: _User = "local",
) -> None:
    """Add a source (off until its owner pre-approves web_fetch to its host: `grant`)."""

    async def work(app: AppAssembly, store: PreapprovalStore) -> str:
        from jarvis.core.sources.definition import Source, one_line_error, write_source

        path = app.settings.home / "external_sources" / f"{source_id}.yaml"
        if path.exists():
            raise ValueError(f"{source_id}: already exists ({path})")
        try:
            source = Source(
                id=source_id,
                url=url,
                every=every,
                match=match or [],
                notify=notify,
                max_per_day=max_per_day,
                owner=user,
            )
        except ValueError as exc:
            raise ValueError(one_line_error(exc)) from None
        write_source(app.settings.home, source)
        return (
            f"{source_id}: added, off. The owner pre-approves web_fetch to {source.host} and"
            f" turns it on with: jarvis sources grant {source_id}"
        )

    _run(work)


@sources.command()
def grant(source_id: str, user: _User = "local") -> None:
    """Pre-approve web_fetch to the source's host (the owner only) and turn it on."""

    async def work(app: AppAssembly, store: PreapprovalStore) -> str:
        from jarvis.core.sources.definition import write_source

        source = _find(app, source_id)
        await store.grant(source, ["web_fetch"], user)
        write_source(app.settings.home, source.model_copy(update={"enabled": True}))
        return f"{source_id}: web_fetch to {source.host} pre-approved by {user}; on"

    _run(work)


@sources.command()
def remove(source_id: str) -> None:
    """Delete a source (what it saw stays in external_seen.jsonl)."""

    async def work(app: AppAssembly, store: PreapprovalStore) -> str:
        from jarvis.core.sources.definition import source_file
        from jarvis.core.sources.store import status_file

        path = source_file(app.settings.home, source_id)
        if not path.exists():
            raise LookupError(f"no source {source_id!r} in ~/.jarvis/external_sources/")
        path.unlink()
        status_file(app.settings.home, source_id).unlink(missing_ok=True)
        return f"{source_id}: removed"

    _run(work)


@sources.command()
def check(source_id: str) -> None:
    """Poll a source now and print what is new (it then counts as seen)."""

    async def work(app: AppAssembly, store: PreapprovalStore) -> str:
        from jarvis.app.sources.poller import SourcePoller
        from jarvis.app.unattended.sources import source_fetcher

        source = _find(app, source_id)
        poller = SourcePoller(app.settings.home, source_fetcher(app), store, app.clock)
        report = await poller.poll(source, "check", notify=False)
        lines = [f"{source_id}: {report.line}"]
        lines += [f"new: {e.title} — {e.link}" for e in report.new]
        lines += [f"updated: {e.title} — {e.link}" for e in report.updated]
        return "\n".join(lines)

    _run(work)
