"""What every extension loader shares: reading files fresh, per-file errors, last good versions
and the status rows `jarvis extensions` shows."""

from __future__ import annotations

import sys
import types
from collections.abc import Iterable
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Generic, Literal, TypeVar

from ruamel.yaml.error import YAMLError

ExtensionKind = Literal["tool", "skill", "plugin", "agent", "team"]
_T = TypeVar("_T")


@dataclass(frozen=True)
class LoadError:
    """One file that could not be loaded, and why (one line)."""

    file: Path
    reason: str
    # True when an earlier good version of the file stays live.
    kept_last_good: bool = False

    def __str__(self) -> str:
        kept = " (keeping the last good version)" if self.kept_last_good else ""
        return f"{self.file.name}: {self.reason}{kept}"


@dataclass(frozen=True)
class ExtensionStatus:
    """One row of `jarvis extensions`: a loaded item, or a file that failed."""

    kind: ExtensionKind
    name: str
    file: Path
    ok: bool
    detail: str = ""


def loaded(kind: ExtensionKind, name: str, file: Path, detail: str = "") -> ExtensionStatus:
    return ExtensionStatus(kind=kind, name=name, file=file, ok=True, detail=detail)


def failed(kind: ExtensionKind, error: LoadError) -> ExtensionStatus:
    return ExtensionStatus(
        kind=kind, name=error.file.name, file=error.file, ok=False, detail=str(error)
    )


class LastGood(Generic[_T]):
    """Per-file memory of the last version that loaded: a save that breaks a file keeps the old
    version live (reported) instead of silently taking the extension away mid-edit."""

    def __init__(self) -> None:
        self._good: dict[str, _T] = {}

    def settle(self, outcomes: dict[str, _T | LoadError]) -> tuple[list[_T], list[LoadError]]:
        """`outcomes` holds every file present now, keyed by file; absent files are forgotten,
        so deleting a file unregisters what it defined."""
        self._good = {key: item for key, item in self._good.items() if key in outcomes}
        items: list[_T] = []
        errors: list[LoadError] = []
        for key, outcome in outcomes.items():
            if not isinstance(outcome, LoadError):
                self._good[key] = outcome
                items.append(outcome)
            elif key in self._good:
                items.append(self._good[key])
                errors.append(replace(outcome, kept_last_good=True))
            else:
                errors.append(outcome)
        return items, errors


def extension_files(directory: Path, suffixes: Iterable[str]) -> list[Path]:
    """Files a loader reads, sorted; hidden files and `_helpers` (editor temp files, shared code)
    are not extensions. A missing folder has none."""
    if not directory.is_dir():
        return []
    wanted = set(suffixes)
    return sorted(
        path
        for path in directory.iterdir()
        if path.suffix in wanted and path.name[0] not in "._" and path.is_file()
    )


def compile_module(path: Path, module_name: str) -> types.ModuleType:
    """Compile from source every time into a fresh module. The bytecode cache judges staleness by
    whole-second mtime and size, so two same-size saves within a second would run old code."""
    code = compile(path.read_bytes(), str(path), "exec", dont_inherit=True)
    module = types.ModuleType(module_name)
    module.__file__ = str(path)
    previous = sys.modules.get(module_name)
    # dataclasses and pickle look a class's module up by name while the body runs.
    sys.modules[module_name] = module
    try:
        exec(code, module.__dict__)
    except BaseException:
        if previous is None:
            sys.modules.pop(module_name, None)
        else:
            sys.modules[module_name] = previous
        raise
    return module


def describe_failure(exc: BaseException) -> str:
    """One line saying why a file did not load."""
    if isinstance(exc, SyntaxError):
        return f"syntax error at line {exc.lineno}: {exc.msg}"
    if isinstance(exc, ImportError):
        return f"import failed: {exc}"
    if isinstance(exc, YAMLError):
        return "bad YAML: " + " ".join(str(exc).split())
    if isinstance(exc, UnicodeDecodeError):
        return "not UTF-8 text"
    if isinstance(exc, InvalidExtension):
        return str(exc)
    return f"{type(exc).__name__}: {exc}"


class InvalidExtension(ValueError):
    """A file parsed but does not declare what its loader needs; the message says what."""
