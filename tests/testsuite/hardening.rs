//! Hardening: hostile or broken input never crashes, hangs or loses content, and a
//! build never reads, writes or deletes anything outside the book. Each test is a
//! reproducer from the hardening issue (#13) kept as a regression test.

use std::fs;

use mathcourse_tests::BookTest;

use mathcourse_tests::{chapter_diagnostics as chapter, process, process_for};

fn with_config(extra: &str) -> BookTest {
    let mut test = BookTest::from_dir("hardening/basic");
    let toml = fs::read_to_string(test.root.join("book.toml")).unwrap();
    test.change_file("book.toml", &format!("{toml}{extra}\n"));
    test
}

// 1. Data loss -------------------------------------------------------------------

#[cfg(unix)]
#[test]
fn a_symlinked_assets_folder_is_refused_and_its_target_untouched() {
    let outside = tempfile::tempdir().unwrap();
    fs::create_dir_all(outside.path().join("photos")).unwrap();
    fs::write(outside.path().join("photos/cat.jpg"), "jpeg").unwrap();
    fs::write(outside.path().join(".gitignore"), "mine\n").unwrap();
    let test = BookTest::from_dir("hardening/basic");
    std::os::unix::fs::symlink(outside.path(), test.root.join("src/mathcourse-assets")).unwrap();
    let err = process(&test).unwrap_err();
    assert!(err.contains("is a symbolic link"), "{err}");
    assert!(err.contains("help: remove the link"), "{err}");
    assert_eq!(
        fs::read_to_string(outside.path().join("photos/cat.jpg")).unwrap(),
        "jpeg"
    );
    assert_eq!(
        fs::read_to_string(outside.path().join(".gitignore")).unwrap(),
        "mine\n"
    );
}

#[test]
fn an_assets_folder_we_did_not_make_is_left_alone() {
    let mut test = BookTest::from_dir("hardening/basic");
    test.change_file("src/mathcourse-assets/0.1.0-0123456789/notes.md", "mine");
    let err = process(&test).unwrap_err();
    assert!(err.contains("was not made by mdbook-mathcourse"), "{err}");
    assert!(test
        .root
        .join("src/mathcourse-assets/0.1.0-0123456789/notes.md")
        .exists());
}

// 2. Deep nesting: a located error, never an abort ----------------------------------

#[test]
fn deeply_nested_formulas_are_located_errors() {
    let cases = [
        format!("${}x{}$", "{".repeat(420), "}".repeat(420)),
        format!("${}1{}$", "\\frac{1}{".repeat(300), "}".repeat(300)),
        format!("${}2{}$", "\\sqrt{".repeat(300), "}".repeat(300)),
        format!("${}x{}$", "\\left(".repeat(500), "\\right)".repeat(500)),
    ];
    for tex in cases {
        let (text, errors) = chapter(&format!("# Deep\n\nA formula: {tex}\n"));
        assert_eq!(errors, 1, "{text}");
        assert!(text.contains("more than 100 deep"), "{text}");
        assert!(text.contains("src/chapter.md:3:"), "{text}");
    }
}

#[test]
fn unbraced_chains_do_not_overflow() {
    // No braces to count: the engine recurses once per command. The length limit and the
    // render threads' stack keep this an ordinary render (or a located error).
    for unit in ["\\sqrt", "\\frac1", "\\hat", "\\mathbf", "x^"] {
        let tex = unit.repeat(16 * 1024 / unit.len() - 2);
        let (text, _) = chapter(&format!("# Chain\n\n${tex} x$\n"));
        assert!(!text.contains("crashed"), "{unit}: {text}");
    }
}

#[test]
fn deeply_nested_directives_are_a_located_error() {
    // Inner directives may reuse the outer fence length (they close first).
    for depth in [40, 2000, 8000] {
        let mut text = String::from("# Deep\n\n");
        text.push_str(&":::{note}\n".repeat(depth));
        text.push_str("Body.\n");
        text.push_str(&":::\n".repeat(depth));
        let mut test = BookTest::from_dir("hardening/basic");
        test.change_file("src/chapter.md", &text);
        for renderer in ["html", "markdown"] {
            let (out, errors) = process_for(&test, renderer).unwrap();
            assert_eq!(errors, 1, "{renderer}: {out}");
            assert!(out.contains("directives nest more than 32 deep"), "{out}");
            assert!(out.contains("src/chapter.md:"), "{out}");
        }
    }
}

