// Learned procedures in the HUD: this session's agent's procedures and drafts, with the
// "개정 초안 있음" mark, the body (and a waiting revision) on click, and approve / reject.
// An approval is in effect from the agent's next turn. Text is set with textContent only.
(() => {
  "use strict";
  const hud = window.jarvisHud;
  if (!hud) return;
  const S = {
    ko: { title: "절차", none: "배운 절차가 없습니다.", draft: "초안", approved: "승인", rejected: "거절",
          revision: "개정 초안 있음", approve: "승인", reject: "거절", current: "지금 본문", next: "개정 초안" },
    en: { title: "Procedures", none: "No learned procedures.", draft: "draft", approved: "approved", rejected: "rejected",
          revision: "revision waiting", approve: "Approve", reject: "Reject", current: "Current", next: "Revision" },
  }[hud.lang()] || {};
  const el = hud.el;
  const opts = hud.jsonRequest;
  const whose = hud.scope;

  const list = hud.sideCard({ id: "procedures", cardClass: "procedures-card", title: S.title, listId: "procedure-list", listClass: "rules procedures" });

  async function load() {
    const res = await fetch(`/api/procedures?${whose()}`, opts);
    if (!res.ok) return;
    render((await res.json()).procedures);
  }

  function render(procedures) {
    list.replaceChildren();
    if (!procedures.length) { list.append(el("li", "muted", S.none)); return; }
    for (const p of procedures) {
      const row = el("li", `procedure status-${p.status}`);
      row.dataset.name = p.name;
      const head = el("div", "procedure-head");
      const name = el("code", "", p.name);
      const marks = el("span", "muted procedure-marks", S[p.status] || p.status);
      head.append(name, marks);
      if (p.revision !== null) head.append(el("span", "stale revision-mark", S.revision));
      const buttons = el("span", "procedure-buttons");
      if (p.status !== "approved" || p.revision !== null) {
        for (const decision of ["approve", "reject"]) {
          const b = el("button", "", S[decision]);
          b.type = "button";
          b.dataset.decision = decision;
          b.addEventListener("click", () => decide(p.name, decision));
          buttons.append(b);
        }
      }
      const detail = el("div", "procedure-detail");
      detail.hidden = true;
      detail.append(el("p", "muted", p.description || ""), el("strong", "", S.current), el("pre", "", p.body));
      if (p.revision !== null) detail.append(el("strong", "", S.next), el("pre", "", p.revision));
      name.addEventListener("click", () => { detail.hidden = !detail.hidden; });
      row.append(head, buttons, detail);
      list.append(row);
    }
  }

  async function decide(name, decision) {
    await fetch(`/api/procedures/${encodeURIComponent(name)}/${decision}?${whose()}`, { ...opts, method: "POST" });
    load();
  }

  hud.on("session", () => load());
  hud.on("agent_end", load);
  hud.on("command_result", load);
  load();
})();
