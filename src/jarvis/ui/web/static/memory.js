// What Jarvis remembers, in the HUD: the newest items of this session's agent about this person
// with a delete button each, and a 👎 on the latest answer that marks its turn failed (failure
// reflection then looks at it). Text is set with textContent only.
(() => {
  "use strict";
  const hud = window.jarvisHud;
  if (!hud) return;
  const S = {
    ko: { title: "기억", none: "기억하는 것이 없습니다.", forget: "지우기", wrong: "틀린 답이라고 표시", marked: "실패로 적었습니다", why: "회상된 이유:" },
    en: { title: "Memory", none: "Nothing remembered.", forget: "Forget", wrong: "Mark this answer wrong", marked: "Marked as failed", why: "Recalled because:" },
  }[hud.lang()] || {};
  const el = hud.el;
  const opts = hud.jsonRequest;
  const whose = hud.scope;

  const reasons = new Map(); // item id → why memory brought it into the last turn
  const list = hud.sideCard({ id: "memory", cardClass: "memory-card", title: S.title, listId: "memory-list", listClass: "rules memory-items" });

  async function load() {
    const res = await fetch(`/api/memory?${whose()}`, opts);
    if (!res.ok) return;
    const items = (await res.json()).items;
    list.replaceChildren();
    if (!items.length) { list.append(el("li", "muted", S.none)); return; }
    for (const item of items.slice(0, 20)) {
      const row = el("li", `memory-item kind-${item.kind}`);
      const text = item.text.length > 80 ? item.text.slice(0, 79) + "…" : item.text;
      const b = el("button", "", S.forget);
      b.type = "button";
      b.addEventListener("click", async () => {
        await fetch(`/api/memory/${encodeURIComponent(item.id)}?${whose()}`, { ...opts, method: "DELETE" });
        load();
      });
      row.append(el("span", "", `${item.kind} · ${text}`), b);
      const why = reasons.get(item.id); // recalled into this session's last turn: say why
      if (why) { row.title = `${S.why} ${why}`; row.append(el("small", "muted recall-reason", `${S.why} ${why}`)); }
      list.append(row);
    }
  }

  // One small 👎 after the latest answer (a sibling, so the answer's own text stays what it
  // was); its label is for screen readers and the tooltip.
  const wrong = el("button", "icon-btn wrong", "👎");
  wrong.type = "button";
  const label = (text) => { wrong.title = text; wrong.setAttribute("aria-label", text); };
  wrong.addEventListener("click", async () => {
    const res = await fetch(`/api/memory/wrong?${whose()}`, { ...opts, method: "POST" });
    if (res.ok) { wrong.disabled = true; label(S.marked); wrong.classList.add("marked"); }
  });
  function thumbsDown() {
    const answers = document.querySelectorAll("#messages .msg.assistant");
    const last = answers[answers.length - 1];
    if (!last) return;
    wrong.disabled = false; wrong.classList.remove("marked");
    label(S.wrong);
    last.after(wrong);
  }

  hud.on("memory_recalled", (ev) => {
    reasons.clear();
    for (const item of ev.items || []) reasons.set(item.id, item.reason);
    load();
  });
  hud.on("session", () => { reasons.clear(); load(); });
  hud.on("agent_end", () => { load(); thumbsDown(); });
  hud.on("command_result", load);
  load();
})();
