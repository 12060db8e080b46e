"""`jarvis sources` as a user runs it: real processes, a feed site on 127.0.0.1."""

from __future__ import annotations

import json
import subprocess
from pathlib import Path

import pytest
from pytest_httpserver import HTTPServer

from tests.integration.cli.test_schedules_cli import jarvis as run_jarvis
from tests.integration.sources.feeds import FeedSite, Item


def jarvis(home: Path, *args: str) -> subprocess.CompletedProcess[str]:
    return run_jarvis(
        home,
        *args,
        command="sources",
        JARVIS_LANGUAGE="en",
        JARVIS_SECURITY__WEB_FETCH_ALLOW_PRIVATE="true",
    )


@pytest.mark.timeout(600)
def test_add_check_grant_list_remove(tmp_path: Path, httpserver: HTTPServer) -> None:
    (tmp_path / "script.json").write_text(json.dumps([]), encoding="utf-8")
    site = FeedSite(items=[Item("a", "https://n.example/a", "First story")])
    url = site.serve(httpserver, "/feed.xml")
    bad = jarvis(tmp_path, "add", "news", url, "--every", "soon")
    assert (
        bad.returncode == 2
        and bad.stderr.strip() == "every: 'soon' is not like '30 minutes', '2 hours' or '1 day'"
    )
    added = jarvis(tmp_path, "add", "news", url, "--every", "30 minutes", "--match", "story")
    assert added.returncode == 0, added.stderr
    assert "added, off" in added.stdout and "jarvis sources grant news" in added.stdout
    # Not pre-approved: check is refused by the gate and the site never hears from it.
    refused = jarvis(tmp_path, "check", "news")
    assert (
        "blocked: the owner (local) has not pre-approved web_fetch to localhost" in refused.stdout
    )
    assert site.requests == []
    assert "news [off]" in jarvis(tmp_path, "list").stdout
    granted = jarvis(tmp_path, "grant", "news")
    assert granted.stdout.strip() == "news: web_fetch to localhost pre-approved by local; on"
    first = jarvis(tmp_path, "check", "news")
    assert "new: First story — https://n.example/a" in first.stdout
    site.items.insert(0, Item("b", "https://n.example/b", "Second story"))
    second = jarvis(tmp_path, "check", "news").stdout.splitlines()
    assert second[1:] == ["new: Second story — https://n.example/b"]
    unchanged = jarvis(tmp_path, "check", "news").stdout
    assert unchanged.startswith("news: 304 not modified")
    listed = jarvis(tmp_path, "list").stdout
    assert "news [on]" in listed and "web_fetch:granted" in listed and "304 not modified" in listed
    assert jarvis(tmp_path, "remove", "news").stdout.strip() == "news: removed"
    assert jarvis(tmp_path, "list").stdout.strip() == "(no sources in ~/.jarvis/external_sources/)"


@pytest.mark.timeout(600)
def test_edit_sets_notify_and_max_per_day_for_the_owner_only(tmp_path: Path) -> None:
    (tmp_path / "script.json").write_text(json.dumps([]), encoding="utf-8")
    path = tmp_path / "external_sources" / "news.yaml"
    path.parent.mkdir(parents=True)
    text = "# mine\nurl: https://n.example/feed\nnotify: digest\nmax_per_day: 20\nowner: local\n"
    path.write_text(text, encoding="utf-8")
    bad = jarvis(tmp_path, "edit", "news", "--max-per-day", "0")
    assert bad.returncode == 2
    assert bad.stderr.strip().splitlines()[-1] == (
        "max_per_day: Input should be greater than or equal to 1"
    )
    assert path.read_text(encoding="utf-8") == text
    other = jarvis(tmp_path, "edit", "news", "--notify", "off", "--user", "mina")
    assert other.returncode == 2 and "only the owner (local)" in other.stderr
    done = jarvis(tmp_path, "edit", "news", "--notify", "immediate", "--max-per-day", "5")
    assert done.stdout.strip() == "news: notify immediate, max_per_day 5", done.stderr
    assert path.read_text(encoding="utf-8") == text.replace("digest", "immediate").replace(
        "20", "5"
    )
