//! What the reader sees and hears, in real headless Chromium (issue 27): every widget
//! control named in its markup (before the widget is live, opened from disk, with
//! JavaScript off), the "where" list, print and the 404 page.

use std::time::Duration;

use mathcourse_tests::browser_support::{
    self, browser_lock, run, screenshots_dir, Browser, Csp, Server,
};
use mathcourse_tests::BookTest;
use serde_json::json;

/// The course book, built, served from 127.0.0.1 (no CSP header).
fn served_course_book() -> (BookTest, Server) {
    let mut book = BookTest::course_book();
    book.build();
    let server = Server::start(&book.root.join("book"), Csp::Off);
    (book, server)
}

/// JavaScript: the controls in `<main>` with no name in their markup: neither an
/// `aria-label` nor text of their own (CSS-drawn text does not count: not every tool
/// reads it).
const UNNAMED_CONTROLS_JS: &str = "return [...document.querySelectorAll('main button, main input, main select')]\
    .filter(e => !(e.getAttribute('aria-label') || '').trim() && !e.textContent.trim() && !(e.labels && [...e.labels].some(l => l.textContent.trim())))\
    .map(e => e.outerHTML.slice(0, 120));";

/// Widgets opened from disk stay their build-time markup, controls shown: every button,
/// field and select has a name in its markup, and axe-core finds nothing.
#[test]
fn reader_widget_controls_are_named_before_they_are_live() {
    let _lock = browser_lock();
    let mut test = BookTest::from_dir("widgets/all");
    test.build();
    run(async {
        let b = Browser::start(1200, 1400).await;
        for page in ["vectors.html", "more/gallery.html"] {
            let url = format!("file://{}", test.root.join("book").join(page).display());
            b.client.goto(&url).await.unwrap();
            let live = b
                .js(
                    "return document.querySelectorAll('[data-live]').length;",
                    vec![],
                )
                .await;
            assert_eq!(live, json!(0), "{page}: no widget goes live from file://");
            let controls = b
                .js(
                    "return document.querySelectorAll('main .mc-widget button, main .mc-widget input, main .mc-widget select').length;",
                    vec![],
                )
                .await;
            assert!(
                controls.as_u64().unwrap() > 0,
                "{page}: controls in the page"
            );
            let unnamed = b.js(UNNAMED_CONTROLS_JS, vec![]).await;
            assert_eq!(unnamed, json!([]), "{page}: controls with no name");
            let violations = browser_support::axe(&b).await;
            assert!(violations.is_empty(), "{page}: axe-core: {violations:#?}");
        }
        b.close().await;
    });
}

/// JavaScript: the "where" items whose meaning does not start on the line where the
/// symbol's button (or its value) ends, i.e. a line that ends with a lone ":".
const MEANING_ON_A_NEW_LINE_JS: &str = "return [...document.querySelectorAll('.mc-where-meaning')].filter(m => {\
      const prev = m.previousElementSibling, p = prev.getClientRects(), first = m.getClientRects()[0];\
      const last = p[p.length - 1];\
      return !(first.top < last.bottom && first.bottom > last.top); }).map(m => m.parentElement.textContent.trim());";

/// JavaScript: the "where" buttons narrower than 60 % of their list that are broken
/// over more than one line.
const SHORT_BUTTONS_WRAPPED_JS: &str = "return [...document.querySelectorAll('.mc-where-sym')].filter(s => s.getClientRects().length\
    && s.scrollWidth < s.closest('ul').clientWidth * 0.6 && s.getBoundingClientRect().height > 2.4 * parseFloat(getComputedStyle(s).fontSize)).map(s => s.textContent);";

/// A narrow column (a phone, a long symbol name): a "where" item wraps as a line of
/// text, its meaning starting right after the symbol's button and its colon, never on
/// a line of its own.
#[test]
fn reader_where_list_meaning_follows_its_symbol() {
    let _lock = browser_lock();
    let mut test = BookTest::from_dir("inspect/basic");
    test.build();
    let server = Server::start(&test.root.join("book"), Csp::StrictWithPageHashes);
    run(async {
        let b = Browser::start(390, 900).await;
        b.client.goto(&server.url("descent.html")).await.unwrap();
        b.wait_until(
            "return !!document.querySelector('[data-mc-inspect][data-mc-ready]');",
            Duration::from_secs(20),
            "inspect.js to set up the legend",
        )
        .await;
        for width in ["9em", "14em", "100%"] {
            b.js(
                "document.querySelectorAll('.mc-inspect').forEach(e => e.style.width = arguments[0]); return true;",
                vec![json!(width)],
            )
            .await;
            let count = b
                .js(
                    "return document.querySelectorAll('.mc-where-meaning').length;",
                    vec![],
                )
                .await;
            assert!(count.as_u64().unwrap() >= 3, "meanings in the where list");
            let apart = b.js(MEANING_ON_A_NEW_LINE_JS, vec![]).await;
            assert_eq!(
                apart,
                json!([]),
                "width {width}: meaning on a line of its own"
            );
        }
        b.js(
            "document.querySelector('.mc-inspect').scrollIntoView(); return true;",
            vec![],
        )
        .await;
        let dir = screenshots_dir();
        std::fs::create_dir_all(&dir).unwrap();
        b.screenshot(&dir.join("reader-where-narrow.png")).await;
        b.close().await;
    });
}

