"""The shared append-only JSONL writer and the bounded line readers."""

from __future__ import annotations

import io
import json
import os
from pathlib import Path

import pytest

from jarvis.common.jsonl import (
    JsonlWriter,
    create_with_line,
    lines_backward,
    lines_forward,
    loads_object,
)


def test_appends_whole_lines_and_never_glues_onto_a_torn_one(tmp_path: Path) -> None:
    path = tmp_path / "log.jsonl"
    path.write_text('{"a": 1}\n{"b": ', encoding="utf-8")  # a crash tore the last line
    writer = JsonlWriter(path)
    writer.append([json.dumps({"c": 3}), json.dumps({"d": 4})])
    writer.append([json.dumps({"e": 5})])
    lines = path.read_bytes().split(b"\n")
    assert lines == [b'{"a": 1}', b'{"b": ', b'{"c": 3}', b'{"d": 4}', b'{"e": 5}', b""]


def test_a_torn_line_left_by_another_writer_is_not_glued_onto(tmp_path: Path) -> None:
    path = tmp_path / "log.jsonl"
    writer = JsonlWriter(path)
    writer.append(["1"])
    with path.open("a", encoding="utf-8") as handle:
        handle.write('{"torn')
    writer.append(["2"])
    assert path.read_text(encoding="utf-8") == '1\n{"torn\n2\n'


def test_a_failed_write_names_the_file(tmp_path: Path) -> None:
    full = Path("/dev/full")
    if not full.exists():
        pytest.skip("no /dev/full on this system")
    with pytest.raises(OSError) as caught:
        JsonlWriter(full).append(["{}"])
    assert caught.value.filename == "/dev/full" and "/dev/full" in str(caught.value)


def test_create_with_line_is_all_or_nothing_and_never_replaces(tmp_path: Path) -> None:
    path = tmp_path / "s.jsonl"
    create_with_line(path, '{"type": "header"}')
    assert path.read_text(encoding="utf-8") == '{"type": "header"}\n'
    with pytest.raises(FileExistsError) as caught:
        create_with_line(path, '{"other": 1}')
    assert str(path) in str(caught.value)
    assert path.read_text(encoding="utf-8") == '{"type": "header"}\n'
    assert sorted(p.name for p in tmp_path.iterdir()) == ["s.jsonl"]  # no temp file left
    assert os.stat(path).st_mode & 0o077 == 0  # private to the user


@pytest.mark.parametrize("max_line", [3, 7, 50, 10_000])
def test_readers_agree_with_split_and_drop_only_overlong_lines(max_line: int) -> None:
    lines = [b"", b"a", b"bb" * 3, b"c" * 40, b"", b"d" * 5000, b"e", b"f" * 9000 + b"g"]
    data = b"\n".join(lines)
    expected = [line if len(line) <= max_line else None for line in lines]
    forward = list(lines_forward(io.BytesIO(data), max_line=max_line))
    backward = list(lines_backward(io.BytesIO(data), len(data), max_line=max_line))
    assert forward == expected
    assert backward == expected[::-1]


def test_backward_reading_stops_at_the_given_start() -> None:
    data = b"header\none\ntwo\n"
    assert list(lines_backward(io.BytesIO(data), len(data), stop=7)) == [b"", b"two", b"one"]


def test_loads_object_is_none_for_anything_but_one_json_object() -> None:
    assert loads_object(b'{"a": 1}') == {"a": 1}
    for raw in (None, b"", b"  ", b"[1]", b'{"a": ', b"\xff\xfe"):
        assert loads_object(raw) is None
