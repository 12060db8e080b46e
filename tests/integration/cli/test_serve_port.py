"""`jarvis serve` and its port: a taken port is one line (no address that cannot work), and the
address is printed only once the server accepts connections (it used to be printed seconds
before, and opening it at once gave "connection refused")."""

from __future__ import annotations

import socket
from pathlib import Path

import httpx

from tests.integration.cli.test_settings_errors import JARVIS, jarvis, one_line_error
from tests.support.hang import HANG_GUARD_SEC
from tests.support.ports import free_port
from tests.support.processes import lines_until, printing


def test_a_taken_port_is_one_line_and_prints_no_address(tmp_path: Path) -> None:
    with socket.socket() as holder:
        holder.bind(("127.0.0.1", 0))
        holder.listen()
        port = holder.getsockname()[1]
        done = jarvis(tmp_path, "serve", "--demo", "--port", str(port), JARVIS_LANGUAGE="en")
    line = one_line_error(done)
    assert f"Port {port} on 127.0.0.1 is already in use" in line and "--port" in line
    assert "token=" not in done.stdout


def test_the_address_is_printed_once_the_server_accepts(tmp_path: Path) -> None:
    port = free_port()
    env = {"JARVIS_HOME": str(tmp_path), "JARVIS_WORKSPACE": str(tmp_path), "PATH": "/usr/bin:/bin"}
    process = printing([JARVIS, "serve", "--demo", "--port", str(port)], env, tmp_path)
    try:
        url = lines_until(process, "token=").splitlines()[-1].strip()
        assert url.startswith(f"http://127.0.0.1:{port}/?token="), url
        # no retry: the moment the address is shown, the server answers
        assert (
            httpx.get(f"http://127.0.0.1:{port}/api/health", timeout=HANG_GUARD_SEC).status_code
            == 200
        )
    finally:
        process.terminate()
        process.wait(HANG_GUARD_SEC)
