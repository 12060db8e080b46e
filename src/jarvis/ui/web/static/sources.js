// External sources in the HUD (docs/sources.md): the person's feeds and pages with their
// one-line status, a form to add one (it starts off), the owner's pre-approval of web_fetch to
// its host (which turns it on) and remove. What a source finds arrives as a proactive card
// (unattended.js). Text is set with textContent (strict CSP).
(() => {
  "use strict";
  const hud = window.jarvisHud;
  if (!hud) return;
  const L = {
    ko: { title: "소식 출처", none: "지켜보는 곳이 없어요", id: "이름 (영문)", url: "피드 또는 페이지 주소",
      every: "간격", match: "키워드 (쉼표로)", add: "추가", grant: "승인하고 켜기", remove: "삭제",
      sure: "정말 삭제", on: "켜짐", off: "꺼짐", paused: "멈춤", needs: "web_fetch 승인 필요",
      notify: "알림", digest: "모아서", immediate: "바로", quiet: "안 함", max: "하루 최대", save: "저장" },
    en: { title: "Sources", none: "Nothing watched", id: "name (a-z, 0-9)", url: "feed or page address",
      every: "every", match: "keywords (comma-separated)", add: "Add", grant: "Pre-approve & turn on", remove: "Remove",
      sure: "Really remove", on: "on", off: "off", paused: "paused", needs: "web_fetch needs approval",
      notify: "notify", digest: "digest", immediate: "immediate", quiet: "off", max: "max a day", save: "Save" },
  };
  const S = L[hud.lang()] || L.ko;
  const el = hud.el;
  const css = document.createElement("link");
  css.rel = "stylesheet"; css.href = "/static/sources.css";
  document.head.appendChild(css);

  const card = el("section", "card sources"); card.id = "sources-card";
  const list = el("ul", "sources-list"); list.id = "sources";
  const form = el("form", "sources-add");
  const field = (placeholder, cls, max) => {
    const input = el("input", cls); input.placeholder = placeholder; input.maxLength = max;
    input.setAttribute("aria-label", placeholder); return input;
  };
  const id = field(S.id, "source-id", 64);
  const url = field(S.url, "source-address", 2000); url.type = "url";
  const every = el("select", "source-every"); every.setAttribute("aria-label", S.every);
  for (const value of ["15 minutes", "1 hour", "6 hours", "1 day"]) every.append(new Option(value, value));
  every.value = "1 hour";
  const match = field(S.match, "source-match", 300);
  const add = el("button", "", S.add); add.type = "submit";
  const problem = el("p", "sources-problem bad"); problem.hidden = true;
  form.append(id, url, every, match, add);
  card.append(el("h2", "", S.title), list, form, problem);
  (document.querySelector("aside.side") || document.body).append(card);

  const post = async (path, body) => {
    let res;
    try { res = await fetch(path, { ...hud.jsonRequest, method: "POST", body: JSON.stringify(body || {}) }); }
    catch { return { status: 0, data: {} }; }
    return { status: res.status, data: await res.json().catch(() => ({})) };
  };

  async function load() {
    let res;
    try { res = await fetch("/api/sources", { credentials: "same-origin" }); } catch { return; }
    if (!res.ok) return;
    const rows = await res.json();
    list.replaceChildren();
    if (!rows.length) list.append(el("li", "sources-none", S.none)); // not "muted": the add form stays open
    for (const row of rows) list.append(item(row));
  }

  function item(row) {
    const li = el("li", `source ${row.state || "broken"}`); li.dataset.id = row.id;
    if (row.error) { li.append(el("span", "bad", `${row.id}: ${row.error}`)); return li; }
    const head = el("div", "source-head");
    head.append(el("strong", "", row.id), el("span", `state ${row.state}`, S[row.state] || row.state),
      el("span", "muted source-every-text", row.every));
    const where = el("div", "source-url muted", row.url);
    const line = el("div", "source-line", row.line);
    const buttons = el("div", "buttons");
    if (row.state !== "on" || row.preapproval.some((g) => g.state !== "granted")) {
      const grant = el("button", "source-grant", S.grant); grant.type = "button";
      grant.title = `${S.needs}: ${row.host}`;
      grant.addEventListener("click", async () => {
        const { status, data } = await post(`/api/sources/${encodeURIComponent(row.id)}/grant`);
        if (status !== 200) say(data.detail || String(status));
        load();
      });
      buttons.append(grant);
    }
    const remove = el("button", "ghost source-remove", S.remove); remove.type = "button";
    remove.addEventListener("click", async () => {
      if (!remove.dataset.sure) { remove.dataset.sure = "1"; remove.textContent = S.sure; return; }
      await post(`/api/sources/${encodeURIComponent(row.id)}/remove`);
      load();
    });
    buttons.append(remove);
    li.append(head, where, line, edit(row), buttons);
    return li;
  }

  // The owner's notify and max_per_day (the routes check the owner; a bad value leaves the
  // file as it was and its one line shows under the row).
  function edit(row) {
    const box = el("form", "source-edit"); box.noValidate = true; // the server says what is wrong
    const notify = el("select", "source-notify"); notify.setAttribute("aria-label", S.notify);
    for (const [value, label] of [["digest", S.digest], ["immediate", S.immediate], ["off", S.quiet]]) {
      notify.append(new Option(label, value));
    }
    notify.value = row.notify;
    const max = el("input", "source-max"); max.type = "number"; max.min = "1"; max.max = "1000";
    max.value = String(row.max_per_day); max.setAttribute("aria-label", S.max); max.title = S.max;
    const save = el("button", "ghost source-save", S.save); save.type = "submit";
    const wrong = el("p", "sources-problem source-edit-problem bad"); wrong.hidden = true;
    box.append(el("span", "muted", S.notify), notify, el("span", "muted", S.max), max, save, wrong);
    box.addEventListener("submit", async (e) => {
      e.preventDefault();
      const body = { notify: notify.value, max_per_day: max.value.trim() };
      const { status, data } = await post(`/api/sources/${encodeURIComponent(row.id)}/edit`, body);
      if (status !== 200) {
        wrong.textContent = typeof data.detail === "string" ? data.detail : String(status);
        wrong.hidden = false; return;
      }
      load();
    });
    return box;
  }

  function say(text) { problem.textContent = text; problem.hidden = !text; }

  form.addEventListener("submit", async (e) => {
    e.preventDefault();
    if (!id.value.trim() || !url.value.trim()) return;
    const words = match.value.split(",").map((w) => w.trim()).filter(Boolean);
    const body = { id: id.value.trim(), url: url.value.trim(), every: every.value, match: words };
    const { status, data } = await post("/api/sources", body);
    if (status !== 200) { say(typeof data.detail === "string" ? data.detail : S.url); return; }
    say(""); id.value = ""; url.value = ""; match.value = "";
    load();
  });

  // A poll's line, and a digest, change what the card shows.
  hud.on("source_status", (ev) => {
    const line = list.querySelector(`li.source[data-id="${CSS.escape(ev.source)}"] .source-line`);
    if (line) line.textContent = ev.line; else load();
  });
  hud.on("proactive_message", (ev) => { if (ev.source) load(); });
  hud.on("session", load);
  load();
})();
