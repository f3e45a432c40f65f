//! Symbol inspection: tagged formulas, the "where" legend, the walk, the generated
//! notation and claims indexes; in real Chromium: hover, focus, arrow keys, tap, and an
//! axe-core audit.

use std::time::Duration;

use fantoccini::actions::{InputSource, MouseActions, PointerAction};
use fantoccini::key::Key;
use mathcourse_tests::browser_support::{self, Browser, Csp, Pointer, Server};
use mathcourse_tests::{check_snapshot, process, BookTest};
use serde_json::{json, Value};

use super::check::stable_main;

/// `data-mc-sym` ids of the legend buttons of the element `#id`, in order.
fn legend(main: &str, id: &str) -> Vec<String> {
    let start = main
        .find(&format!("id=\"{id}\""))
        .unwrap_or_else(|| panic!("no #{id}"));
    let rest = &main[start..];
    let rest = &rest[..rest.find("</ul>").expect("legend list")];
    rest.split("class=\"mc-where-sym\" data-mc-sym=\"")
        .skip(1)
        .map(|s| s[..s.find('"').unwrap()].to_string())
        .collect()
}

#[test]
fn formulas_are_tagged_and_get_a_legend() {
    let mut test = BookTest::from_dir("inspect/basic");
    test.build();
    let descent = test.main_of("descent.html");
    assert_eq!(
        legend(&descent, "formula-1"),
        ["theta-next", "theta-t", "eta", "grad", "loss"]
    );
    // Tagged in the visual HTML; θ_t occurs twice.
    let tagged = descent.matches("data-mc-sym=\"theta-t\"").count();
    assert_eq!(
        tagged,
        2 + 3,
        "formula twice, legend item, button, walk step"
    );
    // The symbols' definition anchors exist (the notation index links to them).
    assert!(descent.contains("<tr id=\"sym-theta-t\">"), "{descent}");
    assert!(
        descent.contains("<span class=\"mc-where-name\">eta</span></button>"),
        "legend buttons carry the name as text"
    );
    assert!(descent.contains("id=\"claim-1\""));
    let softmax = test.main_of("softmax.html");
    assert_eq!(
        legend(&softmax, "eq-softmax"),
        ["p-i", "euler", "z-i", "temp", "idx-j", "z-j"]
    );
    // The inspectable math block uses symbols of another chapter and the symbols file.
    assert_eq!(
        legend(&softmax, "eq-update-size"),
        ["eta", "grad", "loss", "real"]
    );
    assert!(
        softmax.contains("href=\"descent.html#sym-eta\""),
        "the walk links to the definition: {softmax}"
    );
}

#[test]
fn notation_and_claims_indexes() {
    let mut test = BookTest::from_dir("inspect/basic");
    test.build();
    check_snapshot(
        &stable_main(&test, "notation.html"),
        &test.fixture.join("expected/notation.html"),
    );
    check_snapshot(
        &stable_main(&test, "claims.html"),
        &test.fixture.join("expected/claims.html"),
    );
    // Moving a chapter keeps every link right: the indexes are generated on each build.
    test.change_file(
        "src/SUMMARY.md",
        "# Summary\n\n- [Softmax](softmax.md)\n- [Indexes](notation.md)\n  - [Claims](claims.md)\n- [Gradient descent](part/descent.md)\n",
    );
    let descent = std::fs::read_to_string(test.root.join("src/descent.md")).unwrap();
    test.change_file("src/part/descent.md", &descent);
    std::fs::remove_file(test.root.join("src/descent.md")).unwrap();
    test.build();
    let notation = test.main_of("notation.html");
    assert!(
        notation.contains("href=\"part/descent.html#sym-eta\""),
        "{notation}"
    );
    let claims = test.main_of("claims.html");
    assert!(
        claims.contains("href=\"part/descent.html#claim-1\""),
        "{claims}"
    );
}

