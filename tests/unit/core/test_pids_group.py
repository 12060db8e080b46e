"""`PidsGroup.close_fd` closes its own descriptor once, never a number reused since."""

from __future__ import annotations

import os
from pathlib import Path

from jarvis.core.confine.pids import PidsGroup


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
