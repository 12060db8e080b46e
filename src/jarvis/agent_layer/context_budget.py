"""Keep a model call inside the model's context window (pure; no I/O).

A small local model has a 2–8k token window; one long message or tool result must not make
every later turn fail. Before each call the loop asks `fit(...)` for the messages to send:

1. nothing changes while the estimate fits `window - reserve` (the reply's room);
2. else earlier turns are dropped, oldest first and whole (from one user message to the next,
   so a tool call never loses its result), in steps of a quarter of the budget: what goes is
   the excess rounded up to a multiple of `budget // 4`, so while the history grows at its end
   the same turns go and the rest stays the prefix a prompt cache holds (dropping just enough
   moved the start of the history, and the cache with it, every turn);
3. then tool results longer than `tool_cap` characters are cut to head and tail with a note;
4. what still does not fit is sent as it is: the server's overflow error is the answer, and the
   loop retries once with `shrink=True` (earlier turns gone, tool results cut hard).

Tokens are estimated, never counted exactly: UTF-8 bytes / 3 (about right for English, a little
high for code, and about one token per Hangul syllable), plus a few per message. Erring high
costs some history; erring low costs the turn.
"""

from __future__ import annotations

from dataclasses import dataclass

from jarvis.model_layer.messages import Message, ToolResultMessage, ToolSpec, UserMessage

_PER_MESSAGE = 4
TOOL_CAP_CHARS = 8_000
SHRUNK_TOOL_CAP_CHARS = 1_500
_NOTE = "\n[… {cut:,} characters cut to fit the model's context …]\n"


def estimate_tokens(text: str) -> int:
    return len(text.encode("utf-8")) // 3 + 1


def message_tokens(message: Message) -> int:
    text = getattr(message, "content", "") or ""
    calls = getattr(message, "tool_calls", None) or []
    extra = sum(estimate_tokens(str(call.arguments)) + 8 for call in calls)
    return estimate_tokens(text) + extra + _PER_MESSAGE


def tools_tokens(tools: list[ToolSpec]) -> int:
    return sum(estimate_tokens(f"{t.name} {t.description} {t.parameters}") for t in tools)


@dataclass(frozen=True)
class Fitted:
    messages: list[Message]
    dropped: int  # earlier messages left out
    cut: int  # tool results shortened
    tokens: int  # the estimate of what is sent


def fit(
    system_prompt: str,
    messages: list[Message],
    tools: list[ToolSpec],
    *,
    window: int,
    reserve: int,
    keep_from: int,
    shrink: bool = False,
) -> Fitted:
    """`messages[keep_from:]` is this turn (never dropped); earlier ones may go."""
    budget = window - reserve
    fixed = estimate_tokens(system_prompt) + tools_tokens(tools)
    kept = list(messages)
    start = max(0, min(keep_from, len(kept)))
    dropped = 0
    if shrink:
        kept, dropped, start = kept[start:], start, 0
    excess = _total(fixed, kept) - budget
    if excess > 0 and start > 0:
        cut_at = _in_steps(kept, start, excess, max(1, budget // 4))
        kept, dropped, start = kept[cut_at:], dropped + cut_at, start - cut_at
    cut = 0
    cap = SHRUNK_TOOL_CAP_CHARS if shrink else TOOL_CAP_CHARS
    if shrink or _total(fixed, kept) > budget:
        kept, cut = _cut_tool_results(kept, cap)
    return Fitted(kept, dropped, cut, _total(fixed, kept))


def _total(fixed: int, messages: list[Message]) -> int:
    return fixed + sum(message_tokens(m) for m in messages)


def _in_steps(messages: list[Message], start: int, excess: int, step: int) -> int:
    """Where the kept messages begin: whole earlier turns (before `start`) dropped from the
    oldest until they free `excess` rounded up to a multiple of `step` (all of them at most)."""
    goal = -(-excess // step) * step
    freed = cut_at = 0
    while freed < goal and cut_at < start:
        after = _next_turn_start(messages, cut_at + 1, start)
        freed += sum(message_tokens(m) for m in messages[cut_at:after])
        cut_at = after
    return cut_at


def _next_turn_start(messages: list[Message], after: int, limit: int) -> int:
    """The index of the next user message after `after` (a turn's start), at most `limit`."""
    for index in range(after, limit):
        if isinstance(messages[index], UserMessage):
            return index
    return limit


def _cut_tool_results(messages: list[Message], cap: int) -> tuple[list[Message], int]:
    out: list[Message] = []
    cut = 0
    for message in messages:
        if isinstance(message, ToolResultMessage) and len(message.content) > cap:
            out.append(message.model_copy(update={"content": head_and_tail(message.content, cap)}))
            cut += 1
        else:
            out.append(message)
    return out, cut


def head_and_tail(text: str, cap: int) -> str:
    half = max(1, cap // 2)
    return text[:half] + _NOTE.format(cut=len(text) - 2 * half) + text[-half:]