/// The notation index has one entry per glyph and meaning: a chip without a meaning and
/// chapters that describe the same symbol in their own words merge into one entry
/// (with every "defined in" link); `overloaded` glyphs and different meanings within one
/// chapter keep an entry each.
#[test]
fn notation_index_merges_one_symbol_defined_in_several_chapters() {
    let mut test = BookTest::from_dir("inspect/basic");
    test.change_file(
        "src/SUMMARY.md",
        "# Summary\n\n- [One](one.md)\n- [Two](two.md)\n- [Notation](notation.md)\n",
    );
    test.change_file(
        "src/one.md",
        "# One\n\n:::{symbols}\n---\n- {id: th, tex: '\\theta', name: Theta (the parameters)}\n---\n:::\n\n:::{symbol-table} T\n---\n- {id: th, tex: '\\theta', read: theta, meaning: All the parameters}\n- {id: s-std, tex: '\\sigma', read: sigma, meaning: A standard deviation, overloaded: true}\n---\n:::\n",
    );
    test.change_file(
        "src/two.md",
        "# Two\n\n:::{symbol-table} T\n---\n- {id: th2, tex: '\\theta', read: theta, meaning: The parameters as one long vector}\n- {id: s-act, tex: '\\sigma', read: sigma, meaning: An activation function, overloaded: true}\n- {id: pos, tex: 'j', read: j, meaning: A position}\n- {id: cand, tex: 'j', read: j, meaning: A candidate}\n---\n:::\n",
    );
    test.build();
    let index = test.main_of("notation.html");
    let entries: Vec<&str> = index
        .split("<div class=\"mc-notation-entry\"")
        .skip(1)
        .collect();
    let with = |needle: &str| entries.iter().filter(|e| e.contains(needle)).count();
    assert_eq!(with("data-tex=\"&#92;theta\""), 1, "{index}");
    let theta = entries.iter().find(|e| e.contains("&#92;theta")).unwrap();
    assert!(theta.contains("Theta (the parameters)"), "{theta}");
    assert!(theta.contains("All the parameters"), "{theta}");
    // Both definitions are linked, in book order.
    let (one, two) = (
        theta.find("one.html#sym-th"),
        theta.find("two.html#sym-th2"),
    );
    assert!(one.is_some() && two.is_some() && one < two, "{theta}");
    assert_eq!(with("data-tex=\"&#92;sigma\""), 2, "{index}");
    assert_eq!(with("data-tex=\"j\""), 2, "{index}");
}

/// A symbol is typeset everywhere as in the chapter that defines it (with that
/// chapter's macros), and a mistake in it is reported once, at the definition, however
/// many legends and indexes show it.
#[test]
fn symbols_use_their_chapters_macros_and_errors_are_reported_once_at_the_definition() {
    let mut test = BookTest::from_dir("inspect/basic");
    test.change_file(
        "src/claims.md",
        "---\nmacros:\n  \\V: \\mathbf{v}\n---\n# Claims\n\n:::{symbol-table} Here\n---\n- {id: vee, tex: '\\V', read: vee, meaning: 'Half: $\\frca{1}{2}$ of it'}\n---\n:::\n\n:::{math}\n:inspect: true\n\\V + \\V\n:::\n",
    );
    let err = test.build_error();
    assert_eq!(err.matches("error:").count(), 1, "one error: {err}");
    assert!(
        err.contains("src/claims.md:9:"),
        "located at the definition: {err}"
    );
    assert!(err.contains("frca"), "{err}");
    assert!(!err.contains("notation.md"), "{err}");
    // Fixed, the index and the legend typeset `\V` with the chapter's macro.
    test.change_file(
        "src/claims.md",
        "---\nmacros:\n  \\V: \\mathbf{v}\n---\n# Claims\n\n:::{symbol-table} Here\n---\n- {id: vee, tex: '\\V', read: vee, meaning: 'Half: $\\frac{1}{2}$ of it'}\n---\n:::\n\n:::{math}\n:inspect: true\n\\V + \\V\n:::\n",
    );
    test.build();
    let index = test.main_of("notation.html");
    assert!(
        index.contains("mathbf"),
        "\\V expanded in the index: {index}"
    );
    assert!(!index.contains("mc-error"), "{index}");
}

