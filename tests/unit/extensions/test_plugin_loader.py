from __future__ import annotations

import logging
from pathlib import Path
from textwrap import dedent

import pytest

from jarvis.core.extensions import PluginLoader, load_plugins_dir
from jarvis.core.plugins import PluginHost


def _write(path: Path, text: str) -> Path:
    path.write_text(dedent(text), encoding="utf-8")
    return path


_INHERITS = """
from jarvis.core.plugins import JarvisPlugin

class Blocker(JarvisPlugin):
    name = "blocker"
    version = "1.0.0"

    async def before_tool_call(self, tool_name, args, auth):
        if tool_name == "bash":
            return {"block": True, "reason": "no shell"}
        return None
"""

_PLAIN = """
SEEN = []

class Helper:
    '''No name/version: not the plugin.'''

class Recorder:
    name = "recorder"
    version = "0.1"

    async def after_tool_call(self, tool_name, args, result):
        SEEN.append((tool_name, result))
"""


async def test_inheriting_and_plain_classes_both_load_and_hook(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    _write(tmp_path / "blocker.py", _INHERITS)
    _write(tmp_path / "recorder.py", _PLAIN)
    host = PluginHost()
    result = PluginLoader(tmp_path, host).load()
    assert result.errors == []
    assert [p.name for p in result.plugins] == ["blocker", "recorder"]
    with caplog.at_level(logging.ERROR):
        block = await host.before_tool_call("bash", {}, {})
        await host.after_tool_call("read_file", {}, is_error=False)
    assert block is not None and (block.plugin, block.reason) == ("blocker", "no shell")
    recorder = result.plugins[1].plugin
    assert recorder.after_tool_call.__globals__["SEEN"] == [("read_file", {"is_error": False})]
    assert caplog.records == []  # missing hooks on the plain class are not errors


async def test_the_seeds_import_path_for_the_base_class_works(tmp_path: Path) -> None:
    """Seed 003: `jarvis.core.plugins.plugins_protocol.JarvisPlugin`."""
    seed_spelling = _INHERITS.replace(
        "from jarvis.core.plugins import", "from jarvis.core.plugins.plugins_protocol import"
    )
    _write(tmp_path / "blocker.py", seed_spelling)
    host = PluginHost()
    result = PluginLoader(tmp_path, host).load()
    assert result.errors == [] and [p.name for p in result.plugins] == ["blocker"]
    block = await host.before_tool_call("bash", {}, {})
    assert block is not None and block.reason == "no shell"


def test_broken_plugins_are_isolated_and_reported(tmp_path: Path) -> None:
    _write(tmp_path / "good.py", _PLAIN)
    _write(tmp_path / "syntax.py", "class X(:\n")
    _write(tmp_path / "no_class.py", "x = 1\n")
    _write(
        tmp_path / "needs_args.py",
        "class P:\n    name = 'p'\n    version = '1'\n    def __init__(self, x): ...\n",
    )
    result = load_plugins_dir(tmp_path)
    assert [p.name for p in result.plugins] == ["recorder"]
    errors = {e.file.name: e.reason for e in result.errors}
    assert errors.keys() == {"syntax.py", "no_class.py", "needs_args.py"}
    assert "name and version" in errors["no_class.py"]
    assert "TypeError" in errors["needs_args.py"]


def test_reload_swaps_only_file_plugins_and_keeps_last_good(tmp_path: Path) -> None:
    host = PluginHost()
    in_code = object()
    host.register(in_code)
    loader = PluginLoader(tmp_path, host)
    path = _write(tmp_path / "recorder.py", _PLAIN)
    first = loader.load().plugins[0].plugin
    assert host.plugins == [in_code, first]
    path.write_text(_PLAIN.replace('"0.1"', '"0.2"'), encoding="utf-8")
    second = loader.load().plugins[0].plugin
    assert second is not first and host.plugins == [in_code, second]
    path.write_text("class broken(:\n", encoding="utf-8")
    assert loader.load().errors[0].kept_last_good
    assert host.plugins == [in_code, second]
    path.unlink()
    loader.load()
    assert host.plugins == [in_code]
