/* mdbook-mathcourse: linked only on mdBook's print page, which joins every chapter into
   one page. mdBook renames the ids that repeat there (x, x-1, x-2, …) but not the
   aria-labelledby that point at them, so every chapter's block would be named by the
   first chapter's heading; and each chapter's named sections and asides would repeat as
   landmarks of one page. Here each name points at its own block's element again, our
   blocks are named groups and notes (not landmarks), and code that scrolls sideways gets
   a tab stop (as inspect.js gives it on the other pages). No widget goes live here. */
(function () {
  "use strict";
  var each = function (list, f) { Array.prototype.forEach.call(list, f); };
  function own(el, id) {
    var first = document.getElementById(id);
    if (first && el.contains(first)) return id;
    var found = null;
    each(el.querySelectorAll("[id]"), function (c) {
      var rest = c.id.slice(id.length);
      if (!found && c.id.lastIndexOf(id, 0) === 0 && /^-\d+$/.test(rest)) found = c.id;
    });
    return found || id;
  }
  function start() {
    var main = document.querySelector("main");
    if (!main) return;
    each(main.querySelectorAll("[aria-labelledby]"), function (el) {
      var ids = el.getAttribute("aria-labelledby").split(/\s+/).map(function (id) { return own(el, id); });
      el.setAttribute("aria-labelledby", ids.join(" "));
    });
    each(main.querySelectorAll("section[class*='mc-'], [role='region'][class*='mc-']"), function (el) { el.setAttribute("role", "group"); });
    each(main.querySelectorAll("aside[class*='mc-']"), function (el) { el.setAttribute("role", "note"); });
    each(main.querySelectorAll("pre, pre > code, .mc-check-computation, .katex-display"), function (el) {
      if (el.scrollWidth > el.clientWidth + 1 && !el.hasAttribute("tabindex")) el.setAttribute("tabindex", "0");
    });
  }
  if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", start);
  else start();
})();
