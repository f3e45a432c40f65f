//! Math rendering in built books: snapshots of `<main>`, diagnostics, other renderers.

use mathcourse_tests::{check_snapshot, BookTest};

#[test]
fn basic_inline_display_macros_and_non_math() {
    let mut test = BookTest::from_dir("math/basic");
    test.build()
        .check_main_file("inline.html", "inline.html")
        .check_main_file("part/nested.html", "nested.html");
    let main = test.main_of("inline.html");
    // Everything typeset: no delimiter left in prose, MathML present for screen readers.
    assert_eq!(main.matches("class=\"katex\"").count(), 8, "{main}");
    assert!(main.contains("<math xmlns=\"http://www.w3.org/1998/Math/MathML\""));
    assert!(main.contains("<code>$x$</code>"));
    assert!(main.contains("$5 and $10"));
    assert!(!main.contains("\\("), "unrendered \\( in {main}");
    // Assets are linked once, from the page's <head>, relatively, and exist in the output.
    let nested = test.head_of("part/nested.html");
    assert_eq!(
        nested
            .matches("href=\"../mathcourse-assets/[ASSETS-TAG]/katex/katex.min.css\"")
            .count(),
        1,
        "{nested}"
    );
    assert!(!test
        .main_of("part/nested.html")
        .contains("mathcourse-assets"));
    let tag = mdbook_mathcourse::assets::tag();
    let css = test.output(&format!("mathcourse-assets/{tag}/katex/katex.min.css"));
    assert!(css.contains("KaTeX_Main"));
    let font = test.root.join("book").join(format!(
        "mathcourse-assets/{tag}/katex/fonts/KaTeX_Main-Regular.woff2"
    ));
    assert!(font.exists(), "font missing at {}", font.display());
    // No CDN or remote link anywhere in the page.
    let page = test.output("inline.html");
    assert!(!page.contains("cdn.jsdelivr"), "CDN link in page");
}

#[test]
fn book_switched_from_mdbook_katex_by_renaming_the_header() {
    let mut test = BookTest::from_dir("math/macros_file");
    test.build();
    let main = test.main_of("chapter.html");
    assert!(main.contains("mathbb"), "{main}");
    assert!(main.contains("class=\"katex\""));
    // output = "html": no MathML.
    assert!(!main.contains("<math"), "{main}");
}

#[test]
fn latex_errors_fail_the_build_with_located_diagnostics() {
    let mut test = BookTest::from_dir("math/latex_error");
    let err = test.build_error();
    check_snapshot(&err, &test.fixture.join("expected/error.txt"));
}

#[test]
fn latex_errors_warn_and_show_a_box() {
    let mut test = BookTest::from_dir("math/latex_error_warn");
    test.build().check_main_file("chapter.html", "chapter.html");
    let main = test.main_of("chapter.html");
    assert!(main.contains("mc-math-error"));
    assert!(main.contains("\\fracc"));
}

#[test]
fn other_renderers_get_plain_markdown() {
    let mut test = BookTest::from_dir("math/markdown_renderer");
    test.build();
    let md = test.output("chapter.md");
    assert_eq!(md, "# Chapter\n\nMath stays TeX: $\\V^2$.\n");
}

/// Issue #23: a chapter with many broken formulas shows its first 50 errors in full, then
/// one line counting the rest with their lines; the last line counts them all.
#[test]
fn many_errors_in_one_chapter_are_summed_up_after_fifty() {
    let mut test = BookTest::from_dir("math/latex_error");
    let chapter: String = (1..=53).map(|i| format!("Line {i} $\\nope$\n")).collect();
    test.change_file("src/chapter.md", &format!("# Chapter\n\n{chapter}"));
    let err = test.build_error();
    assert_eq!(err.matches("error: LaTeX error in inline math").count(), 50);
    // The 50th error in full, then the summary and the total.
    let at = err
        .match_indices("error: LaTeX error in inline math")
        .nth(49)
        .unwrap()
        .0;
    check_snapshot(&err[at..], &test.fixture.join("expected/many_errors.txt"));
}
