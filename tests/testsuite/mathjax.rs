//! Books written for mdBook's MathJax (`mathjax-support = true`, or a theme that loads
//! MathJax itself with `delimiters = "mathjax"`): every formula MathJax 2.7 would
//! typeset in the page is typeset at build time, with the TeX MathJax receives.

use std::fs;

use mathcourse_tests::{check_snapshot, typeset_formulas, BookTest};
use mdbook_driver::MDBook;
use mdbook_mathcourse::diagnostic::render_all;
use mdbook_preprocessor::PreprocessorContext;

/// Config warnings and every diagnostic, as the CLI prints them.
fn warnings(test: &BookTest) -> (Vec<String>, String) {
    let md = MDBook::load(&test.root).unwrap();
    let ctx = PreprocessorContext::new(test.root.clone(), md.config.clone(), "html".into());
    let outcome = mdbook_mathcourse::process(&ctx, md.book.clone()).unwrap();
    assert!(
        !outcome.has_errors(),
        "{}",
        render_all(&outcome.diagnostics, false)
    );
    (
        outcome.config_warnings,
        render_all(&outcome.diagnostics, false),
    )
}

#[test]
fn a_mathjax_book_is_read_as_mathjax_reads_its_pages() {
    let mut test = BookTest::from_dir("mathjax/stock");
    test.build();
    check_snapshot(
        &typeset_formulas(&test, &["inline.html", "display.html"]),
        &test.fixture.join("expected/formulas.tsv"),
    );
    let inline = test.main_of("inline.html");
    // Emphasis cut it: text, as in MathJax's page.
    assert!(inline.contains("\\(a <em>b</em> c\\)"), "{inline}");
    assert!(inline.contains("<code>\\\\(y\\\\)</code>"), "{inline}");
    assert!(inline.contains("$x$ stays text"), "{inline}");
    // An opener without a closer hides the rest of its paragraph from MathJax.
    assert!(
        inline.contains("\\(z and then \\[w\\] on the same line"),
        "{inline}"
    );
    let display = test.main_of("display.html");
    assert!(display.contains("$$ not math in code $$"), "{display}");
    assert!(
        display.contains("<pre>$$ not math in pre $$</pre>"),
        "{display}"
    );
}

#[test]
fn mathjax_only_tex_and_eaten_backslashes_are_warnings_and_mathjax_support_warns_once() {
    let test = BookTest::from_dir("mathjax/stock");
    let (config, text) = warnings(&test);
    let cdn: Vec<_> = config.iter().filter(|w| w.contains("CDN")).collect();
    assert_eq!(cdn.len(), 1, "{config:?}");
    assert!(
        cdn[0].contains("remove `mathjax-support = true`"),
        "{}",
        cdn[0]
    );
    assert!(
        text.contains("Markdown turns `\\|` into `|` before the math is read"),
        "{text}"
    );
    assert!(text.contains("src/inline.md:11:"), "{text}");
    // Openers MathJax leaves as text (emphasis cut one, one never closes), located.
    assert!(
        text.contains("not math: MathJax leaves this opening delimiter as text"),
        "{text}"
    );
    assert!(text.contains("src/inline.md:5:26"), "{text}");
    assert!(text.contains("src/inline.md:16:"), "{text}");
    // `k_\min` typesets: no diagnostic points at it.
    assert!(!text.contains("inline.md:9:"), "{text}");
}

#[test]
fn a_theme_sets_delimiters_escapes_and_macros() {
    let mut test = BookTest::from_dir("mathjax/theme");
    test.build();
    assert_eq!(
        typeset_formulas(&test, &["dollars.html"]),
        "dollars.html\tI\tx \\in \\RR\ndollars.html\tI\t\\pair{a}{b}\ndollars.html\tD\t\\sum_{i=1}^n i\n"
    );
    let main = test.main_of("dollars.html");
    assert!(main.contains("<p>It costs $5 and $10: escaped"), "{main}");
    let (config, _) = warnings(&test);
    assert!(!config.iter().any(|w| w.contains("CDN")), "{config:?}");
    // A theme that loads MathJax itself is told to stop: nothing is left for it.
    let head = fs::read_to_string(test.fixture.join("theme/head.hbs")).unwrap();
    let mut loads = BookTest::from_dir("mathjax/theme");
    loads.change_file(
        "theme/head.hbs",
        &format!("{head}<script async src=\"https://cdn.example/MathJax.js?config=TeX-AMS_HTML\"></script>\n"),
    );
    let (config, _) = warnings(&loads);
    assert!(
        config.iter().any(|w| w.contains(
            "loads MathJax on every page (`https://cdn.example/MathJax.js?config=TeX-AMS_HTML`)"
        )),
        "{config:?}"
    );
}

