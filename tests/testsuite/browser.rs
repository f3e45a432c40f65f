//! Widgets in real headless Chromium (see `mathcourse_tests::browser_support`).
//!
//! The fixture book `widgets/all` is built in-process, served on 127.0.0.1 with the
//! strict Content-Security-Policy of the issue, and driven through chromedriver: keys,
//! pointer and touch drags, sliders and clicks, with every displayed number checked
//! against a value computed here from the displayed inputs. Screenshots land in
//! `target/screenshots/widgets-{light,navy,phone}.png`.

use std::time::Duration;

use fantoccini::actions::{InputSource, KeyAction, KeyActions, MouseActions, PointerAction};
use fantoccini::key::Key;
use mathcourse_tests::browser_support::{
    browser_lock, http_get, run, screenshots_dir, Browser, Csp, Pointer, Server, STRICT_CSP,
};
use mathcourse_tests::BookTest;
use serde_json::{json, Value};

const LIVE_TIMEOUT: Duration = Duration::from_secs(20);

/// Builds the widget fixture book and serves it with `csp`.
fn serve_fixture(csp: Csp) -> (BookTest, Server) {
    let mut test = BookTest::from_dir("widgets/all");
    test.build();
    let server = Server::start(&test.root.join("book"), csp);
    (test, server)
}

/// Opens `page` and returns the id of its first plot once it is live.
async fn open_first_plot(b: &Browser, server: &Server, page: &str) -> String {
    b.client.goto(&server.url(page)).await.unwrap();
    let id = b
        .js(
            "return document.querySelector('.mc-widget[data-widget=plot]').id;",
            vec![],
        )
        .await;
    let id = id.as_str().unwrap().to_string();
    b.wait_widget_live(&id).await;
    id
}

/// JavaScript: `shown(node)`, the text a reader sees in `node`: its text nodes and, in
/// build-time markup, the text drawn from `data-mc-t` attributes (kept out of mdBook's
/// search index, see `html::text_as_attributes`).
const SHOWN_JS: &str = "const shown = n => n.nodeType === 3 ? n.nodeValue : ((n.getAttribute && n.getAttribute('data-mc-t')) || '') + [...n.childNodes].map(shown).join('');";

/// Text of `[data-value=name]` inside widget `id`.
async fn value(b: &Browser, id: &str, name: &str) -> String {
    let v = b
        .js(
            &format!("{SHOWN_JS} const el = document.querySelector('#' + arguments[0] + ' [data-value=\"' + arguments[1] + '\"]'); return el ? shown(el) : null;"),
            vec![json!(id), json!(name)],
        )
        .await;
    v.as_str()
        .unwrap_or_else(|| panic!("no [data-value={name}] in #{id}"))
        .to_string()
}

/// The first number in a readout ("7.50", "45°", "−0.5", "66.5%").
fn number(text: &str) -> f64 {
    let cleaned: String = text
        .replace('\u{2212}', "-")
        .chars()
        .skip_while(|c| !(c.is_ascii_digit() || *c == '-' || *c == '.'))
        .take_while(|c| c.is_ascii_digit() || *c == '-' || *c == '.' || *c == 'e')
        .collect();
    cleaned
        .parse()
        .unwrap_or_else(|_| panic!("no number in {text:?}"))
}

/// Presses `key` on the focused element (real key events through WebDriver).
use mathcourse_tests::browser_support::press;

/// Focuses the element matching `selector` inside widget `id`.
async fn focus(b: &Browser, id: &str, selector: &str) {
    let ok = b
        .js(
            "const el = document.querySelector('#' + arguments[0] + ' ' + arguments[1]); if (!el) return false; el.focus(); return document.activeElement === el;",
            vec![json!(id), json!(selector)],
        )
        .await;
    assert_eq!(ok, json!(true), "could not focus {selector} in #{id}");
}

/// Client (viewport) coordinates of the SVG user point (x, y) of the drawing holding
/// `selector` in widget `id`.
async fn client_point(b: &Browser, id: &str, selector: &str, x: f64, y: f64) -> (f64, f64) {
    let v = b
        .js(
            "const el = document.querySelector('#' + arguments[0] + ' ' + arguments[1]);\
             const svg = el.ownerSVGElement || el;\
             const p = new DOMPoint(arguments[2], arguments[3]).matrixTransform(svg.getScreenCTM());\
             return [p.x, p.y];",
            vec![json!(id), json!(selector), json!(x), json!(y)],
        )
        .await;
    (v[0].as_f64().unwrap(), v[1].as_f64().unwrap())
}

/// The vectors widget's state as displayed: a, b (from the handles' aria-valuetext) and
/// the readouts.
async fn vectors_state(b: &Browser, id: &str) -> ([f64; 2], [f64; 2], f64) {
    let v = b
        .js(
            &format!(
                "{SHOWN_JS} const fig = document.getElementById(arguments[0]);\
             const p = s => s.replace(/[()]/g, '').replace(/\u{2212}/g, '-').split(',').map(Number);\
             return [p(fig.querySelector('[data-drag=a]').getAttribute('aria-valuetext')),\
                     p(fig.querySelector('[data-drag=b]').getAttribute('aria-valuetext')),\
                     shown(fig.querySelector('[data-value=dot]'))];"
            ),
            vec![json!(id)],
        )
        .await;
    let pair = |v: &Value| [v[0].as_f64().unwrap(), v[1].as_f64().unwrap()];
    (pair(&v[0]), pair(&v[1]), number(v[2].as_str().unwrap()))
}

fn dot(a: [f64; 2], b: [f64; 2]) -> f64 {
    a[0] * b[0] + a[1] * b[1]
}

/// Rounds like the readouts (2 decimals) for comparison.
fn r2(x: f64) -> f64 {
    (x * 100.0).round() / 100.0
}

/// Console errors that are ours. Under the exact strict policy mdBook's own page has
/// inline scripts, which the policy blocks (and reports), and mdBook's scripts then
/// miss the variables those define; none of that is the widgets' doing, so it is
/// returned separately.
fn split_console(entries: &[(String, String)]) -> (Vec<String>, Vec<String>) {
    let mut ours = Vec::new();
    let mut mdbook = Vec::new();
    for (level, message) in entries {
        if level != "SEVERE" {
            continue;
        }
        let mentions_us =
            message.contains("mathcourse") || message.contains(".wasm") || message.contains("mc-w");
        let inline_blocked = message.contains("Executing inline script violates")
            || message.contains("Refused to execute inline script");
        let mdbook_file = ["/toc-", "/book-", "/searcher-"]
            .iter()
            .any(|f| message.contains(f))
            && message.contains("is not defined");
        if !mentions_us && (inline_blocked || mdbook_file) {
            mdbook.push(message.clone());
        } else {
            ours.push(message.clone());
        }
    }
    (ours, mdbook)
}

/// No console error of ours; with `all`, no console error at all.
async fn assert_no_errors(b: &Browser, page: &str, all: bool) {
    let entries = b.console().await;
    let (ours, mdbook) = split_console(&entries);
    assert!(ours.is_empty(), "console errors on {page}: {ours:#?}");
    if all {
        assert!(mdbook.is_empty(), "console errors on {page}: {mdbook:#?}");
    }
    let seen = b
        .js("return window.__mathcourseErrors || null;", vec![])
        .await;
    assert_eq!(
        seen,
        json!([]),
        "errors or CSP violations seen by the loader on {page}"
    );
}

