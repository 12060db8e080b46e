// Speaking first in the HUD: a proactive card (`proactive_message {kind: proactive}` whose id
// starts with "proactive:") gets 👍 / 👎 / "do it". Feedback goes to the agent's learner; "do it"
// sends the returned prompt as an ordinary message, so the tool gate asks as for any turn.
// Works on the items unattended.js draws; text is set with textContent (strict CSP).
(() => {
  "use strict";
  const hud = window.jarvisHud;
  if (!hud) return;
  const L = {
    ko: { up: "도움이 됐어요", down: "필요 없어요", doIt: "해 줘", thanks: "고마워요", noted: "알겠어요, 덜 말할게요",
      mutedUntil: (topic, until) => `🔇 ‘${topic}’ 얘기는 ${until}까지 하지 않을게요`,
      title: "배운 것", none: "아직 배운 것이 없어요", off: "먼저 말하기 꺼짐", resetAll: "모두 지우기",
      reset: "지우기", unmute: "다시 허용", until: (d) => `${d}까지`, threshold: "기준", show: "배운 것 보기",
      counts: ["👍", "👎", "해 줘", "답장", "무시", "그만"], once: "한 번 거절",
      kinds: { reminder: "리마인더", follow_up: "후속", suggestion: "제안", news: "소식" } },
    en: { up: "Helpful", down: "Not useful", doIt: "Do it", thanks: "Thanks", noted: "Noted — I'll say less",
      mutedUntil: (topic, until) => `🔇 No more “${topic}” until ${until}`,
      title: "What I've learned", none: "Nothing learned yet", off: "speaking first off", resetAll: "Reset all",
      reset: "Reset", unmute: "Unmute", until: (d) => `until ${d}`, threshold: "threshold", show: "See what I learned",
      counts: ["👍", "👎", "do it", "replies", "ignored", "stop"], once: "dismissed once",
      kinds: { reminder: "Reminders", follow_up: "Follow-ups", suggestion: "Suggestions", news: "News" } },
  };
  const S = () => L[hud.lang()] || L.ko;
  const el = hud.el;
  const day = (ms) => new Date(ms).toLocaleDateString(hud.lang() === "en" ? "en-GB" : "ko-KR", { month: "short", day: "numeric" });
  const css = document.createElement("link");
  css.rel = "stylesheet"; css.href = "/static/proactive.css";
  document.head.appendChild(css);

  async function send(item, feedback) {
    const body = JSON.stringify({ message_id: item.dataset.id, feedback });
    const res = await fetch("/api/proactive/feedback", { ...hud.jsonRequest, method: "POST", body });
    if (!res.ok) return;
    const data = await res.json().catch(() => ({}));
    item.classList.add("answered", feedback);
    for (const b of item.querySelectorAll(".proactive-actions button")) b.disabled = true;
    const note = item.querySelector(".proactive-note");
    if (note) note.textContent = feedback === "thumbs_down" ? S().noted : feedback === "thumbs_up" ? S().thanks : "";
    // two 👎 on a topic mute it: the card says so, and until when (the learner card can undo it)
    if (note && feedback === "thumbs_down" && data.muted_topic) note.textContent = S().mutedUntil(data.muted_topic, day(data.muted_until_ms));
    load(); // the learner card shows the new count
    if (feedback === "do_it" && data.prompt) {
      const input = document.getElementById("input");
      const form = document.getElementById("composer");
      if (input && form) { input.value = data.prompt; form.requestSubmit(); }
    }
  }

  function decorate(item) {
    if (item.dataset.actions || !(item.dataset.id || "").startsWith("proactive:")) return;
    item.dataset.actions = "1";
    const row = hud.el("div", "proactive-actions");
    const buttons = [["thumbs_up", "👍", S().up], ["thumbs_down", "👎", S().down], ["do_it", S().doIt, S().doIt]];
    for (const [feedback, label, title] of buttons) {
      const b = hud.el("button", `ghost proactive-${feedback}`, label);
      b.type = "button"; b.title = title; b.setAttribute("aria-label", title);
      b.addEventListener("click", () => send(item, feedback));
      row.appendChild(b);
    }
    row.appendChild(hud.el("span", "proactive-note muted"));
    item.appendChild(row);
    load(); // a new card: the learner card may show its agent now
  }

  const scan = () => document.querySelectorAll("li.proactive-item").forEach(decorate);
  new MutationObserver(scan).observe(document.body, { childList: true, subtree: true });
  scan();

  // The feedback learner, visible and resettable: per agent, per kind the answers counted (👍, 👎,
  // "do it", replies, ignored, stop), the threshold (base → now) and its last move, the muted
  // topics until when, with reset buttons (all, one kind, one topic). "Stop telling me about X"
  // said in chat comes back as one line in the chat (`proactive_message {kind: answer}`, id
  // "learner:…") with a button to this card, where it can be undone.
  const KEYS = ["thumbs_up", "thumbs_down", "do_it", "reply", "ignored", "stop_topic"];
  const side = document.querySelector("aside.side") || document.body;
  const card = el("section", "card learner"); card.id = "learner-card"; card.hidden = true;
  const list = el("div", "learner-agents"); list.id = "learner";
  card.append(el("h2", "", S().title), list);
  side.appendChild(card);
  const fixed = (n) => Number(n).toFixed(2);

  async function reset(body) {
    await fetch("/api/proactive/learner/reset", { ...hud.jsonRequest, method: "POST", body: JSON.stringify(body) });
    load();
  }
  function button(label, cls, body) {
    const b = el("button", `ghost ${cls}`, label); b.type = "button";
    b.addEventListener("click", () => reset(body));
    return b;
  }

  function kindRow(agent, k) {
    const item = el("li", "learner-kind"); item.dataset.kind = k.kind;
    const head = el("div", "learner-head");
    head.append(el("strong", "", S().kinds[k.kind] || k.kind));
    const moved = k.threshold !== k.base;
    head.append(el("span", `learner-threshold${moved ? " raised" : ""}`, `${S().threshold} ${fixed(k.base)} → ${fixed(k.threshold)}`));
    const counts = el("div", "learner-counts muted");
    counts.textContent = KEYS.map((key, i) => `${S().counts[i]} ${k.counts[key] || 0}`).join(" · ");
    item.append(head, counts);
    const last = k.moves[k.moves.length - 1];
    if (last) item.appendChild(el("div", "learner-move muted", `${fixed(last.from)} → ${fixed(last.to)} · ${day(last.at_ms)} · ${last.feedback}`));
    head.appendChild(button(S().reset, "learner-reset-kind", { agent_id: agent.agent_id, kind: k.kind }));
    return item;
  }

  function agentBlock(agent) {
    const block = el("div", "learner-agent"); block.dataset.agent = agent.agent_id;
    const head = el("div", "learner-head");
    head.append(el("strong", "", agent.name));
    if (!agent.speaks_first) head.appendChild(el("span", "muted", S().off));
    head.appendChild(button(S().resetAll, "learner-reset-all", { agent_id: agent.agent_id }));
    const items = el("ul", "learner-items");
    for (const k of agent.kinds) if (KEYS.some((key) => k.counts[key])) items.appendChild(kindRow(agent, k));
    for (const m of agent.muted) {
      const item = el("li", "learner-muted"); item.dataset.topic = m.topic;
      item.append(el("span", "learner-topic", `🔇 ${m.topic}`), el("span", "muted", S().until(day(m.until_ms))),
        button(S().unmute, "learner-unmute", { agent_id: agent.agent_id, topic: m.topic }));
      items.appendChild(item);
    }
    for (const d of agent.dismissed) {
      const item = el("li", "learner-dismissed muted"); item.dataset.topic = d.topic;
      item.textContent = `👎 ${d.topic} · ${S().once}`;
      items.appendChild(item);
    }
    if (!items.children.length) items.appendChild(el("li", "learner-none muted", S().none));
    block.append(head, items);
    return block;
  }

  async function load() {
    const res = await fetch("/api/proactive/learner", { credentials: "same-origin" });
    if (!res.ok) return;
    const data = await res.json();
    list.replaceChildren(...data.agents.map(agentBlock));
    card.hidden = !data.agents.length;
  }

  // "Stop telling me about X" answered in the chat: one line, and a way to this card to undo it.
  hud.on("proactive_message", (ev) => {
    if (!(ev.message_id || "").startsWith("learner:")) { if (ev.kind === "proactive") load(); return; }
    const messages = document.getElementById("messages");
    if (!messages || messages.querySelector(`[data-id="${CSS.escape(ev.message_id)}"]`)) return;
    const line = el("div", "msg learner-note"); line.dataset.id = ev.message_id;
    line.setAttribute("role", "status");
    const open = el("button", "ghost learner-open", S().show); open.type = "button";
    open.addEventListener("click", () => { card.hidden = false; card.scrollIntoView({ block: "nearest" }); card.classList.add("flash"); });
    line.append(el("span", "", ev.text), open);
    messages.append(line);
    load();
  });
  load();
})();
