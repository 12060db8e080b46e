"""What every `jarvis` subcommand needs to start: the settings' assembly (or one clear line
instead of a traceback), the language before settings are read, and how a command fails.

Its own module so the subcommands never import the entry point (ui/cli/main.py) that imports
them."""

from __future__ import annotations

import os
from typing import TYPE_CHECKING

import typer

if TYPE_CHECKING:
    from jarvis.app.infra import AppAssembly
    from jarvis.common.i18n import Language


def fail(message: str) -> typer.Exit:
    typer.secho(message, fg="red", err=True)
    return typer.Exit(2)


def env_language() -> Language:
    """The language of lines printed before the settings load: `JARVIS_LANGUAGE`, else the
    terminal's locale (`LC_ALL`, `LC_MESSAGES`, `LANG`)."""
    from jarvis.common.language import environment_language

    return environment_language(os.environ)


def assemble(*, demo: bool) -> AppAssembly:
    """Settings → assembly, or one clear line (no traceback) when a setting is wrong or a file
    the start needs cannot be read or written."""
    from jarvis.app.infra import build_app
    from jarvis.app.settings import SettingsError, config_warnings, load_settings
    from jarvis.common.i18n import t
    from jarvis.common.jsonl import DataFileError

    lang = env_language()
    try:
        settings = load_settings()
        lang = settings.language
        for warning in config_warnings(settings):
            typer.secho(warning, fg="yellow", err=True)
        return build_app(settings, demo=demo)
    except SettingsError as exc:
        raise fail(str(exc)) from None
    except DataFileError as exc:
        raise fail(exc.message(lang)) from None
    except OSError as exc:
        reason = exc.strerror or str(exc)
        raise fail(t("files.write_failed", lang, path=exc.filename, reason=reason)) from None
