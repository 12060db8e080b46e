"""InfraBuilder: one place builds the shared infrastructure; every front end uses it."""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import Protocol
from zoneinfo import ZoneInfo

import psycopg

from jarvis.agent_layer.openloop.pg_store import PostgresOpenLoopStore
from jarvis.agent_layer.openloop.service import OpenLoopService
from jarvis.agent_layer.openloop.store import (
    JsonlOpenLoopStore,
    MemoryOpenLoopStore,
    OpenLoopStore,
)
from jarvis.agent_layer.sessions import MemorySessionStore, SessionStore
from jarvis.agent_layer.sessions.jsonl_store import JsonlSessionStore
from jarvis.agent_layer.sessions.pg_store import PostgresSessionStore
from jarvis.app.config_watcher import McpConfigWatcher
from jarvis.app.demo import demo_provider
from jarvis.app.extension_watcher import ExtensionWatcher
from jarvis.app.learning import Learning, build_learning
from jarvis.app.mcp_config import server_set
from jarvis.app.mcp_setup import build_mcp
from jarvis.app.person_languages import FILE_NAME as LANGUAGES_FILE
from jarvis.app.person_languages import PersonLanguages
from jarvis.app.settings import Settings, SettingsError
from jarvis.common.clock import Clock, SystemClock
from jarvis.common.i18n import Language
from jarvis.common.logging import get_logger
from jarvis.common.pg import lazy_pool
from jarvis.core.agents.definitions import AgentDefinitions
from jarvis.core.approvals.audit import AuditLog, JsonlAuditLog
from jarvis.core.approvals.channel import ChannelRegistry
from jarvis.core.approvals.pending import MemoryPendingStore, PendingApprovalStore
from jarvis.core.approvals.pg_audit import PostgresAuditLog
from jarvis.core.approvals.pg_pending import PostgresPendingStore
from jarvis.core.approvals.service import ApprovalService
from jarvis.core.confine import Confiner
from jarvis.core.confine.auto_allow import sandboxed_allow
from jarvis.core.extensions import SkillRegistry
from jarvis.core.mcp import MCPManager
from jarvis.core.memory_tools import memory_tools
from jarvis.core.plugins import PluginHost
from jarvis.core.policy.gate import Gate, rule_change_recorder
from jarvis.core.policy.pg_rule_store import PostgresRuleStore
from jarvis.core.policy.rule_store import RuleStore
from jarvis.core.policy.sandbox import Sandbox
from jarvis.core.procedures.distill import TextModel, provider_model
from jarvis.core.tools.builtins import builtin_tools
from jarvis.core.tools.registry import ToolRegistry
from jarvis.memory import MemoryService
from jarvis.memory.pg_store import PostgresItemStore
from jarvis.memory.pg_working import PostgresWorkingStore
from jarvis.memory.sqlite_store import SqliteItemStore
from jarvis.model_layer.config import ModelSettings
from jarvis.model_layer.embeddings import make_embedder
from jarvis.model_layer.lanes import BackgroundProvider, ForegroundProvider, ModelLane
from jarvis.model_layer.provider import Provider, ProviderRegistry
from jarvis.model_layer.providers import server_info
from jarvis.model_layer.providers.registry_defaults import default_provider_registry

_log = get_logger("jarvis.app")


class Store(Protocol):
    async def open(self) -> None: ...

    async def aclose(self) -> None: ...


