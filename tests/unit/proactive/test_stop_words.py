""" "Stop telling me about X" in words: a KO/EN table of requests (with the topic they name,
"" for "that") and near-misses that must not mute."""

from __future__ import annotations

import pytest

from jarvis.core.proactive.stop_words import stop_request

MUTES: list[tuple[str, str]] = [
    ("stop telling me about the weather", "weather"),
    ("Stop telling me about the weather.", "weather"),
    ("please stop reminding me about the gym", "gym"),
    ("ok, stop talking about crypto prices please", "crypto prices"),
    ("stop bringing up the quarterly report", "quarterly report"),
    ("stop bringing the dentist up", "dentist"),
    ("don't remind me about the gym anymore", "gym"),
    ("Don't tell me about stock prices again.", "stock prices"),
    ("never mention the weather again", "weather"),
    ("don't bring up my diet again", "diet"),
    ("I don't want to hear about the election anymore", "election"),
    ("enough about the weather!", "weather"),
    ("no more reminders about the gym", "gym"),
    ("Can you stop telling me about the weather?", "weather"),
    ("stop telling me about that", ""),
    ("stop bringing that up", ""),
    ("don't mention it again", ""),
    ("Thanks. Stop telling me about the news though", "news though"),
    ("날씨 얘기는 이제 그만해", "날씨"),
    ("그 얘기 그만", ""),
    ("그 얘기는 그만해요", ""),
    ("주식 얘기 좀 그만해줘", "주식"),
    ("날씨 알림은 이제 안 해도 돼", "날씨"),
    ("날씨에 대해서는 더 이상 말하지 마", "날씨"),
    ("운동 얘기 하지 마세요", "운동"),
    ("날씨는 이제 알려주지 마", "날씨"),
    ("보고서 얘기 이제 됐어", "보고서"),
    ("자비스, 날씨 얘기 그만!", "날씨"),
    ("그건 그만 말해", ""),
    ("헬스장 리마인드 그만해 주세요", "헬스장"),
    ("고마워. 근데 뉴스 얘기는 그만해", "뉴스"),
]

NEAR_MISSES: list[str] = [
    "don't stop telling me about the weather",
    "never stop reminding me about the gym",
    "why do you keep telling me about the weather?",
    "should I stop telling him about the weather?",
    "did I tell you to stop telling me about the weather",
    'he said "stop telling me about the weather"',
    "my wife told me to stop talking about work",
    "tell Bob to stop telling me about crypto",
    "if you stop telling me about the weather I'll miss it",
    "stop the build",
    "stop the server and restart it",
    "stop telling me jokes",
    "what's the weather tomorrow?",
    "tell me about the weather",
    "remind me about the gym tomorrow",
    "날씨 얘기 그만하지 마",
    "날씨 얘기 그만할까?",
    "왜 자꾸 날씨 얘기해?",
    "엄마가 날씨 얘기 그만하래",
    '친구가 "그 얘기 그만"이라고 했어',
    "빌드 그만",
    "메일 보내지 마",
    "날씨는 이제 말해",
    "오늘은 그만하자",
    "그 얘기 그만하고 일 얘기하자",
    "만약 네가 날씨 얘기 그만하면 심심할 거야",
    "날씨 얘기해줘",
    "",
]


@pytest.mark.parametrize(("text", "topic"), MUTES)
def test_a_request_to_stop_is_recognised_with_its_topic(text: str, topic: str) -> None:
    found = stop_request(text)
    assert found is not None, text
    assert found.topic == topic


@pytest.mark.parametrize("text", NEAR_MISSES)
def test_a_near_miss_does_not_mute(text: str) -> None:
    assert stop_request(text) is None


def test_the_table_is_big_enough() -> None:
    assert len(MUTES) + len(NEAR_MISSES) >= 30 and len(NEAR_MISSES) >= 15
