"""Recorded wire behaviour of the servers people run locally (llama-cpp-python, llama.cpp's
`llama-server`, Ollama, vLLM): what the provider sends them, and what it makes of their failures.
Each reply here is what such a server put on the wire."""

from __future__ import annotations

import json

import pytest

from jarvis.common.i18n import Language, t
from jarvis.model_layer import (
    AssistantMessage,
    LLMContext,
    ProviderError,
    Stop,
    TextDelta,
    ToolCall,
    ToolResultMessage,
    UserMessage,
)
from jarvis.model_layer.providers.server_info import context_window, count_tokens
from tests.integration.providers.conftest import ReplayServer, Reply, json_reply, sse
from tests.integration.providers.test_openai_stream import (
    HELLO,
    TOOLS,
    WITH_TOOLS,
    Make,
    assert_one_terminal,
    chunk,
    collect,
    completion,
    text,
    text_stream,
    tool_calls,
    usage,
)
from tests.support.scripted_http import SilentServer

# llama-cpp-python 0.3.x: a server-side failure after the 200 is a stream that just ends.
ENDS_WITHOUT_REASON = Reply(chunks=sse(chunk({"role": "assistant", "content": ""}), "[DONE]"))
AFTER_A_TOOL_ROUND = LLMContext(
    tools=TOOLS,
    messages=[
        UserMessage(content="list"),
        AssistantMessage(tool_calls=[ToolCall(id="c1", name="bash", arguments={"command": "ls"})]),
        ToolResultMessage(tool_call_id="c1", tool_name="bash", content="a b"),
    ],
)
# llama-cpp-python's answer to `"content": null` in an assistant message with tool calls.
NONE_CONTENT_500 = {
    "error": {
        "message": 'can only concatenate str (not "NoneType") to str',
        "type": "internal_server_error",
    }
}


@pytest.mark.parametrize(("setting", "sent"), [("auto", "auto"), ("required", "required")])
async def test_tools_go_with_a_tool_choice(
    server: ReplayServer, make: Make, setting: str, sent: str
) -> None:
    server.add(text_stream("ok"), text_stream("ok"))
    provider = make(tool_choice=setting)
    await collect(provider, WITH_TOOLS)
    await collect(provider, HELLO)  # no tools: no tool_choice either
    with_tools, without = (r.body for r in server.received)
    assert with_tools["tool_choice"] == sent
    assert "tool_choice" not in without and "tools" not in without


async def test_tool_choice_off_leaves_the_field_out(server: ReplayServer, make: Make) -> None:
    server.add(text_stream("ok"))
    await collect(make(tool_choice="off"), WITH_TOOLS)
    body = server.received[0].body
    assert "tools" in body and "tool_choice" not in body


async def test_a_tool_round_sends_empty_content_and_an_invalid_request_is_not_retried(
    server: ReplayServer, make: Make
) -> None:
    for _ in range(4):
        server.add(json_reply(500, NONE_CONTENT_500))
    (event,) = await collect(make(max_retries=3, language="en"), AFTER_A_TOOL_ROUND)
    assert server.received[0].body["messages"][1]["content"] == ""
    assert len(server.received) == 1  # the same request would fail the same way
    assert isinstance(event, ProviderError) and event.kind == "bad_request"
    assert "not retried" in event.message and "NoneType" in event.message


async def test_a_stream_ending_without_a_reason_is_asked_again_and_shows_the_real_error(
    server: ReplayServer, make: Make
) -> None:
    overflow = {
        "error": {
            "message": "Requested tokens (2431) exceed context window of 2048",
            "type": "invalid_request_error",
        }
    }
    server.add(ENDS_WITHOUT_REASON, json_reply(400, overflow))
    events = await collect(make(max_retries=3))
    assert [r.body.get("stream", False) for r in server.received] == [True, False]
    (event,) = events
    assert isinstance(event, ProviderError) and event.kind == "context_overflow"
    assert (event.prompt_tokens, event.context_window) == (2431, 2048)
    assert event.message == t("model.context_overflow", prompt=2431, window=2048)


async def test_asking_again_recovers_the_tool_calls_a_stream_lost(
    server: ReplayServer, make: Make
) -> None:
    call = {"id": "c7", "type": "function", "function": {"name": "bash", "arguments": "{}"}}
    answer = completion(
        {"role": "assistant", "content": "", "tool_calls": [call]}, "tool_calls", usage(9, 4)
    )
    server.add(ENDS_WITHOUT_REASON, json_reply(200, answer))
    events = await collect(make(), WITH_TOOLS)
    assert [c.id for c in tool_calls(events)] == ["c7"]
    stop = events[-1]
    assert isinstance(stop, Stop) and stop.reason == "tool_use" and stop.usage.input_tokens == 9


@pytest.mark.parametrize("chunks", [[], ["[DONE]"]], ids=["no-bytes", "done-only"])
async def test_a_zero_chunk_stream_is_not_a_blank_answer(
    server: ReplayServer, make: Make, chunks: list[str]
) -> None:
    empty = completion({"role": "assistant", "content": ""}, None, usage(3, 0))
    server.add(Reply(chunks=sse(*chunks)), json_reply(200, empty))
    (event,) = await collect(make())
    assert isinstance(event, ProviderError) and event.kind == "broken_stream"
    assert event.message == t("model.unfinished")
    assert len(server.received) == 2


