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
  // In the top bar on a wide screen; on a phone in the sessions drawer (☰), so the bar fits.
  const bar = document.querySelector(".bar-actions"), drawer = document.querySelector("#sessions .sessions");
  const phone = matchMedia("(max-width: 640px)");
  const place = () => { const home = phone.matches && drawer ? drawer : bar; if (home && select.parentNode !== home) home.prepend(select); };
  place(); phone.addEventListener("change", place);
  const models = new Map(); // agent id -> the model answering
  async function loadAgents() {
    const res = await fetch("/api/agents", opts); if (!res.ok) return;
    const data = await res.json(); select.replaceChildren();
    for (const a of data.agents) {
      names.set(a.id, a.name); models.set(a.id, a.model || "");
      const o = el("option", "", a.name); o.value = a.id; o.selected = a.id === currentAgent; select.append(o);
    }
    select.hidden = data.agents.length < 2;
    showBrand();
  }
  function showBrand() { // the header says whose session this is (KAREN, not JARVIS)
    const brand = document.querySelector(".brand");
    const text = brand && [...brand.childNodes].find((n) => n.nodeType === Node.TEXT_NODE);
    const name = names.get(currentAgent);
    if (text && name) text.textContent = `${name} `;
    if (name) document.title = name;
    const model = $("model-name"); // before the first message, the agent's model
    if (model && models.get(currentAgent) && !model.textContent) { model.textContent = models.get(currentAgent); model.hidden = false; }
  }
  async function switchTo(agent) {
    const q = new URLSearchParams({ agent, lang: hud.lang() });
    const res = await fetch(`/api/sessions?${q}`, { ...opts, method: "POST" });
    if (!res.ok) return;
    const session = await res.json();
    sessionStorage.setItem("jarvis_session", session.id);
    location.assign(`/?session=${encodeURIComponent(session.id)}`);
  }
  select.addEventListener("change", () => { if (select.value !== currentAgent) switchTo(select.value); });
  hud.on("agent_switch", (ev) => switchTo(ev.agent));
  hud.on("session_switch", (ev) => { // `/resume <id>`: that session, as a deep link would open it
    sessionStorage.setItem("jarvis_session", ev.session);
    location.assign(`/?session=${encodeURIComponent(ev.session)}`);
  });
  hud.on("session", (ev) => {
    currentAgent = ev.session.agent_id || "main";
    document.body.dataset.agent = currentAgent;
    loadAgents().then(groupSessions).catch(() => {});
  });
  // The HUD makes no session until the first message: show the switcher from the start.
  document.body.dataset.agent = currentAgent;
  loadAgents().catch(() => {}); // a reload cutting the request is not an error

  // --- the sessions pane grouped by agent: sessions.js renders the list; we reorder its rows
  // under one heading per agent (only when sessions of two or more agents are listed).
  const list = $("session-list");
  const owner = new Map(); // session id -> agent id
  let grouping = false;
  async function groupSessions() {
    if (!list || grouping) return;
    const rows = [...list.querySelectorAll(":scope > li[data-id]")];
    if (rows.some((li) => !owner.has(li.dataset.id))) { // new sessions: ask once who owns them
      const res = await fetch("/api/sessions", opts); if (!res.ok) return;
      for (const s of await res.json()) owner.set(s.id, s.agent_id || "main");
    }
    const agents = [...names.keys()];
    const of = (li) => owner.get(li.dataset.id) || "main";
    if (new Set(rows.map(of)).size < 2) return;
    grouping = true;
    const ordered = [];
    for (const agent of agents) {
      const mine = rows.filter((li) => of(li) === agent); if (!mine.length) continue;
      const head = el("li", "agent-group", names.get(agent) || agent); head.dataset.agent = agent;
      ordered.push(head, ...mine);
    }
    ordered.push(...rows.filter((li) => !agents.includes(of(li))));
    list.replaceChildren(...ordered);
    watcher.takeRecords(); // our own reordering is not a new render
    grouping = false;
  }
  const watcher = new MutationObserver(() => { if (!grouping) groupSessions(); });
  if (list) watcher.observe(list, { childList: true });

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
    if (activity) activity.prepend(el("li", `${line[1]} nested depth-${depth}`.trim(), `${window.Jarvis ? window.Jarvis.clock(Date.now()) : ""} ${line[0]}`.trim()));
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
