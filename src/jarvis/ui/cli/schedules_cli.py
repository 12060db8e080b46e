"""`jarvis schedules [list] | run <id> | enable <id> | disable <id>`: schedules from a shell.

The same files, engine and pre-approval rules as the HUD: `enable` is refused until the owner
pre-approved the tools the schedule lists (approve them in the HUD's pre-approval window or with
`jarvis schedules grant <id> <tool>...`); `run` starts one run now and prints its answer.
"""

from __future__ import annotations

import asyncio
import os
from collections.abc import Awaitable, Callable
from typing import TYPE_CHECKING, Annotated

import typer

if TYPE_CHECKING:  # the rest is imported when a command runs: `jarvis --help` stays fast
    from jarvis.app.unattended.service import Unattended

schedules = typer.Typer(
    help="Schedules that run while nobody watches.", invoke_without_command=True
)
_User = Annotated[str, typer.Option("--user", help="Who asks (the terminal user: local).")]


def _run(work: Callable[[Unattended], Awaitable[str]]) -> None:
    from jarvis.app.agent_registry import AgentRegistry
    from jarvis.app.settings import SettingsError
    from jarvis.app.unattended.service import PreapprovalRequired, Unattended
    from jarvis.core.scheduler.preapproval import NotOwner
    from jarvis.ui.cli.assembly import assemble, fail

    async def run() -> str:
        app = assemble(demo=False)
        app.settings.scheduler.executor_id = f"cli-{os.getpid()}"
        try:
            await app.open_storage()
        except SettingsError as exc:
            raise fail(str(exc)) from None
        service = Unattended(app, AgentRegistry(app).builders())
        await service.start(tick=False)
        try:
            return await work(service)
        except (LookupError, NotOwner, PreapprovalRequired, ValueError) as exc:
            raise fail(str(exc)) from None
        finally:
            await service.aclose()
            await app.close_storage()

    typer.echo(asyncio.run(run()))


async def _listing(service: Unattended) -> str:
    rows = await service.list_schedules()
    if not rows:
        return "(no schedules in ~/.jarvis/schedules/)"
    lines = []
    for row in rows:
        if "error" in row:
            lines.append(f"{row['id']}: broken file: {row['error']}")
            continue
        state = "on" if row["enabled"] else "off"
        upcoming = row["next_runs"][0] if row["next_runs"] else "-"
        last = (
            row["last_runs"][0].get("status", row["last_runs"][0]["state"])
            if row["last_runs"]
            else "-"
        )
        grants = ", ".join(f"{g['tool']}:{g['state']}" for g in row["preapproval"]) or "-"
        lines.append(
            f"{row['id']} [{state}] {row['when']} (owner {row['owner']}, agent {row['agent']})"
            f" next {upcoming} last {last} tools {grants}"
        )
    return "\n".join(lines)


@schedules.callback()
def listing(ctx: typer.Context) -> None:
    """Every schedule: on/off, next run, last result, pre-approved tools."""
    if ctx.invoked_subcommand is None:
        _run(_listing)


@schedules.command("list")
def list_command() -> None:
    """Every schedule: on/off, next run, last result, pre-approved tools."""
    _run(_listing)


@schedules.command()
def run(schedule_id: str, user: _User = "local") -> None:
    """Run a schedule now and print its answer."""

    async def work(service: Unattended) -> str:
        run_id = await service.run_now(schedule_id, user)
        result = await service.engine.wait(run_id)
        return f"{run_id}: {result.get('status')}\n{result.get('answer') or result.get('reason')}"

    _run(work)


@schedules.command()
def enable(schedule_id: str, user: _User = "local") -> None:
    """Turn a schedule on (refused until its tools are pre-approved by the owner)."""

    async def work(service: Unattended) -> str:
        await service.set_enabled(schedule_id, True, user)
        return f"{schedule_id}: on"

    _run(work)


@schedules.command()
def disable(schedule_id: str, user: _User = "local") -> None:
    """Turn a schedule off."""

    async def work(service: Unattended) -> str:
        await service.set_enabled(schedule_id, False, user)
        return f"{schedule_id}: off"

    _run(work)


@schedules.command()
def grant(schedule_id: str, tools: list[str], user: _User = "local") -> None:
    """Pre-approve tools for a schedule (the owner only)."""

    async def work(service: Unattended) -> str:
        schedule = service.schedule(schedule_id)
        await service.preapprovals.grant(schedule, tools, user)
        rows = await service.describe(schedule)
        return ", ".join(f"{r['tool']}: {r['state']}" for r in rows)

    _run(work)
