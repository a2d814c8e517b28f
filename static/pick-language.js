// Root page: with JavaScript, go straight to the reader's language; without it, every link
// shows. The languages are the page's links (one per language in content/site.toml, each
// with its hreflang); for each language the browser asks for, in order, the link whose tag
// is the same (zh-TW for zh-TW) or, failing that, has the same language (zh-CN for zh-TW).
// When none matches, the page's own language, the default language's, is taken.
(function () {
  var links = [].slice.call(document.querySelectorAll("a[data-lang][hreflang]"));
  function tag(link) { return link.getAttribute("hreflang").toLowerCase(); }
  function primary(t) { return t.split("-")[0]; }
  function find(same) {
    for (var i = 0; i < links.length; i++) if (same(tag(links[i]))) return links[i];
    return null;
  }
  var wanted = navigator.languages || [navigator.language || ""];
  var pick = null;
  for (var i = 0; i < wanted.length && !pick; i++) {
    var w = String(wanted[i]).toLowerCase();
    pick = find(function (t) { return t === w; }) ||
      find(function (t) { return primary(t) === primary(w); });
  }
  var own = document.documentElement.lang.toLowerCase();
  pick = pick || find(function (t) { return t === own; });
  if (pick) location.replace(pick.getAttribute("href") + location.hash);
})();
