"""The message catalog: every user-facing fixed line lives here (Korean default, English)."""

from __future__ import annotations

import importlib
import pkgutil
from typing import Literal

import jarvis.common.messages as _parts

Language = Literal["ko", "en"]

_CATALOG: dict[str, dict[Language, str]] = {
    # Input validation (security pipeline, first stage).
    "validation.empty": {
        "ko": "입력이 비어 있습니다. 무엇을 도와드릴까요?",
        "en": "The input is empty. What can I help with?",
    },
    # Files and storage errors
    "files.config_unreadable": {
        "ko": "{path}: 설정 파일을 읽을 수 없습니다 ({reason}). 파일 권한을 확인하세요 "
        "(chmod u+r).",
        "en": "{path}: cannot read the settings file ({reason}). Check its permissions "
        "(chmod u+r).",
    },
    "files.config_not_utf8": {
        "ko": "{path}: UTF-8 텍스트가 아닙니다 ({position}번째 바이트). UTF-8 로 다시 저장하세요.",
        "en": "{path}: not UTF-8 text (byte {position}). Save it again as UTF-8.",
    },
    "files.data_unreadable": {
        "ko": "{path}: 데이터 파일을 읽을 수 없습니다 ({reason}). 파일 권한을 고치거나, 고칠 수 "
        "없으면 다른 이름으로 옮겨 두고 다시 시작하세요.",
        "en": "{path}: cannot read this data file ({reason}). Fix its permissions, or move it "
        "aside and start again.",
    },
    "files.session_create_failed": {
        "ko": "세션 파일을 만들 수 없습니다: {path} ({reason}). 디스크 공간과 권한을 확인하세요.",
        "en": "Cannot create the session file {path} ({reason}). Check free disk space and "
        "permissions.",
    },
    "files.write_failed": {
        "ko": "{path} 에 쓰지 못했습니다 ({reason}). 디스크 공간과 권한을 확인하세요.",
        "en": "Could not write to {path} ({reason}). Check free disk space and permissions.",
    },
    # Open-loop explanations: `jarvis openloop explain <id>` and `/openloop explain <id>`.
    "openloop.explain.usage": {
        "ko": "사용법: /openloop explain <id>",
        "en": "usage: /openloop explain <id>",
    },
    "openloop.explain.header": {
        "ko": "{id}  {description}  [{status}]",
        "en": "{id}  {description}  [{status}]",
    },
    "openloop.explain.evidence": {"ko": "근거: {evidence}", "en": "evidence: {evidence}"},
    "openloop.explain.due": {"ko": "기한: {due}", "en": "due: {due}"},
    "openloop.explain.due_guessed": {"ko": "기한: {due} (추정)", "en": "due: {due} (guessed)"},
    "openloop.explain.closed": {
        "ko": "닫힘: {status} ({reason})",
        "en": "closed: {status} ({reason})",
    },
    "openloop.explain.no_notes": {
        "ko": "판단 기록이 없습니다 (기록이 생기기 전에 저장된 약속입니다).",
        "en": "No judgement notes (this loop was stored before notes were kept).",
    },
    "openloop.explain.created": {"ko": "만듦: {text}", "en": "created: {text}"},
    "openloop.explain.merged": {
        "ko": "합침 (새 기한): {text}",
        "en": "merged (new due): {text}",
    },
    "openloop.explain.duplicate": {
        "ko": "같은 약속으로 봄: {text}",
        "en": "judged the same promise: {text}",
    },
    "openloop.explain.kept_apart": {
        "ko": "다른 약속으로 둠 ({other} 와 비교): {text}",
        "en": "kept as another promise (compared with {other}): {text}",
    },
    "openloop.explain.closed_in_frame": {
        "ko": "같은 판단에서 닫은 약속이라 다시 열지 않음: {text}",
        "en": "not reopened, closed in the same judgement: {text}",
    },
    "openloop.explain.why": {"ko": "  이유: {why}", "en": "  why: {why}"},
    "openloop.explain.detail": {"ko": "  {detail}", "en": "  {detail}"},
    "openloop.explain.report": {
        "ko": "잘못 합쳐졌거나 나뉘었다면 이 출력을 그대로 알려 주세요.",
        "en": "If this was merged or split wrongly, report this output as it is.",
    },
    "validation.too_long": {
        "ko": "입력이 너무 깁니다 ({length:,}자). {limit:,}자 이하로 줄여 주세요.",
        "en": "The input is too long ({length:,} characters). Please keep it under {limit:,}.",
    },
    "validation.script": {
        "ko": "입력에 실행될 수 있는 스크립트 패턴({pattern})이 있어 받지 않았습니다.",
        "en": "The input contains an executable script pattern ({pattern}) and was refused.",
    },
    # HUD access (web boundary): who may reach the HUD, and how approvals are displayed.
    "web.unauthorized": {
        "ko": "로그인이 필요합니다. `jarvis serve` 가 출력한 주소를 여세요 (프로그램은 "
        "Authorization: Bearer <API 키> 헤더).",
        "en": "Log in first: open the address printed by `jarvis serve` (programs send "
        "Authorization: Bearer <API key>).",
    },
    "web.gate_open_url": {
        "ko": "이 HUD를 쓰려면 `jarvis serve` 가 터미널에 출력한 주소(…/?token=…)를 여세요.",
        "en": "To use this HUD, open the address `jarvis serve` printed in its terminal "
        "(…/?token=…).",
    },
    "web.gate_bad_token": {
        "ko": "이 주소의 토큰이 맞지 않습니다 (서버를 다시 시작했나요?). 지금 출력된 주소를 여세요.",
        "en": "This address has a wrong token (was the server restarted?). Open the one it "
        "printed now.",
    },
    "web.gate_login": {
        "ko": "API 키로 로그인하세요.",
        "en": "Log in with your API key.",
    },
    "web.login_key_label": {"ko": "API 키", "en": "API key"},
    "web.login_button": {"ko": "로그인", "en": "Log in"},
    "web.login_failed": {"ko": "API 키가 맞지 않습니다.", "en": "Wrong API key."},
    "web.login_not_used": {
        "ko": "API 키가 설정되지 않았습니다. `jarvis serve` 가 출력한 주소를 여세요.",
        "en": "No API keys are configured. Open the address printed by `jarvis serve`.",
    },
    "web.origin_refused": {
        "ko": "다른 출처({origin})의 요청은 받지 않습니다.",
        "en": "Requests from another origin ({origin}) are refused.",
    },
    "web.body_too_large": {
        "ko": "요청 본문이 너무 큽니다 ({limit:,}바이트까지).",
        "en": "The request body is too large (at most {limit:,} bytes).",
    },
    "web.rate_limited": {
        "ko": "요청이 너무 많습니다. 잠시 후 다시 시도하세요.",
        "en": "Too many requests; slow down.",
    },
    "web.binary_frame": {
        "ko": "바이너리 메시지는 받지 않습니다. JSON 텍스트로 보내 주세요.",
        "en": "Binary messages are not accepted; send JSON text.",
    },
    "web.message_too_deep": {
        "ko": "메시지의 JSON이 너무 깊게 중첩되어 있습니다.",
        "en": "The message's JSON is nested too deeply.",
    },
    "web.message_too_large": {
        "ko": "메시지가 너무 깁니다 ({limit:,}바이트까지).",
        "en": "The message is too large (at most {limit:,} bytes).",
    },
    "web.bad_message": {"ko": "잘못된 메시지입니다: {detail}", "en": "Bad message: {detail}"},
    "serve.open_hud": {
        "ko": "JARVIS HUD{mode} → 브라우저에서 이 주소를 여세요 (토큰은 비밀입니다):\n  {url}",
        "en": "JARVIS HUD{mode} → open this address in your browser (the token is secret):\n"
        "  {url}",
    },
    "serve.port_in_use": {
        "ko": "{host}:{port} 포트를 이미 다른 프로그램이 쓰고 있습니다 (Jarvis가 이미 실행 중인가요?). "
        "그 프로그램을 멈추거나 --port로 다른 포트를 지정하세요.",
        "en": "Port {port} on {host} is already in use (is Jarvis already running?). Stop that "
        "program or pass another --port.",
    },
    "serve.open_hud_keys": {
        "ko": "JARVIS HUD{mode} → {url} (API 키로 로그인)",
        "en": "JARVIS HUD{mode} → {url} (log in with an API key)",
    },
    "display.spaces": {"ko": "⟨공백 {count}칸⟩", "en": "⟨{count} spaces⟩"},
    "approval.warning.compound": {
        "ko": "⚠ 여러 명령이나 셸 구문이 이어져 있습니다 (compound)",
        "en": "⚠ several commands or shell constructs (compound)",
    },
    "approval.warning.destructive": {
        "ko": "⚠ 지우거나 덮어쓰는 작업입니다 (destructive)",
        "en": "⚠ deletes or overwrites (destructive)",
    },
    "approval.warning.outside_workspace": {
        "ko": "⚠ 작업 폴더 밖을 건드립니다 (outside_workspace)",
        "en": "⚠ reaches outside the workspace (outside_workspace)",
    },
    "approval.warning.secret_path": {
        "ko": "⚠ 비밀 정보(키, 자격 증명)가 있는 위치를 가리킵니다 (secret_path)",
        "en": "⚠ names a location holding secrets (keys, credentials) (secret_path)",
    },
    "approval.warning.control_chars": {
        "ko": "⚠ 보이지 않는 제어 문자가 들어 있습니다 (control_chars)",
        "en": "⚠ contains invisible control characters (control_chars)",
    },
    "approval.no_always": {
        "ko": "항상 허용을 제공하지 않는 이유: {reason}",
        "en": "ALWAYS is not offered: {reason}",
    },
    "approval.no_always.compound": {
        "ko": "여러 명령이 이어진 줄은 규칙으로 저장하지 않습니다",
        "en": "a line of several commands is never saved as a rule",
    },
    "approval.no_always.unsafe": {
        "ko": "규칙으로 안전하게 표현할 수 없는 명령입니다",
        "en": "the command cannot be captured safely by a rule",
    },
    "approval.no_always.runs_code": {
        "ko": "다른 코드를 실행하게 하는 옵션이 들어 있습니다",
        "en": "it has an option that makes the program run other code",
    },
    "approval.no_always.writes_file": {
        "ko": "파일을 쓰는 명령은 규칙으로 저장하지 않습니다",
        "en": "a command that writes files is never saved as a rule",
    },
    "approval.no_always.outside_workspace": {
        "ko": "작업 폴더 밖을 가리킵니다",
        "en": "it points outside the workspace",
    },
    "approval.no_always.invalid_args": {
        "ko": "인자가 빠졌거나 잘못되어 규칙을 만들 수 없습니다",
        "en": "the arguments are missing or malformed, so no rule can be made",
    },
    "approval.no_always.wrapper": {
        "ko": "다른 명령을 실행하는 래퍼(env, sh -c, xargs …)입니다",
        "en": "it is a wrapper that runs another command (env, sh -c, xargs …)",
    },
    "approval.no_always.inline_code": {
        "ko": "인라인 코드(python -c 등)는 매번 확인합니다",
        "en": "inline code (python -c …) is checked every time",
    },
    "approval.no_always.secret": {
        "ko": "비밀 정보에 닿는 작업입니다",
        "en": "it touches secrets",
    },
    "approval.no_always.no_standing_consent": {
        "ko": "이 도구는 상시 허용을 받지 않습니다",
        "en": "this tool never accepts standing consent",
    },
    "approval.no_always.glob_chars": {
        "ko": "와일드카드 문자가 들어 있어 규칙이 너무 넓어집니다",
        "en": "wildcard characters would make the rule too broad",
    },
    "approval.no_always.root": {
        "ko": "루트(/) 전체에 대한 규칙은 만들지 않습니다",
        "en": "no rule covers the whole root (/)",
    },
    # Workspace and network boundary
    "gate.secret_path": {
        "ko": "blocked: {path} 은(는) 비밀 위치(자격 증명, 키, Jarvis 자신의 데이터)라 {tool} 로 "
        "읽거나 쓸 수 없습니다. 승인이나 규칙으로도 풀 수 없습니다. bash, 심볼릭 링크, 복사 등 "
        "다른 길로 닿으려 하지 말고 사용자에게 알리세요.",
        "en": "blocked: {path} is a secret location (credentials, keys, Jarvis's own data), so "
        "{tool} may not read or write it; no approval or rule can allow it. Do not try another "
        "way to reach it (bash, symlinks, copies); tell the user.",
    },
    # Denial flow: the turn ends by code with one of these lines.
    "approval.denied_turn_end": {
        "ko": "승인이 거부되어 {tools} 실행을 멈췄습니다. 필요하면 다시 요청해 주세요.",
        "en": "Approval was denied, so {tools} did not run. Ask again if you need it.",
    },
    "approval.timeout_turn_end": {
        "ko": "승인 요청에 시간 안에 답이 없어 {tools} 실행을 멈췄습니다. 필요하면 다시 요청해 주세요.",
        "en": "The approval request was not answered in time, so {tools} did not run. "
        "Ask again if you need it.",
    },
    # What the model reads when the gate refuses a call (with the next step to take).
    "gate.approval_denied": {
        "ko": "approval_denied: 사용자가 {tool} 실행을 거부했습니다. 같은 인자로 다시 부르지 말고, "
        "무엇이 실행되지 않았는지 사용자에게 알린 뒤 할 수 있는 일을 이어가세요.",
        "en": "approval_denied: the user denied {tool}. Do not call it again with the same "
        "arguments; tell the user what did not run and continue with what you can.",
    },
    "gate.approval_timeout": {
        "ko": "approval_timeout: {tool} 승인 요청에 시간 안에 답이 없었습니다. 같은 인자로 다시 "
        "부르지 말고, 무엇이 실행되지 않았는지 알린 뒤 할 수 있는 일을 이어가세요.",
        "en": "approval_timeout: nobody answered the approval request for {tool} in time. Do not "
        "call it again with the same arguments; tell the user what did not run and continue.",
    },
    "gate.approval_denied_repeated": {
        "ko": "approval_denied_repeated: 같은 {tool} 호출이 이번 턴에 이미 {count}번 거부되어 "
        "묻지 않고 막았습니다. 다시 부르지 말고 사용자에게 알리세요.",
        "en": "approval_denied_repeated: the same {tool} call was already denied {count} times "
        "this turn, so it was blocked without asking. Do not call it again; tell the user.",
    },
    "gate.dangerous": {
        "ko": "blocked: 이 명령은 security.dangerous_commands 의 '{pattern}' 에 걸려 실행하지 "
        "않았습니다. 승인으로도 풀 수 없으니 사용자에게 알리세요.",
        "en": "blocked: this command matches '{pattern}' in security.dangerous_commands and was "
        "not run; approval cannot unblock it. Tell the user.",
    },
    "gate.rule_denied": {
        "ko": "blocked: {origin} 의 거부 규칙({pattern})에 걸려 {tool} 을 실행하지 않았습니다.",
        "en": "blocked: a deny rule in {origin} ({pattern}) forbids this {tool} call.",
    },
    "gate.policy_denied": {
        "ko": "not permitted: 정책상 {tool} 도구를 쓸 수 없습니다 (역할: {role}).",
        "en": "not permitted: the policy does not allow {tool} (role: {role}).",
    },
    "gate.policy_unavailable": {
        "ko": "policy_unavailable: 정책을 평가할 수 없어 {tool} 을 실행하지 않았습니다.",
        "en": "policy_unavailable: the policy could not be evaluated, so {tool} did not run.",
    },
    "gate.plugin_blocked": {
        "ko": "blocked: 플러그인 {plugin} 이 {tool} 호출을 막았습니다: {reason}",
        "en": "blocked: plugin {plugin} blocked the {tool} call: {reason}",
    },
    "gate.no_approver": {
        "ko": "no_approver: {tool} 은 승인이 필요하지만 답할 사람이 연결되어 있지 않아 실행하지 "
        "않았습니다. 같은 인자로 다시 부르지 말고, 무엇이 실행되지 않았는지 사용자에게 알린 뒤 "
        "할 수 있는 일을 이어가세요.",
        "en": "no_approver: {tool} needs approval but nobody is connected to answer, so it did "
        "not run. Do not call it again with the same arguments; tell the user what did not run "
        "and continue with what you can.",
    },
    "gate.approval_unavailable": {
        "ko": "approval_unavailable: 사람이 없는 실행이라 승인이 필요한 {tool} 을 쓸 수 없습니다.",
        "en": "approval_unavailable: this run is unattended, so {tool}, which needs approval, "
        "cannot be used.",
    },
    "gate.aborted": {
        "ko": "aborted: 턴이 중단되어 {tool} 승인 요청을 취소했습니다.",
        "en": "aborted: the turn was stopped, so the approval request for {tool} was cancelled.",
    },
    # Shell gate: why a bash line was blocked, why it may not run under a rule, why ALWAYS is not
    # offered, and what an approval request warns about (codes from core/policy).
    "gate.shell.dangerous": {
        "ko": "blocked: 위험한 명령이라 실행하지 않았습니다 ({reason}: {command}). 승인으로도 풀 수 없으니 사용자에게 알리세요.",
        "en": "blocked: a dangerous command was not run ({reason}: {command}); approval cannot unblock it. Tell the user.",
    },
    "gate.shell.danger.delete_root": {
        "ko": "루트, 홈 디렉터리, 시스템 디렉터리나 알 수 없는 경로를 통째로 지우거나 옮김",
        "en": "deletes or moves the root, the home directory, a system directory or a path only known after expansion",
    },
    "gate.shell.danger.delete_system": {
        "ko": "시스템 디렉터리(/etc, /usr 등) 안의 파일을 지우거나 옮김",
        "en": "deletes or moves a file inside a system directory (/etc, /usr, …)",
    },
    "gate.shell.danger.find_delete_root": {
        "ko": "루트나 홈에서 시작하는 find 가 파일을 지우거나 명령을 실행함",
        "en": "find from the root or home deletes files or runs a command",
    },
    "gate.shell.danger.pipe_to_shell": {
        "ko": "파이프나 치환으로 받은 내용을 셸·인터프리터가 코드로 실행함",
        "en": "a shell or interpreter runs what a pipe or substitution feeds it",
    },
    "gate.shell.danger.download_to_shell": {
        "ko": "내려받은 내용을 eval 이나 -c 로 실행함",
        "en": "runs downloaded text with eval or -c",
    },
    "gate.shell.danger.fork_bomb": {
        "ko": "자기 자신을 파이프·백그라운드로 부르는 함수 (fork bomb)",
        "en": "a function that calls itself in a pipe or the background (a fork bomb)",
    },
    "gate.shell.danger.device_write": {
        "ko": "디스크 장치에 직접 씀",
        "en": "writes straight to a disk device",
    },
    "gate.shell.danger.too_complex": {
        "ko": "래퍼가 너무 많이 겹치거나 너무 깊거나 커서 끝까지 검사할 수 없음 (명령을 나눠 주세요)",
        "en": "too deeply wrapped, nested or large to check whole (split the command)",
    },
    "gate.shell.danger.disk_tool": {
        "ko": "파일시스템을 만들거나 디스크를 지우는 도구",
        "en": "makes a filesystem or wipes a disk",
    },
    "gate.shell.unsafe.parse_error": {
        "ko": "명령을 끝까지 해석할 수 없습니다",
        "en": "the line could not be fully parsed",
    },
    "gate.shell.unsafe.command_substitution": {
        "ko": "$(…) 나 `…` 로 다른 명령의 출력을 씁니다",
        "en": "it uses another command's output through $(…) or `…`",
    },
    "gate.shell.unsafe.process_substitution": {
        "ko": "<(…) 로 다른 명령을 실행합니다",
        "en": "it runs another command through <(…)",
    },
    "gate.shell.unsafe.write_redirection": {
        "ko": "> 로 파일에 씁니다",
        "en": "it writes a file with >",
    },
    "gate.shell.unsafe.expansion": {
        "ko": "$변수나 {a,b} 처럼 실행할 때에야 정해지는 부분이 있습니다",
        "en": "part of it is only known when it runs ($VAR, {a,b})",
    },
    "gate.shell.unsafe.dynamic_eval": {
        "ko": "eval, source, exec 로 보이지 않는 코드를 실행합니다",
        "en": "it runs code that is not in the line (eval, source, exec)",
    },
    "gate.shell.unsafe.compound": {
        "ko": "if, for, 함수 같은 복합 구문이 있습니다",
        "en": "it has if/for/while/case or a function",
    },
    "gate.shell.unsafe.assignment": {
        "ko": "VAR=값 으로 환경을 바꿉니다",
        "en": "it sets variables (VAR=value)",
    },
    "gate.shell.unsafe.empty": {"ko": "실행할 명령이 없습니다", "en": "there is no command to run"},
    "gate.shell.unsafe.heredoc_delimiter": {
        "ko": "heredoc 끝 표시에 따옴표·\\·$ 가 섞여 있어 bash 와 검사기가 다르게 읽을 수 있습니다",
        "en": "a heredoc delimiter mixes quotes, \\ or $, so bash and the checker can read it differently",
    },
    "gate.shell.unsafe.control_character": {
        "ko": "제어 문자(CR 등)가 있어 bash 와 검사기가 다르게 읽을 수 있습니다",
        "en": "it holds control characters (such as CR) that bash and the checker read differently",
    },
    "gate.shell.unsafe.too_deep": {
        "ko": "중첩이 너무 깊어 끝까지 검사할 수 없습니다",
        "en": "it is nested too deeply to check",
    },
    "gate.shell.unsafe.too_complex": {
        "ko": "한 줄에 구문이 너무 많아 검사할 수 없습니다. 명령을 나눠 주세요",
        "en": "the line has too many parts to check; split it into several commands",
    },
    "gate.shell.no_always.compound": {
        "ko": "여러 명령이 이어져 있어 '항상 허용'을 만들 수 없습니다",
        "en": "several commands in one line: no standing rule",
    },
    "gate.shell.no_always.unsafe": {
        "ko": "검사기가 확신할 수 없는 구문이 있어 '항상 허용'을 만들 수 없습니다",
        "en": "it has constructs the checker cannot vouch for: no standing rule",
    },
    "gate.shell.no_always.wrapper": {
        "ko": "다른 명령을 실행하는 명령(env, xargs, find …)이라 '항상 허용'이 모든 명령을 허용하게 됩니다",
        "en": "it runs other commands (env, xargs, find …): a rule would allow any command",
    },
    "gate.shell.no_always.inline_code": {
        "ko": "셸·인터프리터에 코드를 직접 넘깁니다 (-c, -e, heredoc)",
        "en": "it hands code straight to a shell or interpreter (-c, -e, heredoc)",
    },
    "gate.shell.no_always.runs_code": {
        "ko": "다른 프로그램을 실행하게 하는 옵션이 있습니다 (git -c, pytest -p …)",
        "en": "an option makes it run another program (git -c, pytest -p …)",
    },
    "gate.shell.no_always.writes_file": {
        "ko": "파일을 쓰거나 지우는 옵션이 있습니다",
        "en": "an option makes it write or delete files",
    },
    "gate.shell.no_always.outside_workspace": {
        "ko": "작업 폴더 밖의 경로를 다룹니다",
        "en": "it works on a path outside the workspace",
    },
    "gate.shell.no_always.secret": {
        "ko": "비밀번호나 토큰처럼 보이는 값이 있어 규칙에 저장하지 않습니다",
        "en": "it holds what looks like a password or token, which is never saved in a rule",
    },
    "gate.shell.no_always.no_standing_consent": {
        "ko": "이 도구는 '항상 허용'을 받지 않습니다",
        "en": "this tool never takes a standing rule",
    },
    "gate.shell.no_always.glob_chars": {
        "ko": "경로에 * 나 ? 가 있습니다",
        "en": "the path holds * or ?",
    },
    "gate.shell.no_always.root": {
        "ko": "작업 폴더 전체라 너무 넓습니다",
        "en": "the whole workspace is too wide",
    },
    "gate.shell.no_always.invalid_args": {
        "ko": "인자가 없거나 형식이 맞지 않습니다",
        "en": "arguments are missing or malformed",
    },
    "gate.shell.warning.compound": {
        "ko": "여러 명령 또는 복합 구문",
        "en": "several commands or shell constructs",
    },
    "gate.shell.warning.destructive": {
        "ko": "지우거나 덮어쓰는 명령",
        "en": "deletes or overwrites",
    },
    "gate.shell.warning.control_chars": {
        "ko": "보이지 않는 제어·방향 문자가 있음",
        "en": "holds invisible control or direction characters",
    },
    # The loop's own prompts (never recorded in history).
    "loop.empty_nudge": {
        "ko": "답이 비어 있습니다. 사용자에게 보낼 답을 쓰거나 필요한 도구를 호출하세요.",
        "en": "Your answer was empty. Write the reply to the user or call the tool you need.",
    },
    "loop.summary_request": {
        "ko": "도구를 더 부르지 말고, 지금까지 한 것, 남은 단계, 지금까지의 답을 짧게 정리하세요.",
        "en": "Do not call any more tools. Briefly summarise what you have done, the steps that "
        "remain, and your answer so far.",
    },
    "loop.resume_instruction": {
        "ko": "[이어가기] 도구 예산을 한 번 다 썼습니다. 지금까지의 정리:\n{summary}\n\n"
        "남은 단계만 작은 단위로 진행하고, 이미 한 일은 반복하지 마세요. "
        "남은 도구 차례: {remaining}.",
        "en": "[Resume] The tool budget ran out once. Summary so far:\n{summary}\n\n"
        "Continue only with the remaining steps, in small units; do not repeat finished work. "
        "Tool rounds left: {remaining}.",
    },
    "loop.fallback_summary": {
        "ko": "작업이 길어져 차례 예산을 다 썼습니다. 지금까지 부른 도구: {tools}. "
        "남은 단계는 이어서 요청해 주세요.",
        "en": "The task ran out of its round budget. Tools called so far: {tools}. "
        "Ask me to continue with the remaining steps.",
    },
    "loop.fallback_summary_no_tools": {
        "ko": "작업이 길어져 차례 예산을 다 썼습니다. 남은 단계는 이어서 요청해 주세요.",
        "en": "The task ran out of its round budget. Ask me to continue with the remaining steps.",
    },
    "loop.max_turns_stop": {
        "ko": "최대 차례({max_turns})에 도달해 멈췄습니다.",
        "en": "Stopped after reaching the maximum of {max_turns} rounds.",
    },
    "loop.aborted": {"ko": "중단했습니다.", "en": "Stopped."},
    "loop.deadline": {
        "ko": "이 턴이 제한 시간({seconds}초)을 넘겨 멈췄습니다. 더 길게 두려면 JARVIS_LOOP__TURN_DEADLINE_SEC 를 늘리세요.",
        "en": "This turn ran past its time limit ({seconds} s) and was stopped. Raise "
        "JARVIS_LOOP__TURN_DEADLINE_SEC to allow longer turns.",
    },
    "loop.error_marker": {
        "ko": "(이 답은 오류로 끝났습니다: {kind})",
        "en": "(this answer ended with an error: {kind})",
    },
    "web.storage_unavailable": {
        "ko": "지금은 저장소를 쓸 수 없어 요청을 받지 않았습니다 ({cause}). 잠시 뒤 다시 해 주세요.",
        "en": "Storage is unavailable, so the request was refused ({cause}). Try again shortly.",
    },
    # A turn whose history could not be stored: said instead of a normal end.
    "turn.prompt_not_saved": {
        "ko": "메시지를 저장하지 못해 실행하지 않았습니다 ({cause}). 저장 공간이나 데이터베이스를 확인한 뒤 다시 보내 주세요.",
        "en": "Your message could not be saved, so nothing ran ({cause}). Check the disk or "
        "the database and send it again.",
    },
    "turn.answer_not_saved": {
        "ko": "답변은 위에 있지만 저장되지 않았습니다 ({cause}). 다시 열면 이 턴이 보이지 않을 수 있습니다.",
        "en": "The answer above was not saved ({cause}); it may be missing when you reopen "
        "this session.",
    },
    "turn.failed": {
        "ko": "이 턴이 오류로 끝났습니다: {cause}",
        "en": "This turn ended with an error: {cause}",
    },
    # Model layer errors shown to the user.
    "provider.unreachable": {
        "ko": "모델 서버({base_url})에 연결할 수 없습니다. JARVIS_MODEL__BASE_URL 을 확인하거나, "
        "모델 없이 보려면 `--demo` 로 시작하세요 (HUD: `jarvis serve --demo`, 터미널: "
        "`jarvis chat --demo`).",
        "en": "Cannot reach the model server at {base_url}. Check JARVIS_MODEL__BASE_URL, or start "
        "with `--demo` to try Jarvis offline (HUD: `jarvis serve --demo`, terminal: "
        "`jarvis chat --demo`).",
    },
    "provider.auth": {
        "ko": "모델 서버({base_url})가 API 키를 거절했습니다. JARVIS_MODEL__API_KEY 를 확인하세요. "
        "모델 없이 보려면 `--demo` 로 시작하세요 (HUD: `jarvis serve --demo`, 터미널: "
        "`jarvis chat --demo`).",
        "en": "The model server at {base_url} rejected the API key. Check JARVIS_MODEL__API_KEY, "
        "or start with `--demo` to try Jarvis offline (HUD: `jarvis serve --demo`, terminal: "
        "`jarvis chat --demo`).",
    },
    "provider.model_not_found": {
        "ko": "모델 서버({base_url})에 '{model}' 모델이 없습니다. JARVIS_MODEL__MODEL 을 확인하세요.",
        "en": "The model server at {base_url} has no model '{model}'. Check JARVIS_MODEL__MODEL.",
    },
    "provider.failed": {
        "ko": "모델 호출이 실패했습니다: {detail}",
        "en": "The model call failed: {detail}",
    },
    # Model servers: what a local or remote server's failure means and what to change.
    "model.timeout": {
        "ko": "모델 서버({base_url})가 {seconds}초 안에 답하지 않았습니다. 서버가 느린 것이라면 JARVIS_MODEL__TIMEOUT_SEC 를 늘리세요 (지금 {seconds}).",
        "en": "The model server at {base_url} did not answer within {seconds} s. If it is just "
        "slow, raise JARVIS_MODEL__TIMEOUT_SEC (now {seconds}).",
    },
    "model.no_endpoint_try_v1": {
        "ko": "모델 서버({base_url})에 Chat Completions 주소가 없습니다 (HTTP 404). OpenAI 호환 주소는 보통 /v1 로 끝납니다: JARVIS_MODEL__BASE_URL={suggested}",
        "en": "The model server at {base_url} has no Chat Completions endpoint (HTTP 404). "
        "OpenAI-compatible addresses usually end in /v1: JARVIS_MODEL__BASE_URL={suggested}",
    },
    "model.no_endpoint": {
        "ko": "모델 서버({base_url})에 Chat Completions 주소가 없습니다 (HTTP 404). JARVIS_MODEL__BASE_URL 을 확인하세요.",
        "en": "The model server at {base_url} has no Chat Completions endpoint (HTTP 404). "
        "Check JARVIS_MODEL__BASE_URL.",
    },
    "model.context_overflow": {
        "ko": "대화가 모델의 컨텍스트보다 깁니다 ({prompt} / {window} 토큰). /new 로 새 세션을 시작하거나 서버의 컨텍스트 크기를 늘리세요.",
        "en": "The conversation no longer fits the model's context ({prompt} of {window} "
        "tokens). Start a new session (/new) or raise the server's context size.",
    },
    "model.context_overflow_unknown": {
        "ko": "대화가 모델의 컨텍스트보다 깁니다. /new 로 새 세션을 시작하거나 서버의 컨텍스트 크기를 늘리세요.",
        "en": "The conversation no longer fits the model's context. Start a new session (/new) "
        "or raise the server's context size.",
    },
    "model.request_rejected": {
        "ko": "모델 서버가 요청을 거절했습니다 (HTTP {status}, 다시 시도하지 않음): {detail}",
        "en": "The model server rejected the request (HTTP {status}, not retried): {detail}",
    },
    "model.server_error": {
        "ko": "모델 서버 오류 (HTTP {status}): {detail}",
        "en": "The model server failed (HTTP {status}): {detail}",
    },
    "model.stream_broke": {
        "ko": "모델 서버와의 연결이 답을 받는 도중에 끊겼습니다 ({detail}). 위의 답은 완전하지 않습니다.",
        "en": "The connection to the model server broke while the answer was arriving "
        "({detail}). The answer above is incomplete.",
    },
    "model.unfinished": {
        "ko": "모델 서버가 답을 끝맺지 않았습니다 (finish_reason 없이 스트림이 끝남, 스트리밍 없이 다시 물어도 같음). 서버 로그를 확인하세요.",
        "en": "The model server did not finish its answer (the stream ended without a "
        "finish_reason, and asking again without streaming did not help). Check the server's log.",
    },
    "model.unfinished_partial": {
        "ko": "모델 서버가 답을 끝맺지 않고 스트림을 닫았습니다 (finish_reason 없음). 위의 답은 완전하지 않습니다.",
        "en": "The model server closed the stream without finishing the answer (no "
        "finish_reason). The answer above is incomplete.",
    },
    "model.truncated": {
        "ko": "(답이 최대 토큰 수에서 잘렸습니다. 이어서 말해 달라고 하거나 JARVIS_MODEL__MAX_TOKENS 를 늘리세요.)",
        "en": "(The answer was cut off at the token limit. Ask to continue, or raise "
        "JARVIS_MODEL__MAX_TOKENS.)",
    },
    "model.empty_answer": {
        "ko": "모델이 빈 답을 보냈습니다. 다시 묻거나 다른 모델을 써 보세요.",
        "en": "The model sent an empty answer. Ask again or try another model.",
    },
    # System prompt addition when approval-requiring tools exist (seed 000).
    "prompt.approval_rule": {
        "ko": "사용자가 실행을 요청하면 승인이 필요한 도구도 직접 호출하세요. 승인은 시스템이 "
        "사람에게 묻습니다. 앞에서 거부됐더라도 새 요청이면 다시 호출해 승인을 구하세요.",
        "en": "When the user asks you to run something, call the tool directly even if it needs "
        "approval; the system asks the human. If an earlier call was denied, a new request "
        "means you call again and ask for approval again.",
    },
    "prompt.default_system": {
        "ko": "당신은 JARVIS, 사용자의 개인 AI 비서입니다. 도구로 실제 일을 하고, 짧고 정확하게 "
        "답하세요.",
        "en": "You are JARVIS, the user's personal AI assistant. Do real work with your tools and "
        "answer briefly and precisely.",
    },
    "settings.invalid": {
        "ko": "설정 오류: {name}: {detail}",
        "en": "Invalid setting: {name}: {detail}",
    },
}


def t(key: str, lang: Language = "ko", **params: object) -> str:
    """Look up `key` in `lang` (falling back to Korean) and fill in `params`."""
    entry = _CATALOG[key]
    template = entry.get(lang) or entry["ko"]
    return template.format(**params) if params else template


def register_messages(messages: dict[str, dict[Language, str]]) -> None:
    """Let a feature module add its own lines to the catalog at import time."""
    for key, entry in messages.items():
        if key in _CATALOG:
            raise ValueError(f"message key already registered: {key}")
        _CATALOG[key] = entry


def _load_parts() -> None:
    """Merge every `jarvis.common.messages.<feature>` module's `MESSAGES` into the catalog."""
    for part in sorted(pkgutil.iter_modules(_parts.__path__), key=lambda found: found.name):
        module = importlib.import_module(f"{_parts.__name__}.{part.name}")
        register_messages(module.MESSAGES)


_load_parts()
