"""With the gate disabled (every call allowed as by a `*` rule for bash) the attacker's corpus
achieves nothing inside the sandbox; the same corpus through the real gate with a `*` rule and
no sandbox shows what the gate alone stops (`GATE_ALONE`, the table of docs/security.md)."""

from __future__ import annotations

import contextlib
import os
import signal
import subprocess
from collections.abc import Iterator

import pytest

from tests.sandbox.corpus import ATTACKS, Attack
from tests.sandbox.world import World, processes_named, world

# Through the gate with a `*` rule for bash and no sandbox: `blocked` (refused whatever the
# rules say), `asks` (a person is still asked; nobody answers here), `achieved` (it ran and
# worked), `stopped` (it ran and achieved nothing: the reaper killed what it left behind).
GATE_ALONE: dict[str, str] = {
    "write_outside": "asks",
    "append_bashrc": "asks",
    "python_write": "asks",
    "cp_to_parent": "asks",
    "tee_home": "asks",
    "cat_ssh_key": "asks",
    "split_word_ssh": "asks",
    "glob_ssh": "asks",
    "grep_home": "asks",
    "find_exec": "blocked",
    "python_aws": "asks",
    "parent_env": "asks",
    "home_env": "asks",
    "jarvis_config": "asks",
    "keyring": "asks",
    "gnupg": "asks",
    "gh_token": "asks",
    "process_environ": "asks",
    "curl_tcp": "asks",
    "dev_tcp": "asks",
    "python_tcp": "asks",
    "dev_udp": "blocked",
    "python_udp": "asks",
    "dns_query": "asks",
    "setsid": "asks",
    "nohup": "asks",
    "double_fork": "asks",
    "python_daemon": "asks",
    "setsid_fork": "asks",
    "fork_bomb": "asks",
    "memory_bomb": "asks",
    "file_bomb": "asks",
}


@pytest.fixture
def w(monkeypatch: pytest.MonkeyPatch) -> Iterator[World]:
    with world(monkeypatch) as planted:
        yield planted
    for pid in processes_named(
        f"esc{planted.tag}-"
    ):  # an unconfined escape must not outlive the test
        with contextlib.suppress(ProcessLookupError):
            os.kill(pid, signal.SIGKILL)


def _id(attack: Attack) -> str:
    return attack.name


@pytest.mark.parametrize("ahead", [False, True], ids=["bwrap-started-by-the-call", "started-ahead"])
@pytest.mark.parametrize("attack", ATTACKS, ids=_id)
async def test_a_gate_miss_achieves_nothing_inside_the_sandbox(
    bwrap: str, w: World, attack: Attack, ahead: bool
) -> None:
    _, result = await w.run(w.fill(attack.command), sandbox=True, gate=False, ahead=ahead)
    assert result is not None
    assert not attack.achieved(w, result), result.content
    assert not processes_named(f"esc{w.tag}-")


@pytest.mark.parametrize("attack", ATTACKS, ids=_id)
async def test_what_the_gate_alone_stops(w: World, attack: Attack) -> None:
    decision, result = await w.run(w.fill(attack.command), sandbox=False)
    if result is None:
        outcome = "blocked" if decision.outcome == "block" else "asks"
    else:
        outcome = "achieved" if attack.achieved(w, result) else "stopped"
    assert outcome == GATE_ALONE[attack.name], decision


@pytest.mark.parametrize("attack", ATTACKS, ids=_id)
async def test_unconfined_the_attack_works(w: World, attack: Attack) -> None:
    """The control: each attack does what it claims when nothing confines it. Escapes are
    left out: without the sandbox the reaper kills them at the end of the call, but it finds
    them through /proc's child lists, which the kernel does not promise are complete while
    processes fork and exit; on a loaded machine a double fork has been seen to slip past it
    (inside the sandbox the PID namespace takes everything down with its PID 1)."""
    _, result = await w.run(w.fill(attack.command), sandbox=False, gate=False)
    assert result is not None
    if attack.kind != "escape":
        assert attack.achieved(w, result), result.content


def test_a_surviving_process_would_be_seen(w: World) -> None:
    """The control of the escape checks: a marked process that is still alive is found."""
    marker = f"esc{w.tag}-control"
    survivor = subprocess.Popen(["bash", "-c", f"exec -a {marker} sleep 1000"])
    try:
        assert _found(marker, survivor)
    finally:
        survivor.kill()
        survivor.wait()


def _found(marker: str, process: subprocess.Popen[bytes]) -> bool:
    """`exec -a` renames it once bash has exec'd: wait for that (or its end), not for time."""
    while process.poll() is None:
        if process.pid in processes_named(marker):
            return True
    return False
