//! Located diagnostics: `file:line:col`, the source line with a caret, a message and a hint.
//!
//! Every stage reports author mistakes as [`Diagnostic`] values carrying a byte span
//! into the chapter source; they are rendered once, at the end, with annotate-snippets
//! (the rustc look), so the author sees every problem of a build at once.

use std::ops::Range;
use std::path::{Path, PathBuf};

use annotate_snippets::{AnnotationKind, Level, Renderer, Snippet};

/// How bad a diagnostic is.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Severity {
    /// The build goes on; printed as `warning:`.
    Warning,
    /// The build fails; printed as `error:`.
    Error,
}

/// One author-facing problem, tied to a span of a source file.
#[derive(Debug, Clone, PartialEq)]
pub struct Diagnostic {
    /// Error or warning.
    pub severity: Severity,
    /// Headline, e.g. `LaTeX error in inline math`.
    pub message: String,
    /// File the span points into, as the author knows it (e.g. `src/intro.md`).
    pub path: PathBuf,
    /// Byte range inside [`Diagnostic::source`] underlined by the caret.
    pub span: Range<usize>,
    /// Short label printed under the caret.
    pub label: String,
    /// `help:` line: what to do about it.
    pub hint: Option<String>,
    /// The whole source text the span points into.
    pub source: std::sync::Arc<str>,
}

impl Diagnostic {
    /// An error at `span` of `source`.
    pub fn error(
        path: &Path,
        source: &std::sync::Arc<str>,
        span: Range<usize>,
        message: impl Into<String>,
    ) -> Self {
        Diagnostic {
            severity: Severity::Error,
            message: message.into(),
            path: path.to_path_buf(),
            span: clamp_span(source, span),
            label: String::new(),
            hint: None,
            source: source.clone(),
        }
    }

    /// A warning at `span` of `source`.
    pub fn warning(
        path: &Path,
        source: &std::sync::Arc<str>,
        span: Range<usize>,
        message: impl Into<String>,
    ) -> Self {
        Diagnostic {
            severity: Severity::Warning,
            ..Diagnostic::error(path, source, span, message)
        }
    }

    /// Sets the label under the caret.
    pub fn with_label(mut self, label: impl Into<String>) -> Self {
        self.label = label.into();
        self
    }

    /// Sets the `help:` hint.
    pub fn with_hint(mut self, hint: impl Into<String>) -> Self {
        self.hint = Some(hint.into());
        self
    }

    /// 1-based line and column (in characters) of the span start.
    pub fn line_col(&self) -> (usize, usize) {
        line_col(&self.source, self.span.start)
    }

    /// Renders the diagnostic as text; `color` adds ANSI styles for a terminal.
    pub fn render(&self, color: bool) -> String {
        self.render_with(color, &LineIndex::new(&self.source))
    }

    /// [`Diagnostic::render`] with the line index of [`Diagnostic::source`] made once
    /// (many diagnostics of one chapter share it). Only the lines the span covers are
    /// handed to the renderer, so the cost does not grow with the chapter.
    fn render_with(&self, color: bool, lines: &LineIndex) -> String {
        let first = lines.line_of(self.span.start);
        let last = lines.line_of(self.span.end.saturating_sub(1).max(self.span.start));
        let from = lines.starts[first];
        let to = lines
            .starts
            .get(last + 1)
            .copied()
            .unwrap_or(self.source.len());
        let excerpt = &self.source[from..to];
        let span = self.span.start - from..self.span.end - from;
        let level = match self.severity {
            Severity::Error => Level::ERROR,
            Severity::Warning => Level::WARNING,
        };
        let path = self.path.display().to_string();
        let mut annotation = AnnotationKind::Primary.span(span);
        if !self.label.is_empty() {
            annotation = annotation.label(self.label.as_str());
        }
        let snippet = Snippet::source(excerpt)
            .line_start(first + 1)
            .path(path.as_str())
            .annotation(annotation);
        let mut group = level.primary_title(self.message.as_str()).element(snippet);
        if let Some(hint) = &self.hint {
            group = group.element(Level::HELP.message(hint.as_str()));
        }
        let renderer = if color {
            Renderer::styled()
        } else {
            Renderer::plain()
        };
        renderer.render(&[group]).to_string()
    }
}

/// Where each line of a text starts (byte offsets), for locating many offsets cheaply.
pub struct LineIndex {
    starts: Vec<usize>,
}

impl LineIndex {
    pub fn new(text: &str) -> LineIndex {
        let mut starts = vec![0];
        starts.extend(text.match_indices('\n').map(|(i, _)| i + 1));
        LineIndex { starts }
    }

    /// 0-based line of byte `offset`.
    fn line_of(&self, offset: usize) -> usize {
        self.starts
            .partition_point(|&s| s <= offset)
            .saturating_sub(1)
    }
}

/// 1-based line and column (counted in characters) of byte `offset` in `text`.
pub fn line_col(text: &str, offset: usize) -> (usize, usize) {
    let offset = floor_char_boundary(text, offset.min(text.len()));
    let before = &text[..offset];
    let line = before.matches('\n').count() + 1;
    let line_start = before.rfind('\n').map_or(0, |i| i + 1);
    let col = text[line_start..offset].chars().count() + 1;
    (line, col)
}

fn floor_char_boundary(text: &str, mut i: usize) -> usize {
    while i > 0 && !text.is_char_boundary(i) {
        i -= 1;
    }
    i
}

