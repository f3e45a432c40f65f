/*
 * mdbook-mathcourse widget loader (a classic script: mdBook's pages load no modules).
 *
 * Every widget is already in the page, rendered at build time by the same Rust code
 * that runs here, so the page reads fine without JavaScript. This script makes the
 * widgets live: when one scrolls into view it loads the WebAssembly bundle (once, with
 * a dynamic import() of the wasm-bindgen module next to this file), creates a
 * WidgetHandle from the figure's data-widget and data-params, turns DOM events into
 * handle calls (the markup contract of the mathcourse-widgets crate), and morphs the
 * re-rendered markup into the page so focus, pointer capture and slider positions
 * survive. No inline script, no eval: works under a strict Content-Security-Policy
 * that allows 'wasm-unsafe-eval'.
 */
(function () {
  "use strict";

  var script = document.currentScript;
  var base = script && script.src ? script.src : document.baseURI;
  var SVG = "http://www.w3.org/2000/svg";
  var KEYS = /^(ArrowLeft|ArrowRight|ArrowUp|ArrowDown|Home|End|PageUp|PageDown)$/;
  var NOTE = "The interactive version needs the book to be served over http(s) " +
    "(for example with mdbook serve); this is a still picture of the widget.";

  // Errors and CSP violations seen after this script started (read by the tests).
  var seen = window.__mathcourseErrors = window.__mathcourseErrors || [];
  window.addEventListener("error", function (e) {
    seen.push("error: " + (e.message || e.type) + " at " + (e.filename || "?") + ":" + (e.lineno || 0));
  });
  window.addEventListener("unhandledrejection", function (e) {
    seen.push("unhandled rejection: " + String(e.reason));
  });
  document.addEventListener("securitypolicyviolation", function (e) {
    seen.push("csp: " + e.violatedDirective + " blocked " + (e.blockedURI || "inline") + " in " + (e.sourceFile || "?"));
  });

  // For tests and benchmarks: flush() runs pending pointer-move work now; set
  // profile = [] to collect [render, parse, morph] times of each update.
  var api = window.__mathcourse = { flush: function () { flush(); }, profile: null };

  var bundle = null; // Promise of the initialised wasm-bindgen module.
  var frames = [];   // Pending rAF work, so a benchmark can flush it synchronously.

  function url(name) {
    return new URL("widgets/" + name, base).href;
  }

  function loadBundle() {
    if (!bundle) {
      bundle = import(url("mathcourse_widgets.js")).then(function (m) {
        return m.default({ module_or_path: url("mathcourse_widgets_bg.wasm") }).then(function () {
          return m;
        });
      });
    }
    return bundle;
  }

  // A widget that cannot go live says so above the picture, and its controls go
  // (widgets.css hides them under data-static): nothing dead may look usable.
  function addNote(fig) {
    fig.setAttribute("data-static", "true");
    if (fig.querySelector(".mc-widget-note")) return;
    var p = document.createElement("p");
    p.className = "mc-widget-note";
    p.textContent = NOTE;
    fig.insertBefore(p, fig.firstChild);
  }

  function stayStatic(figs, why) {
    console.info("mathcourse: widgets stay static (" + why + ")");
    figs.forEach(addNote);
  }

  // ---- Morphing: bring `live` in line with `next` without replacing what the reader holds.

  var captured = null; // The element under pointer capture, if any.

  var active = null;   // document.activeElement, read once per morph.
  var parser = null;   // One <template> reused to parse every re-render.

  function holds(node) {
    return (active && node.contains(active)) || (captured && node.contains(captured));
  }

  function sameKind(a, b) {
    return a.nodeType === b.nodeType && a.nodeName === b.nodeName &&
      (a.nodeType !== 1 || a.namespaceURI === b.namespaceURI);
  }

  function syncAttributes(a, b) {
    var i, attr;
    for (i = a.attributes.length - 1; i >= 0; i--) {
      attr = a.attributes[i];
      if (!b.hasAttributeNS(attr.namespaceURI, attr.localName)) {
        a.removeAttributeNS(attr.namespaceURI, attr.localName);
      }
    }
    for (i = 0; i < b.attributes.length; i++) {
      attr = b.attributes[i];
      if (a.getAttributeNS(attr.namespaceURI, attr.localName) !== attr.value) {
        a.setAttributeNS(attr.namespaceURI, attr.name, attr.value);
      }
    }
  }

  function morphNode(a, b) {
    if (a.nodeType !== 1) {
      if (a.nodeValue !== b.nodeValue) a.nodeValue = b.nodeValue;
      return;
    }
    var control = a.nodeName === "INPUT" || a.nodeName === "SELECT";
    if (!control && a.isEqualNode(b)) return; // unchanged subtree: nothing to do
    syncAttributes(a, b);
    var busy = a === active;
    // A slider moved by keys through the widget (`data-key`, range inputs only) takes
    // its new value even while focused.
    if (a.nodeName === "INPUT" && (!busy || a.hasAttribute("data-key"))) {
      if (a.type === "checkbox" || a.type === "radio") {
        a.checked = b.hasAttribute("checked");
      } else if (a.value !== b.getAttribute("value")) {
        a.value = b.getAttribute("value") || "";
      }
    }
    morphChildren(a, b);
    if (a.nodeName === "SELECT" && !busy) {
      var chosen = b.querySelector("option[selected]");
      if (chosen) a.value = chosen.getAttribute("value") || chosen.textContent;
    }
  }

  function morphChildren(live, next) {
    var a = live.firstChild;
    var b = next.firstChild;
    while (b) {
      var nb = b.nextSibling;
      if (a && a.nodeType === 3 && b.nodeType !== 3 && !/\S/.test(a.nodeValue)) {
        // Whitespace the page's HTML serializer added between blocks: not ours.
        var blank = a;
        a = a.nextSibling;
        live.removeChild(blank);
        continue;
      }
      if (!a) {
        live.appendChild(b);
      } else if (sameKind(a, b)) {
        if (a.namespaceURI === SVG && a.nodeName !== "svg" && a.nodeName !== "foreignObject" && !holds(a)) {
          // A shape, text or group inside a picture, not held by the reader: swapping
          // it is much cheaper than patching its nodes one attribute at a time. Not a
          // foreignObject: its HTML (the attention heatmap's grid) is patched, since
          // laying a new one out costs more than the patch (4 ms per key press).
          var leaf = a;
          a = a.nextSibling;
          if (!leaf.isEqualNode(b)) live.replaceChild(b, leaf);
        } else {
          morphNode(a, b);
          a = a.nextSibling;
        }
      } else if (holds(a)) {
        live.insertBefore(b, a); // keep the focused / captured element; maybe it matches later
      } else {
        var old = a;
        a = a.nextSibling;
        live.replaceChild(b, old);
      }
      b = nb;
    }
    while (a) {
      var na = a.nextSibling;
      live.removeChild(a);
      a = na;
    }
  }

  // ---- One live widget.

  function Live(fig, root, handle) {
    this.fig = fig;
    this.root = root;
    this.handle = handle;
    this.drag = null;
    this.hovered = null;
  }

  Live.prototype.refresh = function (changed) {
    if (!changed) return;
    var prof = api.profile; // an array while a benchmark measures: [render, parse, morph] ms
    var t0 = prof && performance.now();
    var html = this.handle.render(this.fig.id);
    var t1 = prof && performance.now();
    var t = parser || (parser = document.createElement("template"));
    t.innerHTML = html;
    var t2 = prof && performance.now();
    active = document.activeElement;
    morphChildren(this.root, t.content);
    active = null;
    if (prof) prof.push([t1 - t0, t2 - t1, performance.now() - t2]);
  };

  Live.prototype.userPoint = function (el, e) {
    var svg = el.ownerSVGElement || el;
    var ctm = svg.getScreenCTM();
    if (!ctm) return null;
    return new DOMPoint(e.clientX, e.clientY).matrixTransform(ctm.inverse());
  };

  Live.prototype.listen = function () {
    var self = this;
    var root = this.root;
    var h = this.handle;

    function control(e) {
      var el = e.target;
      if (!el.name || !root.contains(el)) return;
      var value = el.type === "checkbox" ? (el.checked ? "true" : "false") : el.value;
      self.refresh(h.event(0, el.name, value, 0, 0));
      // Leaving a number field: it now shows the value the widget uses (the note
      // beside it says why when that differs from what was typed).
      if (e.type === "change" && el.type === "number") el.value = el.getAttribute("value") || "";
    }
    root.addEventListener("input", control);
    root.addEventListener("change", control);

    root.addEventListener("click", function (e) {
      var el = e.target.closest("[data-action]");
      if (el && root.contains(el) && !el.disabled) self.refresh(h.event(1, el.getAttribute("data-action"), "", 0, 0));
    });

    root.addEventListener("keydown", function (e) {
      var el = e.target.closest("[data-key]");
      if (!el || !root.contains(el) || !KEYS.test(e.key) || e.altKey || e.ctrlKey || e.metaKey) return;
      e.preventDefault();
      // mdBook turns ArrowLeft/ArrowRight on the page into previous/next chapter; the
      // key belongs to the widget here.
      e.stopPropagation();
      var target = el.getAttribute("data-key");
      self.refresh(h.event(2, target, e.key, e.shiftKey ? 1 : 0, 0));
      // Roving tabindex (a radio group of buttons): focus follows the selected one, at
      // the next frame: focus() lays the page out at once (about 2.5 ms after an
      // attention key), work the frame does anyway.
      var active = document.activeElement;
      if (active && root.contains(active) && active.getAttribute("tabindex") === "-1") {
        schedule(function () {
          var next = root.querySelector('[data-key="' + target + '"][tabindex="0"]');
          if (next && document.activeElement === active) next.focus({ preventScroll: true });
        });
      }
    });

    root.addEventListener("pointerdown", function (e) {
      var el = e.target.closest("[data-drag]");
      if (!el || !root.contains(el) || (e.pointerType === "mouse" && e.button !== 0)) return;
      var p = self.userPoint(el, e);
      if (!p) return;
      e.preventDefault();
      if (el.focus) el.focus({ preventScroll: true });
      try { el.setPointerCapture(e.pointerId); } catch (err) { /* already released */ }
      captured = el;
      self.drag = { el: el, id: e.pointerId, target: el.getAttribute("data-drag"), x: p.x, y: p.y, queued: false };
      self.refresh(h.event(3, self.drag.target, "", p.x, p.y));
    });

    root.addEventListener("pointermove", function (e) {
      var d = self.drag;
      if (!d || e.pointerId !== d.id) return;
      var p = self.userPoint(d.el, e);
      if (!p) return;
      d.x = p.x;
      d.y = p.y;
      if (!d.queued) {
        d.queued = true;
        schedule(function () {
          if (self.drag !== d) return;
          d.queued = false;
          self.refresh(h.event(4, d.target, "", d.x, d.y));
        });
      }
    });

    function end(e) {
      var d = self.drag;
      if (!d || e.pointerId !== d.id) return;
      self.drag = null;
      if (captured === d.el) captured = null;
      try { d.el.releasePointerCapture(d.id); } catch (err) { /* already released */ }
      self.refresh(h.event(5, d.target, "", d.x, d.y));
    }
    root.addEventListener("pointerup", end);
    root.addEventListener("pointercancel", end);

    function hoverTo(el) {
      if (el === self.hovered) return;
      self.hovered = el;
      self.refresh(h.event(6, el ? el.getAttribute("data-hover") : "", "", 0, 0));
    }
    function over(e) {
      var el = e.target.closest && e.target.closest("[data-hover]");
      if (el && root.contains(el)) hoverTo(el);
    }
    function out(e) {
      if (!self.hovered) return;
      var to = e.relatedTarget;
      if (!to || !self.hovered.contains(to)) {
        var next = to && to.closest && to.closest("[data-hover]");
        hoverTo(next && root.contains(next) ? next : null);
      }
    }
    root.addEventListener("mouseover", over);
    root.addEventListener("mouseout", out);
    root.addEventListener("focusin", over);
    root.addEventListener("focusout", out);
  };

  // rAF batching of pointer moves; flushable for measurements.
  function schedule(fn) {
    frames.push(fn);
    if (frames.length === 1) requestAnimationFrame(flush);
  }
  function flush() {
    var work = frames;
    frames = [];
    for (var i = 0; i < work.length; i++) work[i]();
  }

  function hydrate(fig, m) {
    var root = fig.querySelector(".mc-widget-root");
    if (!root || fig.hasAttribute("data-live")) return;
    var handle;
    try {
      handle = new m.WidgetHandle(fig.getAttribute("data-widget"), fig.getAttribute("data-params") || "{}");
    } catch (err) {
      console.info("mathcourse: widget " + fig.id + " stays static: " + (err && err.message));
      addNote(fig);
      return;
    }
    var w = new Live(fig, root, handle);
    w.listen();
    w.refresh(true); // the same markup as the build, now from the live state
    fig.setAttribute("data-live", "true");
    if (performance.mark) performance.mark("mathcourse-live:" + fig.id);
  }

  function start() {
    var figs = Array.prototype.slice.call(document.querySelectorAll(".mc-widget[data-widget]"));
    if (!figs.length) return;
    if (location.protocol === "file:") return stayStatic(figs, "opened from a file");
    if (typeof WebAssembly !== "object" || typeof IntersectionObserver !== "function") {
      return stayStatic(figs, "this browser lacks WebAssembly or IntersectionObserver");
    }
    var failed = false;
    function wake(fig) {
      loadBundle().then(function (m) { hydrate(fig, m); }, function (err) {
        if (!failed) {
          failed = true;
          stayStatic(figs, "the widget bundle did not load: " + (err && err.message));
        }
      });
    }
    var io = new IntersectionObserver(function (entries) {
      entries.forEach(function (entry) {
        if (entry.isIntersecting) {
          io.unobserve(entry.target);
          wake(entry.target);
        }
      });
    }, { rootMargin: "200px 0px" });
    figs.forEach(function (fig) { io.observe(fig); });
  }


  if (document.readyState === "loading") {
    document.addEventListener("DOMContentLoaded", start);
  } else {
    start();
  }
})();
