//! Helpers shared by the integration tests, in mdBook's own style: a fixture book in
//! `testsuite/<feature>/<case>/` is copied to a temporary folder, built in-process
//! with `mdbook-driver` and our preprocessor, and the `<main>` of each page is compared
//! with a reviewed snapshot (`SNAPSHOTS=overwrite cargo test` refreshes them; review the
//! diff before committing).

pub mod browser_support;

use std::fs;
use std::path::{Path, PathBuf};

use mdbook_driver::MDBook;
use mdbook_mathcourse::MathCourse;

/// Root of the `tests/` crate.
pub fn tests_dir() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

/// Root of the repository.
pub fn repo_dir() -> PathBuf {
    tests_dir().parent().unwrap().to_path_buf()
}

/// The result of running the preprocessor on the book: `Err` is a book-level error
/// (configuration, files), `Ok` holds every diagnostic rendered as the CLI prints it,
/// with the number of errors.
pub fn process(test: &BookTest) -> Result<(String, usize), String> {
    process_for(test, "html")
}

/// [`process`] for the renderer named `renderer`.
pub fn process_for(test: &BookTest, renderer: &str) -> Result<(String, usize), String> {
    use mdbook_mathcourse::diagnostic::{render_all, Severity};
    let md = MDBook::load(&test.root).map_err(|e| format!("{e:#}"))?;
    let ctx = mdbook_preprocessor::PreprocessorContext::new(
        test.root.clone(),
        md.config.clone(),
        renderer.into(),
    );
    let outcome =
        mdbook_mathcourse::process(&ctx, md.book.clone()).map_err(|e| format!("{e:#}"))?;
    let errors = outcome
        .diagnostics
        .iter()
        .filter(|d| d.severity == Severity::Error)
        .count();
    Ok((render_all(&outcome.diagnostics, false), errors))
}

/// Replaces the first file of the cache folder `dir` whose extension is `extension`
/// (`pack`, `page`, `uses`) with a FIFO, and returns its path.
#[cfg(unix)]
pub fn fifo_in_place_of(dir: &Path, extension: &str) -> PathBuf {
    let file = fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .find(|p| p.extension().is_some_and(|e| e == extension))
        .unwrap_or_else(|| panic!("no .{extension} file in {}", dir.display()));
    fs::remove_file(&file).unwrap();
    assert!(std::process::Command::new("mkfifo")
        .arg(&file)
        .status()
        .unwrap()
        .success());
    file
}

/// Runs the preprocessor on the book at `root` on a thread of its own, and panics when
/// it takes more than two minutes: a build that waits on a FIFO fails the test instead
/// of hanging it.
pub fn process_or_hang(root: &Path) -> mdbook_mathcourse::Outcome {
    let root = root.to_path_buf();
    let (send, receive) = std::sync::mpsc::channel();
    std::thread::spawn(move || {
        let md = MDBook::load(&root).unwrap();
        let ctx = mdbook_preprocessor::PreprocessorContext::new(
            root.clone(),
            md.config.clone(),
            "html".into(),
        );
        let _ = send.send(mdbook_mathcourse::process(&ctx, md.book.clone()).unwrap());
    });
    receive
        .recv_timeout(std::time::Duration::from_secs(120))
        .expect("the build waited on a FIFO")
}

/// The diagnostics of a book whose only chapter (`src/chapter.md`) is `text`.
pub fn chapter_diagnostics(text: &str) -> (String, usize) {
    let mut test = BookTest::from_dir("hardening/basic");
    test.change_file("src/chapter.md", text);
    process(&test).expect("the book itself is fine")
}

/// A fixture book copied to a temporary folder.
pub struct BookTest {
    /// The fixture folder (where snapshots live).
    pub fixture: PathBuf,
    /// The temporary copy that gets built.
    pub root: PathBuf,
    _tmp: tempfile::TempDir,
    /// The result of the last build: `Err` holds the error chain as text.
    pub result: Option<Result<(), String>>,
}

impl BookTest {
    /// Copies `testsuite/<path>` to a temporary folder.
    pub fn from_dir(path: &str) -> BookTest {
        let fixture = tests_dir().join("testsuite").join(path);
        assert!(fixture.is_dir(), "no fixture at {}", fixture.display());
        let tmp = tempfile::tempdir().unwrap();
        let root = tmp.path().join("book");
        copy_dir(&fixture, &root, &["expected"]);
        BookTest {
            fixture,
            root,
            _tmp: tmp,
            result: None,
        }
    }

    /// Copies the course book of the repository (`book/`, without its output folder and
    /// drafts) to a temporary folder.
    pub fn course_book() -> BookTest {
        let fixture = repo_dir().join("book");
        let tmp = tempfile::tempdir().unwrap();
        let root = tmp.path().join("book");
        copy_dir(&fixture, &root, &["book", "drafts"]);
        BookTest {
            fixture,
            root,
            _tmp: tmp,
            result: None,
        }
    }

    /// Replaces (or creates) a file of the book.
    pub fn change_file(&mut self, path: &str, contents: &str) -> &mut Self {
        let p = self.root.join(path);
        fs::create_dir_all(p.parent().unwrap()).unwrap();
        fs::write(p, contents).unwrap();
        self
    }

    /// Builds the book in-process with our preprocessor; remembers success or the error text.
    pub fn run_build(&mut self) -> &mut Self {
        let result = (|| -> anyhow::Result<()> {
            let mut book = MDBook::load(&self.root)?;
            book.with_preprocessor(MathCourse);
            book.build()
        })()
        .map_err(|e| error_chain(&e));
        self.result = Some(result);
        self
    }

    /// Builds and asserts success.
    pub fn build(&mut self) -> &mut Self {
        self.run_build();
        if let Some(Err(e)) = &self.result {
            panic!("build failed:\n{e}");
        }
        self
    }

