"""Run one command's work against the data stores (no model, no server), print its text."""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from typing import TYPE_CHECKING

import typer

if TYPE_CHECKING:  # imported when a command runs: `jarvis --help` stays fast
    from jarvis.app.infra import AppAssembly


def run_on_storage(work: Callable[[AppAssembly], Awaitable[str]]) -> None:
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
