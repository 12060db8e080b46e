"""Approval replies in words, classified (seed 000 "음성 승인 답 분류").

Runs every reply of `experiments/data/approval_replies.yaml` (the seed's 12 and more) through
two set-ups and prints, per set-up: decision accuracy (run vs. not run), label accuracy, dangerous
allows (a reply that must not run, run — must be 0), missed allows, and the median time to a
decision.

- `classifier`: the model alone, as in the seed's experiment (negation still denies: `combine`);
- `pipeline`: what Jarvis does (negation → DENY, keywords, the model for the rest).

    .venv/bin/python experiments/reply_classifier.py                 # the scripted model
    .venv/bin/python experiments/reply_classifier.py --base-url http://localhost:11434/v1 \\
        --model gemma3:1b [--repeat 3]
    .venv/bin/python experiments/reply_classifier.py --smollm2       # xllamacpp + SmolLM2 here

The scripted model is no language model: it checks the measurement, not a model.
"""

from __future__ import annotations

import argparse
import asyncio
import statistics
import sys
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from ruamel.yaml import YAML

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from jarvis.core.approvals.words import WordsDecision, combine
from jarvis.core.approvals.words_answer import ReplyClassifier, decide
from jarvis.model_layer import LLMContext, ModelSettings
from jarvis.model_layer.provider import Provider
from jarvis.model_layer.providers.faux import FauxProvider, FauxResponse
from jarvis.model_layer.providers.openai_provider import OpenAIProvider

DATA = Path(__file__).parent / "data" / "approval_replies.yaml"
RUNS: frozenset[str] = frozenset({"allow", "always"})


@dataclass(frozen=True)
class Reply:
    text: str
    label: WordsDecision
    seed: bool


@dataclass(frozen=True)
class Outcome:
    reply: Reply
    decision: WordsDecision
    seconds: float
    asked_model: bool


def load_replies(seed_only: bool) -> list[Reply]:
    data: dict[str, Any] = YAML(typ="safe").load(DATA.read_text(encoding="utf-8"))
    replies = [
        Reply(item["text"], item["label"], bool(item.get("seed"))) for item in data["replies"]
    ]
    return [r for r in replies if r.seed] if seed_only else replies


def scripted_answer(ctx: LLMContext) -> FauxResponse:
    """A stand-in classifier: "from now on" words → always, a few verbs → allow, else unclear."""
    reply = str(ctx.messages[-1].content).split("Reply: ", 1)[-1].lower()
    if any(word in reply for word in ("앞으로", "이제부터", "다음부터", "from now on", "always")):
        return FauxResponse(text="always")
    if any(word in reply for word in ("돌려", "써", "진행", "ship", "run")):
        return FauxResponse(text="allow")
    return FauxResponse(text="unclear")


async def classify(reply: Reply, classifier: ReplyClassifier, setup: str) -> Outcome:
    started = time.perf_counter()
    if setup == "classifier":
        decision, asked = combine(reply.text, await classifier.label(reply.text, "bash")), True
    else:
        verdict = await decide(reply.text, "bash", classifier)
        decision, asked = verdict.decision, verdict.stage == "model"
    return Outcome(reply, decision, time.perf_counter() - started, asked)


async def run(provider: Provider, model: str, replies: list[Reply], repeat: int) -> None:
    classifier = ReplyClassifier(provider, model, timeout_sec=60)
    for setup in ("classifier", "pipeline"):
        outcomes: list[Outcome] = []
        for _ in range(repeat):
            for reply in replies:
                outcomes.append(await classify(reply, classifier, setup))
        report(setup, outcomes)


def report(setup: str, outcomes: list[Outcome]) -> None:
    n = len(outcomes)
    decided = sum((o.decision in RUNS) == (o.reply.label in RUNS) for o in outcomes)
    labelled = sum(o.decision == o.reply.label for o in outcomes)
    dangerous = [o for o in outcomes if o.decision in RUNS and o.reply.label not in RUNS]
    escalated = [o for o in outcomes if o.decision == "always" and o.reply.label == "allow"]
    missed = [o for o in outcomes if o.decision not in RUNS and o.reply.label in RUNS]
    should_run = sum(o.reply.label in RUNS for o in outcomes)
    median_ms = statistics.median(o.seconds for o in outcomes) * 1000
    asked = [o.seconds for o in outcomes if o.asked_model]
    model_ms = statistics.median(asked) * 1000 if asked else 0.0
    print(f"\n[{setup}] {n} decisions")
    print(f"  decision accuracy  {decided / n:.3f}")
    print(f"  label accuracy     {labelled / n:.3f}")
    print(f"  dangerous allows   {len(dangerous)}   (allow→always escalations: {len(escalated)})")
    print(f"  missed allows      {len(missed)} of {should_run}")
    print(f"  median decision    {median_ms:.1f} ms")
    print(f"  model asked        {len(asked)}×, median call {model_ms:.1f} ms")
    for outcome in dangerous + escalated:
        print(f"  ! {outcome.reply.text!r}: {outcome.reply.label} → {outcome.decision}")
    wrong = sorted(
        {(o.reply.text, o.reply.label, o.decision) for o in outcomes if o.decision != o.reply.label}
    )
    for text, label, decision in wrong:
        print(f"    {text!r}: {label} → {decision}")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--base-url", help="an OpenAI-compatible endpoint (…/v1)")
    parser.add_argument("--model", help="the model id on that server")
    parser.add_argument("--api-key", default=None)
    parser.add_argument("--smollm2", action="store_true", help="start xllamacpp + SmolLM2 here")
    parser.add_argument("--repeat", type=int, default=1)
    parser.add_argument("--seed-only", action="store_true", help="only the seed's 12 replies")
    args = parser.parse_args()
    replies = load_replies(args.seed_only)
    keep: object = None
    provider: Provider
    if args.smollm2:
        from tests.integration.real_model.conftest import ALIAS, start_real_model

        keep = start_real_model()
        args.base_url, args.model = keep.base_url, ALIAS  # type: ignore[attr-defined]
    if args.base_url:
        if not args.model:
            parser.error("--base-url needs --model")
        settings = ModelSettings(base_url=args.base_url, model=args.model, api_key=args.api_key)
        provider = OpenAIProvider(settings, language="en")
        print(f"model: {args.model} at {args.base_url}")
    else:
        provider, args.model = FauxProvider(script=scripted_answer), "scripted"
        print("model: scripted (checks the measurement, not a model)")
    print(f"replies: {len(replies)} ({sum(r.seed for r in replies)} from the seed) × {args.repeat}")
    asyncio.run(run(provider, args.model, replies, args.repeat))
    del keep
    return 0


if __name__ == "__main__":
    sys.exit(main())
