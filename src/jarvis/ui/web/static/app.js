// The Jarvis HUD. Every piece of model or user text is set with textContent, never as HTML.
(() => {
  "use strict";
  const STRINGS = {
    ko: {
      newSession: "새 세션", send: "보내기", stop: "중단", placeholder: "무엇을 도와드릴까요? (Enter 보내기, Shift+Enter 줄바꿈)",
      agenda: "AGENDA", activity: "ACTIVITY", rules: "승인 규칙", noRules: "기억된 규칙이 없습니다.",
      noAgenda: "챙길 약속이 없습니다.", revoke: "해제", stale: "정책이 바뀌어 다시 물음",
      approvalTitle: "승인 요청 · ", source: "출처: ", shortened: (n) => `(원래 ${n}자 중 일부만 표시)`,
      irreversible: "⚠ 되돌릴 수 없는 작업입니다.", patternNote: (p) => `항상 허용하면 저장될 규칙: ${p}`,
      allow: "허용", always: "항상 허용", deny: "거부 (Esc)", left: (s) => `${s}초 남음`,
      spaces: (n) => `⟨공백 ${n}칸⟩`, typingHint: "입력은 승인 창에 전달되지 않습니다. 버튼(Tab)으로 답하세요.",
      warnings: { compound: "⚠ 여러 명령이나 셸 구문이 이어져 있습니다 (compound)", destructive: "⚠ 지우거나 덮어쓰는 작업입니다 (destructive)",
        outside_workspace: "⚠ 작업 폴더 밖을 건드립니다 (outside_workspace)", secret_path: "⚠ 비밀 정보가 있는 위치를 가리킵니다 (secret_path)", control_chars: "⚠ 보이지 않는 제어 문자가 들어 있습니다 (control_chars)" },
      noAlways: "항상 허용을 제공하지 않는 이유: ",
      noAlwaysReasons: { compound: "여러 명령이 이어진 줄은 규칙으로 저장하지 않습니다", unsafe: "규칙으로 안전하게 표현할 수 없는 명령입니다",
        wrapper: "다른 명령을 실행하는 래퍼(env, sh -c, xargs …)입니다", inline_code: "인라인 코드(python -c 등)는 매번 확인합니다",
        secret: "비밀 정보에 닿는 작업입니다", no_standing_consent: "이 도구는 상시 허용을 받지 않습니다",
        glob_chars: "와일드카드 문자가 들어 있어 규칙이 너무 넓어집니다", root: "루트(/) 전체에 대한 규칙은 만들지 않습니다",
        runs_code: "다른 코드를 실행하게 하는 옵션이 들어 있습니다", writes_file: "파일을 쓰는 명령은 규칙으로 저장하지 않습니다",
        outside_workspace: "작업 폴더 밖을 가리킵니다", invalid_args: "인자가 잘못되어 규칙을 만들 수 없습니다" },
      resolved: { allow: "허용", always: "항상 허용", deny: "사용자가 거부", timeout: "시간 초과로 거부", cancelled: "취소" },
      reasons: { not_required: "승인 불필요", user_once: "한 번 허용", user_always: "항상 허용",
        user_deny: "사용자가 거부", timeout: "시간 초과로 거부", dangerous: "위험 명령 차단",
        policy_denied: "정책상 불가", policy_unavailable: "정책 평가 실패", denied_repeated: "반복 거부로 차단",
        no_approver: "답할 사람 없음", approval_unavailable: "승인 불가", aborted: "중단" },
      connected: "연결됨", disconnected: "연결 끊김", conflict: "이미 답한 요청입니다.", stopped: "중단됨",
    },
    en: {
      newSession: "New session", send: "Send", stop: "Stop", placeholder: "What can I do? (Enter sends, Shift+Enter new line)",
      agenda: "AGENDA", activity: "ACTIVITY", rules: "Approval rules", noRules: "No remembered rules.",
      noAgenda: "Nothing to keep track of.", revoke: "Revoke", stale: "policy changed; asks again",
      approvalTitle: "Approval · ", source: "Source: ", shortened: (n) => `(showing part of ${n} characters)`,
      irreversible: "⚠ This cannot be undone.", patternNote: (p) => `ALWAYS will save the rule: ${p}`,
      allow: "Allow", always: "Always", deny: "Deny (Esc)", left: (s) => `${s}s left`,
      spaces: (n) => `⟨${n} spaces⟩`, typingHint: "Typing does not answer this request. Use the buttons (Tab).",
      warnings: { compound: "⚠ several commands or shell constructs (compound)", destructive: "⚠ deletes or overwrites (destructive)",
        outside_workspace: "⚠ reaches outside the workspace (outside_workspace)", secret_path: "⚠ names a location holding secrets (secret_path)", control_chars: "⚠ contains invisible control characters (control_chars)" },
      noAlways: "ALWAYS is not offered: ",
      noAlwaysReasons: { compound: "a line of several commands is never saved as a rule", unsafe: "the command cannot be captured safely by a rule",
        wrapper: "it is a wrapper that runs another command (env, sh -c, xargs …)", inline_code: "inline code (python -c …) is checked every time",
        secret: "it touches secrets", no_standing_consent: "this tool never accepts standing consent",
        glob_chars: "wildcard characters would make the rule too broad", root: "no rule covers the whole root (/)",
        runs_code: "it has an option that makes the program run other code", writes_file: "a command that writes files is never saved as a rule",
        outside_workspace: "it points outside the workspace", invalid_args: "the arguments are malformed, so no rule can be made" },
      resolved: { allow: "allowed", always: "always allowed", deny: "denied by user", timeout: "denied: timed out", cancelled: "cancelled" },
      reasons: { not_required: "no approval needed", user_once: "allowed once", user_always: "always allowed",
        user_deny: "denied by user", timeout: "timed out", dangerous: "dangerous command blocked",
        policy_denied: "not permitted", policy_unavailable: "policy unavailable", denied_repeated: "blocked after repeated denials",
        no_approver: "nobody to approve", approval_unavailable: "approval unavailable", aborted: "aborted" },
      connected: "connected", disconnected: "disconnected", conflict: "That request was already answered.", stopped: "Stopped",
    },
  };
  const params = new URLSearchParams(location.search);
  const lang = params.get("lang") || document.documentElement.dataset.lang || "ko";
  const S = STRINGS[lang] || STRINGS.ko;
  const $ = (id) => document.getElementById(id);
  const el = (tag, cls, text) => { const n = document.createElement(tag); if (cls) n.className = cls; if (text !== undefined) n.textContent = text; return n; };

  document.querySelectorAll("[data-i18n]").forEach((n) => { n.textContent = S[n.dataset.i18n]; });
  document.querySelectorAll("[data-i18n-placeholder]").forEach((n) => { n.placeholder = S[n.dataset.i18nPlaceholder]; });

  // The login is an HttpOnly cookie the browser sends by itself: no key or token in this page.
  const headers = { "Content-Type": "application/json" };
  const api = async (path, options = {}) => {
    const res = await fetch(path, { ...options, headers, credentials: "same-origin" });
    if (res.status === 401) location.reload(); // the login expired: the server shows the gate
    return res;
  };
  const shownText = (text) => JarvisDisplay.render(String(text), S.spaces);

  let ws = null, sessionId = params.get("session") || sessionStorage.getItem("jarvis_session") || "";
  let current = null;            // the assistant bubble being streamed
  let pending = new Map();       // approval id -> request
  let shown = null, timer = null;

  function addMessage(role, text) {
    const node = el("div", `msg ${role}`, text);
    $("messages").append(node);
    $("messages").scrollTop = $("messages").scrollHeight;
    return node;
  }
  function activity(text, cls) {
    const li = el("li", cls || "", `${new Date().toLocaleTimeString()} ${text}`);
    $("activity").prepend(li);
    while ($("activity").children.length > 200) $("activity").lastChild.remove();
  }
  function reason(decision) {
    if (!decision || !decision.reason) return "";
    const r = decision.reason;
    if (r.startsWith("rule:")) return `${lang === "en" ? "rule" : "규칙"} ${r.slice(5)}`;
    if (r.startsWith("plugin:")) return `plugin ${r.slice(7)}`;
    return S.reasons[r] || r;
  }
  function setRunning(running) { $("stop").disabled = !running; }

  // Feature scripts (static/<feature>.js) listen to server events and send frames through
  // `window.jarvisHud`, so they never reach into this file's internals.
  window.jarvisHud = {
    on: (type, handler) => window.addEventListener(`jarvis:${type}`, (e) => handler(e.detail)),
    send: (frame) => ws && ws.readyState === WebSocket.OPEN && ws.send(JSON.stringify(frame)),
    session: () => sessionId,
    lang: () => document.documentElement.dataset.lang || "ko",
  };

  function onEvent(ev) {
    window.dispatchEvent(new CustomEvent(`jarvis:${ev.type}`, { detail: ev }));
    switch (ev.type) {
      case "session":
        sessionId = ev.session.id; sessionStorage.setItem("jarvis_session", sessionId);
        setRunning(ev.running); loadSessions(); loadHistory(); break;
      case "agent_start": current = null; setRunning(true); break;
      case "message_update":
        if (ev.text_delta) { if (!current) current = addMessage("assistant", ""); current.textContent += ev.text_delta; $("messages").scrollTop = $("messages").scrollHeight; }
        break;
      case "tool_execution_start":
        current = null;
        addMessage("tool", `⚙ ${JarvisDisplay.plain(`${ev.tool_name} ${JSON.stringify(ev.args)}`, S.spaces)}`);
        activity(`⚙ ${ev.tool_name}`); break;
      case "tool_execution_end": {
        const why = reason(ev.decision);
        activity(`${ev.is_error ? "✗" : "✓"} ${ev.tool_name}${why ? " · " + why : ""}`, ev.is_error ? "bad" : "ok");
        if (ev.decision && ev.decision.reason && ev.decision.reason !== "not_required") activity(`⚡ approval · ${why}`, ev.decision.outcome === "allow" ? "ok" : "bad");
        if (ev.decision && ev.decision.reason === "user_always") loadRules();
        break;
      }
      case "agent_end":
        current = null; setRunning(false);
        if (ev.ended_by === "aborted") addMessage("error", S.stopped);
        loadSessions(); loadAgenda(); loadExtensions(); break;
      case "agent_error": // a turn's last event, like agent_end
        current = null; setRunning(false);
        addMessage("error", ev.message); activity(`✗ ${ev.message}`, "bad"); loadSessions(); break;
      case "validation_error": addMessage("error", ev.message); break;
      case "approval_request": pending.set(ev.id, ev); showNext(); break;
      case "approval_resolved": {
        const req = pending.get(ev.id); pending.delete(ev.id);
        if (req && ev.timeout) activity(`⚡ approval · ${S.resolved.timeout}`, "bad");
        if (shown && shown.id === ev.id) closeModal();
        showNext(); break;
      }
      case "approval_answer": if (ev.status === 409) activity(S.conflict, "bad"); break;
      case "agenda_changed": loadAgenda(); break;
      case "command_result": addMessage("tool", ev.text); break;
      case "error": addMessage("error", ev.message); break;
    }
  }

  // The approval modal. Only a deliberate choice answers: Enter typed in the message box never
  // does, typing while a button has focus moves focus off the buttons, Esc denies, and ALLOW is
  // the focused default only when the request carries no compound/destructive warning.
  const RISKY = ["compound", "destructive"];
  function showNext() {
    if (shown || pending.size === 0) return;
    const req = pending.values().next().value; shown = req;
    const composing = document.activeElement === $("input") && $("input").value.trim() !== "";
    $("modal-title").textContent = S.approvalTitle + req.tool;
    $("modal-source").textContent = S.source + req.source;
    const args = $("modal-args"); args.replaceChildren(); args.scrollTop = 0;
    for (const a of req.args) {
      const dt = el("dt"); dt.append(shownText(a.key)); args.append(dt);
      const dd = el("dd"); dd.append(shownText(a.value));
      if (a.shortened) { dd.append(" "); dd.append(el("span", "short", S.shortened(a.original_length))); }
      args.append(dd);
    }
    const warnings = $("modal-warnings"); warnings.replaceChildren();
    if (req.irreversible) warnings.append(el("li", "", S.irreversible));
    for (const code of req.warnings || []) warnings.append(el("li", "", S.warnings[code] || `⚠ ${code}`));
    warnings.hidden = !warnings.children.length;
    const offersAlways = req.options.includes("always");
    $("modal-pattern").hidden = !(req.pattern && offersAlways);
    if (req.pattern) $("modal-pattern").textContent = S.patternNote(`${req.tool} ${req.pattern}`);
    const why = req.no_always_reason;
    $("modal-no-always").hidden = offersAlways || !why;
    if (why) $("modal-no-always").textContent = S.noAlways + (S.noAlwaysReasons[why] || why);
    $("modal-hint").hidden = true;
    const buttons = $("modal-buttons"); buttons.replaceChildren();
    for (const option of req.options) {
      const b = el("button", option, S[option]); b.type = "button"; b.dataset.answer = option;
      b.addEventListener("click", () => answer(req.id, option)); buttons.append(b);
    }
    $("modal").hidden = false;
    const tick = () => {
      const left = Math.max(0, Math.round((req.expires_ms - Date.now()) / 1000));
      $("modal-countdown").textContent = S.left(left);
    };
    tick(); timer = setInterval(tick, 500);
    const risky = req.irreversible || (req.warnings || []).some((w) => RISKY.includes(w));
    const preferred = buttons.querySelector(`[data-answer=${risky ? "deny" : "allow"}]`) || buttons.querySelector("[data-answer=deny]");
    // Someone typing a message when the request appears must not answer it with their Enter.
    (composing ? $("dialog") : preferred).focus();
  }
  function closeModal() { $("modal").hidden = true; shown = null; clearInterval(timer); }
  function answer(id, option) {
    if (ws && ws.readyState === WebSocket.OPEN) ws.send(JSON.stringify({ type: "approval", id, answer: option }));
  }
  function focusables() { return [...$("dialog").querySelectorAll("button, [tabindex='0']")].filter((n) => !n.closest("[hidden]")); }
  document.addEventListener("keydown", (e) => {
    if (!shown) return;
    if (e.key === "Escape") { e.preventDefault(); answer(shown.id, "deny"); return; }
    if (e.key === "Tab") { // keep focus inside the modal
      const items = focusables(); if (!items.length) return;
      const at = items.indexOf(document.activeElement);
      const next = e.shiftKey ? (at <= 0 ? items.length - 1 : at - 1) : (at === items.length - 1 ? 0 : at + 1);
      e.preventDefault(); items[next].focus(); return;
    }
    const typing = e.key === "Process" || e.isComposing || (e.key.length === 1 && !e.ctrlKey && !e.metaKey && !e.altKey);
    if (typing && document.activeElement && document.activeElement.closest("#modal-buttons")) {
      e.preventDefault(); $("dialog").focus(); $("modal-hint").hidden = false; $("modal-hint").textContent = S.typingHint;
    }
  }, true);
  document.addEventListener("focusin", (e) => { // nothing behind the modal takes focus
    if (shown && !$("dialog").contains(e.target)) $("dialog").focus();
  });

  async function loadSessions() {
    const res = await api("/api/sessions"); if (!res.ok) return;
    const select = $("session-select"); select.replaceChildren();
    for (const s of await res.json()) {
      const o = el("option", "", `${s.title || s.id} (${s.turns})`); o.value = s.id; o.selected = s.id === sessionId; select.append(o);
    }
  }
  async function loadHistory() {
    const res = await api(`/api/sessions/${sessionId}/history`); if (!res.ok) return;
    $("messages").replaceChildren();
    for (const e of await res.json()) {
      const m = e.message;
      if (m.role === "user") addMessage("user", unescapeHtml(m.content));
      else if (m.role === "assistant" && m.content) addMessage("assistant", m.content);
    }
  }
  function unescapeHtml(text) { // the server escapes user input; show it as typed (as text)
    return text.replaceAll("&lt;", "<").replaceAll("&gt;", ">").replaceAll("&amp;", "&");
  }
  async function loadRules() {
    const res = await api("/api/rules"); if (!res.ok) return;
    const data = await res.json(); const list = $("rules"); list.replaceChildren();
    let count = 0;
    for (const [origin, rules] of Object.entries(data.files)) {
      for (const r of rules) {
        count++;
        const li = el("li"); const label = el("span");
        label.append(el("code", "", `${r.action === "deny" ? "✕ " : ""}${r.tool} ${r.pattern}`));
        label.append(el("span", "muted", `  ${origin}`));
        if (r.stale) label.append(el("span", "stale", S.stale));
        if (r.granted_by) label.append(el("span", "muted", `  ${r.granted_by}`));
        li.append(label);
        if (r.can_revoke) {
          const b = el("button", "", S.revoke); b.type = "button";
          b.addEventListener("click", async () => {
            const res = await api("/api/rules/revoke", { method: "POST", body: JSON.stringify({ agent: r.agent, tool: r.tool, pattern: r.pattern }) });
            if (!res.ok) activity(`✗ ${(await res.json()).detail || res.status}`, "bad");
            loadRules();
          });
          li.append(b);
        }
        list.append(li);
      }
    }
    if (!count) list.append(el("li", "muted", S.noRules));
    for (const error of data.errors || []) list.prepend(el("li", "bad", `⚠ ${error}`));
  }
  const reported = new Set();
  async function loadExtensions() { // broken extension files show up in ACTIVITY, once each
    const res = await api("/api/extensions"); if (!res.ok) return;
    for (const item of (await res.json()).items) {
      const key = `${item.kind}:${item.file}:${item.detail}`;
      if (!item.ok && !reported.has(key)) { reported.add(key); activity(`✗ ${item.kind} ${item.name}: ${item.detail}`, "bad"); }
    }
  }
  async function loadAgenda() {
    const res = await api("/api/agenda"); if (!res.ok) return;
    const data = await res.json(); const list = $("agenda"); list.replaceChildren();
    for (const loop of data.open || []) list.append(agendaItem(loop, false));
    for (const loop of data.closed || []) list.append(agendaItem(loop, true));
    if (!list.children.length) list.append(el("li", "muted", S.noAgenda));
  }
  function agendaItem(loop, closed) {
    const li = el("li", closed ? "closed" : "");
    const due = loop.due_text ? ` (${loop.due_text})` : "";
    li.append(el("span", "", loop.description + due));
    const actions = el("span");
    const act = (label, status) => { const b = el("button", "", label); b.type = "button"; b.dataset.status = status;
      b.addEventListener("click", async () => { await api(`/api/openloops/${loop.id}`, { method: "POST", body: JSON.stringify({ status }) }); loadAgenda(); }); actions.append(b); };
    if (closed) act("↺", "open"); else { act("✓", "done"); act("✕", "dismissed"); }
    li.append(actions); return li;
  }

  function connect() {
    const proto = location.protocol === "https:" ? "wss" : "ws";
    const q = new URLSearchParams(); if (sessionId) q.set("session", sessionId);
    ws = new WebSocket(`${proto}://${location.host}/ws${sessionId ? `?${q}` : ""}`);
    ws.onopen = () => { $("status").classList.add("on"); $("status").title = S.connected; };
    ws.onmessage = (m) => onEvent(JSON.parse(m.data));
    ws.onclose = (e) => {
      $("status").classList.remove("on"); $("status").title = S.disconnected;
      if (e.code === 4404) { sessionId = ""; sessionStorage.removeItem("jarvis_session"); }
      if (e.code === 4401) { location.reload(); return; } // logged out: the server shows the gate
      setTimeout(connect, e.code === 4429 ? 10000 : 1000);
    };
  }
  function switchTo(id) {
    sessionId = id; sessionStorage.setItem("jarvis_session", id || "");
    pending.clear(); closeModal(); $("messages").replaceChildren();
    if (ws) { ws.onclose = null; ws.close(); } connect();
  }

  $("composer").addEventListener("submit", (e) => {
    e.preventDefault();
    const text = $("input").value; if (!text.trim() || !ws) return;
    addMessage("user", text); current = null;
    const trimmed = text.trim();
    const message = trimmed === "/stop" ? { type: "abort" }
      : trimmed.startsWith("/openloop") ? { type: "command", text: trimmed } : { type: "prompt", text };
    ws.send(JSON.stringify(message));
    $("input").value = "";
  });
  $("input").addEventListener("keydown", (e) => {
    if (e.key !== "Enter" || e.shiftKey || e.isComposing) return;
    e.preventDefault(); // while a request is open, Enter here neither sends nor answers it
    if (!shown) $("composer").requestSubmit();
  });
  $("stop").addEventListener("click", () => ws && ws.send(JSON.stringify({ type: "abort" })));
  $("new-session").addEventListener("click", async () => {
    const res = await api("/api/sessions", { method: "POST" }); if (res.ok) switchTo((await res.json()).id);
  });
  $("session-select").addEventListener("change", (e) => switchTo(e.target.value));

  connect(); loadRules(); loadAgenda(); loadExtensions();
})();
