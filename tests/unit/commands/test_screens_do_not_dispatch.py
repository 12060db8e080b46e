"""The screens only draw: no module of `jarvis.ui` decides what a command name means (the command
table in core does). An AST scan finds comparisons with a slash-command literal (`== "/new"`,
`in ("/agent", …)`, `.startswith("/openloop")`) and `name == "…"` chains; the HUD's scripts are
scanned for `=== "/…"` and `startsWith("/…")`."""

from __future__ import annotations

import ast
import re
from pathlib import Path

import jarvis.ui

UI = Path(jarvis.ui.__file__).parent
_COMMAND = re.compile(r"^/[a-z][\w:-]*$")
_JS_DISPATCH = re.compile(r"""(===?\s*["'`]/[a-z]|startsWith\(\s*["'`]/[a-z])""")


def _is_command_literal(node: ast.AST) -> bool:
    if isinstance(node, ast.Constant) and isinstance(node.value, str):
        return bool(_COMMAND.match(node.value))
    if isinstance(node, (ast.Tuple, ast.List, ast.Set)):
        return any(_is_command_literal(element) for element in node.elts)
    return False


def dispatches(source: str) -> list[int]:
    """Lines of `source` that compare something with a slash-command name."""
    found = []
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Compare):
            operands = [node.left, *node.comparators]
            if any(_is_command_literal(operand) for operand in operands) or (
                isinstance(node.left, ast.Name)
                and node.left.id == "name"
                and any(isinstance(c, ast.Constant) for c in node.comparators)
            ):
                found.append(node.lineno)
        elif (
            isinstance(node, ast.Call)
            and isinstance(node.func, ast.Attribute)
            and node.func.attr == "startswith"
            and any(_is_command_literal(arg) for arg in node.args)
        ):
            found.append(node.lineno)
    return sorted(found)


def test_the_scan_catches_the_old_dispatch_chains() -> None:
    old = 'if name == "/new":\n    pass\nelif name in ("/exit", "/quit"):\n    pass\n'
    old += 'if line.strip() == "/stop":\n    pass\nif text.startswith("/openloop"):\n    pass\n'
    old += 'if name == "sessions":\n    pass\n'
    assert dispatches(old) == [1, 3, 5, 7, 9]
    assert dispatches('if line.startswith("/"):\n    pass\n') == []


def test_no_ui_module_dispatches_on_a_command_name() -> None:
    offenders = {
        str(path.relative_to(UI)): lines
        for path in sorted(UI.rglob("*.py"))
        if (lines := dispatches(path.read_text(encoding="utf-8")))
    }
    assert offenders == {}


def test_no_hud_script_dispatches_on_a_command_name() -> None:
    offenders = {
        path.name: [
            n
            for n, line in enumerate(path.read_text("utf-8").splitlines(), 1)
            if _JS_DISPATCH.search(line)
        ]
        for path in sorted((UI / "web" / "static").glob("*.js"))
    }
    assert {name: lines for name, lines in offenders.items() if lines} == {}
