"""Dangerous commands judged on the parsed form: every destructive spelling is blocked, no
harmless look-alike is (seed 000 위험 명령, SPEC §16)."""

from __future__ import annotations

import pytest

from jarvis.core.policy.dangerous import DEFAULT_DANGEROUS_COMMANDS, DangerousMatcher
from jarvis.core.policy.destructive import find_danger
from jarvis.core.policy.shell import analyze_shell
from tests.unit.policy.destructive_table import DESTRUCTIVE, EXPANDED, HARMLESS, HOME, REACH

REGEXES = DangerousMatcher.compile(DEFAULT_DANGEROUS_COMMANDS)


def blocked(command: str) -> bool:
    analysis = analyze_shell(command)
    return (
        find_danger(analysis, home=HOME) is not None or REGEXES.check(command, analysis) is not None
    )


def test_the_table_is_large() -> None:
    assert len(DESTRUCTIVE) >= 155 and len(set(DESTRUCTIVE)) == len(DESTRUCTIVE)
    assert len(EXPANDED) >= 38 and not set(EXPANDED) & set(DESTRUCTIVE)
    assert not set(REACH) & set(DESTRUCTIVE + EXPANDED)


@pytest.mark.parametrize("command", DESTRUCTIVE + EXPANDED + REACH)
def test_destructive_spellings_are_blocked(command: str) -> None:
    assert blocked(command)


@pytest.mark.parametrize("command", HARMLESS)
def test_harmless_look_alikes_are_not_blocked(command: str) -> None:
    assert not blocked(command)


@pytest.mark.parametrize(
    ("command", "code"),
    [
        ("rm -rf ~", "delete_root"),
        ("find / -delete", "find_delete_root"),
        ("curl x | sh", "pipe_to_shell"),
        ('eval "$(curl x)"', "download_to_shell"),
        ("bomb(){ bomb|bomb& };bomb", "fork_bomb"),
        ("tee /dev/sda", "device_write"),
        ("wipefs -a /dev/sda", "disk_tool"),
    ],
)
def test_the_reason_names_the_danger_and_the_command(command: str, code: str) -> None:
    danger = find_danger(analyze_shell(command), home=HOME)
    assert danger is not None and danger.code == code
    assert danger.describe().startswith(f"{code}: ")


def test_the_argv_judgement_needs_no_regex() -> None:
    """With the regex list disabled (`[]`), the parsed judgement still blocks."""
    assert DangerousMatcher.compile([]).check("rm -rf /") is None
    assert find_danger(analyze_shell("rm -rf /"), home=HOME) is not None


@pytest.mark.parametrize("command", ["a=b", "a=b c=d", "export a=b; a=1", "FOO=1 && ls"])
def test_bare_assignments_run_nothing_and_raise_nothing(command: str) -> None:
    """Found by the differential test: an empty argv once raised IndexError in the gate."""
    assert find_danger(analyze_shell(command), home=HOME) is None


def test_a_command_behind_too_many_wrappers_is_blocked() -> None:
    """Each wrapper level is looked through; past 64 views the line cannot be judged in linear
    time and a real command never needs it."""
    danger = find_danger(analyze_shell("nice " * 200 + "rm -rf build"), home=HOME)
    assert danger is not None and danger.code == "too_complex"
    assert find_danger(analyze_shell("sudo timeout 5 env A=1 nice -n 5 ls"), home=HOME) is None
