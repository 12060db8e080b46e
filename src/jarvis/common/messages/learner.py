"""Lines of the feedback learner: "stop telling me about X" answered, and the learner's view
(`jarvis thinking learner`, `/learner`)."""

from __future__ import annotations

from jarvis.common.i18n import Language

MESSAGES: dict[str, dict[Language, str]] = {
    "proactive.stop.muted": {
        "ko": "알겠어요 — {topics} 얘기는 {until}까지 먼저 꺼내지 않을게요. "
        "(되돌리기: 배운 것 보기 또는 /learner)",
        "en": "Okay — I won't bring up {topics} first until {until}. "
        "(Undo: the learner view or /learner)",
    },
    "proactive.stop.muted_words": {
        "ko": "‘{topic}’에 대해 먼저 말한 적은 아직 없어요. 그래도 {until}까지 그 주제는 먼저 "
        "꺼내지 않을게요. (되돌리기: /learner)",
        "en": "I haven't brought up “{topic}” first yet; I'll still keep off it until {until}. "
        "(Undo: /learner)",
    },
    "proactive.stop.unknown_that": {
        "ko": "어떤 얘기인지 모르겠어요 — 최근에 먼저 꺼낸 말이 없어요. 주제를 말해 주면 그것만 "
        "끌게요.",
        "en": "I'm not sure which topic you mean — I haven't said anything first lately. "
        "Name the topic and I'll mute just that.",
    },
    "proactive.stop.not_speaking": {
        "ko": "이 에이전트는 먼저 말하지 않아서 ‘{topic}’에 대해 멈출 것이 없어요.",
        "en": "This agent doesn't speak first, so there is nothing about “{topic}” to stop.",
    },
    "proactive.feedback.muted": {
        "ko": "🔇 ‘{topic}’ 얘기는 {until}까지 먼저 꺼내지 않을게요. "
        "(되돌리기: /learner unmute {topic})",
        "en": "🔇 I won't bring up “{topic}” first until {until}. (Undo: /learner unmute {topic})",
    },
    "learner.header": {
        "ko": "{agent} — 먼저 말하기에서 배운 것",
        "en": "{agent} — what speaking first has learned",
    },
    "learner.kind": {
        "ko": "  {kind}: 👍 {thumbs_up} · 👎 {thumbs_down} · 해 줘 {do_it} · 답장 {reply} · "
        "무시 {ignored} · 그만 {stop_topic} — 기준 {base} → {threshold}",
        "en": "  {kind}: 👍 {thumbs_up} · 👎 {thumbs_down} · do it {do_it} · replies {reply} · "
        "ignored {ignored} · stop {stop_topic} — threshold {base} → {threshold}",
    },
    "learner.move": {
        "ko": "    {when}: 기준 {before} → {after} ({feedback} 다음)",
        "en": "    {when}: threshold {before} → {after} (after {feedback})",
    },
    "learner.muted": {
        "ko": "  🔇 {topic} — {until}까지 (거절 {dismissals}번)",
        "en": "  🔇 {topic} — until {until} ({dismissals} dismissals)",
    },
    "learner.dismissed": {
        "ko": "  👎 {topic} — 거절 {dismissals}번 (한 번 더면 조용히 할게요)",
        "en": "  👎 {topic} — {dismissals} dismissal (one more mutes it)",
    },
    "learner.empty": {"ko": "  아직 배운 것이 없어요.", "en": "  Nothing learned yet."},
    "learner.reset.all": {
        "ko": "{agent}: 배운 것을 모두 지웠어요.",
        "en": "{agent}: everything learned is reset.",
    },
    "learner.reset.kind": {
        "ko": "{agent}: ‘{kind}’에서 배운 것을 지웠어요.",
        "en": "{agent}: what was learned about “{kind}” is reset.",
    },
    "learner.reset.topic": {
        "ko": "{agent}: ‘{topic}’ 얘기를 다시 할 수 있어요.",
        "en": "{agent}: “{topic}” may be brought up again.",
    },
    "learner.reset.unknown": {
        "ko": "{agent}: ‘{name}’ — 그런 종류나 조용히 한 주제가 없어요.",
        "en": "{agent}: “{name}” is neither a kind nor a muted topic.",
    },
    "learner.usage": {
        "ko": "사용법: /learner · /learner reset [종류] · /learner unmute 주제",
        "en": "usage: /learner · /learner reset [KIND] · /learner unmute TOPIC",
    },
    "commands.help.learner": {
        "ko": "먼저 말하기에서 배운 것 (reset: 모두 또는 한 종류 지우기, "
        "unmute: 한 주제 다시 허용)",
        "en": "what speaking first has learned (reset: forget it all or one kind; unmute: one "
        "topic)",
    },
}
