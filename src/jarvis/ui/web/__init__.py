"""The Web HUD: FastAPI app, WebSocket protocol, per-session approval broker, static page."""
