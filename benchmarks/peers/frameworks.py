"""Three Python agent frameworks built the way their docs show, each with an instant scripted
model of its own kind, for `benchmarks/peer_overhead.py` and `benchmarks/context_tokens.py --peers`.

Runs in `.venv-peers` (`benchmarks/peers/make_venv.sh`), never in Jarvis's environment:

- **pydantic-ai**: `Agent(FunctionModel(...), system_prompt=..., tools=[read_file])`, the history
  kept in a JSON file as its docs' "Storing and loading messages" shows
  (`ModelMessagesTypeAdapter`), passed back with `message_history=`.
- **LangGraph**: `create_react_agent(model, tools=[read_file], prompt=...)` with the SQLite
  checkpointer (`AsyncSqliteSaver`) and a `thread_id`; the model is a `BaseChatModel` subclass
  (the fake chat model pattern, with `bind_tools` as chat models implement it).
- **OpenAI Agents SDK**: `Agent(model=<custom Model>, tools=[function_tool(read_file)])`,
  `Runner.run(..., session=SQLiteSession(id, file))`, tracing disabled (no network).

Modes (JSON on stdout):

    overhead --framework NAME --turns 200 --sessions 3   per-turn wall and CPU seconds
    context --framework NAME --turns 200 --system FILE   every model call's prompt, rendered as
                                                         the OpenAI chat wire format (JSON lines)
"""

from __future__ import annotations

import argparse
import asyncio
import json
import statistics
import sys
import tempfile
import time
import warnings
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Any

ANSWER = "Sure — here is a short answer to that question."
Prompt = list[dict[str, Any]]
Turn = Callable[[str], Awaitable[None]]
Built = tuple[Turn, Callable[[], Awaitable[None]]]  # a turn, and what closes the session
Script = Callable[[Prompt], tuple[str, dict[str, Any] | None]]

warnings.filterwarnings("ignore")  # create_react_agent's deprecation notice


def instant(_prompt: Prompt) -> tuple[str, dict[str, Any] | None]:
    return ANSWER, None


def reading(prompt: Prompt) -> tuple[str, dict[str, Any] | None]:
    """context_tokens.py's scripted model: read the file the person names, then answer."""
    last = prompt[-1]
    if last.get("role") == "tool":
        return f"The file says: {str(last['content'])[:60]}", None
    words = str(last.get("content", "")).split()
    path = next((w for w in words if w.endswith(".txt")), "notes_1.txt")
    return "", {"name": "read_file", "arguments": {"path": path}}


def tool_reader(workspace: Path) -> Callable[[str], str]:
    def read_file(path: str) -> str:
        """Read a text file in the workspace.

        Args:
            path: the file's path, relative to the workspace.
        """
        return (workspace / path).read_text("utf-8")

    return read_file


# ---------------------------------------------------------------- pydantic-ai


async def pydantic_ai(root: Path, script: Script, system: str, record: list[Prompt]) -> Built:
    from pydantic_ai import Agent
    from pydantic_ai.messages import (
        ModelMessage,
        ModelMessagesTypeAdapter,
        ModelRequest,
        ModelResponse,
        TextPart,
        ToolCallPart,
    )
    from pydantic_ai.models.function import AgentInfo, FunctionModel

    def wire(messages: list[ModelMessage], info: AgentInfo) -> Prompt:
        out: Prompt = []
        for message in messages:
            if isinstance(message, ModelRequest):
                for part in message.parts:
                    kind = part.part_kind
                    if kind == "system-prompt":
                        out.append({"role": "system", "content": part.content})
                    elif kind == "user-prompt":
                        out.append({"role": "user", "content": part.content})
                    elif kind == "tool-return":
                        tool_id = part.tool_call_id
                        out.append(
                            {"role": "tool", "tool_call_id": tool_id, "content": part.content}
                        )
                continue
            calls = [
                {
                    "id": p.tool_call_id,
                    "type": "function",
                    "function": {"name": p.tool_name, "arguments": p.args_as_json_str()},
                }
                for p in message.parts
                if isinstance(p, ToolCallPart)
            ]
            text = "".join(p.content for p in message.parts if isinstance(p, TextPart))
            out.append(
                {"role": "assistant", "content": text, **({"tool_calls": calls} if calls else {})}
            )
        tools = [
            {
                "type": "function",
                "function": {
                    "name": t.name,
                    "description": t.description,
                    "parameters": t.parameters_json_schema,
                },
            }
            for t in info.function_tools
        ]
        return with_tools(out, tools)

    def model(messages: list[ModelMessage], info: AgentInfo) -> ModelResponse:
        prompt = wire(messages, info) if script is not instant else [{}]
        if script is not instant:
            record.append(prompt)
        text, call = script(prompt)
        if call:
            return ModelResponse(parts=[ToolCallPart(call["name"], call["arguments"])])
        return ModelResponse(parts=[TextPart(text)])

    agent = Agent(FunctionModel(model), system_prompt=system, tools=[tool_reader(root)])
    history_file = root / "history.json"

    async def turn(text: str) -> None:
        history = (
            ModelMessagesTypeAdapter.validate_json(history_file.read_bytes())
            if history_file.exists()
            else None
        )
        result = await agent.run(text, message_history=history)
        history_file.write_bytes(ModelMessagesTypeAdapter.dump_json(result.all_messages()))

    async def close() -> None:
        return None

    return turn, close


