/*
 * mdbook-mathcourse: inspect a formula symbol by symbol (a classic script, no eval,
 * no inline script; works under a strict Content-Security-Policy).
 *
 * The build tags every registered symbol of an inspectable formula with
 * data-mc-sym="<id>" (KaTeX \htmlData) and writes a "where" legend under it: one
 * button per symbol, followed by its name and meaning. This script links the two:
 * - hover or tap a symbol in the formula: all its occurrences light up and a tooltip
 *   shows its name and meaning;
 * - focus a legend button (Tab, or arrow keys between them): the same highlight; the
 *   button's name is read and its meaning is its description (KaTeX's visual HTML is
 *   aria-hidden, so the legend is the accessible path); a tap on the formula announces
 *   name and meaning through the legend's aria-live region instead;
 * - "Inspect symbol by symbol" becomes a one-at-a-time walk with Previous/Next;
 * - a symbol linked to a control of the next widget (the card's `controls`) lights the
 *   control up with it, and the legend shows the control's current value.
 * Without JavaScript the legend and the full walk list are plain content.
 * It also gives sideways-scrolling code blocks and computations a tab stop.
 */
(function () {
  "use strict";

  function each(list, fn) { Array.prototype.forEach.call(list, fn); }

  // Text of a node for the live region: the MathML of formulas is kept (readable
  // text), KaTeX's visual duplicate and the TeX source (the MathML annotation) are
  // dropped, and so are MathML's invisible operators (function application, times).
  function plainText(node) {
    var copy = node.cloneNode(true);
    each(copy.querySelectorAll(".katex-html, annotation"), function (n) { n.parentNode.removeChild(n); });
    return copy.textContent.replace(/[\u2061-\u2064]/g, "").replace(/\s+/g, " ").trim();
  }

  function setup(box) {
    var root = box.closest(".mc-formula, .mc-equation-wrap") || box.parentNode;
    var formula = root.querySelector(".mc-formula-math .katex-html, .mc-equation-math .katex-html");
    if (!formula) return;
    var live = box.querySelector("[data-mc-live]");
    var buttons = Array.prototype.slice.call(box.querySelectorAll(".mc-where-sym"));
    var items = {};
    each(box.querySelectorAll(".mc-where-item"), function (li) { items[li.getAttribute("data-mc-sym")] = li; });

    var tip = document.createElement("div");
    tip.className = "mc-sym-tip";
    tip.setAttribute("role", "tooltip");
    tip.id = (root.id || "mc") + "-tip";
    tip.hidden = true;
    root.appendChild(tip);

    // Symbols set by a control of the next widget on the page (the card's `controls`).
    var widget = null;
    var links = Array.prototype.slice.call(box.querySelectorAll("[data-mc-control]"));
    if (links.length) {
      each(document.querySelectorAll(".mc-widget[data-widget]"), function (fig) {
        if (!widget && (root.compareDocumentPosition(fig) & Node.DOCUMENT_POSITION_FOLLOWING)) widget = fig;
      });
    }
    function control(id) {
      var li = items[id];
      var name = li && li.getAttribute("data-mc-control");
      return name && widget ? widget.querySelector('[name="' + name + '"]') : null;
    }
    function showValues() {
      links.forEach(function (li) {
        var c = control(li.getAttribute("data-mc-sym"));
        var out = li.querySelector("[data-mc-value]");
        if (!c || !out) return;
        var shown = c.closest(".mc-w-control");
        shown = shown && shown.querySelector("output");
        // Before the widget is live, its build-time text is in data-mc-t (kept out of
        // the search index).
        out.textContent = "= " + (shown ? shown.textContent || shown.getAttribute("data-mc-t") : c.value);
      });
    }
    if (widget) {
      showValues();
      widget.addEventListener("input", function () { requestAnimationFrame(showValues); });
      widget.addEventListener("change", function () { requestAnimationFrame(showValues); });
      widget.addEventListener("click", function () { requestAnimationFrame(showValues); });
      // Keys and drags that widgets handle themselves (a plot's Shift+arrow, its tangent
      // point) change a control without an input event. Capture phase: the loader stops
      // the propagation of the keys it takes (mdBook would turn pages on arrows).
      widget.addEventListener("keydown", function () { requestAnimationFrame(showValues); }, true);
      widget.addEventListener("pointermove", function () { requestAnimationFrame(showValues); }, true);
    }

    var current = null;
    var pinned = false; // set by a click, tap or focus; a mouse moving away keeps it
    function occurrences(id) {
      return formula.querySelectorAll('[data-mc-sym="' + id + '"]');
    }
    function clear() {
      each(root.querySelectorAll(".mc-sym-on"), function (n) { n.classList.remove("mc-sym-on"); });
      if (widget) each(widget.querySelectorAll(".mc-sym-on"), function (n) { n.classList.remove("mc-sym-on"); });
      tip.hidden = true;
      current = null;
      pinned = false;
    }
    function part(id, cls) {
      var n = items[id] && items[id].querySelector(cls);
      return n ? plainText(n) : "";
    }
    // What a screen reader hears for a symbol: its name as read aloud ("theta t plus
    // one"; the glyph's own text when it has no name), then its meaning.
    function spoken(id) {
      var said = part(id, ".mc-where-name, .mc-where-sym > .mc-visually-hidden") || part(id, ".mc-where-glyph");
      var meaning = part(id, ".mc-where-meaning");
      return said + (meaning ? ": " + meaning : "");
    }
    function highlight(id, anchor, announce) {
      clear();
      if (!id || !items[id]) return;
      current = id;
      pinned = !!announce;
      var hits = occurrences(id);
      each(hits, function (n) { n.classList.add("mc-sym-on"); });
      items[id].classList.add("mc-sym-on");
      var c = control(id);
      var row = c && (c.closest(".mc-w-control") || c);
      if (row) row.classList.add("mc-sym-on");
      var target = anchor || hits[0];
      if (target) {
        tip.textContent = "";
        var name = items[id].querySelector(".mc-where-name") || items[id].querySelector(".mc-where-glyph");
        var meaning = items[id].querySelector(".mc-where-meaning");
        var strong = document.createElement("strong");
        if (name) strong.appendChild(name.cloneNode(true));
        tip.appendChild(strong);
        if (meaning) {
          tip.appendChild(document.createTextNode(": "));
          tip.appendChild(meaning.cloneNode(true));
        }
        tip.hidden = false;
        var r = target.getBoundingClientRect();
        var base = root.getBoundingClientRect();
        var left = Math.max(0, Math.min(r.left - base.left, base.width - tip.offsetWidth));
        tip.style.left = left + "px";
        tip.style.top = (r.bottom - base.top + 6) + "px";
      }
      // A focused button has been read already (its name, and its meaning as its
      // description): only a tap on the formula is announced.
      if (announce && live) live.textContent = announce === true ? spoken(id) : "";
    }

    // Pointer (mouse hover; touch and pen tap) on the formula.
    formula.addEventListener("pointermove", function (e) {
      if (e.pointerType === "touch") return;
      var sym = symbolAt(e, 0);
      var id = sym && sym.getAttribute("data-mc-sym");
      if (id && id !== current) highlight(id, sym, false);
      else if (!id && current && !pinned) clear();
    });
    formula.addEventListener("pointerleave", function (e) {
      if (e.pointerType !== "touch" && !pinned) clear();
    });
    // A tap (touch or pen) toggles; the click the browser synthesises after it is ignored.
    var tapped = 0;
    // The symbol under a point: KaTeX's stacked boxes (scripts, fractions) often lie on
    // top of the tagged span, so fall back to the smallest tagged box around the point,
    // with a few pixels of slack for fingers.
    function symbolAt(e, slack) {
      var sym = e.target.closest && e.target.closest("[data-mc-sym]");
      if (sym && formula.contains(sym)) return sym;
      var best = null, area = Infinity;
      each(formula.querySelectorAll("[data-mc-sym]"), function (n) {
        var r = n.getBoundingClientRect();
        if (e.clientX >= r.left - slack && e.clientX <= r.right + slack &&
            e.clientY >= r.top - slack && e.clientY <= r.bottom + slack && r.width * r.height < area) {
          best = n;
          area = r.width * r.height;
        }
      });
      return best;
    }
    function toggle(e) {
      var sym = symbolAt(e, e.pointerType === "mouse" ? 0 : 8);
      if (!sym) { clear(); return; }
      var id = sym.getAttribute("data-mc-sym");
      if (current === id && e.type !== "click") clear(); else highlight(id, sym, true);
    }
    formula.addEventListener("pointerup", function (e) {
      if (e.pointerType === "mouse") return;
      tapped = Date.now();
      toggle(e);
    });
    formula.addEventListener("click", function (e) {
      if (Date.now() - tapped < 800) return;
      toggle(e);
    });
    document.addEventListener("click", function (e) {
      if (current && !root.contains(e.target)) clear();
    });

    // Keyboard: the legend buttons, arrow keys walk between them.
    buttons.forEach(function (b, i) {
      b.setAttribute("aria-controls", tip.id);
      var meaning = items[b.getAttribute("data-mc-sym")] && items[b.getAttribute("data-mc-sym")].querySelector(".mc-where-meaning");
      if (meaning) {
        meaning.id = meaning.id || tip.id + "-m" + i;
        b.setAttribute("aria-describedby", meaning.id);
      }
      b.addEventListener("focus", function () { highlight(b.getAttribute("data-mc-sym"), null, "focus"); });
      b.addEventListener("blur", function () { clear(); });
      b.addEventListener("mouseenter", function () { highlight(b.getAttribute("data-mc-sym"), null, false); });
      b.addEventListener("mouseleave", function () { if (document.activeElement !== b) clear(); });
      b.addEventListener("keydown", function (e) {
        var next = null;
        if (e.key === "ArrowRight" || e.key === "ArrowDown") next = buttons[(i + 1) % buttons.length];
        else if (e.key === "ArrowLeft" || e.key === "ArrowUp") next = buttons[(i - 1 + buttons.length) % buttons.length];
        else if (e.key === "Home") next = buttons[0];
        else if (e.key === "End") next = buttons[buttons.length - 1];
        else if (e.key === "Escape") { clear(); return; }
        // stopPropagation: mdBook's own handler would turn the arrow into "next chapter".
        if (next) { e.preventDefault(); e.stopPropagation(); next.focus(); }
      });
    });

    // The walk: one step at a time.
    var walk = box.querySelector(".mc-walk");
    var steps = walk ? Array.prototype.slice.call(walk.querySelectorAll(".mc-walk-step")) : [];
    if (steps.length) {
      // Each step shows the symbol's meaning, copied from the legend: the page holds it
      // once (mdBook's search index reads every copy).
      steps.forEach(function (s) {
        var m = items[s.getAttribute("data-mc-sym")];
        m = m && m.querySelector(".mc-where-meaning");
        var name = s.querySelector(".mc-walk-name");
        if (m && name && !s.querySelector(".mc-walk-meaning")) {
          var copy = m.cloneNode(true);
          copy.className = "mc-walk-meaning";
          copy.removeAttribute("id");
          name.parentNode.insertBefore(copy, name.nextSibling);
        }
      });
      var at = 0;
      var nav = document.createElement("div");
      nav.className = "mc-walk-nav";
      var prev = document.createElement("button");
      prev.type = "button";
      prev.textContent = "← Previous";
      var count = document.createElement("span");
      count.className = "mc-walk-count";
      var next = document.createElement("button");
      next.type = "button";
      next.textContent = "Next →";
      nav.appendChild(prev);
      nav.appendChild(count);
      nav.appendChild(next);
      walk.appendChild(nav);
      walk.classList.add("mc-walk-live");
      // At either end the button says so (aria-disabled) but stays focusable: a
      // disabled button would drop the keyboard focus to the page.
      var ends = function (b, off) {
        if (off) b.setAttribute("aria-disabled", "true"); else b.removeAttribute("aria-disabled");
      };
      var show = function (k, announce) {
        at = Math.max(0, Math.min(steps.length - 1, k));
        steps.forEach(function (s, j) { s.hidden = j !== at; });
        count.textContent = "Symbol " + (at + 1) + " of " + steps.length;
        ends(prev, at === 0);
        ends(next, at === steps.length - 1);
        var id = steps[at].getAttribute("data-mc-sym");
        if (walk.open) highlight(id, null, false);
        // The step's name and meaning, spoken with its place in the walk.
        if (announce && live) live.textContent = count.textContent + ": " + spoken(id);
      };
      prev.addEventListener("click", function () { if (at > 0) show(at - 1, true); });
      next.addEventListener("click", function () { if (at < steps.length - 1) show(at + 1, true); });
      walk.addEventListener("toggle", function () { if (walk.open) show(at); else clear(); });
      show(0);
    }
    box.setAttribute("data-mc-ready", "true");
  }

  // Code blocks and long computations that scroll sideways get a tab stop, so a keyboard
  // can scroll them too (WCAG 2.1.1; axe: scrollable-region-focusable).
  function scrollables() {
    each(document.querySelectorAll("main pre, main pre > code, .mc-check-computation, .katex-display"), function (el) {
      if (el.scrollWidth > el.clientWidth + 1 && !el.hasAttribute("tabindex")) {
        el.setAttribute("tabindex", "0");
        // mdBook turns the page on ← and → anywhere; on a scroller they scroll it.
        el.addEventListener("keydown", function (e) {
          if ((e.key === "ArrowLeft" || e.key === "ArrowRight") && !e.altKey && !e.ctrlKey && !e.metaKey &&
              el.scrollWidth > el.clientWidth + 1) {
            e.stopPropagation();
          }
        });
      }
    });
  }

  // Copy: a formula in the selection is copied as its TeX ($…$ in prose, $$…$$ for a
  // display), as KaTeX's copy-tex does, not as the MathML's one token per line; the
  // rest as the page's text, with the text CSS draws from data-mc-t put back.
  function texOf(k) {
    var t = k.getAttribute("data-tex");
    if (t === null) return null;
    return k.parentElement && k.parentElement.classList.contains("katex-display") ? "$$" + t + "$$" : "$" + t + "$";
  }
  document.addEventListener("copy", function (e) {
    var sel = window.getSelection();
    if (!sel || sel.isCollapsed || !sel.rangeCount || !e.clipboardData) return;
    var range = sel.getRangeAt(0);
    var node = range.commonAncestorContainer;
    var el = node.nodeType === 1 ? node : node.parentElement;
    var within = el && el.closest(".katex");
    var text;
    if (within) {
      text = texOf(within);
    } else {
      var frag = range.cloneContents();
      if (!frag.querySelector(".katex[data-tex]")) return;
      // A formula cut by the selection is cloned with its .katex (and display) wrapper.
      each(frag.querySelectorAll(".katex[data-tex]"), function (k) {
        k.replaceWith(document.createTextNode(texOf(k)));
      });
      each(frag.querySelectorAll("[data-mc-t]"), function (n) {
        n.insertBefore(document.createTextNode(n.getAttribute("data-mc-t")), n.firstChild);
      });
      var box = document.createElement("div");
      box.style.cssText = "position:fixed;left:-99999px;top:0;white-space:pre-wrap";
      box.appendChild(frag);
      document.body.appendChild(box);
      text = box.innerText;
      box.remove();
    }
    if (text === null) return;
    e.clipboardData.setData("text/plain", text);
    e.preventDefault();
  });

  // mdBook's sidebar toggle is a <label> with a button's ARIA (aria-label,
  // aria-controls, aria-expanded), which a label may not carry: it becomes the button
  // it already looks like, reachable and usable from the keyboard.
  function sidebarToggle() {
    var t = document.getElementById("mdbook-sidebar-toggle");
    if (!t || t.tagName !== "LABEL" || t.hasAttribute("role")) return;
    t.setAttribute("role", "button");
    if (!t.hasAttribute("tabindex")) t.setAttribute("tabindex", "0");
    t.addEventListener("keydown", function (e) {
      if (e.key === "Enter" || e.key === " ") { e.preventDefault(); t.click(); }
    });
  }

  function start() {
    sidebarToggle();
    each(document.querySelectorAll("[data-mc-inspect]"), setup);
    scrollables();
    // A phone turned sideways (or a narrower window) can make more of them scroll.
    var pending = 0;
    window.addEventListener("resize", function () {
      clearTimeout(pending);
      pending = setTimeout(scrollables, 200);
    });
  }
  if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", start);
  else start();
})();
