"""Agent layer: the loop, its events and tool seam, session stores and open loops."""
