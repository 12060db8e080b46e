"""`jarvis desktop`: the HUD in a native window (pywebview on Qt WebEngine, the `desktop` extra).

The window is one more browser of the same HUD (seed 004): it opens the launch token URL, the
server exchanges the token for the session cookie exactly as for a browser tab, and from then on
the page talks to the server over HTTP and the WebSocket like any tab. Nothing is wired apart.

- `--url <token URL>` connects to a `jarvis serve` that already runs (the URL it printed);
- otherwise the window starts `jarvis serve` itself (a child process with a fresh launch token,
  on `--host`/`--port` or the settings' address) and stops it when the window closes.

Closing the window ends the command with status 0 (and the server it started, by SIGTERM).
`--check` opens the window, waits until the HUD is loaded and logged in (its WebSocket is up and
an API call from the page is answered 200), prints what it saw and closes: a smoke test for a
machine's display, Qt and the login flow.
"""

from __future__ import annotations

import contextlib
import os
import shutil
import subprocess
import sys
import time
from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import Any

import httpx

from jarvis.app.settings import Settings
from jarvis.common.i18n import Language, t
from jarvis.ui.web.launch_token import LAUNCH_TOKEN_ENV, launch_url, new_launch_token

GUI = "qt"
WINDOW_TITLE = "JARVIS"
# ponytail: a guard for --check and start-up, not a budget; a loaded machine still fits.
READY_TIMEOUT_SEC = 120.0
_POLL_SEC = 0.1


class DesktopError(Exception):
    """One line for the person (the command exits 1 with it)."""


def load_webview(lang: Language) -> Any:
    """The pywebview module, or a one-line error that says how to install it."""
    try:
        import qtpy  # noqa: F401 - the Qt backend (the extra's `pywebview[qt]`)
        import webview
    except ImportError:
        raise DesktopError(t("desktop.missing_extra", lang)) from None
    return webview


def has_display() -> bool:
    """A window needs a display (Qt aborts the process without one)."""
    if sys.platform != "linux":
        return True
    return bool(os.environ.get("DISPLAY") or os.environ.get("WAYLAND_DISPLAY"))


@dataclass
class Server:
    """The HUD the window opens: its token URL, and the child process when the window started it."""

    url: str
    process: subprocess.Popen[bytes] | None = None
    log: list[str] = field(default_factory=list)


def _jarvis_command() -> list[str]:
    beside = os.path.join(os.path.dirname(sys.executable), "jarvis")
    if os.path.exists(beside):
        return [beside]
    found = shutil.which("jarvis")
    return [found] if found else [sys.executable, "-m", "jarvis"]


def _wait_until_up(server: Server, lang: Language) -> None:
    deadline = time.monotonic() + READY_TIMEOUT_SEC
    base = server.url.split("?", 1)[0]
    while time.monotonic() < deadline:
        if server.process is not None and server.process.poll() is not None:
            raise DesktopError(t("desktop.server_exited", lang, code=server.process.returncode))
        try:
            if httpx.get(f"{base}api/health", timeout=2.0).status_code == 200:
                return
        except httpx.HTTPError:
            pass
        time.sleep(_POLL_SEC)  # the server is still building the app
    raise DesktopError(t("desktop.server_timeout", lang, url=base))


@contextlib.contextmanager
def hud_server(
    settings: Settings, url: str | None, host: str | None, port: int | None, demo: bool
) -> Iterator[Server]:
    """The server the window opens: the given token URL, else a `jarvis serve` started here and
    stopped on exit."""
    lang = settings.language
    if url is not None:
        server = Server(url)
        _wait_until_up(server, lang)
        yield server
        return
    from jarvis.ui.cli.serve_port import port_taken

    bind_host, bind_port = host or settings.web.host, port or settings.web.port
    if port_taken(bind_host, bind_port):
        raise DesktopError(t("desktop.port_in_use", lang, host=bind_host, port=bind_port))
    token = new_launch_token()
    env = {**os.environ, LAUNCH_TOKEN_ENV: token}
    args = [*_jarvis_command(), "serve", "--host", bind_host, "--port", str(bind_port)]
    process = subprocess.Popen([*args, *(["--demo"] if demo else [])], env=env)
    server = Server(launch_url(bind_host, bind_port, token), process)
    try:
        _wait_until_up(server, lang)
        yield server
    finally:
        if process.poll() is None:
            process.terminate()
            try:
                process.wait(timeout=30)
            except subprocess.TimeoutExpired:
                process.kill()
                process.wait()


_CHECK_JS = (
    "window.__jarvisDesktop = null;"
    "fetch('/api/sessions', {credentials: 'same-origin'})"
    ".then(r => { window.__jarvisDesktop = r.status; })"
    ".catch(() => { window.__jarvisDesktop = 0; });"
)


def check_page(window: Any) -> tuple[str, int, bool]:
    """(title, status of an API call made from the page, WebSocket up) once the HUD is ready,
    or what it was when the guard ran out. `run_js` (as typed; the HUD's CSP forbids the
    `eval` that pywebview's `evaluate_js` wraps scripts in)."""
    deadline = time.monotonic() + READY_TIMEOUT_SEC
    window.run_js(_CHECK_JS)
    status, connected = "", False
    while time.monotonic() < deadline:
        status = str(window.run_js("String(window.__jarvisDesktop)") or "")
        connected = window.run_js("document.querySelector('#status.on') !== null") is True
        if status not in ("", "null") and (connected or status != "200"):
            break  # ready, or refused: a page that was not logged in never connects
        time.sleep(_POLL_SEC)
    title = str(window.run_js("document.title") or "")
    return title, int(status) if status.isdigit() else 0, connected


def open_window(webview: Any, server: Server, title: str, check: bool) -> tuple[str, int, bool]:
    """Show the HUD until the window closes (`check`: until it is ready, then close it)."""
    if os.name == "posix" and os.geteuid() == 0:
        # Qt WebEngine's Chromium refuses to run as root with its sandbox; the page is the
        # local HUD only (the window never navigates elsewhere by itself).
        os.environ.setdefault("QTWEBENGINE_DISABLE_SANDBOX", "1")
    window = webview.create_window(title, server.url, width=1280, height=860, min_size=(390, 600))
    seen: list[tuple[str, int, bool]] = []

    def on_loaded() -> None:
        # The token URL answers with a redirect to the HUD (the cookie set), so the first page
        # loaded is the HUD, or the refusal of a wrong token.
        if check and not seen:
            try:
                seen.append(check_page(window))
            finally:
                window.destroy()  # whatever happened, --check never leaves a window open

    window.events.loaded += on_loaded
    webview.start(gui=GUI, private_mode=True)
    return seen[0] if seen else ("", 0, False)


def run_desktop(
    settings: Settings,
    *,
    url: str | None,
    host: str | None,
    port: int | None,
    demo: bool,
    check: bool,
) -> str:
    """Open the window; what `--check` saw (empty without it). Raises DesktopError."""
    lang = settings.language
    webview = load_webview(lang)
    if not has_display():
        raise DesktopError(t("desktop.no_display", lang))
    with hud_server(settings, url, host, port, demo) as server:
        title, status, connected = open_window(webview, server, WINDOW_TITLE, check)
    if not check:
        return ""
    if status != 200 or not connected:
        raise DesktopError(t("desktop.check_failed", lang, title=title, status=status))
    return t("desktop.check_ok", lang, title=title, status=status)
