from __future__ import annotations

from pathlib import Path
from textwrap import dedent

from jarvis.core.extensions import SkillRegistry

_SUMMARIZE = """\
---
name: summarize
description: 텍스트를 요약합니다
aliases: [sum, tldr]
---
다음 텍스트를 간결하게 요약해 주세요:

{{args}}
"""


def _write(path: Path, text: str) -> Path:
    path.write_text(dedent(text), encoding="utf-8")
    return path


def _registry(tmp_path: Path) -> SkillRegistry:
    skills = SkillRegistry()
    skills.load_dir(tmp_path)
    return skills


def test_markdown_skill_expands_args_and_answers_to_aliases(tmp_path: Path) -> None:
    _write(tmp_path / "summarize.md", _SUMMARIZE)
    skills = _registry(tmp_path)
    assert skills.errors == []
    expected = "다음 텍스트를 간결하게 요약해 주세요:\n\n긴 글 입니다"
    assert skills.expand("/summarize 긴 글 입니다") == expected
    assert skills.expand("  /tldr 긴 글 입니다 ") == expected
    skill = skills.get("sum")
    assert skill is not None and skill.name == "summarize"
    assert skill.description == "텍스트를 요약합니다"
    assert [s.name for s in skills.list()] == ["summarize"]


def test_yaml_skill_fills_input_and_multiline_rest(tmp_path: Path) -> None:
    _write(
        tmp_path / "translate.yaml",
        """
        name: translate
        description: 번역
        aliases: tr
        prompt: "Translate: {{ input }} / again {{args}}"
        """,
    )
    skills = _registry(tmp_path)
    assert skills.expand("/tr hello\nworld") == "Translate: hello\nworld / again hello\nworld"
    assert skills.expand("/translate") == "Translate:  / again "


def test_text_that_is_not_a_known_skill_is_not_expanded(tmp_path: Path) -> None:
    _write(tmp_path / "summarize.md", _SUMMARIZE)
    skills = _registry(tmp_path)
    assert skills.expand("/unknown text") is None
    assert skills.expand("summarize this") is None
    assert skills.expand("") is None


def test_only_md_and_yaml_are_read_and_broken_files_are_isolated(tmp_path: Path) -> None:
    _write(tmp_path / "summarize.md", _SUMMARIZE)
    _write(tmp_path / "code.py", "print('never run')\n")
    _write(tmp_path / "no_front.md", "just text {{args}}\n")
    _write(tmp_path / "bad_front.md", "---\nname: [oops\n---\nbody\n")
    _write(tmp_path / "no_prompt.yaml", "name: empty\n")
    skills = _registry(tmp_path)
    assert [s.name for s in skills.list()] == ["summarize"]
    errors = {e.file.name: e.reason for e in skills.errors}
    assert errors.keys() == {"no_front.md", "bad_front.md", "no_prompt.yaml"}
    assert "frontmatter" in errors["no_front.md"]
    assert "bad YAML" in errors["bad_front.md"]
    assert "prompt" in errors["no_prompt.yaml"]


def test_name_defaults_to_the_stem_and_clashes_keep_the_first(tmp_path: Path) -> None:
    _write(tmp_path / "a.md", "---\ndescription: first\naliases: [x]\n---\nA {{args}}\n")
    _write(tmp_path / "b.md", "---\nname: a\n---\nB\n")
    _write(tmp_path / "c.md", "---\nname: c\naliases: [x]\n---\nC\n")
    skills = _registry(tmp_path)
    assert skills.expand("/a 1") == "A 1"
    assert skills.expand("/x 1") == "A 1"
    assert skills.expand("/c") == "C"
    assert sorted(e.file.name for e in skills.errors) == ["b.md", "c.md"]


def test_broken_edit_keeps_last_good_and_delete_unregisters(tmp_path: Path) -> None:
    path = _write(tmp_path / "summarize.md", _SUMMARIZE)
    skills = _registry(tmp_path)
    path.write_text("---\nname: [broken\n---\n", encoding="utf-8")
    skills.load_dir(tmp_path)
    assert skills.get("sum") is not None
    [error] = skills.errors
    assert error.kept_last_good
    path.unlink()
    skills.load_dir(tmp_path)
    assert (skills.get("summarize"), skills.errors) == (None, [])
