"""External sources on the durable engine: a poll is the run `extsrc:<id>:<due>` (the start of
the poll period, the same in every process), a notification the run `extsrc-note:<id>:<due>`
(digest) or `…:<due>:<n>` (immediate). DBOS keeps one row per id, so each is done once
however many processes tick; the notification ids recorded in the seen file are started
again every tick, so one whose poll crashed before starting it still goes out (once).
"""

from __future__ import annotations

from typing import Any

from jarvis.app.infra import AppAssembly
from jarvis.app.sources.fetch import SourceFetcher
from jarvis.app.sources.poller import SourcePoller
from jarvis.app.unattended.engine import Engine
from jarvis.app.unattended.notify import ProactiveHub
from jarvis.common.logging import get_logger
from jarvis.core.scheduler.preapproval import PreapprovalStore
from jarvis.core.sources.definition import Source, load_sources
from jarvis.core.sources.digest import digest_text
from jarvis.core.sources.poll import due, due_slot
from jarvis.core.sources.seen import SeenStore
from jarvis.core.sources.store import read_status
from jarvis.core.tools.builtins._fetch_guard import FetchGuard

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
        self, app: AppAssembly, engine: Engine, hub: ProactiveHub, preapprovals: PreapprovalStore
    ) -> None:
        self.app = app
        self.engine = engine
        self.hub = hub
        self.home = app.settings.home
        self.poller = SourcePoller(self.home, source_fetcher(app), preapprovals, app.clock)
        self.errors: dict[str, str] = {}

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
        for note, (source_id, _) in SeenStore(self.home).notes().items():
            runs.append((note, NOTE, source_id, note))
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
        text = digest_text(source.id, found[1], self.app.settings.language)
        await self.hub.publish(source.owner, text, "proactive", note, source=source.id)
        return {"status": "ok", "entries": len(found[1])}

    async def interrupted(self, kind: str, ref: str, due: str) -> dict[str, Any]:
        """A poll cut short is not repeated (its recorded notifications still go out); a
        notification cut short is sent again with the same message id (windows show an id
        once), so a crash never loses it."""
        source = self._source(ref)
        if kind == NOTE and source is not None:
            return await self.say(source, due)
        return {"status": "failed", "reason": "interrupted"}