#[test]
fn browser_vectors_keys_drag_touch_slider_under_strict_csp() {
    let _lock = browser_lock();
    let (test, server) = serve_fixture(Csp::Strict);
    // The server sends the policy, and the wasm with its proper type.
    let (status, headers, _) = http_get(&server.url("vectors.html"));
    assert!(status.contains("200"), "{status}");
    assert!(
        headers.contains(&format!("Content-Security-Policy: {STRICT_CSP}")),
        "{headers}"
    );
    let tag = mdbook_mathcourse::assets::tag();
    let (_, wasm_headers, wasm) = http_get(&server.url(&format!(
        "mathcourse-assets/{tag}/widgets/mathcourse_widgets_bg.wasm"
    )));
    assert!(
        wasm_headers.contains("Content-Type: application/wasm"),
        "{wasm_headers}"
    );
    assert_eq!(&wasm[..4], b"\0asm");

    run(async {
        let b = Browser::start(1200, 900).await;
        b.client.goto(&server.url("vectors.html")).await.unwrap();
        let id = "mc-widget-1";
        b.wait_widget_live(id).await;

        // Hydration changes nothing visible: the live markup is the build-time markup
        // (up to the whitespace mdBook's serializer puts between blocks, and the text the
        // build keeps in attributes, out of the search index: put back as text here; an
        // SVG title the build turned into its element's aria-label: the same here).
        let page = test.output("vectors.html");
        let open = "<div class=\"mc-widget-root\">";
        let start = page.find(open).unwrap() + open.len();
        let end = start + page[start..].find("<figcaption>").unwrap();
        let same = b
            .js(
                "const strip = n => { for (const c of [...n.childNodes]) {\
                   if (c.nodeType === 3 && !/\\S/.test(c.nodeValue)) c.remove(); else if (c.nodeType === 1) strip(c); } return n; };\
                 const t = document.createElement('template'); t.innerHTML = arguments[1];\
                 /* Text in attributes back as text, on both sides: the widget draws its picture labels from data-mc-t itself (svg::open_label). */\
                 const unmove = n => { for (const el of [...n.querySelectorAll('[data-mc-t]')]) { const text = el.getAttribute('data-mc-t');\
                   if (el.className === 'mc-t') el.replaceWith(text); else { el.removeAttribute('data-mc-t'); el.prepend(text); } } };\
                 unmove(t.content);\
                 for (const el of t.content.querySelectorAll('option[label]')) { el.textContent = el.label; el.removeAttribute('label'); }\
                 const built = document.createElement('div'); built.appendChild(strip(t.content));\
                 const live = document.querySelector('#' + arguments[0] + ' .mc-widget-root').cloneNode(true); unmove(live);\
                 /* The build names each control in its markup (aria-label from its drawn text, html::name_controls); the live markup has the text itself. */\
                 const ctl = n => [...n.querySelectorAll('button, input, select, textarea')]; const lc = ctl(live);\
                 ctl(built).forEach((c, i) => { if (lc[i] && !lc[i].hasAttribute('aria-label')) c.removeAttribute('aria-label'); });\
                 /* The build names an SVG element by its first-child <title> as aria-label (out of the index): the same here. */\
                 for (const t of [...live.querySelectorAll('title')]) { const p = t.parentElement; if (p.firstChild !== t) continue;\
                   const attrs = [...p.attributes].map(a => [a.name, a.value]); for (const [n] of attrs) p.removeAttribute(n); let named = false;\
                   for (const [n, v] of attrs) { if (n === 'aria-labelledby' && v === t.id) { p.setAttribute('aria-label', t.textContent); named = true; } else p.setAttribute(n, v); }\
                   if (!named) p.setAttribute('aria-label', t.textContent); t.remove(); }\
                 strip(live);\
                 return built.innerHTML === live.innerHTML || [built.innerHTML, live.innerHTML];",
                vec![json!(id), json!(&page[start..end])],
            )
            .await;
        assert_eq!(
            same,
            json!(true),
            "the live markup differs from the build-time markup (layout shift)"
        );

        let (a, bv, shown) = vectors_state(&b, id).await;
        assert_eq!((a, bv), ([3.0, 1.0], [1.5, 3.0]));
        assert_eq!(shown, r2(dot(a, bv)));

        // Keyboard: ArrowUp on a's handle moves a up by 0.1; focus stays on the handle.
        focus(&b, id, "[data-key=a]").await;
        press(&b, Key::Up).await;
        let (a, bv, shown) = vectors_state(&b, id).await;
        assert_eq!(a, [3.0, 1.1], "ArrowUp moved a");
        assert_eq!(shown, r2(dot(a, bv)), "a·b after ArrowUp");
        let still = b
            .js(
                "return document.activeElement && document.activeElement.getAttribute('data-key');",
                vec![],
            )
            .await;
        assert_eq!(still, json!("a"), "focus survives the update");
        // Shift+ArrowLeft: a bigger step.
        let shift: char = Key::Shift.into();
        let left: char = Key::Left.into();
        let keys = KeyActions::new("keyboard".into())
            .then(KeyAction::Down { value: shift })
            .then(KeyAction::Down { value: left })
            .then(KeyAction::Up { value: left })
            .then(KeyAction::Up { value: shift });
        b.client.perform_actions(keys).await.unwrap();
        b.client.release_actions().await.unwrap();
        let (a, bv, shown) = vectors_state(&b, id).await;
        assert_eq!(a, [2.0, 1.1], "Shift+ArrowLeft moved a by 1");
        assert_eq!(shown, r2(dot(a, bv)));

        // Pointer drag of b's tip to (-2, 2.5) (SVG y points down).
        let (x0, y0) = client_point(&b, id, "[data-drag=b]", bv[0], -bv[1]).await;
        let (x1, y1) = client_point(&b, id, "[data-drag=b]", -2.0, -2.5).await;
        let middle = ((x0 + x1) / 2.0, (y0 + y1) / 2.0);
        let path = [(x0, y0), middle, (x1, y1)];
        b.drag(Pointer::Mouse, &path, Duration::from_millis(100))
            .await;
        let (a, bv, shown) = vectors_state(&b, id).await;
        assert!(
            (bv[0] + 2.0).abs() < 0.11 && (bv[1] - 2.5).abs() < 0.11,
            "b dragged to {bv:?}"
        );
        assert_eq!(a, [2.0, 1.1], "dragging b leaves a alone");
        assert_eq!(shown, r2(dot(a, bv)), "a·b after the drag");
        // The handle followed the pointer.
        let (hx, hy) = client_point(&b, id, "[data-drag=b]", bv[0], -bv[1]).await;
        assert!(
            (hx - x1).abs() < 6.0 && (hy - y1).abs() < 6.0,
            "handle at ({hx}, {hy}), pointer at ({x1}, {y1})"
        );

        // Touch drag of a's tip to (1, -2).
        let (x0, y0) = client_point(&b, id, "[data-drag=a]", a[0], -a[1]).await;
        let (x1, y1) = client_point(&b, id, "[data-drag=a]", 1.0, 2.0).await;
        b.drag(
            Pointer::Touch,
            &[(x0, y0), (x1, y1)],
            Duration::from_millis(150),
        )
        .await;
        let (a, bv, shown) = vectors_state(&b, id).await;
        assert!(
            (a[0] - 1.0).abs() < 0.11 && (a[1] + 2.0).abs() < 0.11,
            "a touch-dragged to {a:?}"
        );
        assert_eq!(shown, r2(dot(a, bv)), "a·b after the touch drag");
        let angle_word = value(&b, id, "word").await;
        let cos = dot(a, bv) / (a[0].hypot(a[1]) * bv[0].hypot(bv[1]));
        let expected_word = if cos > 1e-9 {
            "aligned"
        } else if cos < -1e-9 {
            "opposed"
        } else {
            "perpendicular"
        };
        assert!(
            angle_word.contains(expected_word) || cos.abs() < 0.2,
            "word {angle_word:?} for cos {cos}"
        );

        // A slider, with the keyboard: a₁ up by one step (0.1).
        focus(&b, id, "input[name=a1]").await;
        press(&b, Key::Right).await;
        let (a2, bv, shown) = vectors_state(&b, id).await;
        assert!(
            (a2[0] - (a[0] + 0.1)).abs() < 1e-9,
            "slider moved a₁: {a2:?} from {a:?}"
        );
        assert_eq!(shown, r2(dot(a2, bv)), "a·b after the slider");
        let slider_value = b
            .js(
                "return document.querySelector('#mc-widget-1 input[name=a1]').value;",
                vec![],
            )
            .await;
        assert_eq!(number(slider_value.as_str().unwrap()), a2[0]);
        // Dragging the tip moves the slider too (inputs not in use follow the state).
        let readout = b
            .js(
                "return document.querySelector('#mc-widget-1 input[name=b2]').value;",
                vec![],
            )
            .await;
        assert_eq!(number(readout.as_str().unwrap()), bv[1]);

        assert_no_errors(&b, "vectors.html", false).await;

        // Screenshots: light, navy, phone width. Look at them.
        let dir = screenshots_dir();
        b.js("document.getElementById('mc-widget-1').scrollIntoView({block: 'start'}); window.scrollBy(0, -16); return true;", vec![]).await;
        tokio::time::sleep(Duration::from_millis(200)).await;
        b.screenshot(&dir.join("widgets-light.png")).await;
        set_theme(&b, "navy").await;
        b.screenshot(&dir.join("widgets-navy.png")).await;
        set_theme(&b, "light").await;
        b.client.set_window_size(390, 844).await.unwrap();
        b.js(
            "document.documentElement.classList.remove('sidebar-visible'); return true;",
            vec![],
        )
        .await;
        tokio::time::sleep(Duration::from_millis(200)).await;
        let width = b.js("return window.innerWidth;", vec![]).await;
        b.js(
            "document.getElementById('mc-widget-1').scrollIntoView({block: 'start'}); return true;",
            vec![],
        )
        .await;
        tokio::time::sleep(Duration::from_millis(200)).await;
        b.screenshot(&dir.join("widgets-phone.png")).await;
        // Usable at phone width: nothing wider than the viewport.
        let overflow = b
            .js(
                "const fig = document.getElementById('mc-widget-1'); const r = fig.getBoundingClientRect();\
                 return [r.left, r.right, document.documentElement.clientWidth];",
                vec![],
            )
            .await;
        let (left, right, vw) = (
            overflow[0].as_f64().unwrap(),
            overflow[1].as_f64().unwrap(),
            overflow[2].as_f64().unwrap(),
        );
        assert!(
            left >= -1.0 && right <= vw + 1.0,
            "widget overflows a {width} px viewport: {left}..{right} of {vw}"
        );
        assert_no_errors(&b, "vectors.html (after resizing)", false).await;
        b.close().await;
    });
}

