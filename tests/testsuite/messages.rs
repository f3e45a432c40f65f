//! One mistake, one message, at its cause (#23): each case is a chapter with one
//! author mistake; the whole diagnostic output is compared with a reviewed snapshot
//! (`messages/<case>.txt`), so a follow-on error or a caret that moves fails the test.

use mathcourse_tests::{chapter_diagnostics, check_snapshot, tests_dir};

/// The diagnostics of `text` as the only chapter, compared with `messages/<case>.txt`;
/// the mistake must give exactly one error.
fn one_error(case: &str, text: &str) {
    errors(case, text, 1);
}

/// [`one_error`] for a chapter with `mistakes` mistakes: one error each.
fn errors(case: &str, text: &str, mistakes: usize) {
    let (out, errors) = chapter_diagnostics(text);
    check_snapshot(
        &out,
        &tests_dir().join(format!("testsuite/messages/{case}.txt")),
    );
    assert_eq!(errors, mistakes, "one mistake, one error:\n{out}");
}

/// A card and a reference to a label defined after it: the reference must resolve
/// whatever happens to the card above it.
const LATER_LABEL: &str = "\n\nSee {eq}`eq-later`.\n\n:::{math}\n:label: eq-later\nb = 2\n:::\n";

#[test]
fn a_card_without_its_closing_dashes() {
    one_error(
        "card_without_closing_dashes",
        &format!(
            "# T\n\nSee {{eq}}`eq-a`.\n\n:::{{formula}} Card A\n---\nlabel: eq-a\ntex: 'a = 1'\n\nThe card's text: a is one.\n:::\n{LATER_LABEL}"
        ),
    );
}

#[test]
fn a_card_without_its_opening_dashes() {
    one_error(
        "card_without_opening_dashes",
        &format!(
            "# T\n\nSee {{eq}}`eq-a`.\n\n:::{{formula}} Card A\nlabel: eq-a\ntex: 'a = 1'\n---\nThe card's text.\n:::\n{LATER_LABEL}"
        ),
    );
}

#[test]
fn a_misspelled_front_matter_key_keeps_the_macros() {
    one_error(
        "front_matter_typo",
        "---\nmacros:\n  \\vw: '\\mathbf{w}'\nobjective: [Read a vector]\n---\n# T\n\nThe weights $\\vw$, again $\\vw_1$.\n",
    );
}

#[test]
fn front_matter_that_does_not_read_hides_the_undefined_macros() {
    one_error(
        "front_matter_broken_yaml",
        "---\nmacros:\n  \\vw: '\\mathbf{w}'\ntitle: [unclosed\n---\n# T\n\nThe weights $\\vw$, again $\\vw_1$.\n",
    );
}

#[test]
fn a_broken_macro_is_reported_once_at_its_definition() {
    one_error(
        "broken_macro",
        "---\nmacros:\n  \\vw: '\\mathbf{w'\n---\n# T\n\nThe weights $\\vw$, again $\\vw_1$ and $\\vw^2$.\n",
    );
}

#[test]
fn an_unclosed_brace_is_pointed_at() {
    errors(
        "unclosed_brace",
        "# T\n\n:::{math}\n\\frac{a + d}{2 \\pm \\sqrt{b}\n:::\n\nInline too: $\\sqrt{x + 1$.\n",
        2,
    );
}

#[test]
fn an_unclosed_backslash_paren_is_reported() {
    errors(
        "unclosed_backslash_paren",
        "# T\n\nThe sum \\(a + b is shown as text.\n\nA closed \\(c\\) and an escaped \\\\(d are fine.\n",
        0,
    );
}

#[test]
fn a_computation_too_long_to_show_names_the_check_not_latex() {
    let vector: Vec<String> = (0..4000).map(|i| i.to_string()).collect();
    let vector = format!("[{}]", vector.join(", "));
    one_error(
        "computation_too_long",
        &format!("# T\n\n:::{{check}} calc\n---\nlines:\n  - v = {vector}\n  - s = sum(v)\nexpect:\n  s: 7998000\n---\nThe sum of the first 4000 whole numbers.\n:::\n"),
    );
}

