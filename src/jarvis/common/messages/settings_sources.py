"""Settings errors that name where the wrong value came from (environment or config.yaml)."""

from __future__ import annotations

from jarvis.common.i18n import Language

MESSAGES: dict[str, dict[Language, str]] = {
    "settings.from_env": {
        "ko": "설정 오류: 환경 변수 {name}: {detail}",
        "en": "Invalid setting: environment variable {name}: {detail}",
    },
    "settings.from_file": {
        "ko": "설정 오류: {path}:{line} {setting}: {detail}",
        "en": "Invalid setting: {path}:{line} {setting}: {detail}",
    },
    "settings.env_not_json": {
        "ko": "{kind} 값은 JSON 으로 씁니다, 예: {name}='{example}' (지금: {value!r})",
        "en": "a {kind} is written as JSON, e.g. {name}='{example}' (got {value!r})",
    },
    "settings.kind.list": {"ko": "목록", "en": "list"},
    "settings.kind.object": {"ko": "객체", "en": "object"},
    "settings.unknown_provider": {
        "ko": "알 수 없는 모델 제공자 {provider!r} (가능: {known}){hint}",
        "en": "unknown model provider {provider!r} (known: {known}){hint}",
    },
    "settings.did_you_mean": {"ko": " — 혹시 {suggestion}?", "en": " — did you mean {suggestion}?"},
    "settings.openai_compatible": {
        "ko": " — Ollama, llama.cpp, LM Studio, vLLM 같은 OpenAI 호환 서버는 openai 를 씁니다",
        "en": " — OpenAI-compatible servers (Ollama, llama.cpp, LM Studio, vLLM) use openai",
    },
    "settings.unknown_env": {
        "ko": "경고: 알 수 없는 환경 변수 {name} (무시됨){hint}",
        "en": "warning: unknown environment variable {name} (ignored){hint}",
    },
    "settings.unknown_key": {
        "ko": "경고: {path}:{line} 알 수 없는 설정 {setting!r} (무시됨){hint}",
        "en": "warning: {path}:{line} unknown setting {setting!r} (ignored){hint}",
    },
    "settings.model_unreachable": {
        "ko": "⚠ 모델 서버 {base_url} 에 연결할 수 없습니다 ({reason}). Ollama 라면 "
        "`ollama serve` 로 띄우고 `ollama pull {model}` 로 모델을 받으세요. 다른 서버는 "
        "JARVIS_MODEL__BASE_URL 을 확인하세요. 모델 없이 둘러보려면 `jarvis serve --demo`.",
        "en": "⚠ Cannot reach the model server at {base_url} ({reason}). For Ollama, start it with "
        "`ollama serve` and get the model with `ollama pull {model}`; for another server check "
        "JARVIS_MODEL__BASE_URL. To look around without a model: `jarvis serve --demo`.",
    },
}
