"""`jarvis serve`'s console: no `INFO httpx` line per HTTP request (the model server probe at
start is one; every model call and embedding was one more)."""

from __future__ import annotations

import logging
import os
from pathlib import Path

import pytest

from jarvis.ui.cli.console_log import quiet_http_clients
from tests.integration.cli.test_settings_errors import JARVIS
from tests.support.hang import HANG_GUARD_SEC
from tests.support.ports import free_port
from tests.support.processes import lines_until, printing
from tests.support.scripted_http import ScriptedServer


def test_the_console_has_no_http_request_lines(tmp_path: Path) -> None:
    port = free_port()
    env = {k: v for k, v in os.environ.items() if not k.startswith("JARVIS_")}
    with ScriptedServer() as model:  # answers the start-up probe (a GET) with 501
        env.update(
            JARVIS_HOME=str(tmp_path),
            JARVIS_WORKSPACE=str(tmp_path),
            JARVIS_LANGUAGE="en",
            JARVIS_MODEL__BASE_URL=f"{model.url}/v1",
            JARVIS_SCHEDULER__ENABLED="false",
        )
        process = printing([JARVIS, "serve", "--port", str(port)], env, tmp_path)
        try:
            printed = lines_until(process, "token=")
        finally:
            process.terminate()
            process.wait(HANG_GUARD_SEC)
    assert "token=" in printed
    assert "httpx" not in printed and "HTTP Request" not in printed, printed


def record(name: str, level: int) -> logging.LogRecord:
    return logging.LogRecord(name, level, __file__, 1, "HTTP Request: GET x", None, None)


@pytest.mark.parametrize(
    ("name", "level", "shown"),
    [
        ("httpx", logging.INFO, False),
        ("httpcore.connection", logging.DEBUG, False),
        ("httpx", logging.WARNING, True),  # a client's warning still shows
        ("httpcore", logging.ERROR, True),
        ("jarvis.session", logging.INFO, True),
        ("httpxtra", logging.INFO, True),  # another library whose name only starts alike
    ],
)
def test_quiet_http_clients(name: str, level: int, shown: bool) -> None:
    assert quiet_http_clients(record(name, level)) is shown
