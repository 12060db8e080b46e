"""Which earlier turns the model sees with a turn, and how (pure; no I/O).

The history window moves in blocks, not one turn at a time. With `keep` 3 and `block` 5 the
model sees every earlier turn up to 7 of them; at the turn that would show 8, the oldest 5 are
dropped at once (3 left), and the window grows again one turn per turn:

    turn:          1  2  3  4  5  6  7  8  9 10 11 12 13 14 …
    earlier shown: 0  1  2  3  4  5  6  7  3  4  5  6  7  3 …

Between two cuts the history is append-only: what turn N sends after the system prompt and the
tools is exactly what turn N-1 sent, plus turn N-1's new messages, so a model server's prompt
cache (llama.cpp's slot cache, a provider's prefix cache) reuses all of it. A window that slid
one turn every turn changed the bytes right after the tools every turn and left only the system
prompt and the tools cached.

At a cut, the `keep` turns the cut kept are **carried** as one line each (`carried_turns`, the
person's words, the tools called and the answer, cut short) in one block headed
`[Earlier in this conversation]`, in front of the first message after the tools; the turns
after the cut are shown whole. So what a cut changes after the tools, and what a prompt cache
must read afresh, is a few short lines and this turn's message, not three whole turns with
their tool traffic; and the block stays the same until the next cut. `carry=False` keeps the
kept turns whole (as before issue 29 item 4); `block` 1 (a window that slides every turn, the
plain last `keep` turns) never carries.

The cut points are fixed turn numbers (a function of the turn alone), so a session resumed
after a restart sends the same window as the process that ran it before. The model always sees
at least the last `keep` earlier turns (those that exist; whole or as a line) and at most
`keep + block - 1`.
"""

from __future__ import annotations

from collections.abc import Sequence

from jarvis.model_layer.messages import AssistantMessage, Message, UserMessage

WORDS_CHARS = 120  # of the person's words in a carried line
ANSWER_CHARS = 160  # of the answer


def first_shown_turn(turn: int, keep: int, block: int) -> int:
    """The oldest earlier turn shown with `turn` (turns count from 1). The window is
    `first_shown_turn(...)` .. `turn - 1`; equal to `turn` when no earlier turn is shown (turn 1,
    and a turn number of 0 or less: none)."""
    if keep < 0 or block < 1:
        raise ValueError(f"keep must be at least 0 and block at least 1, not {keep}, {block}")
    if turn <= 1:
        return turn
    earlier = turn - 1
    cuts = max(0, earlier - keep) // block  # blocks of `block` turns dropped so far
    return 1 + cuts * block


def carried_turns(turn: int, keep: int, block: int) -> range:
    """The earlier turns shown as one line each with `turn`: after a cut, the `keep` turns it
    kept (those before `turn`); none before the first cut, and none with `block` 1."""
    first = first_shown_turn(turn, keep, block)
    if block == 1 or first <= 1:
        return range(first, first)
    return range(first, min(first + keep, turn))


def carried_line(messages: Sequence[Message]) -> str:
    """One earlier turn in a line: the person's words, the tools called, the answer."""
    words = next((m.content for m in messages if isinstance(m, UserMessage)), "")
    answers = [m for m in messages if isinstance(m, AssistantMessage)]
    tools = list(dict.fromkeys(call.name for m in answers for call in m.tool_calls))
    answer = next((m.content for m in reversed(answers) if m.content), "")
    called = f"[{', '.join(tools)}] " if tools else ""
    return f"- {_short(words, WORDS_CHARS)} → {called}{_short(answer, ANSWER_CHARS)}"


def carried_block(header: str, turns: Sequence[Sequence[Message]]) -> str:
    """The carried turns' block ('' when there are none), oldest first."""
    if not turns:
        return ""
    return "\n".join([header, *(carried_line(messages) for messages in turns)])


def _short(text: str, limit: int) -> str:
    flat = " ".join(text.split())
    return flat if len(flat) <= limit else flat[: limit - 1].rstrip() + "…"