fn clamp_span(source: &str, span: Range<usize>) -> Range<usize> {
    let start = floor_char_boundary(source, span.start.min(source.len()));
    let end = floor_char_boundary(source, span.end.min(source.len())).max(start);
    start..end
}

/// Drops repeats: the same problem (severity, file, line and message) reported from
/// several places, e.g. a symbol's typo found in its table, a legend and the index.
pub fn dedup(diagnostics: &mut Vec<Diagnostic>) {
    let mut seen = std::collections::HashSet::new();
    diagnostics.retain(|d| {
        let (line, _) = d.line_col();
        seen.insert((d.severity, d.path.clone(), line, d.message.clone()))
    });
}

/// Renders a list of diagnostics, errors and warnings in source order.
pub fn render_all(diagnostics: &[Diagnostic], color: bool) -> String {
    let mut out = String::new();
    let mut index: Option<(std::sync::Arc<str>, LineIndex)> = None;
    for d in diagnostics {
        let same = index
            .as_ref()
            .is_some_and(|(source, _)| std::sync::Arc::ptr_eq(source, &d.source));
        if !same {
            index = Some((d.source.clone(), LineIndex::new(&d.source)));
        }
        let lines = &index.as_ref().expect("set above").1;
        out.push_str(&d.render_with(color, lines));
        out.push_str("\n\n");
    }
    out
}

/// The candidate closest to `word` (Jaro–Winkler similarity above 0.8), for "did you
/// mean". The one place a misspelled name is matched: options, directive names, roles,
/// statuses, widgets and their parameters, check kinds and `calc` names.
///
/// Short names (`l3` beside `l1`, `l2`) score low on Jaro–Winkler, so a candidate one
/// edit away (a letter changed, added, dropped or two swapped) also counts, for words of
/// two characters or more.
pub fn suggest<'a>(word: &str, candidates: &[&'a str]) -> Option<&'a str> {
    let close = |c: &str| {
        word.chars().count() >= 2
            && c.chars().count() >= 2
            && strsim::damerau_levenshtein(word, c) == 1
    };
    candidates
        .iter()
        .map(|c| (strsim::jaro_winkler(word, c), *c))
        .filter(|(score, c)| *score > 0.8 || close(c))
        .max_by(|a, b| a.0.total_cmp(&b.0))
        .map(|(_, c)| c)
}

/// `"; did you mean `x`?"` when [`suggest`] finds a candidate, else nothing.
pub fn did_you_mean(word: &str, candidates: &[&str]) -> String {
    suggest(word, candidates).map_or_else(String::new, |c| format!("; did you mean `{c}`?"))
}

#[cfg(test)]
mod tests {
    use super::suggest;

    #[test]
    fn short_names_one_edit_away_are_suggested() {
        assert_eq!(suggest("l3", &["l1", "x"]), Some("l1"));
        assert_eq!(suggest("coss", &["cos", "sin"]), Some("cos"));
        assert_eq!(suggest("mu", &["um", "sigma"]), Some("um"));
        assert_eq!(suggest("x", &["y"]), None);
        assert_eq!(suggest("ab", &["xyz"]), None);
    }

    use super::*;
    use std::sync::Arc;

    #[test]
    fn line_col_counts_chars() {
        let text = "ab\nçd $x$\n";
        assert_eq!(line_col(text, 0), (1, 1));
        assert_eq!(line_col(text, 3), (2, 1));
        let dollar = text.find('$').unwrap();
        assert_eq!(line_col(text, dollar), (2, 4));
    }

    #[test]
    fn many_diagnostics_render_only_their_lines() {
        // Regression: 16,000 diagnostics each re-rendered the whole source (quadratic).
        let line = "text $x$ more\n";
        let src: Arc<str> = Arc::from(line.repeat(16_000));
        let ds: Vec<Diagnostic> = (0..16_000)
            .map(|i| {
                let at = i * line.len() + 5;
                Diagnostic::warning(Path::new("src/a.md"), &src, at..at + 3, "w")
            })
            .collect();
        let text = render_all(&ds, false);
        assert_eq!(text.matches("text $x$ more").count(), 16_000);
        assert!(
            text.contains("src/a.md:16000:6"),
            "{}",
            &text[text.len() - 300..]
        );
        // A span over two lines shows both.
        let d = Diagnostic::error(Path::new("a.md"), &src, 5..line.len() + 8, "two");
        assert_eq!(d.render(false).matches("text $x$ more").count(), 2);
    }

    #[test]
    fn renders_path_line_col_caret_and_hint() {
        let src: Arc<str> = Arc::from("# T\n\nThe $\\frac{1}{2$ here.\n");
        let start = src.find('$').unwrap();
        let d = Diagnostic::error(
            Path::new("src/a.md"),
            &src,
            start..start + 12,
            "LaTeX error",
        )
        .with_label("Expected '}'")
        .with_hint("close every brace");
        let text = d.render(false);
        assert!(text.contains("error: LaTeX error"), "{text}");
        assert!(text.contains("src/a.md:3:5"), "{text}");
        assert!(text.contains("The $\\frac{1}{2$ here."), "{text}");
        assert!(text.contains("^^^^^^^^^^^^ Expected '}'"), "{text}");
        assert!(text.contains("help: close every brace"), "{text}");
    }
}