#[test]
fn a_template_that_includes_itself_is_refused() {
    let mut test = BookTest::from_dir("hardening/basic");
    test.change_file(
        "mathcourse-templates/claim.html",
        "{% include \"claim.html\" %}",
    );
    let err = process(&test).unwrap_err();
    assert!(err.contains("mathcourse-templates/claim.html"), "{err}");
    assert!(err.contains("not available in template overrides"), "{err}");
}

// 3. Panic in the option parser --------------------------------------------------

#[test]
fn an_empty_key_after_a_multibyte_value_does_not_panic() {
    let (text, errors) = chapter("# S\n\n:::{symbols}\n---\n- {a: é, \"\": 1}\n---\n:::\n");
    assert!(errors >= 1, "{text}");
    assert!(text.contains("src/chapter.md:5:"), "{text}");
}

// 5. Time: bounded with a located error -----------------------------------------------

#[test]
fn a_formula_over_the_length_limit_is_a_located_error() {
    let tex = "x+".repeat(20_000);
    let (text, errors) = chapter(&format!("# Long\n\n${tex}$\n"));
    assert_eq!(errors, 1, "{text}");
    assert!(
        text.contains("the most one formula may hold is 16384 bytes"),
        "{text}"
    );
}

// 6. Paths stay inside the book ---------------------------------------------------

#[test]
fn cache_dir_outside_the_book_root_or_in_src_is_refused() {
    for (value, says) in [
        ("/tmp/mathcourse-cache-test", "absolute path"),
        ("../..", "leaves the book"),
        (".", "the book root"),
        ("src", "source folder"),
        ("src/cache", "source folder"),
    ] {
        let test = with_config(&format!("cache-dir = \"{value}\""));
        let err = process(&test).unwrap_err();
        assert!(
            err.contains("option `cache-dir`") && err.contains(says),
            "{value}: {err}"
        );
        assert!(!test.root.join(".gitignore").exists(), "{value}");
    }
    assert!(!std::path::Path::new("/tmp/mathcourse-cache-test").exists());
}

#[test]
fn macros_and_symbols_files_are_read_only_inside_the_book() {
    for option in ["macros", "symbols"] {
        for value in [
            "/etc/passwd",
            "../../../../../../etc/passwd",
            "/proc/self/environ",
        ] {
            let test = with_config(&format!("{option} = \"{value}\""));
            let err = process(&test).unwrap_err();
            assert!(err.contains(&format!("option `{option}`")), "{err}");
            assert!(!err.contains("root:"), "{err}");
        }
    }
}

#[cfg(unix)]
#[test]
fn a_device_as_macros_file_is_refused_at_once() {
    let test = with_config("macros = \"zero\"");
    std::os::unix::fs::symlink("/dev/zero", test.root.join("zero")).unwrap();
    let err = process(&test).unwrap_err();
    assert!(err.contains("option `macros`"), "{err}");
}

// 7. Cache integrity ---------------------------------------------------------------

