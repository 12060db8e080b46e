"""Rule files: the shared hand-edited `approvals.yaml` and per-agent `approvals/<agent_id>.yaml`.

API (`RuleStore(home, clock=None, on_change=None)`, async, thread-safe; `PostgresRuleStore`
keeps it with the per-agent rules in the database):
- `rules_for(agent_id, user_id=None) -> RuleSet`: shared rules then the agent's, compiled.
  Consent belongs to whoever gave it: with a `user_id`, the agent's *allow* rules granted by
  someone else are left out (hand-written rules, with no `granted_by`, apply to everyone; deny
  rules always apply). Every call re-stats the files (mtime_ns, size, inode) and re-reads only
  a changed one, so an edit applies on the next call; the compiled set is cached until then.
- `add_rule(agent_id, rule) -> bool`: ALWAYS. Appends to the agent file unless an equivalent
  rule in force for the same person (same tool, action and pattern, not expired, not stale) is
  in the shared or agent file; then writes nothing and returns False.
- `revoke(agent_id, tool, pattern, shared=False, user=None, admin=True) -> int`: removes the
  rules of that tool and pattern (either action) from the agent file, or the shared file. A
  non-admin may remove only rules they granted; `RulePermissionError` when a matching rule
  exists but they may not remove it, and for the shared file.
- `list_all() -> dict[origin, list[Rule]]`, `errors() -> list[str]`.

A file that fails to read, parse or validate keeps its last good rules, is logged once per
broken version and is listed by `errors()`; `add_rule` and `revoke` refuse to edit it
(`RuleFileError`) rather than lose what a person wrote. A file that has *never* loaded cannot
say what it denied: the `RuleSet` carries its error in `unreadable`, and the gate then asks for
every call (fail closed). Every read-modify-write holds a cross-process lock and re-reads the
file inside it. Each change — a file edited by hand, a revoke — is reported to `on_change`
(the app writes it to the audit log).
"""

from __future__ import annotations

import threading
from collections.abc import Callable
from pathlib import Path

from ruamel.yaml.error import YAMLError

from jarvis.common.atomic import atomic_write_text
from jarvis.common.clock import Clock, SystemClock
from jarvis.common.logging import get_logger
from jarvis.core.policy.rule_file import (
    appended,
    describe_error,
    locked,
    parse_rules,
    read_text,
    without,
)
from jarvis.core.policy.rule_state import (
    AGENT_DIR,
    AGENT_ID,
    SHARED_FILE,
    UNKNOWN,
    ChangeKind,
    ChangeListener,
    FileEntry,
    RuleChange,
    RuleFileError,
    RulePermissionError,
    Stamp,
    agent_origin,
    editing,
    equivalent,
    never_loaded,
    refuse_broken,
    same_target,
    stamp,
    validate_agent_id,
    visible_to,
)
from jarvis.core.policy.rule_watch import rule_watch
from jarvis.core.policy.rules import Rule, RuleSet

__all__ = [
    "AGENT_DIR",
    "SHARED_FILE",
    "ChangeListener",
    "RuleChange",
    "RuleFileError",
    "RulePermissionError",
    "RuleStore",
    "same_target",
    "validate_agent_id",
    "visible_to",
]

_log = get_logger("jarvis.core.policy.rule_store")


