// The sessions sidebar (a drawer on phones): titles, times, search (titles and message text, on
// the server), rename and delete inline (no browser prompt or confirm box).
(() => {
  "use strict";
  const { $, el, button, api, S, when } = window.Jarvis;

  function create({ current, onSelect, onDeleted }) {
    let all = [];
    let found = null; // session id -> the matching line, while a search is typed
    let searching = 0;
    const titleOf = (s) => (s.title || "").split("\n")[0].trim() || S.untitled;

    function render() {
      const list = $("session-list"); list.replaceChildren();
      for (const s of all) {
        if (found && !found.has(s.id)) continue;
        const li = el("li", s.id === current() ? "on" : ""); li.dataset.id = s.id;
        const open = button("session-open", "", () => onSelect(s.id));
        open.append(el("span", "session-title", titleOf(s)));
        const snippet = found && found.get(s.id);
        if (snippet) open.append(el("span", "session-snippet muted", snippet));
        const meta = el("span", "session-meta");
        if (s.agent_id && s.agent_id !== "main") meta.append(el("span", "agent-badge", s.agent_id));
        meta.append(el("time", "muted", when(s.updated_ms)));
        open.append(meta);
        const tools = el("span", "session-tools");
        tools.append(button("icon-btn rename", "✎", () => rename(li, s), S.rename), button("icon-btn delete", "✕", () => askDelete(li, s), S.del));
        li.append(open, tools); list.append(li);
      }
    }
    async function load() {
      const res = await api("/api/sessions"); if (!res.ok) return;
      all = await res.json(); render();
    }
    // The title becomes a text box: Enter or Save keeps it, Esc or Cancel puts the row back.
    function rename(li, s) {
      const form = el("form", "session-edit");
      const input = el("input"); input.value = titleOf(s); input.setAttribute("aria-label", S.renamePrompt); input.maxLength = 240;
      const cancel = button("ghost small", S.renameCancel, () => render());
      const save = el("button", "small", S.renameSave); save.type = "submit";
      form.append(input, save, cancel);
      form.addEventListener("submit", async (e) => {
        e.preventDefault();
        const title = input.value.trim(); if (!title) { input.focus(); return; }
        const res = await api(`/api/sessions/${encodeURIComponent(s.id)}`, { method: "PATCH", body: JSON.stringify({ title }) });
        if (res.ok) load(); else render();
      });
      input.addEventListener("keydown", (e) => { if (e.key === "Escape") { e.preventDefault(); e.stopPropagation(); render(); } });
      li.replaceChildren(form); input.focus(); input.select();
    }
    // Delete asks in the row itself: "Delete? [Delete] [Cancel]".
    function askDelete(li, s) {
      const ask = el("div", "session-confirm");
      ask.append(el("span", "", `${S.deleteAsk} ${titleOf(s)}`));
      const yes = button("small danger confirm-delete", S.deleteYes, async () => {
        const res = await api(`/api/sessions/${encodeURIComponent(s.id)}`, { method: "DELETE" });
        if (res.ok && s.id === current()) onDeleted();
        load();
      });
      const no = button("ghost small", S.deleteNo, () => render());
      ask.append(yes, no);
      ask.addEventListener("keydown", (e) => { if (e.key === "Escape") { e.preventDefault(); e.stopPropagation(); render(); } });
      li.replaceChildren(ask); no.focus();
    }
    // Search: titles and message text, answered by the server; an empty box lists everything.
    let debounce = null;
    $("session-search").addEventListener("input", () => {
      clearTimeout(debounce);
      debounce = setTimeout(search, 150);
    });
    async function search() {
      const query = $("session-search").value.trim();
      const mine = ++searching;
      if (!query) { found = null; render(); return; }
      const res = await api(`/api/sessions/search?q=${encodeURIComponent(query)}`);
      if (mine !== searching || !res.ok) return;
      found = new Map((await res.json()).map((hit) => [hit.id, hit.snippet || ""]));
      render();
    }
    return { load, render };
  }

  window.Jarvis.sessions = { create };
})();
