"""The tool gate's judgement: shell parsing, rules, suggested patterns, dangerous commands."""
