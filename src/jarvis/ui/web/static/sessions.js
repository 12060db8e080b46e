// The sessions sidebar (a drawer on phones): titles, times, search, rename, delete.
(() => {
  "use strict";
  const { $, el, button, api, S, when } = window.Jarvis;

  function create({ current, onSelect, onDeleted }) {
    let all = [];
    const titleOf = (s) => (s.title || "").split("\n")[0].trim() || S.untitled;

    function render() {
      const query = $("session-search").value.trim().toLowerCase();
      const list = $("session-list"); list.replaceChildren();
      for (const s of all) {
        if (query && !titleOf(s).toLowerCase().includes(query)) continue;
        const li = el("li", s.id === current() ? "on" : ""); li.dataset.id = s.id;
        const open = button("session-open", "", () => onSelect(s.id));
        open.append(el("span", "session-title", titleOf(s)));
        const meta = el("span", "session-meta");
        if (s.agent_id && s.agent_id !== "main") meta.append(el("span", "agent-badge", s.agent_id));
        meta.append(el("time", "muted", when(s.updated_ms)));
        open.append(meta);
        const tools = el("span", "session-tools");
        tools.append(button("icon-btn rename", "✎", () => rename(s), S.rename), button("icon-btn delete", "✕", () => remove(s), S.del));
        li.append(open, tools); list.append(li);
      }
    }
    async function load() {
      const res = await api("/api/sessions"); if (!res.ok) return;
      all = await res.json(); render();
    }
    async function rename(s) {
      const title = window.prompt(S.renamePrompt, titleOf(s));
      if (title === null || !title.trim()) return;
      const res = await api(`/api/sessions/${encodeURIComponent(s.id)}`, { method: "PATCH", body: JSON.stringify({ title: title.trim() }) });
      if (res.ok) load();
    }
    async function remove(s) {
      if (!window.confirm(S.confirmDelete(titleOf(s)))) return;
      const res = await api(`/api/sessions/${encodeURIComponent(s.id)}`, { method: "DELETE" });
      if (res.ok) { if (s.id === current()) onDeleted(); load(); }
    }
    $("session-search").addEventListener("input", render);
    return { load, render };
  }

  window.Jarvis.sessions = { create };
})();