#[test]
fn undefined_symbols_forbidden_commands_and_unknown_sym_are_located() {
    let mut test = BookTest::from_dir("inspect/basic");
    test.change_file(
        "book.toml",
        "[book]\ntitle = \"Inspect\"\n\n[preprocessor.mathcourse]\nsymbols = \"symbols.yml\"\nundefined-symbols = \"error\"\n",
    );
    test.change_file(
        "src/claims.md",
        "# Claims\n\n:::{math}\n:inspect: true\n:uses: [eta]\n\\eta \\cdot y + \\sym{nope}{w}\n:::\n\nSee $\\href{https://example.com}{x}$.\n\n:::{formula} Card\n---\nuses: [eta]\ntex: '\\eta'\ncontrols: {theta-t: lr}\n---\n:::\n",
    );
    let err = test.build_error();
    assert!(
        err.contains("src/claims.md:6:12"),
        "undefined `y` is located: {err}"
    );
    assert!(
        err.contains("symbol `y` in an inspectable formula is not defined"),
        "{err}"
    );
    assert!(
        err.contains("`\\sym` names an unknown symbol `nope`"),
        "{err}"
    );
    assert!(
        err.contains("src/claims.md:9:6"),
        "\\href is located: {err}"
    );
    assert!(
        err.contains("`\\href` is not allowed in this book's math"),
        "{err}"
    );
    assert!(
        err.contains("`controls` names `theta-t`, which is not a symbol of this formula"),
        "{err}"
    );
    assert!(err.contains("the formula's symbols are: `eta`"), "{err}");
}

/// Center of the first element matching `selector`, in viewport pixels.
async fn center(b: &Browser, selector: &str) -> (f64, f64) {
    let v = b
        .js(
            "const r = document.querySelector(arguments[0]).getBoundingClientRect(); return [r.left + r.width / 2, r.top + r.height / 2];",
            vec![json!(selector)],
        )
        .await;
    (v[0].as_f64().unwrap(), v[1].as_f64().unwrap())
}

/// Ids of the highlighted symbols in the formula of `#root`, and the tooltip text.
async fn highlighted(b: &Browser, root: &str) -> (Vec<String>, usize, String) {
    let v = b
        .js(
            "const root = document.getElementById(arguments[0]);\
             const on = [...root.querySelectorAll('.katex-html .mc-sym-on')];\
             const tip = root.querySelector('.mc-sym-tip');\
             return [[...new Set(on.map(n => n.dataset.mcSym))], on.length, tip && !tip.hidden ? tip.textContent : ''];",
            vec![json!(root)],
        )
        .await;
    let ids = v[0]
        .as_array()
        .unwrap()
        .iter()
        .map(|x| x.as_str().unwrap().to_string())
        .collect();
    (
        ids,
        v[1].as_u64().unwrap() as usize,
        v[2].as_str().unwrap().to_string(),
    )
}

use mathcourse_tests::browser_support::press;

async fn active_sym(b: &Browser) -> Value {
    b.js(
        "const a = document.activeElement; return a && a.dataset.mcSym || (a ? a.tagName + '.' + a.className : null);",
        vec![],
    )
    .await
}

async fn walk_state(b: &Browser) -> Value {
    b.js(
        "const steps = [...document.querySelectorAll('#formula-1 .mc-walk-step')];\
         return [steps.filter(s => !s.hidden).map(s => s.dataset.mcSym), document.querySelector('#formula-1 .mc-walk-count').textContent];",
        vec![],
    )
    .await
}

/// The text of what describes the focused element (`aria-describedby`), whitespace
/// collapsed: KaTeX's visual HTML draws its text from attributes, so this is the MathML.
async fn described(b: &Browser) -> String {
    b.js(
        "const ids = (document.activeElement.getAttribute('aria-describedby') || '').split(' ').filter(Boolean);\
         return ids.map(id => document.getElementById(id).textContent).join(' ').replace(/\\s+/g, ' ').trim();",
        vec![],
    )
    .await
    .as_str()
    .unwrap()
    .to_string()
}

async fn live_text(b: &Browser, root: &str) -> String {
    b.js(
        "return document.querySelector('#' + arguments[0] + ' [data-mc-live]').textContent;",
        vec![json!(root)],
    )
    .await
    .as_str()
    .unwrap()
    .to_string()
}

