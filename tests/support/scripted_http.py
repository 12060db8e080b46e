"""A real local HTTP server that replays scripted responses byte for byte (SSE included)."""

from __future__ import annotations

import contextlib
import json
import select
import socket
import threading
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any


@dataclass
class Scripted:
    status: int = 200
    chunks: list[bytes] = field(default_factory=list)
    content_type: str = "text/event-stream"
    # Announce more bytes than are sent, then close: the client sees a stream break mid-way.
    break_after: bool = False
    # A slow stream: after `chunks`, keep it open until the client closes it (then `closed`
    # is logged); `tail` is sent only if the client never does (a hang guard, `hold_sec`).
    hold: bool = False
    tail: list[bytes] = field(default_factory=list)
    hold_sec: float = 30.0


@dataclass
class Received:
    path: str
    headers: dict[str, str]
    body: dict[str, Any]


class ScriptedServer:
    """`one_slot`: requests are served one at a time, like llama.cpp's server with one slot (a
    request waits until the one before it has ended). `responder`, when given, answers each
    request from what it asked instead of the queue. `log` records (what, request index) in
    order: `received`, `served` (it got the slot), `closed` (the client hung up a held stream),
    `done`."""

    def __init__(
        self,
        *,
        one_slot: bool = False,
        responder: Callable[[Received], Scripted] | None = None,
    ) -> None:
        self.queue: list[Scripted] = []
        self.received: list[Received] = []
        self.log: list[tuple[str, int]] = []
        self.changed = threading.Condition()
        self.responder = responder
        slot = threading.Lock() if one_slot else contextlib.nullcontext()
        server = self

        class Handler(BaseHTTPRequestHandler):
            protocol_version = "HTTP/1.1"

            def log_message(self, *args: Any) -> None:
                pass

            def do_POST(self) -> None:
                length = int(self.headers.get("Content-Length", "0"))
                raw = self.rfile.read(length) if length else b"{}"
                headers = {k.lower(): v for k, v in self.headers.items()}
                received = Received(self.path, headers, json.loads(raw))
                with server.changed:
                    server.received.append(received)
                    index = len(server.received) - 1
                server.note("received", index)
                with slot:
                    server.note("served", index)
                    self.answer(server.reply_to(received), index)
                server.note("done", index)

            def answer(self, reply: Scripted, index: int) -> None:
                if reply.hold:
                    self.hold(reply, index)
                    return
                body = b"".join(reply.chunks)
                self.send_response(reply.status)
                self.send_header("Content-Type", reply.content_type)
                self.send_header(
                    "Content-Length", str(len(body) + (1000 if reply.break_after else 0))
                )
                self.end_headers()
                for chunk in reply.chunks:
                    self.wfile.write(chunk)
                    self.wfile.flush()
                if reply.break_after:
                    self.close_connection = True

            def hold(self, reply: Scripted, index: int) -> None:
                """The chunks, then nothing until the client hangs up (no length: the body
                ends when the connection does)."""
                self.send_response(reply.status)
                self.send_header("Content-Type", reply.content_type)
                self.send_header("Connection", "close")
                self.end_headers()
                for chunk in reply.chunks:
                    self.wfile.write(chunk)
                self.wfile.flush()
                self.close_connection = True
                readable, _, _ = select.select([self.connection], [], [], reply.hold_sec)
                if readable and not self.connection.recv(1, socket.MSG_PEEK):
                    server.note("closed", index)
                    return
                for chunk in reply.tail:
                    self.wfile.write(chunk)
                self.wfile.flush()

        self.httpd = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.port = self.httpd.server_address[1]
        self.thread = threading.Thread(
            target=self.httpd.serve_forever, kwargs={"poll_interval": 0.05}, daemon=True
        )

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    def note(self, what: str, index: int) -> None:
        with self.changed:
            self.log.append((what, index))
            self.changed.notify_all()

    def wait_for(self, condition: Callable[[], bool], timeout: float = 60) -> bool:
        """Block until `condition()` holds after some log entry (False after `timeout`, a hang
        guard)."""
        with self.changed:
            return self.changed.wait_for(condition, timeout)

    def reply_to(self, received: Received) -> Scripted:
        if self.responder is not None:
            return self.responder(received)
        if self.queue:
            return self.queue.pop(0)
        return Scripted(
            status=500,
            chunks=[b'{"error": {"message": "script exhausted"}}'],
            content_type="application/json",
        )

    def add(self, *replies: Scripted) -> None:
        self.queue.extend(replies)

    def __enter__(self) -> ScriptedServer:
        self.thread.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self.httpd.shutdown()
        self.httpd.server_close()


def sse(*events: dict[str, Any] | str, named: bool = False) -> list[bytes]:
    """SSE frames, one chunk each; a str is sent raw (e.g. '[DONE]')."""
    frames = []
    for event in events:
        if isinstance(event, str):
            frames.append(f"data: {event}\n\n".encode())
        elif named:
            frames.append(f"event: {event['type']}\ndata: {json.dumps(event)}\n\n".encode())
        else:
            frames.append(f"data: {json.dumps(event)}\n\n".encode())
    return frames


def json_body(data: dict[str, Any]) -> list[bytes]:
    return [json.dumps(data).encode()]


def serve() -> Iterator[ScriptedServer]:
    with ScriptedServer() as server:
        yield server


class SilentServer:
    """Accepts connections and never answers: a timeout that does not depend on machine load."""

    def __init__(self) -> None:
        self.sock = socket.socket()
        self.sock.bind(("127.0.0.1", 0))
        self.sock.listen(16)
        self.port = self.sock.getsockname()[1]
        self.accepted: list[Any] = []
        self._stop = threading.Event()
        self.thread = threading.Thread(target=self._accept, daemon=True)

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    def _accept(self) -> None:
        self.sock.settimeout(0.05)
        while not self._stop.is_set():
            try:
                conn, _ = self.sock.accept()
            except OSError:
                continue
            self.accepted.append(conn)  # held open, never read or written

    def __enter__(self) -> SilentServer:
        self.thread.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self._stop.set()
        self.thread.join(5)
        for conn in self.accepted:
            conn.close()
        self.sock.close()
