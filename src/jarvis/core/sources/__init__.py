"""External sources (seed 004, docs/sources.md): feeds and pages watched, each entry said once."""
