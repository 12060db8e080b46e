"""The `jarvis` command."""