#[test]
fn a_pack_cut_in_half_is_rendered_again_and_rewritten() {
    let mut test = BookTest::from_dir("hardening/basic");
    test.change_file("src/chapter.md", "# C\n\n$a$ $b$ $c$ $d$ $e$ $f$\n");
    test.build();
    let good = test.main_of("chapter.html");
    let cache = test.root.join(".mathcourse-cache");
    let pack = fs::read_dir(&cache)
        .unwrap()
        .flatten()
        .map(|e| e.path())
        .find(|p| p.extension().is_some_and(|x| x == "pack"))
        .expect("a pack file");
    let full = fs::read(&pack).unwrap();
    fs::write(&pack, &full[..full.len() / 2]).unwrap();
    // The chapter's page (its whole output) cut too, as a copy tool that stopped
    // halfway leaves it: a page is reused only whole.
    let page = pack.with_extension("page");
    let full_page = fs::read(&page).unwrap();
    fs::write(&page, &full_page[..full_page.len() / 2]).unwrap();
    fs::write(cache.join(".tmp-pack-left-by-a-killed-build"), "x").unwrap();
    let old = std::time::SystemTime::now() - std::time::Duration::from_secs(3600);
    fs::File::options()
        .write(true)
        .open(cache.join(".tmp-pack-left-by-a-killed-build"))
        .unwrap()
        .set_modified(old)
        .unwrap();
    test.build();
    assert_eq!(test.main_of("chapter.html"), good);
    assert_eq!(fs::read(&pack).unwrap(), full, "the pack is whole again");
    assert_eq!(
        fs::read(&page).unwrap(),
        full_page,
        "the page is whole again"
    );
    assert!(!cache.join(".tmp-pack-left-by-a-killed-build").exists());
}

// 8. Template overrides ------------------------------------------------------------

#[test]
fn templates_cannot_read_the_environment() {
    let mut test = BookTest::from_dir("hardening/basic");
    test.change_file(
        "mathcourse-templates/claim.html",
        "<div>{{ get_env(name=\"HOME\") }}</div>{{ body }}",
    );
    test.change_file(
        "src/chapter.md",
        "# C\n\n:::{claim} established\nTrue.\n:::\n",
    );
    let (text, errors) = process(&test).unwrap();
    assert_eq!(errors, 1, "{text}");
    assert!(text.contains("`get_env()` is not available"), "{text}");
}

// 9. error-color ---------------------------------------------------------------------

#[test]
fn error_color_must_be_a_css_colour() {
    let test = with_config("error-color = \"red; background: url(https://example.com/x)\"");
    let err = process(&test).unwrap_err();
    assert!(
        err.contains("`error-color`") && err.contains("is not a CSS colour"),
        "{err}"
    );
}

// 4. Content is never lost in silence --------------------------------------------------

#[test]
fn bodies_that_would_be_discarded_are_errors() {
    for (name, options) in [
        ("symbols", "---\n- {id: a, tex: a, name: a}\n---\n"),
        (
            "symbol-table",
            "---\n- {id: a, tex: a, read: a, meaning: A letter}\n---\n",
        ),
        ("widget-reference", ""),
    ] {
        let (text, errors) = chapter(&format!(
            "# B\n\n:::{{{name}}}\n{options}Lost words here.\n:::\n"
        ));
        assert_eq!(errors, 1, "{name}: {text}");
        assert!(text.contains(&format!("`{name}` takes no body")), "{text}");
        assert!(
            text.contains("Lost words here."),
            "the caret shows the text: {text}"
        );
    }
}

#[test]
fn an_unclosed_symbols_block_is_reported() {
    let (text, errors) = chapter(
        "# B\n\n:::{symbols}\n---\n- {id: a, tex: a, name: a}\n---\n\n## Next section\n\nProse.\n",
    );
    assert!(errors >= 1, "{text}");
    assert!(text.contains("is never closed"), "{text}");
}

#[test]
fn arguments_that_would_be_discarded_are_errors() {
    for (name, options) in [
        ("watch", ":title: A talk\n:url: https://example.com/talk\n"),
        (
            "connection",
            ":discipline: Physics\n:level: 1\n:title: Springs\n",
        ),
        ("widget-reference", ""),
    ] {
        let (text, errors) = chapter(&format!("# A\n\n:::{{{name}}} Lost title\n{options}:::\n"));
        assert_eq!(errors, 1, "{name}: {text}");
        assert!(
            text.contains(&format!("`{name}` takes no argument")),
            "{text}"
        );
    }
}

#[test]
fn a_math_argument_is_the_first_line_of_the_equation() {
    let mut test = BookTest::from_dir("hardening/basic");
    test.change_file("src/chapter.md", "# M\n\n:::{math} a + b =\nc\n:::\n");
    test.build();
    let main = test.main_of("chapter.html");
    let tex = main.split(" data-tex=\"").nth(1).unwrap();
    let tex = &tex[..tex.find('"').unwrap()];
    assert!(tex.contains("a + b =") && tex.contains('c'), "{tex}");
}

