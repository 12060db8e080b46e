"""The people's page languages file (`<home>/languages.json`): written only on a change, private,
read back at start; a file a person broke is never overwritten."""

from __future__ import annotations

import stat
from pathlib import Path

import pytest

from jarvis.app.person_languages import PersonLanguages, parse


def test_a_change_is_written_and_read_back(tmp_path: Path) -> None:
    path = tmp_path / "languages.json"
    langs = PersonLanguages(path)
    langs["ann"] = "en"
    langs["bob"] = "ko"
    assert stat.S_IMODE(path.stat().st_mode) == 0o600
    stamp = path.stat().st_mtime_ns
    langs["ann"] = "en"  # the same again: nothing written
    assert path.stat().st_mtime_ns == stamp
    assert PersonLanguages(path) == {"ann": "en", "bob": "ko"}
    assert PersonLanguages(None) == {} and PersonLanguages(tmp_path / "none.json") == {}


@pytest.mark.parametrize(
    ("text", "people"),
    [
        ('{"version": 1, "people": {"a": "en", "b": "fr", "c": 3}}', {"a": "en"}),
        ('{"version": 1, "people": {}}', {}),
    ],
)
def test_parse_keeps_only_languages_jarvis_speaks(text: str, people: dict[str, str]) -> None:
    assert parse(text) == people


@pytest.mark.parametrize("text", ["{", "[]", '{"version": 2, "people": {}}', '{"version": 1}'])
def test_a_broken_file_is_kept_and_the_languages_live_in_memory(tmp_path: Path, text: str) -> None:
    path = tmp_path / "languages.json"
    path.write_text(text)
    langs = PersonLanguages(path)
    langs["ann"] = "en"
    assert langs["ann"] == "en" and path.read_text() == text
