"""Team agents and sub-agents: their definition files, orchestration patterns and runtime."""
