"""The user model (seed 004): what Jarvis knows about each person, guarded, visible, correctable."""

from jarvis.core.user_model.facts import (
    FIELDS,
    Fact,
    Proposal,
    apply_proposals,
    forget,
    pin,
    set_by_person,
    user_section,
)
from jarvis.core.user_model.guard import GuardResult, check_statement
from jarvis.core.user_model.store import FILE_NAME, UserModelFileError, UserModelStore

__all__ = [
    "FIELDS",
    "FILE_NAME",
    "Fact",
    "GuardResult",
    "Proposal",
    "UserModelFileError",
    "UserModelStore",
    "apply_proposals",
    "check_statement",
    "forget",
    "pin",
    "set_by_person",
    "user_section",
]