/// Both Pages workflows (the course's, and the one `init` writes) set `site-url` to where
/// Pages publishes, before building: the 404 page links its assets against it.
#[test]
fn reader_pages_workflows_set_site_url_from_the_pages_address() {
    let init = mdbook_mathcourse::init::files("T")
        .into_iter()
        .find(|(path, _)| path.ends_with("book.yml"))
        .expect("init writes a workflow")
        .1;
    let course =
        std::fs::read_to_string(mathcourse_tests::repo_dir().join(".github/workflows/pages.yml"))
            .unwrap();
    for (name, text) in [("init", init), ("pages.yml", course)] {
        let pages = text
            .find("uses: actions/configure-pages@")
            .unwrap_or_else(|| panic!("{name}: configure-pages"));
        let id = text[..pages].rfind("id: pages");
        let build = text
            .find("MDBOOK_OUTPUT__HTML__SITE_URL: ${{ steps.pages.outputs.base_path }}/")
            .unwrap_or_else(|| panic!("{name}: the build sets site-url from base_path"));
        assert!(
            id.is_some_and(|i| pages - i < 40),
            "{name}: configure-pages has id pages"
        );
        assert!(
            pages < build,
            "{name}: configure-pages runs before the build"
        );
    }
}

/// The 404 page of a book whose `site-url` says where it is served (what the workflows
/// set): served under that prefix, every asset loads and our styles apply.
#[test]
fn reader_404_page_is_styled_where_site_url_says() {
    let _lock = browser_lock();
    let mut test = BookTest::from_dir("widgets/all");
    let toml = std::fs::read_to_string(test.root.join("book.toml")).unwrap();
    let toml = if toml.contains("[output.html]") {
        toml.replace(
            "[output.html]",
            "[output.html]\nsite-url = \"/elsewhere/course/\"",
        )
    } else {
        format!("{toml}\n[output.html]\nsite-url = \"/elsewhere/course/\"\n")
    };
    test.change_file("book.toml", &toml);
    test.build();
    let server = Server::start_at(&test.root.join("book"), Csp::Off, "/elsewhere/course/");
    run(async {
        let b = Browser::start(1000, 800).await;
        b.client.goto(&server.url("404.html")).await.unwrap();
        b.wait_until(
            "return document.readyState === 'complete';",
            Duration::from_secs(20),
            "the 404 page",
        )
        .await;
        let seen = b
            .js(
                "return {failed: performance.getEntriesByType('resource').filter(e => e.responseStatus >= 400).map(e => e.name),\
                   ours: document.querySelectorAll('link[href*=\"mathcourse-assets/\"]').length,\
                   styled: getComputedStyle(document.querySelector('main') || document.body).getPropertyValue('--mc-muted').trim() !== ''};",
                vec![],
            )
            .await;
        assert_eq!(seen["failed"], json!([]), "{seen}");
        assert!(seen["ours"].as_u64().unwrap() >= 1, "{seen}");
        assert_eq!(seen["styled"], json!(true), "{seen}");
        b.close().await;
    });
}

/// JavaScript: what a still widget shows that only makes sense with its controls: the
/// visible elements whose text asks for a control, and every widget's "still picture"
/// note (drawn before its picture).
const STILL_WIDGETS_JS: &str = "const vis = el => el.getClientRects().length > 0 && getComputedStyle(el).visibility !== 'hidden';\
    return {\
      widgets: document.querySelectorAll('.mc-widget').length,\
      instructions: [...document.querySelectorAll('.mc-widget-root *')].map(e => (e.getAttribute('data-mc-t') || '') + [...e.childNodes].filter(n => n.nodeType === 3).map(n => n.nodeValue).join('') && vis(e) ? (e.getAttribute('data-mc-t') || '') + [...e.childNodes].filter(n => n.nodeType === 3).map(n => n.nodeValue).join('') : '').filter(t => /arrow keys|none yet|last draw|choose a/i.test(t)),\
      controls: [...document.querySelectorAll('.mc-widget :is(input, select, button)')].filter(vis).length,\
      notes: [...document.querySelectorAll('.mc-widget-root')].filter(r => !getComputedStyle(r, '::before').content.includes('still picture')).length,\
    };";

