/*
 * mdbook-mathcourse reading progress (a classic deferred script, CSP-safe).
 *
 * A chapter's sections are its Markdown `##` headings (`main > h2[id]`), each running to
 * the next one. A section counts as read once its end (the next section's heading, or
 * the end of the chapter) has stayed on screen for a second, so jumping past a section
 * does not count it. Under the chapter's title a line says "n of m sections read", links
 * to the first unread section and offers "Start over"; each read section's heading gets
 * a "✓ read" mark (text, not colour alone). What was read is kept per page in
 * localStorage; without storage it lasts until the page is left. Nothing is shown with
 * JavaScript off, on the print page, or in a chapter with fewer than two sections.
 */
(function () {
  "use strict";

  var DWELL_MS = 1000;
  var main = document.querySelector("main");
  if (!main || /\/print\.html$/.test(location.pathname)) return;
  var heads = Array.prototype.filter.call(main.children, function (el) {
    return el.tagName === "H2" && el.id;
  });
  if (heads.length < 2) return;

  // "/intro/" and "/intro/index.html" are one page.
  var key = "mathcourse-read:" + location.pathname.replace(/index\.html$/, "");
  var store = null;
  try {
    store = window.localStorage;
    store.getItem(key);
  } catch (e) {
    store = null; // blocked (privacy settings, file://): progress lasts for this visit
  }

  var read = {};
  try {
    (JSON.parse((store && store.getItem(key)) || "[]") || []).forEach(function (id) {
      read[id] = true;
    });
  } catch (e) {
    read = {};
  }

  function save() {
    if (!store) return;
    var ids = heads.filter(function (h) { return read[h.id]; }).map(function (h) { return h.id; });
    try {
      if (ids.length) store.setItem(key, JSON.stringify(ids));
      else store.removeItem(key);
    } catch (e) {
      // Storage full or blocked: keep the in-page state.
    }
  }

  // ---- The status line.
  var box = document.createElement("div");
  box.className = "mc-progress";
  // The bar repeats the text for the eye; screen readers get the text only.
  var bar = document.createElement("progress");
  bar.className = "mc-progress-bar";
  bar.max = heads.length;
  bar.setAttribute("aria-hidden", "true");
  box.appendChild(bar);
  var status = document.createElement("p");
  status.className = "mc-progress-status";
  var count = document.createElement("span");
  count.className = "mc-progress-count";
  var next = document.createElement("span");
  next.className = "mc-progress-next";
  status.appendChild(count);
  status.appendChild(next);
  var reset = document.createElement("button");
  reset.type = "button";
  reset.className = "mc-progress-reset";
  reset.textContent = "Start over";
  reset.addEventListener("click", function () {
    read = {};
    save();
    update();
  });
  box.appendChild(status);
  box.appendChild(reset);

  var header = main.querySelector(":scope > header.mc-chapter-header");
  var title = main.querySelector(":scope > h1");
  var after = header || title;
  if (after) after.parentNode.insertBefore(box, after.nextSibling);
  else main.insertBefore(box, heads[0]);

  function update() {
    var n = 0;
    var firstUnread = null;
    heads.forEach(function (h) {
      if (read[h.id]) {
        n++;
        h.classList.add("mc-read");
      } else {
        h.classList.remove("mc-read");
        if (!firstUnread) firstUnread = h;
      }
    });
    var m = heads.length;
    count.textContent = n === m ? "All " + m + " sections read." : n + " of " + m + " sections read.";
    while (next.firstChild) next.removeChild(next.firstChild);
    if (n > 0 && firstUnread) {
      next.appendChild(document.createTextNode(" Continue with "));
      var a = document.createElement("a");
      a.href = "#" + firstUnread.id;
      a.textContent = (firstUnread.textContent || "").trim();
      next.appendChild(a);
      next.appendChild(document.createTextNode("."));
    }
    bar.value = n;
    reset.hidden = n === 0;
    box.setAttribute("data-read", String(n));
  }

  // ---- Watching the ends of sections.
  var end = document.createElement("div");
  end.className = "mc-progress-end";
  end.setAttribute("aria-hidden", "true");
  main.appendChild(end);
  var ends = heads.slice(1).concat([end]); // ends[i] closes section i
  var timers = [];

  function markRead(i) {
    timers[i] = null;
    if (read[heads[i].id]) return;
    read[heads[i].id] = true;
    save();
    update();
  }

  update();
  box.setAttribute("data-mc-ready", "");
  if (typeof IntersectionObserver !== "function") return;
  var io = new IntersectionObserver(function (entries) {
    entries.forEach(function (entry) {
      var i = ends.indexOf(entry.target);
      if (i < 0) return;
      if (entry.isIntersecting) {
        if (!timers[i] && !read[heads[i].id]) {
          timers[i] = setTimeout(function () { markRead(i); }, DWELL_MS);
        }
      } else if (timers[i]) {
        clearTimeout(timers[i]);
        timers[i] = null;
      }
    });
  });
  ends.forEach(function (el) { io.observe(el); });
})();
