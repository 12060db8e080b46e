"""Call results: bounded, never the same answer twice, images as parts."""

from __future__ import annotations

import base64
from typing import Any

import mcp_types
import pytest

from jarvis.core.mcp.results import restates, to_tool_result

PNG = base64.b64encode(b"\x89PNG\r\n\x1a\n" + bytes(100)).decode()


@pytest.mark.parametrize(
    ("structured", "text", "expected"),
    [
        ({"a": 1}, '{"a": 1}', True),
        ({"result": "hi"}, "hi", True),
        ({"content": "file body"}, "file body", True),  # server-filesystem's read_text_file
        ({"n": [1, 2]}, 'Result:\n{\n  "n": [\n    1,\n    2\n  ]\n}', True),
        ({"sum": 5}, "2 + 3 = 5", False),
        ({"a": 1, "b": 2}, '{"a": 1}', False),
        ({"content": "x"}, "", False),
    ],
)
def test_restated_structured_content(structured: Any, text: str, expected: bool) -> None:
    assert restates(structured, text) is expected


def test_a_large_text_is_capped_once_with_a_note() -> None:
    body = "x" * 2_000_000
    result = mcp_types.CallToolResult(
        content=[mcp_types.TextContent(text=body)], structured_content={"content": body}
    )

    mapped = to_tool_result(result, 25_000)

    assert len(mapped.content) < 25_100
    assert mapped.content.endswith("[truncated: showing 25,000 of 2,000,000 characters]")


def test_images_become_parts_and_a_short_note() -> None:
    result = mcp_types.CallToolResult(
        content=[
            mcp_types.ImageContent(data=PNG, mime_type="image/png"),
            mcp_types.ImageContent(data=PNG, mime_type="image/x-icon"),
        ]
    )

    mapped = to_tool_result(result, 25_000)

    assert [(i.mime_type, i.data) for i in mapped.images] == [("image/png", PNG)]
    assert mapped.content.splitlines() == [
        "[image 1: image/png, 108 bytes, attached]",
        "[image: image/x-icon, 108 bytes, not attached]",
    ]
    assert PNG not in mapped.content
