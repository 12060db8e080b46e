// The page's frame: drawers with a close button, the side column's order (AGENDA first, one
// card style, empty cards folded to their title) and the suggestions an empty chat shows.
(() => {
  "use strict";
  const { $, el, button, S } = window.Jarvis;

  // --- Drawers (phones): ✕ closes them like the scrim and Esc do --------------------------------
  function closeDrawers() { document.body.classList.remove("show-sessions", "show-side"); }
  $("sessions-close").addEventListener("click", closeDrawers);
  $("side-close").addEventListener("click", closeDrawers);

  // --- The side column --------------------------------------------------------------------------
  // Feature scripts add their cards (prepend or append); the order is fixed once they ran, and
  // new cards found later join before the rules.
  const FIRST = ["agenda-card", "focus-card", "proactive-card", "activity-card"];
  const LAST = ["rules-card"];
  function orderCards() {
    const side = $("side");
    const cards = [...side.querySelectorAll(":scope > .card")];
    const rank = (c) => (FIRST.includes(c.id) ? FIRST.indexOf(c.id) : LAST.includes(c.id) ? 100 + LAST.indexOf(c.id) : 50);
    const sorted = [...cards].sort((a, b) => rank(a) - rank(b));
    if (sorted.every((c, i) => c === cards[i])) return;
    side.append(...sorted);
  }
  // A card is empty when its lists hold nothing but the muted "none" line.
  function isEmpty(card) {
    const lists = card.querySelectorAll(":scope > ul, :scope > ol");
    if (!lists.length) return false;
    return [...lists].every((l) => [...l.children].every((li) => li.classList.contains("muted")));
  }
  function markEmpty() {
    for (const card of $("side").querySelectorAll(":scope > .card")) {
      const empty = isEmpty(card);
      card.classList.toggle("empty", empty);
      const h2 = card.querySelector(":scope > h2");
      if (h2) h2.dataset.empty = empty ? S.emptyCard : "";
    }
  }
  let queued = false;
  const watcher = new MutationObserver(() => {
    if (queued) return;
    queued = true;
    requestAnimationFrame(() => { queued = false; orderCards(); markEmpty(); watcher.takeRecords(); });
  });
  watcher.observe($("side"), { childList: true, subtree: true });
  document.addEventListener("DOMContentLoaded", () => { orderCards(); markEmpty(); });

  // --- An empty chat suggests what to try ------------------------------------------------------
  function welcome() {
    const box = $("messages");
    if (box.querySelector(".welcome")) return;
    const card = el("div", "welcome");
    card.append(el("p", "welcome-title", S.welcome));
    const list = el("div", "suggestions");
    for (const text of S.suggestions) {
      list.append(button("suggestion ghost", text, () => { const input = $("input"); input.value = text; input.focus(); }));
    }
    card.append(list);
    box.prepend(card);
  }

  window.Jarvis.layout = { closeDrawers, welcome, orderCards };
})();
