"""Answering a pending approval with words: the classifier call and the answer through the store.

The rules are in `words.py` (pure); this module adds the I/O: one model call for what the keyword
stage cannot tell (bounded by a timeout; a failure leaves the approval pending), and the answer
through the same `PendingApprovalStore.answer` the buttons use, so the first answer still wins.
"""

from __future__ import annotations

import asyncio
from dataclasses import dataclass

from pydantic import BaseModel, Field

from jarvis.common.i18n import Language, t
from jarvis.common.logging import get_logger
from jarvis.core.approvals.pending import AnswerResult, PendingApprovalStore
from jarvis.core.approvals.request import ApprovalRequest
from jarvis.core.approvals.words import (
    WordsDecision,
    WordsStage,
    combine,
    keyword_decision,
    offered,
    parse_label,
)
from jarvis.model_layer.config import ModelSettings, StreamOptions
from jarvis.model_layer.events import ProviderError, TextDelta
from jarvis.model_layer.messages import LLMContext, UserMessage
from jarvis.model_layer.provider import Provider

_log = get_logger("jarvis.approvals.words")

CLASSIFIER_PROMPT = (
    "A person was asked whether an AI assistant may run a tool. Classify their reply with "
    "exactly one word:\n"
    "allow - a clear yes for this one time\n"
    "always - a clear yes that explicitly says from now on / every time\n"
    "deny - no, not now, wait, stop, or any condition or doubt\n"
    "unclear - anything else (a question, unrelated words, mumbling)\n"
    "Polite replies such as 괜찮아요, 괜찮습니다, 됐어요, no thanks, I'm good, I'm fine usually "
    "decline: answer deny unless they also clearly say to run it.\n"
    "If you are not sure it is a yes, answer deny or unclear. Write only the word."
)


class ApprovalWordsSettings(BaseModel):
    """`JARVIS_APPROVALS__*`: replies in words to a pending approval."""

    words: bool = Field(True, description="A chat line typed while an approval waits answers it.")
    words_model: ModelSettings | None = Field(
        None, description="The reply classifier's model; None: the main model."
    )
    words_timeout_sec: float = Field(
        20.0, gt=0, description="Longest wait for the classifier; then the approval stays open."
    )


@dataclass(frozen=True)
class WordsVerdict:
    decision: WordsDecision
    stage: WordsStage


class ReplyClassifier:
    """One short model call: the reply in, one label out."""

    def __init__(self, provider: Provider, model: str, timeout_sec: float = 20.0) -> None:
        self.provider = provider
        self.model = model
        self.timeout_sec = timeout_sec

    def context(self, reply: str, tool: str) -> LLMContext:
        text = f"Tool: {tool}\nReply: {reply}"
        return LLMContext(system_prompt=CLASSIFIER_PROMPT, messages=[UserMessage(content=text)])

    async def label(self, reply: str, tool: str) -> WordsDecision:
        try:
            output = await asyncio.wait_for(self._complete(reply, tool), self.timeout_sec)
        except TimeoutError:
            _log.warning("reply classifier timed out after %.0f s", self.timeout_sec)
            return "unclear"
        return "unclear" if output is None else parse_label(output)

    async def _complete(self, reply: str, tool: str) -> str | None:
        parts: list[str] = []
        options = StreamOptions(temperature=0.0, max_tokens=8)
        async for event in self.provider.stream(self.model, self.context(reply, tool), options):
            if isinstance(event, TextDelta):
                parts.append(event.delta)
            elif isinstance(event, ProviderError):
                _log.warning("reply classifier failed: %s", event.message)
                return None
        return "".join(parts)


async def decide(reply: str, tool: str, classifier: ReplyClassifier | None) -> WordsVerdict:
    """Negation and keywords first; the classifier only for the rest (none → UNCLEAR)."""
    clear = keyword_decision(reply)
    if clear is not None:
        stage: WordsStage = "empty" if clear == "unclear" else "keyword"
        return WordsVerdict("deny" if clear == "deny" else clear, stage)
    if classifier is None:
        return WordsVerdict("unclear", "model")
    return WordsVerdict(combine(reply, await classifier.label(reply, tool)), "model")


@dataclass(frozen=True)
class WordsOutcome:
    decision: WordsDecision
    # The store's answer; None when nothing was answered (UNCLEAR).
    result: AnswerResult | None
    line: str


async def answer_in_words(
    store: PendingApprovalStore,
    request: ApprovalRequest,
    user_id: str,
    reply: str,
    classifier: ReplyClassifier | None,
    lang: Language,
) -> WordsOutcome:
    verdict = await decide(reply, request.tool, classifier)
    decision = offered(verdict.decision, list(request.options))
    shown = reply.strip()
    if decision == "unclear":
        return WordsOutcome(decision, None, t("approval.words.unclear", lang, text=shown))
    result = await store.answer(request.id, user_id, decision, request.session_id)
    if result != "ok":
        return WordsOutcome(decision, result, t("approval.words.too_late", lang, text=shown))
    label = t(f"approval.words.{decision}", lang)
    return WordsOutcome(decision, result, t("approval.words.line", lang, text=shown, label=label))