/// mdBook's print page (on screen) and a chapter with JavaScript off: each widget is a
/// still picture that says so, with no controls and none of the instructions for them;
/// axe-core finds nothing on the print page.
#[test]
fn reader_print_page_and_javascript_off_show_still_pictures() {
    let _lock = browser_lock();
    let (_book, server) = served_course_book();
    run(async {
        let b = Browser::start(1280, 900).await;
        let mut failures = Vec::new();
        b.client.goto(&server.url("print.html")).await.unwrap();
        b.wait_until(
            "return document.readyState === 'complete';",
            Duration::from_secs(30),
            "print.html",
        )
        .await;
        let seen = b.js(STILL_WIDGETS_JS, vec![]).await;
        if seen["widgets"].as_u64().unwrap() < 5
            || seen["instructions"] != json!([])
            || seen["controls"] != json!(0)
            || seen["notes"] != json!(0)
        {
            failures.push(format!("print.html: {seen}"));
        }
        shot_first(&b, ".mc-widget-attention", "reader-print-attention").await;
        let violations = browser_support::axe_with(
            &b,
            "{runOnly: {type: 'tag', values: ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'wcag22aa', 'best-practice']}}",
        )
        .await;
        if !violations.is_empty() {
            failures.push(format!("print.html: axe-core: {violations:#?}"));
        }
        b.cdp(
            "Emulation.setScriptExecutionDisabled",
            json!({"value": true}),
        )
        .await;
        for page in ["toolkit/softmax.html", "ai/module.html"] {
            b.client.goto(&server.url(page)).await.unwrap();
            let seen = b.js(STILL_WIDGETS_JS, vec![]).await;
            shot_first(
                &b,
                ".mc-widget",
                &format!("reader-nojs-{}", page.replace(['/', '.'], "_")),
            )
            .await;
            if seen["widgets"].as_u64().unwrap() < 1
                || seen["instructions"] != json!([])
                || seen["controls"] != json!(0)
                || seen["notes"] != json!(0)
            {
                failures.push(format!("{page} without JavaScript: {seen}"));
            }
        }
        b.close().await;
        assert!(failures.is_empty(), "{}", failures.join("\n"));
    });
}

/// A screenshot of the first element matching `selector` to
/// `target/screenshots/{name}.png`, for review.
async fn shot_first(b: &Browser, selector: &str, name: &str) {
    let el = b
        .client
        .find(fantoccini::Locator::Css(selector))
        .await
        .unwrap_or_else(|_| panic!("no {selector}"));
    let png = el.screenshot().await.unwrap();
    let dir = screenshots_dir();
    std::fs::create_dir_all(&dir).unwrap();
    std::fs::write(dir.join(format!("{name}.png")), png).unwrap();
}

/// JavaScript: each display formula or computation that scrolls sideways: whether it has
/// a tab stop, and the fade at its start and end (CSS lengths) now.
const SCROLLERS_JS: &str = "return [...document.querySelectorAll('main .katex-display, main .mc-check-computation')]\
    .filter(e => e.getClientRects().length > 0 && e.scrollWidth > e.clientWidth + 1)\
    .map(e => { const s = getComputedStyle(e); return {tex: (e.querySelector('[data-tex]') || e).getAttribute('data-tex') || '', tab: e.getAttribute('tabindex'),\
       start: parseFloat(s.getPropertyValue('--mc-fade-start')) || 0, end: parseFloat(s.getPropertyValue('--mc-fade-end')) || 0, mask: s.maskImage}; });";