class RuleStore:
    """The rule files. The async API is the seam `PostgresRuleStore` keeps: it moves the
    per-agent half into the database and leaves the shared hand-edited file here."""

    def __init__(
        self, home: Path, clock: Clock | None = None, on_change: ChangeListener | None = None
    ) -> None:
        self._home = home
        self._home_text = f"{home}/"
        self._shared_text = self._home_text + SHARED_FILE
        self._clock = clock or SystemClock()
        self._files: dict[str, FileEntry] = {}
        self._sets: dict[tuple[str, str | None], tuple[tuple[object, ...], RuleSet]] = {}
        # the hot path: (shared stamp, agent stamp, set) per (agent, user), re-checked by stat
        self._quick: dict[tuple[str, str | None], tuple[Stamp, Stamp, RuleSet]] = {}
        # with inotify (`rule_watch`): the watch's generation when the set was built
        self._watch = rule_watch()
        self._watched: dict[tuple[str, str | None], tuple[int, RuleSet]] = {}
        self._lock = threading.RLock()
        self.on_change = on_change
        self._changes: list[RuleChange] = []

    async def open(self) -> None:
        """Nothing to connect for files."""

    async def aclose(self) -> None:
        """Nothing to close for files."""

    async def rules_for(self, agent_id: str, user_id: str | None = None) -> RuleSet:
        key = (agent_id, user_id)
        watch = self._watch
        if watch is not None and (seen := self._watched.get(key)) is not None:
            if seen[0] == watch.generation():
                return seen[1]  # the hot path: no event on either file since the set was built
            self._forget_stamps(agent_id)  # an event: re-read even if the stat looks the same
        elif (quick := self._quick.get(key)) is not None and (
            stamp(self._shared_text) == quick[0]
            and stamp(self._home_text + agent_origin(agent_id)) == quick[1]
        ):
            return quick[2]  # without inotify: both files stat as when the set was built
        armed = None  # armed before the files are read: a change after it is an event
        if watch is not None and self._files_only:
            armed = watch.arm(str(self._home), (SHARED_FILE, agent_origin(agent_id)))
            if armed is None:
                self._watched.pop(key, None)  # a file it cannot watch: stat it on every call
        own_version, own = await self._agent_rules(agent_id)
        with self._lock:
            shared = self._fresh(SHARED_FILE)
            version = (
                shared.generation,
                shared.loaded,
                own_version,
                self._own_unreadable(agent_id),
            )
            cached = self._sets.get(key)
            if cached is None or cached[0] != version:
                mine = tuple(rule for rule in own if visible_to(rule, user_id))
                unreadable = tuple(
                    error for error in (never_loaded(shared), version[3]) if error is not None
                )
                cached = (version, RuleSet((*shared.rules, *mine), unreadable=unreadable))
                self._sets[key] = cached
            if self._remember_stamps(key, own_version, shared, cached[1]) and armed is not None:
                self._watched[key] = (armed, cached[1])
        await self._report()
        return cached[1]

    _files_only = True  # the agent's rules live in a file whose stat says when it changed

    def _forget_stamps(self, agent_id: str) -> None:
        with self._lock:
            for origin in (SHARED_FILE, agent_origin(agent_id)):
                entry = self._files.get(origin)
                if entry is not None and entry.stamp is not None:
                    entry.stamp = UNKNOWN

    def _remember_stamps(
        self, key: tuple[str, str | None], own_version: object, shared: FileEntry, rules: RuleSet
    ) -> bool:
        """Under the lock: pair the set with the stamps it was built from (only if the agent's
        file was not re-read by another thread since `_agent_rules`)."""
        own = self._files.get(agent_origin(key[0]))
        if self._files_only and own is not None and (own.generation, own.loaded) == own_version:
            self._quick[key] = (shared.stamp, own.stamp, rules)
            return True
        return False

    async def add_rule(self, agent_id: str, rule: Rule) -> bool:
        _, own = await self._agent_rules(agent_id)
        with self._lock:
            shared = self._fresh(SHARED_FILE).rules
        now = self._clock.now_ms()
        mine = [old for old in own if visible_to(old, rule.granted_by)]
        if any(equivalent(old, rule, now) for old in (*shared, *mine)):
            return False
        await self._append(agent_id, rule)
        return True

    async def revoke(
        self,
        agent_id: str,
        tool: str,
        pattern: str,
        *,
        shared: bool = False,
        user: str | None = None,
        admin: bool = True,
    ) -> int:
        probe = Rule(tool=tool, pattern=pattern)  # a bad pattern raises ValueError
        if shared and not admin:
            raise RulePermissionError("only an admin may change the shared approvals.yaml")
        may_remove: Callable[[Rule], bool] = (
            (lambda _: True) if admin else (lambda rule: rule.granted_by == user)
        )
        if shared:
            removed = self._revoke_in_file(SHARED_FILE, probe, may_remove)
        else:
            removed = await self._revoke_own(validate_agent_id(agent_id), probe, may_remove)
        for rule in removed:
            self._note("revoked", rule.origin, rule, user or "local", None if shared else agent_id)
        await self._report()
        return len(removed)

    async def list_all(self) -> dict[str, list[Rule]]:
        with self._lock:
            shared = list(self._fresh(SHARED_FILE).rules)
        listing = {SHARED_FILE: shared, **await self._listing()}
        await self._report()
        return listing

    def agent_of(self, origin: str) -> str | None:
        """The agent an origin of `list_all` belongs to; None for the shared file."""
        prefix = f"{AGENT_DIR}/"
        return (
            origin.removeprefix(prefix).removesuffix(".yaml") if origin.startswith(prefix) else None
        )

    def errors(self) -> list[str]:
        with self._lock:
            origins = dict.fromkeys([SHARED_FILE, *self._agent_origins(), *self._files])
            return [error for origin in origins if (error := self._fresh(origin).error)]

    # the per-agent half: files here, rows in PostgresRuleStore

    async def _agent_rules(self, agent_id: str) -> tuple[object, tuple[Rule, ...]]:
        """The agent's rules and a version that changes whenever they do."""
        with self._lock:
            own = self._fresh(agent_origin(agent_id))
            return (own.generation, own.loaded), own.rules

    def _own_unreadable(self, agent_id: str) -> str | None:
        """Read right after `_agent_rules` re-checked the file: its entry is current."""
        with self._lock:
            entry = self._files.get(agent_origin(agent_id))
            return None if entry is None else never_loaded(entry)

    async def _append(self, agent_id: str, rule: Rule) -> None:
        with self._lock:
            own = self._fresh(agent_origin(agent_id))
            with locked(own.path), editing(own):
                refuse_broken(self._fresh(own.origin))
                self._write(own, appended(read_text(own.path), rule))

    async def _revoke_own(
        self, agent_id: str, probe: Rule, may_remove: Callable[[Rule], bool]
    ) -> list[Rule]:
        return self._revoke_in_file(agent_origin(agent_id), probe, may_remove)

    async def _listing(self) -> dict[str, list[Rule]]:
        with self._lock:
            return {origin: list(self._fresh(origin).rules) for origin in self._agent_origins()}

    def _revoke_in_file(
        self, origin: str, probe: Rule, may_remove: Callable[[Rule], bool]
    ) -> list[Rule]:
        with self._lock:
            entry = self._file(origin)
            with locked(entry.path), editing(entry):
                refuse_broken(self._fresh(origin))
                text = read_text(entry.path)  # inside the lock: another process may have written
                rules = parse_rules(text, entry.origin)
                matching = [i for i, rule in enumerate(rules) if same_target(rule, probe)]
                doomed = {i for i in matching if may_remove(rules[i])}
                if matching and not doomed:
                    raise RulePermissionError(
                        f"{probe.tool} {probe.pattern}: granted by someone else; "
                        "only they or an admin may revoke it"
                    )
                if doomed:
                    self._write(entry, without(text, rules, doomed))
            return [rules[i] for i in sorted(doomed)]

    def _agent_origins(self) -> list[str]:
        folder = self._home / AGENT_DIR
        names = sorted(path.stem for path in folder.glob("*.yaml")) if folder.is_dir() else []
        return [f"{AGENT_DIR}/{name}.yaml" for name in names if AGENT_ID.fullmatch(name)]

    def _file(self, origin: str) -> FileEntry:
        entry = self._files.get(origin)
        if entry is None:
            entry = self._files[origin] = FileEntry(self._home / origin, origin)
        return entry

    def _fresh(self, origin: str) -> FileEntry:
        """The file's entry, re-read only if its stat changed."""
        entry = self._file(origin)
        try:
            stat = entry.path.stat()
        except FileNotFoundError:
            if entry.stamp is not None or entry.rules or entry.error:
                self._replace(entry, None, ())
            return entry
        except OSError as exc:
            self._fail(entry, f"{origin}: {exc}")
            return entry
        stamp: Stamp = (stat.st_mtime_ns, stat.st_size, stat.st_ino)
        if stamp != entry.stamp:
            try:
                rules = parse_rules(read_text(entry.path), origin)
            except (OSError, UnicodeDecodeError, YAMLError, ValueError) as exc:
                entry.stamp = stamp
                self._fail(entry, f"{origin}: {describe_error(exc)}")
            else:
                self._replace(entry, stamp, rules)
        return entry

    def _write(self, entry: FileEntry, text: str) -> None:
        """Our own edit: written atomically, then taken as the file's state (not an edit by
        hand to report)."""
        atomic_write_text(entry.path, text)
        stat = entry.path.stat()
        rules = parse_rules(text, entry.origin)
        entry.stamp, entry.rules, entry.error, entry.loaded = (
            (stat.st_mtime_ns, stat.st_size, stat.st_ino),
            rules,
            None,
            True,
        )
        entry.generation += 1

    def _replace(
        self, entry: FileEntry, stamp: tuple[int, int, int] | None, rules: tuple[Rule, ...]
    ) -> None:
        if entry.loaded or entry.error:  # not the first read: a person edited the file
            self._note_edit(entry, rules)
        entry.stamp, entry.rules, entry.error = stamp, rules, None
        entry.loaded = True
        entry.generation += 1

    def _fail(self, entry: FileEntry, message: str) -> None:
        if message != entry.error:
            _log.error("rule file not loaded, keeping its last good rules: %s", message)
            self._changes.append(
                RuleChange(
                    "file_error", entry.origin, "", message, "file", self.agent_of(entry.origin)
                )
            )
        entry.error = message

    def _note_edit(self, entry: FileEntry, rules: tuple[Rule, ...]) -> None:
        before = {rule.label() for rule in entry.rules}
        after = {rule.label() for rule in rules}
        agent = self.agent_of(entry.origin)
        for rule in entry.rules:
            if rule.label() not in after:
                self._note("removed", entry.origin, rule, "file", agent)
        for rule in rules:
            if rule.label() not in before:
                self._note("added", entry.origin, rule, rule.granted_by or "file", agent)

    def _note(self, kind: ChangeKind, origin: str, rule: Rule, by: str, agent: str | None) -> None:
        self._changes.append(RuleChange(kind, origin, rule.tool, rule.label(), by, agent))

    async def _report(self) -> None:
        """Hand the changes seen so far to the listener (outside the lock)."""
        if not self._changes:
            return
        with self._lock:
            changes, self._changes = self._changes, []
        if self.on_change is None:
            return
        for change in changes:
            try:
                await self.on_change(change)
            except Exception:  # the audit trail must not break the gate
                _log.exception("rule change not recorded: %s", change)
