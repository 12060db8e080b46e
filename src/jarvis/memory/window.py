"""Which earlier turns the model sees verbatim with a turn (pure; no I/O).

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

The cut points are fixed turn numbers (a function of the turn alone), so a session resumed
after a restart sends the same window as the process that ran it before. `block` 1 is the
plain sliding window of the last `keep` turns. The model always sees at least the last `keep`
earlier turns (those that exist) and at most `keep + block - 1`.
"""

from __future__ import annotations


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
