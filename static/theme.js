// Runs in <head> before the first paint: applies the reader's saved theme so the page never
// flashes the wrong one, and marks <html class="js"> so the theme toggle takes its place in
// the header from the first paint (no layout shift). The toggle itself lives in explainer.js.
(function () {
  var root = document.documentElement;
  root.classList.add("js");
  try {
    var saved = localStorage.getItem("theme");
    if (saved === "light" || saved === "dark") root.setAttribute("data-theme", saved);
  } catch (e) { /* storage disabled: follow prefers-color-scheme */ }
})();
