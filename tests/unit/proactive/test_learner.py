"""The feedback learner's counts (weights, explicit over implicit, threshold moves, resets), the
reply / ignored counting table, and the view the person sees."""

from __future__ import annotations

from zoneinfo import ZoneInfo

import pytest

from jarvis.core.proactive import learner
from jarvis.core.proactive.gate import Candidate, Policy, Situation, decide
from jarvis.core.proactive.learner_view import describe, lines, reset
from jarvis.core.proactive.replies import REPLY_WINDOW_MS, Sent, outcome, settle

MIN = 60_000
W = REPLY_WINDOW_MS


# (message at, next message at, the person wrote at, now) → reply | ignored | None (open)
OUTCOMES = [
    (0, None, 5 * MIN, 5 * MIN, "reply"),  # wrote within the window
    (0, None, 0, 0, "reply"),  # at once
    (0, None, W - 1, W - 1, "reply"),  # the last moment of the window
    (0, None, W, W, "ignored"),  # the window closed first
    (0, None, None, W + MIN, "ignored"),  # nothing written, window over
    (0, None, None, 10 * MIN, None),  # still open
    (0, 10 * MIN, 12 * MIN, 12 * MIN, "ignored"),  # the next message came first
    (0, 10 * MIN, 9 * MIN, 9 * MIN, "reply"),  # before the next message
    (0, 10 * MIN, None, 10 * MIN, "ignored"),  # superseded, no reply
    (10 * MIN, None, 5 * MIN, 12 * MIN, None),  # written before the message: not a reply
    (0, None, 2 * W, 2 * W, "ignored"),  # written long after
]


@pytest.mark.parametrize(("at", "next_at", "wrote", "now", "want"), OUTCOMES)
def test_reply_or_ignored(
    at: int, next_at: int | None, wrote: int | None, now: int, want: str | None
) -> None:
    assert outcome(at, next_at, wrote, now) == want


SETTLE = [
    # one open message, the person writes: a reply
    ([Sent(0, False)], 5 * MIN, 5 * MIN, [(0, "reply")]),
    # two messages: only the newest can be replied to, the older was superseded
    ([Sent(0, False), Sent(10 * MIN, False)], 12 * MIN, 12 * MIN, [(0, "ignored"), (1, "reply")]),
    # answered messages are never counted again
    ([Sent(0, True), Sent(10 * MIN, True)], 12 * MIN, 12 * MIN, []),
    # the ticker (nobody wrote): closed windows become ignored, open ones wait
    ([Sent(0, False), Sent(40 * MIN, False)], None, 50 * MIN, [(0, "ignored")]),
    ([Sent(0, False)], None, 10 * MIN, []),
    ([], 5 * MIN, 5 * MIN, []),
]


@pytest.mark.parametrize(("sent", "wrote", "now", "want"), SETTLE)
def test_settle(sent: list[Sent], wrote: int | None, now: int, want: list[tuple[int, str]]) -> None:
    assert settle(sent, wrote, now) == want


def test_replies_weigh_like_a_weak_thumbs_up_and_ignores_like_a_weak_thumbs_down() -> None:
    state = learner.LearnerState()
    for _ in range(2):
        state = learner.record(state, "news", "t", "reply", 0)
    for _ in range(2):
        state = learner.record(state, "news", "t", "thumbs_up", 0)
    counts = state.kinds["news"]
    assert (counts.accepted, counts.rejected) == (3.0, 0.0)
    state = learner.record(state, "news", "t", "ignored", 0)
    assert state.kinds["news"].rejected == 0.5
    assert learner.acceptance(state, "news") == pytest.approx(4 / 5.5)
    # a reply raises the estimate less than a 👍, an ignore lowers it less than a 👎
    base = learner.LearnerState()
    up = learner.acceptance(learner.record(base, "news", "t", "thumbs_up", 0), "news")
    reply = learner.acceptance(learner.record(base, "news", "t", "reply", 0), "news")
    down = learner.acceptance(learner.record(base, "news", "t", "thumbs_down", 0), "news")
    ignored = learner.acceptance(learner.record(base, "news", "t", "ignored", 0), "news")
    assert down < ignored < 0.5 < reply < up


