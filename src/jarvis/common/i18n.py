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
    # Files and storage errors
    "files.config_unreadable": {
        "ko": "{path}: 설정 파일을 읽을 수 없습니다 ({reason}). 파일 권한을 확인하세요 "
        "(chmod u+r).",
        "en": "{path}: cannot read the settings file ({reason}). Check its permissions "
        "(chmod u+r).",
    },
    "files.config_not_utf8": {
        "ko": "{path}: UTF-8 텍스트가 아닙니다 ({position}번째 바이트). UTF-8 로 다시 저장하세요.",
        "en": "{path}: not UTF-8 text (byte {position}). Save it again as UTF-8.",
    },
    "files.data_unreadable": {
        "ko": "{path}: 데이터 파일을 읽을 수 없습니다 ({reason}). 파일 권한을 고치거나, 고칠 수 "
        "없으면 다른 이름으로 옮겨 두고 다시 시작하세요.",
        "en": "{path}: cannot read this data file ({reason}). Fix its permissions, or move it "
        "aside and start again.",
    },
    "files.session_create_failed": {
        "ko": "세션 파일을 만들 수 없습니다: {path} ({reason}). 디스크 공간과 권한을 확인하세요.",
        "en": "Cannot create the session file {path} ({reason}). Check free disk space and "
        "permissions.",
    },
    "files.write_failed": {
        "ko": "{path} 에 쓰지 못했습니다 ({reason}). 디스크 공간과 권한을 확인하세요.",
        "en": "Could not write to {path} ({reason}). Check free disk space and permissions.",
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
    # What the model reads when the gate refuses a call (with the next step to take).
    "gate.approval_denied": {
        "ko": "approval_denied: 사용자가 {tool} 실행을 거부했습니다. 같은 인자로 다시 부르지 말고, "
        "무엇이 실행되지 않았는지 사용자에게 알린 뒤 할 수 있는 일을 이어가세요.",
        "en": "approval_denied: the user denied {tool}. Do not call it again with the same "
        "arguments; tell the user what did not run and continue with what you can.",
    },
    "gate.approval_timeout": {
        "ko": "approval_timeout: {tool} 승인 요청에 시간 안에 답이 없었습니다. 같은 인자로 다시 "
        "부르지 말고, 무엇이 실행되지 않았는지 알린 뒤 할 수 있는 일을 이어가세요.",
        "en": "approval_timeout: nobody answered the approval request for {tool} in time. Do not "
        "call it again with the same arguments; tell the user what did not run and continue.",
    },
    "gate.approval_denied_repeated": {
        "ko": "approval_denied_repeated: 같은 {tool} 호출이 이번 턴에 이미 {count}번 거부되어 "
        "묻지 않고 막았습니다. 다시 부르지 말고 사용자에게 알리세요.",
        "en": "approval_denied_repeated: the same {tool} call was already denied {count} times "
        "this turn, so it was blocked without asking. Do not call it again; tell the user.",
    },
    "gate.dangerous": {
        "ko": "blocked: 이 명령은 security.dangerous_commands 의 '{pattern}' 에 걸려 실행하지 "
        "않았습니다. 승인으로도 풀 수 없으니 사용자에게 알리세요.",
        "en": "blocked: this command matches '{pattern}' in security.dangerous_commands and was "
        "not run; approval cannot unblock it. Tell the user.",
    },
    "gate.rule_denied": {
        "ko": "blocked: {origin} 의 거부 규칙({pattern})에 걸려 {tool} 을 실행하지 않았습니다.",
        "en": "blocked: a deny rule in {origin} ({pattern}) forbids this {tool} call.",
    },
    "gate.policy_denied": {
        "ko": "not permitted: 정책상 {tool} 도구를 쓸 수 없습니다 (역할: {role}).",
        "en": "not permitted: the policy does not allow {tool} (role: {role}).",
    },
    "gate.policy_unavailable": {
        "ko": "policy_unavailable: 정책을 평가할 수 없어 {tool} 을 실행하지 않았습니다.",
        "en": "policy_unavailable: the policy could not be evaluated, so {tool} did not run.",
    },
    "gate.plugin_blocked": {
        "ko": "blocked: 플러그인 {plugin} 이 {tool} 호출을 막았습니다: {reason}",
        "en": "blocked: plugin {plugin} blocked the {tool} call: {reason}",
    },
    "gate.no_approver": {
        "ko": "approval_unavailable: {tool} 은 승인이 필요하지만 답할 사람이 연결되어 있지 "
        "않아 실행하지 않았습니다.",
        "en": "approval_unavailable: {tool} needs approval but nobody is connected to answer, "
        "so it did not run.",
    },
    "gate.approval_unavailable": {
        "ko": "approval_unavailable: 사람이 없는 실행이라 승인이 필요한 {tool} 을 쓸 수 없습니다.",
        "en": "approval_unavailable: this run is unattended, so {tool}, which needs approval, "
        "cannot be used.",
    },
    "gate.aborted": {
        "ko": "aborted: 턴이 중단되어 {tool} 승인 요청을 취소했습니다.",
        "en": "aborted: the turn was stopped, so the approval request for {tool} was cancelled.",
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
