//! Books written for mdbook-katex, switched by renaming one header: every construct found
//! in real mdbook-katex books (the corpus, and the public books named in the README's
//! "Coming from mdbook-katex"), in our own words. Each page must give exactly the
//! formulas listed in `expected/formulas.tsv` (page, `I`/`D`, TeX), and prose dollars
//! stay text.

use mathcourse_tests::{check_snapshot, typeset_formulas as formulas, BookTest};

const PAGES: &[&str] = &[
    "inline.html",
    "tables.html",
    "lists.html",
    "prose.html",
    "included.html",
];

#[test]
fn every_mdbook_katex_construct_is_typeset() {
    let mut test = BookTest::from_dir("compat/katex_book");
    test.build();
    check_snapshot(
        &formulas(&test, PAGES),
        &test.fixture.join("expected/formulas.tsv"),
    );
    // Prose dollars stay text.
    let prose = test.main_of("prose.html");
    assert!(
        prose.contains("It costs $5 and $10 in the shop."),
        "{prose}"
    );
    assert!(prose.contains("US$ 20 and US$ 30"), "{prose}");
    assert!(prose.contains("$HOME and $PATH"), "{prose}");
    // What mdbook-katex damages stays intact: emphasis outside math. A comment stays a
    // comment, with its math typeset as mdbook-katex typesets it.
    let inline = test.main_of("inline.html");
    assert!(inline.contains("<em>real emphasis</em>"), "{inline}");
    assert!(
        inline.contains("<!-- A comment with <span class=\"katex\" data-tex="),
        "{inline}"
    );
    assert!(inline.contains("[Someone, 2024]</a>"), "{inline}");
}

#[test]
fn included_math_is_typeset_in_either_preprocessor_order() {
    for toml in [
        "[book]\ntitle = \"T\"\n\n[preprocessor.mathcourse]\nmacros = \"macros.txt\"\n",
        "[book]\ntitle = \"T\"\n\n[preprocessor.mathcourse]\nmacros = \"macros.txt\"\nbefore = [\"links\"]\n",
        "[book]\ntitle = \"T\"\n\n[preprocessor.mathcourse]\nmacros = \"macros.txt\"\n\n[preprocessor.links]\nafter = [\"mathcourse\"]\n",
    ] {
        let mut test = BookTest::from_dir("compat/katex_book");
        test.change_file("book.toml", toml).build();
        assert_eq!(
            formulas(&test, &["included.html"]),
            "included.html\tI\t\\sigma\nincluded.html\tI\t\\tau^2\nincluded.html\tI\t\\tau^2\n",
            "{toml}"
        );
        let main = test.main_of("included.html");
        assert!(!main.contains("{{#include"), "{main}");
        // An escaped link is left for mdBook to unescape, never expanded.
        let prose = test.main_of("prose.html");
        assert!(
            prose.contains("An escaped link stays text: {{#include parts/shared.md}}"),
            "{prose}"
        );
    }
}
