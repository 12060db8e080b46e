"""Lines of `jarvis chat` (the terminal REPL and its inline approval prompt)."""

from __future__ import annotations

from jarvis.common.i18n import Language

MESSAGES: dict[str, dict[Language, str]] = {
    "terminal.banner": {
        "ko": "{agent} · 세션 {session} · /help 로 명령 보기, Ctrl-D 로 끝내기",
        "en": "{agent} · session {session} · /help for commands, Ctrl-D to quit",
    },
    "terminal.session": {"ko": "세션 {session}", "en": "session {session}"},
    "terminal.abort_requested": {"ko": "(중단 요청)", "en": "(stopping)"},
    "terminal.quit_hint": {
        "ko": "(끝내려면 Ctrl-D 또는 /exit)",
        "en": "(Ctrl-D or /exit to quit)",
    },
    "terminal.no_sessions": {"ko": "저장된 세션이 없습니다.", "en": "No saved sessions."},
    "terminal.session_row": {
        "ko": "{mark} {session}  {when}  {turns:>3}턴  {title}",
        "en": "{mark} {session}  {when}  {turns:>3} turns  {title}",
    },
    "terminal.resume_usage": {
        "ko": "사용법: /resume <세션 id>",
        "en": "Usage: /resume <session id>",
    },
    "terminal.session_missing": {
        "ko": "세션을 찾을 수 없습니다: {session}",
        "en": "No such session: {session}",
    },
    "terminal.session_missing_start": {
        "ko": "세션을 찾을 수 없습니다: {session} (jarvis chat 에서 /sessions)",
        "en": "No such session: {session} (/sessions in jarvis chat lists them)",
    },
    "terminal.approval.title": {
        "ko": "⚡ 승인 요청 · {tool} ({source})",
        "en": "⚡ Approval needed · {tool} ({source})",
    },
    "terminal.approval.shortened": {
        "ko": "  (원래 {length}자 중 일부만 표시)",
        "en": "  (part of {length} characters shown)",
    },
    "terminal.approval.irreversible": {
        "ko": "    ⚠ 되돌릴 수 없는 작업입니다.",
        "en": "    ⚠ This cannot be undone.",
    },
    "terminal.approval.rule": {
        "ko": "    항상 허용하면 저장될 규칙: {tool} {pattern}",
        "en": "    ALWAYS would save the rule: {tool} {pattern}",
    },
    "terminal.approval.allow": {"ko": "a = 한 번 허용", "en": "a = allow once"},
    "terminal.approval.always": {"ko": "A = 항상 허용", "en": "A = always"},
    "terminal.approval.deny": {"ko": "d = 거부", "en": "d = deny"},
    "terminal.approval.ask": {
        "ko": "  [{choices} · 말로 답해도 됩니다] ({seconds}초) › ",
        "en": "  [{choices} · or answer in words] ({seconds}s) › ",
    },
    "terminal.approval.resolved.allow": {"ko": "✓ 허용", "en": "✓ allowed"},
    "terminal.approval.resolved.always": {"ko": "✓ 항상 허용", "en": "✓ always allowed"},
    "terminal.approval.resolved.deny": {"ko": "✗ 거부", "en": "✗ denied"},
    "terminal.approval.resolved.timeout": {
        "ko": "⏱ 시간 초과로 거부",
        "en": "⏱ denied: no answer in time",
    },
    "terminal.approval.resolved.cancelled": {"ko": "✗ 취소", "en": "✗ cancelled"},
    "terminal.approval.again": {"ko": "  › ", "en": "  › "},
}
