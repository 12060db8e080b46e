"""What the feedback learner has learned, as the person sees it (pure): per kind the answers
counted, the threshold (base → now) and how it moved; the muted topics and until when; the
topics dismissed once. One view for the HUD (`GET /api/proactive/learner`), the CLI
(`jarvis thinking learner`) and `/learner`; and the resets they offer."""

from __future__ import annotations

from datetime import datetime
from typing import Any
from zoneinfo import ZoneInfo

from jarvis.common.i18n import Language, t
from jarvis.core.proactive import learner
from jarvis.core.proactive.gate import Policy

DEFAULT_THRESHOLD = 0.8  # a kind the policy does not name (the gate's own fallback)


def base_thresholds() -> dict[str, float]:
    return dict(Policy().thresholds)


def describe(
    state: learner.LearnerState, now_ms: int, base: dict[str, float] | None = None
) -> dict[str, Any]:
    """The learner as plain data (JSON)."""
    bases = base_thresholds() if base is None else base
    kinds = []
    for kind in [*bases, *sorted(k for k in state.kinds if k not in bases)]:
        counts = state.kinds.get(kind, learner.KindCounts())
        start = bases.get(kind, DEFAULT_THRESHOLD)
        precision = counts.precision
        kinds.append(
            {
                "kind": kind,
                "counts": {f: counts.of(f) for f in learner.FEEDBACKS},
                "precision": None if precision is None else round(precision, 3),
                "acceptance": round(learner.acceptance(state, kind), 3),
                "base": start,
                "threshold": learner.threshold(state, kind, start),
                "moves": [
                    {
                        "at_ms": m.at_ms,
                        "from": round(min(1.0, start + m.before), 4),
                        "to": round(min(1.0, start + m.after), 4),
                        "feedback": m.feedback,
                    }
                    for m in counts.moves
                ],
            }
        )
    live = learner.muted(state, now_ms)
    muted = [
        {"topic": topic, "until_ms": until, "dismissals": state.dismissals.get(topic, 0)}
        for topic, until in sorted(state.muted_until_ms.items(), key=lambda item: item[1])
        if topic in live
    ]
    dismissed = [
        {"topic": topic, "dismissals": n}
        for topic, n in sorted(state.dismissals.items())
        if topic not in live and n > 0
    ]
    return {"kinds": kinds, "muted": muted, "dismissed": dismissed}


def learned_anything(view: dict[str, Any]) -> bool:
    return bool(
        view["muted"] or view["dismissed"] or any(sum(k["counts"].values()) for k in view["kinds"])
    )


def lines(agent: str, view: dict[str, Any], lang: Language, tz: ZoneInfo) -> list[str]:
    """The view as terminal lines (`jarvis thinking learner`, `/learner`)."""

    def day(ms: int) -> str:
        return datetime.fromtimestamp(ms / 1000, tz).strftime("%Y-%m-%d %H:%M")

    out = [t("learner.header", lang, agent=agent)]
    if not learned_anything(view):
        return [*out, t("learner.empty", lang)]
    for kind in view["kinds"]:
        if not sum(kind["counts"].values()):
            continue
        shown = {"base": f"{kind['base']:.2f}", "threshold": f"{kind['threshold']:.2f}"}
        out.append(t("learner.kind", lang, kind=kind["kind"], **kind["counts"], **shown))
        for move in kind["moves"]:
            out.append(
                t(
                    "learner.move",
                    lang,
                    when=day(move["at_ms"]),
                    before=f"{move['from']:.2f}",
                    after=f"{move['to']:.2f}",
                    feedback=move["feedback"],
                )
            )
    for item in view["muted"]:
        until = day(item["until_ms"])
        out.append(
            t(
                "learner.muted",
                lang,
                topic=item["topic"],
                until=until,
                dismissals=item["dismissals"],
            )
        )
    for item in view["dismissed"]:
        out.append(t("learner.dismissed", lang, **item))
    return out


def reset(
    state: learner.LearnerState, kind: str = "", topic: str = ""
) -> tuple[learner.LearnerState, bool]:
    """Reset all (no kind, no topic), one kind, or one topic's mute and dismissals. Returns the
    new state and whether the kind or topic was known."""
    if topic:
        known = topic in state.muted_until_ms or topic in state.dismissals
        return learner.unmute(state, topic), known
    if kind:
        return learner.reset_kind(state, kind), kind in state.kinds
    return learner.reset(), True
