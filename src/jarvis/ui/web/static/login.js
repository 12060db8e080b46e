// The gate page's login form: the key goes in a POST body once, never into a URL or storage;
// the server answers with an HttpOnly cookie, then the page reloads into the HUD.
(() => {
  "use strict";
  const form = document.getElementById("login");
  if (!form) return;
  form.addEventListener("submit", async (e) => {
    e.preventDefault();
    const input = document.getElementById("login-key");
    const res = await fetch("/api/login", {
      method: "POST",
      headers: { "Content-Type": "application/json" },
      body: JSON.stringify({ key: input.value }),
    });
    input.value = "";
    if (res.ok) location.replace("/" + location.search);
    else document.getElementById("login-error").hidden = false;
  });
})();
