"""Jarvis: an open personal AI assistant runtime with a human in charge of every risky action."""

__version__ = "0.1.0"
