//! The built-in directives: `<main>` snapshots, cross-chapter equation references,
//! and every author mistake as a located diagnostic.

use mathcourse_tests::{check_snapshot, BookTest};

#[test]
fn claims_formula_math_callouts_practice() {
    let mut test = BookTest::from_dir("blocks/all");
    test.build()
        .check_main_file("blocks.html", "blocks.html")
        .check_main_file("part/elsewhere.html", "elsewhere.html");
    let main = test.main_of("blocks.html");
    assert!(main.contains("Empirical regularity"));
    assert!(
        main.contains("href=\"part/elsewhere.html#eq-far\">(2.1)</a>"),
        "cross-chapter ref"
    );
    assert!(
        main.contains("href=\"#eq-softmax\">(1.2)</a>"),
        "same-chapter ref"
    );
    assert!(
        main.contains("<code class=\"language-python\">"),
        "code highlighted by mdBook"
    );
    assert!(!main.contains(":::"), "no raw directive text");
    let far = test.main_of("part/elsewhere.html");
    assert!(
        far.contains("href=\"../blocks.html#eq-gd\">(1.1)</a>"),
        "{far}"
    );
}

#[test]
fn every_block_mistake_is_located() {
    let mut test = BookTest::from_dir("blocks/errors");
    let err = test.build_error();
    check_snapshot(&err, &test.fixture.join("expected/error.txt"));
    for needle in [
        "unknown directive `clam`",
        "did you mean `claim`?",
        "unknown claim status `likely`",
        "needs a `:source:`",
        "unknown option `sorce`",
        "needs the option `tex`",
        "invalid YAML",
        "duplicate equation label `eq-dup`",
        "unknown equation label `eq-dupe`",
        "unknown role `ref`",
        "directive `pitfall` is never closed",
    ] {
        assert!(err.contains(needle), "missing {needle:?} in:\n{err}");
    }
    assert!(
        !err.contains("left alone"),
        "directive inside a code block must be ignored"
    );
}
