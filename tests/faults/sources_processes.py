"""Three `jarvis serve` processes on one PostgreSQL engine database and one data dir poll the
same external sources; a process is killed (SIGKILL) right after a poll recorded new entries as
seen with their notification ids — before its status is written and before anything is said.

The kill points are holds (`jarvis.app.focus.hold`): `source:recorded` (a poll recorded its
entries) or `source:decided` (an immediate batch recorded the speaking-first gate's decision,
nothing said yet); every process is armed with the run's one. The process
that reaches one writes `source-held.<pid>` in the data dir and freezes (its event loop included);
the run waits for that file, kills that process and starts it again with the same executor id
(so the engine recovers its runs). Notifications are counted on the wire: the run LISTENs on
the deployment's NOTIFY channel, where every process sends every `proactive_message`; each
entry must be carried by exactly one message that went out — its digest, its immediate message
or the digest of what the gate held back (read from the seen file's notes and decisions).

Shared by `tests/faults/test_sources_processes.py` and `benchmarks/sources.py --processes`.
Waits on conditions (files, engine rows, the wire), never on a fixed sleep; the feed's polls
come once a minute (a source's shortest `every`), so a run takes about a minute per batch.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import time
from collections import Counter, defaultdict
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import httpx
import psycopg
from pytest_httpserver import HTTPServer

from jarvis.app.focus.hold import ENV as HOLD_ENV
from jarvis.app.unattended.notify import channel_for
from jarvis.core.sources.definition import parse_source, write_source
from jarvis.core.sources.seen import SEEN_FILE, SeenStore
from jarvis.core.sources.store import read_status
from tests.integration.sources.feeds import FeedSite, Item
from tests.support.hang import HANG_GUARD_SEC
from tests.support.processes import Served, hud_headers, serve

HOLD = "source:recorded"
DECIDED = "source:decided"
MARKER = "source-held"
PERIOD_MS = 60_000  # `every: 1 minute`, the shortest a source may ask for
LOOK_AGAIN_SEC = 0.1  # how often a condition is looked at again (not a deadline)


@dataclass
class Outcome:
    entries: int = 0  # published after the first poll: each must be said once
    notes: int = 0  # notification ids recorded
    missed: list[str] = field(default_factory=list)
    duplicate: list[str] = field(default_factory=list)  # an entry in two notifications
    resent: int = 0  # a notification id on the wire more than once (windows show it once)
    kills: int = 0
    polls: int = 0
    said_now: int = 0  # immediate entries the gate let through, each its own message
    held: int = 0  # immediate entries the gate held back, said in a held digest


def _env(name: str, hold: str, speaking: bool) -> dict[str, str]:
    env = {
        "JARVIS_SCHEDULER__TICK_SEC": "0.2",
        "JARVIS_SCHEDULER__EXECUTOR_ID": f"sources-{name}",
        "JARVIS_SCHEDULER__REMINDERS": "false",
        "JARVIS_SECURITY__WEB_FETCH_ALLOW_PRIVATE": "true",
    }
    if speaking:  # immediate entries through the gate; never quiet hours (the run's hour varies)
        env["JARVIS_THINKING__PROACTIVE__ENABLED"] = "true"
        env["JARVIS_THINKING__PROACTIVE__QUIET_START"] = "0"
        env["JARVIS_THINKING__PROACTIVE__QUIET_END"] = "0"
    if hold:
        env[HOLD_ENV] = hold
    return env


class Fleet:
    """The three processes, each restartable under its executor id."""

    def __init__(
        self, home: Path, dsn: str, stack: contextlib.ExitStack, hold: str, speaking: bool
    ) -> None:
        self.home, self.dsn, self.stack = home, dsn, stack
        self.hold, self.speaking = hold, speaking
        self.served: dict[str, Served] = {}

    def start(self, name: str, armed: bool) -> Served:
        env = _env(name, self.hold if armed else "", self.speaking)
        served = self.stack.enter_context(serve(self.home, self.dsn, [], env))
        self.served[name] = served
        return served

    def held(self) -> tuple[str, Path] | None:
        for marker in self.home.glob(f"{MARKER}.*"):
            pid = int(marker.suffix[1:])
            for name, served in self.served.items():
                if served.process.pid == pid:
                    return name, marker
        return None

    async def kill_and_restart(self, name: str, marker: Path, armed: bool) -> None:
        process = self.served[name].process
        process.kill()  # kill -9, frozen right after recording
        process.wait(HANG_GUARD_SEC)
        marker.unlink()
        await self.up(self.start(name, armed))

    async def up(self, served: Served) -> None:
        """Until `served` answers health, failing at once if it ended; no budget of time (a
        loaded machine takes minutes to start three servers): pytest's timeout guards a hang."""
        async with httpx.AsyncClient() as http:
            while True:
                assert served.process.poll() is None, _log_tail(self.home)
                with contextlib.suppress(httpx.HTTPError):
                    answer = await http.get(f"http://{served.address}/api/health")
                    if answer.status_code == 200:
                        return
                await asyncio.sleep(LOOK_AGAIN_SEC)

    def alive(self) -> None:
        for name, served in self.served.items():
            assert served.process.poll() is None, (name, _log_tail(self.home))