/// Under `mdbook serve` (which sets `output.html.live-reload-endpoint`), a chapter with
/// errors is built with its errors listed at the top of the page, as the terminal shows
/// them; without it (`mdbook build`) the build fails as always.
#[test]
fn under_serve_the_errors_are_shown_in_the_page() {
    let chapter = "# T\n\n:::{check} calc\n---\nlines:\n  - l1 = 2\n  - s = l1 + l3\nexpect:\n  s: 5\n---\nText.\n:::\n";
    let mut build = mathcourse_tests::BookTest::from_dir("hardening/basic");
    build.change_file("src/chapter.md", chapter);
    let err = build.build_error();
    assert!(err.contains("unknown name `l3`"), "{err}");

    let mut serve = mathcourse_tests::BookTest::from_dir("hardening/basic");
    serve.change_file("src/chapter.md", chapter);
    serve.change_file(
        "book.toml",
        "[book]\ntitle = \"Hardening\"\n\n[preprocessor.mathcourse]\n\n[output.html]\nlive-reload-endpoint = \"__livereload\"\n",
    );
    serve.build();
    let main = serve.main_of("chapter.html");
    let panel = main
        .split("<div class=\"mc-build-errors\" role=\"alert\">")
        .nth(1)
        .expect("an error panel")
        .split("</div>")
        .next()
        .unwrap();
    assert!(
        panel.contains("The build found 1 error on this page."),
        "{panel}"
    );
    assert!(panel.contains("error: unknown name `l3`"), "{panel}");
    assert!(panel.contains("src/chapter.md:7:14"), "{panel}");
    assert!(panel.contains("did you mean `l1`?"), "{panel}");
}

/// Under `mdbook serve`, a symbols file beside book.toml is read by the build but not
/// watched by `serve` (an edit to it showed nowhere): one warning names it, with the
/// `extra-watch-dirs` line; once listed there, no warning; `mdbook build`, no warning.
#[test]
fn under_serve_an_unwatched_symbols_file_is_named() {
    let warnings = |toml: &str| {
        let mut test = mathcourse_tests::BookTest::from_dir("inspect/basic");
        test.change_file("book.toml", toml);
        let md = mdbook_driver::MDBook::load(&test.root).unwrap();
        let ctx = mdbook_preprocessor::PreprocessorContext::new(
            test.root.clone(),
            md.config.clone(),
            "html".into(),
        );
        mdbook_mathcourse::process(&ctx, md.book.clone())
            .unwrap()
            .config_warnings
    };
    let book =
        "[book]\ntitle = \"Inspect\"\n\n[preprocessor.mathcourse]\nsymbols = \"symbols.yml\"\n";
    let serve = "\n[output.html]\nlive-reload-endpoint = \"__livereload\"\n";
    let found = warnings(&format!("{book}{serve}"));
    let named: Vec<_> = found
        .iter()
        .filter(|w| w.contains("`mdbook serve` does not watch \"symbols.yml\""))
        .collect();
    assert_eq!(named.len(), 1, "{found:?}");
    assert!(
        named[0].contains("`[build] extra-watch-dirs = [\"symbols.yml\"]`"),
        "{}",
        named[0]
    );
    let listed = warnings(&format!(
        "{book}{serve}\n[build]\nextra-watch-dirs = [\"symbols.yml\"]\n"
    ));
    assert!(
        !listed.iter().any(|w| w.contains("does not watch")),
        "{listed:?}"
    );
    let built = warnings(book);
    assert!(
        !built.iter().any(|w| w.contains("does not watch")),
        "{built:?}"
    );
}

#[test]
fn a_claim_without_its_closing_dashes_is_not_a_missing_source() {
    one_error(
        "claim_without_closing_dashes",
        "# T\n\n:::{claim} empirical\n---\nsource: A survey, 2024\n\nLarger models make fewer mistakes.\n:::\n",
    );
}

#[test]
fn a_calc_name_one_character_off_is_suggested() {
    one_error(
        "calc_short_name",
        "# T\n\n:::{check} calc\n---\nlines:\n  - l1 = 2\n  - l2 = 3\n  - s = l1 + l3\nexpect:\n  s: 5\n---\nText.\n:::\n",
    );
}