def test_an_explicit_answer_replaces_an_implicit_one_and_moves_are_kept() -> None:
    state = learner.LearnerState()
    for i in range(8):
        state = learner.record(state, "news", "t", "ignored", i)
    assert learner.threshold(state, "news", 0.75) == 1.0
    (move,) = state.kinds["news"].moves
    assert (move.at_ms, move.before, move.after, move.feedback) == (7, 0.0, 0.25, "ignored")
    for i in range(8):
        state = learner.record(state, "news", "t", "thumbs_up", 100 + i, replaces="ignored")
    counts = state.kinds["news"]
    assert counts.counts == {"thumbs_up": 8} and learner.threshold(state, "news", 0.75) == 0.75
    assert [m.after for m in counts.moves][-1] == 0.0  # it came back down, and that is shown


def test_mute_in_words_and_matching_topics() -> None:
    state = learner.mute(learner.LearnerState(), "the weather", 0)
    live = learner.muted(state, 1)
    assert learner.is_muted("weather tomorrow", live)
    assert learner.is_muted("Weather", live) and not learner.is_muted("stock prices", live)
    ko = learner.muted(learner.mute(learner.LearnerState(), "날씨", 0), 1)
    assert learner.is_muted("내일 날씨", ko) and not learner.is_muted("주식", ko)
    candidate = Candidate(
        "news",
        "Rain tomorrow",
        "weather tomorrow",
        dict.fromkeys(("relevance", "urgency", "impact", "originality", "timing"), 5.0),
    )
    assert decide(candidate, Situation(local_hour=14, muted_topics=live), Policy()).reason == (
        "muted_topic"
    )


def test_the_view_and_its_resets() -> None:
    state = learner.LearnerState()
    for feedback in ("thumbs_up", "thumbs_down", "do_it", "reply", "ignored", "ignored"):
        state = learner.record(state, "news", "crypto", feedback, 1_000)  # type: ignore[arg-type]
    state = learner.record(state, "news", "crypto", "thumbs_down", 2_000)
    state = learner.record(state, "reminder", "gym", "thumbs_down", 3_000)
    view = describe(state, 5_000)
    news = next(k for k in view["kinds"] if k["kind"] == "news")
    assert news["counts"] == {
        "thumbs_up": 1,
        "thumbs_down": 2,
        "do_it": 1,
        "reply": 1,
        "ignored": 2,
        "stop_topic": 0,
    }
    assert news["base"] == 0.75 and news["threshold"] == 0.9 and news["moves"][-1]["to"] == 0.9
    assert view["muted"] == [
        {"topic": "crypto", "until_ms": 2_000 + learner.MUTE_MS, "dismissals": 2}
    ]
    assert view["dismissed"] == [{"topic": "gym", "dismissals": 1}]
    text = "\n".join(lines("main", view, "en", ZoneInfo("UTC")))
    assert "news: 👍 1 · 👎 2 · do it 1 · replies 1 · ignored 2" in text
    assert "threshold 0.75 → 0.90" in text and "🔇 crypto" in text
    assert describe(state, 2_000 + learner.MUTE_MS)["muted"] == []  # expired: no longer shown
    unmuted, known = reset(state, topic="crypto")
    assert known and unmuted.muted_until_ms == {} and "crypto" not in unmuted.dismissals
    no_news, known = reset(state, kind="news")
    assert known and "news" not in no_news.kinds and "reminder" in no_news.kinds
    assert reset(state, kind="nothing")[1] is False
    assert reset(state)[0] == learner.LearnerState()
    assert "Nothing learned yet" in "\n".join(
        lines("main", describe(learner.LearnerState(), 0), "en", ZoneInfo("UTC"))
    )
