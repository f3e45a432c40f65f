//! GitHub's math syntax (```` ```math ```` blocks, `` $`...`$ ``), read in every book,
//! and `delimiters = "github"`: `$` read as pulldown-cmark's math extension reads it.

use mathcourse_tests::{typeset_formulas, BookTest};

#[test]
fn github_math_syntax_is_typeset_in_every_book() {
    let mut test = BookTest::from_dir("github/book");
    test.build();
    assert_eq!(
        typeset_formulas(&test, &["syntax.html"]),
        "syntax.html\tI\t\\sqrt{x^2}\n\
         syntax.html\tD\t\\int_0^1 f(t)\\,dt\n\
         syntax.html\tD\ta + b\n\
         syntax.html\tI\tx\n\
         syntax.html\tI\ty\n\
         syntax.html\tD\tz\n"
    );
    let main = test.main_of("syntax.html");
    assert!(main.contains("<code>$not math$</code>"), "{main}");
    assert!(main.contains("$$ x $$"), "{main}");
    assert!(main.contains("prices $5 and $10"), "{main}");
    assert!(!main.contains("```"), "{main}");
}

#[test]
fn dollars_can_follow_pulldown_cmarks_rules() {
    let mut test = BookTest::from_dir("github/book");
    test.change_file(
        "book.toml",
        "[book]\ntitle = \"G\"\n\n[preprocessor.mathcourse]\ndelimiters = \"github\"\n",
    );
    test.build();
    // `$ y $` is not math by GitHub's rules (a space after the opener).
    assert_eq!(
        typeset_formulas(&test, &["syntax.html"]),
        "syntax.html\tI\t\\sqrt{x^2}\n\
         syntax.html\tD\t\\int_0^1 f(t)\\,dt\n\
         syntax.html\tD\ta + b\n\
         syntax.html\tI\tx\n\
         syntax.html\tD\tz\n"
    );
    let main = test.main_of("syntax.html");
    assert!(main.contains("$ y $"), "{main}");
}

#[test]
fn github_math_syntax_is_read_in_a_mathjax_book_too() {
    let mut test = BookTest::from_dir("github/book");
    test.change_file(
        "book.toml",
        "[book]\ntitle = \"G\"\n\n[preprocessor.mathcourse]\ndelimiters = \"mathjax\"\n",
    );
    test.build();
    // Stock tex2jax: `$` is not a delimiter, `$$` is.
    assert_eq!(
        typeset_formulas(&test, &["syntax.html"]),
        "syntax.html\tI\t\\sqrt{x^2}\n\
         syntax.html\tD\t\\int_0^1 f(t)\\,dt\n\
         syntax.html\tD\ta + b\n\
         syntax.html\tD\tz\n"
    );
}
