"""Build the web app from the environment: what each `jarvis serve --workers N` process runs."""

from __future__ import annotations

import os

from fastapi import FastAPI

from jarvis.app.infra import build_app
from jarvis.app.settings import load_settings
from jarvis.common.server_gc import settle_after_start
from jarvis.ui.web.launch_token import forget_launch_token_env
from jarvis.ui.web.server import create_app

DEMO_ENV = "JARVIS_SERVE_DEMO"


def create_from_env() -> FastAPI:
    settings = load_settings()
    forget_launch_token_env()  # read once; the tools this process runs must not inherit it
    demo = os.environ.get(DEMO_ENV) == "1"
    return create_app(build_app(settings, demo=demo), after_start=settle_after_start)
