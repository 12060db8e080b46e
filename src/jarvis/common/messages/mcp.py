"""MCP client lines: server states, `jarvis extensions`, `jarvis mcp …`, HUD and terminal."""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:  # i18n imports this package at import time
    from jarvis.common.i18n import Language

MESSAGES: dict[str, dict[Language, str]] = {
    "mcp.state.connecting": {"ko": "연결 중", "en": "connecting"},
    "mcp.state.connected": {"ko": "연결됨", "en": "connected"},
    "mcp.state.reconnecting": {"ko": "재연결 중", "en": "reconnecting"},
    "mcp.state.failed": {"ko": "연결 실패 (재시도 중)", "en": "failed (retrying)"},
    "mcp.state.needs_login": {"ko": "로그인 필요", "en": "needs sign-in"},
    "mcp.state.closed": {"ko": "닫힘", "en": "closed"},
    "mcp.state.broken": {"ko": "설정 오류", "en": "broken config"},
    "mcp.tool_count": {"ko": "도구 {count}개", "en": "{count} tools"},
    "mcp.resource_count": {
        "ko": "리소스 {count}개 · URI 템플릿 {templates}개",
        "en": "{count} resources · {templates} URI templates",
    },
    "mcp.shadows": {"ko": "대체하는 기본 도구: {names}", "en": "shadows built-ins: {names}"},
    "mcp.last_error": {"ko": "마지막 오류: {error}", "en": "last error: {error}"},
    "mcp.stderr_log": {"ko": "서버 stderr 로그: {path}", "en": "server stderr log: {path}"},
    "mcp.reconnect_asked": {
        "ko": "재연결 요청: {name} (실행 중인 Jarvis가 처리합니다)",
        "en": "reconnect asked for {name} (the running Jarvis picks it up)",
    },
    "mcp.logged_in": {"ko": "{name}: 로그인했습니다", "en": "{name}: signed in"},
    "mcp.login_failed": {
        "ko": "{name}: 로그인하지 못했습니다 — {reason}",
        "en": "{name}: sign-in failed — {reason}",
    },
    "mcp.terminal.asks": {
        "ko": "❓ MCP 서버 {server}의 질문: {message}",
        "en": "❓ MCP server {server} asks: {message}",
    },
    "mcp.terminal.answer": {
        "ko": "  답: 키=값 … 입력 (d: 거절) › ",
        "en": "  answer: key=value … (d: decline) › ",
    },
    "mcp.terminal.status": {
        "ko": "🔌 MCP {name}: {state} · {detail}",
        "en": "🔌 MCP {name}: {state} · {detail}",
    },
    "mcp.terminal.required": {"ko": "필수", "en": "required"},
    "mcp.terminal.again": {
        "ko": "  ✗ {problem} — 다시 입력하세요 (d: 거절) › ",
        "en": "  ✗ {problem} — type it again (d: decline) › ",
    },
    "mcp.form.unreadable": {
        "ko": "답을 읽을 수 없습니다 ({reason})",
        "en": "could not read the answer ({reason})",
    },
    "mcp.form.not_a_pair": {
        "ko": "'{word}'는 키=값 형식이 아닙니다",
        "en": "'{word}' is not key=value",
    },
    "mcp.form.unknown_field": {
        "ko": "'{field}' 항목은 없습니다 (항목: {fields})",
        "en": "there is no field '{field}' (fields: {fields})",
    },
    "mcp.form.not_a_boolean": {
        "ko": "{field}: '{value}' 대신 yes 또는 no",
        "en": "{field}: yes or no, not '{value}'",
    },
    "mcp.form.not_a_number": {
        "ko": "{field}: '{value}'는 숫자가 아닙니다",
        "en": "{field}: '{value}' is not a number",
    },
    "mcp.form.not_an_integer": {
        "ko": "{field}: '{value}'는 정수가 아닙니다",
        "en": "{field}: '{value}' is not a whole number",
    },
    "mcp.form.out_of_range": {
        "ko": "{field}: {value}는 범위 {range} 밖입니다",
        "en": "{field}: {value} is outside {range}",
    },
    "mcp.form.not_a_choice": {
        "ko": "{field}: '{value}'는 고를 수 없습니다 ({choices} 중 하나)",
        "en": "{field}: '{value}' is not one of {choices}",
    },
    "mcp.form.missing": {
        "ko": "빠진 필수 항목: {fields}",
        "en": "required: {fields}",
    },
}
