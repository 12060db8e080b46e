"""The gate and the tools agree (issue 23, item 4): real files, real symlinks, the real gate.

- `glob` with `..` or an absolute pattern: the tool refuses it, so the gate blocks it with the
  same words (it used to say "no approval needed"); every pattern the gate lets through, the
  tool runs.
- A path nobody can follow (a symlink loop, a name too long, a parent that may not be searched,
  another user's `/proc/1/root`) makes the gate ask — never crash, never match a rule.
"""

from __future__ import annotations

import errno
import os
from pathlib import Path

import pytest

from jarvis.core.approvals.audit import AuditLog
from jarvis.core.policy.gate import Gate
from jarvis.core.policy.sandbox import Decision
from jarvis.core.tools.builtins import GlobTool
from jarvis.model_layer import ToolCall
from tests.integration.gate.test_boundary_gate import Setup, make
from tests.integration.gate.test_decide import TOOLS, ctx
from tests.integration.tools._helpers import run


@pytest.fixture
def setup(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Setup:
    home = tmp_path / "home"
    home.mkdir()
    monkeypatch.setenv("HOME", str(home))
    rules = "rules:\n  - {tool: read_file, pattern: '**'}\n  - {tool: write_file, pattern: '**'}\n"
    s = make(tmp_path, home, rules=rules)
    (s.ws / "src").mkdir()
    (s.ws / "src" / "a.txt").write_text("a")
    (tmp_path / "outside.txt").write_text("secret-ish")
    return s


GLOB_PATTERNS = [
    # (pattern, path or None, refused by both)
    ("**/*.txt", None, False),
    ("src/*.txt", None, False),
    ("*.txt", "src", False),
    ("..*", None, False),  # a name starting with two dots is not a climb
    ("src/..a", None, False),
    ("../*", None, True),
    ("../../*", None, True),
    ("src/../../*", None, True),
    ("./../*.txt", None, True),
    ("**/..", None, True),
    ("src//../*", None, True),
    ("..", "src", True),
    ("/etc/*", None, True),
    ("//etc/*", None, True),
]


@pytest.mark.parametrize(("pattern", "path", "refused"), GLOB_PATTERNS)
async def test_glob_gate_and_tool_agree_both_ways(
    setup: Setup, pattern: str, path: str | None, refused: bool
) -> None:
    args = {"pattern": pattern} | ({"path": path} if path else {})
    decision = await setup.decide("glob", dry_run=True, **args)
    result = await run(GlobTool(), setup.ws, **args)
    if refused:
        assert (decision.outcome, decision.reason) == ("block", "invalid_args")
        assert result.is_error and decision.detail in result.content
    else:
        assert (decision.outcome, decision.reason) == ("allow", "not_required")
        assert not result.is_error, result.content
    assert "outside.txt" not in result.content


async def test_a_blocked_glob_tells_the_model_why(setup: Setup) -> None:
    gate = Gate(setup.sandbox, AuditLog(), "en")
    call = ToolCall(id="c", name="glob", arguments={"pattern": "../../*"})
    verdict = await gate.check(TOOLS["glob"], call, ctx())
    assert verdict.refusal is not None
    assert verdict.refusal.content == (
        "glob was not run: pattern must not climb out with '..'; put the directory in path"
    )


def _unresolvable(path: Path) -> bool:
    try:
        os.path.realpath(path, strict=True)
    except OSError as exc:
        return exc.errno not in (errno.ENOENT, errno.ENOTDIR)
    return False


async def _asks(setup: Setup, raw: str) -> Decision:
    decision = await setup.decide("read_file", dry_run=True, path=raw)
    assert decision.outcome == "ask", (raw, decision)
    return decision


async def test_a_symlink_loop_asks_even_under_an_allow_rule(setup: Setup) -> None:
    (setup.ws / "loop1").symlink_to("loop2")
    (setup.ws / "loop2").symlink_to("loop1")
    for raw in ("loop1", "loop1/x", "src/../loop2/deeper/x"):
        await _asks(setup, raw)
        write = await setup.decide("write_file", dry_run=True, path=raw, content="x")
        assert (write.outcome, write.reason) == ("ask", "approval_required")
    # Without the loop, the same rule allows: the ask above is the loop's, not the rule's.
    allowed = await setup.decide("write_file", dry_run=True, path="src/b.txt", content="x")
    assert (allowed.outcome, allowed.reason) == ("allow", "rule:approvals.yaml")


async def test_a_name_too_long_asks(setup: Setup) -> None:
    await _asks(setup, "a" * 300 + "/x")
    await _asks(setup, "src/" + "b" * 5000)


async def test_a_path_with_a_nul_asks(setup: Setup) -> None:
    await _asks(setup, "src/a\x00b")


async def test_a_parent_that_may_not_be_searched_asks(setup: Setup, tmp_path: Path) -> None:
    locked = setup.ws / "locked"
    (locked / "sub").mkdir(parents=True)
    locked.chmod(0)
    try:
        raw = "locked/sub/x"
        if _unresolvable(setup.ws / raw):  # not as root: root searches any directory
            decision = await _asks(setup, raw)
            assert decision.reason == "approval_required"
        else:
            decision = await setup.decide("read_file", dry_run=True, path=raw)
            assert decision.outcome == "allow"  # inside the workspace, as the rule says
    finally:
        locked.chmod(0o755)


async def test_another_users_proc_root_asks(setup: Setup) -> None:
    # EACCES in a container without CAP_SYS_PTRACE; elsewhere it resolves to "/", outside the
    # workspace: either way the gate asks, and never raises.
    decision = await _asks(setup, "/proc/1/root/etc/passwd")
    assert decision.reason == "approval_required"


async def test_the_request_names_an_unresolvable_path(setup: Setup) -> None:
    (setup.ws / "loop1").symlink_to("loop1")
    call = ToolCall(id="c", name="read_file", arguments={"path": "loop1/x"})
    assert setup.sandbox.boundary_warnings(TOOLS["read_file"], call) == ["unresolvable_path"]
