"""Where a setting came from: one line per wrong value naming the environment variable or the
config.yaml line, and warnings for config.yaml keys that no setting has ("did you mean")."""

from __future__ import annotations

import difflib
import json
import os
import types
import typing
from collections.abc import Iterable, Iterator, Mapping
from pathlib import Path
from typing import Any

from pydantic import BaseModel
from ruamel.yaml import YAML
from ruamel.yaml.comments import CommentedMap, CommentedSeq
from ruamel.yaml.error import YAMLError

from jarvis.common.i18n import Language, t

ENV_PREFIX = "JARVIS_"
Loc = tuple[int | str, ...]


def env_name(loc: Loc) -> str:
    return ENV_PREFIX + "__".join(str(part).upper() for part in loc if not isinstance(part, int))


def locate(
    loc: Loc, detail: str, config: Path, lang: Language, environ: Mapping[str, str] | None = None
) -> str:
    """`detail` for the value at `loc`, naming the variable or file line that set it."""
    environ = os.environ if environ is None else environ
    name = env_name(loc)
    for length in range(len(loc), 0, -1):  # JARVIS_A__B, or JARVIS_A holding JSON for all of A
        candidate = env_name(loc[:length])
        if _env_has(environ, candidate):
            return t("settings.from_env", lang, name=candidate, detail=detail)
    seed_name = _seed_name(loc)
    if seed_name is not None and _env_has(environ, seed_name):
        return t("settings.from_env", lang, name=seed_name, detail=detail)
    line = yaml_line(config, loc)
    if line is not None:
        key = ".".join(str(part) for part in loc)
        return t("settings.from_file", lang, path=config, line=line, setting=key, detail=detail)
    return t("settings.invalid", lang, name=name, detail=detail)


def _seed_name(loc: Loc) -> str | None:
    if len(loc) == 3 and loc[:2] == ("memory", "embedding"):
        return _SEED_EMBEDDING_PREFIX + str(loc[2]).upper()
    return None


def _env_has(environ: Mapping[str, str], name: str) -> bool:
    return any(key.upper() == name for key in environ)


def env_parse_error(
    model: type[BaseModel], field: str, lang: Language, environ: Mapping[str, str] | None = None
) -> str:
    """The one line for a list/object environment value that is not JSON."""
    environ = os.environ if environ is None else environ
    prefix = ENV_PREFIX + field.upper()
    for key, value in sorted(environ.items()):
        if not (key.upper() == prefix or key.upper().startswith(prefix + "__")):
            continue
        annotation = _annotation(model, key.upper()[len(ENV_PREFIX) :].lower().split("__"))
        kind = _complex_kind(annotation)
        if kind is None or _is_json(value):
            continue
        example = {"list": '["bash", "write_file"]', "object": '{"key": "value"}'}[kind]
        if _list_item_model(annotation) is not None:
            example = '[{"name": "…"}]'
        detail = t(
            "settings.env_not_json",
            lang,
            kind=t(f"settings.kind.{kind}", lang),
            name=key,
            example=example,
            value=value[:60],
        )
        return t("settings.from_env", lang, name=key, detail=detail)
    return t("settings.invalid", lang, name=prefix, detail="not valid JSON")


def _is_json(text: str) -> bool:
    try:
        json.loads(text)
    except ValueError:
        return False
    return True


def _annotation(model: type[BaseModel], path: list[str]) -> Any:
    annotation: Any = model
    for part in path:
        found = _model_in(annotation)
        if found is None or part not in found.model_fields:
            return None
        annotation = found.model_fields[part].annotation
    return annotation


def _unwrapped(annotation: Any) -> list[Any]:
    """The members of `X | None` (or just X)."""
    if typing.get_origin(annotation) in (typing.Union, types.UnionType):
        return [a for a in typing.get_args(annotation) if a is not type(None)]
    return [annotation]


def _model_in(annotation: Any) -> type[BaseModel] | None:
    for member in _unwrapped(annotation):
        if isinstance(member, type) and issubclass(member, BaseModel):
            return member
    return None


def _complex_kind(annotation: Any) -> str | None:
    for member in _unwrapped(annotation):
        origin = typing.get_origin(member) or member
        if origin in (list, tuple, set, frozenset):
            return "list"
        if origin is dict or (isinstance(origin, type) and issubclass(origin, BaseModel)):
            return "object"
    return None


def _load_round_trip(path: Path) -> Any:
    try:
        return YAML().load(path.read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError, YAMLError):
        return None


def yaml_line(path: Path, loc: Loc) -> int | None:
    """1-based line of the key at `loc` in the YAML file, or None when it is not there."""
    node = _load_round_trip(path) if path.is_file() else None
    line = None
    for part in loc:
        if isinstance(node, CommentedMap) and part in node:
            line = node.lc.key(part)[0] + 1
            node = node[part]
        elif isinstance(node, CommentedSeq) and isinstance(part, int) and part < len(node):
            line = node.lc.item(part)[0] + 1
            node = node[part]
        else:
            return line if line is not None and part != loc[0] else None
    return line


