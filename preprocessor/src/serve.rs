//! Errors where the author is looking: under `mdbook serve`, a build with errors does
//! not fail (the browser would keep the old page with no sign of trouble). Each chapter
//! with errors gets a panel at its top listing them exactly as the terminal does
//! (file:line:col, the source line, the caret, the hint), and the page reloads as
//! usual. `mdbook build` still fails.
//!
//! mdBook tells a preprocessor it runs under `serve` through the configuration it
//! passes: `serve` (0.4 and 0.5 alike) sets `output.html.live-reload-endpoint`, which a
//! book's own `book.toml` never needs.

use std::path::{Path, PathBuf};

use mdbook_preprocessor::book::Book;
use mdbook_preprocessor::config::Config as MdBookConfig;

use crate::diagnostic::{render_all, Diagnostic, Severity};
use crate::html::escape;

/// True when the book is built by `mdbook serve` (a live-reload endpoint is set).
pub fn serving(config: &MdBookConfig) -> bool {
    config
        .get::<String>("output.html.live-reload-endpoint")
        .ok()
        .flatten()
        .is_some_and(|endpoint| !endpoint.is_empty())
}

/// Under `mdbook serve`, the files this build reads that `serve` does not watch: it
/// rebuilds when `src/`, the theme folder, book.toml or a `[build] extra-watch-dirs`
/// entry changes, so an edit to the macros file, the symbols file or a template
/// override beside them showed nowhere until some other file changed. `inputs` are
/// those files (relative to the book `root`, existing ones only: `serve` refuses to
/// start on a watch entry that does not exist); `watched` are the folders above.
pub fn unwatched_warning(root: &Path, inputs: &[PathBuf], watched: &[PathBuf]) -> Option<String> {
    let watched: Vec<PathBuf> = watched.iter().map(|w| lexical(&root.join(w))).collect();
    let missing: Vec<String> = inputs
        .iter()
        .filter(|input| {
            let full = lexical(&root.join(input));
            full.exists() && !watched.iter().any(|w| full.starts_with(w))
        })
        .map(|input| format!("\"{}\"", input.display()))
        .collect();
    if missing.is_empty() {
        return None;
    }
    Some(format!(
        "`mdbook serve` does not watch {}, which this book reads: an edit there shows only after another file changes; add to book.toml: `[build] extra-watch-dirs = [{}]`",
        missing.join(", "),
        missing.join(", ")
    ))
}

/// `path` with `.` and `..` resolved by name (without touching the file system).
fn lexical(path: &Path) -> PathBuf {
    let mut out = PathBuf::new();
    for c in path.components() {
        match c {
            std::path::Component::CurDir => {}
            std::path::Component::ParentDir => {
                out.pop();
            }
            other => out.push(other),
        }
    }
    out
}

/// Puts a panel listing its errors at the top of each chapter that has errors. Errors
/// whose file is no chapter of the book (a symbols file, say) go on the first chapter.
/// `src` is the book's source folder as the diagnostics show it (`src`).
pub fn show_errors_in_pages(book: &mut Book, diagnostics: &[Diagnostic], src: &Path) {
    let errors: Vec<&Diagnostic> = diagnostics
        .iter()
        .filter(|d| d.severity == Severity::Error)
        .collect();
    if errors.is_empty() {
        return;
    }
    let total = errors.len();
    let shown_path = |ch: &mdbook_preprocessor::book::Chapter| {
        ch.source_path
            .clone()
            .or_else(|| ch.path.clone())
            .map(|p| src.join(p))
    };
    let pages: Vec<PathBuf> = book.chapters().filter_map(shown_path).collect();
    let mut placed: std::collections::HashMap<PathBuf, Vec<Diagnostic>> = Default::default();
    for d in errors {
        let page = if pages.contains(&d.path) {
            d.path.clone()
        } else if let Some(first) = pages.first() {
            first.clone()
        } else {
            return;
        };
        placed.entry(page).or_default().push(d.clone());
    }
    book.for_each_chapter_mut(|ch| {
        if let Some(list) = shown_path(ch).and_then(|p| placed.get(&p)) {
            ch.content.insert_str(0, &panel(list, total));
        }
    });
}

