"""The `jarvis` command line (typer).

Imports are lazy: `jarvis --help` and `--version` load typer and nothing of Jarvis's runtime
(settings, providers, MCP, the web server), so they answer in a fraction of a second; each command
imports what it needs when it runs (benchmarks/cli_help.py measures it).
"""

from __future__ import annotations

import os
from typing import TYPE_CHECKING, Annotated

import typer

from jarvis.ui.cli.admin import approvals, audit, extensions
from jarvis.ui.cli.focus_cli import focus
from jarvis.ui.cli.learning_cli import memory, procedures
from jarvis.ui.cli.mcp_cli import mcp
from jarvis.ui.cli.me_cli import me
from jarvis.ui.cli.openloop_cli import openloop
from jarvis.ui.cli.schedules_cli import schedules
from jarvis.ui.cli.thinking_cli import thinking

if TYPE_CHECKING:
    from jarvis.app.infra import AppAssembly
    from jarvis.common.i18n import Language

app = typer.Typer(
    name="jarvis",
    help="Jarvis: a personal AI assistant that does real work while you stay in charge.",
    no_args_is_help=True,
    add_completion=False,
    rich_markup_mode=None,  # plain help: no rich import on the way to a help screen
)

CHAT_HELP = """Chat in the terminal.

\b
Keys (at a terminal; piped input is read as plain lines):
  Enter        send the line
  ←/→ ↑/↓      edit the line; recall earlier lines (~/.jarvis/logs/chat_history)
  Tab          complete a slash command or /<server>:<prompt>
  Ctrl-C       stop the running turn (again when idle: the hint to quit)
  Ctrl-D       quit
\b
At an approval request:
  a            allow once (a bare Enter answers nothing)
  A            always (saves the rule shown)
  d            deny
  any words    an answer in words: a negation denies ("안 돼", "no wait"),
               "ok go" / "실행해" allows; what is not understood keeps waiting
\b
Slash commands:
  /new  /sessions  /resume ID  /stop  /openloop [done|dismiss ID]  /help  /exit
  /<skill> ARGS  runs a skill from ~/.jarvis/skills
"""


def _print_version(value: bool) -> None:
    if value:
        from jarvis import __version__

        typer.echo(f"jarvis {__version__}")
        raise typer.Exit()


@app.callback()
def main(
    version: Annotated[
        bool,
        typer.Option(
            "--version", callback=_print_version, is_eager=True, help="Print the version."
        ),
    ] = False,
) -> None:
    """Jarvis: a personal AI assistant that does real work while you stay in charge."""


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


@app.command()
def serve(
    demo: Annotated[bool, typer.Option("--demo", help="Scripted model; runs offline.")] = False,
    host: Annotated[str | None, typer.Option(help="Bind address (127.0.0.1).")] = None,
    port: Annotated[int | None, typer.Option(help="Port (8000).")] = None,
    workers: Annotated[int, typer.Option(help="Processes (needs the postgres backend).")] = 1,
) -> None:
    """Start the Web HUD."""
    from jarvis.ui.cli.serve_cmd import run_server

    run_server(demo=demo, host=host, port=port, workers=workers)


@app.command(help=CHAT_HELP)
def chat(
    demo: Annotated[bool, typer.Option("--demo", help="Scripted model; runs offline.")] = False,
    session: Annotated[str | None, typer.Option("--session", help="Resume a session.")] = None,
    agent: Annotated[
        str | None, typer.Option("--agent", help="Talk to this team agent (default: main).")
    ] = None,
) -> None:
    from jarvis.ui.cli.chat_cmd import run_chat

    run_chat(demo=demo, session_id=session, agent=agent)


app.add_typer(openloop, name="openloop")
app.add_typer(approvals, name="approvals")
app.add_typer(mcp, name="mcp")
app.add_typer(schedules, name="schedules")
app.add_typer(focus, name="focus")
app.add_typer(memory, name="memory")
app.add_typer(procedures, name="procedures")
app.add_typer(thinking, name="thinking")
app.add_typer(me, name="me")
app.command("audit")(audit)
app.command("extensions")(extensions)


if __name__ == "__main__":
    app()
