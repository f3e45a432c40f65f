//! What the reader sees and hears, in real headless Chromium (issue 27): every widget
//! control named in its markup (before the widget is live, opened from disk, with
//! JavaScript off), the "where" list, print and the 404 page.

use mathcourse_tests::browser_support::{self, browser_lock, run, Browser};
use mathcourse_tests::BookTest;
use serde_json::json;

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