#[test]
fn control_characters_are_replaced_and_reported() {
    let mut test = BookTest::from_dir("hardening/basic");
    test.change_file(
        "src/chapter.md",
        "# C\n\n:::{claim} empirical\n:source: A study\u{1} of things\nBody \u{1}text stays.\n:::\n\nAfter the claim.\n",
    );
    let (text, errors) = process(&test).unwrap();
    assert_eq!(errors, 0, "{text}");
    assert!(text.contains("control character U+0001"), "{text}");
    assert!(text.contains("src/chapter.md:4:"), "{text}");
    test.build();
    let main = test.main_of("chapter.html");
    assert!(main.contains("A study  of things"), "{main}");
    assert_eq!(main.matches("text stays.").count(), 1, "{main}");
    assert!(main.contains("After the claim."), "{main}");
}

#[test]
fn forbidden_commands_through_macros_are_reported() {
    let mut test = with_config(
        "[preprocessor.mathcourse.macros]\n\"\\\\link\" = \"\\\\href{https://example.com}{#1}\"\n\"\\\\deeper\" = \"\\\\link{x}\"",
    );
    test.change_file(
        "src/chapter.md",
        "# F\n\nSee $\\link{see this}$ and $\\deeper$.\n",
    );
    let (text, errors) = process(&test).unwrap();
    assert_eq!(errors, 2, "{text}");
    assert!(
        text.contains("`\\href` (through the macro `\\link`) is not allowed"),
        "{text}"
    );
    assert!(
        text.contains("`\\href` (through the macro `\\deeper`) is not allowed"),
        "{text}"
    );
    let (text, errors) = chapter("# F\n\n$\\htmlData{mc-sym=a, x=y}{z}$\n");
    assert_eq!(errors, 1, "{text}");
    assert!(text.contains("`\\htmlData` is not allowed"), "{text}");
}

#[test]
fn misplaced_directives_are_reported() {
    let (text, _) = chapter("# Q\n\n> :::{note}\n> Quoted.\n> :::\n");
    assert!(
        text.contains("inside a block quote is not read as a directive"),
        "{text}"
    );
    assert!(text.contains("src/chapter.md:3:1"), "{text}");
    for indent in ["    ", "   "] {
        let (text, _) = chapter(&format!(
            "# L\n\n- First item\n\n{indent}:::{{note}}\n{indent}In the item.\n{indent}:::\n\n- Second item\n"
        ));
        assert!(text.contains("inside a list item"), "{indent:?}: {text}");
        assert!(text.contains("src/chapter.md:5:"), "{text}");
    }
    // The same text at the left margin, and in an indented code block, is fine.
    let (text, _) = chapter("# L\n\n- Item\n\n:::{note}\nFine.\n:::\n\nCode:\n\n    :::{note}\n    shown as code\n    :::\n");
    assert!(!text.contains("warning"), "{text}");
}

#[test]
fn an_unclosed_code_fence_is_reported() {
    let (text, errors) =
        chapter("# C\n\n```rust\nlet x = 1;\n\n## Lost heading\n\nProse with $x$.\n");
    assert_eq!(errors, 0, "{text}");
    assert!(text.contains("code block is never closed"), "{text}");
    assert!(text.contains("src/chapter.md:3:1"), "{text}");
}

#[test]
fn widget_options_without_a_block_are_reported() {
    let (text, errors) = chapter(
        "# W\n\n:::{widget} softmax\nscores: [3, 1, 0]\ntemperature: 2\n\nA caption.\n:::\n",
    );
    assert_eq!(errors, 1, "{text}");
    assert!(text.contains("`scores` reads as caption text"), "{text}");
    assert!(text.contains("src/chapter.md:4:1"), "{text}");
}

