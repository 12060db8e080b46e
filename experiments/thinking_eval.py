"""The thinking layer's measures (issue 26 "Done when"), printed as a markdown report.

1. The thought router on the labelled set's TEST half (the weights were fitted on dev only):
   accuracy, AUC (all prompts, and only those no hard rule decided), recall of think-needed and
   the think-rate at the shipped threshold.
2. The fact guard on the labelled sentences (`experiments/data/user_model_guard.yaml`): accuracy
   of the fact/no-fact call, reason accuracy, traps let through (must be 0).
3. The user model on a scripted 40-session history with planted facts, traps, corrections, a
   person's edit and a forgotten fact: field accuracy at the end, traps stored (must be 0),
   corrections that retired the old value, edits that survived later extraction.

    .venv/bin/python experiments/thinking_eval.py

4. Speaking first on a synthetic situations set (kinds × rating profiles × contexts × due times,
   gold labels from the rubric in `speaking_first_set`), with gold ratings and with noisy ratings
   (σ 0.5, 1.0; 20 seeds): precision, recall, F1, annoyance rate (false alarms / messages sent)
   of the gate against an Inner Thoughts-style baseline (speak when the mean rating ≥ 3.5), and
   the same baseline at EQUAL recall (its threshold swept to the gate's recall) with both false
   alarm counts and the targets (annoyance ≤ 0.10 at recall ≥ 0.70; ≥ 50 % fewer false alarms). The
   set is synthetic and its rubric shares the gate's context vetoes, so the gate's advantage in
   vetoed contexts is partly by construction; the rating-noise rows are the informative part.
5. Speaking first on REAL user activity judged by people (ProactiveBench's recorded sessions,
   `experiments/data/proactivebench/`, Apache-2.0): the same gate and baseline per moment, dev
   and test halves, each moment alone and the sessions replayed with the gate's pacing
   (`speaking_first_real.py` says how ratings are derived from the people's judgements).
"""

from __future__ import annotations

import random
import sys
from dataclasses import dataclass, field
from pathlib import Path

from ruamel.yaml import YAML

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
sys.path.insert(0, str(Path(__file__).resolve().parent))

from speaking_first_measures import PROFILES, pairs_measures, sweep_to_recall
from speaking_first_real import real_speaking_first_report
from thinking_router_data import auc, evaluate, load

from jarvis.agent_layer.thought import load_weights, route
from jarvis.core.proactive.gate import RATING_KEYS, Candidate, Policy, Situation, decide
from jarvis.core.user_model import (
    Fact,
    apply_proposals,
    check_statement,
    forget,
    set_by_person,
)
from jarvis.core.user_model.extract import propose

GUARD_DATA = Path(__file__).resolve().parent / "data" / "user_model_guard.yaml"


def router_report() -> list[str]:
    weights = load_weights()
    rows = load("test")
    rep = evaluate(rows, weights)
    modelled = [(r, route(r.prompt, weights)) for r in rows]
    modelled = [(r, d) for r, d in modelled if d.reason.startswith("model:")]
    model_auc = auc([d.p_think for _, d in modelled], [r.think for r, _ in modelled])
    return [
        "## Thought router (test half)",
        "",
        "| prompts | accuracy | AUC | AUC (model-decided only) | recall | precision | think-rate |",
        "|---|---|---|---|---|---|---|",
        f"| {rep.n} | {rep.accuracy:.3f} | {rep.auc:.3f} | {model_auc:.3f} ({len(modelled)}) | "
        f"{rep.recall:.3f} | {rep.precision:.3f} | {rep.think_rate:.3f} |",
        "",
        f"threshold {weights.threshold:.4f} (target think-rate {weights.target_think_rate} on dev)",
        *[
            f"- miss: {text!r} gold={gold} p={p:.3f} ({reason})"
            for text, gold, p, reason in rep.errors
        ],
    ]