#[test]
fn browser_hover_focus_keys_tap_walk_and_axe() {
    let _lock = browser_support::browser_lock();
    let mut test = BookTest::from_dir("inspect/basic");
    test.build();
    let server = Server::start(&test.root.join("book"), Csp::StrictWithPageHashes);
    browser_support::run(async {
        let b = Browser::start(1200, 900).await;
        b.client.goto(&server.url("descent.html")).await.unwrap();
        b.wait_until(
            "return !!document.querySelector('[data-mc-inspect][data-mc-ready]');",
            Duration::from_secs(20),
            "inspect.js to set up the legend",
        )
        .await;
        let root = "formula-1";

        // Hover: every occurrence of θ_t lights up; the tooltip names it.
        let (x, y) = center(
            &b,
            "#formula-1 .mc-formula-math .katex-html [data-mc-sym=\"theta-t\"]",
        )
        .await;
        let mouse = MouseActions::new("mouse".into()).then(PointerAction::MoveTo {
            duration: None,
            x: x.round(),
            y: y.round(),
        });
        b.client.perform_actions(mouse).await.unwrap();
        b.client.release_actions().await.unwrap();
        let (ids, count, tip) = highlighted(&b, root).await;
        assert_eq!(ids, ["theta-t"]);
        assert_eq!(count, 2, "both occurrences of θ_t");
        assert!(tip.contains("theta t"), "tooltip: {tip}");
        assert!(tip.contains("The parameters after step"), "tooltip: {tip}");
        b.client
            .screenshot()
            .await
            .map(|png| {
                let dir = browser_support::screenshots_dir();
                std::fs::create_dir_all(&dir).unwrap();
                std::fs::write(dir.join("inspect-hover.png"), png).unwrap();
            })
            .unwrap();

        // Keyboard: focus the first legend button, then arrow keys walk the legend.
        b.js(
            "document.querySelector('#formula-1 .mc-where-sym').focus(); return true;",
            vec![],
        )
        .await;
        assert_eq!(active_sym(&b).await, json!("theta-next"));
        assert_eq!(highlighted(&b, root).await.0, ["theta-next"]);
        // Exactly what a screen reader hears: the button's name (read on focus), then the
        // meaning as its description; the live region says nothing more (it would read
        // the name twice). No TeX source, no glyph text run together ("θt+1").
        assert_eq!(described(&b).await, "The parameters after the next step");
        assert_eq!(live_text(&b, root).await, "");
        // mdBook's scripts run here (their hashes are allowed): its ArrowRight means "next
        // chapter" unless the legend keeps the key.
        press(&b, Key::Right).await;
        assert_eq!(active_sym(&b).await, json!("theta-t"));
        // Math in the meaning is read as its MathML text, once.
        assert_eq!(described(&b).await, "The parameters after step t");
        press(&b, Key::Right).await;
        assert_eq!(active_sym(&b).await, json!("eta"));
        let (ids, _, tip) = highlighted(&b, root).await;
        assert_eq!(ids, ["eta"]);
        assert!(tip.contains("The learning rate"), "{tip}");
        assert_eq!(described(&b).await, "The learning rate");
        press(&b, Key::End).await;
        assert_eq!(active_sym(&b).await, json!("loss"));
        press(&b, Key::Right).await;
        assert_eq!(active_sym(&b).await, json!("theta-next"), "wraps around");
        press(&b, Key::Left).await;
        assert_eq!(active_sym(&b).await, json!("loss"));
        // Tab leaves the legend: the highlight goes.
        press(&b, Key::Escape).await;
        assert!(highlighted(&b, root).await.0.is_empty());

        // The walk: one symbol at a time, Previous/Next, highlighting each.
        b.js(
            "document.querySelector('#formula-1 .mc-walk summary').click(); return true;",
            vec![],
        )
        .await;
        assert_eq!(
            walk_state(&b).await,
            json!([["theta-next"], "Symbol 1 of 5"])
        );
        b.js(
            "[...document.querySelectorAll('#formula-1 .mc-walk-nav button')][1].click(); return true;",
            vec![],
        )
        .await;
        assert_eq!(walk_state(&b).await, json!([["theta-t"], "Symbol 2 of 5"]));
        assert_eq!(highlighted(&b, root).await.0, ["theta-t"]);
        // Each step is announced with its name and meaning.
        assert_eq!(
            live_text(&b, root).await,
            "Symbol 2 of 5: theta t: The parameters after step t"
        );
        // From the keyboard to the last step: Next says it is at the end but keeps the
        // focus (a disabled button would drop it to <body>).
        b.js(
            "[...document.querySelectorAll('#formula-1 .mc-walk-nav button')][1].focus(); return true;",
            vec![],
        )
        .await;
        for _ in 0..4 {
            press(&b, Key::Enter).await;
        }
        assert_eq!(walk_state(&b).await, json!([["loss"], "Symbol 5 of 5"]));
        assert_eq!(live_text(&b, root).await, "Symbol 5 of 5: L: The loss");
        let focus = b
            .js(
                "const a = document.activeElement; return [a.textContent, a.getAttribute('aria-disabled')];",
                vec![],
            )
            .await;
        assert_eq!(focus, json!(["Next →", "true"]));

        // A symbol linked to a widget control: the control lights up with it, and the
        // legend shows the control's value, following the slider.
        b.client.goto(&server.url("softmax.html")).await.unwrap();
        b.wait_until(
            "return !!document.querySelector('[data-mc-inspect][data-mc-ready]');",
            Duration::from_secs(20),
            "inspect.js on softmax.html",
        )
        .await;
        // The widget first: going live re-renders its controls (their classes too), so a
        // control lit before that could lose its highlight.
        let fig = b
            .js("return document.querySelector('.mc-widget').id;", vec![])
            .await;
        b.wait_widget_live(fig.as_str().unwrap()).await;
        let value = "return document.querySelector('#eq-softmax [data-mc-sym=\"temp\"] [data-mc-value]').textContent;";
        assert_eq!(b.js(value, vec![]).await, json!("= 1.00"));
        b.js(
            "document.querySelector('#eq-softmax .mc-where-sym[data-mc-sym=\"temp\"]').focus(); return true;",
            vec![],
        )
        .await;
        let lit = b
            .js(
                "return document.querySelector('.mc-widget [name=\"temperature\"]').closest('.mc-w-control').classList.contains('mc-sym-on');",
                vec![],
            )
            .await;
        assert_eq!(lit, json!(true), "the temperature control lights up with T");
        b.js(
            "const s = document.querySelector('.mc-widget [name=\"temperature\"]'); s.focus(); return true;",
            vec![],
        )
        .await;
        press(&b, Key::Left).await;
        press(&b, Key::Left).await;
        tokio::time::sleep(Duration::from_millis(100)).await;
        let shown = b
            .js(
                "return document.querySelector('.mc-widget [name=\"temperature\"]').closest('.mc-w-control').querySelector('output').textContent;",
                vec![],
            )
            .await;
        assert_ne!(shown, json!("1.00"), "the slider moved");
        assert_eq!(
            b.js(value, vec![]).await,
            json!(format!("= {}", shown.as_str().unwrap())),
            "the legend follows the slider"
        );

        // No console error under the strict policy; axe finds nothing.
        let errors: Vec<_> = b
            .console()
            .await
            .into_iter()
            .filter(|(l, _)| l == "SEVERE")
            .collect();
        assert!(errors.is_empty(), "{errors:#?}");
        for page in [
            "descent.html",
            "softmax.html",
            "notation.html",
            "claims.html",
        ] {
            b.client.goto(&server.url(page)).await.unwrap();
            b.wait_until(
                "return document.readyState === 'complete';",
                Duration::from_secs(20),
                page,
            )
            .await;
            let violations = browser_support::axe(&b).await;
            assert!(
                violations.is_empty(),
                "axe-core on {page}:\n{}",
                violations.join("\n")
            );
        }
        b.close().await;

        // Touch: a tap on a symbol shows it; a second tap hides it.
        let t = Browser::start(800, 844).await;
        t.emulate_viewport(390, 844, true).await;
        t.client.goto(&server.url("softmax.html")).await.unwrap();
        t.wait_until(
            "return !!document.querySelector('[data-mc-inspect][data-mc-ready]');",
            Duration::from_secs(20),
            "inspect.js",
        )
        .await;
        t.js(
            "document.querySelector('#eq-softmax').scrollIntoView({block: 'center'}); return true;",
            vec![],
        )
        .await;
        let (x, y) = center(
            &t,
            "#eq-softmax .mc-formula-math .katex-html [data-mc-sym=\"temp\"]",
        )
        .await;
        t.drag(Pointer::Touch, &[(x, y)], Duration::ZERO).await;
        let (ids, count, tip) = highlighted(&t, "eq-softmax").await;
        assert_eq!(ids, ["temp"]);
        assert_eq!(count, 2, "T in the numerator and the denominator");
        assert!(tip.contains("temperature"), "{tip}");
        assert!(live_text(&t, "eq-softmax").await.contains("temperature"));
        t.drag(Pointer::Touch, &[(x, y)], Duration::ZERO).await;
        assert!(highlighted(&t, "eq-softmax").await.0.is_empty());
        t.close().await;
    });
}

