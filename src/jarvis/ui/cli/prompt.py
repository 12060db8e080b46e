"""Line editing for `jarvis chat` on a terminal (prompt_toolkit): ←/→ edit the line, ↑/↓ recall
earlier lines (kept across chats in a private file), Tab completes slash commands.

The input line stays at the bottom the whole time, a turn included (approval and form answers are
typed there). Everything the chat prints goes above it through `AboveThePrompt`: text and prompt
changes pass through one queue, so a question never shows before what was printed ahead of it.
"""

from __future__ import annotations

import asyncio
import contextlib
import os
import sys
import threading
from collections.abc import AsyncGenerator, Awaitable, Callable, Iterable
from functools import partial
from pathlib import Path
from typing import TextIO, cast

from prompt_toolkit import PromptSession
from prompt_toolkit.application import run_in_terminal
from prompt_toolkit.completion import CompleteEvent, Completer, Completion
from prompt_toolkit.document import Document
from prompt_toolkit.formatted_text import ANSI
from prompt_toolkit.history import FileHistory, History, InMemoryHistory
from prompt_toolkit.output.vt100 import Vt100_Output
from prompt_toolkit.styles import Style

HISTORY_NAME = "chat_history"
# The chat's own prompt; any other one is a question (an approval, a form) whose answer is not
# worth recalling with ↑ (and may be private).
PROMPT = "› "


class AboveThePrompt:
    """A stdout for the chat: what is written appears above the input line, in order."""

    def __init__(self, real: TextIO) -> None:
        self.real = real
        self._loop = asyncio.get_running_loop()
        self._buffer: list[str] = []
        self._lock = threading.Lock()  # log notices may be written from other threads
        self._actions: list[Callable[[], None]] = []
        self._draining = False
        self.closed = False

    def write(self, text: str) -> int:
        with self._lock:
            self._buffer.append(text)
        if "\n" in text:  # a stray print() shows line by line; the renderer flushes itself
            self.flush()
        return len(text)

    def flush(self) -> None:
        with self._lock:
            text = "".join(self._buffer)
            self._buffer.clear()
        if text:
            self.in_order(partial(self._show, text))

    def in_order(self, action: Callable[[], None]) -> None:
        """Run `action` with the input line erased, after everything queued before it."""
        if self.closed or self._loop.is_closed():
            action()
            return
        with self._lock:
            self._actions.append(action)
            if self._draining:
                return  # the drain already scheduled takes this one too
            self._draining = True
        self._loop.call_soon_threadsafe(partial(run_in_terminal, self._drain, in_executor=False))

    def _drain(self) -> None:
        """Everything queued since the last drain, with one erase and redraw of the input line
        (a streamed answer refreshes often; each redraw briefly returns the terminal to cooked
        mode, where a key typed meanwhile would be echoed)."""
        with self._lock:
            actions, self._actions = self._actions, []
            self._draining = False
        for action in actions:
            action()

    def _show(self, text: str) -> None:
        self.real.write(text)
        self.real.flush()

    def isatty(self) -> bool:
        return self.real.isatty()

    def fileno(self) -> int:
        return self.real.fileno()

    @property
    def encoding(self) -> str:
        return self.real.encoding


class SlashCompleter(Completer):
    """Completes what is typed after `/`: the command table's commands with their help (MCP
    prompts included, asked when Tab is pressed), then a command's argument values."""

    def __init__(self, complete: Callable[[str], Awaitable[list[tuple[str, str]]]]) -> None:
        self._complete = complete

    def get_completions(self, document: Document, event: CompleteEvent) -> Iterable[Completion]:
        return []  # prompt_toolkit asks the async form; the table's sources are async

    async def get_completions_async(
        self, document: Document, event: CompleteEvent
    ) -> AsyncGenerator[Completion, None]:
        typed = document.text_before_cursor
        if not typed.startswith("/") or "\n" in typed:
            return
        for text, meta in await self._complete(typed):
            shown = text.rpartition(" ")[2] if " " in typed else text
            yield Completion(text, -len(typed), display=shown, display_meta=meta)