def _log_tail(home: Path) -> str:
    return (home / "serve.log").read_text(encoding="utf-8", errors="replace")[-3000:]


async def _listen(dsn: str, wire: Counter[str], ready: asyncio.Event) -> None:
    async with await psycopg.AsyncConnection.connect(dsn, autocommit=True) as conn:
        await conn.execute(f"LISTEN {channel_for(dsn)}")
        ready.set()
        async for note in conn.notifies():
            event = json.loads(note.payload)["event"]
            if event.get("type") == "proactive_message":
                message_id = str(event.get("message_id", ""))
                if message_id.startswith(("extsrc-note:", "proactive:main:extsrc-")):
                    wire[message_id] += 1


def _seen_records(home: Path) -> list[dict[str, Any]]:
    path = home / SEEN_FILE
    if not path.exists():
        return []
    out = []
    for line in path.read_text(encoding="utf-8").splitlines():
        with contextlib.suppress(ValueError):
            out.append(json.loads(line))
    return out


def carriers(home: Path) -> dict[str, list[str]]:
    """Each recorded link → the message ids that carry it: its digest; for an immediate batch
    (decided), its own message or the held digest; undecided batches carry nothing yet."""
    store = SeenStore(home)
    found: dict[str, list[str]] = defaultdict(list)
    for note, box in store.notes().items():
        if not note.endswith(":now"):
            for entry in box.entries:
                found[entry.link].append(note)
            continue
        decision = store.decision(note)
        if decision is None:
            continue
        _, source, slot, _ = note.split(":")
        for i in decision.spoken:
            gated = f"proactive:main:extsrc-{source}-{slot}-{i}"
            found[box.entries[i].link].append(gated if decision.gate else f"{note[:-3]}{i}")
    return found


class Engine:
    """The engine's rows, read through one connection (the shared PostgreSQL has a limited
    number; opening one per look would compete with the servers' pools)."""

    def __init__(self, dsn: str) -> None:
        self.dsn = dsn
        self.conn: psycopg.AsyncConnection[Any] | None = None

    async def statuses(self, prefix: str) -> list[str] | None:
        """The statuses of the runs whose id starts with `prefix`; None when not readable now."""
        try:
            if self.conn is None or self.conn.closed:
                self.conn = await psycopg.AsyncConnection.connect(self.dsn, autocommit=True)
            cursor = await self.conn.execute(
                "SELECT status FROM workflow_status WHERE workflow_uuid LIKE %s", (prefix + "%",)
            )
            return [str(row[0]) for row in await cursor.fetchall()]
        except psycopg.OperationalError:
            return None  # the database is full or away for a moment: look again

    async def pending(self, prefix: str) -> bool:
        found = await self.statuses(prefix)
        return found is None or "PENDING" in found

    async def aclose(self) -> None:
        if self.conn is not None:
            await self.conn.close()


