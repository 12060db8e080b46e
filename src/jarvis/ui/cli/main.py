"""The `jarvis` command line (typer)."""

from __future__ import annotations

import asyncio
import contextlib
import logging
import os
import sys
from typing import Annotated

import typer

from jarvis.app.agent_commands import unknown_agent
from jarvis.app.agent_registry import AgentRegistry
from jarvis.app.infra import AppAssembly, build_app
from jarvis.app.settings import SettingsError, load_settings
from jarvis.app.unattended.service import Unattended
from jarvis.common.i18n import Language, t
from jarvis.common.jsonl import DataFileError
from jarvis.ui.cli.admin import approvals, audit, extensions
from jarvis.ui.cli.chat import ChatRepl
from jarvis.ui.cli.learning_cli import memory, procedures
from jarvis.ui.cli.openloop_cli import openloop
from jarvis.ui.cli.schedules_cli import schedules

app = typer.Typer(
    name="jarvis",
    help="Jarvis: a personal AI assistant that does real work while you stay in charge.",
    no_args_is_help=True,
    add_completion=False,
)


app.add_typer(approvals, name="approvals")
app.add_typer(openloop, name="openloop")
app.add_typer(schedules, name="schedules")
app.add_typer(memory, name="memory")
app.add_typer(procedures, name="procedures")
app.command("audit")(audit)
app.command("extensions")(extensions)


@app.callback()
def main() -> None:
    """Jarvis: a personal AI assistant that does real work while you stay in charge."""


def fail(message: str) -> typer.Exit:
    typer.secho(message, fg="red", err=True)
    return typer.Exit(2)


def assemble(*, demo: bool) -> AppAssembly:
    """Settings → assembly, or one clear line (no traceback) when a setting is wrong or a file
    the start needs cannot be read or written."""
    lang: Language = "en" if os.environ.get("JARVIS_LANGUAGE") == "en" else "ko"
    try:
        settings = load_settings()
        lang = settings.language
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
    import uvicorn

    from jarvis.ui.web.factory import DEMO_ENV
    from jarvis.ui.web.launch_token import LAUNCH_TOKEN_ENV, launch_token_for, launch_url

    logging.basicConfig(level=logging.INFO, format="%(levelname)s %(name)s: %(message)s")
    settings = assemble(demo=demo).settings  # validates the settings once, in the parent
    if workers > 1 and settings.storage.backend != "postgres":
        raise fail("--workers > 1 needs JARVIS_STORAGE__BACKEND=postgres (shared state)")
    bind_host, bind_port = host or settings.web.host, port or settings.web.port
    token = launch_token_for(settings)
    # Workers read their settings from the environment: the same host, port and token.
    os.environ.update(
        {"JARVIS_WEB__HOST": bind_host, "JARVIS_WEB__PORT": str(bind_port), LAUNCH_TOKEN_ENV: token}
    )
    mode = " (demo)" if demo else f" ({settings.model.model})"
    if settings.security.api_keys:
        url = launch_url(bind_host, bind_port, None)
        typer.secho(t("serve.open_hud_keys", settings.language, mode=mode, url=url), fg="green")
    else:
        url = launch_url(bind_host, bind_port, token)
        typer.secho(t("serve.open_hud", settings.language, mode=mode, url=url), fg="green")
    if demo:
        os.environ[DEMO_ENV] = "1"
    # Every worker process builds its own assembly from the same settings.
    uvicorn.run(
        "jarvis.ui.web.factory:create_from_env",
        factory=True,
        host=bind_host,
        port=bind_port,
        workers=workers,
        log_level="warning",
        ws_max_size=1_000_000,
        ws_per_message_deflate=False,  # small JSON frames on a local link: compression costs CPU
        # uvloop starts a child that was given a preexec_fn (the bash subreaper) seconds late.
        loop="asyncio",
    )


@app.command()
def chat(
    demo: Annotated[bool, typer.Option("--demo", help="Scripted model; runs offline.")] = False,
    session: Annotated[str | None, typer.Option("--session", help="Resume a session.")] = None,
    agent: Annotated[
        str | None, typer.Option("--agent", help="Talk to this team agent (default: main).")
    ] = None,
) -> None:
    """Chat in the terminal."""
    logging.basicConfig(level=logging.WARNING, format="%(levelname)s %(name)s: %(message)s")
    assembly = assemble(demo=demo)
    asyncio.run(_chat(assembly, session, agent))


async def _chat(assembly: AppAssembly, session_id: str | None, agent: str | None = None) -> None:
    agents = AgentRegistry(assembly)
    try:
        await assembly.start()
    except SettingsError as exc:
        raise fail(str(exc)) from None
    try:
        if session_id:
            found = await agents.open(session_id)
            if found is None:
                lang = assembly.settings.language
                raise fail(t("terminal.session_missing_start", lang, session=session_id))
            session = found
        else:
            builder = agents.get(agent)
            if builder is None:
                lang = assembly.settings.language
                raise fail(unknown_agent(agents, agent or "", lang))
            session = await builder.create()
        repl = ChatRepl(agents, session)
        # Reminders and unattended results reach the terminal too (seed 001, issue 19).
        unattended = Unattended(assembly, agents.builders())
        unattended.hub.terminal = None
        unattended.hub.attach(session.info.user_id, lambda event: repl.render.line(event["text"]))
        # In the background: the REPL is usable at once, the engine joins when it is up. A
        # piped, scripted chat lives for seconds: it runs no unattended work of its own.
        interactive = sys.stdin.isatty()
        starting = asyncio.create_task(unattended.start() if interactive else asyncio.sleep(0))
        try:
            await repl.run()
        finally:
            if not starting.done():
                starting.cancel()
            with contextlib.suppress(Exception, asyncio.CancelledError):
                await starting
            await unattended.aclose()
    finally:
        await assembly.aclose()


if __name__ == "__main__":
    app()
