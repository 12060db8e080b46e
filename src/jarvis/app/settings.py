"""Settings: each layer's config model composed into one `Settings` (pydantic-settings).

Sources, strongest first: constructor arguments, `JARVIS_*` environment variables (nested with
`__`, e.g. `JARVIS_MODEL__BASE_URL`), `.env`, then `config.yaml` in the data dir (`JARVIS_HOME`,
default `~/.jarvis`).
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any, Literal

from pydantic import (
    BaseModel,
    Field,
    SecretStr,
    ValidationError,
    field_validator,
    model_validator,
)
from pydantic.fields import FieldInfo
from pydantic_settings import (
    BaseSettings,
    PydanticBaseSettingsSource,
    SettingsConfigDict,
)
from pydantic_settings import SettingsError as PydanticSettingsError
from ruamel.yaml import YAML
from ruamel.yaml.error import YAMLError

from jarvis.agent_layer.config import LoopSettings
from jarvis.agent_layer.openloop.openloop_types import OpenLoopConfig
from jarvis.app.settings_sources import (
    Loc,
    config_language,
    env_parse_error,
    locate,
    provider_hint,
    seed_env_values,
    unknown_env,
    unknown_keys,
)
from jarvis.common.i18n import Language, t
from jarvis.common.language import (
    DEFAULT_LANGUAGE,
    chosen_language,
    environment_language,
    locale_language,
)
from jarvis.core.agents.runtime import OrchestrationLimits
from jarvis.core.approvals.pending import KEEP_FINISHED_SEC
from jarvis.core.approvals.words_answer import ApprovalWordsSettings
from jarvis.core.config import SecuritySettings
from jarvis.core.procedures.config import ProcedureSettings
from jarvis.core.scheduler.config import SchedulerSettings
from jarvis.core.thinking.config import ThinkingSettings
from jarvis.core.tools.builtins import BuiltinToolSettings
from jarvis.core.user_model.config import UserModelSettings
from jarvis.memory.config import MemorySettings
from jarvis.model_layer.config import ModelSettings
from jarvis.model_layer.embeddings import EmbeddingSettings

ENV_PREFIX = "JARVIS_"
CONFIG_FILE = "config.yaml"


def default_home() -> Path:
    return Path(os.environ.get("JARVIS_HOME") or "~/.jarvis").expanduser()


class StorageSettings(BaseModel):
    """`postgres` shares sessions, open loops and pending approvals between processes."""

    backend: Literal["files", "memory", "postgres"] = Field(
        "files", description="files (embedded default), memory (throwaway) or postgres."
    )
    postgres_dsn: str | None = Field(None, description="DSN when backend is postgres.")
    pending_retention_sec: float = Field(
        KEEP_FINISHED_SEC,
        gt=0,
        description="How long an answered approval is kept (a late answer gets 409), then deleted.",
    )

    @model_validator(mode="after")
    def _dsn_for_postgres(self) -> StorageSettings:
        if self.backend == "postgres" and not self.postgres_dsn:
            raise ValueError("backend postgres needs JARVIS_STORAGE__POSTGRES_DSN")
        return self


class OpenLoopSettings(OpenLoopConfig):
    enabled: bool = Field(True, description="Run the AGENDA judge beside every reply.")
    judge_every_turn: bool = Field(
        False,
        description="Ask the judge on every turn; False: only when open loops are shown or the "
        "words carry a cue of something to do later (time ahead, a commitment, a to-do verb).",
    )
    model: ModelSettings | None = Field(None, description="The judge's model; None: the main.")
    judge_timing: Literal["auto", "concurrent", "after_reply"] = Field(
        "auto",
        description="When the judge runs: beside the reply, or after it (a local server with one "
        "model slot would make the reply wait); auto: after it for local servers.",
    )


class PluginSettings(BaseModel):
    watch_files: bool = Field(True, description="Reload tools/, skills/, plugins/ on change.")


class WebSettings(BaseModel):
    """Where the HUD listens and who may reach it (see docs/security.md)."""

    host: str = "127.0.0.1"
    port: int = Field(8000, ge=1, le=65535)
    token: SecretStr | None = Field(
        None, description="The launch token; default: a new random one per `jarvis serve`."
    )
    allowed_hosts: list[str] = Field(
        default_factory=list,
        description="Host names besides 127.0.0.1, localhost, ::1 and the bind host.",
    )
    allowed_origins: list[str] = Field(
        default_factory=list,
        description="Origins (scheme://host:port) besides the HUD's own that may drive it.",
    )
    cookie_max_age_days: int = Field(
        30, ge=1, description="How long a HUD login (the session cookie) stays valid."
    )


class Settings(BaseSettings):
    model_config = SettingsConfigDict(
        env_prefix=ENV_PREFIX,
        env_nested_delimiter="__",
        env_file=".env",
        env_file_encoding="utf-8",
        extra="ignore",
    )

    home: Path = Field(default_factory=default_home, description="Data dir (JARVIS_HOME).")
    workspace: Path | None = Field(None, description="Where file tools work; default: cwd.")
    language: Language = Field(
        default_factory=lambda: locale_language(os.environ) or DEFAULT_LANGUAGE,
        description="UI and fixed-line language: ko or en; default: the terminal's locale "
        "($LC_ALL, $LC_MESSAGES, $LANG: ko_* is Korean, another language English), else ko.",
    )
    timezone: str = Field("Asia/Seoul", description="The user's timezone (IANA name).")
    model: ModelSettings = Field(default_factory=ModelSettings)
    loop: LoopSettings = Field(default_factory=LoopSettings)
    memory: MemorySettings = Field(default_factory=MemorySettings)
    procedures: ProcedureSettings = Field(default_factory=ProcedureSettings)
    security: SecuritySettings = Field(default_factory=SecuritySettings)
    approvals: ApprovalWordsSettings = Field(default_factory=ApprovalWordsSettings)
    tools: BuiltinToolSettings = Field(default_factory=BuiltinToolSettings)
    openloop: OpenLoopSettings = Field(default_factory=OpenLoopSettings)
    thinking: ThinkingSettings = Field(default_factory=ThinkingSettings)
    user_model: UserModelSettings = Field(default_factory=UserModelSettings)
    plugin: PluginSettings = Field(default_factory=PluginSettings)
    agents: OrchestrationLimits = Field(default_factory=OrchestrationLimits)
    # Raw entries: each is judged on its own (jarvis.core.mcp.sources), so one broken server
    # is reported by its file and key instead of stopping the app.
    mcp_servers: list[Any] = Field(
        default_factory=list, description="MCP servers (JARVIS_MCP_SERVERS as a JSON array)."
    )
    mcp_desktop_servers: dict[str, Any] | None = Field(
        None,
        alias="mcpServers",
        description="Claude-Desktop form: {name: {command, args, env} | {url, headers}}.",
    )
    storage: StorageSettings = Field(default_factory=StorageSettings)
    web: WebSettings = Field(default_factory=WebSettings)
    scheduler: SchedulerSettings = Field(default_factory=SchedulerSettings)

    @field_validator("home", "workspace")
    @classmethod
    def _expand(cls, value: Path | None) -> Path | None:
        return value.expanduser() if value is not None else None

    @field_validator("timezone")
    @classmethod
    def _known_timezone(cls, value: str) -> str:
        from zoneinfo import ZoneInfo, ZoneInfoNotFoundError

        try:
            ZoneInfo(value)
        except (ZoneInfoNotFoundError, ValueError):
            raise ValueError(
                f"unknown timezone {value!r} (use an IANA name like Asia/Seoul)"
            ) from None
        return value

    @property
    def workspace_dir(self) -> Path:
        return (self.workspace or Path.cwd()).resolve()

    @classmethod
    def settings_customise_sources(
        cls,
        settings_cls: type[BaseSettings],
        init_settings: PydanticBaseSettingsSource,
        env_settings: PydanticBaseSettingsSource,
        dotenv_settings: PydanticBaseSettingsSource,
        file_secret_settings: PydanticBaseSettingsSource,
    ) -> tuple[PydanticBaseSettingsSource, ...]:
        return (
            init_settings,
            env_settings,
            _SeedEnvSource(settings_cls),
            dotenv_settings,
            _YamlFileSource(settings_cls, init_settings),
        )


def _embedding_fields() -> list[str]:
    return list(EmbeddingSettings.model_fields)


class _SeedEnvSource(PydanticBaseSettingsSource):
    """The seed's spellings `JARVIS_MEMORY__EMBEDDING_PROVIDER` … (below the nested ones)."""

    def get_field_value(self, field: FieldInfo, field_name: str) -> tuple[Any, str, bool]:
        return None, field_name, False

    def __call__(self) -> dict[str, Any]:
        return seed_env_values(os.environ, _embedding_fields())