def guard_report() -> list[str]:
    rows = YAML(typ="safe").load(GUARD_DATA.read_text(encoding="utf-8"))["sentences"]
    fact_ok = reason_ok = traps_through = 0
    misses: list[str] = []
    for row in rows:
        got = check_statement(row["text"])
        fact_ok += got.fact == row["fact"]
        reason_ok += got.reason == row["reason"]
        traps_through += got.fact and not row["fact"]
        if got.reason != row["reason"]:
            misses.append(f"- {row['text']!r}: {got.reason} (gold {row['reason']})")
    n = len(rows)
    return [
        "## Fact guard",
        "",
        "| sentences | fact/no-fact accuracy | reason accuracy | traps let through |",
        "|---|---|---|---|",
        f"| {n} | {fact_ok / n:.3f} | {reason_ok / n:.3f} | {traps_through} |",
        "",
        *misses,
    ]


# A scripted history: (session, kind, text). kind: say (the person's words), set (the person's
# edit `field=value`), forget (the person forgets the active fact `field=value`).
HISTORY: list[tuple[int, str, str]] = []
TRAPS: list[str] = [
    "만약 내 이름이 철수라면 어땠을까",
    "If my name is Bob, what would you call me?",
    "내 친구는 디자이너야",
    "My wife is a doctor",
    "팀장님이 나보고 데이터 과학자래",
    "I love golf lol",
    "Do I like rust?",
    'He said "I\'m a software engineer"',
    "민수는 PM이야",
    "I wish I were a pilot",
    "엄마가 부산 사셔",
    "Pretend I'm a teacher",
    "나 천재임 ㅋㅋ",
    "My boss is a lawyer",
    "제가 개발자인가요?",
    "Suppose I'm working on a spaceship",
    "동생은 축구를 좋아해",
    "yeah right, I love meetings",
    "She told me I'm a nurse",
    "부산 살면 좋겠다",
]
PLANTED = {
    1: "제 이름은 민준이에요.",
    3: "저는 백엔드 개발자예요.",
    5: "I love rust.",
    7: "파이썬을 좋아해요",
    9: "I'm working on jarvis.",
    11: "회의는 싫어",
    13: "I prefer short answers.",
    15: "my timezone is Asia/Seoul",
    18: "I love rust.",  # said again: seen again, not a second fact
}
CORRECTIONS = {20: "저는 이제 PM이에요", 27: "my timezone is Europe/Berlin"}
EDITS = {25: "name=민준호", 29: "communication_style=detailed answers"}
FORGETS = {33: "interests=rust"}
AFTER_EDITS = {
    30: "제 이름은 민준이에요.",  # extraction must not undo the person's edit
    31: "I prefer short answers.",
    36: "I love rust.",  # forgotten: must not come back
}
# Read between the lines (only with inference on): Go in two sessions becomes active, Kotlin in
# one stays tentative, a third party's and a hypothetical one never become facts.
INFERRED = {
    8: "I've been coding in Go all week.",
    14: "I have been programming in Go since the morning.",
    22: "저는 요즘 코틀린으로 개발하고 있어요.",
    24: "내 동생은 자바로 개발하고 있어",
    26: "If I had been coding in Haskell, I would know.",
}
INFERRED_GOLD = {("expertise", "Go")}
TENTATIVE_GOLD = {("expertise", "코틀린")}
GOLD = {
    ("name", "민준호"),
    ("role", "PM"),
    ("interests", "파이썬"),
    ("projects", "jarvis"),
    ("dislikes", "회의"),
    ("communication_style", "detailed answers"),
    ("timezone", "Europe/Berlin"),
}


@dataclass
class Run:
    facts: list[Fact] = field(default_factory=list)
    trap_evidence: set[str] = field(default_factory=set)


def replay(infer: bool = False) -> Run:
    """The 40 sessions; `infer` turns inference on (user_model.infer)."""
    run = Run()
    now = 0
    for session in range(1, 41):
        lines = [TRAPS[(session * 3 + i) % len(TRAPS)] for i in range(2)]
        run.trap_evidence.update(lines)
        for table in (PLANTED, CORRECTIONS, AFTER_EDITS, INFERRED):
            if session in table:
                lines.append(table[session])
        for text in lines:
            now += 1
            run.facts, _ = apply_proposals(
                run.facts,
                propose(text, inferring=infer),
                text,
                now,
                f"s{session}-{now}",
                session_id=f"s{session}",
                infer=infer,
            )
        if session in EDITS:
            name, value = EDITS[session].split("=", 1)
            now += 1
            run.facts = set_by_person(run.facts, name, value, now, f"edit{session}")  # type: ignore[arg-type]
        if session in FORGETS:
            name, value = FORGETS[session].split("=", 1)
            hit = next(
                f for f in run.facts if (f.field, f.value, f.status) == (name, value, "active")
            )
            now += 1
            run.facts, _ = forget(run.facts, hit.id, now)
    return run