# ---------------------------------------------------------------- LangGraph


async def langgraph(root: Path, script: Script, system: str, record: list[Prompt]) -> Built:
    import aiosqlite
    from langchain_core.language_models import BaseChatModel
    from langchain_core.messages import AIMessage, BaseMessage, convert_to_openai_messages
    from langchain_core.outputs import ChatGeneration, ChatResult
    from langchain_core.utils.function_calling import convert_to_openai_tool
    from langgraph.checkpoint.sqlite.aio import AsyncSqliteSaver
    from langgraph.prebuilt import create_react_agent

    class ScriptedChatModel(BaseChatModel):
        calls: int = 0

        @property
        def _llm_type(self) -> str:
            return "scripted"

        def bind_tools(self, tools: Any, **kwargs: Any) -> Any:
            return self.bind(tools=[convert_to_openai_tool(t) for t in tools], **kwargs)

        def _generate(
            self, messages: list[BaseMessage], stop: Any = None, run_manager: Any = None, **kw: Any
        ) -> ChatResult:
            prompt: Prompt = [{}]
            if script is not instant:
                prompt = with_tools(convert_to_openai_messages(messages), kw.get("tools", []))
                record.append(prompt)
            text, call = script(prompt)
            self.calls += 1
            calls = []
            if call:
                calls = [{"name": call["name"], "args": call["arguments"], "id": f"c{self.calls}"}]
            message = AIMessage(content=text, tool_calls=calls)
            return ChatResult(generations=[ChatGeneration(message=message)])

        async def _agenerate(
            self, messages: list[BaseMessage], stop: Any = None, run_manager: Any = None, **kw: Any
        ) -> ChatResult:  # as API-backed chat models do: no hop to a thread
            return self._generate(messages, stop, None, **kw)

    connection = await aiosqlite.connect(root / "checkpoints.sqlite")
    saver = AsyncSqliteSaver(connection)
    graph = create_react_agent(
        ScriptedChatModel(), tools=[tool_reader(root)], prompt=system, checkpointer=saver
    )
    config = {"configurable": {"thread_id": "thread-1"}}

    async def turn(text: str) -> None:
        await graph.ainvoke({"messages": [{"role": "user", "content": text}]}, config)

    return turn, connection.close


# ---------------------------------------------------------------- OpenAI Agents SDK


async def agents_sdk(root: Path, script: Script, system: str, record: list[Prompt]) -> Built:
    from agents import Agent, Runner, SQLiteSession, function_tool, set_tracing_disabled
    from agents.items import ModelResponse
    from agents.models.chatcmpl_converter import Converter
    from agents.models.interface import Model
    from agents.usage import Usage
    from openai.types.responses import (
        ResponseFunctionToolCall,
        ResponseOutputMessage,
        ResponseOutputText,
    )

    set_tracing_disabled(True)

    class ScriptedModel(Model):
        calls = 0

        async def get_response(
            self,
            system_instructions: str | None,
            input: Any,
            model_settings: Any,
            tools: Any,
            output_schema: Any,
            handoffs: Any,
            tracing: Any,
            **kwargs: Any,
        ) -> ModelResponse:
            prompt: Prompt = [{}]
            if script is not instant:
                messages = Converter.items_to_messages(input)
                system_part = [{"role": "system", "content": system_instructions or ""}]
                prompt = with_tools(
                    [*system_part, *messages], [Converter.tool_to_openai(t) for t in tools]
                )
                record.append(json.loads(json.dumps(prompt, default=str)))
            text, call = script(prompt)
            self.calls += 1
            if call:
                item: Any = ResponseFunctionToolCall(
                    type="function_call",
                    name=call["name"],
                    arguments=json.dumps(call["arguments"]),
                    call_id=f"call_{self.calls}",
                    id=f"fc_{self.calls}",
                    status="completed",
                )
            else:
                item = ResponseOutputMessage(
                    id=f"msg_{self.calls}",
                    type="message",
                    role="assistant",
                    status="completed",
                    content=[ResponseOutputText(type="output_text", text=text, annotations=[])],
                )
            return ModelResponse(output=[item], usage=Usage(), response_id=None)

        def stream_response(self, *args: Any, **kwargs: Any) -> Any:
            raise NotImplementedError

    agent = Agent(
        name="Assistant",
        instructions=system,
        model=ScriptedModel(),
        tools=[function_tool(tool_reader(root))],
    )
    session = SQLiteSession("conversation-1", str(root / "conversations.db"))

    async def turn(text: str) -> None:
        await Runner.run(agent, text, session=session)

    async def close() -> None:
        session.close()

    return turn, close