/// The diagnostics of the `inspect/basic` book with `src/claims.md` replaced by `text`,
/// rendered as the CLI prints them, and the number of errors.
fn claims_diagnostics(text: &str) -> (String, usize) {
    let mut test = BookTest::from_dir("inspect/basic");
    test.change_file("src/claims.md", text);
    process(&test).expect("the book loads")
}

const TWO_MINUSES: &str = "# Claims\n\n:::{symbol-table} Signs\n---\n- {id: minus-loss, tex: '-', read: minus, meaning: 'Turns a log probability into a loss'}\n- {id: minus-step, tex: '-', read: minus, meaning: 'Step against the gradient'}\n---\n:::\n\n";

/// The resolution rule (guide: "Which meaning a symbol takes"): a glyph with two
/// meanings in its chapter is one error naming both; `uses:` chooses; an unknown id in
/// `uses:` gets a did-you-mean; a `where:` entry the formula does not contain is a
/// warning at that entry.
#[test]
fn a_glyph_with_two_meanings_in_its_chapter_must_be_chosen() {
    let (text, errors) = claims_diagnostics(&format!(
        "{TWO_MINUSES}:::{{math}}\n:inspect: true\n\\nosym{{a}} - \\nosym{{b}}\n:::\n"
    ));
    assert_eq!(errors, 1, "{text}");
    check_snapshot(
        &text,
        &mathcourse_tests::tests_dir().join("testsuite/inspect/expected-two-meanings.txt"),
    );
    // Chosen: no diagnostic, and the formula tags the chosen meaning.
    let chosen = format!(
        "{TWO_MINUSES}:::{{math}}\n:inspect: true\n:uses: [minus-step]\n\\nosym{{a}} - \\nosym{{b}}\n:::\n"
    );
    let (text, errors) = claims_diagnostics(&chosen);
    assert_eq!((errors, text.as_str()), (0, ""));
    let mut test = BookTest::from_dir("inspect/basic");
    test.change_file("src/claims.md", &chosen);
    test.build();
    let claims = test.main_of("claims.html");
    assert!(claims.contains("data-mc-sym=\"minus-step\""), "{claims}");
    assert!(!claims.contains("data-mc-sym=\"minus-loss\""), "{claims}");
    // A misspelt id.
    let (text, errors) = claims_diagnostics(&format!(
        "{TWO_MINUSES}:::{{math}}\n:inspect: true\n:uses: [minus-stp]\n\\nosym{{a}} - \\nosym{{b}}\n:::\n"
    ));
    assert_eq!(errors, 1, "{text}");
    assert!(text.contains("minus-stp"), "{text}");
    assert!(text.contains("minus-step"), "did you mean: {text}");
    // A `where:` entry the formula does not contain.
    let (text, errors) = claims_diagnostics(
        "# Claims\n\n:::{formula} Card\n---\nwhere:\n  - {id: tee, tex: '^\\top', read: transposed, meaning: Rows become columns}\n  - {id: ex, tex: 'x', read: x, meaning: A number}\ntex: 'x + 1'\n---\n:::\n",
    );
    assert_eq!(errors, 0, "{text}");
    assert_eq!(text.matches("warning:").count(), 1, "{text}");
    assert!(text.contains("src/claims.md:6:"), "at the entry: {text}");
    assert!(text.contains("tee"), "{text}");
}

