"""The `jarvis` command line (typer).

Imports are lazy: `jarvis --help` and `--version` load typer and nothing of Jarvis's runtime
(settings, providers, MCP, the web server), so they answer in a fraction of a second; each command
imports what it needs when it runs (benchmarks/cli_help.py measures it).
"""

from __future__ import annotations

from typing import Annotated, Any

import typer
from typer.core import TyperCommand

from jarvis.ui.cli.admin import approvals, audit, extensions
from jarvis.ui.cli.assembly import env_language
from jarvis.ui.cli.focus_cli import focus
from jarvis.ui.cli.learning_cli import memory, procedures
from jarvis.ui.cli.mcp_cli import mcp
from jarvis.ui.cli.me_cli import me
from jarvis.ui.cli.openloop_cli import openloop
from jarvis.ui.cli.schedules_cli import schedules
from jarvis.ui.cli.sources_cli import sources
from jarvis.ui.cli.thinking_cli import thinking

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
"""


class _ChatCommand(TyperCommand):
    """`chat --help` ends with the same commands `/help` lists (the command table's fixed
    ones), read only when the help is shown: `jarvis --help` stays light."""

    def format_help_text(self, ctx: Any, formatter: Any) -> None:
        from jarvis.common.i18n import t
        from jarvis.core.commands import BUILTINS, help_lines

        lang = env_language()
        listed = [t("commands.header", lang), *help_lines(BUILTINS, lang), t("commands.more", lang)]
        self.help = CHAT_HELP + "\b\n" + "\n".join(listed) + "\n"
        super().format_help_text(ctx, formatter)


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


@app.command()
def desktop(
    url: Annotated[
        str | None,
        typer.Option("--url", help="Token URL of a running jarvis serve."),
    ] = None,
    demo: Annotated[bool, typer.Option("--demo", help="Scripted model; runs offline.")] = False,
    host: Annotated[str | None, typer.Option(help="Bind address of the server it starts.")] = None,
    port: Annotated[int | None, typer.Option(help="Port of the server it starts.")] = None,
    check: Annotated[
        bool, typer.Option("--check", help="Open, wait until logged in, print what it saw, close.")
    ] = False,
) -> None:
    """The Web HUD in a native window (needs the `desktop` extra)."""
    from jarvis.ui.cli.desktop_cmd import run

    run(url=url, demo=demo, host=host, port=port, check=check)


@app.command(cls=_ChatCommand, help=CHAT_HELP)
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
app.add_typer(sources, name="sources")
app.add_typer(memory, name="memory")
app.add_typer(procedures, name="procedures")
app.add_typer(thinking, name="thinking")
app.add_typer(me, name="me")
app.command("audit")(audit)
app.command("extensions")(extensions)


if __name__ == "__main__":
    app()
