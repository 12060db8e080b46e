"""Speaking first, wired: triggers → fingerprint → budget → one reflection → the gate → a card."""
