"""External sources on the durable engine: a poll is the run `extsrc:<id>:<due>` (the start of
the poll period, the same in every process), a notification the run `extsrc-note:<id>:<due>`
(digest), `…:<due>:now` (an immediate batch) or `…:<due>:held` (what the speaking-first gate
held back of that batch, not started before its time). DBOS keeps one row per id, so each is
done once however many processes tick; the notification ids recorded in the seen file are
started again every tick, so one whose poll crashed before starting it still goes out (once).

An immediate batch records its decision (which entries are said now, which wait in the held
digest) before it says anything; a run cut short and run again repeats that decision, and its
messages keep their ids (windows show an id once).
"""

from __future__ import annotations

import asyncio
import os
from typing import TYPE_CHECKING, Any

from jarvis.app.focus.hold import hold_point
from jarvis.app.infra import AppAssembly
from jarvis.app.sources.fetch import SourceFetcher
from jarvis.app.sources.poller import SourcePoller
from jarvis.app.unattended.engine import Engine
from jarvis.app.unattended.notify import ProactiveHub
from jarvis.common.logging import get_logger
from jarvis.core.proactive.store import Said
from jarvis.core.scheduler.preapproval import PreapprovalStore
from jarvis.core.sources.definition import Source, load_sources
from jarvis.core.sources.digest import digest_text
from jarvis.core.sources.entries import Entry
from jarvis.core.sources.poll import due, due_slot
from jarvis.core.sources.route import held_due_ms
from jarvis.core.sources.seen import Decision, SeenStore
from jarvis.core.sources.store import read_status
from jarvis.core.tools.builtins._fetch_guard import FetchGuard

if TYPE_CHECKING:
    from jarvis.app.proactive.speaker import ProactiveSpeaker

_log = get_logger("jarvis.sources")
POLL = "source"
NOTE = "source_note"


def source_fetcher(app: AppAssembly) -> SourceFetcher:
    sec = app.settings.security
    return SourceFetcher(
        FetchGuard(sec.web_fetch_allow_private, tuple(sec.web_fetch_private_hosts))
    )


