"""`jarvis chat`: a terminal REPL on the same session machinery as the Web HUD.

One stdin reader thread feeds a queue. While idle, a line is a prompt or a slash command; while a
turn runs, a line is `/stop` or the answer to a pending approval. Ctrl-C aborts the running turn.
"""

from __future__ import annotations

import asyncio
import contextlib
import signal
import sys
import threading
from collections.abc import Callable
from datetime import datetime

from jarvis.app.session_builder import SessionBuilder
from jarvis.core.session import AgentSession
from jarvis.core.slash.openloop import openloop_command
from jarvis.ui.cli.approval import TerminalApprovalChannel
from jarvis.ui.cli.render import TerminalRenderer

_EOF = object()


class LineReader:
    """Reads stdin on a daemon thread so a blocked read never keeps the program alive."""

    def __init__(self) -> None:
        self.queue: asyncio.Queue[object] = asyncio.Queue()
        self._loop = asyncio.get_running_loop()
        threading.Thread(target=self._pump, daemon=True, name="stdin-reader").start()

    def _pump(self) -> None:
        for line in sys.stdin:
            self._loop.call_soon_threadsafe(self.queue.put_nowait, line.rstrip("\n"))
        self._loop.call_soon_threadsafe(self.queue.put_nowait, _EOF)

    async def next(self) -> str | None:
        item = await self.queue.get()
        return None if item is _EOF else str(item)


class ChatRepl:
    def __init__(self, builder: SessionBuilder, session: AgentSession) -> None:
        self.builder = builder
        self.session = session
        self.render = TerminalRenderer()
        self.reader: LineReader | None = None
        self._unsubscribe: Callable[[], None] = session.subscribe(self.render)
        # Set by the terminal approval channel while it waits for an answer.
        self.answer_sink: Callable[[str], bool] | None = None
        # Lines typed ahead while a turn ran; they are handled after it, in order.
        self._backlog: list[str | None] = []
        self.channel = TerminalApprovalChannel(self, builder.app.pending)
        self._attach()

    def switch(self, session: AgentSession) -> None:
        self._unsubscribe()
        self._detach()
        self.session = session
        self._unsubscribe = session.subscribe(self.render)
        self._attach()
        self.render.line(f"세션 {session.id}")

    def _attach(self) -> None:
        self.builder.app.channels.attach(self.session.id, self.channel)

    def _detach(self) -> None:
        self.builder.app.channels.detach(self.session.id, self.channel)

    async def run(self) -> None:
        self.reader = LineReader()
        loop = asyncio.get_running_loop()
        with contextlib.suppress(NotImplementedError, RuntimeError):
            loop.add_signal_handler(signal.SIGINT, self._on_interrupt)
        self.render.line(f"JARVIS · 세션 {self.session.id} · /help 로 명령 보기, Ctrl-D 로 끝내기")
        while True:
            self.render.write("› ")
            line = self._backlog.pop(0) if self._backlog else await self.reader.next()
            if line is None:
                self.render.line("")
                return
            if not line.strip():
                continue
            if line.startswith("/"):
                if not await self._command(line.strip()):
                    return
                continue
            await self._turn(line)

    def set_answer_sink(self, sink: Callable[[str], bool]) -> None:
        """Wait for an approval answer; a line typed ahead may already be it."""
        self.answer_sink = sink
        for index, line in enumerate(self._backlog):
            if line is not None and sink(line):
                del self._backlog[index]
                return

    def _on_interrupt(self) -> None:
        if self.session.abort():
            self.render.line("(중단 요청)")
        else:
            self.render.line("(끝내려면 Ctrl-D 또는 /exit)")
            self.render.write("› ")

    async def _turn(self, text: str) -> None:
        assert self.reader is not None
        task = asyncio.create_task(self.session.prompt(text))
        while not task.done():
            getter = asyncio.ensure_future(self.reader.next())
            await asyncio.wait({task, getter}, return_when=asyncio.FIRST_COMPLETED)
            if not getter.done():
                getter.cancel()
                # The line (if one arrives later) stays in the queue for the next prompt.
                continue
            line = getter.result()
            if line is not None and line.strip() == "/stop":
                self.session.abort()
            elif line is not None and self.answer_sink is not None and self.answer_sink(line):
                continue
            else:
                self._backlog.append(line)
        await task

    async def _command(self, line: str) -> bool:
        name, _, arg = line.partition(" ")
        if name in ("/exit", "/quit"):
            return False
        if name == "/new":
            self.switch(await self.builder.create(user_id=self.session.info.user_id))
        elif name == "/sessions":
            await self._list_sessions()
        elif name == "/resume":
            await self._resume(arg.strip())
        elif name == "/stop":
            self.render.line("실행 중인 턴이 없습니다.")
        elif name == "/openloop":
            app = self.builder.app
            info = self.session.info
            self.render.line(
                await openloop_command(
                    app.openloops, info.agent_id, info.user_id, arg.strip(), app.settings.language
                )
            )
        elif name == "/help":
            self.render.line(_HELP)
            for skill in self.builder.app.skills.list():
                self.render.line(f"  /{skill.name:<14} {skill.description}")
        elif self.builder.app.skills.get(name[1:]) is not None or self._is_mcp_prompt(name):
            await self._turn(line)  # a skill or `/server:prompt`: the session expands it
        else:
            self.render.line(f"알 수 없는 명령: {name} (/help)")
        return True

    def _is_mcp_prompt(self, name: str) -> bool:
        server, colon, _prompt = name[1:].partition(":")
        return bool(colon) and self.builder.app.mcp.connection(server) is not None

    async def _list_sessions(self) -> None:
        sessions = await self.builder.list()
        if not sessions:
            self.render.line("저장된 세션이 없습니다.")
        for info in sessions[:20]:
            when = datetime.fromtimestamp(info.updated_ms / 1000).strftime("%Y-%m-%d %H:%M")
            mark = "*" if info.id == self.session.id else " "
            self.render.line(f"{mark} {info.id}  {when}  {info.turns:>3}턴  {info.title}")

    async def _resume(self, session_id: str) -> None:
        if not session_id:
            self.render.line("사용법: /resume <세션 id>")
            return
        session = await self.builder.open(session_id)
        if session is None:
            self.render.line(f"세션을 찾을 수 없습니다: {session_id}")
            return
        self.switch(session)


_HELP = """명령:
  /new            새 세션
  /sessions       세션 목록
  /resume ID      세션 이어가기
  /stop           실행 중인 턴 중단 (Ctrl-C 도 같음)
  /openloop       챙길 약속 보기 (/openloop done|dismiss <id>)
  /exit           끝내기 (Ctrl-D)"""