def unknown_keys(model: type[BaseModel], path: Path, lang: Language) -> list[str]:
    """A warning line for every config.yaml key that no setting has."""
    data = _load_round_trip(path) if path.is_file() else None
    if not isinstance(data, CommentedMap):
        return []
    return [
        t(
            "settings.unknown_key",
            lang,
            path=path,
            line=line,
            setting=key,
            hint=_hint(key, known, lang),
        )
        for key, line, known in _walk(model, data, "")
    ]


def _walk(
    model: type[BaseModel], node: CommentedMap, prefix: str
) -> Iterator[tuple[str, int, list[str]]]:
    fields = model.model_fields
    for key in node:
        line = node.lc.key(key)[0] + 1
        if key not in fields:
            yield prefix + str(key), line, list(fields)
            continue
        annotation = fields[key].annotation
        child, value = _model_in(annotation), node[key]
        if child is not None and isinstance(value, CommentedMap):
            yield from _walk(child, value, f"{prefix}{key}.")
        item_model = _list_item_model(annotation)
        if item_model is not None and isinstance(value, CommentedSeq):
            for index, item in enumerate(value):
                if isinstance(item, CommentedMap):
                    yield from _walk(item_model, item, f"{prefix}{key}[{index}].")


def _list_item_model(annotation: Any) -> type[BaseModel] | None:
    for member in _unwrapped(annotation):
        if typing.get_origin(member) is list:
            return _model_in(typing.get_args(member)[0])
    return None


def _hint(key: str, known: list[str], lang: Language) -> str:
    leaf = key.rsplit(".", 1)[-1]
    close = difflib.get_close_matches(leaf, known, n=1, cutoff=0.6)
    return t("settings.did_you_mean", lang, suggestion=close[0]) if close else ""


def provider_hint(provider: str, known: list[str], lang: Language) -> str:
    close = difflib.get_close_matches(provider, known, n=1, cutoff=0.6)
    if close:
        return t("settings.did_you_mean", lang, suggestion=close[0])
    return t("settings.openai_compatible", lang)


def config_language(path: Path) -> Language | None:
    """`language` from config.yaml, for errors raised before the settings exist."""
    data = _load_round_trip(path) if path.is_file() else None
    value = data.get("language") if isinstance(data, CommentedMap) else None
    return "en" if value == "en" else "ko" if value == "ko" else None


# Seed 001's setup names the embedder with one underscore after EMBEDDING
# (`JARVIS_MEMORY__EMBEDDING_PROVIDER`); Jarvis nests with `__`. Both spellings work, the
# nested one wins when both are set.
_SEED_EMBEDDING_PREFIX = "JARVIS_MEMORY__EMBEDDING_"
# `JARVIS_*` variables that are read directly, not settings (tests' own are left alone too).
_NOT_SETTINGS = ("JARVIS_SERVE_DEMO",)
_NOT_SETTINGS_PREFIXES = ("JARVIS_TEST_", "JARVIS_DIFFERENTIAL_")


def seed_env_values(environ: Mapping[str, str], fields: Iterable[str]) -> dict[str, Any]:
    """`{"memory": {"embedding": {...}}}` from the seed's spellings of the embedder settings."""
    found: dict[str, Any] = {}
    for name, value in environ.items():
        upper = name.upper()
        leaf = upper.removeprefix(_SEED_EMBEDDING_PREFIX).lower()
        if upper.startswith(_SEED_EMBEDDING_PREFIX) and leaf in fields:
            found[leaf] = value
    return {"memory": {"embedding": found}} if found else {}


def unknown_env(
    model: type[BaseModel], environ: Mapping[str, str], lang: Language, aliases: Iterable[str]
) -> list[str]:
    """A warning line for every `JARVIS_*` variable that names no setting (a typo there is
    otherwise silently ignored, like an unknown config.yaml key)."""
    known_aliases = {alias.upper() for alias in aliases}
    lines = []
    for name in sorted(environ):
        upper = name.upper()
        if not upper.startswith(ENV_PREFIX) or upper in known_aliases:
            continue
        if upper in _NOT_SETTINGS or upper.startswith(_NOT_SETTINGS_PREFIXES):
            continue
        path = upper[len(ENV_PREFIX) :].lower().split("__")
        missing = _first_unknown(model, path)
        if missing is not None:
            hint = _hint(missing[0], missing[1], lang)
            lines.append(t("settings.unknown_env", lang, name=name, hint=hint))
    return lines


def _first_unknown(model: type[BaseModel], path: list[str]) -> tuple[str, list[str]] | None:
    """The first part of `path` that `model` has no field for, with the names it has; None
    when the path names a setting (or goes into a free-form value)."""
    for part in path:
        fields = model.model_fields
        if part not in fields:
            return part, list(fields)
        child = _model_in(fields[part].annotation)
        if child is None:
            return None  # a leaf, or a list/dict/JSON value: its inside is free-form
        model = child
    return None
