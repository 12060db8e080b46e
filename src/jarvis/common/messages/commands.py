"""The slash command table's lines: each command's one-line help, and the table's own answers."""

from __future__ import annotations

from jarvis.common.i18n import Language

MESSAGES: dict[str, dict[Language, str]] = {
    "commands.help.new": {"ko": "새 세션", "en": "new session"},
    "commands.help.sessions": {"ko": "세션 목록", "en": "list sessions"},
    "commands.help.resume": {"ko": "세션 이어가기", "en": "continue a session"},
    "commands.help.stop": {
        "ko": "실행 중인 턴 중단 (Ctrl-C, Esc 도 같음)",
        "en": "stop the running turn (Ctrl-C, Esc too)",
    },
    "commands.help.status": {
        "ko": "지금 답하는 모델, 에이전트, 세션",
        "en": "the model answering, the agent, the session",
    },
    "commands.help.agent": {
        "ko": "에이전트 목록, 또는 그 에이전트의 새 세션",
        "en": "list agents, or a new session with that agent",
    },
    "commands.help.orchestrate": {
        "ko": "서브 에이전트에게 맡기기 (PATTERN: supervisor, hierarchical, market, "
        "blackboard, 쉼표로 잇기)",
        "en": "hand a task to sub-agents (PATTERN: supervisor, hierarchical, market, "
        "blackboard, joined by commas)",
    },
    "commands.help.openloop": {
        "ko": "챙길 약속 (VERB: done, dismiss, explain)",
        "en": "open loops to keep (VERB: done, dismiss, explain)",
    },
    "commands.help.remember": {
        "ko": "사실 기억하기 (TEXT 없이: 기억 목록)",
        "en": "remember a fact (no TEXT: list what is remembered)",
    },
    "commands.help.forget": {"ko": "기억 지우기", "en": "forget a memory"},
    "commands.help.good": {
        "ko": "먼저 건넨 마지막 말이 좋았다고 표시 (👍)",
        "en": "mark the last thing Jarvis said first as welcome (👍)",
    },
    "commands.help.bad": {
        "ko": "먼저 건넨 마지막 말이 필요 없었다고 표시 (👎)",
        "en": "mark the last thing Jarvis said first as unwelcome (👎)",
    },
    "commands.help.doit": {
        "ko": "먼저 건넨 마지막 제안을 실행 (보통 요청처럼 승인을 거침)",
        "en": "do what Jarvis last offered (an ordinary request: approvals as usual)",
    },
    "commands.help.wrong": {
        "ko": "앞 답이 틀렸다고 표시 (실패로 반성)",
        "en": "mark the last answer wrong (reflected on as a failure)",
    },
    "commands.help.note": {
        "ko": "이 세션의 작업 공유 메모리에 적기",
        "en": "write to this session's shared working memory",
    },
    "commands.help.procedures": {
        "ko": "배운 절차 (VERB: list, show, approve, reject, learn)",
        "en": "learned procedures (VERB: list, show, approve, reject, learn)",
    },
    "commands.help.help": {"ko": "이 목록", "en": "this list"},
    "commands.help.exit": {"ko": "끝내기 (Ctrl-D)", "en": "quit (Ctrl-D)"},
    "commands.help.procedure": {
        "ko": "배운 절차 실행: {description}",
        "en": "run the learned procedure: {description}",
    },
    "commands.header": {"ko": "명령:", "en": "Commands:"},
    "commands.more": {
        "ko": "그 밖에: /<스킬> (~/.jarvis/skills), /<배운 절차>, /<서버>:<프롬프트> (MCP), "
        "플러그인 명령",
        "en": "Also: /<skill> (~/.jarvis/skills), /<learned procedure>, /<server>:<prompt> "
        "(MCP), plugin commands",
    },
    "commands.approval_keys": {
        "ko": "승인 요청에는: a = 한 번 허용, A = 항상 허용, d = 거부, 또는 말로 답하기",
        "en": "At an approval: a = allow once, A = always, d = deny, or answer in words",
    },
    "commands.unknown": {
        "ko": "모르는 명령: {name} (/help 로 목록)",
        "en": "Unknown command: {name} (/help lists them)",
    },
    "commands.not_here": {
        "ko": "{name} 은 이 화면에서 쓰지 않습니다.",
        "en": "{name} is not used on this screen.",
    },
    "commands.plugin_failed": {
        "ko": "플러그인 {plugin} 의 {name} 이 실패했습니다 (로그에 자세히).",
        "en": "{name} of the plugin {plugin} failed (details in the log).",
    },
    "commands.stopped": {"ko": "중단했습니다.", "en": "Stopped."},
    "commands.nothing_running": {"ko": "실행 중인 턴이 없습니다.", "en": "Nothing is running."},
    "commands.status": {
        "ko": "모델: {provider} · {model}\n에이전트: {agent} ({agent_id})\n"
        "세션: {session} · {turns}턴 · {state}",
        "en": "model: {provider} · {model}\nagent: {agent} ({agent_id})\n"
        "session: {session} · {turns} turns · {state}",
    },
    "commands.status.running": {"ko": "실행 중", "en": "running"},
    "commands.status.idle": {"ko": "대기 중", "en": "idle"},
}
