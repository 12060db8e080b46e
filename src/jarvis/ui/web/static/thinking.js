// The thinking layer in the HUD. A filler (`proactive_message {kind: filler}`) is a dim status
// line in the chat while a thought, a slow first round or a slow tool call runs ("checking
// `git status` with bash…", sent just after the call starts), replaced by the first answer text;
// the call's end or an approval request also takes it away. It is never part of the history (a
// reload does not show it).
(() => {
  const hud = window.jarvisHud;
  let line = null;
  function clear() { if (line) { line.remove(); line = null; } }
  hud.on("proactive_message", (ev) => {
    if (ev.kind !== "filler") return;
    clear();
    line = document.createElement("div");
    line.className = "msg filler";
    line.setAttribute("role", "status");
    line.dataset.id = ev.message_id || "";
    line.textContent = ev.text; // text only: never markup
    document.getElementById("messages").append(line);
  });
  hud.on("message_update", (ev) => { if (ev.text_delta) clear(); });
  for (const type of ["tool_execution_start", "tool_execution_end", "approval_request", "agent_end", "agent_error", "session"]) hud.on(type, clear);
})();

// The "thoughts" view in ACTIVITY (its own chip and list; "All" leaves them out): the router's
// route, the inner thought's frame and end, and each speaking-first pass with every candidate,
// its score and why it was said or not. The server marks each line it sent this session's
// windows (`{kind: "thought", event}` in /api/sessions/{id}/marks), so a reload draws the same
// list again (`rebuild`, called by panels.rebuild); never part of the history.
(() => {
  const hud = window.jarvisHud;
  const { S } = window.Jarvis;
  const W = S.thoughtsView;
  const why = (code) => (W.why[code] ? `${W.why[code]} (${code})` : code);
  const cut = (text, n) => (text.length > n ? text.slice(0, n) + "…" : text);
  const passes = new Set(); // a window hears the hub on its socket and its event stream
  function show(ev, ms) {
    const log = (text, ok) => window.Jarvis.panels.thought(text, ok, ms);
    if (ev.type === "thought_route") {
      log(`${W.route}: ${ev.think ? W.think : W.direct} · p ${Number(ev.p_think).toFixed(2)} · ${ev.reason} · ${ev.engine}`);
    } else if (ev.type === "inner_thought") {
      const frame = cut(String(ev.frame || "").replace(/\s+/g, " "), 200);
      log(`${W.frame}: ${ev.decision} · ${Number(ev.confidence).toFixed(2)} — ${cut(String(ev.interpretation || ""), 200)}${frame ? " · " + frame : ""}`);
    } else if (ev.type === "thought_end") {
      log(ev.ok ? W.ended : `${W.failed} (${ev.reason || "error"})`, ev.ok ? undefined : false);
    } else if (ev.type === "proactive_pass") {
      if (passes.has(ev.pass_id)) return;
      passes.add(ev.pass_id);
      log(`${W.pass} · ${ev.agent_id} · ${ev.trigger}: ${why(ev.reason)}`, undefined);
      for (const c of ev.candidates || []) {
        const verdict = c.spoken ? W.spoken : `${W.silent}: ${why(c.why)}`;
        log(`${W.candidate} [${c.kind}] ${cut(String(c.topic || ""), 60)} — ${Number(c.score).toFixed(2)}, ${verdict} — ${cut(String(c.text || ""), 160)}`, c.spoken ? true : undefined);
      }
    }
  }
  for (const type of ["thought_route", "inner_thought", "thought_end", "proactive_pass"]) hud.on(type, (ev) => show(ev));
  // After a reload or a session switch: this session's marked lines, oldest first (newest on top).
  function rebuild(marks) {
    document.getElementById("thoughts").replaceChildren();
    passes.clear();
    for (const m of marks) if (m.kind === "thought" && m.event) show(m.event, m.ts_ms);
  }
  window.Jarvis.thinking = { rebuild };
})();
