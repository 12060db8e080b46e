"""Editing a source's `notify` and `max_per_day` through the real server's route (the HUD's):
the owner only; a bad value is one line (422) and leaves the file byte for byte; a good one is
written atomically with the file's other lines and comments kept."""

from __future__ import annotations

from pathlib import Path

import httpx
import pytest

from jarvis.core.sources.definition import load_sources
from tests.support.live_server import live_server

FILE = """# the person's own note: kept
url: https://news.example/feed   # the feed
every: 30 minutes
match: [python]
notify: digest
max_per_day: 20
owner: local
agent: main
enabled: true
"""


@pytest.mark.parametrize(
    ("body", "error"),
    [
        ({"notify": "loud"}, "notify: Input should be 'digest', 'immediate' or 'off'"),
        ({"max_per_day": 0}, "max_per_day: Input should be greater than or equal to 1"),
        ({"max_per_day": "many"}, "max_per_day: Input should be a valid integer"),
        ({"max_per_day": ""}, "max_per_day: Input should be a valid integer"),
        ({"max_per_day": 5000}, "max_per_day: Input should be less than or equal to 1000"),
        ({"notify": "yes"}, "notify: Input should be 'digest', 'immediate' or 'off'"),
    ],
)
async def test_a_bad_value_is_one_line_and_the_file_is_left_as_it_was(
    tmp_path: Path, body: dict[str, object], error: str
) -> None:
    path = tmp_path / "external_sources" / "news.yaml"
    path.parent.mkdir(parents=True)
    path.write_text(FILE, encoding="utf-8")
    with live_server(tmp_path, []) as server:
        async with httpx.AsyncClient(base_url=server.url, headers=server.headers) as client:
            answer = await client.post("/api/sources/news/edit", json=body)
    assert answer.status_code == 422
    detail = answer.json()["detail"]
    assert detail.startswith(error) and "\n" not in detail
    assert path.read_text(encoding="utf-8") == FILE


async def test_the_owner_edits_notify_and_max_per_day_and_nothing_else_changes(
    tmp_path: Path,
) -> None:
    folder = tmp_path / "external_sources"
    folder.mkdir()
    (folder / "news.yaml").write_text(FILE, encoding="utf-8")
    (folder / "theirs.yaml").write_text(FILE.replace("owner: local", "owner: mina"), "utf-8")
    with live_server(tmp_path, []) as server:
        async with httpx.AsyncClient(base_url=server.url, headers=server.headers) as client:
            edit = {"notify": "immediate", "max_per_day": "5"}
            answer = await client.post("/api/sources/news/edit", json=edit)
            assert answer.json() == {"id": "news", "notify": "immediate", "max_per_day": 5}
            [row] = (await client.get("/api/sources")).json()
            assert (row["notify"], row["max_per_day"]) == ("immediate", 5)
            other = await client.post("/api/sources/theirs/edit", json={"notify": "off"})
            assert other.status_code == 403
            assert (await client.post("/api/sources/none/edit", json={})).status_code == 404
    text = (folder / "news.yaml").read_text(encoding="utf-8")
    assert text == FILE.replace("notify: digest", "notify: immediate").replace(
        "max_per_day: 20", "max_per_day: 5"
    )
    assert (folder / "theirs.yaml").read_text(encoding="utf-8") == FILE.replace(
        "owner: local", "owner: mina"
    )
    [news, _] = load_sources(tmp_path)[0]
    assert (news.notify, news.max_per_day, news.enabled, news.match) == (
        "immediate",
        5,
        True,
        ["python"],
    )
    assert list(folder.glob("*.tmp*")) == []
