"""Seed 004's markers mean what the seed says: `# idempotent:` marks a deliberate exception to
idempotency (with its reason), `# ponytail:` a deliberate simplification (with its reason)."""

from __future__ import annotations

import re
from pathlib import Path

SRC = Path(__file__).resolve().parents[2] / "src" / "jarvis"
MARKER = re.compile(r"#\s*(idempotent|ponytail):(.*)$")
# Words that describe code that IS idempotent: such code needs no marker.
IS_IDEMPOTENT = re.compile(r"IF NOT EXISTS|safe to run|at every start", re.IGNORECASE)


def markers() -> list[tuple[str, int, str, str]]:
    found = []
    for path in sorted(SRC.rglob("*.py")):
        for number, line in enumerate(path.read_text("utf-8").splitlines(), 1):
            match = MARKER.search(line)
            if match:
                found.append((str(path.relative_to(SRC)), number, match[1], match[2].strip()))
    return found


def test_every_marker_gives_its_reason() -> None:
    short = [(f, n) for f, n, _, reason in markers() if len(reason.split()) < 5]
    assert short == []


def test_idempotent_marks_exceptions_not_code_that_is_idempotent() -> None:
    found = [(f, n, reason) for f, n, kind, reason in markers() if kind == "idempotent"]
    assert [(f, n) for f, n, reason in found if IS_IDEMPOTENT.search(reason)] == []
    marked = {f for f, _, _ in found}
    # The known exceptions (append-only logs and rows without a natural key, file state shared
    # by processes, work two processes may both do) carry it.
    assert {
        "core/approvals/audit.py",
        "core/procedures/learner.py",
        "core/scheduler/preapproval.py",
        "memory/service.py",
    } <= marked
