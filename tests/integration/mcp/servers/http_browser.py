"""A "browser" for `$BROWSER`: follows a URL and its redirects, prints where it landed.

`jarvis mcp login` opens the authorization URL with Python's `webbrowser`, which runs the
command in `$BROWSER`; the tests point it here (`python http_browser.py %s`).
"""

from __future__ import annotations

import sys

import httpx2

if __name__ == "__main__":
    landed = httpx2.get(sys.argv[1], follow_redirects=True)
    print(landed.status_code, landed.url, landed.text)
