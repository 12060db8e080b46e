// Unattended work in the HUD: proactive messages (reminders, schedule and goal results), the
// schedules panel with next runs and last results, and the owner's pre-approval window.
// Uses only window.jarvisHud; text is set with textContent (strict CSP).
(() => {
  "use strict";
  const hud = window.jarvisHud;
  if (!hud) return;
  const L = {
    ko: { schedules: "일정", inbox: "먼저 알림", next: "다음", last: "최근", on: "켜짐", off: "꺼짐",
      enable: "켜기", disable: "끄기", run: "지금 실행", preapprove: "도구 사용 승인",
      title: "도구 사용 승인", owner: "소유자", grant: "승인", close: "닫기",
      granted: "승인됨", missing: "승인 필요", void: "무효", none: "일정이 없습니다", notOwner: "소유자만 승인할 수 있습니다",
      goals: "목표", pause: "멈춤", stop: "중단", resume: "재개", turns: "차례" },
    en: { schedules: "Schedules", inbox: "Proactive", next: "next", last: "last", on: "on", off: "off",
      enable: "Enable", disable: "Disable", run: "Run now", preapprove: "Pre-approve tools",
      title: "Pre-approve tools", owner: "owner", grant: "Approve", close: "Close",
      granted: "granted", missing: "needs approval", void: "void", none: "No schedules", notOwner: "Only the owner may approve",
      goals: "Goals", pause: "Pause", stop: "Stop", resume: "Resume", turns: "turns" },
  };
  const S = () => L[hud.lang()] || L.ko;
  const el = (tag, cls, text) => {
    const node = document.createElement(tag);
    if (cls) node.className = cls;
    if (text !== undefined) node.textContent = text;
    return node;
  };
  const api = async (path, body) => {
    const options = { credentials: "same-origin", headers: { "Content-Type": "application/json" } };
    if (body !== undefined) { options.method = "POST"; options.body = JSON.stringify(body); }
    const res = await fetch(path, options);
    return { status: res.status, data: await res.json().catch(() => ({})) };
  };

  const css = document.createElement("link");
  css.rel = "stylesheet"; css.href = "/static/unattended.css";
  document.head.appendChild(css);

  const side = document.querySelector("aside.side") || document.body;
  const inboxCard = el("section", "card"); inboxCard.id = "proactive-card";
  const inboxTitle = el("h2", "", S().inbox);
  const inbox = el("ul", "proactive"); inbox.id = "proactive";
  inboxCard.append(inboxTitle, inbox);
  inboxCard.hidden = true; // shown with its first message: an empty card only takes room
  const schedCard = el("section", "card"); schedCard.id = "schedules-card";
  const schedTitle = el("h2", "", S().schedules);
  const list = el("ul", "schedules"); list.id = "schedules";
  schedCard.append(schedTitle, list);
  const goalCard = el("section", "card"); goalCard.id = "goals-card";
  const goals = el("ul", "schedules"); goals.id = "goals";
  goalCard.append(el("h2", "", S().goals), goals);
  goalCard.hidden = true;
  side.prepend(goalCard);
  side.prepend(schedCard);
  side.prepend(inboxCard);

  const seen = new Set();
  // A window without a session socket (none until the first message) still hears them.
  const stream = new EventSource("/api/unattended/events");
  stream.onmessage = (m) => {
    const ev = JSON.parse(m.data);
    // Other events of the person (focus_state, focus_panel) go to the cards that listen.
    if (ev.type && ev.type !== "proactive_message") { window.dispatchEvent(new CustomEvent(`jarvis:${ev.type}`, { detail: ev })); return; }
    show(ev);
  };
  stream.onopen = () => { inboxCard.dataset.live = "1"; };
  stream.onerror = () => { delete inboxCard.dataset.live; }; // it reconnects by itself
  hud.on("proactive_message", (ev) => show(ev));
  function show(ev) {
    if (ev.kind === "filler") return; // a status line in the chat (thinking.js), not the inbox
    if ((ev.message_id || "").startsWith("learner:")) return; // a line in the chat (proactive.js)
    if (seen.has(ev.message_id)) return; // one message, one line, even if sent twice
    seen.add(ev.message_id);
    const item = el("li", `proactive-item ${ev.kind || ""} ${ev.status || ""}`.trim());
    item.dataset.id = ev.message_id;
    item.appendChild(el("span", "proactive-text", ev.text));
    if (ev.session_id) {
      const open = el("a", "proactive-open", "↗");
      open.href = `/?session=${encodeURIComponent(ev.session_id)}`;
      item.appendChild(open);
    }
    inbox.prepend(item);
    inboxCard.hidden = false;
    if (ev.message_id && ev.message_id.startsWith("sched:")) loadSchedules();
    if (ev.goal_id) loadGoals();
  }

  // Goals: progress (status, turns, the latest log line) and pause / stop / resume.
  async function loadGoals() {
    const { status, data } = await api("/api/unattended/goals");
    if (status !== 200) return;
    goalCard.hidden = !data.length;
    goals.replaceChildren();
    for (const goal of data) {
      const item = el("li", `schedule goal ${goal.status}`); item.dataset.id = goal.id;
      const head = el("div", "schedule-head");
      head.append(el("strong", "", goal.objective), el("span", "state", goal.status),
        el("span", "muted", `${goal.turns}/${goal.max_turns} ${S().turns}`));
      item.appendChild(head);
      const last = goal.log.length ? goal.log[goal.log.length - 1].text : goal.detail;
      if (last) item.appendChild(el("div", "muted goal-log", last));
      const buttons = el("div", "buttons");
      const moves = goal.status === "active" ? [["paused", S().pause], ["stopped", S().stop]]
        : goal.status === "paused" ? [["active", S().resume], ["stopped", S().stop]] : [];
      for (const [next, label] of moves) {
        const button = el("button", "ghost", label); button.type = "button";
        button.dataset.status = next;
        button.addEventListener("click", async () => {
          const res = await api(`/api/unattended/goals/${goal.id}`, { status: next });
          if (res.status === 409) openWindow(`goal:${goal.id}`, res.data.detail);
          loadGoals();
        });
        buttons.appendChild(button);
      }
      item.appendChild(buttons);
      goals.appendChild(item);
    }
  }

  async function loadSchedules() {
    const { status, data } = await api("/api/unattended/schedules");
    if (status !== 200) return;
    list.replaceChildren();
    if (!data.length) list.appendChild(el("li", "muted", S().none));
    for (const row of data) list.appendChild(scheduleRow(row));
  }

  function scheduleRow(row) {
    const item = el("li", "schedule"); item.dataset.id = row.id;
    if (row.error) { item.appendChild(el("span", "bad", `${row.id}: ${row.error}`)); return item; }
    const head = el("div", "schedule-head");
    head.append(el("strong", "", row.id), el("span", `state ${row.enabled ? "ok" : "muted"}`,
      row.enabled ? S().on : S().off), el("span", "muted", row.when));
    item.appendChild(head);
    const next = el("div", "schedule-next muted",
      `${S().next}: ${(row.next_runs || []).map((t) => t.replace("T", " ").slice(0, 16)).join(", ") || "-"}`);
    const last = row.last_runs && row.last_runs[0];
    const lastLine = el("div", `schedule-last ${last ? last.status || "" : ""}`,
      `${S().last}: ${last ? (last.status || last.state) + (last.reason ? " · " + last.reason : "") : "-"}`);
    item.append(next, lastLine);
    const buttons = el("div", "buttons");
    const toggle = el("button", "ghost", row.enabled ? S().disable : S().enable);
    toggle.type = "button";
    toggle.addEventListener("click", async () => {
      const res = await api(`/api/unattended/schedules/${row.id}/enabled`, { enabled: !row.enabled });
      if (res.status === 409) openWindow(`schedule:${row.id}`, res.data.detail);
      loadSchedules();
    });
    const run = el("button", "ghost", S().run); run.type = "button";
    run.addEventListener("click", async () => {
      const res = await api(`/api/unattended/schedules/${row.id}/run`, {});
      if (res.status === 409) openWindow(`schedule:${row.id}`, res.data.detail);
    });
    buttons.append(toggle, run);
    if ((row.preapproval || []).some((g) => g.state !== "granted")) {
      const pre = el("button", "", S().preapprove); pre.type = "button";
      pre.className = "preapprove";
      pre.addEventListener("click", () => openWindow(`schedule:${row.id}`));
      buttons.appendChild(pre);
    }
    item.appendChild(buttons);
    return item;
  }

  // The pre-approval window: each tool with its state; a void grant shows why (seed 002).
  const modal = el("div", "modal"); modal.id = "preapproval"; modal.hidden = true;
  const dialog = el("div", "dialog"); dialog.setAttribute("role", "dialog");
  const title = el("h3", "", S().title);
  const who = el("p", "muted");
  const note = el("p", "hint"); note.hidden = true;
  const tools = el("ul", "preapproval-tools");
  const foot = el("div", "modal-foot");
  const grant = el("button", "", S().grant); grant.type = "button"; grant.id = "preapproval-grant";
  const close = el("button", "ghost", S().close); close.type = "button";
  foot.append(close, grant);
  dialog.append(title, who, note, tools, foot);
  modal.appendChild(dialog);
  document.body.appendChild(modal);
  close.addEventListener("click", () => { modal.hidden = true; });
  let shown = null;

  async function openWindow(definition, detail) {
    const { status, data } = await api(`/api/unattended/preapproval?definition=${encodeURIComponent(definition)}`);
    if (status !== 200) return;
    shown = data;
    title.textContent = `${S().title} · ${definition}`;
    who.textContent = `${S().owner}: ${data.owner}`;
    note.hidden = !detail && data.may_grant;
    note.textContent = detail || (data.may_grant ? "" : S().notOwner);
    tools.replaceChildren();
    for (const row of data.tools) {
      const item = el("li", `preapproval-tool ${row.state}`);
      item.dataset.tool = row.tool;
      item.append(el("strong", "", row.tool), el("span", "state", S()[row.state] || row.state));
      if (row.reason_text) item.appendChild(el("span", "void-reason", row.reason_text));
      tools.appendChild(item);
    }
    grant.disabled = !data.may_grant || data.tools.every((r) => r.state === "granted");
    modal.hidden = false;
  }

  grant.addEventListener("click", async () => {
    if (!shown) return;
    const wanted = shown.tools.filter((r) => r.state !== "granted").map((r) => r.tool);
    await api("/api/unattended/preapproval", { definition: shown.definition, tools: wanted });
    await openWindow(shown.definition);
    loadSchedules();
  });

  window.jarvisUnattended = { openWindow, loadSchedules, loadGoals };
  hud.on("session", () => { loadSchedules(); loadGoals(); });
  loadSchedules(); loadGoals();
})();