/// A row break written `\\\\` once reaches MathJax as `\\ ` (Markdown halves it): the rows
/// run together in the page, here as in MathJax's, and the build says so with the fix
/// (seen on a real MathJax book whose `aligned` blocks lost their rows). `\\\\\\\\` is fine.
#[test]
fn a_row_break_markdown_halves_is_a_warning_with_the_fix() {
    let mut test = BookTest::from_dir("mathjax/stock");
    test.change_file(
        "src/display.md",
        "# Rows\n\n$$\n\\begin{aligned}\na &= 1 \\\\\nb &= 2\n\\end{aligned}\n$$\n\n$$\n\\begin{aligned}\nc &= 3 \\\\\\\\\nd &= 4\n\\end{aligned}\n$$\n",
    );
    let (_, text) = warnings(&test);
    assert!(
        text.contains("the line break `\\\\` reaches the formula as `\\ ` (a space)"),
        "{text}"
    );
    assert!(text.contains("src/display.md:5:8"), "{text}");
    assert!(!text.contains("src/display.md:11:"), "{text}");
}

/// `$...$` holding TeX in a book read with MathJax's default delimiters (no `$`): the
/// page shows it as text, as MathJax did, and one warning per stretch says so with the
/// fix, at the first pair that reads as TeX, counting the others. Prose dollars and a
/// bare `$x$` alone warn nothing; a theme that adds `$` typesets them instead.
#[test]
fn dollar_math_in_a_book_whose_mathjax_reads_no_dollar_is_a_warning() {
    let mut test = BookTest::from_dir("mathjax/stock");
    test.change_file(
        "src/display.md",
        "# Dollars\n\nIt costs $5 and $10 here.\n\nLet $a$ be given, so that $a \\cdot b = c$ and $x_1$.\n",
    );
    let (_, text) = warnings(&test);
    assert!(text.contains("`$...$` is not math in this book"), "{text}");
    assert!(text.contains("src/display.md:5:27"), "{text}");
    assert!(
        text.contains("this and 2 other `$...$` pairs here stay text"),
        "{text}"
    );
    assert_eq!(
        text.matches("is not math in this book").count(),
        1,
        "{text}"
    );
    test.build();
    let main = test.main_of("display.html");
    assert!(main.contains("so that $a \\cdot b = c$"), "{main}");
    // Prose dollars and a lone `$x$` (the fixture's inline page) warn nothing.
    let mut prose = BookTest::from_dir("mathjax/stock");
    prose.change_file(
        "src/display.md",
        "# Prose\n\nIt costs $5 and $10, or $x$.\n",
    );
    let (_, text) = warnings(&prose);
    assert!(!text.contains("is not math in this book"), "{text}");
}

/// A chapter that configures MathJax itself (a `text/x-mathjax-config` script in its HTML,
/// as real pages do to get `$`) is read with that configuration on its page, as MathJax 2
/// reads it: here `$...$` replaces the default inline delimiters, so `\\(x\\)` is text and
/// no `$` warning is given. The same script shown in a code block changes nothing.
#[test]
fn a_chapter_that_configures_mathjax_itself_is_read_with_its_configuration() {
    let config = "<script type=\"text/x-mathjax-config\">MathJax.Hub.Config({ tex2jax: { inlineMath: [['$', '$']] }, TeX: { Macros: { RR: '{\\\\bf R}' } } });</script>\n";
    let mut test = BookTest::from_dir("mathjax/stock");
    test.change_file(
        "src/display.md",
        &format!("{config}\n# Own config\n\nAt most $n$ widgets for $k_i \\in \\RR$ dollars, and \\\\(x^2\\\\).\n"),
    );
    let (_, text) = warnings(&test);
    assert!(!text.contains("is not math in this book"), "{text}");
    assert!(!text.contains("src/display.md"), "{text}");
    test.build();
    let formulas = typeset_formulas(&test, &["display.html"]);
    assert_eq!(
        formulas, "display.html\tI\tn\ndisplay.html\tI\tk_i \\in \\RR\n",
        "{formulas}"
    );
    let mut shown = BookTest::from_dir("mathjax/stock");
    shown.change_file(
        "src/display.md",
        &format!("# Shown\n\n```html\n{config}```\n\nText $k_i$ and \\\\(x^2\\\\).\n"),
    );
    shown.build();
    assert_eq!(
        typeset_formulas(&shown, &["display.html"]),
        "display.html\tI\tx^2\n"
    );
}

/// A MathJax 3 theme (`window.MathJax = { tex: { ... } }` and a `tex-*.js` script, as in
/// MathJax 3's documentation) sets the delimiters, escapes and macros too. Before, its
/// `$` delimiters were not read and every `$...$` formula was left as text.
#[test]
fn a_mathjax_3_theme_sets_delimiters_escapes_and_macros() {
    let mut test = BookTest::from_dir("mathjax/theme");
    test.change_file(
        "theme/head.hbs",
        r#"<script>
window.MathJax = {
  tex: {
    inlineMath: [['$', '$'], ['\\(', '\\)']],
    macros: { RR: "{\\mathbb{R}}", pair: ["\\langle #1, #2 \\rangle", 2] }
  }
};
</script>
<script async src="https://cdn.example/npm/mathjax@3/es5/tex-mml-chtml.js"></script>
"#,
    );
    test.build();
    assert_eq!(
        typeset_formulas(&test, &["dollars.html"]),
        "dollars.html\tI\tx \\in \\RR\ndollars.html\tI\t\\pair{a}{b}\ndollars.html\tD\t\\sum_{i=1}^n i\n"
    );
    // MathJax 3 reads `\$` as a dollar sign without being told.
    let main = test.main_of("dollars.html");
    assert!(main.contains("<p>It costs $5 and $10: escaped"), "{main}");
    let (config, _) = warnings(&test);
    assert!(
        config.iter().any(|w| w.contains(
            "(and its `MathJax = { tex: ... }` configuration, which mathcourse has read)"
        )),
        "{config:?}"
    );
}

