"""Convert ProactiveBench's human-annotated REAL user activity into speaking-first situations.

ProactiveBench ("Proactive Agent: Shifting LLM Agents from Reactive Responses to Active
Assistance", ICLR 2025; github.com/thunlp/ProactiveAgent, Apache License 2.0) recorded 12 real
work sessions (6 coding, 6 writing; ActivityWatch events, June 2024) and, at each event, let a
model propose up to five help tasks; three annotators (two for some) accepted or rejected each.
Its `dataset/reward_data/{test,train}_data.jsonl` hold those judgements; the gym's generated
sessions (times like "Day 1, 10:05 PM") are left out — only sessions with real timestamps that are
one of the 12 files in `dataset/test_data/splits.json` ("real_average") are kept.

One situation = one moment (an event of a real session) with the candidates proposed there, each
with how many annotators accepted it. A candidate is worth saying when a majority accepted it
(the source's own `valid`); a moment is worth speaking at when one of its candidates is. Halves,
fixed by the sessions' names before any run: dev = `*_11..13`, test = `*_14..16`.

    .venv/bin/python experiments/proactivebench_convert.py /work/.mirror/thunlp+ProactiveAgent/repo

SOURCE is a checkout of the repository or its git directory (the `fetch` tool's snapshot); the
set is written to `experiments/data/proactivebench/situations.jsonl` (or OUT).
"""

from __future__ import annotations

import argparse
import json
import re
import subprocess
from collections.abc import Iterable
from pathlib import Path
from typing import Any

DATA = Path(__file__).resolve().parent / "data" / "proactivebench"
SITUATIONS = DATA / "situations.jsonl"
LABELS = ("dataset/reward_data/test_data.jsonl", "dataset/reward_data/train_data.jsonl")
SPLITS = "dataset/test_data/splits.json"
REAL_TIME = re.compile(r"\d{9,10}(\.\d+)?")  # a Unix time: recorded, not generated
DEV = ("_11", "_12", "_13")


def half(session: str) -> str:
    return "dev" if session.endswith(DEV) else "test"


def convert(rows: Iterable[dict[str, Any]], firsts: dict[str, dict[str, str]]) -> list[dict]:
    """`rows`: the source's judgement rows; `firsts`: real session name → its first observation.
    Returns the moments (sorted by session, event) with their judged candidates."""
    by_first = {(o["time"], o["event"]): name for name, o in firsts.items()}
    moments: dict[tuple[str, int], dict[str, Any]] = {}
    for row in rows:
        obs = row["obs"]
        session = by_first.get((obs[0]["time"], obs[0]["event"]))
        if row["pred_task"] is None or session is None or not REAL_TIME.fullmatch(obs[-1]["time"]):
            continue  # no candidate to judge, or not a recorded session
        votes = [bool(v) for v in row["annotation"]]
        accepted = sum(votes)
        if (2 * accepted > len(votes)) != bool(row["valid"]):
            raise ValueError(f"majority and `valid` disagree: {row['pred_task']!r}")
        index = len(obs) - 1
        moment = moments.setdefault(
            (session, index),
            {
                "session": session,
                "half": half(session),
                "event": index,
                "time": float(obs[-1]["time"]),
                "activity": obs[-1]["event"],
                "candidates": [],
            },
        )
        candidate = {"text": row["pred_task"], "accepted": accepted, "annotators": len(votes)}
        if candidate not in moment["candidates"]:
            moment["candidates"].append(candidate)
    for moment in moments.values():
        moment["candidates"].sort(key=lambda c: c["text"])  # the source lists accepted ones first
    return [moments[key] for key in sorted(moments)]


def read_source(source: Path, path: str) -> str:
    if (source / path).is_file():
        return (source / path).read_text(encoding="utf-8")
    done = subprocess.run(
        ["git", "--git-dir", str(source), "show", f"HEAD:{path}"],
        capture_output=True,
        text=True,
        check=True,
    )
    return done.stdout


def load_source(source: Path) -> tuple[list[dict[str, Any]], dict[str, dict[str, str]]]:
    rows = [
        json.loads(line)
        for path in LABELS
        for line in read_source(source, path).splitlines()
        if line.strip()
    ]
    names = json.loads(read_source(source, SPLITS))["real_average"]["files"]
    firsts = {
        name.removesuffix(".json"): json.loads(read_source(source, f"dataset/test_data/{name}"))[0][
            "observation"
        ]
        for name in names
    }
    return rows, firsts


def write(moments: list[dict], out: Path) -> None:
    out.parent.mkdir(parents=True, exist_ok=True)
    lines = [json.dumps(m, ensure_ascii=False, sort_keys=True) for m in moments]
    out.write_text("\n".join(lines) + "\n", encoding="utf-8")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("source", type=Path, help="thunlp/ProactiveAgent checkout or git dir")
    parser.add_argument("out", type=Path, nargs="?", default=SITUATIONS)
    args = parser.parse_args()
    moments = convert(*load_source(args.source))
    write(moments, args.out)
    candidates = sum(len(m["candidates"]) for m in moments)
    print(f"{len(moments)} moments, {candidates} candidates → {args.out}")


if __name__ == "__main__":
    main()