def user_model_report() -> list[str]:
    run = replay()
    active = {(f.field, f.value) for f in run.facts if f.status == "active"}
    found = len(GOLD & active)
    extra = sorted(active - GOLD)
    traps = [f for f in run.facts if f.evidence in run.trap_evidence]
    retired = {(f.field, f.value): f.retired_reason for f in run.facts if f.status == "retired"}
    corrections = [("role", "백엔드 개발자"), ("timezone", "Asia/Seoul")]
    retired_ok = sum(retired.get(c) == "contradicted" for c in corrections)
    edits_ok = sum(
        pair in active for pair in [("name", "민준호"), ("communication_style", "detailed answers")]
    )
    forgotten_back = ("interests", "rust") in active
    return [
        "## User model (40 scripted sessions)",
        "",
        "| gold facts found | extra active facts | field accuracy | traps stored "
        "| corrections retired the old value | edits survived | forgotten came back |",
        "|---|---|---|---|---|---|---|",
        f"| {found}/{len(GOLD)} | {len(extra)} | {found / (len(GOLD) + len(extra)):.3f} | "
        f"{len(traps)} | {retired_ok}/{len(corrections)} | {edits_ok}/2 | {forgotten_back} |",
        "",
        *[f"- extra: {pair}" for pair in extra],
        *inference_report(),
    ]


def inference_report() -> list[str]:
    run = replay(infer=True)
    active = {(f.field, f.value) for f in run.facts if f.status == "active"}
    tentative = {(f.field, f.value) for f in run.facts if f.status == "tentative"}
    inferred = {(f.field, f.value) for f in run.facts if f.source == "inferred"}
    return [
        "",
        "With inference on (`user_model.infer`, off by default): "
        f"{len(INFERRED_GOLD & active)}/{len(INFERRED_GOLD)} inferred facts active after two "
        f"sessions, {len(TENTATIVE_GOLD & tentative)}/{len(TENTATIVE_GOLD)} seen once still "
        f"tentative, {len(inferred - INFERRED_GOLD - TENTATIVE_GOLD)} other inferred facts, "
        f"stated facts unchanged: {active - INFERRED_GOLD == GOLD}.",
    ]


CONTEXTS = {
    "calm": Situation(local_hour=14),
    "turn_running": Situation(local_hour=14, turn_running=True),
    "approval_pending": Situation(local_hour=14, approval_pending=True),
    "quiet_hours": Situation(local_hour=23),
    "muted": Situation(local_hour=14, muted_topics=frozenset({"topic"})),
    "daily_max": Situation(local_hour=14, today_count=3),
    "too_soon": Situation(local_hour=14, minutes_since_last=15),
    "not_new": Situation(local_hour=14, recent_topics=frozenset({"topic"})),
}
KINDS = ("reminder", "follow_up", "suggestion", "news")


def speaking_first_set() -> list[tuple[str, tuple[int, ...], str, float | None, bool]]:
    """(kind, gold ratings, context, due minutes, should speak). Rubric: speak only a good or
    solid thought in a calm moment; a reminder due within the hour is also worth a quiet-hours or
    too-soon interruption unless it is bad or lopsided; never during a turn, an approval, a muted
    or repeated topic, or past the day's count."""
    rows = []
    for kind in KINDS:
        dues: tuple[float | None, ...] = (None, 30.0, 300.0) if kind == "reminder" else (None,)
        for profile, ratings in PROFILES.items():
            for context in CONTEXTS:
                for due in dues:
                    worth = profile in ("good", "solid")
                    urgent = kind == "reminder" and due is not None and due <= 60
                    speak = worth and (
                        context == "calm" or (urgent and context in ("quiet_hours", "too_soon"))
                    )
                    rows.append((kind, ratings, context, due, speak))
    return rows