/// Switches the mdBook theme class on <html> (mdBook's own switcher is an inline
/// script, which the strict policy blocks).
async fn set_theme(b: &Browser, theme: &str) {
    b.js(
        "const h = document.documentElement; for (const t of ['light','rust','coal','navy','ayu']) h.classList.remove(t);\
         h.classList.add(arguments[0], 'js'); return true;",
        vec![json!(theme)],
    )
    .await;
    tokio::time::sleep(Duration::from_millis(150)).await;
}

/// Numbers of the cells of `table` (a CSS selector) in widget `id`, row by row.
async fn table_numbers(b: &Browser, id: &str, table: &str) -> Vec<Vec<f64>> {
    let v = b
        .js(
            "const t = document.querySelector('#' + arguments[0] + ' ' + arguments[1]);\
             return [...t.querySelectorAll('tbody tr')].map(r => [...r.querySelectorAll('td')].map(c => c.textContent));",
            vec![json!(id), json!(table)],
        )
        .await;
    v.as_array()
        .unwrap()
        .iter()
        .map(|row| {
            row.as_array()
                .unwrap()
                .iter()
                .map(|c| number(c.as_str().unwrap()))
                .collect()
        })
        .collect()
}

/// Sets a `<select>` (or any control) by script and fires `change` as a reader's pick would.
async fn pick(b: &Browser, id: &str, name: &str, value: &str) {
    b.js(
        "const el = document.querySelector('#' + arguments[0] + ' [name=\"' + arguments[1] + '\"]');\
         el.value = arguments[2]; el.dispatchEvent(new Event('change', {bubbles: true})); return true;",
        vec![json!(id), json!(name), json!(value)],
    )
    .await;
}

/// Clicks the button `data-action=action` of widget `id` (a real WebDriver click).
async fn click_action(b: &Browser, id: &str, action: &str) {
    let el = b
        .client
        .find(fantoccini::Locator::Css(&format!(
            "#{id} [data-action=\"{action}\"]"
        )))
        .await
        .unwrap_or_else(|e| panic!("no button {action} in #{id}: {e}"));
    el.click()
        .await
        .unwrap_or_else(|e| panic!("clicking {action} in #{id}: {e}"));
}

