"""Lines of the thinking layer: the thought note the model sees, fillers, `jarvis me`."""

from __future__ import annotations

from jarvis.common.i18n import Language

MESSAGES: dict[str, dict[Language, str]] = {
    "thought.note": {
        "ko": "[생각 메모 — 답하기 전에 정리한 것. 그대로 옮겨 쓰지 말 것]\n"
        "해석: {interpretation}\n결정: {decision}\n{frame}",
        "en": "[thought note — what was worked out before answering; do not quote it]\n"
        "interpretation: {interpretation}\ndecision: {decision}\n{frame}",
    },
    "thought.no_loops": {"ko": "(없음)", "en": "(none)"},
    "thought.no_recent": {"ko": "(첫 대화)", "en": "(first message)"},
    "demo.thought_interpretation": {
        "ko": "데모 모델의 생각: 요청을 그대로 받아 답한다.",
        "en": "the demo model's thought: take the request as written and answer it.",
    },
    "demo.thought_frame": {
        "ko": "- 요청을 한 줄로 확인\n- 필요하면 도구를 쓴다",
        "en": "- confirm the request in one line\n- use a tool if needed",
    },
    "filler.thought.1": {"ko": "생각을 정리하고 있어요…", "en": "thinking it through…"},
    "filler.thought.2": {"ko": "어떻게 할지 따져보는 중이에요…", "en": "working out the best way…"},
    "filler.thought.3": {"ko": "잠깐만요, 생각해 볼게요…", "en": "one moment, thinking…"},
    "filler.thought.4": {"ko": "요청을 살펴보는 중이에요…", "en": "looking at what you asked…"},
    "filler.first_round.1": {"ko": "답을 준비하고 있어요…", "en": "preparing an answer…"},
    "filler.first_round.2": {
        "ko": "모델이 답을 쓰기 시작하는 중이에요…",
        "en": "the model is warming up…",
    },
    "filler.first_round.3": {"ko": "잠시만 기다려 주세요…", "en": "just a moment…"},
    "filler.first_round.4": {"ko": "곧 답할게요…", "en": "an answer is on its way…"},
    # A slow tool call's filler: `{arg}` is the argument shown short and safe (fillers.py).
    "filler.tool.bash": {"ko": "bash로 `{arg}` 확인하는 중…", "en": "checking `{arg}` with bash…"},
    "filler.tool.read_file": {"ko": "{arg} 읽는 중…", "en": "reading {arg}…"},
    "filler.tool.write_file": {"ko": "{arg} 쓰는 중…", "en": "writing {arg}…"},
    "filler.tool.edit_file": {"ko": "{arg} 고치는 중…", "en": "editing {arg}…"},
    "filler.tool.list_dir": {"ko": "{arg} 살펴보는 중…", "en": "looking in {arg}…"},
    "filler.tool.glob": {"ko": "{arg} 파일 찾는 중…", "en": "finding files {arg}…"},
    "filler.tool.grep": {"ko": "파일에서 “{arg}” 찾는 중…", "en": "searching files for “{arg}”…"},
    "filler.tool.web_search": {
        "ko": "웹에서 “{arg}” 검색하는 중…",
        "en": "searching the web for “{arg}”…",
    },
    "filler.tool.web_fetch": {"ko": "{arg} 가져오는 중…", "en": "fetching {arg}…"},
    "filler.tool.other": {"ko": "{tool} 도구 실행 중…", "en": "running {tool}…"},
    "user_model.header": {
        "ko": "[사용자] 이 사람에 대해 알고 있는 것 (본인이 말한 것):",
        "en": "[user] what this person has told you about themselves:",
    },
    "thought.due": {"ko": "기한 {due}", "en": "due {due}"},
}
