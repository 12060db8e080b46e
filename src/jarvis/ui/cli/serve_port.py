"""The port `jarvis serve` binds: refused early when taken, announced once it accepts.

Printing the address before uvicorn listens sent people to a "connection refused" page for the
seconds the app takes to build, and a second `jarvis serve` printed a fresh token for a port
another process held (the printed address never worked).
"""

from __future__ import annotations

import errno
import socket
import threading
import time
from collections.abc import Callable


def port_taken(host: str, port: int) -> bool:
    """Whether binding `host:port` fails because something already listens there."""
    family = socket.AF_INET6 if ":" in host else socket.AF_INET
    with socket.socket(family, socket.SOCK_STREAM) as probe:
        probe.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)  # as uvicorn binds
        try:
            probe.bind((host, port))
        except OSError as exc:
            return exc.errno == errno.EADDRINUSE
    return False


def when_listening(host: str, port: int, announce: Callable[[], None]) -> threading.Thread:
    """Call `announce` from a daemon thread once `host:port` accepts connections."""
    target = {"0.0.0.0": "127.0.0.1", "::": "::1", "": "127.0.0.1"}.get(host, host)

    def wait() -> None:
        while True:
            try:
                with socket.create_connection((target, port), timeout=1.0):
                    break
            except OSError:
                time.sleep(0.05)  # the server is still building the app
        announce()

    thread = threading.Thread(target=wait, name="jarvis-announce", daemon=True)
    thread.start()
    return thread
