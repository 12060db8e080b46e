"""Lines of `jarvis desktop` (the HUD in a native window)."""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from jarvis.common.i18n import Language

MESSAGES: dict[str, dict[Language, str]] = {
    "desktop.missing_extra": {
        "ko": "jarvis desktop 에는 desktop 추가 구성이 필요합니다: uv sync --extra desktop "
        "(pip 이면 pip install 'jarvis[desktop]')",
        "en": "jarvis desktop needs the desktop extra: uv sync --extra desktop "
        "(with pip: pip install 'jarvis[desktop]')",
    },
    "desktop.no_display": {
        "ko": "창을 띄울 화면이 없습니다(DISPLAY 도 WAYLAND_DISPLAY 도 없음). 화면이 없는 "
        "곳에서는 jarvis serve 를 쓰고 브라우저로 여세요.",
        "en": "No display to open a window on (neither DISPLAY nor WAYLAND_DISPLAY is set). "
        "Without one, run jarvis serve and open it in a browser.",
    },
    "desktop.port_in_use": {
        "ko": "{host}:{port} 에서 이미 다른 프로그램이 기다립니다. 실행 중인 jarvis serve 에 "
        "붙으려면 그것이 출력한 주소를 --url 로 주세요(또는 --port 로 다른 포트).",
        "en": "Something already listens on {host}:{port}. To use a running jarvis serve, pass "
        "the address it printed with --url (or pick another --port).",
    },
    "desktop.server_exited": {
        "ko": "jarvis serve 가 창을 열기 전에 끝났습니다(종료 코드 {code}).",
        "en": "jarvis serve ended before the window opened (exit code {code}).",
    },
    "desktop.server_timeout": {
        "ko": "{url} 의 HUD 가 응답하지 않습니다.",
        "en": "The HUD at {url} does not answer.",
    },
    "desktop.check_ok": {
        "ko": "창이 HUD 를 열었습니다: 제목 {title}, 로그인됨(페이지의 API 호출 {status}), "
        "WebSocket 연결됨",
        "en": "The window opened the HUD: title {title}, logged in (an API call from the page: "
        "{status}), WebSocket connected",
    },
    "desktop.check_failed": {
        "ko": "창이 HUD 에 로그인하지 못했습니다: 제목 {title}, 페이지의 API 호출 {status}",
        "en": "The window did not get logged in to the HUD: title {title}, an API call from "
        "the page: {status}",
    },
}
