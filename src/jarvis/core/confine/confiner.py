"""One configured OS sandbox for the whole process: the tools ask it to wrap what they start.

API:
- `Confiner(mode, limits, home, jarvis_home=None, secret_paths=(), bwrap=None)`, `mode` from
  `security.sandbox` (`auto` | `required` | `off`).
  - `.active` — the sandbox will be used (mode not `off` and bubblewrap works here).
  - `.refusal()` — under `required` without a working sandbox: the one line a tool returns
    instead of running; else `None`.
  - `.announce()` — under `auto` without a working sandbox: logs once per process, in one line,
    that the gate alone decides (and returns the line).
  - `.wrap(argv, workspace, network=False, writable=()) -> list[str]` — the bwrap command line.
  - `.server(argv, workspace, network, writable)` — the same for a long-running server (stdio
    MCP); raises `SandboxRequired` under `required` without a sandbox.
  - `.pids_group()` — a per-call `PidsGroup` when running as root (see `pids.py`), else None.
- `Confiner.from_settings(security, home, jarvis_home, language)`.
"""

from __future__ import annotations

import dataclasses
import os
import threading
from collections.abc import Sequence
from pathlib import Path
from typing import Literal

from jarvis.common.i18n import Language, t
from jarvis.common.logging import get_logger
from jarvis.core.config import SecuritySettings
from jarvis.core.confine.hidden import SecretLocations
from jarvis.core.confine.pids import PidsGroup
from jarvis.core.confine.plan import Confinement, Limits, bwrap_argv, dns_dirs, with_limits
from jarvis.core.confine.probe import Probe, probe
from jarvis.core.policy.boundary import Boundary

Mode = Literal["auto", "required", "off"]
_log = get_logger("jarvis.sandbox")
_announced: set[str] = set()
_announce_lock = threading.Lock()


class SandboxRequired(RuntimeError):
    """`security.sandbox: required` and no working sandbox: nothing may start."""


class Confiner:
    def __init__(
        self,
        mode: Mode,
        limits: Limits,
        home: Path,
        jarvis_home: Path | None = None,
        secret_paths: Sequence[str] = (),
        *,
        bwrap: str | None = None,
        language: Language = "en",
    ) -> None:
        self.mode = mode
        self.limits = limits
        self._home = os.path.realpath(home)
        self._jarvis_home = os.path.realpath(jarvis_home) if jarvis_home is not None else None
        self._extra = tuple(secret_paths)
        self._bwrap = bwrap
        self._language = language
        self._secrets: dict[str, SecretLocations] = {}
        self._dns = dns_dirs(os.path.realpath("/etc/resolv.conf"))

    @classmethod
    def from_settings(
        cls,
        security: SecuritySettings,
        home: Path,
        jarvis_home: Path | None,
        language: Language = "en",
    ) -> Confiner:
        limits = Limits(
            processes=security.sandbox_max_processes,
            memory_mb=security.sandbox_max_memory_mb,
            file_mb=security.sandbox_max_file_mb,
            tmp_mb=security.sandbox_tmp_mb,
        )
        return cls(
            security.sandbox, limits, home, jarvis_home, security.secret_paths, language=language
        )

    @property
    def probe(self) -> Probe:
        if self.mode == "off":
            return Probe(False, reason="off")
        return probe(self._bwrap)

    @property
    def active(self) -> bool:
        return self.probe.works

    def refusal(self) -> str | None:
        if self.mode != "required" or self.active:
            return None
        return t("sandbox.required", self._language, reason=self.probe.reason)

    def announce(self) -> str | None:
        if self.mode != "auto" or self.active:
            return None
        line = t("sandbox.gate_only", self._language, reason=self.probe.reason)
        with _announce_lock:
            if line not in _announced:
                _announced.add(line)
                _log.warning("%s", line)
        return line

    def confinement(
        self, workspace: Path, network: bool = False, writable: Sequence[str] = ()
    ) -> Confinement:
        root = os.path.realpath(workspace)
        locations = self._secrets.get(root)
        if locations is None:
            boundary = Boundary(root, self._home, self._jarvis_home, self._extra)
            locations = self._secrets[root] = SecretLocations(boundary, self._extra)
        dirs, files = locations.find()
        return Confinement(
            workspace=root,
            hidden_dirs=dirs,
            hidden_files=files,
            network=network,
            limits=self.limits,
            # Only what exists: bwrap cannot make a mount point in the read-only root.
            writable=tuple(
                real
                for real in (os.path.realpath(os.path.expanduser(w)) for w in writable)
                if os.path.exists(real)
            ),
            dns_dirs=self._dns,
        )

    def wrap(
        self,
        argv: Sequence[str],
        workspace: Path,
        network: bool = False,
        writable: Sequence[str] = (),
    ) -> list[str]:
        bwrap = self.probe.bwrap
        return bwrap_argv(bwrap, self.confinement(workspace, network, writable), argv)

    def server(
        self, argv: Sequence[str], workspace: Path, network: bool, writable: Sequence[str]
    ) -> list[str]:
        """A long-running server's command line (stdio MCP): confined when the sandbox works,
        as it was under `auto` when it does not; under `required` without one, raises
        `SandboxRequired` with the one line."""
        refusal = self.refusal()
        if refusal is not None:
            raise SandboxRequired(refusal)
        if not self.active:
            return list(argv)
        box = self.confinement(workspace, network, writable)
        box = dataclasses.replace(box, as_pid_1=False)
        return bwrap_argv(self.probe.bwrap, box, with_limits(self.limits, argv))

    def pids_group(self) -> PidsGroup | None:
        return PidsGroup.create(self.limits.processes)