/// On a phone (390 px), a display formula cut off by its box shows that there is more (a
/// fade at the cut edge, moving to the other edge as it scrolls) and takes keyboard focus,
/// so arrow keys scroll it; a formula that fits has no fade.
#[test]
fn reader_phone_wide_formulas_show_a_cue_and_scroll_by_keyboard() {
    let _lock = browser_lock();
    let (_book, server) = served_course_book();
    run(async {
        let b = Browser::start(1280, 900).await;
        b.emulate_viewport(390, 844, true).await;
        let mut seen_any = 0;
        for page in [
            "toolkit/logs-and-probability.html",
            "toolkit/variance.html",
            "ai/module.html",
        ] {
            b.client.goto(&server.url(page)).await.unwrap();
            b.wait_until(
                "return document.readyState === 'complete';",
                Duration::from_secs(20),
                page,
            )
            .await;
            tokio::time::sleep(Duration::from_millis(300)).await;
            let wide = b.js(SCROLLERS_JS, vec![]).await;
            for w in wide.as_array().unwrap() {
                seen_any += 1;
                assert_eq!(w["tab"], json!("0"), "{page}: a tab stop: {w}");
                assert!(
                    w["end"].as_f64().unwrap() > 10.0 && w["start"].as_f64().unwrap() == 0.0,
                    "{page}: a fade at the cut end only: {w}"
                );
            }
            // Scrolled to its end: the fade moves to the start.
            let moved = b
                .js(
                    "const e = [...document.querySelectorAll('main .katex-display')].find(e => e.scrollWidth > e.clientWidth + 1); if (!e) return null;\
                     e.scrollLeft = e.scrollWidth; return new Promise(r => requestAnimationFrame(() => requestAnimationFrame(() => { const s = getComputedStyle(e);\
                       r([parseFloat(s.getPropertyValue('--mc-fade-start')), parseFloat(s.getPropertyValue('--mc-fade-end'))]); })));",
                    vec![],
                )
                .await;
            if moved != json!(null) {
                assert!(
                    moved[0].as_f64().unwrap() > 10.0 && moved[1].as_f64().unwrap() == 0.0,
                    "{page}: scrolled to the end: {moved}"
                );
            }
            // A formula that fits: no fade.
            let fits = b
                .js(
                    "const e = [...document.querySelectorAll('main .katex-display')].find(e => e.getClientRects().length > 0 && e.scrollWidth <= e.clientWidth); if (!e) return null; const s = getComputedStyle(e);\
                     return [parseFloat(s.getPropertyValue('--mc-fade-start')) || 0, parseFloat(s.getPropertyValue('--mc-fade-end')) || 0];",
                    vec![],
                )
                .await;
            assert!(
                fits == json!(null)
                    || fits
                        .as_array()
                        .unwrap()
                        .iter()
                        .all(|v| v.as_f64() == Some(0.0)),
                "{page}: a formula that fits has no fade: {fits}"
            );
        }
        assert!(
            seen_any >= 3,
            "the phone pages have wide formulas ({seen_any})"
        );
        // The "where" list on a phone: a legend button that fits stays on one line, with
        // a meaning after it or not (ai/module.html: W and x have none).
        b.client.goto(&server.url("ai/module.html")).await.unwrap();
        let wrapped = b.js(SHORT_BUTTONS_WRAPPED_JS, vec![]).await;
        assert_eq!(wrapped, json!([]), "short legend buttons broken over lines");
        // Keyboard: Tab reaches a wide formula, the right arrow scrolls it.
        b.client
            .goto(&server.url("toolkit/logs-and-probability.html"))
            .await
            .unwrap();
        tokio::time::sleep(Duration::from_millis(300)).await;
        let scrolled = b
            .js(
                "const e = [...document.querySelectorAll('main .katex-display[tabindex=\"0\"]')][0]; e.scrollIntoView({block: 'center'}); e.focus(); return document.activeElement === e;",
                vec![],
            )
            .await;
        assert_eq!(scrolled, json!(true), "a wide formula takes focus");
        browser_support::press(&b, fantoccini::key::Key::Right).await;
        tokio::time::sleep(Duration::from_millis(400)).await;
        let left = b
            .js("return document.activeElement.scrollLeft;", vec![])
            .await;
        assert!(
            left.as_f64().unwrap() > 0.0,
            "the right arrow scrolls it: {left}"
        );
        b.js("document.activeElement.blur(); document.activeElement.scrollLeft = 0; window.scrollBy(0, -100); return true;", vec![]).await;
        tokio::time::sleep(Duration::from_millis(200)).await;
        let dir = screenshots_dir();
        std::fs::create_dir_all(&dir).unwrap();
        b.screenshot(&dir.join("reader-phone-wide-formula.png"))
            .await;
        b.close().await;
    });
}

/// A screen reader tells a bold vector from the italic number of the same letter: the
/// MathML of `\mathbf{x}` holds the bold character (Chrome ignores `mathvariant="bold"`
/// and would expose the italic letter), and the accessibility tree carries it.
#[test]
fn reader_bold_vectors_are_spoken_as_bold() {
    let _lock = browser_lock();
    let (_book, server) = served_course_book();
    run(async {
        let b = Browser::start(1280, 900).await;
        b.client
            .goto(&server.url("toolkit/vectors.html"))
            .await
            .unwrap();
        let seen = b
            .js(
                "const maths = [...document.querySelectorAll('main .katex-mathml math')];\
                 return {bold: maths.filter(m => /[\\u{1D400}-\\u{1D433}]/u.test(m.textContent)).length,\
                         plain: [...document.querySelectorAll('main mi[mathvariant=\"bold\"]')].filter(m => /^[A-Za-z0-9]+$/.test(m.textContent)).length};",
                vec![],
            )
            .await;
        assert!(
            seen["bold"].as_u64().unwrap() > 0,
            "bold characters in the MathML: {seen}"
        );
        assert_eq!(
            seen["plain"],
            json!(0),
            "no bold letter left to mathvariant: {seen}"
        );
        // The accessibility tree: some node's name holds a bold letter.
        let tree = b.cdp("Accessibility.getFullAXTree", json!({})).await;
        let names: Vec<String> = tree["nodes"]
            .as_array()
            .unwrap()
            .iter()
            .filter_map(|n| n["name"]["value"].as_str().map(str::to_string))
            .filter(|n| n.chars().any(|c| ('\u{1D400}'..='\u{1D433}').contains(&c)))
            .collect();
        assert!(
            !names.is_empty(),
            "no bold letter in the accessibility tree"
        );
        b.close().await;
    });
}