class ChatHistory(History):
    """The person's earlier lines, without the answers to questions (`keep` says whether the
    line just typed is one of theirs)."""

    def __init__(self, lines: History, keep: Callable[[], bool]) -> None:
        super().__init__()
        self._lines = lines
        self._keep = keep

    def load_history_strings(self) -> Iterable[str]:
        return self._lines.load_history_strings()

    def append_string(self, string: str) -> None:
        if self._keep():
            super().append_string(string)

    def store_string(self, string: str) -> None:
        self._lines.store_string(string)


def chat_history(path: Path, keep: Callable[[], bool]) -> ChatHistory:
    """Kept in a file readable by the person alone (0600): prompts may be private."""
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        os.close(os.open(path, os.O_WRONLY | os.O_CREAT | os.O_APPEND, 0o600))
        path.chmod(0o600)  # a file made earlier with a looser mode
        lines: History = FileHistory(str(path))
    except OSError:  # no writable data dir: ↑ still recalls this chat's lines
        lines = InMemoryHistory()
    return ChatHistory(lines, keep)


class PromptReader:
    """Reads lines with prompt_toolkit inside the running loop; same `next()` as `LineReader`."""

    def __init__(
        self, history: Path, completer: Completer, on_interrupt: Callable[[], None]
    ) -> None:
        self.queue: asyncio.Queue[str | None] = asyncio.Queue()
        self.out = AboveThePrompt(sys.stdout)
        # The chat's stdout from now on: a stray print() goes above the input line too.
        self.stdout = sys.stdout = cast(TextIO, self.out)
        # A terminal that never answers a cursor-position request (a pexpect pty, some serial
        # consoles) would make prompt_toolkit wait and print a warning: ask none.
        output = Vt100_Output.from_pty(self.out.real)
        output.enable_cpr = False
        self._session: PromptSession[str] = PromptSession(
            history=chat_history(history, lambda: self._message in ("", PROMPT)),
            completer=completer,
            complete_while_typing=False,
            output=output,
            # The default colour, said explicitly: prompt_toolkit then writes the prompt's last
            # space as text instead of moving the cursor past it, so the screen (a copy, a log)
            # reads `› ` as it did before line editing.
            style=Style.from_dict({"prompt": "fg:ansidefault"}),
        )
        self._message = ""
        # A status shown in place of the prompt while the model has not answered (waiting.py).
        self._status: Callable[[], str] | None = None
        self._ticker: asyncio.Task[None] | None = None
        self._on_interrupt = on_interrupt
        self._task = asyncio.create_task(self._pump())

    async def _pump(self) -> None:
        while True:
            try:
                line = await self._session.prompt_async(self._prompt_text, handle_sigint=False)
            except KeyboardInterrupt:  # Ctrl-C is a key in raw mode, not a SIGINT
                self._on_interrupt()
                continue
            except EOFError:  # Ctrl-D on an empty line
                self.queue.put_nowait(None)
                return
            self._message = ""  # the question is answered; the chat asks the next one
            self.queue.put_nowait(line)

    def ask(self, question: str) -> None:
        """Show `question` as the input line's prompt, once what was printed before it shows."""
        self.out.in_order(partial(setattr, self, "_message", question))

    def _prompt_text(self) -> ANSI:
        return ANSI(self._status() if self._status is not None else self._message)

    def status(self, text: Callable[[], str] | None) -> None:
        """Show `text()` in place of the prompt, redrawn a few times a second (None: stop)."""
        self._status = text
        if self._ticker is not None:
            self._ticker.cancel()
            self._ticker = None
        if text is not None:
            self._ticker = asyncio.create_task(self._tick())
        self._session.app.invalidate()

    async def _tick(self) -> None:
        while True:
            await asyncio.sleep(0.2)  # the spinner's frame rate, not a wait for anything
            self._session.app.invalidate()

    async def next(self) -> str | None:
        return await self.queue.get()

    async def aclose(self) -> None:
        if self._ticker is not None:
            self._ticker.cancel()
        self._task.cancel()
        with contextlib.suppress(asyncio.CancelledError):
            await self._task
        # Whatever is still queued shows before the chat's last words are written directly.
        self.out.flush()
        shown = asyncio.get_running_loop().create_future()
        self.out.in_order(partial(shown.set_result, None))
        await shown
        self.out.closed = True
        sys.stdout = self.out.real
