"""The extraction's word gate (`may_propose`) only skips text no pattern can match: with and
without it, every sentence of the team's sets proposes the same facts."""

from __future__ import annotations

from pathlib import Path

import pytest
from ruamel.yaml import YAML

from jarvis.core.user_model import extract
from jarvis.core.user_model.extract import may_propose, propose

DATA = Path(__file__).resolve().parents[3] / "experiments" / "data"
SAID = """\
My name is Ada Lovelace.
call me Min
제 이름은 민수예요
저는 백엔드 개발자예요.
직업은 데이터 분석가입니다
I work as a nurse at the clinic.
I'm a backend engineer
My timezone is Asia/Seoul
시간대는 Europe/Berlin이에요
I prefer Korean
I prefer short answers
I work from 9am to 6pm
9시부터 6시까지 일해
I really love hiking.
I'm interested in compilers
등산을 좋아해요
머신러닝에 관심 있어요
I can't stand meetings.
회의는 싫어요
I'm building a chess engine.
검색 엔진 프로젝트를 하고 있어
I'm good at SQL
보안 전문가예요
I've been writing in Go
자바로 개발하고 있어요
question number 5: what should I do about the report?
Find the last three invoices and total them.
""".splitlines()  # one sentence a line


def sentences() -> list[str]:
    found = list(SAID)
    for name in ("user_model_guard.yaml", "thinking_router.yaml"):
        data = YAML(typ="safe").load((DATA / name).read_text(encoding="utf-8"))
        rows = [*data.get("sentences", []), *data.get("dev", []), *data.get("test", [])]
        found += [row["text"] for row in rows if isinstance(row, dict) and "text" in row]
    return found


@pytest.mark.parametrize("inferring", [False, True])
def test_the_gate_loses_no_proposal(monkeypatch: pytest.MonkeyPatch, inferring: bool) -> None:
    said = sentences()
    gated = [propose(text, inferring=inferring) for text in said]
    monkeypatch.setattr(extract, "may_propose", lambda _text: True)
    assert gated == [propose(text, inferring=inferring) for text in said]
    assert sum(1 for found in gated if found) >= 20  # the set does exercise the patterns


def test_the_gate_skips_plain_requests() -> None:
    assert not may_propose("question number 5: what should I do about the report?")
    assert not may_propose("Find the last three invoices and total them.")
    assert may_propose("By the way, call me Min.")
