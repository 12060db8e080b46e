"""The state every route and connection shares (`WebApp`): the assembly, the agents and their
builders, the command table, the approval brokers, login and rate limits. Its own module, below
the routes that use it, so the web package has no import circle."""

from __future__ import annotations

import asyncio
from collections.abc import Coroutine
from typing import Any

from fastapi import HTTPException

from jarvis.app.agent_registry import AgentRegistry
from jarvis.app.commands import build_commands
from jarvis.app.infra import AppAssembly
from jarvis.app.unattended.service import Unattended
from jarvis.common.i18n import Language
from jarvis.core.approvals.pg_pending import PostgresPendingStore
from jarvis.core.session import AgentSession
from jarvis.ui.web.auth import Authenticator, RateLimiter
from jarvis.ui.web.broker import BrokerRegistry
from jarvis.ui.web.launch_token import launch_token_for
from jarvis.ui.web.screen_marks import ScreenMarks
from jarvis.ui.web.session_cookie import CookieSigner, load_or_create_secret

_DAY_SEC = 86_400


class WebApp:
    """State shared by the routes: the assembly, the agents and their builders, brokers."""

    def __init__(self, assembly: AppAssembly) -> None:
        self.assembly = assembly
        self.agents = AgentRegistry(assembly)
        self.builder = self.agents.main
        self.commands = build_commands(self.agents)
        self.unattended = Unattended(assembly, self.agents.builders())
        settings = assembly.settings
        # What the screen showed that the history does not keep (stops, run times).
        self.marks = ScreenMarks(settings.home / "hud" / "marks")
        self.brokers = BrokerRegistry(
            assembly.channels,
            shared=assembly.shared,
            granted=lambda session, call: self.marks.approved(
                session, call, assembly.clock.now_ms()
            ),
        )
        self.lang: Language = settings.language
        self.signer = CookieSigner(
            load_or_create_secret(settings.home), settings.web.cookie_max_age_days * _DAY_SEC
        )
        self.auth = Authenticator(
            settings.security.api_keys, self.signer, launch_token_for(settings)
        )
        self.limiter = RateLimiter(assembly.settings.security.rate_limit_per_minute)
        self._turns: set[asyncio.Task[Any]] = set()

    async def session_for(
        self,
        session_id: str | None,
        user: str,
        agent: str | None = None,
        lang: Language | None = None,
    ) -> AgentSession:
        """The session asked for, or a new one of `agent` (main when not given)."""
        if lang is not None:  # what this person reads: their unattended lines too
            self.assembly.person_languages[user] = lang
        if not session_id:
            builder = self.agents.get(agent)
            if builder is None:
                raise HTTPException(404, f"no such agent: {agent}")
            return await builder.create(user_id=user, lang=lang)
        session = await self.agents.open(session_id, lang)
        if session is None:
            raise HTTPException(404, f"no such session: {session_id}")
        if session.info.user_id != user:
            raise HTTPException(403, "this session belongs to another user")
        return session

    def follow_other_processes(self) -> None:
        """With PostgreSQL, requests made and resolved by other processes reach our tabs."""
        store = self.assembly.pending
        if isinstance(store, PostgresPendingStore):
            store.subscribe(lambda event: self._spawn(self._on_notification(event)))

    async def _on_notification(self, event: dict[str, Any]) -> None:
        broker = self.brokers.existing(str(event.get("session_id", "")))
        if broker is None or not broker.connections:
            return
        item = await self.assembly.pending.get(str(event.get("id", "")))
        if item is None:
            return
        if event.get("event") == "created" and item.status == "pending":
            broker.remote_request(item.request)
        elif event.get("event") == "resolved":
            broker.remote_resolved(item.request.id, item.status)

    async def show_stored_requests(self, session: AgentSession) -> None:
        """A tab attaching here sees requests that another process is waiting on."""
        if self.assembly.shared:
            broker = self.brokers.for_session(session.id)
            for request in await self.assembly.pending.pending_for_session(session.id):
                broker.remote_request(request)

    def _spawn(self, work: Any) -> None:
        task = asyncio.ensure_future(work)
        self._turns.add(task)
        task.add_done_callback(self._turns.discard)

    def start_turn(self, session: AgentSession, text: str) -> None:
        self.start_work(session, session.prompt(text))

    def start_work(self, session: AgentSession, work: Coroutine[Any, Any, Any]) -> None:
        task = asyncio.create_task(work)
        self._turns.add(task)
        task.add_done_callback(self._turns.discard)
