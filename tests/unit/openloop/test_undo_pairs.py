"""A promise and its undoing are two promises (found by experiments/loop_embedding.py)."""

from __future__ import annotations

import pytest

from jarvis.agent_layer.openloop.openloop_types import OpenLoopConfig, same_loop


@pytest.mark.parametrize(
    ("a", "b"),
    [
        ("치과 예약하기", "치과 예약 취소하기"),
        ("구독 신청", "구독 신청 철회"),
        ("Book the dentist", "cancel the dentist booking"),
    ],
)
def test_undoing_is_never_the_same_loop(a: str, b: str) -> None:
    assert not same_loop(a, b, OpenLoopConfig(), cosine=0.97)