/// A formula never takes a meaning from another chapter unless it names it: the
/// softmax chapter's `eta` is `descent.md`'s only through `uses:`.
#[test]
fn a_symbol_of_another_chapter_is_not_borrowed_silently() {
    let (text, errors) = claims_diagnostics("# Claims\n\n:::{math}\n:inspect: true\n\\eta\n:::\n");
    assert_eq!(errors, 0, "{text}");
    assert!(
        text.contains("symbol `\\eta` in an inspectable formula is not defined")
            || text.contains("`\\eta`"),
        "{text}"
    );
    assert!(text.contains("src/claims.md:5:1"), "{text}");
    assert!(
        text.contains("src/descent.md:7:"),
        "names the definition: {text}"
    );
    assert!(text.contains("uses: ["), "says how to take it: {text}");
    let mut test = BookTest::from_dir("inspect/basic");
    test.change_file(
        "src/claims.md",
        "# Claims\n\n:::{math}\n:inspect: true\n\\eta\n:::\n",
    );
    test.build();
    let claims = test.main_of("claims.html");
    assert!(!claims.contains("data-mc-sym=\"eta\""), "{claims}");
    test.change_file(
        "src/claims.md",
        "# Claims\n\n:::{math}\n:inspect: true\n:uses: [eta]\n\\eta\n:::\n",
    );
    test.build();
    let claims = test.main_of("claims.html");
    assert!(claims.contains("data-mc-sym=\"eta\""), "{claims}");
}

