"""`jarvis mcp add|list|remove|reconnect|login`: servers in `~/.jarvis/mcp.json`."""

from __future__ import annotations

import asyncio
import logging
from typing import TYPE_CHECKING, Annotated

import typer

if TYPE_CHECKING:  # the rest is imported when a command runs: `jarvis --help` stays fast
    from jarvis.app.settings import Settings

mcp = typer.Typer(help="MCP servers (mcp.json, Claude-Desktop form).", no_args_is_help=True)


def _settings() -> Settings:
    from jarvis.app.settings import SettingsError, load_settings

    try:
        return load_settings()
    except SettingsError as exc:
        typer.secho(str(exc), fg="red", err=True)
        raise typer.Exit(2) from None


@mcp.command("add")
def add(
    name: str,
    command: Annotated[list[str] | None, typer.Argument(help="Program and arguments.")] = None,
    url: Annotated[str | None, typer.Option(help="A remote server's URL.")] = None,
    transport: Annotated[str | None, typer.Option(help="sse or http (default: by URL).")] = None,
    env: Annotated[list[str] | None, typer.Option(help="KEY=VALUE for the process.")] = None,
    header: Annotated[list[str] | None, typer.Option(help="Name=Value HTTP header.")] = None,
) -> None:
    """Add (or replace) a server: `jarvis mcp add fs -- npx -y <package> ~/notes`."""
    from jarvis.app.mcp_config import mcp_json_path, read_mcp_json, write_mcp_json

    settings = _settings()
    path = mcp_json_path(settings)
    servers, problem = read_mcp_json(path)
    if problem is not None:
        typer.secho(f"{path}: {problem}", fg="red", err=True)
        raise typer.Exit(2)
    entry: dict[str, object] = {}
    if url:
        entry = {"url": url, **({"type": transport} if transport else {})}
        if header:
            entry["headers"] = dict(item.split("=", 1) for item in header)
    elif command:
        program, *args = command
        entry = {"command": program, "args": args}
        if env:
            entry["env"] = dict(item.split("=", 1) for item in env)
    else:
        typer.secho("give a command (after --) or --url", fg="red", err=True)
        raise typer.Exit(2)
    write_mcp_json(path, {**(servers or {}), name: entry})
    typer.echo(f"{name} → {path}")


@mcp.command("remove")
def remove(name: str) -> None:
    """Remove a server from mcp.json."""
    from jarvis.app.mcp_config import mcp_json_path, read_mcp_json, write_mcp_json

    settings = _settings()
    path = mcp_json_path(settings)
    servers, problem = read_mcp_json(path)
    if problem is not None or not servers or name not in servers:
        typer.secho(f"{name}: not in {path}", fg="red", err=True)
        raise typer.Exit(1)
    write_mcp_json(path, {k: v for k, v in servers.items() if k != name})
    typer.echo(f"{name} removed from {path}")


@mcp.command("list")
def list_servers() -> None:
    """Connect to every configured server and show its state, tools and last error."""
    from jarvis.app.mcp_config import server_set
    from jarvis.core.mcp import MCPManager
    from jarvis.core.mcp.oauth import stored_auth
    from jarvis.core.tools.registry import ToolRegistry
    from jarvis.ui.cli.mcp_status import resource_catalogs, status_lines

    settings = _settings()

    async def run() -> None:
        manager = MCPManager(
            ToolRegistry(),
            log_dir=settings.home / "logs" / "mcp",
            auth=stored_auth(settings.home),
        )
        found = server_set(settings)
        await manager.start(found.configs, found.problems)
        try:
            await manager.wait_ready()
            catalogs = await resource_catalogs(manager)
            for line in status_lines(manager.status(), settings.language, catalogs):
                typer.echo(line)
        finally:
            await manager.aclose()

    asyncio.run(run())


@mcp.command("reconnect")
def reconnect(name: Annotated[str | None, typer.Argument()] = None) -> None:
    """Ask the running Jarvis to reconnect one server (or all), backoff reset."""
    from jarvis.app.mcp_config import RECONNECT_FILE
    from jarvis.common.i18n import t

    settings = _settings()
    (settings.home / RECONNECT_FILE).write_text(name or "*", encoding="utf-8")
    typer.echo(t("mcp.reconnect_asked", settings.language, name=name or "*"))


@mcp.command("login")
def login(name: str) -> None:
    """Sign in to a remote server (OAuth 2.1 in the browser); tokens stay in the data dir."""
    from jarvis.app.mcp_config import RECONNECT_FILE, server_set
    from jarvis.common.i18n import t
    from jarvis.core.mcp.oauth import LoginFailed
    from jarvis.core.mcp.oauth import login as oauth_login

    settings = _settings()
    found = server_set(settings)
    config = next((c for c in found.configs if c.name == name), None)
    if config is None:
        typer.secho(f"{name}: no such MCP server", fg="red", err=True)
        raise typer.Exit(1)
    # The SDK logs a failed flow with its traceback; the reason is said below, in one line.
    logging.getLogger("mcp").addHandler(logging.NullHandler())
    try:
        asyncio.run(oauth_login(config, settings.home))
    except LoginFailed as exc:
        typer.secho(
            t("mcp.login_failed", settings.language, name=name, reason=exc), fg="red", err=True
        )
        raise typer.Exit(1) from None
    # A running Jarvis waits in "needs sign-in" for exactly this: it reconnects with the tokens.
    (settings.home / RECONNECT_FILE).write_text(name, encoding="utf-8")
    typer.echo(t("mcp.logged_in", settings.language, name=name))
