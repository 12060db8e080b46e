"""The offline demo's scripted answers (`jarvis serve --demo`), in the person's language."""

from __future__ import annotations

from jarvis.common.i18n import Language

MESSAGES: dict[str, dict[Language, str]] = {
    "demo.hello": {
        "ko": "(데모) 안녕하세요, JARVIS 입니다. 지금은 실제 모델 없이 각본으로 답하는 데모 "
        "모드예요.\n"
        "- `!git status` 처럼 느낌표로 시작하면 bash 명령을 요청하고, 승인 창이 뜹니다.\n"
        "- '파일 목록 보여줘' 라고 하면 list_dir 도구를 부릅니다.",
        "en": "(demo) Hello, this is JARVIS. This is the demo mode: a script answers instead of "
        "a real model.\n"
        "- Start with an exclamation mark, like `!git status`, to ask for a bash command; the "
        "approval window opens.\n"
        "- Say 'list the files' and it calls the list_dir tool.",
    },
    "demo.tool_result": {
        "ko": "(데모) {tool} 결과입니다:\n\n{result}",
        "en": "(demo) The result of {tool}:\n\n{result}",
    },
    "demo.run_command": {
        "ko": "(데모) 이 명령을 실행해 볼게요.",
        "en": "(demo) Let me run this command.",
    },
    "demo.list_folder": {
        "ko": "(데모) 작업 폴더를 살펴볼게요.",
        "en": "(demo) Let me look at the workspace folder.",
    },
}
