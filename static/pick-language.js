// Root page: with JavaScript, go straight to the reader's language; without it, both links show.
(function () {
  var langs = navigator.languages || [navigator.language || ""];
  var pick = "en";
  for (var i = 0; i < langs.length; i++) {
    var l = String(langs[i]).toLowerCase();
    if (l.indexOf("zh") === 0) { pick = "zh"; break; }
    if (l.indexOf("en") === 0) { pick = "en"; break; }
  }
  var link = document.querySelector('a[data-lang="' + pick + '"]');
  if (link) location.replace(link.getAttribute("href") + location.hash);
})();
