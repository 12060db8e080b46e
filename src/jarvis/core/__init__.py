"""Core: AgentSession, the security pipeline, tools, the tool gate, approvals, plugins."""
