// The thinking layer in the HUD: a filler (`proactive_message {kind: filler}`) is a dim status
// line in the chat while a thought or a slow first round runs, replaced by the first answer text.
// It is never part of the history (a reload does not show it).
(() => {
  const hud = window.jarvisHud;
  let line = null;
  function clear() { if (line) { line.remove(); line = null; } }
  hud.on("proactive_message", (ev) => {
    if (ev.kind !== "filler") return;
    clear();
    line = document.createElement("div");
    line.className = "msg filler";
    line.setAttribute("role", "status");
    line.dataset.id = ev.message_id || "";
    line.textContent = ev.text; // text only: never markup
    document.getElementById("messages").append(line);
  });
  hud.on("message_update", (ev) => { if (ev.text_delta) clear(); });
  for (const type of ["tool_execution_start", "agent_end", "agent_error", "session"]) hud.on(type, clear);
})();
