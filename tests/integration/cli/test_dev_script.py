"""`python3 dev.py start` as a person runs it: Ctrl-C in its terminal, SIGTERM from a supervisor.

dev.py replaces itself with `jarvis serve` (os.execv), so the signal reaches the server itself:
before, Ctrl-C killed the wrapper with a KeyboardInterrupt traceback and SIGTERM left the server
running with nobody to stop it.
"""

from __future__ import annotations

import asyncio
import os
import re
import signal
import socket
import subprocess
import sys
from pathlib import Path

import pexpect

from tests.support.hang import HANG_GUARD_SEC
from tests.support.ports import free_port
from tests.support.processes import healthy, lines_until, printing

ROOT = Path(__file__).resolve().parents[3]
DEV = ROOT / "dev.py"
HANGUL = re.compile(r"[\uac00-\ud7a3]")


def environment(home: Path) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if not k.startswith("JARVIS_")}
    env.update(JARVIS_HOME=str(home), JARVIS_WORKSPACE=str(home))
    return env


def listening(port: int) -> bool:
    with socket.socket() as sock:
        return sock.connect_ex(("127.0.0.1", port)) == 0


def test_ctrl_c_stops_the_server_without_a_traceback(tmp_path: Path) -> None:
    port = free_port()
    child = pexpect.spawn(
        sys.executable,
        [str(DEV), "start", "--demo", "--port", str(port)],
        env=environment(tmp_path),
        encoding="utf-8",
        timeout=HANG_GUARD_SEC,
    )
    child.expect(f"http://127.0.0.1:{port}/")
    asyncio.run(healthy(f"127.0.0.1:{port}"))  # serving, signal handlers set
    pid = child.pid
    child.sendintr()  # Ctrl-C: SIGINT to the terminal's foreground process group
    child.expect(pexpect.EOF)
    output = str(child.before)
    child.close()
    assert "Traceback" not in output and "KeyboardInterrupt" not in output, output
    # 130: ended by SIGINT, as a shell reports Ctrl-C; no signal left it half-stopped.
    assert child.exitstatus in (0, 130), (child.exitstatus, child.signalstatus, output)
    assert child.pid == pid and not listening(port)


def test_sigterm_to_the_dev_script_stops_the_server(tmp_path: Path) -> None:
    port = free_port()
    process = subprocess.Popen(
        [sys.executable, str(DEV), "start", "--demo", "--port", str(port)],
        env=environment(tmp_path),
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
        text=True,
    )
    try:
        asyncio.run(healthy(f"127.0.0.1:{port}", process=process))
        process.send_signal(signal.SIGTERM)  # what systemd, Docker or a CI runner sends
        _, errors = process.communicate(timeout=HANG_GUARD_SEC)
        assert not listening(port), "the server outlived dev.py"
        assert "Traceback" not in errors, errors
    finally:
        if process.poll() is None:
            process.kill()


def test_tools_work_in_the_folder_dev_py_was_started_from(tmp_path: Path) -> None:
    """dev.py changes into the repository; `bash` and file writes still land where the person
    was (before, `!pwd` printed the Jarvis checkout and writes went into its source tree)."""
    home, elsewhere = tmp_path / "home", tmp_path / "project"
    home.mkdir()
    elsewhere.mkdir()
    env = {k: v for k, v in os.environ.items() if not k.startswith("JARVIS_")}
    env.update(JARVIS_HOME=str(home), JARVIS_LANGUAGE="en")
    done = subprocess.run(
        [sys.executable, str(DEV), "jarvis", "chat", "--demo"],
        input="!pwd\na\n!touch made-by-bash\na\n/exit\n",
        capture_output=True,
        text=True,
        env=env,
        cwd=elsewhere,
        timeout=HANG_GUARD_SEC,  # a hang guard
    )
    assert done.returncode == 0, done.stderr
    assert str(elsewhere) in done.stdout, done.stdout
    assert (elsewhere / "made-by-bash").exists()
    assert not (ROOT / "made-by-bash").exists()


def test_an_explicit_workspace_wins_over_the_current_folder(tmp_path: Path) -> None:
    chosen, elsewhere = tmp_path / "chosen", tmp_path / "elsewhere"
    chosen.mkdir()
    elsewhere.mkdir()
    env = environment(tmp_path)
    env.update(JARVIS_WORKSPACE=str(chosen), JARVIS_LANGUAGE="en")
    done = subprocess.run(
        [sys.executable, str(DEV), "jarvis", "chat", "--demo"],
        input="!touch chosen-file\na\n/exit\n",
        capture_output=True,
        text=True,
        env=env,
        cwd=elsewhere,
        timeout=HANG_GUARD_SEC,
    )
    assert done.returncode == 0, done.stderr
    assert (chosen / "chosen-file").exists() and not (elsewhere / "chosen-file").exists()


def test_dev_py_start_speaks_the_terminals_language(tmp_path: Path) -> None:
    """`LANG=en_US.UTF-8 python3 dev.py start`: English lines (before, Korean for everyone)."""
    port = free_port()
    env = environment(tmp_path)
    env.update(LANG="en_US.UTF-8")
    process = printing([sys.executable, str(DEV), "start", "--demo", "--port", str(port)], env)
    try:
        text = lines_until(process, "token=")
        assert "open this address in your browser" in text, text
        assert not HANGUL.search(text), text
    finally:
        process.terminate()
        process.wait(HANG_GUARD_SEC)
