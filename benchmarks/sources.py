"""External sources: 1,000 entries through the real poller, seen file and HTTP (one process).

A feed site on 127.0.0.1 (pytest-httpserver) publishes 1,000 entries in batches of 1–9 over
many polls, mutating the way real feeds do: every 7th poll rewrites all ids, every 5th reverses
the order, every 3rd edits an old entry in place, every 11th adds a tracking parameter to every
link; one entry in 20 also appears in a second source. Between batches the feed is polled again
unchanged (conditional request). In one poll in 10 the process "crashes" right after the seen
file is written (before the status is): the poll is then repeated from the old status.

Notifications: the recorded notification ids are "run" once each (a set stands in for the
engine's one row per workflow id; across processes that is DBOS's, tested in
tests/integration/sources/test_sources_once.py). Counted per entry: said 0 times (missed),
more than once (duplicate). Printed with the share of unchanged polls answered 304.

    uv run python benchmarks/sources.py [--entries 1000]

    uv run python benchmarks/sources.py --processes   # three `jarvis serve`, PostgreSQL
    uv run python benchmarks/sources.py --processes --immediate 5   # half through the gate

`--processes` runs 1,000 entries (10 sources × 4 batches × 25) through three real `jarvis serve`
processes on one PostgreSQL engine database and one data dir, killing one (SIGKILL) right after
a poll recorded entries as seen and before it notifies (tests/faults/sources_processes.py); the
feeds are polled once a minute, so it takes about six minutes.
"""

from __future__ import annotations

import argparse
import asyncio
import logging
import os
import random
import sys
import tempfile
from collections import Counter
from pathlib import Path
from typing import Any

from pytest_httpserver import HTTPServer

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from tests.integration.sources.feeds import FeedSite, Item

from jarvis.app.sources.fetch import SourceFetcher
from jarvis.app.sources.poller import SourcePoller
from jarvis.core.sources.definition import parse_source
from jarvis.core.sources.seen import SeenStore
from jarvis.core.tools.builtins._fetch_guard import FetchGuard


class Clock:
    def __init__(self) -> None:
        self.ms = 1_796_083_200_000

    def now_ms(self) -> int:
        return self.ms


class AllGranted:
    async def missing(self, definition: Any) -> list[str]:
        return []


class Crash(Exception):
    pass


async def run(entries: int) -> dict[str, float]:
    rng = random.Random(4)
    server = HTTPServer(host="127.0.0.1", port=0)
    server.start()
    home = Path(tempfile.mkdtemp(prefix="jarvis-sources-bench-"))
    one, two = FeedSite(), FeedSite()
    url_one, url_two = one.serve(server, "/one"), two.serve(server, "/two")
    sources = [
        parse_source("one", f"url: {url_one}\nmax_per_day: 1000\nenabled: true\n"),
        parse_source("two", f"url: {url_two}\nmax_per_day: 1000\nenabled: true\n"),
    ]
    clock = Clock()
    fetcher = SourceFetcher(FetchGuard(allow_private=True))
    poller = SourcePoller(home, fetcher, AllGranted(), clock)  # type: ignore[arg-type]
    done: set[str] = set()
    said: Counter[str] = Counter()
    unchanged_polls = not_modified = 0

    def say_recorded() -> None:
        for note, box in SeenStore(home).notes().items():
            if note not in done:  # the engine runs each id once
                done.add(note)
                said.update(e.title for e in box.entries)

    async def poll_all(slot: int, crash: bool) -> None:
        for source in sources:
            if crash:
                original = poller.seen.append

                def append_then_crash(*args: Any, _then: Any = original, **kwargs: Any) -> None:
                    _then(*args, **kwargs)
                    raise Crash

                poller.seen.append = append_then_crash  # type: ignore[method-assign]
                try:
                    await poller.poll(source, str(slot), now_ms=clock.ms)
                except Crash:
                    pass
                finally:
                    poller.seen.append = original  # type: ignore[method-assign]
                # crashed before the notifications: the next tick starts them
            await poller.poll(source, str(slot), now_ms=clock.ms)

    # The first poll takes the (empty) feeds as seen.
    await poll_all(0, crash=False)
    published, slot = 0, 1
    while published < entries:
        batch = min(rng.randint(1, 9), entries - published)
        for i in range(published, published + batch):
            item = Item(f"id-{i}", f"https://news.example/{i}", f"Story {i}")
            one.items.insert(0, item)
            if i % 20 == 0:
                two.items.insert(0, Item(f"other-{i}", item.link + "?utm_source=two", item.title))
        published += batch
        if slot % 7 == 0:
            one.items = [Item("r" + x.guid, x.link, x.title, x.body) for x in one.items]
        if slot % 5 == 0:
            one.items.reverse()
        if slot % 3 == 0 and len(one.items) > batch:
            one.items[-1].body = f"edited {slot}"
        if slot % 11 == 0:
            one.items = [Item(x.guid, x.link + "?utm_medium=x", x.title, x.body) for x in one.items]
        clock.ms += 60_000
        await poll_all(slot, crash=slot % 10 == 0)
        say_recorded()
        # An unchanged feed polled again: a conditional request.
        clock.ms += 60_000
        before = len(one.requests)
        report = await poller.poll(sources[0], f"{slot}b", now_ms=clock.ms)
        unchanged_polls += 1
        not_modified += report.action == "unchanged" and len(one.requests) == before + 1
        slot += 1
    say_recorded()
    server.stop()
    expected = {f"Story {i}" for i in range(entries)}
    return {
        "entries": entries,
        "polls": slot * 3,
        "crashes": sum(1 for s in range(1, slot) if s % 10 == 0) * 2,
        "missed": len(expected - set(said)),
        "duplicate": sum(1 for n in said.values() if n > 1),
        "unchanged_polls": unchanged_polls,
        "share_304": not_modified / unchanged_polls,
    }


