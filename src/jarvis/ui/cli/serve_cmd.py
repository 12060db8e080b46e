"""`jarvis serve`: validate the settings once, then run uvicorn (imported only for this)."""

from __future__ import annotations

import logging
import os
from typing import Any

import httpx
import typer
import uvicorn
from uvicorn.config import STARTUP_FAILURE

from jarvis.app.settings import Settings
from jarvis.common.i18n import t
from jarvis.model_layer.providers.server_errors import one_line
from jarvis.ui.cli import quiet_server
from jarvis.ui.cli.assembly import assemble, fail
from jarvis.ui.cli.console_log import console_logging
from jarvis.ui.cli.serve_port import port_taken, when_listening
from jarvis.ui.web.factory import DEMO_ENV
from jarvis.ui.web.launch_token import LAUNCH_TOKEN_ENV, launch_token_for, launch_url
from jarvis.ui.web.server import SHUTDOWN_GRACE_SEC


def warn_if_unreachable(settings: Settings) -> None:
    """Say at start when the model server does not answer (the HUD would only fail later)."""
    model = settings.model
    if model.provider != "openai":
        return
    try:
        httpx.get(f"{model.base_url.rstrip('/')}/models", timeout=3.0)
    except httpx.HTTPError as exc:
        reason = type(exc).__name__ if not str(exc) else one_line(str(exc), 120)
        line = t(
            "settings.model_unreachable",
            settings.language,
            base_url=model.base_url,
            reason=reason,
            model=model.model,
        )
        typer.secho(line, fg="yellow", err=True)


def run_server(*, demo: bool, host: str | None, port: int | None, workers: int) -> None:
    console_logging(logging.INFO)
    settings = assemble(demo=demo).settings  # validates the settings once, in the parent
    if not demo:
        warn_if_unreachable(settings)
    if workers > 1 and settings.storage.backend != "postgres":
        raise fail("--workers > 1 needs JARVIS_STORAGE__BACKEND=postgres (shared state)")
    bind_host, bind_port = host or settings.web.host, port or settings.web.port
    token = launch_token_for(settings)
    # Workers read their settings from the environment: the same host, port and token.
    os.environ.update(
        {"JARVIS_WEB__HOST": bind_host, "JARVIS_WEB__PORT": str(bind_port), LAUNCH_TOKEN_ENV: token}
    )
    if port_taken(bind_host, bind_port):
        raise fail(t("serve.port_in_use", settings.language, host=bind_host, port=bind_port))
    mode = " (demo)" if demo else f" ({settings.model.model})"
    if settings.security.api_keys:
        url = launch_url(bind_host, bind_port, None)
        line = t("serve.open_hud_keys", settings.language, mode=mode, url=url)
    else:
        url = launch_url(bind_host, bind_port, token)
        line = t("serve.open_hud", settings.language, mode=mode, url=url)
    when_listening(bind_host, bind_port, lambda: typer.secho(line, fg="green"))
    if demo:
        os.environ[DEMO_ENV] = "1"
    # Every worker process builds its own assembly from the same settings.
    options: dict[str, Any] = dict(
        app="jarvis.ui.web.factory:create_from_env",
        factory=True,
        host=bind_host,
        port=bind_port,
        workers=workers,
        log_level="warning",
        ws_max_size=1_000_000,
        ws_per_message_deflate=False,  # small JSON frames on a local link: compression costs CPU
        # An open HUD tab keeps its event stream open for ever: without a limit the first Ctrl-C
        # waits for the person to close every tab. Tabs reconnect to the next server by themselves.
        timeout_graceful_shutdown=SHUTDOWN_GRACE_SEC,
        # uvloop starts a child that was given a preexec_fn (the bash subreaper) seconds late.
        loop="asyncio",
    )
    if workers > 1:  # uvicorn's supervisor makes each worker's server
        uvicorn.run(**options)
    elif not quiet_server.serve(uvicorn.Config(**options)):  # one process: no tick while idle
        raise typer.Exit(STARTUP_FAILURE)
