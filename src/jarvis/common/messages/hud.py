"""Lines the web HUD's connection sends back for typed commands."""

from __future__ import annotations

from jarvis.common.i18n import Language

MESSAGES: dict[str, dict[Language, str]] = {
    "hud.stopped": {"ko": "중단했습니다.", "en": "Stopped."},
    "hud.nothing_running": {"ko": "실행 중인 턴이 없습니다.", "en": "Nothing is running."},
    "hud.commands": {
        "ko": "명령: /stop, /openloop, /help (새 세션과 이어가기는 세션 목록)",
        "en": "Commands: /stop, /openloop, /help (new sessions and resuming: the sessions list)",
    },
}