#[test]
fn browser_every_widget_responds_with_the_right_numbers() {
    let _lock = browser_lock();
    let (_test, server) = serve_fixture(Csp::StrictWithPageHashes);
    run(async {
        let b = Browser::start(1200, 1400).await;
        b.client
            .goto(&server.url("more/gallery.html"))
            .await
            .unwrap();

        // matrix-shapes: hover a cell of AB; the readout is row·column of A and B.
        let id = "mc-widget-1";
        b.wait_widget_live(id).await;
        let a = table_numbers(&b, id, ".mc-w-matrix-a").await;
        let bm = table_numbers(&b, id, ".mc-w-matrix-b").await;
        let cell = b
            .client
            .find(fantoccini::Locator::Css(&format!(
                "#{id} [data-hover=\"cell-0-1\"]"
            )))
            .await
            .unwrap();
        let hover = MouseActions::new("mouse".into()).then(PointerAction::MoveToElement {
            element: cell,
            duration: None,
            x: 0.0,
            y: 0.0,
        });
        b.client.perform_actions(hover).await.unwrap();
        b.client.release_actions().await.unwrap();
        let expected: f64 = (0..a[0].len()).map(|k| a[0][k] * bm[k][1]).sum();
        assert_eq!(
            number(&value(&b, id, "cell-sum").await),
            expected,
            "row 1 of A · column 2 of B"
        );
        assert_eq!(number(&value(&b, id, "ab-0-1").await), expected);
        let highlighted = b
            .js(
                "return document.querySelectorAll('#mc-widget-1 .mc-w-hl').length;",
                vec![],
            )
            .await;
        assert!(
            highlighted.as_u64().unwrap() >= 3,
            "row, column and cell highlighted"
        );
        pick(&b, id, "a-cols", "2").await;
        assert_eq!(
            value(&b, id, "exists").await,
            "no",
            "2×2 · 3×2 is not defined"
        );
        pick(&b, id, "b-rows", "2").await;
        assert_eq!(value(&b, id, "exists").await, "yes");
        assert_eq!(value(&b, id, "shape").await, "2×2");

        // softmax: one step of the temperature slider (keyboard); bars = softmax(z/T).
        let id = "mc-widget-2";
        b.wait_widget_live(id).await;
        focus(&b, id, "input[name=temperature]").await;
        press(&b, Key::Right).await;
        let t = number(&value(&b, id, "temperature").await);
        assert!(t > 1.0, "the temperature went up: {t}");
        let scores = [2.0f64, 1.0, 0.1];
        let exps: Vec<f64> = scores.iter().map(|z| (z / t).exp()).collect();
        let total: f64 = exps.iter().sum();
        for (k, e) in exps.iter().enumerate() {
            let shown = number(&value(&b, id, &format!("p-{k}")).await);
            assert!(
                (shown - 100.0 * e / total).abs() <= 0.051,
                "p{k} = {shown}% at T = {t}"
            );
        }
        let entropy: f64 = exps.iter().map(|e| e / total).map(|p| -p * p.log2()).sum();
        assert!(
            (number(&value(&b, id, "entropy").await) - entropy).abs() <= 0.006,
            "entropy in bits"
        );

        // surprise: a probability slider; surprise = -log2 p, perplexity = 2^mean.
        let id = "mc-widget-3";
        b.wait_widget_live(id).await;
        focus(&b, id, "input[name=p-1]").await;
        press(&b, Key::Right).await;
        let mut probs = Vec::new();
        for k in 0..4 {
            probs.push(number(&value(&b, id, &format!("p-{k}")).await));
        }
        assert!(
            (probs[1] - 0.13).abs() < 1e-9,
            "p₂ moved one step of 0.005 from 0.125: {probs:?}"
        );
        assert!((number(&value(&b, id, "bits-1").await) - (-probs[1].log2())).abs() <= 0.0051);
        let mean: f64 = probs.iter().map(|p| -p.log2()).sum::<f64>() / 4.0;
        assert!((number(&value(&b, id, "avg-bits").await) - mean).abs() <= 0.0051);
        assert!((number(&value(&b, id, "perplexity").await) - 2f64.powf(mean)).abs() <= 0.0051);

        // gd-1d: one Step: x₁ = x₀ − η f'(x₀), f'(x) = 2(x − 2) + 1.5 cos 3x.
        let id = "mc-widget-4";
        b.wait_widget_live(id).await;
        let x0 = number(&value(&b, id, "x").await);
        click_action(&b, id, "step").await;
        let df = |x: f64| 2.0 * (x - 2.0) + 1.5 * (3.0 * x).cos();
        let x1 = x0 - 0.1 * df(x0);
        assert_eq!(value(&b, id, "t").await, "1");
        assert!(
            (number(&value(&b, id, "x").await) - x1).abs() <= 0.0006,
            "x after one step, expected {x1}"
        );
        let f = |x: f64| (x - 2.0).powi(2) + 0.5 * (3.0 * x).sin();
        assert!((number(&value(&b, id, "fx").await) - f(x1)).abs() <= 0.0006);

        // gd-2d: one Step of plain descent on ½(aθ₁² + bθ₂²), a = 1, b = 20, η = 0.08.
        let id = "mc-widget-5";
        b.wait_widget_live(id).await;
        let (t1, t2) = (
            number(&value(&b, id, "theta1").await),
            number(&value(&b, id, "theta2").await),
        );
        click_action(&b, id, "step").await;
        let (n1, n2) = (t1 - 0.08 * t1, t2 - 0.08 * 20.0 * t2);
        assert!(
            (number(&value(&b, id, "theta1").await) - n1).abs() <= 0.0051,
            "θ₁ → {n1}"
        );
        assert!(
            (number(&value(&b, id, "theta2").await) - n2).abs() <= 0.0051,
            "θ₂ → {n2}"
        );
        let loss = 0.5 * (n1 * n1 + 20.0 * n2 * n2);
        assert!(
            (number(&value(&b, id, "loss").await) - loss).abs() <= 0.00051,
            "L(θ) = {loss}"
        );

        // attention: ArrowRight on the selected token selects the next one; focus follows;
        // the weights row is a distribution and the top token has the largest weight.
        let id = "mc-widget-6";
        b.wait_widget_live(id).await;
        focus(&b, id, "[data-key=query][tabindex=\"0\"]").await;
        press(&b, Key::Right).await;
        assert_eq!(value(&b, id, "query").await, "on");
        // The loader moves the roving focus at the next frame: wait for it.
        b.wait_until(
            "return !!document.activeElement && document.activeElement.textContent === 'on';",
            LIVE_TIMEOUT,
            "focus to follow the selected token to \"on\"",
        )
        .await;
        let mut weights = Vec::new();
        for j in 0..6 {
            weights.push(number(&value(&b, id, &format!("weight-{j}")).await));
        }
        let sum: f64 = weights.iter().sum();
        assert!(
            (sum - 100.0).abs() <= 3.0,
            "weights sum to 100%: {weights:?}"
        );
        let tokens = ["The", "cat", "sat", "on", "the", "mat"];
        let top = value(&b, id, "top").await;
        let best = weights.iter().cloned().fold(f64::MIN, f64::max);
        let j = tokens
            .iter()
            .position(|t| *t == top)
            .expect("top is a token");
        assert_eq!(
            weights[j], best,
            "top-attended {top} has the largest weight"
        );
        // The heatmap row of the query equals the bars (rounded to whole percent).
        for (j, w) in weights.iter().enumerate() {
            assert_eq!(
                number(&value(&b, id, &format!("cell-3-{j}")).await),
                *w,
                "heatmap row = bars"
            );
        }

        // sqrt-d: scaling by √d brings the spread of the dot products to about 1.
        let id = "mc-widget-7";
        b.wait_widget_live(id).await;
        let d = number(&value(&b, id, "d").await);
        let spread = number(&value(&b, id, "spread").await);
        assert!(
            (spread / d.sqrt() - 1.0).abs() < 0.2,
            "spread {spread} ≈ √{d}"
        );
        let checkbox = b
            .client
            .find(fantoccini::Locator::Css(&format!(
                "#{id} input[name=scale]"
            )))
            .await
            .unwrap();
        checkbox.click().await.unwrap();
        let scaled = number(&value(&b, id, "spread").await);
        assert!(
            (scaled - spread / d.sqrt()).abs() <= 0.011,
            "scaled spread {scaled} = {spread}/√{d}"
        );

        assert_no_errors(&b, "more/gallery.html", true).await;
        // A picture of every widget in a light and a dark theme (look at them).
        let dir = screenshots_dir();
        b.js("for (const m of document.querySelectorAll('#mdbook-menu-bar, #menu-bar, .menu-bar')) m.style.display = 'none'; return true;", vec![]).await;
        for theme in ["light", "coal"] {
            set_theme(&b, theme).await;
            for fig in b
                .client
                .find_all(fantoccini::Locator::Css(".mc-widget"))
                .await
                .unwrap()
            {
                let name = fig.attr("data-widget").await.unwrap().unwrap_or_default();
                b.js(
                    "arguments[0].scrollIntoView({block: 'start'}); return true;",
                    vec![serde_json::to_value(&fig).unwrap()],
                )
                .await;
                let png = fig.screenshot().await.unwrap();
                std::fs::create_dir_all(&dir).unwrap();
                std::fs::write(dir.join(format!("widget-{name}-{theme}.png")), png).unwrap();
            }
        }
        // Every widget on the page is live.
        let live = b
            .js("return [...document.querySelectorAll('.mc-widget')].every(f => f.dataset.live === 'true');", vec![])
            .await;
        assert_eq!(live, json!(true));
        b.close().await;
    });
}

