"""The container files (seed 001: `docker compose up -d --build jarvis-backend`; seed 004:
`~/.jarvis` is the `jarvis_data` volume). No container engine can pull a base image on this
machine, so the image is not built here (docs/operations.md says so); these tests check what
the files promise and run the container's entry command outside a container, with the image's
and compose's environment: it binds 0.0.0.0, prints the address `docker compose logs` shows,
answers the health check, and keeps its data in the volume's path."""

from __future__ import annotations

import asyncio
import os
import re
import subprocess
import sys
from pathlib import Path
from typing import Any

from ruamel.yaml import YAML

from tests.support.hang import HANG_GUARD_SEC
from tests.support.ports import free_port
from tests.support.postgres import postgres_dsn

ROOT = Path(__file__).resolve().parents[3]
BIN = Path(sys.executable).parent


def dockerfile() -> str:
    return (ROOT / "Dockerfile").read_text("utf-8")


def image_env() -> dict[str, str]:
    """The `ENV` settings of the final stage (continuation lines joined)."""
    text = dockerfile().replace("\\\n", " ")
    found: dict[str, str] = {}
    for line in text.splitlines():
        if line.startswith("ENV "):
            found.update(re.findall(r"(\w+)=(\S+)", line))
    return found


def compose() -> dict[str, Any]:
    loaded: dict[str, Any] = YAML(typ="safe").load((ROOT / "compose.yaml").read_text("utf-8"))
    return loaded


def test_the_image_runs_as_a_user_from_the_lock_file_with_a_health_check() -> None:
    text = dockerfile()
    lines = [line.strip() for line in text.splitlines()]
    user = lines.index("USER jarvis")
    assert user < lines.index('CMD ["jarvis", "serve"]')
    assert not any(line.startswith("RUN") for line in lines[user:])  # nothing runs as root after
    assert "COPY pyproject.toml uv.lock" in text
    syncs = [line for line in lines if "uv sync" in line]
    assert syncs and all("--frozen" in line for line in syncs)
    assert 'CMD ["python", "/src/docker/healthcheck.py"]' in text and "HEALTHCHECK" in text
    env = image_env()
    assert env["JARVIS_HOME"] == "/home/jarvis/.jarvis" and env["JARVIS_WEB__HOST"] == "0.0.0.0"


def test_compose_names_the_seeds_service_the_volume_and_postgres() -> None:
    services = compose()["services"]
    backend = services["jarvis-backend"]
    assert backend["build"] == "."
    assert f"jarvis_data:{image_env()['JARVIS_HOME']}" in backend["volumes"]
    assert all(port.startswith("127.0.0.1:") for port in backend["ports"])
    assert backend["depends_on"]["postgres"]["condition"] == "service_healthy"
    assert backend["environment"]["JARVIS_STORAGE__BACKEND"] == "postgres"
    assert "postgres" in services and "jarvis_data" in compose()["volumes"]


async def test_the_entry_command_outside_a_container(tmp_path: Path) -> None:
    """`jarvis serve` with the image's environment (paths mapped into tmp_path) and compose's
    PostgreSQL backend (the test database): the logs' address, the health check, the data."""
    async for dsn in postgres_dsn():
        await asyncio.to_thread(run_the_entry_command, tmp_path, dsn)


def run_the_entry_command(tmp_path: Path, dsn: str) -> None:
    port = free_port()
    env = {k: v for k, v in os.environ.items() if not k.startswith("JARVIS_")}
    env.update(image_env())
    env.update(
        PATH=f"{BIN}:{env.get('PATH', '')}",
        JARVIS_HOME=str(tmp_path / "jarvis_data"),
        JARVIS_WORKSPACE=str(tmp_path / "workspace"),
        JARVIS_WEB__PORT=str(port),
        JARVIS_STORAGE__BACKEND="postgres",
        JARVIS_STORAGE__POSTGRES_DSN=dsn,
        JARVIS_SCHEDULER__ENABLED="false",
    )
    (tmp_path / "workspace").mkdir()
    health = [sys.executable, str(ROOT / "docker" / "healthcheck.py")]
    process = subprocess.Popen(
        ["jarvis", "serve", "--demo"],
        env=env,
        cwd=tmp_path / "workspace",
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        text=True,
    )
    try:
        assert process.stdout is not None
        url = ""
        for line in process.stdout:  # pytest's timeout guards a server that never prints it
            if "token=" in line:
                url = line.strip()
                break
        # What `docker compose logs` shows: an address the host's browser can open.
        assert url.startswith(f"http://127.0.0.1:{port}/?token="), url
        assert subprocess.run(health, env=env, check=False).returncode == 0
        assert (tmp_path / "jarvis_data").is_dir()  # the data dir is the volume's path
    finally:
        process.terminate()
        process.wait(HANG_GUARD_SEC)
    assert subprocess.run(health, env=env, check=False).returncode == 1
