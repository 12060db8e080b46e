"""Which server failures are retried, and how their text is cut to one line."""

from __future__ import annotations

import pytest

from jarvis.model_layer.providers.server_errors import ServerFailure, failure_text, one_line


@pytest.mark.parametrize(
    ("status", "text", "retryable"),
    [
        (503, "overloaded", True),
        (429, "rate limit", True),
        (500, "llama_decode failed", True),
        (500, 'can only concatenate str (not "NoneType") to str', False),
        (500, "Error rendering prompt with jinja template", False),
        (500, "exceed_context_size_error", False),
        (400, "anything at all", False),
        (404, "not found", False),
        (408, "request timeout", True),
    ],
)
def test_retry_only_what_may_succeed_next_time(status: int, text: str, retryable: bool) -> None:
    assert ServerFailure(status, text).retryable is retryable


@pytest.mark.parametrize(
    ("text", "sizes"),
    [
        ("Requested tokens (3000) exceed context window of 2048", (3000, 2048)),
        (
            "This model's maximum context length is 4096 tokens. However, you requested "
            "5000 tokens (4000 in the messages, 1000 in the completion).",
            (5000, 4096),
        ),
        ("context_length_exceeded", (None, None)),
        ("overloaded", None),
    ],
)
def test_overflow_sizes_from_each_servers_wording(
    text: str, sizes: tuple[int | None, int | None] | None
) -> None:
    assert ServerFailure(400, text).overflow() == sizes


def test_one_line_keeps_a_tracebacks_last_line_and_cuts_paths() -> None:
    text = "Traceback (most recent call last):\n  File \"/a/b/c.py\", line 1\nKeyError: 'x'"
    assert one_line(text) == "KeyError: 'x'"
    assert one_line(r"failed at C:\models\llama\model.gguf now") == "failed at …/model.gguf now"
    assert len(one_line("x" * 500)) == 200


def test_failure_text_reads_the_usual_error_shapes() -> None:
    assert failure_text({"message": "m"}, "f") == "m"
    assert failure_text({"detail": "Not Found"}, "f") == "Not Found"
    assert failure_text({"error": {"message": "inner"}}, "f") == "inner"
    assert failure_text("404 page not found", "f") == "404 page not found"
    assert failure_text(None, "fallback") == "fallback"