#[test]
fn browser_opened_from_disk_widgets_stay_static_with_a_note() {
    let _lock = browser_lock();
    let mut test = BookTest::from_dir("widgets/all");
    test.build();
    let url = format!("file://{}", test.root.join("book/vectors.html").display());
    run(async {
        let b = Browser::start(1000, 800).await;
        b.client.goto(&url).await.unwrap();
        b.wait_until(
            "return !!document.querySelector('#mc-widget-1 .mc-widget-note');",
            LIVE_TIMEOUT,
            "the static note",
        )
        .await;
        let note = b
            .js(
                "return document.querySelector('#mc-widget-1 .mc-widget-note').textContent;",
                vec![],
            )
            .await;
        assert!(
            note.as_str().unwrap().contains("served over http"),
            "{note}"
        );
        let live = b
            .js(
                "return document.getElementById('mc-widget-1').dataset.live || null;",
                vec![],
            )
            .await;
        assert_eq!(live, Value::Null, "not live from file://");
        // The build-time picture is there: the readout and the drawing.
        assert_eq!(number(&value(&b, "mc-widget-1", "dot").await), 7.5);
        let entries = b.console().await;
        let errors: Vec<_> = entries
            .iter()
            .filter(|(level, _)| level == "SEVERE")
            .collect();
        assert!(
            errors.is_empty(),
            "no console error from file://: {errors:#?}"
        );
        b.close().await;
    });
}

/// Types `text` into the field `selector` of widget `id` with real key events: focus,
/// Ctrl+A and Backspace empty it, then one key per character (each fires `input`).
async fn type_into(b: &Browser, id: &str, selector: &str, text: &str) {
    focus(b, id, selector).await;
    let ctrl: char = Key::Control.into();
    let backspace: char = Key::Backspace.into();
    let mut keys = KeyActions::new("keyboard".into())
        .then(KeyAction::Down { value: ctrl })
        .then(KeyAction::Down { value: 'a' })
        .then(KeyAction::Up { value: 'a' })
        .then(KeyAction::Up { value: ctrl })
        .then(KeyAction::Down { value: backspace })
        .then(KeyAction::Up { value: backspace });
    for c in text.chars() {
        keys = keys
            .then(KeyAction::Down { value: c })
            .then(KeyAction::Up { value: c });
    }
    b.client.perform_actions(keys).await.expect("key actions");
    b.client.release_actions().await.expect("release");
}

/// `[property]` of the element `selector` in widget `id` (a DOM property, e.g. the
/// `value` a field shows now, or an attribute through `getAttribute`).
async fn prop(b: &Browser, id: &str, selector: &str, js: &str) -> String {
    let v = b
        .js(
            &format!("const el = document.querySelector('#' + arguments[0] + ' ' + arguments[1]); return el ? String({js}) : null;"),
            vec![json!(id), json!(selector)],
        )
        .await;
    v.as_str()
        .unwrap_or_else(|| panic!("no {selector} in #{id}"))
        .to_string()
}

/// A screenshot of widget `id` to `target/screenshots/{name}.png`, for review.
async fn shot(b: &Browser, id: &str, name: &str) {
    let fig = b.client.find(fantoccini::Locator::Id(id)).await.unwrap();
    let png = fig.screenshot().await.unwrap();
    let dir = screenshots_dir();
    std::fs::create_dir_all(&dir).unwrap();
    std::fs::write(dir.join(format!("{name}.png")), png).unwrap();
}

/// The text of the element `selector` (a field's note).
async fn note_text(b: &Browser, selector: String) -> String {
    b.js(
        "return document.querySelector(arguments[0]).textContent;",
        vec![json!(selector)],
    )
    .await
    .as_str()
    .unwrap_or_else(|| panic!("no {selector}"))
    .to_string()
}

/// A value a widget cannot use as typed is never changed silently: the note beside
/// the field says what is used and why while typing, the readouts use that value, and
/// leaving the field (Tab) puts the value used into it; a slider's aria-valuetext
/// names the value used; a slider holds exactly the author's value.
#[test]
fn browser_values_not_used_as_typed_say_so() {
    let _lock = browser_lock();
    let (_test, server) = serve_fixture(Csp::StrictWithPageHashes);
    run(async {
        let b = Browser::start(1200, 1400).await;
        b.client
            .goto(&server.url("more/gallery.html"))
            .await
            .unwrap();

        // softmax (scores 2, 1, 0.1): "99" in the first score.
        let id = "mc-widget-2";
        b.wait_widget_live(id).await;
        type_into(&b, id, "input[name=score-0]", "99").await;
        let note = |n: &str| format!("#{id}-{n}-note");
        assert_eq!(
            note_text(&b, note("score-0")).await,
            "at most 10: 10 is used"
        );
        shot(&b, id, "widget-softmax-note").await;
        assert_eq!(
            prop(&b, id, "input[name=score-0]", "el.value").await,
            "99",
            "the field is not rewritten under the reader's fingers"
        );
        let exps: Vec<f64> = [10.0f64, 1.0, 0.1].iter().map(|z| z.exp()).collect();
        let total: f64 = exps.iter().sum();
        assert_eq!(
            number(&value(&b, id, "p-0").await),
            (1000.0 * exps[0] / total).round() / 10.0,
            "the readouts use 10"
        );
        press(&b, Key::Tab).await;
        assert_eq!(
            prop(&b, id, "input[name=score-0]", "el.value").await,
            "10",
            "leaving the field shows the value used"
        );
        assert_eq!(
            note_text(&b, note("score-0")).await,
            "at most 10: 10 is used"
        );
        assert_eq!(
            prop(
                &b,
                id,
                "input[name=score-0]",
                "el.getAttribute('aria-describedby')"
            )
            .await,
            format!("{id}-score-0-note")
        );
        // An emptied field: the score stays 1 and the note says so; Tab puts 1 back.
        type_into(&b, id, "input[name=score-1]", "").await;
        assert_eq!(
            note_text(&b, note("score-1")).await,
            "empty: 1 is still used"
        );
        assert_eq!(
            note_text(&b, note("score-0")).await,
            "",
            "one note at a time"
        );
        press(&b, Key::Tab).await;
        assert_eq!(prop(&b, id, "input[name=score-1]", "el.value").await, "1");
        // A value used as typed: no note.
        type_into(&b, id, "input[name=score-1]", "-2.5").await;
        assert_eq!(note_text(&b, note("score-1")).await, "");
        press(&b, Key::Tab).await;
        assert_eq!(
            prop(&b, id, "input[name=score-1]", "el.value").await,
            "-2.5"
        );

        // surprise (probs 0.5, 0.125, 0.9, 0.1): the slider holds 0.125 exactly.
        let id = "mc-widget-3";
        b.wait_widget_live(id).await;
        assert_eq!(prop(&b, id, "input[name=p-1]", "el.value").await, "0.125");
        assert_eq!(value(&b, id, "p-1").await, "0.125");
        assert_eq!(value(&b, id, "bits-1").await, "3.00");

        // sqrt-d: d = 5000 is more than 512.
        let id = "mc-widget-7";
        b.wait_widget_live(id).await;
        type_into(&b, id, "input[name=d]", "5000").await;
        press(&b, Key::Tab).await;
        assert_eq!(value(&b, id, "d").await, "512");
        assert_eq!(
            note_text(&b, format!("#{id}-d-note")).await,
            "at most 512: 512 is used"
        );
        shot(&b, id, "widget-sqrt-d-note").await;
        assert_eq!(prop(&b, id, "input[name=d]", "el.value").await, "512");
        let valuetext = "el.getAttribute('aria-valuetext')";
        assert_eq!(
            prop(&b, id, "input[name=d-power]", valuetext).await,
            "d = 512"
        );
        assert_eq!(prop(&b, id, "output", "el.textContent").await, "512");
        // d = 100 lies between two stops of the slider: its aria-valuetext says so.
        type_into(&b, id, "input[name=d]", "100").await;
        press(&b, Key::Tab).await;
        assert_eq!(value(&b, id, "d").await, "100");
        assert_eq!(
            prop(&b, id, "input[name=d-power]", valuetext).await,
            "d = 100 (between powers of two; the slider sits at 128)"
        );
        assert_eq!(prop(&b, id, "output", "el.textContent").await, "100");
        assert_eq!(note_text(&b, format!("#{id}-d-note")).await, "");
        // A fraction is rounded, and the note says so.
        type_into(&b, id, "input[name=d]", "2.6").await;
        press(&b, Key::Tab).await;
        assert_eq!(value(&b, id, "d").await, "3");
        assert_eq!(
            note_text(&b, format!("#{id}-d-note")).await,
            "whole numbers only: 3 is used"
        );
        assert_eq!(prop(&b, id, "input[name=d]", "el.value").await, "3");
        assert_no_errors(&b, "more/gallery.html", true).await;
        b.close().await;
    });
}