/// The notation index shows how to read a symbol aloud when it also has a name.
#[test]
fn the_notation_index_shows_the_read_field() {
    let mut test = BookTest::from_dir("inspect/basic");
    test.change_file(
        "src/claims.md",
        "# Claims\n\n:::{symbol-table} Inputs\n---\n- {id: vx, tex: '\\mathbf{x}', name: Input vector, read: bold x, meaning: One token's numbers}\n---\n:::\n",
    );
    test.build();
    let index = test.main_of("notation.html");
    assert!(
        index.contains("<span class=\"mc-notation-read\">(read “bold x”)</span>"),
        "{index}"
    );
}

/// Two chapters never number their equations alike: a `module:` number that repeats
/// another chapter's number is one error naming both, and references still resolve.
#[test]
fn two_chapters_never_share_equation_numbers() {
    let (text, errors) = claims_diagnostics(
        "---\nmodule: 2\ntitle: Claims\n---\n\n:::{math}\n:label: eq-claims\nx = 1\n:::\n\nSee {eq}`eq-claims`.\n",
    );
    assert_eq!(errors, 1, "{text}");
    assert!(text.contains("src/claims.md:7:"), "{text}");
    assert!(text.contains("as are those of src/softmax.md"), "{text}");
    assert!(text.contains("`module: 2`"), "{text}");
    let (text, errors) = claims_diagnostics(
        "---\nmodule: 7\ntitle: Claims\n---\n\n:::{math}\n:label: eq-claims\nx = 1\n:::\n\nSee {eq}`eq-claims`.\n",
    );
    assert_eq!((errors, text.as_str()), (0, ""));
}

/// The claims index typesets each claim with the macros of the chapter that states it,
/// and reports nothing of its own (a mistake in a claim is reported in its chapter).
#[test]
fn the_claims_index_uses_each_claims_chapter_macros() {
    let mut test = BookTest::from_dir("inspect/basic");
    let softmax = std::fs::read_to_string(test.root.join("src/softmax.md")).unwrap();
    test.change_file(
        "src/softmax.md",
        &format!(
            "---\nmacros:\n  \\vw: \\mathbf{{w}}\n---\n{}",
            softmax.replace(
                "Softmax outputs are positive and sum to one.",
                "Softmax outputs are positive and sum to one for any $\\vw$."
            )
        ),
    );
    test.build();
    let index = test.main_of("claims.html");
    assert!(index.contains("for any"), "{index}");
    assert!(
        index.contains("mathbf"),
        "\\vw expanded in the index: {index}"
    );
    assert!(!index.contains("mc-error"), "{index}");
}
