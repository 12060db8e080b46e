"""Lines for the shell gate's newer codes (core/policy)."""

from __future__ import annotations

from jarvis.common.i18n import Language

MESSAGES: dict[str, dict[Language, str]] = {
    "gate.shell.unsafe.network_redirection": {
        "ko": "/dev/tcp 나 /dev/udp 리디렉션으로 네트워크 연결을 엽니다",
        "en": "it opens a network connection through a /dev/tcp or /dev/udp redirection",
    },
}
