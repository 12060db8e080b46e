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
}
