"""Built-in providers."""