class SourceRuns:
    def __init__(
        self,
        app: AppAssembly,
        engine: Engine,
        hub: ProactiveHub,
        preapprovals: PreapprovalStore,
        speaker: ProactiveSpeaker | None = None,
    ) -> None:
        self.app = app
        self.engine = engine
        self.hub = hub
        self.home = app.settings.home
        self.speaker = speaker
        self.poller = SourcePoller(
            self.home, source_fetcher(app), preapprovals, app.clock, self.speaks_first
        )
        self.errors: dict[str, str] = {}

    def speaks_first(self, agent_id: str) -> bool:
        return self.speaker is not None and self.speaker.speaks_first(agent_id)

    def due_runs(self, now_ms: int) -> list[tuple[str, str, str, str]]:
        """(run id, kind, source id, due) for each poll due and each recorded notification."""
        sources, self.errors = load_sources(self.home)
        runs: list[tuple[str, str, str, str]] = []
        for source in sources:
            if not source.enabled:
                continue
            status = read_status(self.home, source.id)
            if not due(status, source.every_sec, now_ms):
                continue
            slot = str(due_slot(source.every_sec, now_ms))
            runs.append((f"extsrc:{source.id}:{slot}", POLL, source.id, slot))
        for note, box in SeenStore(self.home).notes().items():
            if box.due_ms <= now_ms:  # a held digest waits for its time
                runs.append((note, NOTE, box.source, note))
        return runs

    def _source(self, source_id: str) -> Source | None:
        sources, _ = load_sources(self.home)
        return next((s for s in sources if s.id == source_id), None)

    async def execute(self, kind: str, ref: str, due: str) -> dict[str, Any]:
        source = self._source(ref)
        if source is None:
            return {"status": "skipped", "reason": "no such source"}
        if kind == POLL:
            if not source.enabled:
                return {"status": "skipped", "reason": "disabled"}
            report = await self.poller.poll(source, due, now_ms=int(due))
            status = {"type": "source_status", "source": source.id, "line": report.line}
            await self.hub.send(source.owner, status)  # the HUD's Sources card shows the line
            # Its notifications are started by the next tick (from the seen file), not from
            # inside this run: one path for the normal case and for a crash right here.
            return {"status": report.action, "line": report.line, "notes": report.notes}
        return await self.say(source, due)

    async def say(self, source: Source, note: str) -> dict[str, Any]:
        found = SeenStore(self.home).notes().get(note)
        if found is None:
            return {"status": "skipped", "reason": "nothing recorded"}
        if note.endswith(":now"):
            return await self.say_now(source, note, found.entries)
        text = digest_text(source.id, found.entries, self.app.language_of(source.owner))
        await self.hub.publish(source.owner, text, "proactive", note, source=source.id)
        return {"status": "ok", "entries": len(found.entries)}

    async def say_now(self, source: Source, batch: str, entries: list[Entry]) -> dict[str, Any]:
        """An immediate batch: the decision first (recorded once), then each entry let through
        as its own message; the held ones are the held digest's, said at its time."""
        seen = SeenStore(self.home)
        slot = int(batch.split(":")[2])
        now = max(slot, self.app.clock.now_ms())  # never before the poll that recorded them
        decision = seen.decision(batch)
        if decision is None:
            decision = self._decide(source, slot, entries, now)
            held = [e for i, e in enumerate(entries) if i not in decision.spoken]
            await asyncio.to_thread(self._record, seen, source.id, batch, held, decision, now)
            # decided, nothing said yet: the crash tests' kill point
            hold_point(self.home, "source:decided", f"source-held.{os.getpid()}")
        lang = self.app.language_of(source.owner)  # the owner's page, else the setting
        for i in decision.spoken:
            text = digest_text(source.id, [entries[i]], lang)
            if not decision.gate:  # speaking first off: one message per entry, at once
                at_once = f"extsrc-note:{source.id}:{slot}:{i}"
                await self.hub.publish(source.owner, text, "proactive", at_once, source=source.id)
                continue
            message_id = f"proactive:{source.agent}:extsrc-{source.id}-{slot}-{i}"
            await self.hub.publish(
                source.owner, text, "proactive", message_id, source=source.id,
                agent_id=source.agent, topic=source.id, proactive_kind="news",
                actions=["thumbs_up", "thumbs_down"],
            )  # fmt: skip
            said = Said(message_id, source.owner, "news", source.id, text, now)
            if self.speaker is not None:
                self.speaker.said_at_once(source.agent, said)
        return {"status": "ok", "said": len(decision.spoken), "held": decision.held_note}

    def _decide(self, source: Source, slot: int, entries: list[Entry], now: int) -> Decision:
        if self.speaker is None or not self.speaker.speaks_first(source.agent):
            return Decision(list(range(len(entries))))
        lang = self.app.language_of(source.owner)  # the owner's page, else the setting
        texts = [digest_text(source.id, [e], lang) for e in entries]
        gated, quiet_end = self.speaker.gate_entries(
            source.agent, source.owner, source.id, texts, now
        )
        if not gated.held:
            return Decision(gated.spoken, gate=True)
        due = held_due_ms(slot, source.every_sec * 1000, quiet_end)
        return Decision(gated.spoken, f"extsrc-note:{source.id}:{slot}:held", due, gate=True)

    @staticmethod
    def _record(
        seen: SeenStore, source_id: str, batch: str, held: list[Entry], d: Decision, now: int
    ) -> None:
        with seen.locked():
            seen.decide(source_id, batch, held, d, now)

    async def interrupted(self, kind: str, ref: str, due: str) -> dict[str, Any]:
        """A poll cut short is not repeated (its recorded notifications still go out); a
        notification cut short is sent again with the same message id (windows show an id
        once), so a crash never loses it."""
        source = self._source(ref)
        if kind == NOTE and source is not None:
            return await self.say(source, due)
        return {"status": "failed", "reason": "interrupted"}
