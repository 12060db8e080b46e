"""What a model server's failure means, and the one line that says what to change.

Decisions (docs/models.md, "Errors and retries"):
- 429 and 5xx are retried with backoff, unless the body says the request itself is invalid
  (a template that cannot render it, a context overflow, a validation error): sending the same
  request again fails the same way, only later.
- A timeout is not retried: the server was reached and did not answer in `timeout_sec`; four
  full timeouts in a row would keep the person waiting for minutes. It names
  JARVIS_MODEL__TIMEOUT_SEC. A refused connection is retried (cheap, and a server may be starting).
- Server error text is shown as one line of at most ~200 characters with file paths cut to their
  last part: a traceback's last line says what went wrong, the paths say nothing to the person.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass
from typing import Any

from jarvis.common.i18n import Language, t
from jarvis.model_layer.events import ErrorKind, ProviderError
from jarvis.model_layer.providers._common import kind_for_status

DETAIL_MAX_CHARS = 200

# Words in an error body that mean "this request can never succeed as sent".
_INVALID_REQUEST_MARKERS = (
    "invalid_request",
    "invalid request",
    "exceed_context_size",
    "context_length_exceeded",
    "typeerror",
    "valueerror",
    "keyerror",
    "validation error",
    "nonetype",
    "can only concatenate",
    "template",
    "jinja",
    "not supported",
    "cannot use",
    "must be",
)
_OVERFLOW_MARKERS = (
    "exceed_context_size",
    "context_length_exceeded",
    "context window",
    "context length",
    "context size",
    "maximum context",
)
# (pattern, which group is the prompt size, which the context size)
_OVERFLOW_NUMBERS = (
    (re.compile(r"request \((\d+) tokens\) exceeds the available context size \((\d+)"), 1, 2),
    (re.compile(r"requested tokens \((\d+)\) exceed context window of (\d+)"), 1, 2),
    (re.compile(r"maximum context length is (\d+) tokens.*?(?:requested|in) (\d+) tokens"), 2, 1),
)
_PATH = re.compile(r"(?:[A-Za-z]:)?(?:[\\/][\w.@+~-]+){2,}")
_SPACE = re.compile(r"\s+")


@dataclass(frozen=True)
class ServerFailure:
    """An HTTP error answer, reduced to what decides retrying and wording."""

    status: int
    text: str  # the server's own message (or whole body), as sent
    body: Any = None

    @property
    def request_invalid(self) -> bool:
        if 400 <= self.status < 500 and self.status not in (408, 429):
            return True
        lowered = self.text.lower()
        return any(marker in lowered for marker in _INVALID_REQUEST_MARKERS)

    @property
    def retryable(self) -> bool:
        transient = self.status in (408, 429) or self.status >= 500
        return transient and not self.request_invalid

    def overflow(self) -> tuple[int | None, int | None] | None:
        """(prompt tokens, context size) when this is a context overflow, else None."""
        if isinstance(self.body, dict) and self.body.get("type") == "exceed_context_size_error":
            return _int(self.body.get("n_prompt_tokens")), _int(self.body.get("n_ctx"))
        lowered = self.text.lower()
        for pattern, prompt_group, ctx_group in _OVERFLOW_NUMBERS:
            match = pattern.search(lowered)
            if match:
                return int(match.group(prompt_group)), int(match.group(ctx_group))
        if self.status in (400, 413, 422, 500) and any(m in lowered for m in _OVERFLOW_MARKERS):
            return None, None
        return None


def failure_text(body: Any, fallback: str) -> str:
    """The server's message out of an error body (`{"error": {"message": …}}`, `{"detail": …}`)."""
    if isinstance(body, dict):
        for key in ("message", "detail", "error"):
            value = body.get(key)
            if isinstance(value, str) and value.strip():
                return value
            if isinstance(value, dict):
                return failure_text(value, fallback)
        return json.dumps(body, ensure_ascii=False)
    if isinstance(body, str) and body.strip():
        return body
    return fallback


def one_line(text: str, limit: int = DETAIL_MAX_CHARS) -> str:
    """A server's error text as one short line: a traceback's last line, paths cut."""
    lines = [line.strip() for line in text.strip().splitlines() if line.strip()]
    if len(lines) > 1 and any(line.startswith("Traceback") for line in lines):
        lines = lines[-1:]
    line = _PATH.sub(lambda m: "…/" + re.split(r"[\\/]", m.group(0))[-1], " ".join(lines))
    line = _SPACE.sub(" ", line).strip()
    return line if len(line) <= limit else line[: limit - 1].rstrip() + "…"


def status_error(
    failure: ServerFailure, *, base_url: str, model: str, lang: Language
) -> ProviderError:
    """The user's line for an HTTP error answer."""
    overflow = failure.overflow()
    if overflow is not None:
        prompt, window = overflow
        if prompt and window:
            message = t("model.context_overflow", lang, prompt=prompt, window=window)
        else:
            message = t("model.context_overflow_unknown", lang)
        return ProviderError(
            message=message, kind="context_overflow", prompt_tokens=prompt, context_window=window
        )
    kind: ErrorKind = kind_for_status(failure.status, failure.text)
    detail = one_line(failure.text)
    if kind == "auth":
        message = t("provider.auth", lang, base_url=base_url)
    elif kind == "model_not_found":
        message = t("provider.model_not_found", lang, base_url=base_url, model=model)
    elif failure.status == 404:
        kind = "not_found"
        message = _not_found(base_url, lang)
    elif failure.request_invalid:
        kind = "bad_request"
        message = t("model.request_rejected", lang, status=failure.status, detail=detail)
    else:
        message = t("model.server_error", lang, status=failure.status, detail=detail)
    return ProviderError(message=message, kind=kind)


def _not_found(base_url: str, lang: Language) -> str:
    trimmed = base_url.rstrip("/")
    if not trimmed.endswith("/v1"):
        return t("model.no_endpoint_try_v1", lang, base_url=base_url, suggested=f"{trimmed}/v1")
    return t("model.no_endpoint", lang, base_url=base_url)


def timeout_error(*, base_url: str, timeout_sec: float, lang: Language) -> ProviderError:
    return ProviderError(
        message=t("model.timeout", lang, base_url=base_url, seconds=f"{timeout_sec:g}"),
        kind="timeout",
    )


def _int(value: Any) -> int | None:
    return value if isinstance(value, int) and not isinstance(value, bool) else None
