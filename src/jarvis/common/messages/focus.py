"""Focus tasks (seed 004): prompts, the terminal's state lines, the CLI."""

from __future__ import annotations

MESSAGES: dict[str, dict[str, str]] = {
    "focus.plan_prompt": {
        "ko": "[focus-plan]\n목표: {objective}\n\n이 목표를 이루는 단계를 2~{max} 개로 나누어 "
        'JSON 문자열 목록 하나로만 답하세요. 예: ["자료 찾기", "읽고 정리", "보고서"]',
        "en": "[focus-plan]\nObjective: {objective}\n\nSplit this objective into 2 to {max} steps "
        'and answer with one JSON list of strings only, e.g. ["find sources", "read", '
        '"report"]',
    },
    "focus.step_prompt": {
        "ko": "[focus-step {step}/{total}]\n목표: {objective}\n계획:\n{plan}\n\n지금 단계 {step}: "
        "{title}\n이 단계만 진행하세요. 발견한 내용을 '- ' 목록으로 적고, 근거 URL 을 함께 "
        "적으세요.",
        "en": "[focus-step {step}/{total}]\nObjective: {objective}\nPlan:\n{plan}\n\nNow step "
        "{step}: {title}\nDo this step only. Write what you found as '- ' bullets, each with "
        "its source URL.",
    },
    "focus.state_line": {
        "ko": "🔎 [{task}] {previous} → {state}{step}",
        "en": "🔎 [{task}] {previous} → {state}{step}",
    },
    "focus.interrupted": {
        "ko": "🔎 [{task}] 단계 {step} '{title}' 이(가) 실행 도중 프로세스가 멈춰 중단되었습니다. "
        "다시 돌리지 않았습니다: `jarvis focus resume {task}` 로 이어서 하거나 stop 으로 "
        "끝내세요.",
        "en": "🔎 [{task}] step {step} '{title}' was interrupted: the process stopped while it "
        "ran. It was not rerun: `jarvis focus resume {task}` continues, `stop` ends the task.",
    },
    "focus.plan_rejected": {
        "ko": "계획을 알아볼 수 없습니다 (단계 목록이 없거나 너무 깁니다)",
        "en": "the plan could not be read (no list of steps, or too long)",
    },
    "focus.not_allowed": {
        "ko": "{task}: '{status}' 상태에서는 {action} 할 수 없습니다",
        "en": "{task}: cannot {action} a task that is {status}",
    },
    "focus.none": {
        "ko": "Focus 작업이 없습니다. `/focus <목표>` 로 시작하세요.",
        "en": "No Focus tasks. Start one with `/focus <objective>`.",
    },
    "commands.help.focus": {
        "ko": "긴 작업(Focus)을 시작하거나 목록을 봅니다",
        "en": "Start a long Focus task, or list yours",
    },
    "focus.created": {
        "ko": "Focus 작업 '{task}' 를 시작했습니다: {objective}",
        "en": "Started Focus task '{task}': {objective}",
    },
    "focus.tool_started": {
        "ko": "Focus 작업 '{task}' 를 시작했습니다: {objective}. 서버가 계획을 세우고 단계를 "
        "하나씩 진행합니다 (HUD의 집중 작업 카드, `jarvis focus show {task}`).",
        "en": "Started Focus task '{task}': {objective}. The server plans it and runs its steps "
        "one by one (the HUD's Focus card, `jarvis focus show {task}`).",
    },
}
