"""The reply classifier for approvals answered in words, built from the settings."""

from __future__ import annotations

from jarvis.app.infra import AppAssembly
from jarvis.core.approvals.words_answer import ReplyClassifier


def reply_classifier(assembly: AppAssembly) -> ReplyClassifier | None:
    """Its own model when set (`JARVIS_APPROVALS__WORDS_MODEL__*`), else the main model; None
    when answers in words are off."""
    config = assembly.settings.approvals
    if not config.words:
        return None
    model = config.words_model or assembly.settings.model
    provider = assembly.provider_for(model)
    return ReplyClassifier(provider, model.model, config.words_timeout_sec)
