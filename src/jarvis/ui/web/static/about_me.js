// "About me" in the HUD: what Jarvis knows about the person (the user model) — each fact with
// its source and evidence, and edit / forget / pin (the same functions as `jarvis me`).
// Text is set with textContent (strict CSP).
(() => {
  "use strict";
  const hud = window.jarvisHud;
  if (!hud) return;
  const L = {
    ko: { title: "나에 대해", none: "아직 아는 것이 없어요", edit: "고치기", forget: "잊기", pin: "고정",
      unpin: "고정 해제", save: "저장", cancel: "취소", add: "추가", value: "값",
      stated: "직접 말함", inferred: "추측", corrected: "직접 고침" },
    en: { title: "About me", none: "Nothing known yet", edit: "Edit", forget: "Forget", pin: "Pin",
      unpin: "Unpin", save: "Save", cancel: "Cancel", add: "Add", value: "value",
      stated: "you said", inferred: "inferred", corrected: "you corrected" },
  };
  const S = () => L[hud.lang()] || L.ko;
  const el = hud.el;
  const css = document.createElement("link");
  css.rel = "stylesheet"; css.href = "/static/about_me.css";
  document.head.appendChild(css);

  const side = document.querySelector("aside.side") || document.body;
  const card = el("section", "card about-me"); card.id = "about-me-card";
  const list = el("ul", "about-me-facts"); list.id = "about-me";
  const form = el("form", "about-me-add");
  const field = el("select"); field.setAttribute("aria-label", "field");
  const value = el("input"); value.placeholder = S().value; value.maxLength = 300;
  const add = el("button", "ghost", S().add); add.type = "submit";
  form.append(field, value, add);
  card.append(el("h2", "", S().title), list, form);
  side.appendChild(card);

  const post = (path, body) => fetch(path, { ...hud.jsonRequest, method: "POST", body: JSON.stringify(body) });

  async function load() {
    const res = await fetch("/api/me", { credentials: "same-origin" });
    if (!res.ok) return;
    const data = await res.json();
    if (!field.options.length) for (const f of data.fields) field.appendChild(new Option(f, f));
    list.replaceChildren();
    if (!data.facts.length) list.appendChild(el("li", "about-me-none", S().none)); // not "muted": the add form stays open
    for (const fact of data.facts) list.appendChild(row(fact));
  }

  function row(fact) {
    const item = el("li", `fact ${fact.status}${fact.pinned ? " pinned" : ""}`);
    item.dataset.id = fact.id; item.dataset.field = fact.field;
    const head = el("div", "fact-head");
    head.append(el("strong", "", fact.field), el("span", "fact-value", fact.value));
    if (fact.pinned) head.appendChild(el("span", "fact-pin", "📌"));
    const meta = el("div", "fact-meta muted", S()[fact.source] || fact.source);
    if (fact.evidence) meta.appendChild(el("q", "fact-evidence", fact.evidence));
    const buttons = el("div", "buttons");
    const edit = el("button", "ghost fact-edit", S().edit); edit.type = "button";
    const pin = el("button", "ghost fact-pin-toggle", fact.pinned ? S().unpin : S().pin); pin.type = "button";
    const forget = el("button", "ghost fact-forget", S().forget); forget.type = "button";
    edit.addEventListener("click", () => editing(item, fact));
    pin.addEventListener("click", async () => { await post("/api/me/pin", { id: fact.id, pinned: !fact.pinned }); load(); });
    forget.addEventListener("click", async () => { await post("/api/me/forget", { id: fact.id }); load(); });
    buttons.append(edit, pin, forget);
    item.append(head, meta, buttons);
    return item;
  }

  function editing(item, fact) {
    const box = el("form", "fact-editing");
    const input = el("input"); input.value = fact.value; input.maxLength = 300;
    input.setAttribute("aria-label", fact.field);
    const save = el("button", "", S().save); save.type = "submit";
    const cancel = el("button", "ghost", S().cancel); cancel.type = "button";
    box.append(input, save, cancel);
    cancel.addEventListener("click", load);
    box.addEventListener("submit", async (e) => {
      e.preventDefault();
      if (input.value.trim()) await post("/api/me/set", { field: fact.field, value: input.value.trim() });
      load();
    });
    item.replaceChildren(box);
    input.focus();
  }

  form.addEventListener("submit", async (e) => {
    e.preventDefault();
    if (!value.value.trim()) return;
    await post("/api/me/set", { field: field.value, value: value.value.trim() });
    value.value = "";
    load();
  });
  load();
})();
