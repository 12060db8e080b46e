"""Serving the HUD's own files: `/static/<name>` and `/static/vendor/<name>`, nothing else.

A name is checked against a closed shape (one optional `vendor/` folder, then a plain file name
with a known suffix) before anything touches the package, so `..`, encoded slashes, absolute
paths and deeper folders are refused without being resolved.
"""

from __future__ import annotations

import re
from importlib import resources

from fastapi import FastAPI, HTTPException
from fastapi.responses import Response

MEDIA_TYPES = {
    ".js": "text/javascript",
    ".css": "text/css",
    ".png": "image/png",
    ".svg": "image/svg+xml",
}
_NAME = re.compile(r"(?:vendor/)?[A-Za-z0-9_-][A-Za-z0-9_.-]*")
# The libraries never change between releases of Jarvis: let the browser keep them a day.
_VENDOR_CACHE = "public, max-age=86400"


def safe_static_path(name: str) -> tuple[str, ...] | None:
    """The package-relative parts for `name`, or None when it is not a servable file name."""
    if not _NAME.fullmatch(name) or ".." in name:
        return None
    suffix = name[name.rfind(".") :] if "." in name else ""
    if suffix not in MEDIA_TYPES:
        return None
    return tuple(name.split("/"))


def register_static_route(app: FastAPI) -> None:
    @app.get("/static/{name:path}")
    async def static(name: str) -> Response:
        parts = safe_static_path(name)
        if parts is None:
            raise HTTPException(404)
        try:
            data = resources.files("jarvis.ui.web.static").joinpath(*parts).read_bytes()
        except (FileNotFoundError, IsADirectoryError, NotADirectoryError):
            raise HTTPException(404) from None
        headers = {"Cache-Control": _VENDOR_CACHE} if parts[0] == "vendor" else {}
        return Response(data, media_type=MEDIA_TYPES[name[name.rfind(".") :]], headers=headers)