/// The panel for one page's errors (`total`: errors in the whole book).
fn panel(errors: &[Diagnostic], total: usize) -> String {
    let here = errors.len();
    let count = |n: usize| format!("{n} error{}", if n == 1 { "" } else { "s" });
    let elsewhere = if total > here {
        format!(" ({} in the whole book)", count(total))
    } else {
        String::new()
    };
    format!(
        "<div class=\"mc-build-errors\" role=\"alert\">\n<p class=\"mc-build-errors-title\"><strong>The build found {} on this page{elsewhere}.</strong> <code>mdbook build</code> fails until they are fixed. Below, a block with an error is shown as its source text.</p>\n<pre tabindex=\"0\">{}</pre>\n</div>\n\n",
        count(here),
        // One source line: a blank line would end the HTML block, and Markdown would
        // read the rest.
        escape(render_all(errors, false).trim_end()).replace('\n', "&#10;")
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use mdbook_preprocessor::book::{BookItem, Chapter};

    #[test]
    fn files_outside_the_watched_folders_are_named_once() {
        let dir = tempfile::tempdir().unwrap();
        let root = dir.path();
        std::fs::create_dir_all(root.join("src/parts")).unwrap();
        std::fs::create_dir_all(root.join("mathcourse-templates")).unwrap();
        for f in ["macros.txt", "symbols.yml", "src/parts/symbols.yml"] {
            std::fs::write(root.join(f), "").unwrap();
        }
        let inputs = |names: &[&str]| names.iter().map(PathBuf::from).collect::<Vec<_>>();
        let watched = inputs(&["src", "theme"]);
        let w = unwatched_warning(
            root,
            &inputs(&[
                "macros.txt",
                "./src/parts/symbols.yml",
                "mathcourse-templates",
                "gone.yml",
            ]),
            &watched,
        )
        .unwrap();
        assert!(
            w.ends_with("`[build] extra-watch-dirs = [\"macros.txt\", \"mathcourse-templates\"]`"),
            "{w}"
        );
        let mut all = watched.clone();
        all.extend(inputs(&["macros.txt", "./mathcourse-templates/"]));
        assert_eq!(
            unwatched_warning(root, &inputs(&["macros.txt", "mathcourse-templates"]), &all),
            None
        );
    }

    #[test]
    fn each_page_lists_its_own_errors() {
        let mut book = Book::new();
        for name in ["a", "b"] {
            book.push_item(Chapter::new(
                name,
                format!("# {name}\n\nText <x>.\n"),
                format!("{name}.md"),
                Vec::new(),
            ));
        }
        let source: std::sync::Arc<str> = "# b\n\nText <x>.\n".into();
        let error = Diagnostic::error(Path::new("src/b.md"), &source, 10..13, "bad <thing>")
            .with_label("here");
        show_errors_in_pages(&mut book, &[error], Path::new("src"));
        let contents: Vec<String> = book
            .iter()
            .filter_map(|item| match item {
                BookItem::Chapter(ch) => Some(ch.content.clone()),
                _ => None,
            })
            .collect();
        assert!(!contents[0].contains("mc-build-errors"), "{}", contents[0]);
        assert!(contents[1].starts_with("<div class=\"mc-build-errors\" role=\"alert\">"));
        assert!(
            contents[1].contains("1 error on this page"),
            "{}",
            contents[1]
        );
        assert!(
            contents[1].contains("error: bad &lt;thing&gt;"),
            "{}",
            contents[1]
        );
        assert!(
            contents[1].contains("--&gt; src/b.md:3:6"),
            "{}",
            contents[1]
        );
        assert!(contents[1].ends_with("</pre>\n</div>\n\n# b\n\nText <x>.\n"));
        let panel = contents[1].split("</pre>").next().unwrap();
        assert!(
            !panel.contains("\n\n"),
            "a blank line ends the HTML block: {panel}"
        );
    }
}
