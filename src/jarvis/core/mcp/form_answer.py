"""An elicitation form answered in one typed line (`name=Ada check=yes`, shell quoting), checked
against the form's schema before it goes to the server.

Elicitation schemas are flat objects of primitives (string, number, integer, boolean, enums and
arrays of enum values). A mistake is caught here so the person can type the line again: a server
that receives content breaking its schema usually fails the whole tool call instead.
"""

from __future__ import annotations

import shlex
from typing import Any, Final

_YES: Final = frozenset({"true", "yes", "y", "1", "on", "예", "네", "응"})
_NO: Final = frozenset({"false", "no", "n", "0", "off", "아니오", "아니요", "아니"})


class FormError(ValueError):
    """What is wrong with a typed answer: `problem` names its line in the message catalog
    (`mcp.form.<problem>`), `fields` fill it in."""

    def __init__(self, problem: str, **fields: str) -> None:
        super().__init__(problem, fields)
        self.problem = problem
        self.fields = fields


def form_content(schema: dict[str, Any] | None, text: str) -> dict[str, Any]:
    """The typed line as form content: values converted to their field's type and checked,
    defaults filled in. Raises FormError when the line cannot be sent as it is."""
    properties: dict[str, Any] = (schema or {}).get("properties") or {}
    try:
        words = shlex.split(text)
    except ValueError as exc:
        raise FormError("unreadable", reason=str(exc)) from None
    content: dict[str, Any] = {
        key: spec["default"] for key, spec in properties.items() if "default" in spec
    }
    for word in words:
        key, sep, value = word.partition("=")
        if not sep:
            raise FormError("not_a_pair", word=word)
        if key not in properties:
            raise FormError("unknown_field", field=key, fields=", ".join(properties))
        content[key] = _typed(key, properties[key], value)
    missing = [key for key in (schema or {}).get("required") or [] if key not in content]
    if missing:
        raise FormError("missing", fields=", ".join(missing))
    return content


def choices(spec: dict[str, Any]) -> list[str]:
    """The values a field allows (`enum`, `oneOf`/`anyOf` consts, or its items' ones)."""
    if spec.get("type") == "array":
        return choices(spec.get("items") or {})
    if "enum" in spec:
        return [str(value) for value in spec["enum"]]
    options = spec.get("oneOf") or spec.get("anyOf") or []
    return [str(option["const"]) for option in options if "const" in option]


def _typed(key: str, spec: dict[str, Any], value: str) -> Any:
    kind = spec.get("type")
    if kind == "boolean":
        word = value.strip().lower()
        if word not in _YES | _NO:
            raise FormError("not_a_boolean", field=key, value=value)
        return word in _YES
    if kind in ("integer", "number"):
        return _number(key, spec, value, integer=kind == "integer")
    allowed = choices(spec)
    if kind == "array":
        items = [item for item in value.split(",") if item]
        wrong = [item for item in items if allowed and item not in allowed]
    else:
        items, wrong = [], [value] if allowed and value not in allowed else []
    if wrong:
        raise FormError("not_a_choice", field=key, value=wrong[0], choices=", ".join(allowed))
    return items if kind == "array" else value


def _number(key: str, spec: dict[str, Any], value: str, *, integer: bool) -> int | float:
    try:
        number: int | float = int(value) if integer else float(value)
    except ValueError:
        key_name = "not_an_integer" if integer else "not_a_number"
        raise FormError(key_name, field=key, value=value) from None
    low, high = spec.get("minimum"), spec.get("maximum")
    if (low is not None and number < low) or (high is not None and number > high):
        span = f"{'' if low is None else low}…{'' if high is None else high}"
        raise FormError("out_of_range", field=key, value=value, range=span)
    return number
