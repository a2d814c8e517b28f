// Runs in <head> before the first paint: applies the reader's saved theme so the page never
// flashes the wrong one, and marks <html class="js"> so the theme toggle takes its place in
// the header from the first paint (no layout shift). The toggle itself lives in explainer.js.
// Over http(s) it also starts the fonts named in data-preload-fonts beside the style sheets
// instead of after them (a font preload from file:// would only be a CORS error).
(function () {
  var root = document.documentElement, me = document.currentScript;
  root.classList.add("js");
  try {
    var saved = localStorage.getItem("theme");
    if (saved === "light" || saved === "dark") root.setAttribute("data-theme", saved);
  } catch (e) { /* storage disabled: follow prefers-color-scheme */ }
  if (!me || !/^https?:$/.test(location.protocol)) return;
  me.getAttribute("data-preload-fonts").split(" ").forEach(function (path) {
    if (!path) return;
    var link = document.createElement("link");
    link.rel = "preload"; link.as = "font"; link.type = "font/woff2"; link.crossOrigin = "";
    link.href = me.getAttribute("data-root") + path;
    document.head.appendChild(link);
  });
})();