/// Median, 90th percentile and maximum of `times` (ms).
fn stats(mut times: Vec<f64>) -> (f64, f64, f64) {
    times.sort_by(f64::total_cmp);
    let n = times.len();
    (times[n / 2], times[(n * 9) / 10], times[n - 1])
}

/// The numbers of `cargo xtask bench-widgets` (run through it; writes
/// `target/bench/widgets.json`).
#[test]
#[ignore = "a benchmark: run with `cargo xtask bench-widgets`"]
fn widgets_benchmark() {
    const EVENTS: usize = 200;
    let _lock = browser_lock();
    let (_test, server) = serve_fixture(Csp::StrictWithPageHashes);
    let mut rows = Vec::new();
    let mut loads = Vec::new();
    let mut dcl = Vec::new();
    let mut version = String::new();
    run(async {
        let b = Browser::start(1200, 900).await;
        version = b
            .client
            .capabilities()
            .and_then(|c| {
                c.get("browserVersion")
                    .and_then(Value::as_str)
                    .map(|v| format!("Chromium {v}"))
            })
            .unwrap_or_else(|| "Chromium".into());
        // Load to live, a few fresh loads of the vectors page (no-store: no HTTP cache).
        for _ in 0..7 {
            b.client.goto(&server.url("vectors.html")).await.unwrap();
            b.wait_until(
                "return [...document.querySelectorAll('.mc-widget')].every(f => f.dataset.live === 'true');",
                LIVE_TIMEOUT,
                "all widgets live",
            )
            .await;
            let t = b
                .js(
                    "const marks = performance.getEntriesByType('mark').filter(m => m.name.startsWith('mathcourse-live:'));\
                     const nav = performance.getEntriesByType('navigation')[0];\
                     return [Math.max(...marks.map(m => m.startTime)), nav.domContentLoadedEventEnd];",
                    vec![],
                )
                .await;
            loads.push(t[0].as_f64().unwrap());
            dcl.push(t[1].as_f64().unwrap());
        }
        // Slider and drag events on the vectors widget.
        b.wait_widget_live("mc-widget-1").await;
        let slider = b
            .js(
                "const fig = document.getElementById('mc-widget-1'); const input = fig.querySelector('input[name=a1]');\
                 const times = []; window.__mathcourse.profile = [];\
                 for (let i = 0; i < arguments[0]; i++) {\
                   input.value = String(((i % 80) - 40) / 10);\
                   const t0 = performance.now();\
                   input.dispatchEvent(new Event('input', {bubbles: true}));\
                   const t1 = performance.now(); fig.getBoundingClientRect();\
                   times.push([t1 - t0, performance.now() - t0]);\
                 }\
                 const prof = window.__mathcourse.profile; window.__mathcourse.profile = null;\
                 return [times, prof];",
                vec![json!(EVENTS)],
            )
            .await;
        rows.push(("vectors", "slider `input`", slider));
        let drag = b
            .js(
                "const fig = document.getElementById('mc-widget-1'); const h = fig.querySelector('[data-drag=b]');\
                 const svg = h.ownerSVGElement; const m = svg.getScreenCTM();\
                 const at = (x, y) => new DOMPoint(x, y).matrixTransform(m);\
                 const opts = p => ({bubbles: true, cancelable: true, pointerId: 7, pointerType: 'mouse', isPrimary: true, clientX: p.x, clientY: p.y, button: 0, buttons: 1});\
                 h.dispatchEvent(new PointerEvent('pointerdown', opts(at(1.5, -3))));\
                 const times = []; window.__mathcourse.profile = [];\
                 for (let i = 0; i < arguments[0]; i++) {\
                   const a = i / 10; const p = at(3 * Math.cos(a), -3 * Math.sin(a));\
                   const t0 = performance.now();\
                   h.dispatchEvent(new PointerEvent('pointermove', opts(p)));\
                   window.__mathcourse.flush();\
                   const t1 = performance.now(); fig.getBoundingClientRect();\
                   times.push([t1 - t0, performance.now() - t0]);\
                 }\
                 const prof = window.__mathcourse.profile; window.__mathcourse.profile = null;\
                 h.dispatchEvent(new PointerEvent('pointerup', opts(at(0, 3))));\
                 return [times, prof];",
                vec![json!(EVENTS)],
            )
            .await;
        rows.push(("vectors", "drag `pointermove`", drag));
        // The first slider of every other widget, swept over its range.
        b.client
            .goto(&server.url("more/gallery.html"))
            .await
            .unwrap();
        let ids = b
            .js("return [...document.querySelectorAll('.mc-widget')].map(f => [f.id, f.dataset.widget]);", vec![])
            .await;
        for pair in ids.as_array().unwrap() {
            let (id, name) = (pair[0].as_str().unwrap(), pair[1].as_str().unwrap());
            b.wait_widget_live(id).await;
            let times = b
                .js(
                    "const fig = document.getElementById(arguments[0]); const input = fig.querySelector('input[type=range]');\
                     if (!input) return null;\
                     const name = input.name; const min = +input.min, max = +input.max, step = +input.step || 1;\
                     const n = Math.max(1, Math.round((max - min) / step));\
                     const times = []; window.__mathcourse.profile = [];\
                     for (let i = 0; i < arguments[1]; i++) {\
                       const k = i % (2 * n); const v = min + step * (k <= n ? k : 2 * n - k);\
                       const el = fig.querySelector('input[name=\"' + name + '\"]');\
                       el.value = String(v);\
                       const t0 = performance.now();\
                       el.dispatchEvent(new Event('input', {bubbles: true}));\
                       const t1 = performance.now(); fig.getBoundingClientRect();\
                       times.push([t1 - t0, performance.now() - t0]);\
                     }\
                     const prof = window.__mathcourse.profile; window.__mathcourse.profile = null;\
                     return [name, [times, prof]];",
                    vec![json!(id), json!(EVENTS)],
                )
                .await;
            if let Some(pair) = times.as_array() {
                let label = format!("slider `{}`", pair[0].as_str().unwrap());
                rows.push((
                    Box::leak(name.to_string().into_boxed_str()),
                    Box::leak(label.into_boxed_str()),
                    pair[1].clone(),
                ));
            }
        }
        // attention: ArrowRight / ArrowLeft on the selected query token (a key event
        // through the loader, as a reader's key press).
        let keys = b
            .js(
                "const fig = document.querySelector('.mc-widget[data-widget=attention]');\
                 const times = []; window.__mathcourse.profile = [];\
                 for (let i = 0; i < arguments[0]; i++) {\
                   const el = fig.querySelector('[data-key=query][tabindex=\"0\"]'); el.focus();\
                   const key = (i % 10) < 5 ? 'ArrowRight' : 'ArrowLeft';\
                   const t0 = performance.now();\
                   el.dispatchEvent(new KeyboardEvent('keydown', {key, bubbles: true, cancelable: true}));\
                   const t1 = performance.now(); fig.getBoundingClientRect();\
                   times.push([t1 - t0, performance.now() - t0]);\
                 }\
                 const prof = window.__mathcourse.profile; window.__mathcourse.profile = null;\
                 return [times, prof];",
                vec![json!(EVENTS)],
            )
            .await;
        rows.push(("attention", "key `ArrowRight`/`ArrowLeft`", keys));
        // sqrt-d: the Resample button (new random vectors, a new histogram) at the
        // largest d, 512, where drawing the samples is most work.
        let clicks = b
            .js(
                "const fig = document.querySelector('.mc-widget[data-widget=\"sqrt-d\"]');\
                 const d = fig.querySelector('input[name=d-power]'); d.value = '9';\
                 d.dispatchEvent(new Event('input', {bubbles: true}));\
                 const times = []; window.__mathcourse.profile = [];\
                 for (let i = 0; i < arguments[0]; i++) {\
                   const el = fig.querySelector('[data-action=resample]');\
                   const t0 = performance.now();\
                   el.click();\
                   const t1 = performance.now(); fig.getBoundingClientRect();\
                   times.push([t1 - t0, performance.now() - t0]);\
                 }\
                 const prof = window.__mathcourse.profile; window.__mathcourse.profile = null;\
                 return [times, prof];",
                vec![json!(EVENTS)],
            )
            .await;
        rows.push(("sqrt-d", "button `resample` at d = 512", clicks));
        // The plot's tangent point dragged along its curve (resampling every curve).
        let drag = b
            .js(
                "const fig = document.querySelector('.mc-widget[data-widget=plot]'); const h = fig.querySelector('[data-drag^=t]');\
                 const svg = h.ownerSVGElement; const m = svg.getScreenCTM();\
                 const at = x => new DOMPoint(x, 100).matrixTransform(m);\
                 const opts = p => ({bubbles: true, cancelable: true, pointerId: 8, pointerType: 'mouse', isPrimary: true, clientX: p.x, clientY: p.y, button: 0, buttons: 1});\
                 h.dispatchEvent(new PointerEvent('pointerdown', opts(at(+h.getAttribute('cx')))));\
                 const times = []; window.__mathcourse.profile = [];\
                 for (let i = 0; i < arguments[0]; i++) {\
                   const p = at(40 + (i * 7) % 270);\
                   const t0 = performance.now();\
                   h.dispatchEvent(new PointerEvent('pointermove', opts(p)));\
                   window.__mathcourse.flush();\
                   const t1 = performance.now(); fig.getBoundingClientRect();\
                   times.push([t1 - t0, performance.now() - t0]);\
                 }\
                 const prof = window.__mathcourse.profile; window.__mathcourse.profile = null;\
                 h.dispatchEvent(new PointerEvent('pointerup', opts(at(100))));\
                 return [times, prof];",
                vec![json!(EVENTS)],
            )
            .await;
        rows.push(("plot", "tangent drag `pointermove`", drag));
        assert_no_errors(&b, "benchmark pages", true).await;
        b.close().await;
    });
    let rows: Vec<Value> = rows
        .into_iter()
        .map(|(widget, event, data)| {
            let pairs = data[0].as_array().unwrap();
            let t: Vec<f64> = pairs.iter().filter_map(|p| p[0].as_f64()).collect();
            let with_layout: Vec<f64> = pairs.iter().filter_map(|p| p[1].as_f64()).collect();
            let (median, p90, max) = stats(t);
            let (layout_median, layout_p90, _) = stats(with_layout);
            // The profile: [render, parse, morph] of each update, medians.
            let part = |k: usize| {
                let v: Vec<f64> = data[1]
                    .as_array()
                    .map(|p| p.iter().filter_map(|e| e[k].as_f64()).collect())
                    .unwrap_or_default();
                if v.is_empty() { Value::Null } else { json!(stats(v).0) }
            };
            json!({"widget": widget, "event": event, "median_ms": median, "p90_ms": p90, "max_ms": max,
                   "with_layout_median_ms": layout_median, "with_layout_p90_ms": layout_p90,
                   "render_ms": part(0), "parse_ms": part(1), "morph_ms": part(2)})
        })
        .collect();
    let (dcl_median, _, _) = stats(dcl);
    let out = json!({
        "browser": version,
        "events": EVENTS,
        "events_by_widget": rows,
        "load_to_live_ms": loads,
        "dom_content_loaded_ms": dcl_median,
    });
    let path = mathcourse_tests::repo_dir().join("target/bench/widgets.json");
    std::fs::create_dir_all(path.parent().unwrap()).unwrap();
    std::fs::write(&path, serde_json::to_string_pretty(&out).unwrap()).unwrap();
    println!("{}", serde_json::to_string_pretty(&out).unwrap());
}

