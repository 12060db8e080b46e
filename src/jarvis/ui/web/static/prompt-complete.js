// Suggestions in the composer while `/…` is typed: every command of the server's command table
// (built-ins, skills, procedures, MCP prompts, plugins) with its help; for `/<server>:<prompt>`,
// the prompt's argument names (`key=`), then the values the server completes for the argument
// being typed (`completion/complete`, asked after a short pause, with the
// arguments already given as context). Arrows move, Tab or Enter take, Esc closes.
(() => {
  "use strict";
  const hud = window.jarvisHud;
  const input = document.getElementById("input");
  const composer = document.getElementById("composer");
  if (!hud || !input || !composer) return;
  const T = { ko: { label: "명령 제안", required: "필수" }, en: { label: "Suggestions", required: "required" } }[hud.lang()]
    || { label: "Suggestions", required: "required" };
  const el = hud.el;
  const PAUSE_MS = 150;

  const box = el("ul", "completions");
  box.id = "completions";
  box.hidden = true;
  box.setAttribute("role", "listbox");
  box.setAttribute("aria-label", T.label);
  composer.prepend(box);
  input.setAttribute("role", "combobox");
  input.setAttribute("aria-autocomplete", "list");
  input.setAttribute("aria-controls", box.id);
  input.setAttribute("aria-expanded", "false");

  // The last answers of /api/mcp/prompts (their arguments) and /api/commands (every command the
  // HUD runs, with its help), set together: a keystroke never sees one without the other.
  let lists = null; // { prompts, table }
  let loading = null; // the request under way: keystrokes meanwhile wait for it, not ask again
  let items = []; // { label, hint, text }: `text` is the whole composer text once taken
  let active = 0;
  let timer = null;
  let asked = 0; // answers to older questions are dropped
  let dismissed = null; // the text Esc closed the list on

  function loadLists() {
    if (loading) return loading;
    const agent = document.body.dataset.agent || "main";
    const asking = (async () => {
      let found = { prompts: [], table: [] };
      try {
        const [res, listed] = await Promise.all([
          fetch("/api/mcp/prompts", { credentials: "same-origin" }),
          fetch(`/api/commands?${new URLSearchParams({ agent, lang: hud.lang() })}`, { credentials: "same-origin" }),
        ]);
        const [p, c] = await Promise.all([res.ok ? res.json() : {}, listed.ok ? listed.json() : {}]);
        found = { prompts: p.prompts || [], table: c.commands || [] };
      } catch { /* nothing offered: "/" asks again */ }
      if (loading === asking) lists = found; // a session switch meanwhile dropped this answer
    })();
    loading = asking;
    asking.finally(() => { if (loading === asking) loading = null; });
    return asking;
  }

  // What is being typed: a command name, or the last word of a known prompt's arguments.
  function parse(text) {
    if (/^\/\S*$/.test(text)) return { kind: "command" };
    const m = /^\/([A-Za-z0-9_-]+):(\S+)\s+([^\n]*)$/.exec(text);
    const prompt = m && (lists ? lists.prompts : []).find((p) => p.server === m[1] && p.name === m[2]);
    if (!prompt) return null;
    const words = m[3].split(/\s+/);
    const word = words.pop();
    const given = {};
    for (const w of words) { const i = w.indexOf("="); if (i > 0) given[w.slice(0, i)] = w.slice(i + 1).replace(/^"(.*)"$/, "$1"); }
    return { kind: "argument", prompt, word, given, head: text.slice(0, text.length - word.length) };
  }

  const quoted = (value) => (/[\s"'\\]/.test(value) ? `"${value.replace(/(["\\$`])/g, "\\$1")}"` : value);

  function commands(text) {
    return (lists ? lists.table : [])
      .filter((c) => c.command.startsWith(text) && c.command !== text)
      .map((c) => ({ label: c.usage, hint: c.description, text: `${c.command} ` }));
  }

  function argumentNames(at) {
    return at.prompt.arguments
      .filter((a) => !(a.name in at.given) && a.name.startsWith(at.word))
      .map((a) => ({ label: `${a.name}=`, hint: [a.required ? T.required : "", a.description].filter(Boolean).join(" · "), text: `${at.head}${a.name}=` }));
  }

  async function argumentValues(at, key, value) {
    const q = new URLSearchParams({ server: at.prompt.server, prompt: at.prompt.name, argument: key, value, context: JSON.stringify(at.given) });
    try {
      const res = await fetch(`/api/mcp/complete?${q}`, { credentials: "same-origin" });
      if (!res.ok) return [];
      return (await res.json()).values
        .filter((v) => v !== value)
        .map((v) => ({ label: v, hint: key, text: `${at.head}${key}=${quoted(v)} ` }));
    } catch { return []; }
  }

  async function update() {
    clearTimeout(timer);
    const text = input.value;
    const ticket = ++asked;
    if (!text.startsWith("/") || text === dismissed || input.selectionStart !== text.length) { close(); return; }
    if (lists === null || text === "/") await loadLists(); // servers come and go: "/" asks again
    if (ticket !== asked) return;
    const at = parse(text);
    if (!at) { close(); return; }
    if (at.kind === "command") { show(commands(text)); return; }
    const eq = at.word.indexOf("=");
    if (eq < 0) { show(argumentNames(at)); return; }
    const key = at.word.slice(0, eq);
    if (!at.prompt.arguments.some((a) => a.name === key)) { close(); return; }
    timer = setTimeout(async () => {
      const found = await argumentValues(at, key, at.word.slice(eq + 1));
      if (ticket === asked && input.value === text) show(found);
    }, PAUSE_MS);
  }

  function show(found) {
    items = found;
    active = 0;
    if (!items.length) { close(); return; }
    box.replaceChildren(...items.map((item, i) => {
      const li = el("li", "completion");
      li.id = `completion-${i}`;
      li.setAttribute("role", "option");
      li.append(el("span", "completion-label", item.label));
      if (item.hint) li.append(el("span", "completion-hint muted", item.hint));
      li.addEventListener("mousedown", (e) => { e.preventDefault(); take(i); }); // keeps the focus
      return li;
    }));
    box.hidden = false;
    input.setAttribute("aria-expanded", "true");
    mark();
  }

  function mark() {
    box.querySelectorAll("li").forEach((li, i) => li.setAttribute("aria-selected", String(i === active)));
    const current = box.children[active];
    if (current) { input.setAttribute("aria-activedescendant", current.id); current.scrollIntoView({ block: "nearest" }); }
  }

  function close() {
    items = [];
    box.hidden = true;
    box.replaceChildren();
    input.setAttribute("aria-expanded", "false");
    input.removeAttribute("aria-activedescendant");
  }

  function take(i) {
    const item = items[i];
    if (!item) return;
    input.value = item.text;
    input.setSelectionRange(item.text.length, item.text.length);
    input.focus();
    update(); // the next step: argument names after a command, values after `key=`
  }

  // Capture on the form runs before app.js's own Enter handler on the textarea: while the
  // list is open, its keys belong to the list.
  composer.addEventListener("keydown", (e) => {
    if (e.target !== input || box.hidden || !items.length || e.isComposing) return;
    if (e.key === "ArrowDown" || e.key === "ArrowUp") {
      active = (active + (e.key === "ArrowDown" ? 1 : items.length - 1)) % items.length;
      mark();
    } else if (e.key === "Tab" || (e.key === "Enter" && !e.shiftKey)) {
      take(active);
    } else if (e.key === "Escape") {
      dismissed = input.value; // not the running turn's Esc: only the list closes
      close();
    } else {
      return;
    }
    e.preventDefault();
    e.stopPropagation();
  }, true);
  input.addEventListener("input", () => { if (input.value !== dismissed) dismissed = null; update(); });
  input.addEventListener("blur", close);
  composer.addEventListener("submit", close);
  hud.on("session", () => { lists = null; loading = null; });
})();
