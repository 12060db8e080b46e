"""External sources, the pure core: definitions, feed parsing, seen keys, polls, digests."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from jarvis.core.sources.definition import load_sources, parse_source, write_source
from jarvis.core.sources.digest import digest_text, matches
from jarvis.core.sources.entries import Entry, normalise_link, parse_body, parse_feed
from jarvis.core.sources.poll import SourceStatus, conditional_headers, due, judge, take_quota
from jarvis.core.sources.seen import SeenIndex, SeenStore, classify


@pytest.mark.parametrize(
    ("text", "error"),
    [
        ("url: https://a.example/feed\n", None),
        ("url: ftp://a.example/feed\n", "url: 'ftp://a.example/feed' is not an http(s) URL"),
        ("every: 1 hour\n", "url: Field required"),
        ("url: https://a.example/\nevery: soon\n", "every: 'soon' is not like"),
        ("url: https://a.example/\nevery: 30 s\n", "every: '30 s' is not like"),
        ("url: https://a.example/\nnotify: loud\n", "notify: Input should be"),
        ("url: https://a.example/\nmax_per_day: 0\n", "max_per_day: Input should be greater"),
        ("- a\n- b\n", "not a mapping"),
        ("url: [unclosed\n", "not YAML:"),
    ],
)
def test_definition_errors_are_one_line(text: str, error: str | None) -> None:
    if error is None:
        source = parse_source("news", text)
        assert (source.notify, source.enabled, source.every_sec) == ("digest", False, 3600)
        return
    with pytest.raises(ValueError) as caught:
        parse_source("news", text)
    assert str(caught.value).startswith(error)
    assert "\n" not in str(caught.value)


def test_load_lists_broken_files_and_round_trips(tmp_path: Path) -> None:
    source = parse_source("a", 'url: https://A.example/f?x=1\nmatch: [파이썬, "a: b"]\n')
    write_source(tmp_path, source)
    (tmp_path / "external_sources" / "bad.yaml").write_text("url: nope\n")
    (tmp_path / "external_sources" / "Bad Name.yaml").write_text("url: https://x/\n")
    found, errors = load_sources(tmp_path)
    assert [s.model_dump() for s in found] == [source.model_dump()]
    assert set(errors) == {"bad", "Bad Name"}
    assert found[0].host == "a.example"


def test_fingerprint_is_the_host() -> None:
    a = parse_source("a", "url: https://a.example/one\n")
    assert (
        a.fingerprint()
        == parse_source("a", "url: https://a.example/two\nevery: 2h\n").fingerprint()
    )
    assert a.fingerprint() != parse_source("a", "url: https://b.example/one\n").fingerprint()


@pytest.mark.parametrize(
    ("link", "normal"),
    [
        ("HTTPS://Example.COM:443/a/?utm_source=x&b=2&a=1#top", "https://example.com/a?a=1&b=2"),
        ("http://example.com:80", "http://example.com/"),
        ("http://example.com:8080/p/", "http://example.com:8080/p"),
        ("", ""),
    ],
)
def test_normalise_link(link: str, normal: str) -> None:
    assert normalise_link(link) == normal


RSS = b"""<?xml version="1.0"?><rss version="2.0"><channel><title>t</title>
<item><guid>g1</guid><link>https://e.example/1</link><title>One</title>
<pubDate>Fri, 04 Dec 2026 10:00:00 GMT</pubDate><description>first</description></item>
<item><guid>g2</guid><link>https://e.example/2</link><title>Two</title></item>
</channel></rss>"""
ATOM = b"""<?xml version="1.0" encoding="utf-8"?><feed xmlns="http://www.w3.org/2005/Atom">
<title>t</title><id>urn:f</id><updated>2026-12-04T10:00:00Z</updated>
<entry><id>urn:1</id><title>One</title><link href="https://e.example/1"/>
<updated>2026-12-04T10:00:00Z</updated><summary>first</summary></entry></feed>"""
JSON_FEED = json.dumps(
    {
        "version": "https://jsonfeed.org/version/1.1",
        "title": "t",
        "items": [{"id": "j1", "url": "https://e.example/1", "title": "One", "content_text": "x"}],
    }
).encode()


@pytest.mark.parametrize(
    ("body", "content_type", "ids"),
    [
        (RSS, "application/rss+xml", ["g1", "g2"]),
        (ATOM, "application/atom+xml", ["urn:1"]),
        (JSON_FEED, "application/feed+json", ["j1"]),
        (JSON_FEED, "text/plain", ["j1"]),
    ],
)
def test_feeds_parse(body: bytes, content_type: str, ids: list[str]) -> None:
    entries = parse_feed(body, content_type)
    assert [e.id for e in entries] == ids
    assert entries[0].link == "https://e.example/1" and entries[0].title == "One"


@pytest.mark.parametrize("body", [b"", b"just words", b"{not json", b'{"items": 3}'])
def test_not_a_feed(body: bytes) -> None:
    with pytest.raises(ValueError):
        parse_feed(body, "application/json" if body.startswith(b"{") else "")


def test_page_is_one_entry_of_main_text() -> None:
    html = (
        "<html><head><title>Release notes</title></head><body><nav>menu menu</nav><article>"
        + "<p>Version 2 adds streaming and fixes the crash on start.</p>" * 5
        + "</article></body></html>"
    ).encode()
    kind, entries = parse_body(html, "text/html", "https://e.example/notes")
    assert kind == "page" and len(entries) == 1
    assert "Version 2 adds streaming" in entries[0].summary and "menu" not in entries[0].summary
    assert entries[0].title == "Release notes"


def _e(id_: str, link: str, title: str, summary: str = "s", date: str = "d") -> Entry:
    return Entry(id=id_, link=link, title=title, published=date, summary=summary)


SEEN = [_e("1", "https://e.example/1", "One"), _e("2", "https://e.example/2", "Two")]


@pytest.mark.parametrize(
    ("entries", "new", "updated", "unchanged"),
    [
        (SEEN, [], [], 2),
        (list(reversed(SEEN)), [], [], 2),  # reordered
        ([_e("x1", "https://e.example/1", "One")], [], [], 1),  # ids rewritten
        ([_e("1", "https://e.example/1?utm_source=rss", "One")], [], [], 1),  # tracking added
        ([_e("z", "https://m.example/one", "One")], [], [], 1),  # mirror: same title + date
        ([_e("1", "https://e.example/1", "One", "edited")], [], ["1"], 0),  # updated in place
        ([_e("3", "https://e.example/3", "Three")], ["3"], [], 0),
        ([_e("3", "https://e.example/3", "T"), _e("3", "https://e.example/3", "T")], ["3"], [], 0),
        ([_e("", "", "One", date="other day")], [""], [], 0),  # same title, another date
    ],
)
def test_classify(entries: list[Entry], new: list[str], updated: list[str], unchanged: int) -> None:
    index = SeenIndex()
    for entry in SEEN:
        index.add(entry.seen_keys(), entry.content)
    result = classify(entries, index)
    assert [e.id for e in result.new] == new
    assert [e.id for e in result.updated] == updated
    assert result.unchanged == unchanged


def test_seen_store_skips_a_torn_last_line(tmp_path: Path) -> None:
    store = SeenStore(tmp_path)
    store.append("a", SEEN, 1)
    with store.path.open("ab") as handle:
        handle.write(b'{"source": "a", "keys": ["id:torn"')
    index = store.load()
    assert index.known(SEEN[1]) is not None and "id:torn" not in index.content
    store.append("b", [_e("3", "https://e.example/3", "Three")], 2)  # not glued to the torn line
    assert store.load().known(_e("3", "", ""), "b") is not None


def test_a_bare_id_is_per_source_a_global_one_is_shared(tmp_path: Path) -> None:
    store = SeenStore(tmp_path)
    store.append("a", [_e("1", "https://a.example/1", "A one"), _e("tag:x,2026:7", "", "T")], 1)
    seen = store.load()
    # feed b numbers its entries too: its "1" is another entry, new
    other = _e("1", "https://b.example/1", "B one")
    assert [e.link for e in classify([other], seen, "b").new] == ["https://b.example/1"]
    assert classify([_e("1", "https://a.example/1", "A one")], seen, "a").unchanged == 1
    # an id with a scheme names the entry wherever it appears
    assert classify([_e("tag:x,2026:7", "", "T")], seen, "b").unchanged == 1


def test_poll_judgements() -> None:
    status = SourceStatus(etag='"v1"', last_modified="Fri, 04 Dec 2026 10:00:00 GMT")
    assert conditional_headers(status) == {
        "If-None-Match": '"v1"',
        "If-Modified-Since": "Fri, 04 Dec 2026 10:00:00 GMT",
    }
    u = "https://e.example/f"
    cases = {
        304: ({}, "unchanged", "304 not modified"),
        200: ({"etag": '"v2"'}, "parse", "200 ok"),
        301: ({"location": "https://e.example/g"}, "moved", "301 moved permanently: now"),
        410: ({}, "gone", "410 gone: paused"),
        429: ({"retry-after": "120"}, "retry_later", "429 too many requests: next poll in 120 s"),
        500: ({}, "failed", "500 failed"),
    }
    for code, (headers, action, line) in cases.items():
        outcome = judge(status, code, headers, 1_000_000, u)
        assert outcome.action == action, code
        assert outcome.status.line.startswith(line), outcome.status.line
        assert "\n" not in outcome.status.line
    assert judge(status, 200, {"etag": '"v2"'}, 0, u).status.etag == '"v2"'
    assert judge(status, 301, {"location": "https://e.example/g"}, 0, u).status.url.endswith("/g")
    gone = judge(status, 410, {}, 0, u).status
    assert gone.paused and not due(gone, 60, 10**12)
    later = judge(status, 429, {"retry-after": "120"}, 1_000_000, u).status
    assert not due(later, 60, 1_000_000 + 119_000) and due(later, 60, 1_000_000 + 120_000)
    date = judge(status, 429, {"retry-after": "Thu, 01 Jan 1970 00:30:00 GMT"}, 0, u).status
    assert date.retry_at_ms == 1_800_000


def test_quota_and_digest() -> None:
    assert take_quota(SourceStatus(sent_today=18, day="d1"), 5, 20, "d1") == 2
    assert take_quota(SourceStatus(sent_today=18, day="d0"), 5, 20, "d1") == 5
    assert matches(_e("1", "", "Python 3.14 released"), ["python"])
    assert not matches(_e("1", "", "Rust", summary="nothing"), ["python", "go "])
    assert matches(_e("1", "", "anything"), [])
    # the owner's interests (user model) count like keywords, when the source asks for them
    rust = _e("1", "", "러스트 1.90 출시")
    assert matches(rust, ["python"], ["러스트"])
    assert not matches(rust, ["python"], ["바둑"])
    assert matches(rust, [], ["러스트"]) and not matches(rust, [], ["바둑"])
    assert not matches(rust, [], [])  # asked for interests, none known: quiet, not everything
    text = digest_text("news", [_e(str(i), f"https://e/{i}", f"T{i}") for i in range(22)], "en")
    assert text.splitlines()[0] == "📰 [news] 22 new"
    assert text.splitlines()[1] == "• T0 — https://e/0" and text.endswith("… and 2 more")