async def test_text_then_no_reason_keeps_the_text_and_says_it_is_incomplete(
    server: ReplayServer, make: Make
) -> None:
    server.add(Reply(chunks=sse(chunk({"content": "Half an ans"}), "[DONE]")), text_stream("no"))
    events = await collect(make(max_retries=3, language="en"))
    assert text(events) == "Half an ans"
    assert isinstance(events[-1], ProviderError) and events[-1].kind == "broken_stream"
    assert events[-1].message == t("model.unfinished_partial", "en")
    assert_one_terminal(events)
    assert len(server.received) == 1  # shown text cannot be taken back: no second answer


@pytest.mark.parametrize("reason", ["length", "max_tokens"])
async def test_a_token_limit_cut_is_a_length_stop_never_a_plain_stop(
    server: ReplayServer, make: Make, reason: str
) -> None:
    server.add(Reply(chunks=sse(chunk({"content": "Once upon"}), chunk({}, reason), "[DONE]")))
    events = await collect(make())
    assert isinstance(events[-1], Stop) and events[-1].reason == "length"
    assert [type(e) for e in events] == [TextDelta, Stop]


@pytest.mark.parametrize("language", ["ko", "en"])
async def test_a_server_that_never_answers_times_out_once_and_names_the_setting(
    make: Make, language: Language
) -> None:
    with SilentServer() as silent:
        (event,) = await collect(
            make(f"{silent.url}/v1", timeout_sec=0.3, max_retries=3, language=language)
        )
        assert len(silent.accepted) == 1  # not four full timeouts in a row
    assert isinstance(event, ProviderError) and event.kind == "timeout"
    assert "JARVIS_MODEL__TIMEOUT_SEC" in event.message
    assert event.message == t("model.timeout", language, base_url=f"{silent.url}/v1", seconds="0.3")


async def test_a_base_url_without_v1_gets_told_to_add_it(server: ReplayServer, make: Make) -> None:
    # Ollama's answer on /chat/completions (it serves the API under /v1).
    server.add(Reply(404, [b"404 page not found"], "text/plain"))
    (event,) = await collect(make(server.url, language="en"))
    assert server.received[0].path == "/chat/completions"
    assert isinstance(event, ProviderError) and event.kind == "not_found"
    assert f"JARVIS_MODEL__BASE_URL={server.url}/v1" in event.message


async def test_a_404_on_a_v1_url_names_the_base_url_setting(
    server: ReplayServer, make: Make
) -> None:
    server.add(json_reply(404, {"detail": "Not Found"}))  # vLLM behind a wrong path
    (event,) = await collect(make(f"{server.url}/api/v1"))
    assert isinstance(event, ProviderError) and event.kind == "not_found"
    assert event.message == t("model.no_endpoint", base_url=f"{server.url}/api/v1")


async def test_a_long_error_with_paths_is_one_short_line(server: ReplayServer, make: Make) -> None:
    trace = "\n".join(
        [
            "Traceback (most recent call last):",
            *(
                f'  File "/usr/lib/python3.11/site-packages/llama_cpp/server/app{i}.py", line {i}'
                for i in range(8)
            ),
            "RuntimeError: llama_decode returned -3 in /home/ci/build/llama.cpp/src/llama.cpp"
            + " while decoding" * 30,
        ]
    )
    server.add(json_reply(503, {"error": {"message": trace}}))
    (event,) = await collect(make(language="en"))
    assert isinstance(event, ProviderError) and event.kind == "server"
    assert "\n" not in event.message and "/home/ci" not in event.message
    assert "RuntimeError: llama_decode returned -3 in …/llama.cpp while decoding" in event.message
    detail = event.message.split(": ", 1)[1]
    assert len(detail) <= 200 and detail.endswith("…")


async def test_llama_server_context_overflow_names_both_sizes(
    server: ReplayServer, make: Make
) -> None:
    # llama.cpp's `llama-server` (b6000+), recorded from xllamacpp.
    body = {
        "error": {
            "code": 400,
            "message": "request (2431 tokens) exceeds the available context size (2048 tokens), "
            "try increasing it",
            "type": "exceed_context_size_error",
            "n_prompt_tokens": 2431,
            "n_ctx": 2048,
        }
    }
    server.add(json_reply(400, body))
    (event,) = await collect(make(language="en", max_retries=3))
    assert isinstance(event, ProviderError) and event.kind == "context_overflow"
    assert (event.prompt_tokens, event.context_window) == (2431, 2048)
    assert "(2431 of 2048 tokens)" in event.message and "/new" in event.message
    assert len(server.received) == 1
    assert json.loads(json.dumps(event.model_dump()))["kind"] == "context_overflow"


async def test_ollama_tells_its_context_size_through_api_show(server: ReplayServer) -> None:
    shown = {
        "parameters": "stop <|eot|>\nnum_ctx 8192",
        "model_info": {"llama.context_length": 131072},
    }
    server.add(
        json_reply(200, shown), json_reply(200, {"model_info": {"qwen2.context_length": 32768}})
    )
    assert await context_window(f"{server.url}/v1", "llama3.1") == 8192
    assert await context_window(f"{server.url}/v1", "qwen2.5") == 32768
    assert server.received[0].path == "/api/show" and server.received[0].body == {
        "model": "llama3.1"
    }


async def test_vllm_counts_tokens_through_tokenize(server: ReplayServer) -> None:
    server.add(json_reply(200, {"count": 7, "max_model_len": 4096, "tokens": [1] * 7}))
    assert await count_tokens(f"{server.url}/v1", "m", "hello") == 7
    assert server.received[0].path == "/tokenize"