class _YamlFileSource(PydanticBaseSettingsSource):
    """`config.yaml` in the data dir (the lowest-priority source)."""

    def __init__(self, settings_cls: type[BaseSettings], init: PydanticBaseSettingsSource):
        super().__init__(settings_cls)
        home = init().get("home") or default_home()
        self.path = Path(home).expanduser() / CONFIG_FILE

    def get_field_value(self, field: FieldInfo, field_name: str) -> tuple[Any, str, bool]:
        return None, field_name, False

    def __call__(self) -> dict[str, Any]:
        if not self.path.is_file():
            return {}
        try:
            text = self.path.read_text(encoding="utf-8")
        except UnicodeDecodeError as exc:
            raise SettingsError(
                t("files.config_not_utf8", _env_language(), path=self.path, position=exc.start)
            ) from None
        except OSError as exc:
            reason = exc.strerror or str(exc)
            raise SettingsError(
                t("files.config_unreadable", _env_language(), path=self.path, reason=reason)
            ) from None
        try:
            data = YAML(typ="safe").load(text)
        except YAMLError as exc:
            raise SettingsError(f"{self.path}: not valid YAML: {exc}") from None
        if data is None:
            return {}
        if not isinstance(data, dict):
            raise SettingsError(f"{self.path}: the top level must be a mapping of settings")
        return data


