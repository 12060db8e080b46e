// MCP in the HUD: each server's state (connecting, connected, reconnecting, failed, needs
// sign-in) with a reconnect button, its resources and URI templates (a resource clicked goes
// into the message as `@server:uri`), progress of long tool calls, and elicitation forms a
// server asks the person to fill in (every window shows the form; the first answer wins).
(() => {
  "use strict";
  const hud = window.jarvisHud;
  if (!hud) return;
  const T = {
    ko: { title: "MCP 서버", reconnect: "재연결", accept: "보내기", decline: "거절", none: "MCP 서버 없음",
      states: { connecting: "연결 중", connected: "연결됨", reconnecting: "재연결 중", failed: "실패 (재시도 중)",
        needs_login: "로그인 필요", closed: "닫힘", broken: "설정 오류" }, tools: "도구",
      resources: "리소스", templates: "URI 템플릿", more: (n) => `… ${n}개 더`, attach: "메시지에 첨부" },
    en: { title: "MCP servers", reconnect: "Reconnect", accept: "Send", decline: "Decline", none: "No MCP servers",
      states: { connecting: "connecting", connected: "connected", reconnecting: "reconnecting",
        failed: "failed (retrying)", needs_login: "needs sign-in", closed: "closed", broken: "broken config" },
      tools: "tools", resources: "Resources", templates: "URI templates", more: (n) => `… ${n} more`,
      attach: "Attach to the message" },
  };
  const tr = () => T[hud.lang()] || T.ko;
  const el = (tag, cls, text) => {
    const node = document.createElement(tag);
    if (cls) node.className = cls;
    if (text !== undefined) node.textContent = text;
    return node;
  };

  const card = el("section", "card mcp-card");
  const heading = el("h2", "", tr().title);
  const list = el("ul", "mcp-servers");
  const progress = el("p", "muted mcp-progress");
  progress.hidden = true;
  card.append(heading, list, progress);
  const anchor = document.getElementById("activity");
  const column = anchor && anchor.closest("section") ? anchor.closest("section").parentElement : document.body;
  column.append(card);

  let timer = null;
  async function refresh() {
    let servers = [];
    try {
      const answer = await fetch("/api/mcp", { credentials: "same-origin" });
      if (!answer.ok) return;
      servers = (await answer.json()).servers;
    } catch (_) { return; }
    list.replaceChildren(...(servers.length ? servers.map(row) : [el("li", "muted", tr().none)]));
    const settling = servers.some((s) => ["connecting", "reconnecting"].includes(s.state));
    clearTimeout(timer);
    if (settling) timer = setTimeout(refresh, 2000);
  }

  function row(server) {
    const li = el("li", `mcp-server ${server.state === "connected" ? "ok" : "bad"}`);
    const state = tr().states[server.state] || server.state;
    li.append(el("strong", "", server.name), el("span", "muted", ` · ${state} · ${server.tools.length} ${tr().tools}`));
    if (server.error) li.append(el("div", "muted", server.error));
    if (server.state === "connected") li.append(resources(server.name));
    if (server.state !== "broken") {
      const button = el("button", "ghost", tr().reconnect);
      button.type = "button";
      button.addEventListener("click", async () => {
        button.disabled = true;
        await fetch("/api/mcp/reconnect", {
          method: "POST", credentials: "same-origin",
          headers: { "Content-Type": "application/json" }, body: JSON.stringify({ name: server.name }),
        });
        setTimeout(refresh, 300);
      });
      li.append(button);
    }
    return li;
  }

  // Loaded when opened (and again after each refresh while it stays open).
  const opened = new Set();
  const SHOWN = 30;
  function resources(name) {
    const box = el("details", "mcp-resources");
    const summary = el("summary", "", `${tr().resources} · ${tr().templates}`);
    const lists = el("div", "mcp-resource-lists");
    box.append(summary, lists);
    box.addEventListener("toggle", () => {
      if (box.open) { opened.add(name); load(name, summary, lists); } else opened.delete(name);
    });
    if (opened.has(name)) box.open = true;
    return box;
  }
  async function load(name, summary, lists) {
    let found;
    try {
      const answer = await fetch(`/api/mcp/resources?server=${encodeURIComponent(name)}`, { credentials: "same-origin" });
      if (!answer.ok) return;
      found = await answer.json();
    } catch (_) { return; }
    summary.textContent = `${tr().resources} ${found.resources.length} · ${tr().templates} ${found.templates.length}`;
    const templates = el("ul", "mcp-templates");
    for (const t of found.templates) {
      const li = el("li", "", "");
      li.append(el("code", "", t.uri_template), el("span", "muted", ` ${t.name}`));
      templates.append(li);
    }
    const items = el("ul", "mcp-resource-items");
    for (const r of found.resources.slice(0, SHOWN)) {
      const b = el("button", "ghost small", r.name || r.uri);
      b.type = "button";
      b.title = `${tr().attach}: @${name}:${r.uri}`;
      b.addEventListener("click", () => attach(`@${name}:${r.uri}`));
      const li = el("li");
      li.append(b);
      items.append(li);
    }
    if (found.resources.length > SHOWN) items.append(el("li", "muted", tr().more(found.resources.length - SHOWN)));
    lists.replaceChildren(templates, items);
  }
  function attach(mention) {
    const input = document.getElementById("input");
    if (!input) return;
    input.value = `${input.value.replace(/\s*$/, "")}${input.value.trim() ? " " : ""}${mention} `;
    input.focus();
  }

  hud.on("tool_progress", (ev) => {
    const total = ev.total ? `/${ev.total}` : "";
    progress.textContent = `… ${ev.tool_name} ${ev.progress}${total} ${ev.message || ""}`;
    progress.hidden = false;
  });
  hud.on("tool_execution_end", () => { progress.hidden = true; });
  hud.on("agent_end", refresh);
  hud.on("session", refresh);

  const forms = new Map();
  hud.on("mcp_elicitation", (ev) => {
    if (forms.has(ev.id)) return;
    const form = el("form", "card mcp-elicitation");
    form.noValidate = true; // the server validates; the browser's own checks would block sending
    form.append(el("h3", "", ev.server), el("p", "", ev.message));
    const props = (ev.schema_ && ev.schema_.properties) || {};
    for (const [key, spec] of Object.entries(props)) form.append(field(key, spec));
    if (ev.url) form.append(el("p", "muted", ev.url));
    const buttons = el("div", "buttons");
    const accept = el("button", "", tr().accept);
    accept.type = "submit";
    const decline = el("button", "ghost", tr().decline);
    decline.type = "button";
    buttons.append(accept, decline);
    form.append(buttons);
    form.addEventListener("submit", (e) => { e.preventDefault(); answer(ev, "accept", values(form, props)); });
    decline.addEventListener("click", () => answer(ev, "decline", null));
    forms.set(ev.id, form);
    card.append(form);
  });
  hud.on("mcp_elicitation_resolved", (ev) => {
    const form = forms.get(ev.id);
    if (form) { form.remove(); forms.delete(ev.id); }
  });

  function field(key, spec) {
    const label = el("label", "mcp-field", spec.title || key);
    let input;
    if (spec.enum) {
      input = el("select");
      for (const option of spec.enum) input.append(el("option", "", String(option)));
    } else {
      input = el("input");
      input.type = spec.type === "boolean" ? "checkbox" : ["number", "integer"].includes(spec.type) ? "number" : "text";
      if (spec.type === "number") input.step = "any";
    }
    input.name = key;
    if (spec.default !== undefined && input.type !== "checkbox") input.value = spec.default;
    if (spec.default === true && input.type === "checkbox") input.checked = true;
    label.append(input);
    return label;
  }

  function values(form, props) {
    const out = {};
    for (const [key, spec] of Object.entries(props)) {
      const input = form.elements.namedItem(key);
      if (!input) continue;
      if (spec.type === "boolean") out[key] = input.checked;
      else if (spec.type === "number") { if (input.value !== "") out[key] = Number(input.value); }
      else if (spec.type === "integer") { if (input.value !== "") out[key] = parseInt(input.value, 10); }
      else if (input.value !== "") out[key] = input.value;
    }
    return out;
  }

  async function answer(ev, action, content) {
    await fetch(`/api/mcp/elicitations/${encodeURIComponent(ev.id)}`, {
      method: "POST", credentials: "same-origin", headers: { "Content-Type": "application/json" },
      body: JSON.stringify({ session_id: ev.session_id, action, content }),
    });
  }

  refresh();
})();
