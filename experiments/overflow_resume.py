"""Seed 004's overflow-resume experiment: tasks that run out of `max_turns`, with and without
resume, through a real Jarvis server (real `read_file` on real files, the HUD's WebSocket).

    python3 dev.py jarvis --version >/dev/null   # once: builds .venv
    .venv/bin/python experiments/overflow_resume.py                    # the scripted model
    .venv/bin/python experiments/overflow_resume.py --smollm2          # llama.cpp + SmolLM2 here
    .venv/bin/python experiments/overflow_resume.py --base-url http://host:11434/v1 --model qwen3

Each task asks for the sum of the numbers in K files (`part_1.txt` … `part_K.txt`, K from 3 to
14), read one `read_file` call at a time, and an answer line `ANSWER: <sum>`. The seed's
KramaBench tasks are not reachable here; these keep its shape (work that needs more rounds than
the budget) with an exact answer. Conditions as in the seed: `max_turns=6` without resume,
with resume (6 rounds, a summary, 3 more), and `max_turns=20` for reference. The scripted model
reads the next unread file each round and answers once it has read them all, so what changes
between conditions is only what the loop does at the budget. Results:
experiments/results/overflow_resume.md.
"""

from __future__ import annotations

import argparse
import asyncio
import re
import sys
import tempfile
from dataclasses import dataclass
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from experiments._jarvis import (
    jarvis_server,
    model_arguments,
    model_from,
    next_event,
    openai_model,
)
from tests.support.live_server import LiveServer, Tab

from jarvis.model_layer.messages import LLMContext, ToolResultMessage
from jarvis.model_layer.providers.faux import FauxProvider, FauxResponse

SIZES = [3, 5, 6, 7, 8, 9, 10, 14]
CONDITIONS = [  # name, max_turns, overflow_resume
    ("no resume, 6 rounds", 6, False),
    ("overflow resume, 6+3 rounds", 6, True),
    ("reference, 20 rounds", 20, False),
]
PROMPT = (
    "Read the files part_1.txt to part_{k}.txt with read_file, one call per file, and add up "
    "the numbers in them. End with a line 'ANSWER: <sum>'."
)
ANSWER = re.compile(r"ANSWER:\s*(-?\d+)")


def number(index: int) -> int:
    return index * 7 + 3


def scripted_model(files: int) -> FauxProvider:
    def reply(ctx: LLMContext) -> FauxResponse | str:
        read = [m.content for m in ctx.messages if isinstance(m, ToolResultMessage)]
        if not ctx.tools:  # the loop's summary call (no tools): what was done, what is left
            return f"Read {len(read)} of {files} files; left: part_{len(read) + 1}.txt onwards."
        if len(read) < files:
            path = f"part_{len(read) + 1}.txt"
            call = {"name": "read_file", "arguments": {"path": path}}
            return FauxResponse.model_validate({"tool_calls": [call]})
        # read_file numbers its lines ("1\t10"): each file's number is the last one shown.
        total = sum(int(re.findall(r"-?\d+", text)[-1]) for text in read)
        return f"ANSWER: {total}"

    return FauxProvider(script=reply)


@dataclass
class Run:
    files: int
    answered: bool
    replied: bool  # the answer or the overflow summary (not the bare "out of rounds" line)
    correct: bool
    over_budget: bool  # ran out of rounds at least once
    calls: int  # model calls: rounds plus summary calls


async def one_task(server: LiveServer, files: int) -> Run:
    tab = await Tab.open(server.ws_url())
    await tab.next("session")
    await tab.send(type="prompt", text=PROMPT.format(k=files))
    while True:
        event = await next_event(tab, 600)
        if event["type"] == "agent_error":
            await tab.close()
            return Run(files, False, False, False, False, 0)
        if event["type"] == "agent_end":
            break
    await tab.close()
    text = (event.get("final_message") or {}).get("content", "")
    found = ANSWER.findall(text)
    model_answer = event["ended_by"] == "answer"
    expected = sum(number(i) for i in range(1, files + 1))
    return Run(
        files=files,
        answered=model_answer,
        replied=event["ended_by"] in ("answer", "overflow_summary"),
        correct=bool(found) and int(found[-1]) == expected,
        over_budget=event["overflows"] > 0 or event["ended_by"] == "max_turns",
        calls=event["turns"] + event["overflows"],
    )


async def run(args: argparse.Namespace) -> dict[str, list[Run]]:
    results: dict[str, list[Run]] = {}
    for name, max_turns, resume in CONDITIONS:
        results[name] = []
        for files in SIZES:
            with tempfile.TemporaryDirectory() as home:
                for index in range(1, files + 1):
                    (Path(home) / f"part_{index}.txt").write_text(f"{number(index)}\n", "utf-8")
                loop = {"max_turns": max_turns, "overflow_resume": resume}
                scripted = None if args.base_url else scripted_model(files)
                model = {"model": openai_model(args)} if args.base_url else {}
                with jarvis_server(Path(home), scripted, language="en", loop=loop, **model) as srv:
                    results[name].append(await one_task(srv, files))
    return results


def table(results: dict[str, list[Run]], label: str) -> str:
    lines = [
        f"Model: {label}; {len(SIZES)} tasks (K = {', '.join(map(str, SIZES))} files).",
        "",
        "| condition | correct | answered by the model | replied (answer or summary) "
        "| ran out of rounds | model calls, mean (max) |",
        "|---|---|---|---|---|---|",
    ]
    for name, runs in results.items():
        n = len(runs)
        calls = [r.calls for r in runs]
        lines.append(
            f"| {name} | {sum(r.correct for r in runs)}/{n} | {sum(r.answered for r in runs)}/{n}"
            f" | {sum(r.replied for r in runs)}/{n}"
            f" | {sum(r.over_budget for r in runs)}/{n}"
            f" | {sum(calls) / n:.1f} ({max(calls)}) |"
        )
    lines += [
        "",
        "Seed 004 (KramaBench, gpt-4o-mini, 20 tasks): no resume 6 rounds — answered 10 %;",
        "overflow resume 6+3 — answered 100 %, mean 10.6 calls (max 11), 37 % fewer calls than",
        "20 rounds.",
    ]
    return "\n".join(lines)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    model_arguments(parser)
    args = parser.parse_args()
    keep = model_from(parser, args)
    results = asyncio.run(run(args))
    print(table(results, args.model or "scripted (reads one file a round, then answers)"))
    del keep
    return 0


if __name__ == "__main__":
    sys.exit(main())