#[test]
fn deep_nesting_in_inspectable_formulas_is_a_located_error() {
    let deep = format!("{}x{}", "{".repeat(20_000), "}".repeat(20_000));
    let (text, errors) = chapter(&format!(
        "# D\n\n:::{{formula}} Deep\n---\ntex: '{deep}'\nwhere:\n  - {{id: x, tex: x, name: x}}\n---\nReading.\n:::\n\n:::{{math}}\n:inspect: true\n{deep}\n:::\n"
    ));
    assert!(errors >= 2, "{text}");
    assert!(!text.contains("crashed"), "{text}");
}

// 10. Found by the fuzzer ------------------------------------------------------------------

#[test]
fn an_engine_error_with_a_parse_tree_dump_stays_short() {
    // Found by `cargo xtask fuzz` (chapter target, seed 1, inputs 632195 and 666857): an
    // unfinished environment name inside a long display made katex-rs put a debug dump of
    // its parse tree, repeating the formula per node, into the message (85 MB for 7 KB):
    // 9-12 s to escape and print.
    let body = ":::{claim} empirical\n".repeat(300);
    let (text, errors) = chapter(&format!(
        "# P\n\n$$\n\\theta\\begin{{pmatrix}} 1 & 2 \\end{{pmat{body}\n$$\n"
    ));
    assert!(errors >= 1, "{text}");
    assert!(text.len() < 200_000, "{} bytes of diagnostics", text.len());
    assert!(
        !text.contains("SourceLocation"),
        "{}",
        &text[..2000.min(text.len())]
    );
}

/// A role the build does not read (inside HTML, or with a space before its code span)
/// is reported where it is written, never left as silent raw text.
#[test]
fn roles_that_are_not_read_are_reported() {
    let (text, errors) = chapter(
        "# R\n\n<div>The root is {calc}`sqrt(4) = 2`.</div>\n\nSpaced: {calc} `sqrt(4) = 2`.\n\n<details>\n<summary>Read {eq}`eq-x`</summary>\n</details>\n\nFine: {calc}`sqrt(4) = 2`.\n",
    );
    assert_eq!(errors, 0, "{text}");
    assert_eq!(text.matches("warning:").count(), 3, "{text}");
    assert!(text.contains("src/chapter.md:3:18"), "{text}");
    assert!(
        text.contains("`{calc}` inside HTML is not read as a role"),
        "{text}"
    );
    assert!(text.contains("src/chapter.md:5:9"), "{text}");
    assert!(text.contains("is not followed by a code span"), "{text}");
    assert!(text.contains("src/chapter.md:8:15"), "{text}");
    // `{eq}` inside a formula is TeX, not a role (a real mdbook-katex book writes
    // `\widetilde{\textsf{eq}}(r, j)`).
    let (text, _) = chapter(
        "# R\n\n$$\n\\widetilde{\\textsf{eq}}(r, j) = 1\n$$\n\nInline $\\textsf{eq}(x)$ and \\(\\textsf{calc}(y)\\).\n",
    );
    assert!(!text.contains("warning:"), "{text}");
}

/// A chapter saved with Windows line ends builds as cleanly as one with `\n`: no `\r`
/// (nor `&#13;`, a parse error for mdBook's HTML check) in the formulas' HTML, and the
/// same HTML as the `\n` chapter.
#[test]
fn crlf_chapters_build_like_lf_chapters() {
    let lf = "# T\n\nInline $x$ here.\n\n$$\na = b\n$$\n\n:::{math}\n:label: eq-a\nc = d\n:::\n";
    let mut outputs = Vec::new();
    for text in [lf.to_string(), lf.replace('\n', "\r\n")] {
        let mut test = BookTest::from_dir("hardening/basic");
        test.change_file("src/chapter.md", &text);
        let (diagnostics, errors) = process(&test).unwrap();
        assert_eq!((diagnostics.as_str(), errors), ("", 0));
        test.build();
        let main = test.main_of("chapter.html");
        assert!(!main.contains('\r') && !main.contains("&#13;"), "{main}");
        outputs.push(main);
    }
    assert_eq!(outputs[0], outputs[1]);
}
