"""Focus tasks on the durable engine: the planning call and each step as their own run."""