/// The plot's curve 0 as (x, y) data points, from its path and the SVG's mapping
/// (window x [-4, 4] over 38..312, y [-0.2, 1.2] over 188..8).
async fn plot_curve(b: &Browser, id: &str) -> Vec<(f64, f64)> {
    let d = b
        .js(
            "return document.querySelector('#' + arguments[0] + ' [data-curve=\"0\"]').getAttribute('d');",
            vec![json!(id)],
        )
        .await;
    d.as_str()
        .unwrap()
        .split(['M', 'L'])
        .filter(|s| !s.is_empty())
        .map(|p| {
            let (x, y) = p.split_once(' ').unwrap();
            let (sx, sy): (f64, f64) = (x.parse().unwrap(), y.parse().unwrap());
            (
                -4.0 + (sx - 38.0) / 274.0 * 8.0,
                -0.2 + (188.0 - sy) / 180.0 * 1.4,
            )
        })
        .collect()
}

/// Issue 22 §5 on screen: with no `y`, moving a slider to the end of its range keeps
/// the curve inside the picture; a tangent at a pole reads "undefined", live; a readout
/// shows exact digits; the axis carries the author's variable.
#[test]
fn browser_plot_window_holds_the_curve_and_a_pole_slope_is_undefined() {
    let _lock = browser_lock();
    let (_test, server) = serve_fixture(Csp::StrictWithPageHashes);
    run(async {
        let b = Browser::start(1200, 1400).await;
        let id = open_first_plot(&b, &server, "more/plot-window.html").await;
        assert_eq!(value(&b, &id, "r0").await, "slope of 1/t at b: undefined");
        assert_eq!(value(&b, &id, "r1").await, "2^70 = 1180591620717411303424");
        let labels = b
            .js(
                &format!("{SHOWN_JS} return [...document.querySelectorAll('#' + arguments[0] + ' .mc-w-axis-label')].map(shown);"),
                vec![json!(id)],
            )
            .await;
        assert_eq!(labels, json!(["t", "f(t)"]));
        // The height slider to its end (a = 3.5): the top of the path stays in the box
        // (user y 8..188) and reaches near its top edge.
        focus(&b, &id, "input[name=a]").await;
        press(&b, Key::End).await;
        assert_eq!(value(&b, &id, "p0").await, "3.5");
        let d = b
            .js(
                "return document.querySelector('#' + arguments[0] + ' [data-curve=\"0\"]').getAttribute('d');",
                vec![json!(id)],
            )
            .await;
        let ys: Vec<f64> = d
            .as_str()
            .unwrap()
            .split(['M', 'L'])
            .filter(|s| !s.is_empty())
            .map(|p| p.split_once(' ').unwrap().1.parse().unwrap())
            .collect();
        let top = ys.iter().copied().fold(f64::INFINITY, f64::min);
        assert!(ys.iter().all(|y| (8.0..=188.0).contains(y)), "{ys:?}");
        assert!(
            top < 30.0,
            "the peak a = 3.5 sits near the top edge, at {top}"
        );
        // The tangent point moved off the pole: d/dt 1/t = −1/t² = −4 at 0.5; back: undefined.
        focus(&b, &id, "[data-drag=t2]").await;
        press(&b, Key::Right).await;
        assert_eq!(value(&b, &id, "r0").await, "slope of 1/t at b: −4.00");
        press(&b, Key::Left).await;
        assert_eq!(value(&b, &id, "r0").await, "slope of 1/t at b: undefined");
        assert_no_errors(&b, "plot-window.html", false).await;
        b.close().await;
    });
}