@dataclass
class AppAssembly:
    """The shared parts: one per process, shared by every session and connection."""

    settings: Settings
    providers: ProviderRegistry
    session_store: SessionStore
    memory: MemoryService
    tools: ToolRegistry
    clock: Clock
    rules: RuleStore
    audit: AuditLog
    pending: PendingApprovalStore
    channels: ChannelRegistry
    plugins: PluginHost
    sandbox: Sandbox
    gate: Gate
    openloops: OpenLoopService
    mcp: MCPManager
    skills: SkillRegistry
    extensions: ExtensionWatcher
    config_watcher: McpConfigWatcher
    # Sub-agent (`agents/`) and team (`team/`) files; the app's AgentRegistry follows them.
    definitions: AgentDefinitions
    demo: bool = False
    # Procedure learning (None only in assemblies built by hand, e.g. some tests).
    learning: Learning | None = None
    _provider_cache: dict[str, Provider] = field(default_factory=dict)
    _context_windows: dict[str, int | None] = field(default_factory=dict)
    _lanes: dict[str, ModelLane] = field(default_factory=dict)
    # The language of each person's page, as last opened (runs nobody watches, reminders and
    # speaking first speak it); kept across restarts in `<home>/languages.json`.
    person_languages: PersonLanguages = field(default_factory=PersonLanguages)

    def language_of(self, user_id: str) -> Language:
        """The person's language for lines sent to them unasked (a run's report, a reminder)."""
        return self.person_languages.get(user_id, self.settings.language)

    def provider_for(self, model: ModelSettings) -> Provider:
        """The person's calls (turns, sub-agents, answers in words): they go first on the model
        server, stopping any background call there (`model_layer/lanes.py`)."""
        return ForegroundProvider(self._provider(model), self.lane_for(model))

    def background_provider_for(self, model: ModelSettings) -> Provider:
        """Calls nobody waits for (AGENDA judge, reflection, distillation): capped at
        `background_max_tokens`, and they give way to the person's calls."""
        return BackgroundProvider(
            self._provider(model), self.lane_for(model), model.background_max_tokens
        )

    def lane_for(self, model: ModelSettings) -> ModelLane:
        """One lane per model server: models served by the same server share its slots."""
        key = "demo" if self.demo else f"{model.provider}|{model.base_url}"
        if key not in self._lanes:
            self._lanes[key] = ModelLane(yielding=not self.demo and model.runs_locally())
        return self._lanes[key]

    def _provider(self, model: ModelSettings) -> Provider:
        """One provider instance per model configuration (so fallbacks are remembered)."""
        if self.demo:
            return self._provider_cache.setdefault("demo", demo_provider())
        key = model.model_dump_json()
        if key not in self._provider_cache:
            self._provider_cache[key] = self.providers.create(model)
        return self._provider_cache[key]

    async def context_window(self, model: ModelSettings) -> int | None:
        """The model's context size: the setting, else what its server says (asked once)."""
        if model.context_window is not None:
            return model.context_window
        if self.demo or model.provider != "openai":
            return None
        key = f"{model.base_url}|{model.model}"
        if key not in self._context_windows:
            try:
                found = await server_info.context_window(model.base_url, model.model)
            except Exception:  # a probe never breaks a turn: the window stays unknown
                found = None
            self._context_windows[key] = found
        return self._context_windows[key]

    @property
    def shared(self) -> bool:
        """Several processes share this deployment's state (PostgreSQL)."""
        return self.settings.storage.backend == "postgres"

    def _stores(self) -> tuple[Store, ...]:
        return (
            self.session_store,
            self.openloops.store,
            self.pending,
            self.rules,
            self.audit,
            self.memory.store,
            self.memory.working,
        )

    async def open_storage(self) -> None:
        """Connect the stores (the database, on the postgres backend); a failure is one line."""
        try:
            for store in self._stores():
                await store.open()
        except (OSError, psycopg.Error, TimeoutError) as exc:
            first_line = str(exc).strip().splitlines()[0] if str(exc).strip() else type(exc)
            raise SettingsError(
                f"JARVIS_STORAGE__POSTGRES_DSN: cannot use the database: {first_line}"
            ) from None

    async def close_storage(self) -> None:
        for store in self._stores():
            await store.aclose()

    async def start(self) -> None:
        """Connect what lives outside the process: the database (a failure stops start-up),
        then MCP servers (failures are reported, not raised)."""
        await self.open_storage()
        if isinstance(self.pending, PostgresPendingStore):
            expired = await self.pending.expire_dead_owners()
            if expired:
                _log.warning("expired %d approvals left pending by a stopped process", expired)
        if self.settings.plugin.watch_files:
            await self.extensions.start()
        else:
            self.extensions.initial_load()
        # Servers connect in the background: start-up never waits for a slow one.
        servers = server_set(self.settings)
        await self.mcp.start(servers.configs, servers.problems)
        if self.settings.plugin.watch_files:
            await self.config_watcher.start()

    async def aclose(self) -> None:
        if self.learning is not None:
            await self.learning.idle.aclose()
        await self.extensions.stop()
        await self.config_watcher.stop()
        await self.mcp.aclose()
        for provider in self._provider_cache.values():
            await provider.aclose()
        await self.close_storage()


