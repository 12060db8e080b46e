"""The rule files are watched by inotify instead of a stat per decision: every way a person
or another process changes them applies on the next call, with and without the watch (the stat
path stays for symlinked files and systems without inotify), and files the gate does not read
(the audit log, databases in the same directory) cost no re-read."""

from __future__ import annotations

import asyncio
import multiprocessing
import os
import sys
from collections.abc import Callable
from pathlib import Path

import pytest

from jarvis.core.policy.rule_store import RuleStore
from jarvis.core.policy.rule_watch import rule_watch
from jarvis.core.policy.rules import RuleSet
from tests.support.hang import HANG_GUARD_SEC

ONE = "rules:\n  - {tool: bash, pattern: ls}\n"
TWO = "rules:\n  - {tool: bash, pattern: ps}\n"  # the same size as ONE


def patterns(rules: RuleSet) -> list[str]:
    return [rule.pattern for rule in rules]


def same_stat_rewrite(path: Path, text: str) -> None:
    """Rewritten in place with the same size, inode and mtime: no stat can tell."""
    before = path.stat()
    with path.open("r+", encoding="utf-8") as handle:
        handle.write(text)
    os.utime(path, ns=(before.st_atime_ns, before.st_mtime_ns))


def renamed_over(path: Path, text: str) -> None:
    fresh = path.with_name(path.name + ".new")
    fresh.write_text(text, encoding="utf-8")
    os.replace(fresh, path)


def in_place(path: Path, text: str) -> None:
    path.write_text(text, encoding="utf-8")


@pytest.fixture(params=["inotify", "stat"])
def store_for(request: pytest.FixtureRequest) -> Callable[[Path], RuleStore]:
    def make(home: Path) -> RuleStore:
        store = RuleStore(home)
        if request.param == "stat":
            store._watch = None
        else:
            assert store._watch is not None or not sys.platform.startswith("linux")
        return store

    return make


@pytest.mark.parametrize("change", [renamed_over, in_place])
@pytest.mark.parametrize("origin", ["approvals.yaml", "approvals/main.yaml"])
async def test_a_change_applies_on_the_next_call(
    tmp_path: Path,
    store_for: Callable[[Path], RuleStore],
    change: Callable[[Path, str], None],
    origin: str,
) -> None:
    (tmp_path / "approvals").mkdir()
    path = tmp_path / origin
    path.write_text(ONE, encoding="utf-8")
    store = store_for(tmp_path)
    assert patterns(await store.rules_for("main")) == ["ls"]
    assert patterns(await store.rules_for("main")) == ["ls"]  # from the hot path
    before = path.stat().st_mtime_ns
    change(path, TWO)
    os.utime(path, ns=(before + 1_000_000, before + 1_000_000))  # visible to a stat too
    assert patterns(await store.rules_for("main")) == ["ps"]
    path.unlink()
    assert patterns(await store.rules_for("main")) == []


async def test_a_rewrite_no_stat_can_see_applies_with_the_watch(tmp_path: Path) -> None:
    shared = tmp_path / "approvals.yaml"
    shared.write_text(ONE, encoding="utf-8")
    store = RuleStore(tmp_path)
    if not sys.platform.startswith("linux"):
        pytest.skip("inotify is Linux only")
    assert store._watch is not None
    assert patterns(await store.rules_for("main")) == ["ls"]
    same_stat_rewrite(shared, TWO)
    assert patterns(await store.rules_for("main")) == ["ps"]


async def test_the_agent_folder_and_file_appearing_later(
    tmp_path: Path, store_for: Callable[[Path], RuleStore]
) -> None:
    store = store_for(tmp_path)
    assert patterns(await store.rules_for("main")) == []
    (tmp_path / "approvals").mkdir()
    assert patterns(await store.rules_for("main")) == []
    (tmp_path / "approvals" / "main.yaml").write_text(ONE, encoding="utf-8")
    assert patterns(await store.rules_for("main")) == ["ls"]
    os.rename(tmp_path / "approvals", tmp_path / "gone")
    assert patterns(await store.rules_for("main")) == []


async def test_a_symlinked_rule_file_is_followed(
    tmp_path: Path, store_for: Callable[[Path], RuleStore]
) -> None:
    dotfiles = tmp_path / "dotfiles"
    dotfiles.mkdir()
    (dotfiles / "approvals.yaml").write_text(ONE, encoding="utf-8")
    (dotfiles / "other.yaml").write_text(TWO, encoding="utf-8")
    home = tmp_path / "home"
    home.mkdir()
    (home / "approvals.yaml").symlink_to(dotfiles / "approvals.yaml")
    store = store_for(home)
    assert patterns(await store.rules_for("main")) == ["ls"]
    target = dotfiles / "approvals.yaml"
    before = target.stat().st_mtime_ns
    target.write_text(TWO, encoding="utf-8")
    os.utime(target, ns=(before + 1_000_000, before + 1_000_000))
    assert patterns(await store.rules_for("main")) == ["ps"]
    (dotfiles / "approvals.yaml").write_text(ONE, encoding="utf-8")
    os.replace(dotfiles / "other.yaml", dotfiles / "approvals.yaml")  # the target replaced
    assert patterns(await store.rules_for("main")) == ["ps"]


async def test_other_files_in_the_home_cost_no_reread(tmp_path: Path) -> None:
    (tmp_path / "approvals.yaml").write_text(ONE, encoding="utf-8")
    store = RuleStore(tmp_path)
    watch = rule_watch()
    if watch is None:
        pytest.skip("no inotify here")
    first = await store.rules_for("main")
    generation = watch.generation()
    with (tmp_path / "audit.jsonl").open("a", encoding="utf-8") as audit:
        audit.write("{}\n")
    (tmp_path / "jarvis.sqlite-journal").write_text("x", encoding="utf-8")
    (tmp_path / "jarvis.sqlite-journal").unlink()
    (tmp_path / "sessions").mkdir()
    assert watch.generation() == generation
    assert await store.rules_for("main") is first


def _child_stats(home: str, queue: multiprocessing.Queue[list[str]]) -> None:
    store = RuleStore(Path(home))
    (Path(home) / "approvals.yaml").write_text(ONE, encoding="utf-8")
    first = patterns(asyncio.run(store.rules_for("main")))
    watch = rule_watch()
    queue.put([*first, str(watch is None or watch.forked)])


async def test_a_forked_child_never_reads_the_parents_events(tmp_path: Path) -> None:
    watch = rule_watch()
    if watch is None or "fork" not in multiprocessing.get_all_start_methods():
        pytest.skip("no inotify or no fork here")
    (tmp_path / "approvals.yaml").write_text(TWO, encoding="utf-8")
    store = RuleStore(tmp_path)
    assert patterns(await store.rules_for("main")) == ["ps"]
    context = multiprocessing.get_context("fork")
    queue: multiprocessing.Queue[list[str]] = context.Queue()
    child = context.Process(target=_child_stats, args=(str(tmp_path), queue))
    child.start()
    assert queue.get(timeout=HANG_GUARD_SEC) == ["ls", "True"]  # the child stats; its watch is off
    child.join()
    assert patterns(await store.rules_for("main")) == ["ls"]  # the parent saw the child's edit
