"""The security pipeline: validation → authentication → policy (→ the per-call gate)."""

from jarvis.core.security.validation import ValidationResult, validate_input

__all__ = ["ValidationResult", "validate_input"]
