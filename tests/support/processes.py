"""Real `jarvis serve` processes on PostgreSQL with a scripted (faux) model.

For the scale-out tests and benchmarks: each `serve` is a separate OS process with its own
event loop, pools and LISTEN connection, sharing only the database, as a deployment would.

    with serve(tmp / "a", dsn, [bash("echo hi"), "done"]) as (address, process):
        await healthy(address)
        tab = await Tab.open(f"ws://{address}/ws")

Every server started here has the launch token `LAUNCH_TOKEN`; `Tab.open` knows it, and httpx
clients send `hud_headers()` (scripts authenticate with `Authorization: Bearer <token>`).
"""

from __future__ import annotations

import asyncio
import os
import secrets
import shutil
import signal
import subprocess
import sys
from collections.abc import Iterator, Mapping
from contextlib import contextmanager
from pathlib import Path
from typing import NamedTuple

import httpx
from ruamel.yaml import YAML

from tests.support.hang import HANG_GUARD_SEC, log_tail
from tests.support.live_server import register_credentials
from tests.support.ports import free_port

# The console script of the environment the tests run in.
JARVIS = shutil.which("jarvis") or str(Path(sys.executable).parent / "jarvis")
LOG_FILE = "serve.log"
SCRIPT_FILE = "script.yaml"
LAUNCH_TOKEN = secrets.token_urlsafe(16)
# host:port → the process serving it and its log: `healthy` fails at once if it died.
_SERVED: dict[str, tuple[subprocess.Popen[str], Path]] = {}


def hud_headers() -> dict[str, str]:
    """What a script sends to any server started by `serve`."""
    return {"Authorization": f"Bearer {LAUNCH_TOKEN}"}


class Served(NamedTuple):
    """A running server: unpacks as `(address, process)`; `address` is `host:port`."""

    address: str
    process: subprocess.Popen[str]


def bash(command: str) -> dict[str, object]:
    """A scripted model response that calls the `bash` tool with `command`."""
    return {"tool_calls": [{"name": "bash", "arguments": {"command": command}}]}


@contextmanager
def serve(
    home: Path,
    dsn: str,
    script: list[object],
    env: Mapping[str, str] | None = None,
) -> Iterator[Served]:
    """Start `jarvis serve` on a free port with `home` as data dir and workspace.

    `script` is the faux model's list of responses (a string is a plain answer, see `bash`);
    the AGENDA judge is off. `env` adds or overrides settings, e.g.
    `{"JARVIS_SECURITY__RATE_LIMIT_PER_MINUTE": "100000"}` (nesting delimiter `__`). The
    parent's own `JARVIS_*` variables are not passed on. Output goes to `home/serve.log`.
    On exit the process gets SIGTERM (SIGKILL after 10 s) unless it has already ended.
    Does not wait for readiness: call `healthy` (several servers can start in parallel).
    """
    home.mkdir(parents=True, exist_ok=True)
    with (home / SCRIPT_FILE).open("w", encoding="utf-8") as out:
        YAML(typ="safe").dump(script, out)
    port = free_port()
    environment = {k: v for k, v in os.environ.items() if not k.startswith("JARVIS_")}
    environment.update(
        JARVIS_HOME=str(home),
        JARVIS_WORKSPACE=str(home),
        JARVIS_STORAGE__BACKEND="postgres",
        JARVIS_STORAGE__POSTGRES_DSN=dsn,
        JARVIS_MODEL__PROVIDER="faux",
        JARVIS_MODEL__SCRIPT=str(home / SCRIPT_FILE),
        JARVIS_OPENLOOP__ENABLED="false",
        JARVIS_WEB__TOKEN=LAUNCH_TOKEN,
    )
    environment.update(env or {})
    # A file, not a pipe: a pipe nobody reads fills up and blocks the server.
    with (home / LOG_FILE).open("a", encoding="utf-8") as log:
        process = subprocess.Popen(
            [JARVIS, "serve", "--port", str(port)],
            env=environment,
            text=True,
            stdout=log,
            stderr=subprocess.STDOUT,
        )
        address = f"127.0.0.1:{port}"
        register_credentials(address, hud_headers())
        _SERVED[address] = (process, home / LOG_FILE)
        try:
            yield Served(address, process)
        finally:
            _SERVED.pop(address, None)  # the port may serve another test's process later
            stop(process)


def stop(process: subprocess.Popen[str], grace_sec: float = 10) -> None:
    """SIGTERM, then SIGKILL if it has not exited within `grace_sec`; no-op if it has ended."""
    if process.poll() is not None:
        return
    process.send_signal(signal.SIGTERM)
    try:
        process.wait(grace_sec)
    except subprocess.TimeoutExpired:
        process.kill()
        process.wait(grace_sec)


async def healthy(
    address: str, timeout: float = HANG_GUARD_SEC, process: subprocess.Popen[str] | None = None
) -> None:
    """Wait until `GET /api/health` answers 200. Fails at once, with its log's tail, if the
    server process (started by `serve`, or `process`) has ended; `timeout` only guards a hang."""
    served, log = _SERVED.get(address, (process, None))
    async with httpx.AsyncClient() as http, asyncio.timeout(timeout):
        while True:
            if served is not None and served.poll() is not None:
                tail = log_tail(log) if log is not None else ""
                raise AssertionError(f"the server on {address} ended ({served.returncode})\n{tail}")
            try:
                if (await http.get(f"http://{address}/api/health")).status_code == 200:
                    return
            except httpx.HTTPError:
                pass
            await asyncio.sleep(0.1)


def printing(
    args: list[str], env: Mapping[str, str], cwd: Path | None = None
) -> subprocess.Popen[str]:
    """A process whose output (stdout and stderr together) the test reads line by line."""
    return subprocess.Popen(
        args, env=env, cwd=cwd, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True
    )


def lines_until(process: subprocess.Popen[str], marker: str) -> str:
    """What the process printed up to and including the first line with `marker` (pytest's
    timeout guards a process that never prints it)."""
    assert process.stdout is not None
    printed = []
    for line in process.stdout:
        printed.append(line)
        if marker in line:
            break
    return "".join(printed)
