"""core/policy has no import circle (issue 25): the shell* modules share their types through
`shell_types`, below all of them."""

from __future__ import annotations

import grimp


def _cycles(package: str) -> list[list[str]]:
    graph = grimp.build_graph("jarvis", include_external_packages=False)
    modules = sorted(m for m in graph.modules if m.startswith(package))
    edges = {
        m: sorted(x for x in graph.find_modules_directly_imported_by(m) if x.startswith(package))
        for m in modules
    }
    found: list[list[str]] = []
    state: dict[str, int] = {}

    def visit(module: str, stack: list[str]) -> None:
        state[module] = 1
        stack.append(module)
        for target in edges[module]:
            if state.get(target) == 1:
                found.append([*stack[stack.index(target) :], target])
            elif target not in state:
                visit(target, stack)
        stack.pop()
        state[module] = 2

    for module in modules:
        if module not in state:
            visit(module, [])
    return found


def test_core_policy_has_no_import_circle() -> None:
    assert _cycles("jarvis.core.policy") == []
