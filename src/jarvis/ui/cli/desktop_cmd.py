"""`jarvis desktop`: settings → the window (`jarvis.ui.desktop.window`), errors as one line."""

from __future__ import annotations

import typer


def run(*, url: str | None, demo: bool, host: str | None, port: int | None, check: bool) -> None:
    from jarvis.app.settings import SettingsError, load_settings
    from jarvis.ui.desktop.window import DesktopError, run_desktop

    try:
        settings = load_settings()
    except SettingsError as exc:
        typer.secho(str(exc), fg="red", err=True)
        raise typer.Exit(2) from None
    try:
        seen = run_desktop(settings, url=url, host=host, port=port, demo=demo, check=check)
    except DesktopError as exc:
        typer.secho(str(exc), fg="red", err=True)
        raise typer.Exit(1) from None
    if seen:
        typer.echo(seen)
