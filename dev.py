#!/usr/bin/env python3
"""Bootstrap for a fresh machine with only Python 3.11+: builds .venv from the lock file, then runs.

python3 dev.py start [ARGS]   start Jarvis (the Web HUD; `--demo` runs the scripted model)
python3 dev.py test  [ARGS]   lint, type-check, layer contract, then the whole test suite
python3 dev.py jarvis ARGS    any `jarvis` command (chat, approvals, audit, ...)
"""

from __future__ import annotations

import os
import subprocess
import sys
import venv
from pathlib import Path

ROOT = Path(__file__).resolve().parent
VENV = ROOT / ".venv"
BIN = VENV / ("Scripts" if os.name == "nt" else "bin")
UV_VERSION = "0.13.9"
BYTECODE_MARK = VENV / ".bytecode-compiled"


def _run(*args: str | Path, quiet: bool = False) -> int:
    output = subprocess.DEVNULL if quiet else None
    return subprocess.call([str(a) for a in args], cwd=ROOT, stdout=output, stderr=output)


def ensure_env() -> None:
    """Create .venv, put uv in it, and sync the locked dependencies (fast when up to date)."""
    if sys.version_info < (3, 11):
        sys.exit(f"Jarvis needs Python 3.11 or newer (this is {sys.version.split()[0]}).")
    if not (BIN / "python").exists():
        print("· creating .venv", flush=True)
        venv.create(VENV, with_pip=True)
    uv = BIN / "uv"
    if not uv.exists():
        print(f"· installing uv {UV_VERSION} into .venv", flush=True)
        if _run(BIN / "python", "-m", "pip", "--version", quiet=True) != 0:
            _run(BIN / "python", "-m", "ensurepip", "--upgrade")
        if _run(BIN / "python", "-m", "pip", "install", "-q", f"uv=={UV_VERSION}") != 0:
            sys.exit("could not install uv into .venv (is PyPI reachable?)")
    sync = [uv, "sync", "--frozen", "--all-extras", "--quiet", "--python", BIN / "python"]
    # Bytecode compiled once here, so that no process (each `jarvis serve` a test starts, each
    # test worker) compiles every module from source again where PYTHONDONTWRITEBYTECODE is
    # set (as on CI): that was half of a server's start-up CPU (benchmarks/server_start.py).
    if _run(*sync, "--check", quiet=True) == 0:
        if not BYTECODE_MARK.exists() and _run(*sync, "--compile-bytecode", quiet=True) == 0:
            BYTECODE_MARK.touch()
        compile_sources()
        return  # up to date: nothing to install, nothing to say
    print("· installing dependencies from uv.lock (the first run takes a minute)", flush=True)
    if _run(*sync, "--compile-bytecode") != 0:
        sys.exit("could not install the locked dependencies (uv sync --frozen failed)")
    BYTECODE_MARK.touch()
    compile_sources()


def compile_sources() -> None:
    """Jarvis's own modules to bytecode (an editable install: uv leaves them alone); only the
    changed ones after the first time (a tenth of a second)."""
    _run(BIN / "python", "-m", "compileall", "-q", ROOT / "src", quiet=True)


def become(*args: str | Path) -> int:
    """Replace this process with the command: Ctrl-C and SIGTERM reach it directly, and no
    wrapper is left behind to print a traceback or orphan a server."""
    argv = [str(a) for a in args]
    sys.stdout.flush()
    sys.stderr.flush()
    if os.name == "nt":  # no exec that keeps the console on Windows: wait for the child
        return _run(*argv)
    os.chdir(ROOT)
    os.execv(argv[0], argv)


# One test at a time to whichever process is free, the longest first (tests/support/order.py);
# the tests of a module sharing a module-scoped fixture stay together.
PARALLEL = ["-n", "2", "--dist", "loadgroup", "--no-loadscope-reorder"]


def run_tests(extra: list[str]) -> int:
    checks: list[list[str | Path]] = [
        [BIN / "ruff", "check", "src", "tests", "benchmarks"],
        [BIN / "mypy"],
        [BIN / "lint-imports"],
    ]
    for check in checks:
        print(f"· {Path(check[0]).name}", flush=True)
        if _run(*check) != 0:
            return 1
    # Two test processes: most tests wait on servers, browsers and subprocesses, so the suite
    # takes about half the time on a 2-core machine (`-n 0` runs it in one process).
    parallel = [] if any(arg == "-n" or arg.startswith("-n") for arg in extra) else PARALLEL
    return become(BIN / "python", "-m", "pytest", *parallel, *extra)


def keep_workspace() -> None:
    """Jarvis runs from the repository (become() changes into it), but its file tools and `bash`
    work where the person started dev.py: record that folder unless they chose one already."""
    if not os.environ.get("JARVIS_WORKSPACE"):
        os.environ["JARVIS_WORKSPACE"] = os.getcwd()


def main(argv: list[str]) -> int:
    command, rest = (argv[0], argv[1:]) if argv else ("start", [])
    if command in ("start", "jarvis"):
        keep_workspace()
    ensure_env()
    if command == "test":
        return run_tests(rest)
    if command == "start":
        return become(BIN / "jarvis", "serve", *rest)
    if command == "jarvis":
        return become(BIN / "jarvis", *rest)
    print(__doc__)
    return 2


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
