"""Front ends: the terminal (cli/) and the Web HUD (web/). They only translate events."""