/// The text of mdBook's search index of the book built in `out` (`searchindex*.js`).
fn search_index(out: &std::path::Path) -> String {
    std::fs::read_dir(out)
        .unwrap()
        .flatten()
        .map(|e| e.path())
        .find(|p| {
            let name = p.file_name().unwrap().to_string_lossy();
            name.starts_with("searchindex") && name.ends_with(".js")
        })
        .map(|p| std::fs::read_to_string(p).unwrap())
        .expect("a search index")
}

/// mdBook's search index holds what a reader searches for, once: not the symbol walk's
/// own words, and each symbol's meaning once per card (the legend; the walk copies it in
/// the browser). The walk still shows them.
#[test]
fn reader_search_index_has_no_walk_words_and_each_meaning_once() {
    let _lock = browser_lock();
    let mut test = BookTest::from_dir("inspect/basic");
    test.build();
    let out = test.root.join("book");
    let index = search_index(&out);
    for chrome in ["Where it is defined", "Inspect symbol by symbol"] {
        assert_eq!(
            index.matches(chrome).count(),
            0,
            "{chrome:?} in the search index"
        );
    }
    // "The vector of partial derivatives": descent.md's symbol table and its update
    // rule's legend, softmax.md's card legend and the notation index; the two walks
    // (one per card) no longer hold a copy.
    assert_eq!(
        index.matches("The vector of partial derivatives").count(),
        4,
        "a meaning indexed once per block"
    );
    let server = Server::start(&out, Csp::StrictWithPageHashes);
    run(async {
        let b = Browser::start(1200, 900).await;
        b.client.goto(&server.url("descent.html")).await.unwrap();
        b.wait_until(
            "return !!document.querySelector('[data-mc-inspect][data-mc-ready]');",
            Duration::from_secs(20),
            "inspect.js to set up the legend",
        )
        .await;
        b.js(
            "document.querySelector('#formula-1 .mc-walk summary').click(); return true;",
            vec![],
        )
        .await;
        let step = b
            .js(
                "const s = [...document.querySelectorAll('#formula-1 .mc-walk-step')].find(s => !s.hidden); const m = s.querySelector('.mc-walk-meaning');\
                 return {meaning: m && m.textContent, summary: document.querySelector('#formula-1 .mc-walk summary').getAttribute('aria-label'),\
                         drawn: getComputedStyle(document.querySelector('#formula-1 .mc-walk summary'), '::before').content};",
                vec![],
            )
            .await;
        assert_eq!(
            step["meaning"],
            json!("The parameters after the next step"),
            "{step}"
        );
        assert_eq!(step["summary"], json!("Inspect symbol by symbol"), "{step}");
        assert!(
            step["drawn"]
                .as_str()
                .unwrap()
                .contains("Inspect symbol by symbol"),
            "{step}"
        );
        let violations = browser_support::axe(&b).await;
        assert!(violations.is_empty(), "axe-core: {violations:#?}");
        b.close().await;
    });
}

/// JavaScript: selects `arguments[0]` (`display`: a whole display formula, `inline`: the
/// glyphs of an inline one, else a paragraph with a formula) and fires a copy event (as
/// Ctrl+C does); returns the plain text put on the clipboard.
const COPY_JS: &str = "const r = arguments[0] === 'display' ? (() => { const r = document.createRange(); r.selectNode(document.querySelector('main .katex-display')); return r; })()\
      : arguments[0] === 'inline' ? (() => { const k = [...document.querySelectorAll('main p .katex')][0]; const r = document.createRange(); r.selectNodeContents(k.querySelector('.katex-html')); return r; })()\
      : (() => { const p = [...document.querySelectorAll('main p')].find(p => p.querySelector('.katex') && p.textContent.length > 80); const r = document.createRange(); r.selectNodeContents(p); return r; })();\
    const s = getSelection(); s.removeAllRanges(); s.addRange(r);\
    const data = new DataTransfer(); const e = new ClipboardEvent('copy', {clipboardData: data, bubbles: true, cancelable: true});\
    document.activeElement.dispatchEvent(e); return e.defaultPrevented ? data.getData('text/plain') : 'not handled: ' + s.toString();";