#[test]
fn browser_plot_sliders_keys_and_tangent_drag_move_readouts_and_curves() {
    let _lock = browser_lock();
    let (_test, server) = serve_fixture(Csp::StrictWithPageHashes);
    run(async {
        let b = Browser::start(1200, 1400).await;
        let id = open_first_plot(&b, &server, "more/gallery.html").await;
        let sigma = |w: f64, bias: f64, x: f64| 1.0 / (1.0 + (-(w * x + bias)).exp());
        assert_eq!(value(&b, &id, "r1").await, "slope there: 0.250");

        // A real ArrowRight on the weight slider: w 1 → 1.1; then Shift+ArrowRight: +1.
        focus(&b, &id, "input[name=w]").await;
        press(&b, Key::Right).await;
        assert_eq!(value(&b, &id, "p0").await, "1.1");
        let shift: char = Key::Shift.into();
        let right: char = Key::Right.into();
        let keys = KeyActions::new("keyboard".into())
            .then(KeyAction::Down { value: shift })
            .then(KeyAction::Down { value: right })
            .then(KeyAction::Up { value: right })
            .then(KeyAction::Up { value: shift });
        b.client.perform_actions(keys).await.unwrap();
        b.client.release_actions().await.unwrap();
        assert_eq!(value(&b, &id, "p0").await, "2.1");
        let slider = b
            .js(
                "const i = document.querySelector('#' + arguments[0] + ' input[name=w]'); return [i.value, i.getAttribute('aria-valuetext')];",
                vec![json!(id)],
            )
            .await;
        assert_eq!(
            slider,
            json!(["2.1", "w = 2.1"]),
            "the focused slider shows the new value"
        );
        // The formula card above names `w` in its `controls`: its legend shows the value.
        b.wait_until(
            "const v = document.querySelector('[data-mc-sym=\"plot-w\"] [data-mc-value]'); return !!v && v.textContent === '= 2.1';",
            LIVE_TIMEOUT,
            "the card's legend to show w = 2.1",
        )
        .await;
        // Drag the bias slider (a real pointer drag on the range input) and read back.
        let rect = b
            .js(
                "const r = document.querySelector('#' + arguments[0] + ' input[name=b]').getBoundingClientRect(); return [r.left, r.top, r.width, r.height];",
                vec![json!(id)],
            )
            .await;
        let rect: Vec<f64> = rect
            .as_array()
            .unwrap()
            .iter()
            .map(|v| v.as_f64().unwrap())
            .collect();
        let rect = (rect[0], rect[1], rect[2], rect[3]);
        let (x0, y0) = (rect.0 + rect.2 / 2.0, rect.1 + rect.3 / 2.0);
        let path = [(x0, y0), (x0 + rect.2 / 4.0, y0)];
        b.drag(Pointer::Mouse, &path, Duration::from_millis(100))
            .await;
        let bias = number(&value(&b, &id, "p1").await);
        assert!(bias > 0.5 && bias < 2.5, "bias dragged to {bias}");
        let w = 2.1;
        // Readouts: the boundary −b/w and the slope w/4, as computed here.
        assert_eq!(
            number(&value(&b, &id, "r0").await),
            format!("{:.2}", -bias / w).parse::<f64>().unwrap()
        );
        assert_eq!(
            value(&b, &id, "r1").await,
            format!("slope there: {:.3}", w / 4.0)
        );
        // The curve's path follows σ(w x + b) at the new values.
        let pts = plot_curve(&b, &id).await;
        assert!(pts.len() > 40, "{pts:?}");
        for (x, y) in pts {
            assert!(
                (y - sigma(w, bias, x)).abs() < 0.02,
                "x {x}: {y} vs {}",
                sigma(w, bias, x)
            );
        }

        // Drag the tangent point to x = -1: its slope readout is σ'(−w + b)·w.
        let handle = "[data-drag=t2]";
        let at = |x: f64| 38.0 + (x + 4.0) / 8.0 * 274.0;
        let cy = b
            .js(
                "return +document.querySelector('#' + arguments[0] + ' ' + arguments[1]).getAttribute('cy');",
                vec![json!(id), json!(handle)],
            )
            .await
            .as_f64()
            .unwrap();
        let (px0, py0) = client_point(&b, &id, handle, at(1.0), cy).await;
        let (px1, py1) = client_point(&b, &id, handle, at(-1.0), cy).await;
        let path = [(px0, py0), (px1, py1)];
        b.drag(Pointer::Mouse, &path, Duration::from_millis(150))
            .await;
        let a = number(&value(&b, &id, "p2").await);
        assert!((a + 1.0).abs() < 0.1, "tangent point dragged to {a}");
        let s = sigma(w, bias, a);
        let slope = s * (1.0 - s) * w;
        let shown = value(&b, &id, "r2").await;
        assert_eq!(
            number(shown.split(':').nth(1).unwrap()),
            format!("{slope:.3}").parse::<f64>().unwrap(),
            "{shown}"
        );
        for theme in ["light", "rust", "coal", "navy", "ayu"] {
            set_theme(&b, theme).await;
            let (stroke, bg) = {
                let v = b
                    .js(
                        "const p = document.querySelector('#' + arguments[0] + ' [data-curve=\"0\"]');\
                         return [getComputedStyle(p).stroke, getComputedStyle(document.body).backgroundColor];",
                        vec![json!(id)],
                    )
                    .await;
                (
                    v[0].as_str().unwrap().to_string(),
                    v[1].as_str().unwrap().to_string(),
                )
            };
            assert!(
                stroke.starts_with("rgb") && stroke != bg,
                "{theme}: curve {stroke} on {bg}"
            );
        }
        set_theme(&b, "light").await;
        let shot = b.client.screenshot().await.unwrap();
        std::fs::write(screenshots_dir().join("plot-light.png"), shot).unwrap();
        assert_no_errors(&b, "gallery.html (plot)", false).await;
        b.close().await;
    });
}
