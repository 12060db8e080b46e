// The Focus panel (docs/focus.md): a Focus task's plan, log, references and analysis as
// sanitised Markdown (markdown.js: markdown-it with raw HTML off, then DOMPurify), its state and
// a busy marker, pause / resume / stop, and a box to start one. It lives in the side column (a
// side panel on a desktop, the ▤ drawer on a phone). What it shows is read from the task's files
// (`GET /api/focus/<id>`), so a reload shows the same; `focus_state` / `focus_panel` events keep
// it live. Other text is set with textContent (strict CSP).
(() => {
  "use strict";
  const hud = window.jarvisHud;
  const J = window.Jarvis;
  if (!hud || !J || !J.markdown) return;
  const L = {
    ko: { title: "집중 작업", start: "시작", objective: "오래 걸릴 조사·정리 목표", empty: "아직 없어요",
      pause: "멈춤", resume: "재개", stop: "중단", busy: "작업 중", task: "작업",
      tabs: { plan: "계획", log: "기록", references: "참고 자료", analysis: "분석" },
      states: { planning: "계획 중", running: "진행 중", waiting: "다음 단계 대기", paused: "멈춤",
        interrupted: "중단됨", done: "완료", failed: "실패", cancelled: "취소됨" } },
    en: { title: "Focus", start: "Start", objective: "A long research or writing objective", empty: "Nothing yet",
      pause: "Pause", resume: "Resume", stop: "Stop", busy: "working", task: "task",
      tabs: { plan: "Plan", log: "Log", references: "References", analysis: "Analysis" },
      states: { planning: "planning", running: "running", waiting: "waiting for the next step", paused: "paused",
        interrupted: "interrupted", done: "done", failed: "failed", cancelled: "cancelled" } },
  };
  const S = L[hud.lang()] || L.ko;
  const el = hud.el;
  const AREAS = ["plan", "log", "references", "analysis"];
  const TERMINAL = ["done", "failed", "cancelled"];
  // What each state allows (core/focus/state.py's table).
  const MOVES = {
    planning: ["pause", "stop"], waiting: ["pause", "stop"], running: ["pause", "stop"],
    paused: ["resume", "stop"], interrupted: ["resume", "stop"],
  };
  const css = document.createElement("link");
  css.rel = "stylesheet"; css.href = "/static/focus.css";
  document.head.appendChild(css);

  // --- The card ---------------------------------------------------------------------------------
  const card = el("section", "card focus"); card.id = "focus-card";
  const picker = el("select", "focus-picker"); picker.setAttribute("aria-label", S.task); picker.hidden = true;
  const head = el("div", "focus-head");
  const objective = el("strong", "focus-objective");
  const stateTag = el("span", "focus-state");
  const busy = el("span", "focus-busy"); busy.setAttribute("role", "status");
  busy.append(el("span", "spinner"), el("span", "", S.busy)); busy.hidden = true;
  const progress = el("span", "focus-progress muted");
  head.append(objective, stateTag, busy, progress);
  const detail = el("p", "focus-detail muted"); detail.hidden = true;
  const tabs = el("div", "focus-tabs"); tabs.setAttribute("role", "tablist");
  const body = el("div", "focus-body md"); body.id = "focus-body"; body.setAttribute("role", "tabpanel"); body.tabIndex = 0;
  const actions = el("div", "focus-actions buttons");
  const form = el("form", "focus-start");
  const input = el("input"); input.placeholder = S.objective; input.maxLength = 500; input.setAttribute("aria-label", S.objective);
  const go = el("button", "", S.start); go.type = "submit";
  form.append(input, go);
  const view = el("div", "focus-view"); view.hidden = true;
  view.append(head, detail, tabs, body, actions);
  card.append(el("h2", "", S.title), picker, view, form);
  (document.querySelector("aside.side") || document.body).prepend(card);

  let tab = "plan";
  const tabButtons = {};
  for (const area of AREAS) {
    const b = el("button", "focus-tab ghost", S.tabs[area]); b.type = "button";
    b.setAttribute("role", "tab"); b.dataset.area = area; b.setAttribute("aria-controls", body.id);
    b.addEventListener("click", () => { tab = area; draw(); });
    tabButtons[area] = b; tabs.append(b);
  }

  // --- What is shown ---------------------------------------------------------------------------
  let tasks = [];       // the caller's tasks, newest first (GET /api/focus)
  let current = null;   // the shown task: {id, objective, state, busy, done, steps, detail, areas}
  let asked = 0;        // the newest request's number: an older answer arriving late is dropped

  const api = async (path, payload) => {
    const options = { ...hud.jsonRequest };
    if (payload !== undefined) { options.method = "POST"; options.body = JSON.stringify(payload); }
    let res;
    try { res = await fetch(path, options); } catch { return { status: 0, data: {} }; }
    return { status: res.status, data: await res.json().catch(() => ({})) };
  };

  async function load(prefer) {
    const mine = ++asked;
    const { status, data } = await api("/api/focus");
    if (status !== 200 || mine !== asked) return;
    tasks = data;
    const keep = prefer || (current && current.id);
    const chosen = tasks.find((t) => t.id === keep) || tasks.find((t) => !TERMINAL.includes(t.state)) || tasks[0];
    picker.replaceChildren(...tasks.map((t) => new Option(`${t.objective} [${S.states[t.state] || t.state}]`, t.id)));
    picker.hidden = tasks.length < 2;
    if (!chosen) { current = null; draw(); return; }
    picker.value = chosen.id;
    await open(chosen.id);
  }

  async function open(id) {
    const mine = ++asked;
    const { status, data } = await api(`/api/focus/${encodeURIComponent(id)}`);
    if (status !== 200 || mine !== asked) return;
    current = data;
    draw();
  }

  function draw() {
    card.classList.toggle("has-task", Boolean(current));
    view.hidden = !current;
    if (!current) { delete card.dataset.task; delete card.dataset.state; return; }
    card.dataset.task = current.id;
    card.dataset.state = current.state;
    card.dataset.busy = current.busy ? "1" : "0";
    objective.textContent = current.objective;
    stateTag.textContent = S.states[current.state] || current.state;
    stateTag.className = `focus-state ${current.state}`;
    busy.hidden = !current.busy;
    progress.textContent = current.steps ? `${current.done}/${current.steps}` : "";
    detail.textContent = current.detail || "";
    detail.hidden = !current.detail;
    for (const area of AREAS) tabButtons[area].setAttribute("aria-selected", String(area === tab));
    body.dataset.area = tab;
    const text = (current.areas || {})[tab] || "";
    if (text.trim()) J.markdown.render(body, text);
    else body.replaceChildren(el("p", "muted", S.empty));
    actions.replaceChildren();
    for (const action of MOVES[current.state] || []) {
      const b = el("button", `ghost focus-${action}`, S[action]); b.type = "button"; b.dataset.action = action;
      b.addEventListener("click", () => act(action));
      actions.append(b);
    }
  }

  async function act(action) {
    if (!current) return;
    const { status, data } = await api(`/api/focus/${encodeURIComponent(current.id)}/${action}`, {});
    if (status === 409 && current) { current.detail = data.detail || ""; draw(); return; }
    await load(current && current.id);
  }

  form.addEventListener("submit", async (e) => {
    e.preventDefault();
    const text = input.value.trim();
    if (!text) return;
    const { status, data } = await api("/api/focus", { objective: text });
    if (status !== 200) return;
    input.value = "";
    tab = "plan";
    await load(data.id);
  });
  picker.addEventListener("change", () => { tab = "plan"; open(picker.value); });

  // --- Live: every transition and every changed area ---------------------------------------------
  hud.on("focus_state", (ev) => {
    if (!current || ev.task_id !== current.id) { load(current ? current.id : ev.task_id); return; }
    load(current.id); // the files hold the whole plan and log; the event only says what moved
  });
  hud.on("focus_panel", (ev) => {
    if (!current || ev.task_id !== current.id) return;
    if (String(ev.markdown).startsWith("…\n")) { open(current.id); return; } // cut to fit: read the file
    current.areas = { ...(current.areas || {}), [ev.area]: ev.markdown };
    current.state = ev.state; current.busy = ev.busy;
    draw();
  });
  hud.on("command_result", () => load()); // `/focus <objective>` typed in the chat
  load();
})();