def speaking_first_report(seeds: int = 20) -> list[str]:
    rows = speaking_first_set()
    policy = Policy()
    lines = [
        "## Speaking first (synthetic situations)",
        "",
        f"{len(rows)} situations, {sum(r[4] for r in rows)} worth speaking. The set, its rubric "
        "and the gate were written by the same team (synthetic, not real conversations); the "
        "rubric shares the gate's context vetoes, which the baseline lacks.",
        "",
        "| ratings | who | precision | recall | F1 | annoyance | false alarms / pass |",
        "|---|---|---|---|---|---|---|",
    ]
    equal = [
        "",
        "At equal recall: the baseline's threshold τ swept (1.00–5.00 by 0.01) to the highest τ "
        "whose recall is at least the gate's (its fewest false alarms at that recall).",
        "",
        "| ratings | gate recall | gate false alarms / pass | baseline τ | baseline recall "
        "| baseline false alarms / pass | fewer false alarms |",
        "|---|---|---|---|---|---|---|",
    ]
    gold_gate: tuple[float, float, float, float, int] | None = None
    gold_cut = 0.0
    for sigma in (0.0, 0.5, 1.0):
        totals: dict[str, list[tuple[bool, bool]]] = {"gate": [], "baseline ≥ 3.5": []}
        means: list[tuple[float, bool]] = []
        for seed in range(seeds if sigma else 1):
            rng = random.Random(seed)
            for kind, gold, context, due, speak in rows:
                noisy = [min(5.0, max(1.0, r + rng.gauss(0, sigma))) for r in gold]
                ratings = dict(zip(RATING_KEYS, noisy, strict=True))
                candidate = Candidate(kind, "text", "topic", ratings, due_in_min=due)  # type: ignore[arg-type]
                totals["gate"].append((decide(candidate, CONTEXTS[context], policy).speak, speak))
                mean = sum(noisy) / len(noisy)
                totals["baseline ≥ 3.5"].append((mean >= 3.5, speak))
                means.append((mean, speak))
        passes = seeds if sigma else 1
        label = "gold" if not sigma else f"noisy σ {sigma}"
        for who, decisions in totals.items():
            p, r, f1, annoy, fp = pairs_measures(decisions)
            cells = f"{p:.3f} | {r:.3f} | {f1:.3f} | {annoy:.3f} | {fp / passes:.1f}"
            lines.append(f"| {label} | {who} | {cells} |")
        gate = pairs_measures(totals["gate"])
        tau, base = sweep_to_recall(
            lambda t, means=means: pairs_measures([(m >= t, g) for m, g in means]), gate[1]
        )
        cut = 1 - gate[4] / base[4] if base[4] else 0.0
        if not sigma:
            gold_gate, gold_cut = gate, cut
        equal.append(
            f"| {label} | {gate[1]:.3f} | {gate[4] / passes:.1f} | {tau:.2f} | {base[1]:.3f} "
            f"| {base[4] / passes:.1f} | {cut:.0%} |"
        )
    assert gold_gate is not None
    met_annoyance = gold_gate[3] <= 0.10 and gold_gate[1] >= 0.70
    lines += equal
    lines += [
        "",
        f"Targets (gold ratings): annoyance ≤ 0.10 at recall ≥ 0.70 — "
        f"{'met' if met_annoyance else 'NOT met'} (annoyance {gold_gate[3]:.3f}, recall "
        f"{gold_gate[1]:.3f}); ≥ 50 % fewer false alarms than the baseline at equal recall — "
        f"{'met' if gold_cut >= 0.5 else 'NOT met'} ({gold_cut:.0%}). Upper bounds: the team "
        "wrote the set, its rubric and the gate.",
    ]
    return lines


def main() -> None:
    parts = [
        router_report(),
        guard_report(),
        user_model_report(),
        speaking_first_report(),
        real_speaking_first_report(),
    ]
    print("\n\n".join("\n".join(part) for part in parts))


if __name__ == "__main__":
    main()
