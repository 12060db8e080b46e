"""`PidsGroup.close_fd` closes its own descriptor once, never a number reused since; `remove`
leaves no group behind, even with a process of the call still inside."""

from __future__ import annotations

import os
import signal
import subprocess
from pathlib import Path

import pytest

from jarvis.core.confine.pids import PidsGroup
from tests.support.hang import HANG_GUARD_SEC


def test_closing_twice_leaves_a_reused_descriptor_open(tmp_path: Path) -> None:
    read_end, write_end = os.pipe()
    os.close(read_end)
    group = PidsGroup(tmp_path / "group", write_end)
    group.close_fd()
    other_read, other_write = os.pipe()  # the lowest free numbers: `write_end` comes back
    try:
        group.remove()  # closes again after the call: must not touch the new pipe
        os.write(other_write, b"x")
        assert os.read(other_read, 1) == b"x"
    finally:
        os.close(other_read)
        os.close(other_write)


def test_removing_kills_what_is_still_inside_and_the_group_goes() -> None:
    group = PidsGroup.create(64)
    if group is None:  # pids cgroups need root (CI runs as root)
        assert os.environ.get("CI") != "true", "CI runs as root: a pids cgroup must be made"
        pytest.skip("pids cgroups need root")
    joined = f"echo 0 >&{group.join_fd}; exec sleep 3600"
    popen = subprocess.Popen(["bash", "-c", joined], pass_fds=(group.join_fd,))
    try:
        while str(popen.pid) not in (group.path / "cgroup.procs").read_text().split():
            assert popen.poll() is None
        group.remove()  # a process of the call outlived its kill: still inside
        assert not group.path.exists()
        assert popen.wait(HANG_GUARD_SEC) == -signal.SIGKILL
    finally:
        popen.kill()
        popen.wait()