/// Formulas survive: with the course stylesheet blocked they still show their glyphs
/// (KaTeX's stylesheet draws them too); copying a formula gives its TeX (`$…$`, `$$…$$`),
/// copying a paragraph gives its text with the formula as TeX.
#[test]
fn reader_formulas_survive_a_missing_stylesheet_and_copy_as_tex() {
    let _lock = browser_lock();
    let (_book, server) = served_course_book();
    run(async {
        let b = Browser::start(1280, 900).await;
        b.client
            .goto(&server.url("toolkit/softmax.html"))
            .await
            .unwrap();
        let display = b.js(COPY_JS, vec![json!("display")]).await;
        let display = display.as_str().unwrap().to_string();
        assert!(
            display.starts_with("$$") && display.ends_with("$$") && display.len() > 6,
            "a display formula copies as $$TeX$$: {display:?}"
        );
        let inline = b.js(COPY_JS, vec![json!("inline")]).await;
        let inline = inline.as_str().unwrap().to_string();
        assert!(
            inline.starts_with('$') && !inline.starts_with("$$") && inline.ends_with('$'),
            "an inline formula copies as $TeX$: {inline:?}"
        );
        let para = b.js(COPY_JS, vec![json!("paragraph")]).await;
        let para = para.as_str().unwrap().to_string();
        assert!(
            para.contains('$') && !para.contains('\u{1D467}') && !para.contains("\n\u{2061}"),
            "a paragraph copies as text with its formulas as TeX: {para:?}"
        );
        // The course stylesheet blocked: every formula still draws its glyphs.
        b.cdp("Network.enable", json!({})).await;
        reload_blocking(&b, "*mathcourse.css*", "the page without mathcourse.css").await;
        let blank = b
            .js(
                "return [...document.querySelectorAll('main .katex-html')].filter(h => { const g = h.querySelector('[data-mc-t]');\
                   return g && getComputedStyle(g, '::before').content === 'none'; }).length;",
                vec![],
            )
            .await;
        let styled = b
            .js(
                "return [...document.styleSheets].some(s => (s.href || '').includes('mathcourse.css') && (() => { try { return s.cssRules.length > 0; } catch (e) { return false; } })());",
                vec![],
            )
            .await;
        assert_eq!(styled, json!(false), "mathcourse.css is blocked");
        assert_eq!(blank, json!(0), "formulas with no glyphs drawn");
        // KaTeX's stylesheet blocked instead: the MathML is no longer clipped away, so
        // the browser draws each formula from it.
        reload_blocking(&b, "*katex.min.css*", "the page without katex.min.css").await;
        let hidden = b
            .js(
                "return [...document.querySelectorAll('main .katex-mathml math')].filter(m => { const r = m.getBoundingClientRect(); return r.width < 4 || r.height < 4; }).length;",
                vec![],
            )
            .await;
        assert_eq!(
            hidden,
            json!(0),
            "formulas whose MathML is not drawn without katex.min.css"
        );
        b.close().await;
    });
}

/// Reloads the page with requests matching `pattern` blocked (network enabled first).
async fn reload_blocking(b: &Browser, pattern: &str, what: &str) {
    b.cdp("Network.setBlockedURLs", json!({"urls": [pattern]}))
        .await;
    b.client.refresh().await.unwrap();
    b.wait_until(
        "return document.readyState === 'complete';",
        Duration::from_secs(20),
        what,
    )
    .await;
}

/// axe-core's WCAG 2.2 A and AA rules.
const WCAG_AA: &str =
    "{runOnly: {type: 'tag', values: ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'wcag22aa']}}";

/// Every theme at WCAG AA, mdBook's own chrome (menu bar, sidebar, toggle) included:
/// axe-core's WCAG 2.2 A/AA rules on the whole page find nothing, on every page (but
/// print.html, see above, and the 404 page, whose links need the published prefix), in
/// all five themes. `READER_PAGES=a.html,b/c.html` for some pages only.
#[test]
fn reader_every_theme_passes_wcag_aa_on_the_whole_page() {
    let _lock = browser_lock();
    let (book, server) = served_course_book();
    let pages: Vec<String> = std::env::var("READER_PAGES")
        .map(|p| p.split(',').map(str::to_string).collect())
        .unwrap_or_else(|_| every_page(&book.root.join("book")));
    run(async {
        let b = Browser::start(1280, 900).await;
        let mut failures = Vec::new();
        for page in &pages {
            for theme in browser_support::THEMES {
                // As the theme menu does it: mdBook also swaps its highlight.js sheets.
                b.client.goto(&server.url(page)).await.unwrap();
                b.js(
                    "localStorage.setItem('mdbook-theme', arguments[0]); return true;",
                    vec![json!(theme)],
                )
                .await;
                b.client.refresh().await.unwrap();
                b.wait_until(
                    &format!("return document.readyState === 'complete' && document.documentElement.classList.contains('{theme}');"),
                    Duration::from_secs(20),
                    page,
                )
                .await;
                let violations = browser_support::axe_in(&b, "document", WCAG_AA).await;
                for v in violations {
                    failures.push(format!("{page} ({theme}): {v}"));
                }
            }
        }
        b.close().await;
        assert!(
            failures.is_empty(),
            "{} violations:\n{}",
            failures.len(),
            failures.join("\n")
        );
    });
}

