"""The message catalog: every user-facing fixed line lives here (Korean default, English)."""

from __future__ import annotations

from typing import Literal

Language = Literal["ko", "en"]

_CATALOG: dict[str, dict[Language, str]] = {
    # Input validation (security pipeline, first stage).
    "validation.empty": {
        "ko": "입력이 비어 있습니다. 무엇을 도와드릴까요?",
        "en": "The input is empty. What can I help with?",
    },
    "validation.too_long": {
        "ko": "입력이 너무 깁니다 ({length:,}자). {limit:,}자 이하로 줄여 주세요.",
        "en": "The input is too long ({length:,} characters). Please keep it under {limit:,}.",
    },
    "validation.script": {
        "ko": "입력에 실행될 수 있는 스크립트 패턴({pattern})이 있어 받지 않았습니다.",
        "en": "The input contains an executable script pattern ({pattern}) and was refused.",
    },
    # Denial flow: the turn ends by code with one of these lines.
    "approval.denied_turn_end": {
        "ko": "승인이 거부되어 {tools} 실행을 멈췄습니다. 필요하면 다시 요청해 주세요.",
        "en": "Approval was denied, so {tools} did not run. Ask again if you need it.",
    },
    "approval.timeout_turn_end": {
        "ko": "승인 요청에 시간 안에 답이 없어 {tools} 실행을 멈췄습니다. 필요하면 다시 요청해 주세요.",
        "en": "The approval request was not answered in time, so {tools} did not run. "
        "Ask again if you need it.",
    },
    # The loop's own prompts (never recorded in history).
    "loop.empty_nudge": {
        "ko": "답이 비어 있습니다. 사용자에게 보낼 답을 쓰거나 필요한 도구를 호출하세요.",
        "en": "Your answer was empty. Write the reply to the user or call the tool you need.",
    },
    "loop.summary_request": {
        "ko": "도구를 더 부르지 말고, 지금까지 한 것, 남은 단계, 지금까지의 답을 짧게 정리하세요.",
        "en": "Do not call any more tools. Briefly summarise what you have done, the steps that "
        "remain, and your answer so far.",
    },
    "loop.resume_instruction": {
        "ko": "[이어가기] 도구 예산을 한 번 다 썼습니다. 지금까지의 정리:\n{summary}\n\n"
        "남은 단계만 작은 단위로 진행하고, 이미 한 일은 반복하지 마세요. "
        "남은 도구 차례: {remaining}.",
        "en": "[Resume] The tool budget ran out once. Summary so far:\n{summary}\n\n"
        "Continue only with the remaining steps, in small units; do not repeat finished work. "
        "Tool rounds left: {remaining}.",
    },
    "loop.fallback_summary": {
        "ko": "작업이 길어져 차례 예산을 다 썼습니다. 지금까지 부른 도구: {tools}. "
        "남은 단계는 이어서 요청해 주세요.",
        "en": "The task ran out of its round budget. Tools called so far: {tools}. "
        "Ask me to continue with the remaining steps.",
    },
    "loop.fallback_summary_no_tools": {
        "ko": "작업이 길어져 차례 예산을 다 썼습니다. 남은 단계는 이어서 요청해 주세요.",
        "en": "The task ran out of its round budget. Ask me to continue with the remaining steps.",
    },
    "loop.max_turns_stop": {
        "ko": "최대 차례({max_turns})에 도달해 멈췄습니다.",
        "en": "Stopped after reaching the maximum of {max_turns} rounds.",
    },
    "loop.aborted": {"ko": "중단했습니다.", "en": "Stopped."},
    # Model layer errors shown to the user.
    "provider.unreachable": {
        "ko": "모델 서버({base_url})에 연결할 수 없습니다. JARVIS_MODEL__BASE_URL 을 확인하거나, "
        "모델 없이 보려면 `jarvis chat --demo` 를 실행하세요.",
        "en": "Cannot reach the model server at {base_url}. Check JARVIS_MODEL__BASE_URL, or run "
        "`jarvis chat --demo` to try Jarvis offline.",
    },
    "provider.auth": {
        "ko": "모델 서버({base_url})가 API 키를 거절했습니다. JARVIS_MODEL__API_KEY 를 확인하세요. "
        "모델 없이 보려면 `jarvis chat --demo` 를 실행하세요.",
        "en": "The model server at {base_url} rejected the API key. Check JARVIS_MODEL__API_KEY, "
        "or run `jarvis chat --demo` to try Jarvis offline.",
    },
    "provider.model_not_found": {
        "ko": "모델 서버({base_url})에 '{model}' 모델이 없습니다. JARVIS_MODEL__MODEL 을 확인하세요.",
        "en": "The model server at {base_url} has no model '{model}'. Check JARVIS_MODEL__MODEL.",
    },
    "provider.failed": {
        "ko": "모델 호출이 실패했습니다: {detail}",
        "en": "The model call failed: {detail}",
    },
    # System prompt addition when approval-requiring tools exist (seed 000).
    "prompt.approval_rule": {
        "ko": "사용자가 실행을 요청하면 승인이 필요한 도구도 직접 호출하세요. 승인은 시스템이 "
        "사람에게 묻습니다. 앞에서 거부됐더라도 새 요청이면 다시 호출해 승인을 구하세요.",
        "en": "When the user asks you to run something, call the tool directly even if it needs "
        "approval; the system asks the human. If an earlier call was denied, a new request "
        "means you call again and ask for approval again.",
    },
    "prompt.default_system": {
        "ko": "당신은 JARVIS, 사용자의 개인 AI 비서입니다. 도구로 실제 일을 하고, 짧고 정확하게 "
        "답하세요.",
        "en": "You are JARVIS, the user's personal AI assistant. Do real work with your tools and "
        "answer briefly and precisely.",
    },
    "settings.invalid": {
        "ko": "설정 오류: {name}: {detail}",
        "en": "Invalid setting: {name}: {detail}",
    },
}


def t(key: str, lang: Language = "ko", **params: object) -> str:
    """Look up `key` in `lang` (falling back to Korean) and fill in `params`."""
    entry = _CATALOG[key]
    template = entry.get(lang) or entry["ko"]
    return template.format(**params) if params else template


def register_messages(messages: dict[str, dict[Language, str]]) -> None:
    """Let a feature module add its own lines to the catalog at import time."""
    for key, entry in messages.items():
        if key in _CATALOG:
            raise ValueError(f"message key already registered: {key}")
        _CATALOG[key] = entry
