"""`jarvis desktop`: the Web HUD in a native window (seed 004: "a desktop app window is one
more connection to the same HUD")."""
