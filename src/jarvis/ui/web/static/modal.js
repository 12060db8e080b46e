// The approval window, docked above the message box (not modal): the chat stays readable and
// the message box answers in words ("응, 해" / "no, wait": the server's words path decides, and
// a refusal is never read as consent). Only a deliberate choice allows: Enter in an empty box
// sends nothing, a key typed while a button has focus goes to the message box instead of
// pressing it, Esc denies, and ALLOW is the focused default only when the person is not in the
// message box and the request carries no compound/destructive warning. File edits show the
// server's diff of what will change.
(() => {
  "use strict";
  const { $, el, S } = window.Jarvis;
  const RISKY = ["compound", "destructive"];
  const shownText = (text) => window.JarvisDisplay.render(String(text), S.spaces);

  function create({ answer }) {
    const pending = new Map(); // approval id -> request
    let shown = null, timer = null, words = true;

    function fill(req) {
      $("modal-title").textContent = S.approvalTitle + req.tool;
      $("modal-source").textContent = S.source + req.source;
      const args = $("modal-args"); args.replaceChildren(); args.scrollTop = 0;
      for (const a of req.args) {
        if (req.diff && ["content", "old_string", "new_string"].includes(a.key)) continue; // the diff shows them
        const dt = el("dt"); dt.append(shownText(a.key)); args.append(dt);
        const dd = el("dd"); dd.append(shownText(a.value));
        if (a.shortened) { dd.append(" "); dd.append(el("span", "short", S.shortened(a.original_length))); }
        args.append(dd);
      }
      const diff = $("modal-diff"); diff.replaceChildren(); diff.hidden = !req.diff;
      if (req.diff) diff.append(el("div", "muted", S.diff), window.Jarvis.tools.diffView(req.diff));
      const warnings = $("modal-warnings"); warnings.replaceChildren();
      if (req.irreversible) warnings.append(el("li", "", S.irreversible));
      for (const code of req.warnings || []) warnings.append(el("li", "", S.warnings[code] || `⚠ ${code}`));
      warnings.hidden = !warnings.children.length;
      const offersAlways = req.options.includes("always");
      $("modal-pattern").hidden = !(req.pattern && offersAlways);
      if (req.pattern) $("modal-pattern").textContent = S.patternNote(`${req.tool} ${req.pattern}`);
      const why = req.no_always_reason;
      $("modal-no-always").hidden = offersAlways || !why;
      if (why) $("modal-no-always").textContent = S.noAlways + (S.noAlwaysReasons[why] || why);
      $("modal-words").textContent = words ? S.wordsNote : S.noWordsNote;
      $("modal-hint").hidden = true;
    }

    function showNext() {
      if (shown || pending.size === 0) return;
      const req = pending.values().next().value; shown = req;
      const inBox = document.activeElement === $("input");
      fill(req);
      const buttons = $("modal-buttons"); buttons.replaceChildren();
      for (const option of req.options) {
        const b = el("button", option, S[option]); b.type = "button"; b.dataset.answer = option;
        b.addEventListener("click", () => answer(req.id, option)); buttons.append(b);
      }
      $("modal").hidden = false; document.body.classList.add("asking");
      $("input").placeholder = words ? S.wordsPlaceholder : S.placeholder;
      const tick = () => { $("modal-countdown").textContent = S.left(Math.max(0, Math.round((req.expires_ms - Date.now()) / 1000))); };
      tick(); timer = setInterval(tick, 500);
      const risky = req.irreversible || (req.warnings || []).some((w) => RISKY.includes(w));
      const preferred = buttons.querySelector(`[data-answer=${risky ? "deny" : "allow"}]`) || buttons.querySelector("[data-answer=deny]");
      // Someone in the message box keeps it: what they type there is an answer in words, and
      // their Enter never presses a button.
      preferred.classList.add("preferred");
      if (!inBox) preferred.focus();
      // The chat above got shorter: keep its latest lines (the call being asked about) in view.
      const chat = $("messages"); chat.scrollTop = chat.scrollHeight;
    }
    function close() {
      $("modal").hidden = true; shown = null; clearInterval(timer);
      document.body.classList.remove("asking"); $("input").placeholder = S.placeholder;
    }

    document.addEventListener("keydown", (e) => {
      if (!shown) return;
      if (e.key === "Escape") { e.preventDefault(); e.stopImmediatePropagation(); answer(shown.id, "deny"); return; }
      const typing = e.key === "Process" || e.isComposing || (e.key.length === 1 && !e.ctrlKey && !e.metaKey && !e.altKey);
      if (typing && document.activeElement && document.activeElement.closest("#modal-buttons")) {
        // A key meant for the message box must not press ALLOW: it goes to the box instead.
        e.preventDefault();
        const box = $("input"); box.focus();
        if (e.key.length === 1) box.value += e.key;
        $("modal-hint").hidden = false; $("modal-hint").textContent = words ? S.typingHint : S.typingNoWords;
      }
    }, true);

    return {
      add(req) { pending.set(req.id, req); showNext(); },
      resolved(id) { const req = pending.get(id); pending.delete(id); if (shown && shown.id === id) close(); showNext(); return req; },
      clear() { pending.clear(); close(); },
      isOpen: () => shown !== null,
      has: () => pending.size > 0,
      // The server says whether a line typed while a request waits answers it (approvals.words).
      setWords(on) { words = on !== false; },
      answersInWords: () => words,
    };
  }

  window.Jarvis.modal = { create };
})();
