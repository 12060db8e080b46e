// The side panels: AGENDA (promises with relative due times), ACTIVITY (one line per decision,
// filterable, rebuilt from the audit log) and the approval rules (file errors, who/when/where,
// revoke with undo).
(() => {
  "use strict";
  const { $, el, button, api, S, relative, clock, when, lang } = window.Jarvis;
  const MAX_LINES = 300;

  // --- ACTIVITY -------------------------------------------------------------------------------
  // Which kind a gate decision is, and the human words for it.
  function decisionKind(d) {
    const r = d.reason || "";
    if (d.outcome === "aborted" || r === "aborted") return "stop";
    if (["user_once", "user_always", "user_deny", "timeout", "no_approver", "approval_unavailable"].includes(r)) return "approval";
    if (r.startsWith("rule:")) return d.outcome === "allow" ? "rule" : "block";
    if (d.outcome === "block") return "block";
    if (r === "not_required") return "auto";
    return d.outcome === "allow" ? "auto" : "deny";
  }
  const looksLikeCode = (text) => /[\\^$[\](){}|]|\(\?/.test(text);
  function decisionWords(d) {
    const r = d.reason || "";
    if (r.startsWith("rule:")) return `${lang === "en" ? "rule" : "규칙"} ${d.rule || ""} (${r.slice(5)})`.replace("  ", " ");
    if (r.startsWith("plugin:")) return `${lang === "en" ? "blocked by plugin" : "플러그인이 막음"} ${r.slice(7)}${d.detail ? ": " + d.detail : ""}`;
    const words = S.reasons[r] || r;
    if (r === "dangerous" && d.detail && !looksLikeCode(d.detail)) return `${words}: ${d.detail}`;
    return words;
  }
  function argsBrief(args) {
    if (!args) return "";
    const v = args.command || args.path || args.url || args.query || "";
    return typeof v === "string" ? window.JarvisDisplay.plain(v.length > 60 ? v.slice(0, 60) + "…" : v, S.spaces) : "";
  }

  let filter = "all";
  function addLine(list, kind, text, ok, ms) {
    const li = el("li", ok === true ? "ok" : ok === false ? "bad" : "");
    li.dataset.kind = kind;
    li.append(el("time", "", clock(ms)), el("span", `kind k-${kind}`, S.kinds[kind] || kind), el("span", "what", text));
    li.hidden = list.id === "activity" && !matches(kind);
    list.prepend(li);
    while (list.children.length > MAX_LINES) list.lastChild.remove();
  }
  const log = (kind, text, ok, ms = Date.now()) => addLine($("activity"), kind, text, ok, ms);
  // The thinking layer's lines (thinking.js) are a list of their own, shown under their chip
  // only ("thoughts"): for who wants to see them.
  const thought = (text, ok, ms = Date.now()) => addLine($("thoughts"), "thought", text, ok, ms);
  const GROUPS = { tools: ["auto", "rule", "tool"], decisions: ["approval", "block", "deny", "rule"], agenda: ["agenda"], errors: ["error", "block", "deny", "stop"] };
  const matches = (kind) => filter === "all" || (GROUPS[filter] || []).includes(kind);
  function setFilter(name) {
    filter = name;
    for (const b of $("activity-filter").children) b.classList.toggle("on", b.dataset.filter === name);
    for (const li of $("activity").children) li.hidden = !matches(li.dataset.kind);
    $("activity").hidden = name === "thoughts";
    $("thoughts").hidden = name !== "thoughts";
  }
  for (const [name, label] of [["all", S.filterAll], ["tools", S.filterTools], ["decisions", S.filterDecisions], ["agenda", S.filterAgenda], ["errors", S.filterErrors], ["thoughts", S.filterThoughts]]) {
    const b = button("chip", label, () => setFilter(name)); b.dataset.filter = name; $("activity-filter").append(b);
  }
  setFilter("all");

  // One line per tool call: what ran, and who decided (live from tool_execution_end).
  function toolEnded(ev, args) {
    const d = ev.decision || { outcome: "allow", reason: "not_required" };
    const kind = ev.is_error && !ev.decision ? "error" : decisionKind(d);
    const what = `${ev.tool_name} ${argsBrief(args)}`.trim();
    const ok = !ev.is_error && d.outcome === "allow";
    log(kind, `${ok ? "✓" : "✗"} ${what} — ${decisionWords(d)}`, ok);
  }
  // After a reload: the same lines, oldest first so the newest ends on top. Decisions come from
  // the audit log (each joined, in order, with its call in the history for the argument), stops
  // from the server's marks, promises from the AGENDA of this session.
  async function rebuild(sessionId, { entries = [], marks = [] } = {}) {
    if (!sessionId) { $("activity").replaceChildren(); if (window.Jarvis.thinking) window.Jarvis.thinking.rebuild([]); return; }
    const [res, agendaRes] = await Promise.all([api(`/api/audit?session=${encodeURIComponent(sessionId)}&limit=100`), api("/api/agenda")]);
    if (!res.ok) return;
    const rows = await res.json();
    const calls = entries.flatMap((e) => (e.message.role === "assistant" ? e.message.tool_calls || [] : []));
    const lines = [];
    for (const r of rows) {
      if (r.outcome === "ask") continue; // the answer that follows is the decision
      const at = calls.findIndex((c) => c.name === r.tool);
      const args = at >= 0 ? calls.splice(at, 1)[0].arguments : null;
      const d = { outcome: r.outcome, reason: r.reason, rule: r.rule };
      const ok = r.outcome === "allow";
      lines.push([r.ts_ms, decisionKind(d), `${ok ? "✓" : "✗"} ${`${r.tool} ${argsBrief(args)}`.trim()} — ${decisionWords(d)}`, ok]);
    }
    for (const m of marks) if (m.kind === "stopped") lines.push([m.ts_ms, "stop", `■ ${S.stopped}`, false]);
    const agenda = agendaRes.ok ? await agendaRes.json() : {};
    for (const loop of [...(agenda.open || []), ...(agenda.closed || [])]) {
      if (loop.session_id !== sessionId) continue;
      lines.push([loop.created_ms, "agenda", `${S.agendaLog.added}: ${promiseText(loop.description)}`, true]);
      if (loop.closed_ms) lines.push([loop.closed_ms, "agenda", `${S.agendaLog.closed}: ${promiseText(loop.description)}`, undefined]);
    }
    lines.sort((a, b) => a[0] - b[0]);
    $("activity").replaceChildren();
    for (const [ms, kind, text, ok] of lines) log(kind, text, ok, ms);
    if (window.Jarvis.thinking) window.Jarvis.thinking.rebuild(marks); // the "thoughts" view
  }

  // --- AGENDA ---------------------------------------------------------------------------------
  // The judge often keeps the date in the text ("내일 오후 3시까지 …"); the card shows the due
  // once, as a relative time, so the sentence loses its date words.
  const DATE_WORDS = /^(오늘|내일|모레|이번 주|다음 주|[0-9]+월 ?[0-9]+일)[^ ]* ?((오전|오후) ?)?([0-9]+시( ?[0-9]+분)?)?(까지|에)? ?/;
  const promiseText = (text) => text.replace(DATE_WORDS, "").replace(/ \((근거|evidence):.*\)$/, "").trim() || text;

  async function loadAgenda() {
    const res = await api("/api/agenda"); if (!res.ok) return;
    const data = await res.json(); const list = $("agenda"); list.replaceChildren();
    for (const loop of data.open || []) list.append(agendaItem(loop, false));
    for (const loop of data.closed || []) list.append(agendaItem(loop, true));
    if (!list.children.length) list.append(el("li", "muted", S.noAgenda));
  }
  function agendaItem(loop, closed) {
    const li = el("li", closed ? "closed" : "");
    const text = el("div", "promise");
    text.append(el("span", "promise-text", promiseText(loop.description)));
    if (loop.due_ms) {
      const late = !closed && loop.due_ms < Date.now();
      const due = el("span", late ? "due overdue" : "due", relative(loop.due_ms) + (loop.due_inferred ? "?" : ""));
      due.title = `${loop.due_text || ""}${late ? " · " + S.overdue : ""}`;
      text.append(due);
    }
    const actions = el("span", "agenda-actions");
    const act = (icon, label, status) => {
      const b = button("act", "", async () => {
        const r = await api(`/api/openloops/${loop.id}`, { method: "POST", body: JSON.stringify({ status }) });
        if (r.ok) log("agenda", `${S.agendaLog[status]}: ${promiseText(loop.description)}`, status !== "dismissed" ? true : undefined);
        loadAgenda();
      }, label);
      b.dataset.status = status; b.append(el("span", "icon", icon), el("span", "label", label)); actions.append(b);
    };
    if (closed) act("↺", S.reopen, "open"); else { act("✓", S.done, "done"); act("✕", S.dismiss, "dismissed"); }
    li.append(text, actions); return li;
  }

  // --- Rules ----------------------------------------------------------------------------------
  async function loadRules() {
    const res = await api("/api/rules"); if (!res.ok) return;
    const data = await res.json(); const list = $("rules"); list.replaceChildren();
    let count = 0;
    for (const [origin, rules] of Object.entries(data.files)) {
      for (const r of rules) { count++; list.append(ruleItem(r, origin)); }
    }
    if (!count && !(data.errors || []).length) list.append(el("li", "muted", S.noRules));
    for (const error of data.errors || []) {
      const li = el("li", "bad rule-error"); li.append(el("b", "", `⚠ ${S.ruleErrors}`), el("span", "", String(error))); list.prepend(li);
    }
  }
  function ruleItem(r, origin) {
    const li = el("li"); const label = el("div", "rule");
    label.append(el("code", "", `${r.action === "deny" ? "✕ " : ""}${r.tool} ${r.pattern}`));
    if (r.stale) label.append(el("span", "stale", S.stale));
    const granted = r.granted_at ? when(Date.parse(r.granted_at)) : ""; // the user's timezone, like every other time
    label.append(el("div", "muted meta", r.granted_by ? S.grantedBy(r.granted_by, granted, r.session_id || "") : origin));
    li.append(label);
    if (r.can_revoke) li.append(button("ghost small", S.revoke, () => revoke(r)));
    return li;
  }
  async function revoke(r) {
    const body = JSON.stringify({ agent: r.agent, tool: r.tool, pattern: r.pattern });
    const res = await api("/api/rules/revoke", { method: "POST", body });
    const data = await res.json();
    if (!res.ok) { log("error", `✗ ${data.detail || res.status}`, false); return; }
    log("rule", S.revoked(`${r.tool} ${r.pattern}`));
    await loadRules();
    if (!data.undo) return;
    const undo = el("li", "undo");
    undo.append(el("span", "", S.revoked(`${r.tool} ${r.pattern}`)), button("small", S.undo, async () => {
      const again = await api("/api/rules/undo", { method: "POST", body: JSON.stringify({ token: data.undo }) });
      if (!again.ok) log("error", `✗ ${(await again.json()).detail || again.status}`, false);
      else log("rule", `${S.undo}: ${r.tool} ${r.pattern}`, true);
      loadRules();
    }));
    $("rules").prepend(undo);
  }

  // --- Extensions: broken files show up in ACTIVITY, once each -------------------------------
  const reported = new Set();
  async function loadExtensions() {
    const res = await api("/api/extensions"); if (!res.ok) return;
    for (const item of (await res.json()).items) {
      const key = `${item.kind}:${item.file}:${item.detail}`;
      if (!item.ok && !reported.has(key)) { reported.add(key); log("error", `✗ ${item.kind} ${item.name}: ${item.detail}`, false); }
    }
  }

  window.Jarvis.panels = { log, thought, toolEnded, rebuild, loadAgenda, loadRules, loadExtensions, decisionWords };
})();
