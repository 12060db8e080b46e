"""A real local HTTP server that replays scripted responses byte for byte (SSE included)."""

from __future__ import annotations

import json
import threading
from collections.abc import Iterator
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


@dataclass
class Received:
    path: str
    headers: dict[str, str]
    body: dict[str, Any]


class ScriptedServer:
    def __init__(self) -> None:
        self.queue: list[Scripted] = []
        self.received: list[Received] = []
        server = self

        class Handler(BaseHTTPRequestHandler):
            protocol_version = "HTTP/1.1"

            def log_message(self, *args: Any) -> None:
                pass

            def do_POST(self) -> None:
                length = int(self.headers.get("Content-Length", "0"))
                raw = self.rfile.read(length) if length else b"{}"
                headers = {k.lower(): v for k, v in self.headers.items()}
                server.received.append(Received(self.path, headers, json.loads(raw)))
                reply = (
                    server.queue.pop(0)
                    if server.queue
                    else Scripted(
                        status=500,
                        chunks=[b'{"error": {"message": "script exhausted"}}'],
                        content_type="application/json",
                    )
                )
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

        self.httpd = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.port = self.httpd.server_address[1]
        self.thread = threading.Thread(
            target=self.httpd.serve_forever, kwargs={"poll_interval": 0.05}, daemon=True
        )

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}"

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
        import socket

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