FRAMEWORKS = {"pydantic-ai": pydantic_ai, "langgraph": langgraph, "agents-sdk": agents_sdk}
PACKAGES = {
    "pydantic-ai": "pydantic-ai-slim",
    "langgraph": "langgraph",
    "agents-sdk": "openai-agents",
}


def with_tools(messages: Prompt, tools: list[Any]) -> Prompt:
    """context_tokens.py's order: the system prompt, the tools, then the other messages."""
    system = [m for m in messages if m.get("role") == "system"][:1]
    rest = [m for m in messages if m.get("role") != "system"]
    return [*system, *([{"tools": tools}] if tools else []), *rest]


async def overhead(name: str, turns: int, sessions: int) -> dict[str, Any]:
    """Per turn: the median over `sessions` sessions (a warm-up session first, discarded)."""
    per_session: list[list[tuple[float, float]]] = []
    for index in range(sessions + 1):
        with tempfile.TemporaryDirectory() as tmp:
            turn, close = await FRAMEWORKS[name](
                Path(tmp), instant, "You are a helpful assistant.", []
            )
            rows = []
            for n in range(1, turns + 1):
                start, cpu = time.perf_counter(), time.process_time()
                await turn(f"question number {n}: what should I do about the report?")
                rows.append((time.perf_counter() - start, time.process_time() - cpu))
            await close()
            if index:
                per_session.append(rows)
    wall = [statistics.median(s[i][0] for s in per_session) for i in range(turns)]
    cpu = [statistics.median(s[i][1] for s in per_session) for i in range(turns)]
    return {"framework": name, "version": version(name), "wall": wall, "cpu": cpu}


async def context(name: str, turns: int, system: str) -> list[tuple[int, Prompt]]:
    calls: list[tuple[int, Prompt]] = []
    with tempfile.TemporaryDirectory() as tmp:
        root = Path(tmp)
        for index in range(1, 11):
            (root / f"notes_{index}.txt").write_text(f"note {index}: ship build {index}\n", "utf-8")
        record: list[Prompt] = []
        turn, close = await FRAMEWORKS[name](root, reading, system, record)
        for n in range(1, turns + 1):
            before = len(record)
            text = f"What does notes_{n % 10 + 1}.txt say about build {n}?"
            if n % 7 == 0:
                text = f"/remember the build server for release {n} is build-{n}.local"
            await turn(text)
            calls += [(n, prompt) for prompt in record[before:]]
        await close()
    return calls


def version(name: str) -> str:
    from importlib.metadata import version as installed

    return installed(PACKAGES[name])


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("mode", choices=["overhead", "context"])
    parser.add_argument("--framework", choices=sorted(FRAMEWORKS), required=True)
    parser.add_argument("--turns", type=int, default=200)
    parser.add_argument("--sessions", type=int, default=3)
    parser.add_argument("--system", type=Path, help="context: the system prompt, from a file")
    args = parser.parse_args()
    if args.mode == "overhead":
        print(json.dumps(asyncio.run(overhead(args.framework, args.turns, args.sessions))))
        return 0
    system = args.system.read_text("utf-8") if args.system else "You are a helpful assistant."
    for turn, prompt in asyncio.run(context(args.framework, args.turns, system)):
        print(json.dumps({"turn": turn, "prompt": prompt}, ensure_ascii=False))
    return 0


if __name__ == "__main__":
    sys.exit(main())