/// Every HTML page of the built book in `out` (paths with `/`), but the 404 page, the
/// sidebar's `toc.html` and `print.html`.
fn every_page(out: &std::path::Path) -> Vec<String> {
    fn walk(dir: &std::path::Path, out: &std::path::Path, pages: &mut Vec<String>) {
        for e in std::fs::read_dir(dir).unwrap().flatten() {
            let p = e.path();
            if p.is_dir() {
                walk(&p, out, pages);
            } else if p.extension().is_some_and(|x| x == "html") {
                let rel = p
                    .strip_prefix(out)
                    .unwrap()
                    .to_string_lossy()
                    .replace('\\', "/");
                if !matches!(rel.as_str(), "404.html" | "toc.html" | "print.html") {
                    pages.push(rel);
                }
            }
        }
    }
    let mut pages = Vec::new();
    walk(out, out, &mut pages);
    pages.sort();
    pages
}

/// Find in page (Ctrl+F, `window.find`) for a formula's symbol highlights where the
/// formula is shown: the match lands in the MathML copy (the visual copy's text is
/// drawn by CSS), which lies over the visual formula, invisible, instead of in a 1-px
/// clipped box. Clicks still reach the visual formula under it.
#[test]
fn reader_find_in_page_highlights_the_formula_where_it_is_shown() {
    let _lock = browser_lock();
    let (_book, server) = served_course_book();
    run(async {
        let b = Browser::start(1280, 900).await;
        b.client
            .goto(&server.url("toolkit/softmax.html"))
            .await
            .unwrap();
        b.wait_until(
            "return document.readyState === 'complete';",
            Duration::from_secs(20),
            "the softmax page",
        )
        .await;
        let found = b
            .js(
                "window.getSelection().removeAllRanges();\
                 if (!window.find('\u{2211}')) return 'not found';\
                 const range = window.getSelection().getRangeAt(0);\
                 const math = range.startContainer.parentElement.closest('.katex-mathml');\
                 if (!math) return 'the match is not in a formula';\
                 const r = range.getBoundingClientRect();\
                 const box = math.getBoundingClientRect();\
                 const visual = math.parentElement.querySelector('.katex-html').getBoundingClientRect();\
                 const x = r.left + r.width / 2, y = r.top + r.height / 2;\
                 const inside = (b) => x >= b.left && x <= b.right && y >= b.top && y <= b.bottom;\
                 window.scrollTo(0, window.scrollY + r.top - 200);\
                 return {w: r.width, h: r.height, box: box.width, inBox: inside(box), onFormula: inside(visual),\
                   color: getComputedStyle(math).color, events: getComputedStyle(math).pointerEvents};",
                vec![],
            )
            .await;
        b.screenshot(&screenshots_dir().join("reader-find-in-page.png"))
            .await;
        assert!(found.is_object(), "{found}");
        assert!(
            found["w"].as_f64().unwrap() >= 4.0 && found["h"].as_f64().unwrap() >= 4.0,
            "the highlighted match has a visible size: {found}"
        );
        assert_eq!(found["inBox"], json!(true), "{found}");
        assert_eq!(
            found["onFormula"],
            json!(true),
            "the match lies over the formula as shown: {found}"
        );
        assert_eq!(found["color"], json!("rgba(0, 0, 0, 0)"), "{found}");
        assert_eq!(found["events"], json!("none"), "{found}");
        b.close().await;
    });
}

/// The course's pages with widget pictures that have labels.
const PICTURE_PAGES: [&str; 4] = [
    "ai/module.html",
    "toolkit/dot-product.html",
    "toolkit/variance.html",
    "toolkit/derivatives.html",
];

/// The text nodes inside the widget pictures (`<svg class="mc-w-svg …">`) of `html`,
/// other than a `<desc>` (a figure's one description, worth finding).
fn picture_text(html: &str) -> Vec<String> {
    let mut found = Vec::new();
    let mut rest = html;
    while let Some(start) = rest.find("<svg class=\"mc-w-svg") {
        let end = rest[start..]
            .find("</svg>")
            .map_or(rest.len(), |e| start + e);
        let mut svg = &rest[start..end];
        rest = &rest[end..];
        let mut text = String::new();
        while let Some(open) = svg.find('<') {
            text.push_str(&svg[..open]);
            let tag_end = svg[open..].find('>').map_or(svg.len(), |e| open + e + 1);
            let tag = &svg[open..tag_end];
            svg = &svg[tag_end..];
            if tag.starts_with("<desc") {
                svg = &svg[svg.find("</desc>").unwrap_or(0)..];
            }
        }
        text.push_str(svg);
        if !text.trim().is_empty() {
            found.push(text.trim().to_string());
        }
    }
    found
}

/// JavaScript: every label drawn in the widget pictures of the page (and the attention
/// heatmap's cells), shown (not hidden by a narrow screen): its text as data, the text
/// CSS draws, its colour, its size and whether it lies inside its widget.
const PICTURE_LABELS_JS: &str = "return [...document.querySelectorAll('main .mc-w-svg .mc-w-label > span, main .mc-w-heat-grid > [data-mc-t]')]\
    .filter(s => s.getClientRects().length > 0)\
    .map(s => { const r = s.getBoundingClientRect(); const f = s.closest('.mc-widget').getBoundingClientRect();\
      return {text: s.getAttribute('data-mc-t'), drawn: getComputedStyle(s, '::before').content, color: getComputedStyle(s).color,\
        w: r.width, h: r.height, inside: r.left >= f.left - 1 && r.right <= f.right + 1}; });";

