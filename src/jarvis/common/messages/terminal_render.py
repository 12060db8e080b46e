"""How `jarvis chat` names a tool decision: a person's words, not the gate's reason codes."""

from __future__ import annotations

from jarvis.common.i18n import Language

MESSAGES: dict[str, dict[Language, str]] = {
    "terminal.reason.user_once": {"ko": "이번 한 번 허용", "en": "allowed once"},
    "terminal.reason.user_always": {
        "ko": "항상 허용 (규칙 저장: {rule})",
        "en": "always allowed (rule saved: {rule})",
    },
    "terminal.reason.rule_allow": {
        "ko": "저장된 규칙으로 허용 ({origin})",
        "en": "allowed by a saved rule ({origin})",
    },
    "terminal.reason.rule_block": {
        "ko": "규칙으로 막힘 ({origin})",
        "en": "blocked by a rule ({origin})",
    },
    "terminal.reason.user_deny": {"ko": "거부했습니다", "en": "you denied it"},
    "terminal.reason.timeout": {
        "ko": "승인 시간 안에 답이 없어 멈춤",
        "en": "stopped: no answer in time",
    },
    "terminal.reason.dangerous": {
        "ko": "위험한 명령이라 묻지 않고 막음",
        "en": "blocked without asking: a dangerous command",
    },
    "terminal.reason.secret_path": {
        "ko": "비밀 파일이라 막음",
        "en": "blocked: a secret file",
    },
    "terminal.reason.no_approver": {
        "ko": "물어볼 사람이 없어 거부",
        "en": "denied: nobody was there to ask",
    },
    "terminal.reason.approval_unavailable": {
        "ko": "승인을 물을 수 없어 거부",
        "en": "denied: the approval could not be asked",
    },
    "terminal.reason.aborted": {"ko": "중단됨", "en": "stopped"},
    "terminal.reason.denied_repeated": {
        "ko": "같은 요청이 거듭 거부되어 막음",
        "en": "blocked: the same call was denied repeatedly",
    },
    "terminal.reason.policy_denied": {
        "ko": "권한 정책이 막음",
        "en": "blocked by the permission policy",
    },
    "terminal.reason.policy_unavailable": {
        "ko": "권한 정책을 읽지 못해 막음",
        "en": "blocked: the permission policy could not be read",
    },
    "terminal.reason.plugin": {
        "ko": "플러그인 {name} 이(가) 막음",
        "en": "blocked by plugin {name}",
    },
    "terminal.more_lines": {"ko": "… {count}줄 더", "en": "… {count} more lines"},
    "terminal.log_notice": {
        "ko": "⚠ 경고가 있습니다. 자세한 내용: {path}",
        "en": "⚠ There were warnings. Details: {path}",
    },
}
