//! The binary as mdBook runs it: `supports`, and the JSON protocol on stdin/stdout.

use std::io::Write;
use std::path::PathBuf;
use std::process::{Command, Output, Stdio};

use mdbook_preprocessor::book::{Book, BookItem, Chapter};
use mdbook_preprocessor::config::Config;
use mdbook_preprocessor::PreprocessorContext;

fn bin() -> Command {
    Command::new(env!("CARGO_BIN_EXE_mdbook-mathcourse"))
}

#[test]
fn supports_every_renderer() {
    for renderer in ["html", "markdown", "epub", "linkcheck"] {
        let status = bin().args(["supports", renderer]).status().unwrap();
        assert!(status.success(), "{renderer}");
    }
}

#[test]
fn help_explains_supports() {
    let out = bin().arg("--help").output().unwrap();
    let text = String::from_utf8(out.stdout).unwrap();
    assert!(text.contains("supports"), "{text}");
}

#[test]
fn widgets_lists_every_widget_and_its_parameters() {
    let out = bin().arg("widgets").output().unwrap();
    assert!(out.status.success());
    let text = String::from_utf8(out.stdout).unwrap();
    for (name, _, params) in mathcourse_widgets::CATALOG {
        assert!(
            text.contains(&format!(":::{{widget}} {name}\n")),
            "{name}: {text}"
        );
        for (param, _, _) in params.iter() {
            assert!(text.contains(&format!("    {param} ")), "{name}.{param}");
        }
    }
    let one = bin().args(["widgets", "softmax"]).output().unwrap();
    let one = String::from_utf8(one.stdout).unwrap();
    assert!(
        one.contains("temperature") && !one.contains(":::{widget} vectors"),
        "{one}"
    );
    let bad = bin().args(["widgets", "softmx"]).output().unwrap();
    assert!(!bad.status.success());
    assert!(String::from_utf8_lossy(&bad.stderr).contains("the widgets are: vectors"));
}

/// `mdbook build` by the real mdBook CLI in `book`, with our binary first on PATH.
fn real_mdbook_build(book: &std::path::Path) -> Output {
    let ours = PathBuf::from(env!("CARGO_BIN_EXE_mdbook-mathcourse"));
    let path = format!(
        "{}:{}",
        ours.parent().unwrap().display(),
        std::env::var("PATH").unwrap_or_default()
    );
    Command::new("mdbook")
        .arg("build")
        .current_dir(book)
        .env("PATH", path)
        .output()
        .expect("the real `mdbook` CLI (cargo xtask test installs it: cargo install mdbook --version 0.5.4 --locked)")
}

#[test]
fn init_makes_a_book_that_the_real_mdbook_builds_without_warnings() {
    let dir = tempfile::tempdir().unwrap();
    let book = dir.path().join("course");
    let out = bin().args(["init"]).arg(&book).output().unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(book.join(".github/workflows/book.yml").exists());
    let built = real_mdbook_build(&book);
    let stderr = String::from_utf8_lossy(&built.stderr);
    assert!(built.status.success(), "{stderr}");
    assert!(
        !stderr.contains("warning") && !stderr.contains("WARN"),
        "{stderr}"
    );
    let page = std::fs::read_to_string(book.join("book/softmax.html")).unwrap();
    for part in [
        "mc-claim",
        "mc-formula",
        "mc-check",
        "data-widget=\"softmax\"",
        "mc-practice",
        "<math",
    ] {
        assert!(page.contains(part), "{part} missing");
    }
    // A second init refuses and writes nothing.
    let again = bin().args(["init"]).arg(&book).output().unwrap();
    assert!(!again.status.success());
    assert!(String::from_utf8_lossy(&again.stderr).contains("nothing was written"));
}

/// mdBook runs the preprocessors once per renderer: with HTML and Markdown output, a
/// warning is said once (by the HTML run), not twice; with Markdown alone, once too.
#[test]
fn a_second_renderer_does_not_repeat_the_warnings() {
    for (outputs, expected) in [
        ("[output.html]\n[output.markdown]\n", 1),
        ("[output.markdown]\n", 1),
        ("", 1),
    ] {
        let dir = tempfile::tempdir().unwrap();
        let book = dir.path();
        std::fs::create_dir_all(book.join("src")).unwrap();
        std::fs::write(
            book.join("book.toml"),
            format!("[book]\ntitle = \"T\"\n\n[preprocessor.mathcourse]\n\n{outputs}"),
        )
        .unwrap();
        std::fs::write(book.join("src/SUMMARY.md"), "# Summary\n\n- [C](c.md)\n").unwrap();
        // A warning every renderer's run finds (math is typeset for HTML only).
        std::fs::write(book.join("src/c.md"), "# C\n\nA bell \u{7} here.\n").unwrap();
        let built = real_mdbook_build(book);
        let stderr = String::from_utf8_lossy(&built.stderr);
        assert!(built.status.success(), "{stderr}");
        assert_eq!(
            stderr.matches("warning: control character U+0007").count(),
            expected,
            "{outputs:?}: {stderr}"
        );
    }
}

