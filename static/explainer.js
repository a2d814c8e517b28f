// Interactive parts of the article (progressive enhancement; the page reads fully without it).
(function () {
  "use strict";
  // Printing: open every collapsible box so its text reaches the paper.
  window.addEventListener("beforeprint", function () {
    document.querySelectorAll("details:not([open])").forEach(function (d) {
      d.setAttribute("open", ""); d.setAttribute("data-print-opened", "");
    });
  });
  window.addEventListener("afterprint", function () {
    document.querySelectorAll("details[data-print-opened]").forEach(function (d) {
      d.removeAttribute("open"); d.removeAttribute("data-print-opened");
    });
  });
})();
