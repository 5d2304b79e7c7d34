/* rules.js — the rules pages' only script (/rules/<game>?lang=, tablero/server/rules_pages.py): keeps
 * the language the player chose in the lobby (device storage), carries the place in the page over a
 * language switch, folds the contents on a phone. A file of its own, not inline: the server's
 * Content-Security-Policy allows only the site's own script files. */
(function () {
  "use strict";
  var lang = document.body.getAttribute("data-lang");
  var asked = new URLSearchParams(location.search).get("lang");
  var saved = null;
  try { saved = localStorage.getItem("tablero:lang"); } catch (e) { saved = null; }
  if (!asked && (saved === "de" || saved === "en") && saved !== lang) {
    location.replace(location.pathname + "?lang=" + saved + location.hash);
    return;
  }
  document.querySelectorAll(".langs a[data-lang]").forEach(function (a) {
    a.addEventListener("click", function () {
      try { localStorage.setItem("tablero:lang", a.getAttribute("data-lang")); } catch (e) { /* private mode */ }
      a.setAttribute("href", a.getAttribute("href").split("#")[0] + location.hash);
    });
  });
  if (window.matchMedia("(max-width: 800px)").matches) {
    var d = document.querySelector("#toc details");
    if (d) d.removeAttribute("open");
  }
})();
