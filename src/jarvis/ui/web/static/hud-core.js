// Shared by the HUD's modules: the language, its strings, DOM helpers and the API client.
// Loaded first; the modules add themselves to `window.Jarvis` and app.js wires them together.
(() => {
  "use strict";
  const params = new URLSearchParams(location.search);
  const asked = params.get("lang");
  if (asked === "ko" || asked === "en") localStorage.setItem("jarvis_lang", asked);
  // A choice made with ?lang= wins, then the browser's language (the first of its list that
  // Jarvis speaks), then the server's setting.
  const saved = localStorage.getItem("jarvis_lang");
  const browser = (navigator.languages || [navigator.language]).map((l) => String(l).slice(0, 2)).find((l) => l === "ko" || l === "en");
  const lang = saved === "ko" || saved === "en" ? saved : browser || document.documentElement.dataset.lang || "ko";
  document.documentElement.lang = lang;
  document.documentElement.dataset.lang = lang;
  const S = window.JarvisStrings[lang] || window.JarvisStrings.ko;

  const $ = (id) => document.getElementById(id);
  const el = (tag, cls, text) => {
    const n = document.createElement(tag);
    if (cls) n.className = cls;
    if (text !== undefined) n.textContent = text;
    return n;
  };
  const button = (cls, text, onClick, title) => {
    const b = el("button", cls, text); b.type = "button";
    if (title) { b.title = title; b.setAttribute("aria-label", title); }
    if (onClick) b.addEventListener("click", onClick);
    return b;
  };

  // The login is an HttpOnly cookie the browser sends by itself: no key or token in this page.
  // A network failure (offline, a reload cutting a request) is an answer that is not ok, never
  // an uncaught rejection: every caller already handles `!res.ok`.
  const unreachable = { ok: false, status: 0, json: async () => ({}) };
  const api = async (path, options = {}) => {
    let res;
    // Accept-Language: the page's language, so the server's lines (errors too) match it.
    const headers = { "Content-Type": "application/json", "Accept-Language": lang };
    try { res = await fetch(path, { ...options, headers, credentials: "same-origin" }); }
    catch { return unreachable; }
    if (res.status === 401) location.reload(); // the login expired: the server shows the gate
    return res;
  };

  // Times are shown in the user's timezone (the server's setting), whatever the browser's is.
  const zone = document.documentElement.dataset.tz;
  let format;
  try { format = new Intl.DateTimeFormat("en-CA", { timeZone: zone, year: "numeric", month: "numeric", day: "numeric", hour: "numeric", minute: "numeric", hourCycle: "h23" }); }
  catch { format = new Intl.DateTimeFormat("en-CA", { year: "numeric", month: "numeric", day: "numeric", hour: "numeric", minute: "numeric", hourCycle: "h23" }); }
  function parts(ms) {
    const p = Object.fromEntries(format.formatToParts(new Date(ms)).map((x) => [x.type, x.value]));
    return { month: Number(p.month), date: Number(p.day), day: Date.UTC(Number(p.year), Number(p.month) - 1, Number(p.day)) / 86_400_000, hm: `${p.hour.padStart(2, "0")}:${p.minute}` };
  }
  const clock = (ms) => parts(ms).hm;

  // "내일 15:00", "in 2 hours", "3 days ago": near times by the calendar day, far ones by amount.
  function relative(ms, now = Date.now()) {
    const at = parts(ms), days = at.day - parts(now).day;
    const diff = ms - now, abs = Math.abs(diff);
    if (abs < 3_600_000) { const m = Math.max(1, Math.round(abs / 60_000)); return diff >= 0 ? S.relIn(m, "m") : S.relAgo(m, "m"); }
    if (days === 0 && abs < 6 * 3_600_000) { const h = Math.round(abs / 3_600_000); return diff >= 0 ? S.relIn(h, "h") : S.relAgo(h, "h"); }
    if (days === 0) return S.relToday(at.hm);
    if (days === 1) return S.relTomorrow(at.hm);
    if (days === -1) return S.relYesterday(at.hm);
    return diff >= 0 ? S.relIn(Math.abs(days), "d") : S.relAgo(Math.abs(days), "d");
  }
  // A list's time: the clock for today, else the date.
  function when(ms) {
    if (!ms) return "";
    const at = parts(ms);
    return at.day === parts(Date.now()).day ? at.hm : `${at.month}/${at.date} ${at.hm}`;
  }

  window.Jarvis = { params, lang, S, $, el, button, api, relative, when, clock };
})();