async def run_three(
    home: Path,
    dsn: str,
    http: HTTPServer,
    *,
    sources: int,
    batches: int,
    per_batch: int,
    kills: int,
    immediate: int = 0,
    hold: str = HOLD,
) -> Outcome:
    """Publish `batches` × `per_batch` new entries in each of `sources` feeds, one batch per
    poll period, with up to `kills` processes killed at the hold points; then count. The first
    `immediate` sources are `notify: immediate` with speaking first on (the gate decides);
    `hold` is where processes are killed."""
    home.mkdir(parents=True, exist_ok=True)
    outcome = Outcome()
    wire: Counter[str] = Counter()
    ready = asyncio.Event()
    listener = asyncio.create_task(_listen(dsn, wire, ready))
    await ready.wait()
    published: list[str] = []
    engine = Engine(dsn)
    try:
        with contextlib.ExitStack() as stack:
            sites = [FeedSite() for _ in range(sources)]
            feeds = [(site, site.serve(http, f"/feed{i}")) for i, site in enumerate(sites)]
            ids = [f"s{i}" for i in range(sources)]
            for n, (source_id, (_, url)) in enumerate(zip(ids, feeds, strict=True)):
                text = f"url: {url}\nevery: 1 minute\nmax_per_day: 1000\n"
                if n < immediate:
                    text += "notify: immediate\n"
                write_source(home, parse_source(source_id, text))
            fleet = Fleet(home, dsn, stack, hold, speaking=immediate > 0)
            for name in ("a", "b", "c"):
                fleet.start(name, armed=kills > 0)
            await asyncio.gather(*(fleet.up(s) for s in fleet.served.values()))
            async with httpx.AsyncClient(headers=hud_headers()) as client:
                address = fleet.served["a"].address
                for source_id in ids:
                    answer = await client.post(f"http://{address}/api/sources/{source_id}/grant")
                    assert answer.status_code == 200, answer.text
            # The first poll of each (empty feeds: nothing to say) marks it as read before.
            while not all(read_status(home, s).day for s in ids):
                fleet.alive()
                await asyncio.sleep(LOOK_AGAIN_SEC)

            async def settle(slot: int) -> None:
                """Until every source's poll of `slot` ended, killing held processes."""
                while True:
                    held = fleet.held()
                    if held is not None:
                        outcome.kills += 1
                        await fleet.kill_and_restart(*held, armed=outcome.kills < kills)
                        continue
                    fleet.alive()
                    ended = [await engine.statuses(f"extsrc:{s}:{slot}") for s in ids]
                    if all(found and "PENDING" not in found for found in ended):
                        outcome.polls += len(ids)
                        return
                    await asyncio.sleep(LOOK_AGAIN_SEC)

            for batch in range(batches):
                for n, (site, _) in enumerate(feeds):
                    # What real feeds do between polls: ids rewritten, order reversed.
                    site.items = [
                        Item(f"r{batch}-{i.guid}", i.link, i.title, i.body)
                        for i in reversed(site.items)
                    ]
                    for k in range(per_batch):
                        link = f"https://news.example/s{n}/b{batch}/{k}"
                        guid = f"s{n}-b{batch}-{k}"  # ids are unique across feeds
                        site.items.insert(0, Item(guid, link, f"s{n} b{batch} #{k}"))
                        published.append(link)
                slot = (int(time.time() * 1000) // PERIOD_MS + 1) * PERIOD_MS
                await settle(slot)

            # The end: every published entry recorded with a notification id that went out
            # (entries of a poll frozen beside the held one are read again next period).
            def unsaid() -> list[str]:
                carried = carriers(home)
                return [link for link in published if not any(wire[m] for m in carried[link])]

            while unsaid() or await engine.pending("extsrc-note:"):
                held = fleet.held()
                if held is not None:
                    outcome.kills += 1
                    await fleet.kill_and_restart(*held, armed=outcome.kills < kills)
                fleet.alive()
                await asyncio.sleep(LOOK_AGAIN_SEC)
    finally:
        await engine.aclose()
        listener.cancel()
        with contextlib.suppress(asyncio.CancelledError):
            await listener

    records = [r for r in _seen_records(home) if r.get("note")]
    per_link = Counter(r["link"] for r in records)
    carried = carriers(home)
    on_wire = {link: {m for m in carried[link] if wire[m]} for link in published}
    outcome.entries = len(published)
    outcome.notes = len({r["note"] for r in records})
    outcome.missed = [link for link in published if not on_wire[link]]
    outcome.duplicate = [link for link, count in per_link.items() if count > 1]
    outcome.duplicate += [link for link in published if len(on_wire[link]) > 1]
    outcome.resent = sum(1 for count in wire.values() if count > 1)
    outcome.said_now = sum(1 for ids in on_wire.values() for m in ids if ":extsrc-" in m)
    outcome.held = sum(1 for ids in on_wire.values() for m in ids if m.endswith(":held"))
    return outcome
