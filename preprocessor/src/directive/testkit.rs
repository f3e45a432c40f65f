//! Unit-test helpers for directive modules: render one chapter source with a default
//! book (no macros, failing on errors) and look at the output or the diagnostics.

use std::path::Path;

use crate::chapter::{render_source, BookContext, ChapterOutput};
use crate::config::OnError;

fn book(src: &str) -> BookContext {
    BookContext {
        notation: crate::book_pass::collect_notation(
            Vec::new(),
            &[crate::book_pass::ChapterRecord::lone(src)],
        )
        .0,
        ..BookContext::standalone(OnError::Fail)
    }
    .with_chapter_macros()
}

fn run(src: &str, html: bool) -> ChapterOutput {
    render_source(
        src,
        Path::new("t.md"),
        Path::new("src/t.md"),
        &book(src),
        html,
    )
}

/// The HTML-renderer output of `src`; panics on any diagnostic.
pub fn render(src: &str) -> String {
    let out = run(src, true);
    let text: Vec<String> = out.diagnostics.iter().map(|d| d.render(false)).collect();
    assert!(out.diagnostics.is_empty(), "{}", text.join("\n"));
    out.content
}

/// Every diagnostic of `src`, rendered as text (`src/t.md:line:col` ...); panics when
/// there is none.
pub fn errors(src: &str) -> String {
    let out = run(src, true);
    assert!(
        !out.diagnostics.is_empty(),
        "expected an error:\n{}",
        out.content
    );
    out.diagnostics
        .iter()
        .map(|d| d.render(false))
        .collect::<Vec<_>>()
        .join("\n")
}

/// The plain-Markdown output of `src` for other renderers.
pub fn degrade(src: &str) -> String {
    run(src, false).content
}
