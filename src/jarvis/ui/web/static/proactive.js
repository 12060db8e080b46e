// Speaking first in the HUD: a proactive card (`proactive_message {kind: proactive}` whose id
// starts with "proactive:") gets 👍 / 👎 / "do it". Feedback goes to the agent's learner; "do it"
// sends the returned prompt as an ordinary message, so the tool gate asks as for any turn.
// Works on the items unattended.js draws; text is set with textContent (strict CSP).
(() => {
  "use strict";
  const hud = window.jarvisHud;
  if (!hud) return;
  const L = {
    ko: { up: "도움이 됐어요", down: "필요 없어요", doIt: "해 줘", thanks: "고마워요", noted: "알겠어요, 덜 말할게요" },
    en: { up: "Helpful", down: "Not useful", doIt: "Do it", thanks: "Thanks", noted: "Noted — I'll say less" },
  };
  const S = () => L[hud.lang()] || L.ko;
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
  }

  const scan = () => document.querySelectorAll("li.proactive-item").forEach(decorate);
  new MutationObserver(scan).observe(document.body, { childList: true, subtree: true });
  scan();
})();
