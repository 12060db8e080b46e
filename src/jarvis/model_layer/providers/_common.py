"""Pieces both network providers share: argument parsing and error wording."""

from __future__ import annotations

import json
from typing import Any

from jarvis.common.i18n import Language, t
from jarvis.model_layer.events import ErrorKind, ProviderError
from jarvis.model_layer.messages import ToolCall


def parse_tool_call(call_id: str, name: str, raw_arguments: str) -> ToolCall:
    """Model-written JSON arguments → a ToolCall; bad JSON becomes an error the model can see."""
    if not raw_arguments.strip():
        return ToolCall(id=call_id, name=name, arguments={})
    try:
        parsed: Any = json.loads(raw_arguments)
    except json.JSONDecodeError as exc:
        return ToolCall(id=call_id, name=name, arguments_error=f"{exc.msg} at char {exc.pos}")
    if not isinstance(parsed, dict):
        kind = type(parsed).__name__
        return ToolCall(id=call_id, name=name, arguments_error=f"expected an object, got {kind}")
    return ToolCall(id=call_id, name=name, arguments=parsed)


def provider_error(
    kind: ErrorKind, detail: str, *, base_url: str, model: str, lang: Language
) -> ProviderError:
    """The one line the user sees, naming the setting to change where there is one."""
    if kind == "unreachable":
        message = t("provider.unreachable", lang, base_url=base_url)
    elif kind == "auth":
        message = t("provider.auth", lang, base_url=base_url)
    elif kind == "model_not_found":
        message = t("provider.model_not_found", lang, base_url=base_url, model=model)
    else:
        message = t("provider.failed", lang, detail=detail)
    return ProviderError(message=message, kind=kind)


def classify_sdk_error(
    exc: Exception, *, status_error: type[Any], connection_error: type[Any], mid_stream: bool
) -> tuple[ErrorKind, str]:
    """Both vendor SDKs share this shape: status errors, connection errors, everything else."""
    if isinstance(exc, status_error):
        return (
            kind_for_status(exc.status_code, f"{exc.message} {exc.body}"),
            f"HTTP {exc.status_code}: {exc.message}",
        )
    if isinstance(exc, connection_error) and not mid_stream:
        return "unreachable", str(exc)
    return "server", f"the stream broke off: {type(exc).__name__}: {exc}"


def kind_for_status(status: int, body: str) -> ErrorKind:
    if status in (401, 403):
        return "auth"
    if status == 404 and "model" in body.lower():
        return "model_not_found"
    if status == 429:
        return "rate_limited"
    if status >= 500:
        return "server"
    return "other"
