// Runs in <head> before the first paint: applies the reader's saved theme so the page never
// flashes the wrong one, and marks <html class="js"> so the theme toggle takes its place in
// the header from the first paint (no layout shift). The toggle itself lives in explainer.js,
// which saves the choice the same way: a cookie scoped to the site's folder (`theme=dark`,
// never read by any server), or localStorage from file:, where chromium keeps no cookies.
// Not localStorage over http: its first read in a page blocks on the browser process
// (1-10 ms when the storage is warm, 30-300 ms on a first visit or a fresh profile, as
// Lighthouse's), and this script holds up the first paint; a cookie came with the page.
(function () {
  var root = document.documentElement;
  root.classList.add("js");
  try {
    var saved = location.protocol === "file:" ? localStorage.getItem("theme")
      : (/(?:^|; )theme=(light|dark)(?:;|$)/.exec(document.cookie) || [])[1];
    if (saved === "light" || saved === "dark") root.setAttribute("data-theme", saved);
  } catch (e) { /* storage disabled: follow prefers-color-scheme */ }
})();
