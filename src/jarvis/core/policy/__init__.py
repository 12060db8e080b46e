"""The tool gate's judgement: shell parsing, remembered rules, suggested patterns, dangerous
commands, and the rule files. Everything here but `RuleStore` is pure.

See each module's docstring for semantics: `shell` (what a line runs and why it may be unsafe),
`rules` (matching), `argv_policy` (arguments no rule covers), `patterns` (what ALWAYS saves and
why not), `destructive` (dangerous commands on argv), `dangerous` (the regex layer),
`request_warnings`, `secrets`, `rule_store`.
"""

from jarvis.core.policy.dangerous import DEFAULT_DANGEROUS_COMMANDS, DangerousMatcher
from jarvis.core.policy.destructive import Danger, find_danger, judge_command
from jarvis.core.policy.patterns import NO_ALWAYS_REASONS, explain_pattern, suggest_pattern
from jarvis.core.policy.request_warnings import shell_warnings
from jarvis.core.policy.rule_store import RuleFileError, RuleStore, validate_agent_id
from jarvis.core.policy.rules import (
    PATH_TOOLS,
    SHELL_TOOLS,
    Rule,
    RuleMatch,
    RuleSet,
    is_expired,
    is_stale,
    match_any_rules,
    match_path_rules,
    match_shell_rules,
    normalise_path,
)
from jarvis.core.policy.shell import ShellAnalysis, SimpleCommand, UnsafeReason, analyze_shell

__all__ = [
    "DEFAULT_DANGEROUS_COMMANDS",
    "NO_ALWAYS_REASONS",
    "PATH_TOOLS",
    "SHELL_TOOLS",
    "Danger",
    "DangerousMatcher",
    "Rule",
    "RuleFileError",
    "RuleMatch",
    "RuleSet",
    "RuleStore",
    "ShellAnalysis",
    "SimpleCommand",
    "UnsafeReason",
    "analyze_shell",
    "explain_pattern",
    "find_danger",
    "is_expired",
    "is_stale",
    "judge_command",
    "match_any_rules",
    "match_path_rules",
    "match_shell_rules",
    "normalise_path",
    "shell_warnings",
    "suggest_pattern",
    "validate_agent_id",
]
