"""An MCP call result as a bounded Jarvis tool result.

Text blocks are joined and capped like the built-ins' output (with a "truncated" note), so a
2 MB file read does not reach the model whole. Structured content is added only when it says
something the text does not (servers usually send both forms of one answer). Images go as image
parts, which providers that accept images pass on as vision input; the text keeps a short note
either way, so a provider without images still tells the model what was there.
"""

from __future__ import annotations

import json
from typing import Any, Final, assert_never

import mcp_types

from jarvis.agent_layer.tools import ToolResult
from jarvis.core.tools.builtins._output import truncate
from jarvis.model_layer.messages import ImagePart

# Larger images stay a note: a few MB of base64 would crowd out the whole context.
MAX_IMAGE_BYTES: Final = 4 * 1024 * 1024
_IMAGE_TYPES: Final = frozenset({"image/png", "image/jpeg", "image/gif", "image/webp"})


def to_tool_result(result: mcp_types.CallToolResult, max_chars: int) -> ToolResult:
    """Text blocks joined and capped, images as parts, structured content when it adds news."""
    images: list[ImagePart] = []
    text = "\n".join(_render(block, images) for block in result.content)
    details: dict[str, Any] = {}
    structured = result.structured_content
    if structured is not None:
        details["structured_content"] = structured
        if not restates(structured, text):
            rendered = json.dumps(structured, ensure_ascii=False)
            text = f"{text}\n{rendered}" if text else rendered
    return ToolResult(
        content=truncate(text, max_chars), is_error=result.is_error, details=details, images=images
    )


def _render(block: mcp_types.ContentBlock, images: list[ImagePart]) -> str:
    match block:
        case mcp_types.TextContent():
            return block.text
        case mcp_types.ImageContent():
            size = decoded_size(block.data)
            if block.mime_type in _IMAGE_TYPES and size <= MAX_IMAGE_BYTES:
                images.append(ImagePart(mime_type=block.mime_type, data=block.data))
                return f"[image {len(images)}: {block.mime_type}, {size:,} bytes, attached]"
            return f"[image: {block.mime_type}, {size:,} bytes, not attached]"
        case mcp_types.AudioContent():
            return f"[audio: {block.mime_type}, {decoded_size(block.data):,} bytes]"
        case mcp_types.ResourceLink():
            return f"[resource link: {block.uri} ({block.name}); read it with read_resource]"
        case mcp_types.EmbeddedResource():
            return _render_resource(block.resource)
        case _:
            assert_never(block)


def _render_resource(
    resource: mcp_types.TextResourceContents | mcp_types.BlobResourceContents,
) -> str:
    if isinstance(resource, mcp_types.TextResourceContents):
        return f"[resource: {resource.uri}]\n{resource.text}"
    mime = resource.mime_type or "application/octet-stream"
    return f"[resource: {resource.uri}, {mime}, {decoded_size(resource.blob):,} bytes]"


def decoded_size(base64_text: str) -> int:
    data = base64_text.strip()
    return len(data) * 3 // 4 - data[-2:].count("=")


def restates(structured: Any, text: str) -> bool:
    """Whether `structured` is the text again: the same JSON, the text wrapped in one key
    (`{"result": …}`, `{"content": …}`), or its JSON printed inside the text."""
    try:
        parsed: Any = json.loads(text)
    except ValueError:
        parsed = text
    if parsed == structured:
        return True
    if isinstance(structured, dict) and len(structured) == 1:
        (value,) = structured.values()
        if value in (parsed, text):
            return True
    # The JSON printed inside a longer text (e.g. "Result:\n{...}").
    return any(form in text for form in _json_forms(structured))


def _json_forms(value: Any) -> tuple[str, ...]:
    if not isinstance(value, dict | list) or not value:
        return ()
    return (
        json.dumps(value, ensure_ascii=False),
        json.dumps(value, ensure_ascii=False, indent=2),
        json.dumps(value, ensure_ascii=False, separators=(",", ":")),
    )
