"""Builds an agent's thinking step (router, inner-thought engine) from settings and profile."""

from __future__ import annotations

import functools
import html
from collections.abc import Callable
from datetime import datetime
from pathlib import Path
from zoneinfo import ZoneInfo

from jarvis.agent_layer.openloop.openloop_types import format_numbered
from jarvis.agent_layer.thought import RouterWeights, load_weights
from jarvis.agent_layer.thought.engine import (
    TEMPLATE_FILE,
    InnerThoughtEngine,
    TemplateSource,
    default_template,
)
from jarvis.app.infra import AppAssembly
from jarvis.app.proactive_learning import heard
from jarvis.app.profile import AgentProfile
from jarvis.common.atomic import atomic_write_text
from jarvis.common.i18n import Language, t
from jarvis.common.logging import get_logger
from jarvis.core.proactive.store import ProactiveStore
from jarvis.core.proactive.surface import pick, section
from jarvis.core.thinking import EngineMode, Fillers, TurnScope, TurnThinking, WaitTracker
from jarvis.core.user_model import FILE_NAME, UserModelStore, user_section

_log = get_logger("jarvis.thought")


@functools.cache
def shipped_weights() -> RouterWeights:
    return load_weights()


@functools.cache
def _user_models(path: Path) -> UserModelStore:
    return UserModelStore(path)


def user_model_store(app: AppAssembly) -> UserModelStore:
    """The one store of `~/.jarvis/user_model.json` (every agent and session shares it)."""
    return _user_models(app.settings.home / FILE_NAME)


def approval_waiting(app: AppAssembly, session_id: str) -> bool:
    """The approval broker's state: a request of this session is waiting for an answer."""
    channel = app.channels.get(session_id)
    return bool(getattr(channel, "pending", None))


def engine_mode(app: AppAssembly, profile: AgentProfile) -> EngineMode:
    """The profile's engine, else the settings', else off (auto in the offline demo)."""
    chosen = profile.thought_engine or app.settings.thinking.engine
    if chosen is not None:
        return chosen
    return "auto" if app.demo else "off"


def build_thinking(
    app: AppAssembly, profile: AgentProfile, waits: WaitTracker
) -> TurnThinking | None:
    settings = app.settings
    cfg = settings.thinking
    if not cfg.router:
        return None
    model = profile.model or settings.model
    mode = engine_mode(app, profile)
    engine = None
    if mode != "off":
        thought_model = cfg.model or model
        engine = InnerThoughtEngine(
            app.provider_for(thought_model),
            thought_model.model,
            TemplateSource(_template_path(app)),
            timeout_sec=cfg.timeout_sec,
            max_tokens=cfg.max_tokens,
        )
    tz = ZoneInfo(settings.timezone)

    async def open_loops(agent_id: str, user_id: str) -> str:
        return format_numbered(await app.openloops.current(agent_id, user_id), tz)

    def now() -> str:
        return datetime.fromtimestamp(app.clock.now_ms() / 1000, tz).strftime("%Y-%m-%d %H:%M %A")

    fillers = None
    if cfg.fillers:
        key = f"{model.provider}:{model.base_url}:{model.model}"
        fillers = Fillers(waits, key, cfg.filler_after_sec)
    person = None
    if settings.user_model.enabled:
        store, most = user_model_store(app), settings.user_model.max_facts

        def person(user_id: str, lang: Language) -> str:
            return user_section(store.facts(user_id), t("user_model.header", lang), most)

    return TurnThinking(
        shipped_weights(),
        person=person,
        unspoken=unspoken_thoughts(app) if speaks_first(app, profile) else None,
        heard=learner_hook(app, speaks_first(app, profile)),
        fillers=fillers,
        mode=mode,
        engine=engine,
        effort=model.think_effort,
        open_loops=open_loops if settings.openloop.enabled else None,
        pending_approval=lambda session_id: approval_waiting(app, session_id),
        now=now,
    )


def speaks_first(app: AppAssembly, profile: AgentProfile) -> bool:
    chosen = profile.proactive
    return app.settings.thinking.proactive.enabled if chosen is None else chosen


def unspoken_thoughts(app: AppAssembly) -> Callable[[TurnScope, str], str]:
    """Held-back thoughts of speaking first relevant to this message: offered once (marked used
    in the agent's file), to this turn's context only."""
    store = ProactiveStore(app.settings.home)

    def offer(scope: TurnScope, text: str) -> str:
        state = store.load(scope.agent_id)
        if not state.unspoken:
            return ""
        message = html.unescape(text)  # validation escaped it for display
        offered, kept = pick(message, state.unspoken, scope.user_id, app.clock.now_ms())
        if not offered:
            return ""
        state.unspoken = kept
        store.save(scope.agent_id, state)
        return section(offered, t("proactive.unspoken_header", scope.language))

    return offer


def learner_hook(app: AppAssembly, speaks: bool) -> Callable[[TurnScope, str], str]:
    """The feedback learner on every prompt (no model call): a reply to a proactive message,
    and "stop telling me about X" said in words (app/proactive_learning.py). `speaks`: whether
    this agent speaks first."""
    hook = heard(ProactiveStore(app.settings.home), speaks, ZoneInfo(app.settings.timezone))

    def read(scope: TurnScope, text: str) -> str:
        message = html.unescape(text)  # validation escaped it for display
        return hook(scope.agent_id, scope.user_id, message, app.clock.now_ms(), scope.language)

    return read


def _template_path(app: AppAssembly) -> Path:
    path = app.settings.home / TEMPLATE_FILE
    if not path.exists():  # the shipped default, put where the person can edit it
        try:
            atomic_write_text(path, default_template())
        except OSError as exc:
            _log.warning("could not write %s: %s", path, exc)
    return path
