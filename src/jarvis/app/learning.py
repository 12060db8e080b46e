"""Procedure learning, assembled once per process: the library of `~/.jarvis/procedures`, the
learner, and the idle trigger. The commands that use it (`/procedures`, `/<procedure>`) are in
the command table (app/commands.py)."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from jarvis.common.clock import Clock
from jarvis.core.procedures.config import ProcedureSettings
from jarvis.core.procedures.distill import TextModel
from jarvis.core.procedures.files import ProcedureLibrary
from jarvis.core.procedures.idle import IdleLearning
from jarvis.core.procedures.learner import ProcedureLearner
from jarvis.memory import MemoryService


@dataclass
class Learning:
    library: ProcedureLibrary
    learner: ProcedureLearner
    idle: IdleLearning


def build_learning(
    home: Path, memory: MemoryService, model: TextModel, settings: ProcedureSettings, clock: Clock
) -> Learning:
    """`model` is the configured main model, looked up at call time (a reload may change it)."""
    library = ProcedureLibrary(home / "procedures")
    learner = ProcedureLearner(library, memory, model, settings, clock)
    return Learning(library, learner, IdleLearning(learner, settings.idle_sec))
