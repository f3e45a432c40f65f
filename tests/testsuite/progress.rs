//! Reading progress ("n of m sections read", kept in the browser): in real Chromium, a
//! section counts once its end has been on screen, jumping past one does not, the count
//! survives a reload, "Start over" works from the keyboard, and axe finds nothing.

use std::time::Duration;

use fantoccini::key::Key;
use mathcourse_tests::browser_support::{self, press, Browser, Csp, Server};
use mathcourse_tests::BookTest;
use serde_json::{json, Value};

const READY: &str = "return !!document.querySelector('.mc-progress[data-mc-ready]');";

/// (sections read, status text, ids of headings marked read, "Continue with" target).
async fn state(b: &Browser) -> Value {
    b.js(
        "const box = document.querySelector('.mc-progress');
         const next = box.querySelector('.mc-progress-next a');
         return [Number(box.dataset.read),
                 box.querySelector('.mc-progress-status').textContent,
                 [...document.querySelectorAll('main > h2.mc-read')].map(h => h.id),
                 next ? next.getAttribute('href') : null];",
        vec![],
    )
    .await
}

async fn wait_read(b: &Browser, n: u32) {
    b.wait_until(
        &format!("return document.querySelector('.mc-progress').dataset.read === '{n}';"),
        Duration::from_secs(15),
        &format!("{n} sections read"),
    )
    .await;
}

#[test]
fn sections_count_when_their_end_was_seen_and_the_count_is_kept() {
    let _lock = browser_support::browser_lock();
    let mut test = BookTest::from_dir("progress/basic");
    test.build();
    let long = test.main_of("long.html");
    assert!(
        test.head_of("long.html")
            .contains("/progress.js\" defer></script>"),
        "{long}"
    );
    let server = Server::start(&test.root.join("book"), Csp::StrictWithPageHashes);
    browser_support::run(async {
        let b = Browser::start(1200, 700).await;
        b.client.goto(&server.url("long.html")).await.unwrap();
        b.wait_until(READY, Duration::from_secs(20), "progress.js")
            .await;
        assert_eq!(
            state(&b).await,
            json!([0, "0 of 3 sections read.", [], null])
        );
        let placed = b
            .js(
                "const box = document.querySelector('.mc-progress');
                 return [box.previousElementSibling.tagName,
                         box.querySelector('.mc-progress-reset').hidden];",
                vec![],
            )
            .await;
        assert_eq!(
            placed,
            json!(["H1", true]),
            "under the title; nothing to reset"
        );

        // Reading to the end of the first section (the second heading comes into view).
        b.js(
            "document.getElementById('second-part').scrollIntoView({block: 'center'}); return true;",
            vec![],
        )
        .await;
        wait_read(&b, 1).await;
        assert_eq!(
            state(&b).await,
            json!([
                1,
                "1 of 3 sections read. Continue with Second part.",
                ["first-part"],
                "#second-part"
            ])
        );
        let mark = b
            .js(
                "return getComputedStyle(document.getElementById('first-part'), '::after').content;",
                vec![],
            )
            .await;
        assert_eq!(mark, json!("\"✓ read\""), "a text mark, not colour alone");

        // Jumping to the end of the chapter: the last section counts, the skipped second
        // one does not (its end never came into view).
        b.js(
            "window.scrollTo(0, document.documentElement.scrollHeight); return true;",
            vec![],
        )
        .await;
        wait_read(&b, 2).await;
        assert_eq!(
            state(&b).await,
            json!([
                2,
                "2 of 3 sections read. Continue with Second part.",
                ["first-part", "third-part"],
                "#second-part"
            ])
        );

        // Kept in the browser: a reload shows the same count.
        b.js("window.scrollTo(0, 0); return true;", vec![]).await;
        let png = b.client.screenshot().await.unwrap();
        let dir = browser_support::screenshots_dir();
        std::fs::create_dir_all(&dir).unwrap();
        std::fs::write(dir.join("progress.png"), png).unwrap();
        b.client.refresh().await.unwrap();
        b.wait_until(READY, Duration::from_secs(20), "progress.js after a reload")
            .await;
        assert_eq!(state(&b).await[0], json!(2));

        // axe-core on the page with the status line and the marks.
        let violations = browser_support::axe(&b).await;
        assert!(violations.is_empty(), "axe: {violations:#?}");

        // "Start over" from the keyboard.
        b.js(
            "document.querySelector('.mc-progress-reset').focus(); return true;",
            vec![],
        )
        .await;
        press(&b, Key::Enter).await;
        assert_eq!(
            state(&b).await,
            json!([0, "0 of 3 sections read.", [], null])
        );
        let stored = b
            .js(
                "return Object.keys(localStorage).filter(k => k.startsWith('mathcourse-read:'));",
                vec![],
            )
            .await;
        assert_eq!(stored, json!([]), "nothing left in storage");

        // Reading every section in order: all read.
        for id in ["second-part", "third-part"] {
            b.js(
                &format!("document.getElementById('{id}').scrollIntoView({{block: 'center'}}); return true;"),
                vec![],
            )
            .await;
            let n = if id == "second-part" { 1 } else { 2 };
            wait_read(&b, n).await;
        }
        b.js(
            "window.scrollTo(0, document.documentElement.scrollHeight); return true;",
            vec![],
        )
        .await;
        wait_read(&b, 3).await;
        assert_eq!(state(&b).await[1], json!("All 3 sections read."));

        // No status line for a chapter with one section, nor on the print page.
        for page in ["short.html", "print.html"] {
            b.client.goto(&server.url(page)).await.unwrap();
            b.wait_until(
                "return document.readyState === 'complete';",
                Duration::from_secs(20),
                page,
            )
            .await;
            let shown = b
                .js("return !!document.querySelector('.mc-progress');", vec![])
                .await;
            assert_eq!(shown, json!(false), "{page}");
        }

        let errors: Vec<_> = b
            .console()
            .await
            .into_iter()
            .filter(|(level, _)| level == "SEVERE")
            .collect();
        assert!(errors.is_empty(), "console errors: {errors:?}");
        b.close().await;
    });
}
