"""The offline demo's scripted answers (`jarvis serve --demo`), in the person's language."""

from __future__ import annotations

from jarvis.common.i18n import Language

MESSAGES: dict[str, dict[Language, str]] = {
    "demo.hello": {
        "ko": "(데모) 안녕하세요, JARVIS 입니다. 지금은 실제 모델 없이 각본으로 답하는 데모 "
        "모드예요.\n"
        "- `!git status` 처럼 느낌표로 시작하면 bash 명령을 요청하고, 승인 창이 뜹니다.\n"
        "- '파일 목록 보여줘' 라고 하면 list_dir 도구를 부릅니다.\n"
        "- '마크다운 예시 보여줘' 라고 하면 표, 코드, 목록이 든 답을 보여 줍니다.",
        "en": "(demo) Hello, this is JARVIS. This is the demo mode: a script answers instead of "
        "a real model.\n"
        "- Start with an exclamation mark, like `!git status`, to ask for a bash command; the "
        "approval window opens.\n"
        "- Say 'list the files' and it calls the list_dir tool.\n"
        "- Say 'show a Markdown sample' for an answer with a table, code and a list.",
    },
    "demo.tool_result": {
        "ko": "(데모) {tool} 결과입니다:\n\n{result}",
        "en": "(demo) The result of {tool}:\n\n{result}",
    },
    "demo.rich": {
        "ko": "(데모) 답은 마크다운으로 그려집니다.\n\n"
        "## 이번 주 할 일\n\n"
        "| 일 | 기한 | 상태 |\n|---|---|:---:|\n"
        "| 보고서 보내기 | 금요일 | ⏳ |\n| 테스트 고치기 | 오늘 | ✅ |\n\n"
        "1. **굵게**, *기울임*, `코드`\n2. [링크](https://example.com)\n\n"
        '```python\ndef greet(name: str) -> str:\n    return f"안녕하세요, {name}"\n```\n',
        "en": "(demo) Answers are drawn as Markdown.\n\n"
        "## This week\n\n"
        "| task | due | state |\n|---|---|:---:|\n"
        "| send the report | Friday | ⏳ |\n| fix the tests | today | ✅ |\n\n"
        "1. **bold**, *italic*, `code`\n2. [a link](https://example.com)\n\n"
        '```python\ndef greet(name: str) -> str:\n    return f"Hello, {name}"\n```\n',
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