fn run(renderer: &str, chapter: &str) -> (Output, tempfile::TempDir) {
    let dir = tempfile::tempdir().unwrap();
    std::fs::create_dir_all(dir.path().join("src")).unwrap();
    let mut config = Config::default();
    config.set("preprocessor.mathcourse.cache", false).unwrap();
    let ctx = PreprocessorContext::new(dir.path().to_path_buf(), config, renderer.to_string());
    let mut book = Book::new();
    book.push_item(BookItem::Chapter(Chapter::new(
        "Chapter",
        chapter.to_string(),
        PathBuf::from("chapter.md"),
        Vec::new(),
    )));
    let input = serde_json::to_vec(&(ctx, book)).unwrap();
    (run_with_input(&input), dir)
}

/// Runs the preprocessor with `input` on standard input.
fn run_with_input(input: &[u8]) -> Output {
    let mut child = bin()
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    child.stdin.take().unwrap().write_all(input).unwrap();
    child.wait_with_output().unwrap()
}

fn chapter_content(out: &Output) -> String {
    let book: Book = serde_json::from_slice(&out.stdout).unwrap();
    match &book.items[0] {
        BookItem::Chapter(ch) => ch.content.clone(),
        _ => panic!("not a chapter"),
    }
}

#[test]
fn html_protocol_round_trip() {
    let (out, dir) = run("html", "# Chapter\n\nEuler: $e^{i\\pi} + 1 = 0$.\n");
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let content = chapter_content(&out);
    assert!(
        content.contains("<span class=\"katex\" data-tex="),
        "{content}"
    );
    assert!(content.contains("# Chapter\n\nEuler: <span"), "{content}");
    assert!(dir.path().join("src/mathcourse-assets").is_dir());
}

#[test]
fn markdown_renderer_keeps_tex() {
    let (out, _dir) = run("markdown", "---\nmacros: {}\n---\n# C\n\n$x$\n");
    assert!(out.status.success());
    assert_eq!(chapter_content(&out), "# C\n\n$x$\n");
}

#[test]
fn latex_error_exits_non_zero_with_location() {
    let (out, _dir) = run("html", "# Chapter\n\nSee $\\frac{1}{2}\\oops$.\n");
    assert!(!out.status.success());
    let stderr = String::from_utf8(out.stderr).unwrap();
    assert!(
        stderr.contains("error: LaTeX error in inline math"),
        "{stderr}"
    );
    // The caret on the unknown command itself.
    assert!(stderr.contains("src/chapter.md:3:17"), "{stderr}");
    assert!(stderr.contains("See $\\frac{1}{2}\\oops$."), "{stderr}");
    assert!(
        stderr.contains("Undefined control sequence: \\oops"),
        "{stderr}"
    );
    assert!(stderr.contains("help:"), "{stderr}");
    assert!(out.stdout.is_empty());
}

#[test]
fn garbage_input_is_a_clear_error() {
    let out = run_with_input(b"not json");
    assert!(!out.status.success());
    let stderr = String::from_utf8(out.stderr).unwrap();
    assert!(stderr.contains("reads a book as JSON"), "{stderr}");
}

/// The mdBook 0.4 CLI that `cargo xtask test` installs into `target/` (as it installs
/// mdBook 0.5.4 on the PATH).
fn mdbook_04() -> PathBuf {
    let bin = PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("..")
        .join("target")
        .join(format!("mdbook-{MDBOOK_04}"))
        .join("bin")
        .join("mdbook");
    assert!(
        bin.is_file(),
        "mdBook {MDBOOK_04} is missing at {}: `cargo xtask test` installs it (or: cargo install mdbook --version {MDBOOK_04} --locked --no-default-features --root target/mdbook-{MDBOOK_04})",
        bin.display()
    );
    bin
}

/// The mdBook 0.4 release the protocol test runs (keep in step with xtask's `MDBOOK_04`).
const MDBOOK_04: &str = "0.4.52";

