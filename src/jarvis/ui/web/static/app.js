// The Jarvis HUD: the connection, the chat and its state. Model text is rendered as sanitized
// Markdown (markdown.js); everything else is set with textContent, never as HTML.
(() => {
  "use strict";
  const J = window.Jarvis;
  const { $, el, button, api, S, lang, params } = J;

  document.querySelectorAll("[data-i18n]").forEach((n) => { n.textContent = S[n.dataset.i18n]; });
  document.querySelectorAll("[data-i18n-placeholder]").forEach((n) => { n.placeholder = S[n.dataset.i18nPlaceholder]; });
  document.querySelectorAll("[data-i18n-title]").forEach((n) => { n.title = S[n.dataset.i18nTitle]; n.setAttribute("aria-label", n.title); });

  let ws = null, sessionId = params.get("session") || sessionStorage.getItem("jarvis_session") || "";
  if (sessionId) sessionStorage.setItem("jarvis_session", sessionId); // a deep link is this tab's session
  let running = false, retries = 0, reconnectTimer = null;
  let current = null;            // the assistant bubble being streamed
  const blocks = new Map();      // tool_call_id -> ToolBlock
  const outbox = [];             // {frame, node}: typed while offline, sent on reconnect
  const panels = J.panels;

  function scrollDown() { const m = $("messages"); m.scrollTop = m.scrollHeight; }
  function addMessage(role, text) {
    const node = el("div", `msg ${role}`, text);
    $("messages").append(node); scrollDown(); return node;
  }
  function addAnswer(text) {
    const node = el("div", "msg assistant md"); J.markdown.render(node, text);
    $("messages").append(node); scrollDown(); return node;
  }
  // Streamed text is re-rendered at most once a frame.
  let frameQueued = false;
  function streamDelta(delta) {
    if (!current) { current = el("div", "msg assistant md"); current.dataset.raw = ""; $("messages").append(current); }
    current.dataset.raw += delta;
    if (frameQueued) return;
    frameQueued = true;
    requestAnimationFrame(() => { frameQueued = false; if (current) { J.markdown.render(current, current.dataset.raw); scrollDown(); } });
  }
  function finishStream() { if (current) J.markdown.render(current, current.dataset.raw); current = null; }

  // The header names the model answering (the server sends it with the session).
  function showModel(name) { const m = $("model-name"); m.textContent = name || ""; m.title = name ? S.model(name) : ""; m.hidden = !name; }
  function setWorking(on, label) {
    running = on; $("stop").disabled = !on;
    $("working").hidden = !on; $("working-text").textContent = label || S.working;
  }

  // Feature scripts (static/<feature>.js) listen to server events and send frames through
  // `window.jarvisHud`, so they never reach into this file's internals.
  // The session the last `session` event named: this file learns the id after the listeners ran.
  let announced = null;
  window.addEventListener("jarvis:session", (e) => { announced = e.detail.session.id; });
  window.jarvisHud = {
    on: (type, handler) => window.addEventListener(`jarvis:${type}`, (e) => handler(e.detail)),
    send: (frame) => ws && ws.readyState === WebSocket.OPEN && ws.send(JSON.stringify(frame)),
    session: () => sessionId,
    lang: () => lang,
    // Shared by the feature cards: an element with text set as text, and a card with a list
    // appended to the side panel.
    el: (tag, cls, text) => { const n = document.createElement(tag); if (cls) n.className = cls; if (text !== undefined) n.textContent = text; return n; },
    // Whose data a feature card reads: the session, else (before the first message) the agent.
    scope: () => {
      const id = announced || sessionId;
      return id ? `session=${encodeURIComponent(id)}` : `agent=${encodeURIComponent(document.body.dataset.agent || "main")}`;
    },
    jsonRequest: { credentials: "same-origin", headers: { "Content-Type": "application/json" } },
    sideCard: ({ id, cardClass, title, listId, listClass }) => {
      const el = window.jarvisHud.el;
      const card = el("section", `card ${cardClass}`);
      card.id = id;
      card.append(el("h2", "", title));
      const list = el("ul", listClass);
      list.id = listId;
      card.append(list);
      const side = document.querySelector("aside.side");
      if (side) side.append(card);
      return list;
    },
  };

  const modal = J.modal.create({ answer: (id, option) => window.jarvisHud.send({ type: "approval", id, answer: option }) });
  const sessions = J.sessions.create({ current: () => sessionId, onSelect: (id) => { closeDrawers(); switchTo(id); }, onDeleted: () => switchTo("") });
  const diffs = new Map(); // tool_call_id -> the diff its approval request showed

  function toolStarted(ev) {
    finishStream();
    const block = new J.tools.ToolBlock(ev, { fetchFull });
    blocks.set(ev.tool_call_id, block);
    if (diffs.has(ev.tool_call_id)) block.setDiff(diffs.get(ev.tool_call_id));
    $("messages").append(block.node); scrollDown();
    setWorking(true, S.runningTool(ev.tool_name));
  }
  function toolEnded(ev) {
    const block = blocks.get(ev.tool_call_id);
    const killed = ev.decision && ev.decision.outcome === "aborted";
    if (block) block.finish({ is_error: ev.is_error, result: ev.result_preview, killed });
    panels.toolEnded(ev, block ? block.args : null);
    if (ev.decision && ev.decision.reason === "user_always") panels.loadRules();
    setWorking(true, S.thinking);
  }
  async function fetchFull(callId) {
    const res = await api(`/api/sessions/${sessionId}/history`); if (!res.ok) return null;
    const found = (await res.json()).find((e) => e.message.role === "tool" && e.message.tool_call_id === callId);
    return found ? found.message.content : null;
  }

  function onEvent(ev) {
    if (TURN_EVENTS.has(ev.type)) live += 1;
    window.dispatchEvent(new CustomEvent(`jarvis:${ev.type}`, { detail: ev }));
    switch (ev.type) {
      case "session":
        sessionId = ev.session.id; sessionStorage.setItem("jarvis_session", sessionId);
        modal.setWords(ev.words); showModel(ev.model);
        syncAddress(); setWorking(ev.running);
        sessions.load(); loadHistory().then(flushOutbox); break;
      case "agent_start": current = null; setWorking(true, S.thinking); break;
      case "message_update": if (ev.text_delta) streamDelta(ev.text_delta); break;
      case "tool_execution_start": toolStarted(ev); break;
      case "tool_execution_end": toolEnded(ev); break;
      case "agent_end":
        finishStream(); setWorking(false);
        if (ev.ended_by === "aborted") { addMessage("system stopped", `■ ${S.stopped}`); panels.log("stop", `■ ${S.stopped}`, false); }
        for (const b of blocks.values()) if (b.node.classList.contains("running")) b.finish({ is_error: true, killed: true, result: "" });
        sessions.load(); panels.loadAgenda(); panels.loadExtensions(); break;
      case "agent_error": // a turn's last event, like agent_end
        finishStream(); setWorking(false);
        addMessage("error", ev.message); panels.log("error", `✗ ${ev.message}`, false); sessions.load(); break;
      case "validation_error": addMessage("error", ev.message); break;
      case "approval_request": {
        const b = blocks.get(ev.tool_call_id);
        if (ev.diff) { diffs.set(ev.tool_call_id, ev.diff); if (b) b.setDiff(ev.diff); }
        if (b) b.waiting();
        setWorking(true, S.waitingApproval(ev.tool)); modal.add(ev); break;
      }
      case "approval_resolved": { // the tool's own line says how it ended
        const req = modal.resolved(ev.id);
        if (!req || !running) break;
        const b = blocks.get(req.tool_call_id);
        if (["allow", "always"].includes(ev.status)) { if (b) b.run(); setWorking(true, S.runningTool(req.tool)); }
        else setWorking(true, S.thinking);
        break;
      }
      case "approval_words": addMessage("system words", ev.line); break;
      case "approval_answer": if (ev.status === 409) panels.log("approval", S.conflict, false); break;
      case "agenda_changed":
        if (ev.created) panels.log("agenda", `${S.agendaLog.added} (${ev.created})`, true);
        if (ev.closed) panels.log("agenda", `${S.agendaLog.closed} (${ev.closed})`);
        panels.loadAgenda(); break;
      case "agenda_question": addMessage("system", ev.text); panels.log("agenda", ev.text, true); break;
      case "command_result": addMessage("system", ev.text); break;
      case "error": addMessage("error", ev.message); break;
    }
  }

  // A reload shows the same screen: messages and tool blocks from the session history, with the
  // server's marks (each call's run time and whether it was killed, every "■ Stopped"); ACTIVITY
  // from the audit log, the marks and the AGENDA.
  // Turn lines sent or received since the page opened: a history read before them is old.
  const TURN_EVENTS = new Set(["agent_start", "message_update", "tool_execution_start", "tool_execution_end", "agent_end", "agent_error"]);
  let live = 0;
  async function loadHistory() {
    const id = sessionId, seen = live;
    const [res, marksRes] = await Promise.all([api(`/api/sessions/${id}/history`), api(`/api/sessions/${id}/marks`)]);
    if (!res.ok) return;
    if (frameQueued || current) return; // a turn is streaming into the screen: keep it
    if (live !== seen) return loadHistory(); // a turn came and went meanwhile: read it too
    const entries = await res.json();
    const marks = marksRes.ok ? await marksRes.json() : [];
    const runs = new Map(marks.filter((m) => m.kind === "tool").map((m) => [m.call, m]));
    const stops = marks.filter((m) => m.kind === "stopped");
    $("messages").replaceChildren(); blocks.clear();
    const stopLine = () => addMessage("system stopped", `■ ${S.stopped}`);
    for (const e of entries) {
      while (stops.length && stops[0].ts_ms < e.ts_ms) { stops.shift(); stopLine(); }
      const m = e.message;
      if (m.role === "user") addMessage("user", unescapeHtml(m.content));
      else if (m.role === "assistant") {
        if (m.content) addAnswer(m.content);
        for (const call of m.tool_calls || []) {
          const block = new J.tools.ToolBlock({ tool_call_id: call.id, tool_name: call.name, args: call.arguments }, { started: e.ts_ms });
          blocks.set(call.id, block); $("messages").append(block.node);
        }
      } else if (m.role === "tool") {
        const block = blocks.get(m.tool_call_id), run = runs.get(m.tool_call_id);
        if (block) block.finish({ is_error: m.is_error, result: m.content, full: true, killed: Boolean(run && run.killed), ended: run ? block.started + run.ms : null });
      }
    }
    for (const _ of stops) stopLine();
    for (const b of blocks.values()) if (b.node.classList.contains("running") && !running) b.finish({ is_error: true, killed: true, result: "", ended: null });
    for (const node of outbox.map((o) => o.node)) $("messages").append(node);
    J.layout.welcome(); scrollDown();
    await panels.rebuild(id, { entries, marks }); // before queued messages go out: their lines come live
  }
  function unescapeHtml(text) { // the server escapes user input; show it as typed (as text)
    return text.replaceAll("&lt;", "<").replaceAll("&gt;", ">").replaceAll("&amp;", "&");
  }

  // --- The connection: a banner while it is down, reconnecting with backoff ------------------
  function connect() {
    clearTimeout(reconnectTimer);
    if (!sessionId) { markOnline(true); return; } // no session until the first message
    const proto = location.protocol === "https:" ? "wss" : "ws";
    const q = new URLSearchParams({ session: sessionId, lang, batch: "1" }); // events ready together: one frame
    const socket = new WebSocket(`${proto}://${location.host}/ws?${q}`); ws = socket;
    socket.onopen = () => { retries = 0; markOnline(true); };
    socket.onmessage = (m) => { const data = JSON.parse(m.data); for (const ev of Array.isArray(data) ? data : [data]) onEvent(ev); };
    socket.onclose = (e) => {
      if (ws !== socket) return;
      markOnline(false);
      if (e.code === 4404) { sessionId = ""; sessionStorage.removeItem("jarvis_session"); syncAddress(); }
      if (e.code === 4401) { location.reload(); return; } // logged out: the server shows the gate
      const delay = e.code === 4429 ? 10_000 : Math.min(15_000, 500 * 2 ** retries++);
      reconnectTimer = setTimeout(connect, delay);
    };
  }
  function markOnline(on) {
    $("status").classList.toggle("on", on); $("status").title = on ? S.connected : S.disconnected;
    $("banner").hidden = on;
    if (!on) setWorking(false);
  }
  function switchTo(id) {
    sessionId = id; sessionStorage.setItem("jarvis_session", id || ""); syncAddress();
    modal.clear(); $("messages").replaceChildren(); blocks.clear(); $("activity").replaceChildren(); J.layout.welcome();
    if (ws) { const old = ws; ws = null; old.onclose = null; old.close(); }
    connect(); sessions.render();
  }
  function syncAddress() { // ?session= stays a deep link to what is on screen
    const url = new URL(location.href);
    if (sessionId) url.searchParams.set("session", sessionId); else url.searchParams.delete("session");
    history.replaceState(null, "", url);
  }

  // --- Sending: a message typed offline waits in the outbox, never silently lost --------------
  function deliver(item) {
    if (ws && ws.readyState === WebSocket.OPEN) {
      ws.send(JSON.stringify(item.frame)); item.node.classList.remove("queued", "failed"); item.node.querySelector(".send-state")?.remove();
      return true;
    }
    return false;
  }
  function flushOutbox() {
    while (outbox.length) { if (!deliver(outbox[0])) return; outbox.shift(); }
  }
  function markQueued(item) {
    item.node.classList.add("queued");
    const note = el("span", "send-state", ` · ${S.queued}`); item.node.append(note);
    // Not sent after a while: say so, with a retry (the text stays on screen either way).
    item.failTimer = setTimeout(() => {
      if (!outbox.includes(item)) return;
      item.node.classList.add("failed"); note.textContent = ` · ${S.failed} `;
      note.append(button("small retry", S.retry, () => { note.lastChild.remove(); note.textContent = ` · ${S.queued}`; retry(); }));
    }, 20_000);
  }
  function retry() {
    if (!sessionId) { startSession(); return; }
    if (ws && ws.readyState === WebSocket.OPEN) flushOutbox(); else connect();
  }
  // The first message makes the session; until it exists the message waits in the outbox.
  async function startSession() {
    const res = await api(`/api/sessions?lang=${lang}`, { method: "POST" });
    if (!res.ok) { // the server is unreachable: say so and try again with backoff
      markOnline(false); clearTimeout(reconnectTimer);
      reconnectTimer = setTimeout(startSession, Math.min(15_000, 500 * 2 ** retries++)); return;
    }
    sessionId = (await res.json()).id; sessionStorage.setItem("jarvis_session", sessionId);
    syncAddress(); sessions.load(); connect();
  }
  function send(frame, text) {
    const item = { frame, node: addMessage("user", text) };
    current = null;
    if (sessionId && deliver(item)) return;
    outbox.push(item); markQueued(item);
    if (!sessionId) startSession(); // sent once the new session's socket opens
  }
  // A `/…` line goes as typed: the server's command table decides what it is (docs/protocol.md).
  function submit(text) { live += 1; send({ type: "prompt", text }, text); }
  function stop() { window.jarvisHud.send({ type: "abort" }); }

  $("composer").addEventListener("submit", (e) => {
    e.preventDefault();
    const text = $("input").value; if (!text.trim()) return;
    $("input").value = ""; submit(text);
  });
  $("input").addEventListener("keydown", (e) => {
    if (e.key !== "Enter" || e.shiftKey || e.isComposing) return;
    e.preventDefault();
    // While a request is open the line is an answer in words (the server decides what it
    // means; an empty Enter sends nothing); with words off, Enter here does nothing.
    if (!modal.isOpen() || modal.answersInWords()) $("composer").requestSubmit();
  });
  $("stop").addEventListener("click", stop);
  $("new-session").addEventListener("click", () => { closeDrawers(); switchTo(""); $("input").focus(); });

  // --- Help, theme, drawers, shortcuts ---------------------------------------------------------
  function showHelp() {
    const list = $("help-lines"); list.replaceChildren(...S.helpLines.map((l) => el("li", "", l)));
    $("help").hidden = false; $("help-close").focus();
  }
  $("help-open").addEventListener("click", showHelp);
  $("help-close").addEventListener("click", () => { $("help").hidden = true; });
  const theme = localStorage.getItem("jarvis_theme");
  if (theme) document.documentElement.dataset.theme = theme;
  $("theme").addEventListener("click", () => {
    const dark = document.documentElement.dataset.theme ? document.documentElement.dataset.theme === "dark" : matchMedia("(prefers-color-scheme: dark)").matches;
    document.documentElement.dataset.theme = dark ? "light" : "dark"; localStorage.setItem("jarvis_theme", dark ? "light" : "dark");
  });
  const closeDrawers = J.layout.closeDrawers;
  $("menu").addEventListener("click", () => { document.body.classList.toggle("show-sessions"); document.body.classList.remove("show-side"); });
  $("panels").addEventListener("click", () => { document.body.classList.toggle("show-side"); document.body.classList.remove("show-sessions"); });
  $("scrim").addEventListener("click", closeDrawers);
  document.addEventListener("keydown", (e) => {
    if (modal.isOpen()) return; // the modal has its own keys (Esc = deny)
    if (e.key === "Escape") {
      if (!$("help").hidden) { $("help").hidden = true; return; }
      if (document.body.classList.contains("show-sessions") || document.body.classList.contains("show-side")) { closeDrawers(); return; }
      if (running) { e.preventDefault(); stop(); }
    } else if ((e.ctrlKey || e.metaKey) && e.key.toLowerCase() === "k") {
      e.preventDefault(); switchTo(""); $("input").focus();
    }
  });

  J.layout.welcome();
  connect(); sessions.load(); panels.loadRules(); panels.loadAgenda(); panels.loadExtensions();
})();
