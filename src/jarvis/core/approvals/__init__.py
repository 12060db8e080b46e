"""Approvals: pending items (answered once), requests shown to humans, channels, the audit log."""
