"""`ask_agent` never spends another agent's standing consent (issue 23, item 4).

A prompt-injected JARVIS could ask KAREN to run what only KAREN was trusted with: KAREN's own
ALWAYS rule must not approve a call JARVIS asked for unless JARVIS holds a rule for it too; a
deny rule of either agent blocks it; the audit line names both agents. Real sessions, real rule
files, the scripted model and a scripted person.
"""

from __future__ import annotations

from pathlib import Path

from tests.integration.agents._helpers import Human, registry, use_model
from tests.integration.agents.test_team import app_with_karen, jarvis_asks_karen, open_session

RULE = "rules:\n  - {tool: bash, pattern: echo from-karen%s}\n"


def rules(home: Path, agent: str | None, action: str = "") -> None:
    """An ALWAYS rule for KAREN's command, in `agent`'s file (None: the shared file)."""
    path = home / "approvals.yaml" if agent is None else home / "approvals" / f"{agent}.yaml"
    path.parent.mkdir(exist_ok=True)
    path.write_text(RULE % (f", action: {action}" if action else ""), encoding="utf-8")


async def ask_karen(home: Path, answers: list[str | None]) -> tuple[str, Human, list[object]]:
    app, _ = app_with_karen(home)
    model = jarvis_asks_karen()
    use_model(app, model)
    agents = registry(app)
    human = Human(app, answers)
    jarvis = await open_session(agents, "main", human)
    outcome = await jarvis.prompt("ask karen")
    audit = [r for r in await app.audit.query() if r.tool == "bash"]
    return outcome.answer, human, audit  # type: ignore[return-value]


async def test_karens_own_rule_does_not_approve_what_jarvis_asked_for(tmp_path: Path) -> None:
    rules(tmp_path, "karen")
    answer, human, audit = await ask_karen(tmp_path, ["deny"])
    (request,) = human.requests  # the person was asked, despite KAREN's rule
    assert request.agent_path == ["main", "karen"]
    assert "ran from-karen" not in answer
    (line,) = audit
    assert (line.agent, line.asked_by, line.outcome, line.reason) == (
        "karen",
        "main",
        "deny",
        "user_deny",
    )


async def test_a_rule_both_agents_hold_approves(tmp_path: Path) -> None:
    rules(tmp_path, "karen")
    rules(tmp_path, "main")
    answer, human, audit = await ask_karen(tmp_path, [])
    assert human.requests == [] and answer == "KAREN says: ran from-karen"
    (line,) = audit
    assert (line.agent, line.asked_by, line.outcome) == ("karen", "main", "allow")
    assert line.reason == "rule:approvals/karen.yaml"


async def test_a_shared_rule_approves_for_everyone(tmp_path: Path) -> None:
    rules(tmp_path, None)
    answer, human, _ = await ask_karen(tmp_path, [])
    assert human.requests == [] and answer == "KAREN says: ran from-karen"


async def test_the_askers_deny_rule_blocks_what_karen_may_do(tmp_path: Path) -> None:
    rules(tmp_path, "karen")
    rules(tmp_path, "main", "deny")
    answer, human, audit = await ask_karen(tmp_path, ["allow"])
    assert human.requests == [] and "ran from-karen" not in answer
    (line,) = audit
    assert (line.outcome, line.reason, line.asked_by) == (
        "block",
        "rule:approvals/main.yaml",
        "main",
    )