    /// Builds, asserts failure, and returns the error text.
    pub fn build_error(&mut self) -> String {
        self.run_build();
        match self.result.take() {
            Some(Err(e)) => e,
            _ => panic!("expected the build to fail"),
        }
    }

    /// The text of a file of the built book (relative to `book/`).
    pub fn output(&self, path: &str) -> String {
        let p = self.root.join("book").join(path);
        fs::read_to_string(&p).unwrap_or_else(|e| panic!("read {}: {e}", p.display()))
    }

    /// The `<main>` element of a built page.
    pub fn main_of(&self, page: &str) -> String {
        main_element(&self.output(page))
    }

    /// The `<head>` element of a built page, with the assets tag replaced by
    /// `[ASSETS-TAG]`.
    pub fn head_of(&self, page: &str) -> String {
        let html = self.output(page);
        let start = html.find("<head>").expect("page has <head>");
        let end = html.find("</head>").expect("page has </head>");
        html[start..end].replace(mdbook_mathcourse::assets::tag(), "[ASSETS-TAG]")
    }

    /// Compares the `<main>` of a built page with `expected/<snapshot>` in the fixture.
    pub fn check_main_file(&mut self, page: &str, snapshot: &str) -> &mut Self {
        let actual = self.main_of(page);
        check_snapshot(&actual, &self.fixture.join("expected").join(snapshot));
        self
    }
}

/// An error and its causes as mdBook prints them (`Caused by:`), without a backtrace.
pub fn error_chain(err: &anyhow::Error) -> String {
    let mut out = err.to_string();
    let causes: Vec<String> = err.chain().skip(1).map(|c| c.to_string()).collect();
    if !causes.is_empty() {
        out.push_str("\n\nCaused by:");
        for c in causes {
            out.push_str("\n    ");
            out.push_str(&c);
        }
    }
    out.push('\n');
    out
}

/// Compares `actual` with a snapshot file (`SNAPSHOTS=overwrite` rewrites it).
pub fn check_snapshot(actual: &str, path: &Path) {
    snapbox::Assert::new()
        .action_env(snapbox::assert::DEFAULT_ACTION_ENV)
        .normalize_paths(false)
        .eq(actual.to_string(), snapbox::Data::read_from(path, None));
}

/// The `<main>...</main>` part of an HTML page, with a newline after every closing
/// block tag so snapshot diffs stay readable.
pub fn main_element(html: &str) -> String {
    let start = html.find("<main>").expect("page has <main>");
    let end = html.find("</main>").expect("page has </main>") + "</main>".len();
    let mut main = html[start..end].to_string();
    // Asset folders carry a content hash that changes with every CSS edit.
    let tag = mdbook_mathcourse::assets::tag();
    main = main.replace(tag, "[ASSETS-TAG]");
    main
}

fn copy_dir(from: &Path, to: &Path, skip: &[&str]) {
    fs::create_dir_all(to).unwrap();
    for entry in fs::read_dir(from).unwrap() {
        let entry = entry.unwrap();
        let name = entry.file_name();
        if skip.iter().any(|s| name == *s) {
            continue;
        }
        let path = entry.path();
        if path.is_dir() {
            copy_dir(&path, &to.join(&name), &[]);
        } else {
            fs::copy(&path, to.join(&name)).unwrap();
        }
    }
}

/// Every typeset formula of the built pages, one line each: page, `I`/`D`, TeX (from
/// the `data-tex` attribute that holds it in place of KaTeX's MathML annotation,
/// whitespace collapsed), the format of the corpus's `reference.tsv`.
pub fn typeset_formulas(test: &BookTest, pages: &[&str]) -> String {
    let mut out = String::new();
    for page in pages {
        let html = test.main_of(page);
        let starts: Vec<usize> = html
            .match_indices("<span class=\"katex\"")
            .map(|(i, _)| i)
            .filter(|&i| matches!(html.as_bytes().get(i + 19), Some(b' ' | b'>')))
            .collect();
        for (n, &s) in starts.iter().enumerate() {
            let seg = &html[s..starts.get(n + 1).copied().unwrap_or(html.len())];
            let tag = &seg[..seg.find('>').unwrap_or(seg.len())];
            let tex = tag
                .split_once(" data-tex=\"")
                .and_then(|(_, r)| r.split_once('"'))
                .map_or("?", |(t, _)| t);
            let tex = decode_references(tex);
            let tex = tex.split_whitespace().collect::<Vec<_>>().join(" ");
            let display = html[..s].ends_with("<span class=\"katex-display\">");
            out.push_str(&format!(
                "{page}\t{}\t{tex}\n",
                if display { "D" } else { "I" }
            ));
        }
    }
    out
}

/// `text` with HTML character references decoded (named: the five of XML; numeric).
pub fn decode_references(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    let mut rest = text;
    while let Some(at) = rest.find('&') {
        out.push_str(&rest[..at]);
        rest = &rest[at..];
        let end = rest.find(';').filter(|&e| e <= 10);
        let decoded = end.and_then(|e| match &rest[1..e] {
            "lt" => Some('<'),
            "gt" => Some('>'),
            "quot" => Some('"'),
            "amp" => Some('&'),
            "apos" => Some('\''),
            n => n
                .strip_prefix('#')
                .and_then(|d| match d.strip_prefix(['x', 'X']) {
                    Some(h) => u32::from_str_radix(h, 16).ok(),
                    None => d.parse().ok(),
                })
                .and_then(char::from_u32),
        });
        match (decoded, end) {
            (Some(c), Some(e)) => {
                out.push(c);
                rest = &rest[e + 1..];
            }
            _ => {
                out.push('&');
                rest = &rest[1..];
            }
        }
    }
    out.push_str(rest);
    out
}
