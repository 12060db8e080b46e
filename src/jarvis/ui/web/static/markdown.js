// Model answers as Markdown: markdown-it (raw HTML off) → DOMPurify → DOM, re-rendered as the
// text streams in. Code blocks get highlight.js colours and a copy button; links open in a new
// tab without a referrer; images are not loaded (they would reach other hosts).
(() => {
  "use strict";
  const { el, button, S } = window.Jarvis;
  const md = window.markdownit({
    html: false,
    linkify: true,
    breaks: true,
    highlight(code, language) {
      if (language && window.hljs.getLanguage(language)) {
        try { return window.hljs.highlight(code, { language, ignoreIllegals: true }).value; } catch { /* plain */ }
      }
      return ""; // markdown-it escapes it
    },
  });
  md.disable("image");
  // Column alignment as a class: a style attribute would break the CSP (style-src 'self').
  for (const rule of ["th_open", "td_open"]) {
    md.renderer.rules[rule] = (tokens, idx, options, env, self) => {
      const token = tokens[idx];
      const align = /text-align:\s*(left|right|center)/.exec(token.attrGet("style") || "");
      token.attrs = (token.attrs || []).filter(([name]) => name !== "style");
      if (align) token.attrJoin("class", `align-${align[1]}`);
      return self.renderToken(tokens, idx, options);
    };
  }
  md.linkify.set({ fuzzyLink: false }); // "app.py" is a file name, not a web address
  const PURIFY = { RETURN_DOM_FRAGMENT: true, FORBID_ATTR: ["style"], FORBID_TAGS: ["style", "img", "form", "input"] };
  window.DOMPurify.addHook("afterSanitizeAttributes", (node) => {
    if (node.tagName === "A") { node.setAttribute("target", "_blank"); node.setAttribute("rel", "noopener noreferrer"); }
  });

  async function copyText(text, b) {
    try { await navigator.clipboard.writeText(text); } catch {
      const area = el("textarea"); area.value = text; document.body.append(area); area.select();
      document.execCommand("copy"); area.remove();
    }
    b.textContent = S.copied; b.classList.add("done");
  }

  function decorate(fragment) {
    for (const pre of fragment.querySelectorAll("pre")) {
      const code = pre.querySelector("code");
      if (code) code.classList.add("hljs");
      const language = code && [...code.classList].find((c) => c.startsWith("language-"));
      const box = el("div", "code-block");
      const head = el("div", "code-head", language ? language.slice(9) : "");
      head.append(button("copy", S.copy, (e) => copyText((code || pre).textContent, e.currentTarget), S.copy));
      pre.replaceWith(box); box.append(head, pre);
    }
    for (const table of fragment.querySelectorAll("table")) { // wide tables scroll inside
      const wrap = el("div", "table-wrap"); table.replaceWith(wrap); wrap.append(table);
    }
    return fragment;
  }

  function render(target, text) {
    target.replaceChildren(decorate(window.DOMPurify.sanitize(md.render(String(text)), PURIFY)));
    target.dataset.raw = text;
  }

  window.Jarvis.markdown = { render };
})();
