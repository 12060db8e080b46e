"""Lines of unattended work: schedules, goals, reminders and owner pre-approval (seed 002)."""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from jarvis.common.i18n import Language

MESSAGES: dict[str, dict[Language, str]] = {
    # Seed 002's reason lines, verbatim in Korean ("플레이북" is a definition here).
    "unattended.void.policy": {
        "ko": "권한 설정이 바뀌어 이전 승인 만료",
        "en": "The permission settings changed, so the earlier approval expired",
    },
    "unattended.void.definition": {
        "ko": "정의 내용이 바뀌어 이전 승인 만료",
        "en": "The definition changed, so the earlier approval expired",
    },
    "unattended.void.owner": {
        "ko": "소유자가 바뀌어 이전 승인 만료",
        "en": "The owner changed, so the earlier approval expired",
    },
    "unattended.preapproval_required": {
        "ko": "TOOL_APPROVAL_REQUIRED: {definition} 을(를) 켜려면 소유자({owner})가 먼저 "
        "도구 사용을 승인해야 합니다: {tools}",
        "en": "TOOL_APPROVAL_REQUIRED: the owner ({owner}) must pre-approve these tools before "
        "{definition} can be enabled: {tools}",
    },
    "unattended.not_owner": {
        "ko": "{definition} 의 도구 사용은 소유자({owner})만 승인할 수 있습니다.",
        "en": "Only the owner ({owner}) may pre-approve tools for {definition}.",
    },
    "unattended.run_answer": {
        "ko": "[{name}] {answer}",
        "en": "[{name}] {answer}",
    },
    "unattended.run_failed": {
        "ko": "[{name}] 실행이 실패했습니다: {reason}",
        "en": "[{name}] the run failed: {reason}",
    },
    "unattended.run_blocked": {
        "ko": "[{name}] 실행이 막혔습니다: {reason}",
        "en": "[{name}] the run was blocked: {reason}",
    },
    "unattended.run_interrupted": {
        "ko": "프로세스가 실행 도중 멈춰 이 실행을 실패로 기록했습니다 (다시 돌리지 않음)",
        "en": "the process stopped during this run, so it is recorded as failed (not rerun)",
    },
    "unattended.reminder_before": {
        "ko": "⏰ {minutes}분 뒤 기한: {text} (기한 {due})",
        "en": "⏰ Due in {minutes} min: {text} (due {due})",
    },
    "unattended.reminder_at": {
        "ko": "⏰ 지금 기한입니다: {text} (기한 {due})",
        "en": "⏰ Due now: {text} (due {due})",
    },
    "unattended.schedule_proposed": {
        "ko": "일정 '{name}' 을(를) 만들었습니다 ({when}, 다음 실행 {next}).",
        "en": "Created schedule '{name}' ({when}, next run {next}).",
    },
    "unattended.schedule_needs_grant": {
        "ko": "일정 '{name}' 을(를) 꺼 둔 채로 만들었습니다. 소유자가 도구 사용({tools})을 "
        "승인한 뒤 켤 수 있습니다.",
        "en": "Created schedule '{name}' disabled: it can be enabled once the owner pre-approves "
        "{tools}.",
    },
    "unattended.goal_created": {
        "ko": "목표 '{goal}' 을(를) 만들었습니다 (id {id}). 사람이 없는 차례로 진행합니다.",
        "en": "Created goal '{goal}' (id {id}); it advances in unattended turns.",
    },
    "unattended.ahead_prompt": {
        "ko": "먼저 해 두기: {due} 에 다음 일이 있습니다.\n{what}\n\n"
        "그 전에 준비해 두세요: {work}\n"
        "사람이 지켜보지 않는 차례입니다. 미리 승인된 도구만 쓸 수 있습니다.",
        "en": "Do it ahead: this is due at {due}.\n{what}\n\nPrepare for it now: {work}\n"
        "Nobody is watching this turn; only pre-approved tools can be used.",
    },
    "unattended.goal_prompt": {
        "ko": "목표: {goal}\n지금까지의 기록:\n{log}\n\n다음 단계 하나를 진행하세요. 목표를 "
        "다 이루었으면 답 끝에 [DONE], 더 진행할 수 없으면 [BLOCKED] 와 이유를 적으세요.",
        "en": "Goal: {goal}\nLog so far:\n{log}\n\nAdvance one step. When the goal is "
        "reached end your answer with [DONE]; when you cannot go on, [BLOCKED] and why.",
    },
    "unattended.goal_status": {
        "ko": "[목표 {goal}] {status}: {detail}",
        "en": "[goal {goal}] {status}: {detail}",
    },
}
