//! Chapter-furniture directives (`symbols`, `symbol-table`, `steps`, `connection`,
//! `watch`, `takeaways`, `further-reading`): a `<main>` snapshot of a chapter using
//! all of them, and one located diagnostic per directive mistake.

use mathcourse_tests::{check_snapshot, BookTest};

#[test]
fn directives_render_every_furniture_block() {
    let mut test = BookTest::from_dir("directives/content");
    test.build().check_main_file("chapter.html", "chapter.html");
    let main = test.main_of("chapter.html");
    assert!(!main.contains(":::"), "no raw directive text: {main}");
    assert!(!main.contains("$"), "every formula typeset: {main}");
    // symbols: a labelled list of chips with ids.
    assert!(main.contains("<ul class=\"mc-symbols\" aria-label=\"Symbols in this chapter\">"));
    assert_eq!(main.matches("<li class=\"mc-chip\"").count(), 4);
    assert!(main.contains("id=\"sym-reals-d\""));
    // symbol-table: caption and header cells with scope.
    assert!(main.contains("<table class=\"mc-symbol-table\""));
    assert!(main.contains(
        "<caption id=\"mc-symbol-table-1-caption\">Every symbol in this chapter</caption>"
    ));
    assert_eq!(main.matches("<th scope=\"col\">").count(), 4);
    assert_eq!(main.matches("<th scope=\"row\"").count(), 4);
    assert!(main.contains("<code>np.linalg.norm(x)</code>"));
    // steps: legend and the body's ordered list (rendered by mdBook).
    assert!(main.contains("<dl class=\"mc-steps-legend\""));
    assert!(
        main.contains("<ol>\n<li><strong>Square.</strong>"),
        "{main}"
    );
    // connection: the level is text, not colour alone.
    assert!(main.contains("Level 2 · Shared math"));
    // watch: real links, nothing else clickable-but-empty.
    assert!(
        main.contains("<a href=\"https://www.youtube.com/watch?v=fNk_zzaMoSs\" rel=\"noopener\">")
    );
    assert!(main.contains("&amp;list=PLZHQObOWTQDPD3MizzM2xVFitgF8hE_ab\" rel=\"noopener\">"));
    assert!(
        main.contains("<em>basis</em>"),
        "watch body rendered as Markdown"
    );
    // takeaways / further reading: labelled sections around the lists.
    assert!(main.contains(">Key takeaways</span>"));
    assert!(main.contains(">Further reading</span>"));
    assert!(
        main.contains("<a href=\"https://immersivemath.com/ila/index.html\">Immersive Math</a>")
    );
    // No heading elements besides the chapter title: heading order stays intact.
    assert_eq!(main.matches("<h1").count(), 1);
    assert!(!main.contains("<h2") && !main.contains("<h3"));
}

#[test]
fn directives_mistakes_are_located() {
    let mut test = BookTest::from_dir("directives/errors");
    let err = test.build_error();
    check_snapshot(&err, &test.fixture.join("expected/error.txt"));
    for needle in [
        "src/chapter.md:5:34",
        "unknown key `nme` in item 1 of `symbols`",
        "did you mean `name`?",
        "src/chapter.md:11:3",
        "item 1 of `symbol-table` needs the key `meaning`",
        "src/chapter.md:17:1",
        "unknown option `legnd` for directive `steps`",
        "src/chapter.md:26:1",
        "`level` must be 1, 2 or 3, not `4`",
        "`1` (Analogy), `2` (Shared math), `3` (Same mechanism)",
        "src/chapter.md:35:1",
        "`url` must be an http(s) web address, not `javascript:alert(1)`",
        "src/chapter.md:40:2",
        "unknown option `open` for directive `takeaways`",
        "src/chapter.md:45:2",
        "unknown option `title` for directive `further-reading`",
        "`further-reading` takes no options; remove this line",
        "7 errors",
    ] {
        assert!(err.contains(needle), "missing `{needle}` in:\n{err}");
    }
}

#[test]
fn directives_degrade_to_plain_markdown() {
    let mut test = BookTest::from_dir("directives/content");
    test.change_file(
        "book.toml",
        "[book]\ntitle = \"Directives\"\n\n[preprocessor.mathcourse]\n\n[output.markdown]\n",
    );
    test.build();
    let md = test.output("chapter.md");
    assert!(!md.contains(":::"), "{md}");
    for needle in [
        "**Symbols in this chapter**\n\n- $\\mathbf{x}$: A vector\n",
        "| Symbol | Read it as | Meaning | In code |",
        "| $x_i$ | x sub i | The $i$-th entry of $\\mathbf{x}$ | `x[i]` |",
        "- $x_i$: entry $i$",
        "**Connection (Physics (mechanics)):** Forces add like arrows — Level 2 · Shared math",
        "*Why this level:* The same vector addition",
        "**Watch:** [Vectors (Essence of linear algebra, chapter 1)](<https://www.youtube.com/watch?v=fNk_zzaMoSs>) (3Blue1Brown · 10 min)",
        "*Watch for:* Why every vector of $\\R^2$",
        "**Key takeaways**\n\n- A vector",
        "**Further reading: Free resources**",
    ] {
        assert!(md.contains(needle), "missing `{needle}` in:\n{md}");
    }
}
