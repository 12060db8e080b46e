"""Build the web app from the environment: what each `jarvis serve --workers N` process runs."""

from __future__ import annotations

import os

from fastapi import FastAPI

from jarvis.app.infra import build_app
from jarvis.app.settings import load_settings
from jarvis.ui.web.server import create_app

DEMO_ENV = "JARVIS_SERVE_DEMO"


def create_from_env() -> FastAPI:
    return create_app(build_app(load_settings(), demo=os.environ.get(DEMO_ENV) == "1"))