class InfraBuilder:
    def __init__(self, settings: Settings, *, demo: bool = False, clock: Clock | None = None):
        self.settings = settings
        self.demo = demo
        self.clock = clock or SystemClock()

    @property
    def _dsn(self) -> str | None:
        storage = self.settings.storage
        return storage.postgres_dsn if storage.backend == "postgres" else None

    def session_store(self) -> SessionStore:
        if self._dsn:
            return PostgresSessionStore(lazy_pool(self._dsn, max_size=8))
        if self.settings.storage.backend == "memory":
            return MemorySessionStore()
        return JsonlSessionStore(self.settings.home / "sessions")

    def openloop_store(self) -> OpenLoopStore:
        if self._dsn:
            return PostgresOpenLoopStore(lazy_pool(self._dsn))
        if self.settings.storage.backend == "memory":
            return MemoryOpenLoopStore()
        return JsonlOpenLoopStore(self.settings.home / "openloops.jsonl")

    def pending_store(self) -> PendingApprovalStore:
        if self._dsn:
            return PostgresPendingStore(lazy_pool(self._dsn), self._dsn, self._keep_finished_sec)
        return MemoryPendingStore(self._keep_finished_sec)

    @property
    def _keep_finished_sec(self) -> float:
        return self.settings.storage.pending_retention_sec

    def rule_store(self) -> RuleStore:
        if self._dsn:
            return PostgresRuleStore(lazy_pool(self._dsn), self.settings.home, self.clock)
        return RuleStore(self.settings.home, self.clock)

    def audit_log(self) -> AuditLog:
        if self._dsn:
            return PostgresAuditLog(lazy_pool(self._dsn))
        if self.settings.storage.backend == "memory":
            return AuditLog()
        return JsonlAuditLog(self.settings.home / "audit.jsonl")

    def memory_service(self) -> MemoryService:
        """Long-term memory in PostgreSQL when shared, in `memory.db` (SQLite) on the files
        backend, in the process on the memory backend; working memory follows the database."""
        memory = self.settings.memory
        embedder = make_embedder(memory.embedding)
        if self._dsn:
            return MemoryService(
                memory,
                PostgresItemStore(lazy_pool(self._dsn)),
                PostgresWorkingStore(lazy_pool(self._dsn)),
                embedder,
                language=self.settings.language,
            )
        language = self.settings.language
        if self.settings.storage.backend == "files":
            store = SqliteItemStore(self.settings.home / "memory.db")
            return MemoryService(memory, store, embedder=embedder, language=language)
        return MemoryService(memory, embedder=embedder, language=language)

    def tool_registry(self) -> ToolRegistry:
        registry = ToolRegistry()
        settings = self.settings
        registry.register_all(
            builtin_tools(
                settings.tools,
                settings.security,
                jarvis_home=settings.home,
                language=settings.language,
            )
        )
        return registry

    def build(self) -> AppAssembly:
        settings = self.settings
        settings.home.mkdir(parents=True, exist_ok=True)
        rules = self.rule_store()
        audit = self.audit_log()
        rules.on_change = rule_change_recorder(audit, self.clock)
        pending = self.pending_store()
        channels = ChannelRegistry()
        plugins = PluginHost()
        sandbox = Sandbox(
            settings=settings.security,
            rules=rules,
            approvals=ApprovalService(pending, channels),
            workspace=settings.workspace_dir,
            clock=self.clock,
            plugins=plugins,
            jarvis_home=settings.home,
            confined=sandboxed_allow(settings.security, settings.home),
        )
        tools = self.tool_registry()
        memory = self.memory_service()
        tools.register_all(memory_tools(memory, self.clock, settings.language))
        skills = SkillRegistry()
        # The sampler reaches the model through the assembly, which exists only below.
        built: list[AppAssembly] = []
        mcp = build_mcp(
            settings,
            tools,
            sandbox.approvals,
            self.clock,
            lambda: (built[0].provider_for(settings.model), settings.model),
        )
        definitions = AgentDefinitions(settings.home, settings.model)
        assembly = AppAssembly(
            settings=settings,
            providers=default_provider_registry(settings.language),
            session_store=self.session_store(),
            memory=memory,
            tools=tools,
            clock=self.clock,
            rules=rules,
            audit=audit,
            pending=pending,
            channels=channels,
            plugins=plugins,
            sandbox=sandbox,
            gate=Gate(sandbox, audit, settings.language),
            openloops=OpenLoopService(
                self.openloop_store(),
                settings.openloop,
                ZoneInfo(settings.timezone),
                self.clock,
                make_embedder(settings.memory.embedding),
            ),
            mcp=mcp,
            config_watcher=McpConfigWatcher(settings, mcp),
            skills=skills,
            extensions=ExtensionWatcher(
                settings.home,
                tools,
                plugins,
                skills,
                definitions,
                Confiner.from_settings(
                    settings.security, Path.home(), settings.home, settings.language
                ),
            ),
            definitions=definitions,
            demo=self.demo,
            person_languages=PersonLanguages(settings.home / LANGUAGES_FILE),
        )
        built.append(assembly)
        assembly.learning = build_learning(
            settings.home, assembly.memory, _main_model(assembly), settings.procedures, self.clock
        )
        return assembly


def _main_model(app: AppAssembly) -> TextModel:
    """The configured model, looked up at call time (a config reload may change it). Learning
    is background work: capped, and it gives way to the person's turn."""

    async def complete(system: str, prompt: str) -> str | None:
        model = app.settings.model
        provider = app.background_provider_for(model)
        return await provider_model(provider, model.model)(system, prompt)

    return complete


def build_app(settings: Settings, *, demo: bool = False, clock: Clock | None = None) -> AppAssembly:
    return InfraBuilder(settings, demo=demo, clock=clock).build()