/// A book read the default way (no `delimiters`, no `mathjax-support`) whose theme loads
/// MathJax on every page is told so, with the option that reads its math as that
/// MathJax did. Before, nothing was said and MathJax kept loading from its CDN.
#[test]
fn a_theme_that_loads_mathjax_is_reported_whatever_the_reading() {
    let mut test = BookTest::from_dir("mathjax/theme");
    test.change_file(
        "book.toml",
        "[book]\ntitle = \"T\"\n\n[preprocessor.mathcourse]\n",
    );
    test.change_file("src/dollars.md", "# Dollars\n\nInline $x^2$.\n");
    test.change_file(
        "theme/head.hbs",
        "<script>MathJax = { tex: { inlineMath: [['$', '$']] } };</script>\n<script src=\"https://cdn.example/mathjax@3/tex-svg.js\"></script>\n",
    );
    let (config, _) = warnings(&test);
    let loads: Vec<_> = config
        .iter()
        .filter(|w| w.contains("loads MathJax on every page"))
        .collect();
    assert_eq!(loads.len(), 1, "{config:?}");
    assert!(loads[0].contains("theme/head.hbs"), "{}", loads[0]);
    assert!(
        loads[0].contains("add `delimiters = \"mathjax\"`"),
        "{}",
        loads[0]
    );
}

/// A theme that typesets with KaTeX's auto-render in the browser (`renderMathInElement`
/// with its `delimiters`), read with `delimiters = "mathjax"`: the math is read after
/// Markdown with the theme's delimiters, as auto-render read it (`$\\(9\\)$` reaches it as
/// `$(9)$`, `\\\\` as `\\`). Before, its delimiters were not read: no `$` formula was
/// found.
#[test]
fn a_katex_auto_render_theme_sets_the_delimiters() {
    let mut test = BookTest::from_dir("mathjax/theme");
    test.change_file(
        "theme/head.hbs",
        r#"<script defer src="https://cdn.example/katex/contrib/auto-render.min.js"></script>
<script>
document.addEventListener("DOMContentLoaded", function () {
  renderMathInElement(document.body, {
    delimiters: [{left: "$$", right: "$$", display: true}, {left: "$", right: "$", display: false}]
  });
});
</script>
"#,
    );
    test.change_file(
        "src/dollars.md",
        "# Dollars\n\nA $\\(9\\)$ grid, and \\(not math\\).\n\n$$\na \\\\\\\\ b\n$$\n",
    );
    test.build();
    assert_eq!(
        typeset_formulas(&test, &["dollars.html"]),
        "dollars.html\tI\t(9)\ndollars.html\tD\ta \\\\ b\n"
    );
    let (config, _) = warnings(&test);
    assert!(
        config
            .iter()
            .any(|w| w.contains("loads KaTeX's auto-render on every page")
                && w.contains(
                    "(and its `renderMathInElement` options, which mathcourse has read)"
                )),
        "{config:?}"
    );
}

/// Edge cases of MathJax's rules (emphasis, tables, lists, quotes, raw HTML, `<br>`,
/// entities, escapes, braces, unclosed openers, `\begin`, `\ref`, code, footnotes). The
/// expected list was made by MathJax's own `tex2jax` over the page plain mdBook built
/// (`mathjax_ref.mjs` of the MathJax corpus), not by this project: every formula it
/// finds, with its exact TeX, and no other. A formula KaTeX cannot typeset is shown as
/// its TeX source, as MathJax shows it.
#[test]
fn edge_cases_match_what_mathjax_typesets() {
    let mut test = BookTest::from_dir("mathjax/edge");
    test.build();
    let expected = fs::read_to_string(test.fixture.join("expected/formulas.tsv")).unwrap();
    assert_eq!(typeset_formulas(&test, &["a.html", "b.html"]), expected);
}

/// The same with a theme's configuration (`$` inline, `processEscapes`, macros): the
/// expected list was made by MathJax's `tex2jax` with that configuration.
#[test]
fn edge_cases_of_a_theme_config_match_what_mathjax_typesets() {
    let mut test = BookTest::from_dir("mathjax/edge_theme");
    test.build();
    let expected = fs::read_to_string(test.fixture.join("expected/formulas.tsv")).unwrap();
    assert_eq!(typeset_formulas(&test, &["c.html"]), expected);
}