async def processes(sources: int, batches: int, kills: int, immediate: int) -> None:
    """Three `jarvis serve` processes on one PostgreSQL engine database (a scratch schema of
    JARVIS_TEST_POSTGRES_DSN), `kills` of them killed between recording and notifying — or,
    with `immediate` sources (speaking first on), between the gate's decision and saying."""
    from tests.faults.sources_processes import DECIDED, HOLD, run_three
    from tests.support.postgres import DEFAULT_DSN, scratch_schema

    server = HTTPServer(host="127.0.0.1", port=0)
    server.start()
    per_batch = 1000 // (sources * batches)
    dsn = os.environ.get("JARVIS_TEST_POSTGRES_DSN", DEFAULT_DSN)
    try:
        async with scratch_schema(dsn) as scratch:
            home = Path(tempfile.mkdtemp(prefix="jarvis-sources-3p-"))
            outcome = await run_three(
                home, scratch, server, sources=sources, batches=batches,
                per_batch=per_batch, kills=kills, immediate=immediate,
                hold=DECIDED if immediate else HOLD,
            )  # fmt: skip
    finally:
        server.stop()
    where = "deciding and saying" if immediate else "recording seen and notifying"
    print(
        f"3 processes, {outcome.entries} entries, {outcome.polls} polls, {outcome.kills} kill -9"
        f" between {where}: {len(outcome.missed)} missed,"
        f" {len(outcome.duplicate)} duplicate notifications ({outcome.notes} notifications,"
        f" {outcome.resent} sent again on the wire with the same id)"
    )
    if immediate:
        print(
            f"{immediate} of {sources} sources immediate through the speaking-first gate:"
            f" {outcome.said_now} entries said at once, {outcome.held} in held digests"
        )


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--entries", type=int, default=1000)
    parser.add_argument("--processes", action="store_true", help="three jarvis serve processes")
    parser.add_argument("--kills", type=int, default=4)
    parser.add_argument(
        "--immediate", type=int, default=0, help="with --processes: sources through the gate"
    )
    args = parser.parse_args()
    logging.getLogger("werkzeug").setLevel(logging.WARNING)
    if args.processes:
        asyncio.run(processes(sources=10, batches=4, kills=args.kills, immediate=args.immediate))
        return
    result = asyncio.run(run(args.entries))
    print(
        f"{result['entries']} entries, {result['polls']} polls, {result['crashes']} crashes"
        f" between recording seen and notifying: {result['missed']} missed,"
        f" {result['duplicate']} duplicate notifications"
    )
    print(
        f"unchanged feed polled {result['unchanged_polls']} times:"
        f" {result['share_304']:.1%} answered 304"
    )


if __name__ == "__main__":
    main()
