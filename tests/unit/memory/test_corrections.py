"""Which messages are a person's correction of the previous answer."""

from __future__ import annotations

import pytest

from jarvis.core.memory_tools.corrections import is_correction


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("아니, 틀렸어", True),
        ("틀렸어. 다시 해", True),
        ("아니요 잘못됐어요", True),
        ("그게 아니야, 폴더 말고 파일", True),
        ("No, that's wrong", True),
        ("you're incorrect about the date", True),
        ("wrong answer", True),
        ("틀렸다는 기사 찾아줘", False),  # a request that mentions the word
        ("아니 근데 이것도 해줘", False),
        ("what went wrong in the build?", False),
        ("목록 보여줘", False),
    ],
)
def test_is_correction(text: str, expected: bool) -> None:
    assert is_correction(text) is expected
