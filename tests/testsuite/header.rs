//! Chapter header from front matter.

use mathcourse_tests::{check_snapshot, BookTest};

use super::check::stable_main;

#[test]
fn header_from_front_matter_is_the_page_title() {
    let mut test = BookTest::from_dir("header/full");
    test.build();
    check_snapshot(
        &stable_main(&test, "attention.html"),
        &test.fixture.join("expected/attention.html"),
    );
    let main = test.main_of("attention.html");
    assert_eq!(main.matches("<h1").count(), 1, "{main}");
    assert!(main.contains("Module 6 · suggested week 6"));
    assert!(main.contains("What you will be able to do"));
    assert!(
        !main.contains("prerequisites:"),
        "front matter leaked: {main}"
    );
}

#[test]
fn header_degrades_to_markdown_for_other_renderers() {
    let mut test = BookTest::from_dir("header/markdown");
    test.build();
    let md = test.output("attention.md");
    assert!(
        md.starts_with("# Attention as a weighted average\n\n"),
        "{md}"
    );
    assert!(md.contains("≈ about 3 focused hours · Builds on modules 1 (Vectors), 4, a little Python (advisory)"), "{md}");
    assert!(
        md.contains("- explain why the scores are divided by $\\sqrt{d_k}$\n"),
        "{md}"
    );
}

#[test]
fn a_module_number_wins_for_equation_numbers() {
    let mut test = BookTest::from_dir("hardening/basic");
    test.change_file(
        "src/SUMMARY.md",
        "- [First](first.md)\n- [Attention](chapter.md)\n",
    );
    test.change_file("src/first.md", "# First\n\nSee {eq}`eq-att`.\n");
    test.change_file(
        "src/chapter.md",
        "---\nmodule: 7\n---\n# Attention\n\n:::{math}\n:label: eq-att\na = b\n:::\n",
    );
    test.build();
    let first = test.main_of("first.html");
    assert!(first.contains(">(7.1)</a>"), "{first}");
    assert!(test.main_of("chapter.html").contains("(7.1)"));
}
