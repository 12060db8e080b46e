"""One line for a failed write or read of stored state, naming the cause a person can act on."""

from __future__ import annotations

import errno

import psycopg
from psycopg_pool import PoolTimeout

_DISK_FULL = {errno.ENOSPC, errno.EDQUOT}
# What a store raises when the database or the disk is not there: refused, never half-done.
StorageUnavailable = (psycopg.OperationalError, psycopg.InterfaceError, PoolTimeout, OSError)


def describe_storage_error(exc: BaseException) -> str:
    """`disk full: /home/u/.jarvis/sessions/x.jsonl`, `database unavailable: …`, or the error."""
    if isinstance(exc, OSError) and exc.errno in _DISK_FULL:
        return f"disk full: {exc.filename or exc.strerror}"
    if isinstance(exc, PermissionError):
        return f"permission denied: {exc.filename or exc.strerror}"
    if isinstance(exc, psycopg.OperationalError | psycopg.InterfaceError | PoolTimeout):
        first = str(exc).strip().splitlines()[0] if str(exc).strip() else type(exc).__name__
        return f"database unavailable: {first}"
    if isinstance(exc, OSError):
        return f"{exc.strerror or type(exc).__name__}: {exc.filename or ''}".rstrip(": ")
    return f"{type(exc).__name__}: {exc}"
