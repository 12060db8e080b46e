"""`jarvis chat`: a terminal REPL on the same session machinery as the Web HUD.

One reader feeds a queue: prompt_toolkit on a terminal (line editing, history, Tab completion:
ui/cli/prompt.py), a plain stdin thread when piped. While idle, a line is a prompt or a slash
command; while a turn runs, a line is `/stop` or the answer to a pending approval. Ctrl-C aborts
the running turn.
"""

from __future__ import annotations

import asyncio
import contextlib
import signal
import sys
import threading
from collections.abc import Awaitable, Callable, Coroutine
from typing import Any

from pydantic import BaseModel

from jarvis.app.agent_registry import AgentRegistry
from jarvis.app.commands import build_commands
from jarvis.common.i18n import Language, t
from jarvis.core.session import AgentSession
from jarvis.ui.cli.approval import TerminalApprovalChannel
from jarvis.ui.cli.commands import completions, run_during_turn, run_line
from jarvis.ui.cli.elicitation import TerminalElicitation
from jarvis.ui.cli.mcp_status import StatusNotices
from jarvis.ui.cli.prompt import HISTORY_NAME, PROMPT, PromptReader, SlashCompleter
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

    async def aclose(self) -> None:
        """Nothing to stop: the daemon thread ends with the program."""


class ChatRepl:
    def __init__(self, agents: AgentRegistry, session: AgentSession) -> None:
        self.agents = agents
        self.builder = agents.get(session.info.agent_id) or agents.main
        self.session = session
        self.commands = build_commands(agents)
        self.render = TerminalRenderer(lang=agents.app.settings.language)
        self.reader: LineReader | PromptReader | None = None
        self.elicitation = TerminalElicitation(self)
        self._unsubscribe: Callable[[], None] = session.subscribe(self._on_event)
        # Set by the terminal approval channel while it waits for an answer.
        self.answer_sink: Callable[[str], bool] | None = None
        # Lines typed ahead while a turn ran; they are handled after it, in order.
        self._backlog: list[str | None] = []
        self.channel = TerminalApprovalChannel(self, agents.app.pending)
        self._attach()

    def switch(self, session: AgentSession) -> None:
        self._unsubscribe()
        self._detach()
        self.session = session
        self._unsubscribe = session.subscribe(self._on_event)
        self._attach()
        self.render.line(t("terminal.session", self.lang, session=session.id))

    def _on_event(self, event: BaseModel) -> None:
        self.render(event)
        self.elicitation(event)

    @property
    def lang(self) -> Language:
        return self.builder.app.settings.language

    def _attach(self) -> None:
        self.builder.app.channels.attach(self.session.id, self.channel)

    def _detach(self) -> None:
        self.builder.app.channels.detach(self.session.id, self.channel)

    async def run(self) -> None:
        self.reader = self._open_reader()
        loop = asyncio.get_running_loop()
        with contextlib.suppress(NotImplementedError, RuntimeError):
            loop.add_signal_handler(signal.SIGINT, self._on_interrupt)
        name = self.session.setup.agent_name
        self.render.line(t("terminal.banner", self.lang, agent=name, session=self.session.id))
        # MCP servers connect in the background: say when each is ready (or why it is not).
        notices = StatusNotices(lambda line: self.render.line(self.render.shown(line)), self.lang)
        unwatch = notices.follow(self.builder.app.mcp)
        try:
            await self._loop()
        finally:
            unwatch()
            await self.reader.aclose()

    def _open_reader(self) -> LineReader | PromptReader:
        """Line editing when a person types at a terminal; pipes and scripts read plain lines."""
        if not (sys.stdin.isatty() and sys.stdout.isatty()):
            return LineReader()
        history = self.builder.app.settings.home / "logs" / HISTORY_NAME
        completer = SlashCompleter(completions(self.commands, self))
        reader = PromptReader(history, completer, self._on_interrupt)
        self.render.above_prompt(reader.stdout, reader.ask, reader.status)
        return reader

    async def _loop(self) -> None:
        assert self.reader is not None
        while True:
            self.render.ask(PROMPT)
            line = self._backlog.pop(0) if self._backlog else await self.reader.next()
            if line is None:
                self.render.line("")
                return
            if not line.strip():
                continue
            if line.startswith("/"):
                if not await run_line(self.commands, self, line.strip()):
                    return
                continue
            await self._turn(line)

    def set_answer_sink(
        self, sink: Callable[[str], bool], typed_ahead: Callable[[str], bool]
    ) -> None:
        """Wait for an approval answer. A line typed ahead answers only when it is a key: it
        was written before the question, so its words were not meant for it."""
        self.answer_sink = sink
        for index, line in enumerate(self._backlog):
            if line is not None and typed_ahead(line):
                del self._backlog[index]
                return

    def _on_interrupt(self) -> None:
        if self.session.abort():
            self.render.line(t("terminal.abort_requested", self.lang))
        else:
            self.render.line(t("terminal.quit_hint", self.lang))
            self.render.ask(PROMPT)

    async def _turn(self, text: str) -> None:
        await self._run(self.session.prompt(text))

    async def _run(self, work: Coroutine[Any, Any, Any]) -> None:
        """A turn (or `/orchestrate`): lines typed meanwhile are `/stop`, approval answers, or
        kept for later."""
        assert self.reader is not None
        task = asyncio.create_task(work)
        while not task.done():
            getter = asyncio.ensure_future(self.reader.next())
            await asyncio.wait({task, getter}, return_when=asyncio.FIRST_COMPLETED)
            if not getter.done():
                getter.cancel()
                # The line (if one arrives later) stays in the queue for the next prompt.
                continue
            line = getter.result()
            if line is not None and await run_during_turn(self.commands, self, line):
                continue
            if line is not None and self.answer_sink is not None and self.answer_sink(line):
                continue
            else:
                self._backlog.append(line)
        await task

    # -- how the chat draws a command's outcome (core/commands/outcomes.py)

    async def reply(self, text: str) -> None:
        self.render.line(text)

    async def run_prompt(self, text: str) -> None:
        await self._turn(text)

    async def run_work(self, work: Callable[[], Awaitable[str]]) -> None:
        async def shown() -> None:
            self.render.line(await work())

        await self._run(shown())

    async def new_session(self, agent_id: str) -> None:
        builder = self.agents.get(agent_id) or self.builder
        self.builder = builder
        self.switch(await builder.create(user_id=self.session.info.user_id))

    async def open_session(self, session: AgentSession) -> None:
        self.builder = self.agents.get(session.info.agent_id) or self.agents.main
        self.switch(session)
