// Runs in <head> before the first paint: applies the reader's saved theme so the page never
// flashes the wrong one. The toggle itself lives in explainer.js.
(function () {
  try {
    var saved = localStorage.getItem("theme");
    if (saved === "light" || saved === "dark") document.documentElement.setAttribute("data-theme", saved);
  } catch (e) { /* storage disabled: follow prefers-color-scheme */ }
})();
