"""Run one command's work against the data stores (no model, no server), print its text."""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from typing import TYPE_CHECKING, TypeVar

import typer

if TYPE_CHECKING:  # imported when a command runs: `jarvis --help` stays fast
    from jarvis.app.infra import AppAssembly

T = TypeVar("T")


def with_storage(work: Callable[[AppAssembly], Awaitable[T]], *, demo: bool = True) -> T:
    """Run `work` with the stores connected (the database, on the postgres backend); `demo`
    False assembles with the configured model (work that may call it)."""
    import asyncio

    from jarvis.app.settings import SettingsError
    from jarvis.ui.cli.assembly import assemble, fail

    async def run() -> T:
        app = assemble(demo=demo)
        try:
            await app.open_storage()
        except SettingsError as exc:
            raise fail(str(exc)) from None
        try:
            return await work(app)
        finally:
            await app.close_storage()

    return asyncio.run(run())


def run_on_storage(work: Callable[[AppAssembly], Awaitable[str]]) -> None:
    typer.echo(with_storage(work))
