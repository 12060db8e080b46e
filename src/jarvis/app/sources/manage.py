"""Adding, pre-approving, removing and listing external sources (docs/sources.md): the functions
`jarvis sources` and the HUD's routes both call, so the two never differ.

A source is added off; `grant` is the owner's pre-approval of web_fetch to its host (the same
store and audit lines as a schedule's tools) and turns it on.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from jarvis.common.atomic import atomic_write_text
from jarvis.core.scheduler.preapproval import PreapprovalStore
from jarvis.core.sources.definition import (
    Source,
    edited_text,
    load_sources,
    one_line_error,
    source_file,
    write_source,
)
from jarvis.core.sources.store import read_status, status_file


def find_source(home: Path, source_id: str) -> Source:
    found, errors = load_sources(home)
    if source_id in errors:
        raise ValueError(f"{source_id}: broken file: {errors[source_id]}")
    for source in found:
        if source.id == source_id:
            return source
    raise LookupError(f"no source {source_id!r} in ~/.jarvis/external_sources/")


def add_source(home: Path, source_id: str, url: str, **fields: Any) -> Source:
    """Write a new definition, off; ValueError (one line) when the id is taken or a field is
    wrong (`every`, `url`, `notify`, …)."""
    path = source_file(home, source_id)
    if path.exists():
        raise ValueError(f"{source_id}: already exists ({path})")
    try:
        source = Source(id=source_id, url=url, **fields)
    except ValueError as exc:
        raise ValueError(one_line_error(exc)) from None
    write_source(home, source.model_copy(update={"enabled": False}))
    return source


async def grant_source(home: Path, store: PreapprovalStore, source_id: str, user: str) -> Source:
    """The owner pre-approves web_fetch to the source's host and turns it on (NotOwner for
    anyone else)."""
    source = find_source(home, source_id)
    await store.grant(source, ["web_fetch"], user)
    on = source.model_copy(update={"enabled": True})
    write_source(home, on)
    return on


def edit_source(home: Path, source_id: str, **changes: Any) -> Source:
    """Set `notify` / `max_per_day` in the definition file, written atomically with its other
    lines and comments kept. ValueError (one line) on a bad value: the file stays as it was."""
    path = source_file(home, source_id)
    try:
        text = path.read_text(encoding="utf-8")
    except FileNotFoundError:
        raise LookupError(f"no source {source_id!r} in ~/.jarvis/external_sources/") from None
    new_text, source = edited_text(source_id, text, changes)
    atomic_write_text(path, new_text)
    return source


def remove_source(home: Path, source_id: str) -> None:
    """Delete the definition and its status (what it saw stays in external_seen.jsonl)."""
    path = source_file(home, source_id)
    if not path.exists():
        raise LookupError(f"no source {source_id!r} in ~/.jarvis/external_sources/")
    path.unlink()
    status_file(home, source_id).unlink(missing_ok=True)


async def source_rows(
    home: Path, store: PreapprovalStore, owner: str | None = None
) -> list[dict[str, Any]]:
    """Every source (of `owner`, when given) with its state and the line its last poll left;
    broken files as `{id, error}`."""
    found, errors = load_sources(home)
    rows: list[dict[str, Any]] = [{"id": name, "error": why} for name, why in errors.items()]
    for source in found:
        if owner is not None and source.owner != owner:
            continue
        status = read_status(home, source.id)
        grants = [{"tool": g.tool, "state": g.state} for g in await store.status(source)]
        rows.append(
            {
                "id": source.id,
                "url": status.url or source.url,
                "every": source.every,
                "notify": source.notify,
                "max_per_day": source.max_per_day,
                "match": list(source.match),
                "interests": source.interests,
                "owner": source.owner,
                "host": source.host,
                "state": "paused" if status.paused else ("on" if source.enabled else "off"),
                "preapproval": grants,
                "line": status.line or "never polled",
            }
        )
    return rows


def row_line(row: dict[str, Any]) -> str:
    """One source as the CLI prints it."""
    if "error" in row:
        return f"{row['id']}: broken file: {row['error']}"
    grants = ", ".join(f"{g['tool']}:{g['state']}" for g in row["preapproval"])
    match = ", ".join(row["match"] + (["<interests>"] if row["interests"] else [])) or "*"
    return (
        f"{row['id']} [{row['state']}] {row['url']} every {row['every']}"
        f" notify {row['notify']} match {match} (owner {row['owner']}) {grants}"
        f" — {row['line']}"
    )
