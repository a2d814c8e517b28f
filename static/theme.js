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
  // A page opened at an address (#section) is laid out whole from its first layout (style.css,
  // .laid-out), as explainer.js lays it out for every jump: the browser's own jump then lands
  // on the target's real place. Laid out only once explainer.js ran, the blocks above and
  // around the target took their real heights while the page scrolled to it, and chromium
  // counted a layout shift of the whole first screen (0.04 to 0.17 at a section's address).
  if (location.hash) root.classList.add("laid-out");
  try {
    var saved = location.protocol === "file:" ? localStorage.getItem("theme")
      : (/(?:^|; )theme=(light|dark)(?:;|$)/.exec(document.cookie) || [])[1];
    if (saved === "light" || saved === "dark") root.setAttribute("data-theme", saved);
  } catch (e) { /* storage disabled: follow prefers-color-scheme */ }
})();