/// The text in widget pictures (tick numbers, bar values and names, the heatmap's
/// cells) is drawn, but not put into mdBook's search index, whose result snippets it
/// filled ("−6 −4 −2 0 2 4 6 0.0 0.2…"): the pictures hold no text nodes (but a
/// `<desc>`), the index holds none of the sequences, and in the browser (JS on,
/// so after the live redraw, at 390 px, light and coal) each label draws its text inside
/// its widget, and no label's box makes the page or a widget scroll sideways.
#[test]
fn reader_widget_picture_text_is_drawn_but_not_indexed() {
    let _lock = browser_lock();
    let (book, server) = served_course_book();
    let out = book.root.join("book");
    let mut failures = Vec::new();
    for page in PICTURE_PAGES {
        let html = std::fs::read_to_string(out.join(page)).unwrap();
        if !html.contains("mc-w-label") {
            failures.push(format!("{page}: no picture labels"));
        }
        for text in picture_text(&html) {
            failures.push(format!("{page}: text in a picture: {text:?}"));
        }
    }
    let index = search_index(&out);
    for seq in [
        "−6 −4 −2 0 2 4 6",
        "−4 −2 0 2 4",
        "0.0 0.2 0.4",
        "% cat",
        "% mat",
    ] {
        if index.contains(seq) {
            failures.push(format!("{seq:?} in the search index"));
        }
    }
    assert!(failures.is_empty(), "{failures:#?}");
    run(async {
        let b = Browser::start(1280, 900).await;
        b.emulate_viewport(390, 844, true).await;
        let mut seen = 0;
        for page in PICTURE_PAGES {
            b.client.goto(&server.url(page)).await.unwrap();
            let ids = b
                .js(
                    "return [...document.querySelectorAll('main .mc-widget')].map(f => f.id);",
                    vec![],
                )
                .await;
            for id in ids.as_array().unwrap() {
                let id = id.as_str().unwrap();
                b.wait_widget_live(id).await;
            }
            // A label's box reaches past its picture (the text may overflow it), never
            // past the page: nothing scrolls sideways on a phone.
            let wide = b
                .js("const e = document.scrollingElement; return [e.scrollWidth, e.clientWidth, ...[...document.querySelectorAll('main .mc-widget')].map(f => f.scrollWidth - f.clientWidth)];", vec![])
                .await;
            let wide: Vec<i64> = wide
                .as_array()
                .unwrap()
                .iter()
                .map(|v| v.as_i64().unwrap())
                .collect();
            if wide[0] > wide[1] || wide[2..].iter().any(|&d| d > 0) {
                failures.push(format!(
                    "{page}: scrolls sideways at 390 px (page, then each widget): {wide:?}"
                ));
            }
            let mut colours = Vec::new();
            for theme in ["light", "coal"] {
                browser_support::set_theme(&b, theme).await;
                let labels = b.js(PICTURE_LABELS_JS, vec![]).await;
                let labels = labels.as_array().unwrap();
                assert!(!labels.is_empty(), "{page}: no picture labels shown");
                colours.push(
                    labels
                        .iter()
                        .map(|l| l["color"].clone())
                        .collect::<Vec<_>>(),
                );
                for l in labels {
                    let text = l["text"].as_str().unwrap();
                    let drawn = format!("\"{text}\"");
                    let visible = l["drawn"].as_str() == Some(&drawn)
                        && (text.is_empty()
                            || l["w"].as_f64().unwrap() > 1.0 && l["h"].as_f64().unwrap() > 4.0)
                        && l["inside"] == json!(true);
                    if !visible {
                        failures.push(format!(
                            "{page} ({theme}): label not drawn in its widget: {l}"
                        ));
                    }
                }
                seen += labels.len();
            }
            // The theme's colours: no label keeps its light colour on coal's dark page.
            for (light, coal) in colours[0].iter().zip(&colours[1]) {
                if light == coal {
                    failures.push(format!("{page}: a label is {light} in light and coal"));
                }
            }
            for theme in ["light", "coal"] {
                browser_support::set_theme(&b, theme).await;
                for widget in ["plot", "attention", "sqrt-d", "gd-1d"] {
                    let selector = format!(".mc-widget[data-widget={widget}]");
                    let here = b
                        .js(
                            &format!("return !!document.querySelector('{selector}');"),
                            vec![],
                        )
                        .await;
                    if here == json!(true) {
                        shot_first(
                            &b,
                            &selector,
                            &format!("reader-picture-labels-{widget}-{theme}"),
                        )
                        .await;
                    }
                }
            }
        }
        assert!(seen > 100, "{seen} labels checked");
        assert!(failures.is_empty(), "{failures:#?}");
        b.close().await;
    });
}
