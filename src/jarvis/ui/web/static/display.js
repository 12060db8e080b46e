// Showing untrusted text (tool arguments) so that nothing in it is hidden or disguised.
// The terminal's `visible()` in ui/cli/render.py follows the same rules:
// - a run of 3+ spaces becomes one marker "⟨N spaces⟩" (a command cannot push its tail out
//   of sight with padding);
// - C0/C1 controls, DEL, non-ASCII spaces, zero-width and bidi characters become escapes
//   (\r, \n, \t, \xNN, \uNNNN) shown in their own style; after \n the text also breaks the
//   line so multi-line scripts stay readable.
(() => {
  "use strict";
  const HIDDEN = /( {3,})|([\u0000-\u001f\u007f-\u009f\u00a0\u00ad\u061c\u1680\u180e\u2000-\u200f\u2028-\u202f\u205f-\u2064\u2066-\u206f\u3000\ufeff\ufff9-\ufffb])/g;
  const NAMED = { "\t": "\\t", "\n": "\\n", "\r": "\\r" };

  function escapeOf(char) {
    if (NAMED[char]) return NAMED[char];
    const code = char.charCodeAt(0);
    return code <= 0xff ? `\\x${code.toString(16).padStart(2, "0")}` : `\\u${code.toString(16).padStart(4, "0")}`;
  }

  // Pure: text -> [{kind: "text" | "escape" | "spaces", text, count?}].
  function segments(text) {
    const out = [];
    let last = 0;
    for (const match of String(text).matchAll(HIDDEN)) {
      if (match.index > last) out.push({ kind: "text", text: text.slice(last, match.index) });
      if (match[1]) out.push({ kind: "spaces", text: match[1], count: match[1].length });
      else out.push({ kind: "escape", text: escapeOf(match[2]) });
      last = match.index + match[0].length;
    }
    if (last < text.length) out.push({ kind: "text", text: text.slice(last) });
    return out;
  }

  // The same as DOM nodes; `spaces(n)` is the (localised) marker text.
  function render(text, spaces) {
    const fragment = document.createDocumentFragment();
    for (const part of segments(text)) {
      if (part.kind === "text") { fragment.append(part.text); continue; }
      const mark = document.createElement("span");
      mark.className = part.kind === "spaces" ? "ws-run" : "esc";
      mark.textContent = part.kind === "spaces" ? spaces(part.count) : part.text;
      fragment.append(mark);
      if (part.text === "\\n") fragment.append(document.createElement("br"));
    }
    return fragment;
  }

  // Plain text with the same markers (for one-line places such as ACTIVITY).
  function plain(text, spaces) {
    return segments(text).map((p) => (p.kind === "spaces" ? spaces(p.count) : p.text)).join("");
  }

  window.JarvisDisplay = Object.freeze({ segments, render, plain });
})();