#[test]
fn the_real_mdbook_04_builds_a_book_with_parts_and_separators() {
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path();
    std::fs::create_dir_all(root.join("src/part")).unwrap();
    std::fs::write(
        root.join("book.toml"),
        format!(
            "[book]\ntitle = \"Old mdBook\"\n\n[preprocessor.mathcourse]\ncommand = {:?}\n",
            env!("CARGO_BIN_EXE_mdbook-mathcourse")
        ),
    )
    .unwrap();
    std::fs::write(
        root.join("src/SUMMARY.md"),
        "# Summary\n\n[Intro](intro.md)\n\n# A part\n\n- [One](part/one.md)\n  - [Two](part/two.md)\n\n---\n\n[After](after.md)\n",
    )
    .unwrap();
    std::fs::write(
        root.join("src/intro.md"),
        "# Intro\n\nEuler: $e^{i\\pi} + 1 = 0$.\n",
    )
    .unwrap();
    std::fs::write(
        root.join("src/part/one.md"),
        "# One\n\n$$\\int_0^1 x\\,dx$$\n",
    )
    .unwrap();
    std::fs::write(root.join("src/part/two.md"), "# Two\n\n```math\na^2\n```\n").unwrap();
    std::fs::write(root.join("src/after.md"), "# After\n\n\\(y\\)\n").unwrap();
    let out = Command::new(mdbook_04())
        .arg("build")
        .current_dir(root)
        .output()
        .unwrap();
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(out.status.success(), "{stderr}");
    assert!(!stderr.contains("warning"), "{stderr}");
    for page in ["intro.html", "part/one.html", "part/two.html", "after.html"] {
        let html = std::fs::read_to_string(root.join("book").join(page)).unwrap();
        assert!(html.contains("<span class=\"katex\""), "{page}: {html}");
    }
    // The part title and the separator survived the round trip.
    let toc = std::fs::read_to_string(root.join("book/toc.html")).unwrap();
    assert!(toc.contains("A part"), "{toc}");
    assert!(toc.contains("spacer"), "{toc}");
}

#[test]
fn an_unknown_protocol_is_an_error_naming_both_versions() {
    let out = run_with_input(br#"[{"root":"/b","mdbook_version":"0.9.0"},{"chapters":[]}]"#);
    assert!(!out.status.success());
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(stderr.contains("mdBook 0.9.0"), "{stderr}");
    assert!(
        stderr.contains("mdBook 0.5's `items`") && stderr.contains("mdBook 0.4's `sections`"),
        "{stderr}"
    );
}

#[test]
fn convert_mathjax_rewrites_formulas_with_single_backslashes() {
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path();
    std::fs::create_dir_all(root.join("src")).unwrap();
    std::fs::write(
        root.join("book.toml"),
        "[book]\ntitle = \"T\"\n\n[output.html]\nmathjax-support = true\n",
    )
    .unwrap();
    std::fs::write(root.join("src/SUMMARY.md"), "# Summary\n\n- [A](a.md)\n").unwrap();
    let chapter = "# A\n\nSee \\\\(k_\\min \\\\{x\\\\}\\\\) for $5.\n";
    std::fs::write(root.join("src/a.md"), chapter).unwrap();
    let dry = bin().arg("convert-mathjax").arg(root).output().unwrap();
    assert!(dry.status.success());
    assert!(String::from_utf8_lossy(&dry.stdout)
        .contains("1 formulas in 1 of 2 Markdown files would be rewritten"));
    assert_eq!(
        std::fs::read_to_string(root.join("src/a.md")).unwrap(),
        chapter
    );
    let out = bin()
        .arg("convert-mathjax")
        .arg(root)
        .arg("--write")
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert_eq!(
        std::fs::read_to_string(root.join("src/a.md")).unwrap(),
        "# A\n\nSee \\(k_\\min \\{x\\}\\) for \\$5.\n"
    );
}

/// The version handshake: `--version` and `supports` say which mdBook versions the
/// binary speaks, and a book built by another mdBook gets a warning naming both.
#[test]
fn the_binary_says_which_mdbook_it_speaks_and_warns_outside_it() {
    let version = bin().arg("--version").output().unwrap();
    let text = String::from_utf8_lossy(&version.stdout);
    assert!(text.contains("for mdBook 0.4.x and 0.5.x"), "{text}");
    // `supports` answers by its exit status alone (mdBook shows its output in every
    // build); its help says which mdBook versions the binary speaks.
    let supports = bin().args(["supports", "html"]).output().unwrap();
    assert!(supports.status.success() && supports.stdout.is_empty());
    let help = bin().args(["supports", "--help"]).output().unwrap();
    let text = String::from_utf8_lossy(&help.stdout);
    assert!(text.contains("speaks mdBook 0.4.x and 0.5.x"), "{text}");

    let mut config = Config::default();
    config.set("preprocessor.mathcourse.cache", false).unwrap();
    let dir = tempfile::tempdir().unwrap();
    let ctx = PreprocessorContext::new(dir.path().to_path_buf(), config, "html".to_string());
    let mut input = serde_json::to_value((ctx, Book::new())).unwrap();
    input[0]["mdbook_version"] = serde_json::json!("0.6.1");
    let out = run_with_input(&serde_json::to_vec(&input).unwrap());
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(
        stderr.contains("but this book is built by mdBook 0.6.1") && stderr.contains("0.5.x"),
        "{stderr}"
    );
    // The versions it speaks get no warning.
    let (out, _dir) = run("html", "# C\n");
    assert!(!String::from_utf8_lossy(&out.stderr).contains("speaks"));
}
