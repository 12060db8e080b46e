"""Lines of the OS sandbox (the second lock under the gate, `core/confine/`)."""

from __future__ import annotations

from jarvis.common.i18n import Language

MESSAGES: dict[str, dict[Language, str]] = {
    "sandbox.gate_only": {
        "ko": "OS 샌드박스를 쓸 수 없어 게이트만으로 판단합니다: {reason}",
        "en": "no OS sandbox, the gate alone decides: {reason}",
    },
    "sandbox.required": {
        "ko": "security.sandbox 가 required 인데 OS 샌드박스를 쓸 수 없어 실행하지 않았습니다: "
        "{reason}",
        "en": "not run: security.sandbox is required but the OS sandbox cannot run here: {reason}",
    },
}
