// Tool calls as compact blocks: name, readable arguments, a running clock, then the result
// (monospace, cut with "show all"), bash's exit code, and for file edits the diff.
(() => {
  "use strict";
  const { el, button, S } = window.Jarvis;
  const PREVIEW_LINES = 12;
  const FILE_TOOLS = ["write_file", "edit_file"];
  const spaces = (n) => S.spaces(n);

  // The one argument that says what the call does, for the folded line.
  function brief(name, args) {
    const key = ["command", "path", "url", "query", "pattern"].find((k) => typeof args[k] === "string");
    const text = key ? args[key] : JSON.stringify(args);
    return window.JarvisDisplay.plain(text.length > 120 ? `${text.slice(0, 120)}…` : text, spaces);
  }

  function argList(args) {
    const dl = el("dl", "tool-args");
    for (const [key, value] of Object.entries(args || {})) {
      dl.append(el("dt", "", key));
      const dd = el("dd");
      dd.append(window.JarvisDisplay.render(typeof value === "string" ? value : JSON.stringify(value, null, 2), spaces));
      dl.append(dd);
    }
    return dl;
  }

  // A unified diff as lines coloured by their first character.
  function diffView(text) {
    const pre = el("pre", "diff");
    for (const line of String(text).split("\n")) {
      const cls = line.startsWith("+++") || line.startsWith("---") ? "file" : line.startsWith("@@") ? "hunk"
        : line.startsWith("+") ? "add" : line.startsWith("-") ? "del" : "";
      pre.append(el("span", cls, `${line}\n`));
    }
    return pre;
  }
  // Without the server's diff (a reloaded page), edit_file's own arguments still show the change.
  function argsDiff(name, args) {
    if (name === "edit_file" && typeof args.old_string === "string" && typeof args.new_string === "string") {
      const minus = args.old_string.split("\n").map((l) => `-${l}`), plus = args.new_string.split("\n").map((l) => `+${l}`);
      return [`--- ${args.path}`, `+++ ${args.path}`, ...minus, ...plus].join("\n");
    }
    if (name === "write_file" && typeof args.content === "string") {
      return [`+++ ${args.path}`, ...args.content.split("\n").map((l) => `+${l}`)].join("\n");
    }
    return null;
  }

  function exitCode(text) {
    const m = /^exit code: (-?\d+)/.exec(text || "");
    return m ? Number(m[1]) : null;
  }

  class ToolBlock {
    constructor(ev, { started = Date.now(), fetchFull = null } = {}) {
      this.name = ev.tool_name; this.args = ev.args || {}; this.started = started; this.fetchFull = fetchFull;
      this.node = el("details", "tool running"); this.node.dataset.call = ev.tool_call_id || "";
      const summary = el("summary");
      this.icon = el("span", "tool-icon", "");
      this.elapsed = el("span", "tool-time", "");
      summary.append(this.icon, el("b", "tool-name", this.name), el("span", "tool-brief", brief(this.name, this.args)), this.elapsed);
      this.body = el("div", "tool-body");
      this.body.append(argList(this.args));
      const local = argsDiff(this.name, this.args);
      if (local && FILE_TOOLS.includes(this.name)) this.setDiff(local);
      this.node.append(summary, this.body);
      this.timer = setInterval(() => this.tick(), 250); this.tick();
    }
    tick() { this.elapsed.textContent = `${((Date.now() - this.started) / 1000).toFixed(1)}s`; }
    // Asked for approval: no clock runs while the person decides; it starts when the tool does.
    waiting() {
      clearInterval(this.timer); this.timer = null;
      this.node.classList.add("waiting"); this.elapsed.textContent = S.awaiting;
    }
    run() {
      if (!this.node.classList.contains("waiting")) return;
      this.node.classList.remove("waiting"); this.started = Date.now();
      this.timer = setInterval(() => this.tick(), 250); this.tick();
    }
    setDiff(text) {
      const old = this.body.querySelector("pre.diff"); const view = diffView(text);
      if (old) old.replaceWith(view); else this.body.append(view);
    }
    finish({ is_error, result, killed = false, ended = Date.now(), full = false }) {
      clearInterval(this.timer);
      // A call that never ran (denied while waiting) has no run time; from the history the
      // time comes from the server's marks, else none is shown.
      const ran = !this.node.classList.contains("waiting"); this.node.classList.remove("waiting");
      this.elapsed.textContent = ended && ran ? `${(Math.max(0, ended - this.started) / 1000).toFixed(1)}s` : "";
      this.node.classList.remove("running");
      this.node.classList.add(is_error || killed ? "bad" : "ok");
      if (killed) this.node.classList.add("killed");
      this.icon.textContent = is_error || killed ? "✗" : "✓";
      const code = this.name === "bash" ? exitCode(result) : null;
      if (code !== null) this.node.querySelector("summary").append(el("span", code === 0 ? "exit ok" : "exit bad", S.exitCode(code)));
      if (killed) this.node.querySelector("summary").append(el("span", "exit bad", S.killed));
      this.showResult(result || "", full);
    }
    showResult(text, full) {
      const old = this.body.querySelector(".tool-result"); if (old) old.remove();
      const box = el("div", "tool-result");
      const pre = el("pre", "result");
      const lines = text.split("\n");
      const cut = lines.length > PREVIEW_LINES;
      pre.textContent = cut ? lines.slice(0, PREVIEW_LINES).join("\n") : text;
      box.append(pre);
      if (cut || (!full && text.length >= 500 && this.fetchFull)) {
        box.append(button("ghost small show-all", S.showAll, async () => {
          const whole = (!full && this.fetchFull && (await this.fetchFull(this.node.dataset.call))) || text;
          pre.textContent = whole; box.querySelector(".show-all").remove();
        }));
      }
      this.body.append(box);
    }
  }

  window.Jarvis.tools = { ToolBlock, diffView, exitCode };
})();