class SettingsError(Exception):
    """A setting is wrong; the message is one line naming it."""


def load_settings(**overrides: Any) -> Settings:
    """Build settings or raise `SettingsError` with one clear line per wrong value, naming the
    environment variable or the config.yaml line it came from."""
    config = Path(overrides.get("home") or default_home()).expanduser() / CONFIG_FILE
    lang = _env_language(config)
    try:
        settings = Settings(**overrides)
    except ValidationError as exc:
        lines = [locate(err["loc"], err["msg"], config, lang) for err in exc.errors()]
        raise SettingsError("\n".join(lines)) from None
    except PydanticSettingsError as exc:  # a list/object environment value that is not JSON
        field = str(exc).split('"')[1] if '"' in str(exc) else ""
        raise SettingsError(env_parse_error(Settings, field, lang)) from None
    _check_providers(settings, config, lang)
    return settings


def config_warnings(settings: Settings) -> list[str]:
    """Keys in config.yaml and `JARVIS_*` variables that no setting has (each with a "did you
    mean")."""
    seed_names = [f"JARVIS_MEMORY__EMBEDDING_{name}" for name in _embedding_fields()]
    return [
        *unknown_keys(Settings, settings.home / CONFIG_FILE, settings.language),
        *unknown_env(Settings, os.environ, settings.language, seed_names),
    ]


def _check_providers(settings: Settings, config: Path, lang: Language) -> None:
    from jarvis.model_layer.providers.registry_defaults import default_provider_registry

    known = default_provider_registry(lang).names()
    models: list[tuple[Loc, ModelSettings | None]] = [
        (("model", "provider"), settings.model),
        (("openloop", "model", "provider"), settings.openloop.model),
        (("approvals", "words_model", "provider"), settings.approvals.words_model),
    ]
    for loc, model in models:
        if model is not None and model.provider not in known:
            hint = provider_hint(model.provider, known, lang)
            detail = t(
                "settings.unknown_provider",
                lang,
                provider=model.provider,
                known=", ".join(known),
                hint=hint,
            )
            raise SettingsError(locate(loc, detail, config, lang))


def _env_language(config: Path | None = None) -> Language:
    """The language for start-up errors, read before settings exist: the environment, else
    config.yaml's `language`."""
    explicit = chosen_language(os.environ.get("JARVIS_LANGUAGE"))
    configured = config_language(config) if config is not None else None
    return explicit or configured or environment_language(os.environ)
