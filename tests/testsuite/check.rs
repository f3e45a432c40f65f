//! `{check}`: worked examples recomputed at build time.

use mathcourse_tests::{check_snapshot, BookTest};

/// The `<main>` of a built page with the attributes of every tag sorted by name.
///
/// katex-rs keeps the attributes of its HTML, SVG and MathML nodes in hash maps, so
/// their order changes from run to run (`<mo fence="true" stretchy="true">`, `<svg>` of
/// `\sqrt`); sorting them keeps the snapshots stable.
pub(crate) fn stable_main(test: &BookTest, page: &str) -> String {
    let main = test.main_of(page);
    let mut out = String::with_capacity(main.len());
    let mut rest = main.as_str();
    while let Some(open) = rest.find('<') {
        out.push_str(&rest[..open]);
        let tag = &rest[open..];
        let is_start = tag[1..].starts_with(|c: char| c.is_ascii_alphabetic());
        let Some(close) = tag.find('>').filter(|_| is_start) else {
            out.push('<');
            rest = &rest[open + 1..];
            continue;
        };
        let inner = &tag[1..close];
        let (inner, self_closing) = match inner.strip_suffix('/') {
            Some(i) => (i.trim_end(), true),
            None => (inner, false),
        };
        let name_end = inner.find(char::is_whitespace).unwrap_or(inner.len());
        let mut attributes = split_attributes(&inner[name_end..]);
        attributes.sort_unstable();
        out.push('<');
        out.push_str(&inner[..name_end]);
        for a in attributes {
            out.push(' ');
            out.push_str(a);
        }
        out.push_str(if self_closing { " />" } else { ">" });
        rest = &tag[close + 1..];
    }
    out.push_str(rest);
    out
}

/// `a="x y" b c="z"` → `["a=\"x y\"", "b", "c=\"z\""]`.
fn split_attributes(text: &str) -> Vec<&str> {
    let mut out = Vec::new();
    let mut start = None;
    let mut quoted = false;
    for (i, c) in text.char_indices() {
        match c {
            '"' => quoted = !quoted,
            c if c.is_whitespace() && !quoted => {
                if let Some(s) = start.take() {
                    out.push(&text[s..i]);
                }
                continue;
            }
            _ => {}
        }
        if start.is_none() {
            start = Some(i);
        }
    }
    if let Some(s) = start {
        out.push(&text[s..]);
    }
    out
}

#[test]
fn check_correct_examples_build_and_show_the_computation() {
    let mut test = BookTest::from_dir("check/correct");
    test.build();
    check_snapshot(
        &stable_main(&test, "examples.html"),
        &test.fixture.join("expected/examples.html"),
    );
    let main = test.main_of("examples.html");
    // One checked block per example, each with its badge and typeset computation.
    assert_eq!(main.matches("<div class=\"mc-check ").count(), 17, "{main}");
    assert_eq!(main.matches("Checked at build time").count(), 17);
    assert_eq!(
        main.matches("<p class=\"mc-check-computation\"><span class=\"katex\" data-tex=")
            .count(),
        17
    );
    assert!(!main.contains(":::"), "a block was left unrendered");
    assert!(!main.contains(":expect:"));
}

#[test]
fn check_wrong_examples_fail_with_both_numbers() {
    let mut test = BookTest::from_dir("check/wrong");
    let err = test.build_error();
    check_snapshot(&err, &test.fixture.join("expected/error.txt"));
    assert!(
        err.contains("stated 0.091, computed 0.09003 (checked to 3 decimals)"),
        "{err}"
    );
    assert!(err.contains("7 errors in the book's sources"), "{err}");
}

#[test]
fn calc_checks_lines_and_inline_roles() {
    let mut test = BookTest::from_dir("check/calc");
    test.build();
    check_snapshot(
        &stable_main(&test, "calc.html"),
        &test.fixture.join("expected/calc.html"),
    );
    let main = test.main_of("calc.html");
    assert_eq!(
        main.matches("<div class=\"mc-check mc-check-calc\"")
            .count(),
        3
    );
    // Each block shows its lines aligned in display math.
    assert_eq!(
        main.matches("<p class=\"mc-check-computation\"><span class=\"katex-display\"")
            .count(),
        3,
        "{main}"
    );
    // The four inline roles are typeset, with the stated value and the relation.
    assert!(
        main.contains(r#"data-tex="&#92;sqrt{4 + 0 + 1} &#92;approx 2.24""#),
        "{main}"
    );
    assert!(
        main.contains(r#"data-tex="&#92;frac{1}{4} = 0.25""#),
        "{main}"
    );
    assert!(!main.contains("{calc}"), "a role was left unrendered");
    assert!(!main.contains("lines:"));
}

#[test]
fn calc_errors_point_into_lines_and_roles() {
    let mut test = BookTest::from_dir("check/calc_wrong");
    let err = test.build_error();
    check_snapshot(&err, &test.fixture.join("expected/error.txt"));
    for expected in [
        "correct `expect.var`",
        "unknown function `nrom`",
        "did you mean `norm`?",
        "did you mean `total`?",
        "the vectors have 2 and 3 entries",
        "`expect` names `b`, which no line defines",
        "`a` is defined twice",
        "unknown option `tolerance` for `{check} calc`",
        "`a` is a value, not a function",
        "stated 1.74, computed 1.7321 (checked to 2 decimals)",
        "did you mean `sqrt`?",
        "`{calc}` needs a stated value",
    ] {
        assert!(err.contains(expected), "missing {expected:?} in\n{err}");
    }
    assert!(err.contains("14 errors in the book's sources"), "{err}");
}

/// Issue 23: an overflow is named as one, not as "division by zero, or a function
/// outside its domain"; a division by zero and a domain error keep their own words.
#[test]
fn calc_overflow_is_named_overflow() {
    let mut test = BookTest::from_dir("check/calc_overflow");
    let err = test.build_error();
    check_snapshot(&err, &test.fixture.join("expected/error.txt"));
    assert_eq!(
        err.matches("overflow: the result is beyond ±1.8e308")
            .count(),
        3,
        "{err}"
    );
    assert_eq!(err.matches("^ division by zero").count(), 1, "{err}");
    assert_eq!(
        err.matches("a function outside its domain").count(),
        1,
        "{err}"
    );
}
