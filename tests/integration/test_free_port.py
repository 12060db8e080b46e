"""`free_port()`: never a port another process (xdist worker, suite, outgoing connection) gets."""

from __future__ import annotations

import socket
import subprocess
import sys

from tests.support import ports
from tests.support.ports import BLOCK, ephemeral_range, free_port

# A process that takes a block's worth of ports, prints them, and holds its block until told.
TAKER = """
from tests.support.ports import BLOCK, free_port
print(" ".join(str(free_port()) for _ in range(BLOCK)), flush=True)
input()
"""


def test_ports_lie_below_the_ephemeral_range_in_one_block_in_turn() -> None:
    low, _ = ephemeral_range()
    taken = [free_port() for _ in range(BLOCK + 3)]
    assert all(ports.FLOOR <= port < low for port in taken)
    block = ports._block
    assert block is not None
    assert all(block.start <= port < block.start + BLOCK for port in taken)
    # In turn: a port comes back only after the block's other free ports have been handed out.
    assert len(set(taken[:64])) == 64


def test_processes_alive_together_get_disjoint_ports() -> None:
    mine = {free_port() for _ in range(BLOCK)}
    takers = [
        subprocess.Popen(
            [sys.executable, "-c", TAKER],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            text=True,
        )
        for _ in range(3)
    ]
    try:
        theirs = [{int(p) for p in t.stdout.readline().split()} for t in takers if t.stdout]
    finally:
        for taker in takers:
            taker.communicate("\n")
    assert all(theirs)
    every = [mine, *theirs]
    assert sum(len(s) for s in every) == len(set().union(*every))


def test_a_port_something_listens_on_is_skipped() -> None:
    first = free_port()
    block = ports._block
    assert block is not None
    following = block.start + (first - block.start + 1) % BLOCK
    with socket.create_server(("127.0.0.1", following)):
        assert free_port() != following
