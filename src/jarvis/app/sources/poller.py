"""One poll of one source: the owner's pre-approval, a conditional GET through the web_fetch
guard, what the answer means (core/sources/poll.py), new entries recorded as seen together
with the id of the notification that will say them (the outbox), then the status.

Order matters for crashes: seen + notification ids are written before the status (and so
before the new ETag): a crash in between polls the same content again and finds it seen; the
notification ids in the seen file are started again by the ticker until they ran once.
"""

from __future__ import annotations

import asyncio
import os
from collections.abc import Callable
from dataclasses import dataclass, field, replace
from datetime import UTC, datetime
from pathlib import Path
from urllib.parse import urlsplit

import httpx

from jarvis.app.focus.hold import hold_point
from jarvis.app.sources.fetch import Answer, SourceFetcher
from jarvis.common.clock import Clock
from jarvis.core.scheduler.preapproval import PreapprovalStore
from jarvis.core.sources.definition import Source
from jarvis.core.sources.digest import matches
from jarvis.core.sources.entries import Entry, parse_body
from jarvis.core.sources.poll import SourceStatus, conditional_headers, judge, take_quota
from jarvis.core.sources.route import owner
from jarvis.core.sources.seen import SeenStore, classify
from jarvis.core.sources.store import read_status, write_status
from jarvis.core.tools.builtins._fetch_guard import FetchRefused
from jarvis.core.user_model import FILE_NAME as USER_MODEL_FILE
from jarvis.core.user_model import UserModelStore


@dataclass
class PollReport:
    source: str
    action: str  # blocked | paused | parse | unchanged | retry_later | gone | moved | failed
    line: str
    new: list[Entry] = field(default_factory=list)
    updated: list[Entry] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)


def owner_interests(home: Path, owner: str) -> list[str]:
    """The person's active `interests` facts in the user model (`~/.jarvis/user_model.json`,
    re-read as it changes; unreadable = none)."""
    facts = UserModelStore(home / USER_MODEL_FILE).facts(owner)
    return [f.value for f in facts if f.field == "interests" and f.status == "active"]


def note_ids(source: Source, slot: str, count: int) -> list[str]:
    """Digest: one notification for the poll's window; immediate: one batch for the poll
    (`…:now`), whose run says each entry (through the speaking-first gate when it is on)."""
    if source.notify == "off" or count == 0:
        return [""] * count
    if source.notify == "digest":
        return [f"extsrc-note:{source.id}:{slot}"] * count
    return [f"extsrc-note:{source.id}:{slot}:now"] * count


class SourcePoller:
    def __init__(
        self,
        home: Path,
        fetcher: SourceFetcher,
        preapprovals: PreapprovalStore,
        clock: Clock,
        speaks_first: Callable[[str], bool] = lambda agent_id: False,
    ) -> None:
        self.home = home
        self.fetcher = fetcher
        self.preapprovals = preapprovals
        self.clock = clock
        self.speaks_first = speaks_first  # agent id → does it speak first (who owns an entry)
        self.seen = SeenStore(home)

    async def poll(
        self, source: Source, slot: str, *, notify: bool = True, now_ms: int | None = None
    ) -> PollReport:
        """Poll now. `notify=False` (the CLI's `check`) records what is new as seen without
        notifications: the person saw it printed. `now_ms` is the time the status counts
        from (a run on the engine: the start of its poll period, the same in every process)."""
        status = read_status(self.home, source.id)
        now = self.clock.now_ms() if now_ms is None else now_ms
        missing = await self.preapprovals.missing(source)
        if missing:
            line = (
                f"blocked: the owner ({source.owner}) has not pre-approved"
                f" web_fetch to {source.host}"
            )
            write_status(self.home, source.id, replace(status, line=line))
            return PollReport(source.id, "blocked", line)
        if status.paused:
            return PollReport(source.id, "paused", status.line)
        url = status.url or source.url
        try:
            answer = await self.fetcher.get(url, conditional_headers(status))
        except (FetchRefused, httpx.HTTPError) as exc:
            line = f"failed: {' '.join(str(exc).split()) or type(exc).__name__}"
            write_status(self.home, source.id, replace(status, last_poll_ms=now, line=line))
            return PollReport(source.id, "failed", line)
        outcome = judge(status, answer.code, answer.headers, now, url)
        after = outcome.status
        if outcome.action == "moved":
            target = str(httpx.URL(url).join(after.url))
            after = replace(after, url=target)
            if (urlsplit(target).hostname or "").lower() != source.host:
                # Another host was never pre-approved: stop until the owner edits the source.
                line = f"{answer.code} moved to another host ({target}): paused until edited"
                after = replace(after, paused=True, line=line)
        report = PollReport(source.id, outcome.action, after.line)
        if outcome.action == "parse":
            try:
                after = await asyncio.to_thread(
                    self._take, source, slot, answer, after, report, notify, now
                )
                if report.notes:  # recorded, not yet said: the crash tests' kill point
                    hold_point(self.home, "source:recorded", f"source-held.{os.getpid()}")
            except ValueError as exc:
                line = f"{answer.code} but unreadable: {' '.join(str(exc).split())[:200]}"
                after = replace(after, etag="", last_modified="", line=line)
                report.action = "failed"
        report.line = after.line
        write_status(self.home, source.id, after)
        return report

    def _take(
        self,
        source: Source,
        slot: str,
        answer: Answer,
        status: SourceStatus,
        report: PollReport,
        notify: bool,
        now: int,
    ) -> SourceStatus:
        url = status.url or source.url
        kind, entries = parse_body(answer.body, answer.headers.get("content-type", ""), url)
        with self.seen.locked():
            return self._record(source, slot, kind, entries, status, report, notify, now)

    def _record(
        self,
        source: Source,
        slot: str,
        kind: str,
        entries: list[Entry],
        status: SourceStatus,
        report: PollReport,
        notify: bool,
        now: int,
    ) -> SourceStatus:
        found = classify(entries, self.seen.load(), source.id)
        interests = owner_interests(self.home, source.owner) if source.interests else None
        day = datetime.fromtimestamp(now / 1000, UTC).date().isoformat()
        first = not status.day  # no feed read before: its backlog is not news
        wanted = [e for e in found.new if matches(e, source.match, interests)]
        if kind == "page":
            wanted += [e for e in found.updated if matches(e, source.match, interests)]
        allowed = (
            0 if first or not notify else take_quota(status, len(wanted), source.max_per_day, day)
        )
        said = wanted[:allowed]
        rest = [e for e in found.new + found.updated if e not in said]
        notes = note_ids(source, slot, len(said))
        first_person = self.speaks_first(source.agent) if said else False
        paths: list[str] = [owner(source.notify, to_say=True, speaks_first=first_person)] * len(
            said
        )
        paths += ["none"] * len(rest)
        self.seen.append(source.id, said + rest, now, notes + [""] * len(rest), paths)
        report.new, report.updated = found.new, found.updated
        report.notes = sorted({n for n in notes if n})
        used = status.sent_today if status.day == day else 0
        line = (
            f"{status.line}: {len(found.new)} new, {len(found.updated)} updated, {len(said)} to say"
        )
        if first:
            line += " (first poll: what is there now counts as seen)"
        elif len(wanted) > allowed and notify:
            line += f", {len(wanted) - allowed} over max_per_day"
        return replace(status, sent_today=used + len(said), day=day, line=line)
