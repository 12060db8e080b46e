// Team agents and sub-agents in the HUD: an agent switcher (sessions belong to an agent and the
// session menu groups them), sub-agent work nested under the call that started it, and the
// approval modal labelled with the agent that asks. Text is set with textContent only.
(() => {
  "use strict";
  const hud = window.jarvisHud;
  if (!hud) return;
  const S = {
    ko: { agent: "에이전트", asks: "요청한 에이전트: ", sub: "서브 에이전트" },
    en: { agent: "Agent", asks: "Asked by: ", sub: "sub-agent" },
  }[hud.lang()] || { agent: "에이전트", asks: "요청한 에이전트: ", sub: "서브 에이전트" };
  const $ = (id) => document.getElementById(id);
  const el = (tag, cls, text) => { const n = document.createElement(tag); if (cls) n.className = cls; if (text !== undefined) n.textContent = text; return n; };
  const opts = { credentials: "same-origin", headers: { "Content-Type": "application/json" } };
  let currentAgent = "main";
  const names = new Map(); // agent id -> display name

  // --- the switcher
  const select = el("select", "agent-select"); select.id = "agent-select"; select.setAttribute("aria-label", S.agent);
  const sessions = document.querySelector(".sessions");
  if (sessions) sessions.prepend(select);
  async function loadAgents() {
    const res = await fetch("/api/agents", opts); if (!res.ok) return;
    const data = await res.json(); select.replaceChildren();
    for (const a of data.agents) {
      names.set(a.id, a.name);
      const o = el("option", "", a.name); o.value = a.id; o.selected = a.id === currentAgent; select.append(o);
    }
    select.hidden = data.agents.length < 2;
  }
  async function switchTo(agent) {
    const res = await fetch(`/api/sessions?agent=${encodeURIComponent(agent)}`, { ...opts, method: "POST" });
    if (!res.ok) return;
    const session = await res.json();
    sessionStorage.setItem("jarvis_session", session.id);
    location.assign(`/?session=${encodeURIComponent(session.id)}`);
  }
  select.addEventListener("change", () => { if (select.value !== currentAgent) switchTo(select.value); });
  hud.on("agent_switch", (ev) => switchTo(ev.agent));
  hud.on("session", (ev) => {
    currentAgent = ev.session.agent_id || "main";
    document.body.dataset.agent = currentAgent;
    loadAgents().then(groupSessions).catch(() => {});
  });
  // The HUD makes no session until the first message: show the switcher from the start.
  document.body.dataset.agent = currentAgent;
  loadAgents().catch(() => {}); // a reload cutting the request is not an error

  // --- the session menu grouped by agent (app.js fills it; we regroup what it put there)
  const sessionSelect = $("session-select");
  let grouping = false;
  async function groupSessions() {
    // Only a list app.js has just filled (options straight under the select) is regrouped.
    if (!sessionSelect || grouping || names.size < 2 || !sessionSelect.querySelector(":scope > option")) return;
    const res = await fetch("/api/sessions", opts); if (!res.ok) return;
    const owner = new Map((await res.json()).map((s) => [s.id, s.agent_id]));
    grouping = true;
    const options = [...sessionSelect.querySelectorAll(":scope > option")];
    const groups = new Map();
    for (const o of options) {
      const agent = owner.get(o.value) || "main";
      if (!groups.has(agent)) { const g = el("optgroup"); g.label = names.get(agent) || agent; groups.set(agent, g); }
      groups.get(agent).append(o);
    }
    const selected = sessionSelect.value;
    sessionSelect.replaceChildren(...groups.values());
    sessionSelect.value = selected;
    grouping = false;
  }
  if (sessionSelect) new MutationObserver(() => { if (!grouping) groupSessions(); }).observe(sessionSelect, { childList: true });

  // --- nested work: under the chat and in ACTIVITY, indented by depth, with who does it
  function nestedLine(ev) {
    const inner = ev.event || {}; const path = ev.agent_path || [];
    const who = path.join(" › ");
    if (inner.type === "tool_execution_start") return [`↳ ${who} ⚙ ${inner.tool_name} ${JSON.stringify(inner.args || {})}`, ""];
    if (inner.type === "tool_execution_end") return [`↳ ${who} ${inner.is_error ? "✗" : "✓"} ${inner.tool_name}`, inner.is_error ? "bad" : "ok"];
    if (inner.type === "agent_start") return [`↳ ${who} …`, ""];
    if (inner.type === "agent_error") return [`↳ ${who} ✗ ${inner.message}`, "bad"];
    return null;
  }
  hud.on("agent_event", (ev) => {
    const line = nestedLine(ev); if (!line) return;
    const depth = Math.min(4, Math.max(1, (ev.agent_path || []).length - 1));
    const messages = $("messages");
    if (messages) {
      const node = el("div", `msg tool nested depth-${depth}`);
      node.append(typeof JarvisDisplay !== "undefined" ? JarvisDisplay.plain(line[0], (n) => `⟨${n}⟩`) : line[0]);
      node.dataset.agentPath = (ev.agent_path || []).join("/");
      messages.append(node); messages.scrollTop = messages.scrollHeight;
    }
    const activity = $("activity");
    if (activity) activity.prepend(el("li", `${line[1]} nested depth-${depth}`.trim(), `${new Date().toLocaleTimeString()} ${line[0]}`));
  });

  // --- the approval modal says who asks (app.js shows requests in arrival order)
  const pending = new Map();
  const label = el("p", "modal-agent muted"); label.id = "modal-agent"; label.hidden = true;
  const source = $("modal-source"); if (source) source.after(label);
  function labelShown() {
    const modal = $("modal"); if (!modal || modal.hidden) return;
    const req = pending.values().next().value;
    const path = (req && req.agent_path) || [];
    const text = path.length < 2 ? "" : S.asks + path.map((id) => names.get(id) || id).join(" › ");
    label.hidden = !text;
    if (label.textContent !== text) label.textContent = text;
  }
  hud.on("approval_request", (ev) => { pending.set(ev.id, ev); queueMicrotask(labelShown); });
  hud.on("approval_resolved", (ev) => { pending.delete(ev.id); queueMicrotask(labelShown); });
  // Only the modal's visibility and its title (never our own label: that would loop).
  const watch = new MutationObserver(labelShown);
  if ($("modal")) watch.observe($("modal"), { attributes: true, attributeFilter: ["hidden"] });
  if ($("modal-title")) watch.observe($("modal-title"), { childList: true });
})();
