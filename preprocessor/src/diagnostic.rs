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

    /// [`line_col`] of byte `offset` in `text` (the text this index was made of), in
    /// time that grows with the length of that one line, not with the text.
    pub fn line_col(&self, text: &str, offset: usize) -> (usize, usize) {
        let offset = floor_char_boundary(text, offset.min(text.len()));
        let line = self.line_of(offset);
        let col = text[self.starts[line]..offset].chars().count() + 1;
        (line + 1, col)
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

/// Line indexes of the sources diagnostics point into, made once per source (the
/// diagnostics of one chapter share one `Arc`), so locating many diagnostics costs
/// each one only its own line, not a pass over the chapter.
#[derive(Default)]
struct Indexes {
    by_source: std::collections::HashMap<*const u8, (std::sync::Arc<str>, LineIndex)>,
}

impl Indexes {
    fn of(&mut self, source: &std::sync::Arc<str>) -> &LineIndex {
        // The `Arc` kept in the map keeps the address from being reused.
        &self
            .by_source
            .entry(std::sync::Arc::as_ptr(source) as *const u8)
            .or_insert_with(|| (source.clone(), LineIndex::new(source)))
            .1
    }
}

/// Drops repeats: the same problem (severity, file, place, message and label) reported
/// from several places, e.g. a symbol's typo found in its table, a legend and the index
/// (each moved to the definition). Two problems on one line (two formulas that fail,
/// each with its own caret) are both kept.
pub fn dedup(diagnostics: &mut Vec<Diagnostic>) {
    let mut seen = std::collections::HashSet::new();
    diagnostics.retain(|d| {
        seen.insert((
            d.severity,
            d.path.clone(),
            d.span.clone(),
            d.message.clone(),
            d.label.clone(),
        ))
    });
}

/// At most this many errors, and this many warnings, are shown for one file; the
/// rest are summed up in one line that says how many and on which lines.
pub const MAX_SHOWN_PER_FILE: usize = 50;

/// Renders a list of diagnostics, errors and warnings in source order: the first
/// [`MAX_SHOWN_PER_FILE`] errors and warnings of each file in full, then for each file
/// with more, one line saying how many more there are and where.
pub fn render_all(diagnostics: &[Diagnostic], color: bool) -> String {
    let mut out = String::new();
    let mut indexes = Indexes::default();
    // Per (file, severity): how many were seen, and the count and lines of those not
    // shown (in order of their first hidden diagnostic).
    let mut counts: std::collections::HashMap<(&Path, Severity), (usize, Option<usize>)> =
        Default::default();
    let mut hidden: Vec<(&Path, Severity, usize, Vec<usize>)> = Vec::new();
    for d in diagnostics {
        let lines = indexes.of(&d.source);
        let (seen, slot) = counts.entry((d.path.as_path(), d.severity)).or_default();
        *seen += 1;
        if *seen > MAX_SHOWN_PER_FILE {
            let line = lines.line_of(d.span.start) + 1;
            let i = *slot.get_or_insert_with(|| {
                hidden.push((d.path.as_path(), d.severity, 0, Vec::new()));
                hidden.len() - 1
            });
            hidden[i].2 += 1;
            hidden[i].3.push(line);
            continue;
        }
        out.push_str(&d.render_with(color, lines));
        out.push_str("\n\n");
    }
    for (path, severity, count, mut lines) in hidden {
        lines.sort_unstable();
        lines.dedup();
        out.push_str(&more_line(path, severity, count, &lines, color));
    }
    out
}

/// The line that stands for the diagnostics of one file and severity not shown, e.g.
/// `error: 950 more errors in src/a.md, not shown: on 950 lines from 60 to 1009 (60, 61, …)`.
fn more_line(
    path: &Path,
    severity: Severity,
    count: usize,
    lines: &[usize],
    color: bool,
) -> String {
    let (level, kind) = match severity {
        Severity::Error => ("error", "error"),
        Severity::Warning => ("warning", "warning"),
    };
    let level = if color {
        let code = if severity == Severity::Error { 31 } else { 33 };
        format!("\x1b[1;{code}m{level}\x1b[0m")
    } else {
        level.to_string()
    };
    let s = if count == 1 { "" } else { "s" };
    let place = match lines {
        [one] => format!("on line {one}"),
        [first, .., last] => {
            let shown: Vec<String> = lines.iter().take(5).map(|l| l.to_string()).collect();
            let more = if lines.len() > 5 { ", …" } else { "" };
            format!(
                "on {} lines from {first} to {last} ({}{more})",
                lines.len(),
                shown.join(", ")
            )
        }
        [] => String::new(),
    };
    format!(
        "{level}: {count} more {kind}{s} in {}, not shown: {place}\n  = note: at most {MAX_SHOWN_PER_FILE} {kind}s of one file are shown in full; fix those shown and build again to see the rest\n\n",
        path.display()
    )
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

/// `` `a` ``, `` `a` or `b` ``, or "one of `a`, `b`, `c`": the names a message lists.
pub fn one_of(names: &[&str]) -> String {
    match names {
        [] => String::new(),
        [a] => format!("`{a}`"),
        [a, b] => format!("`{a}` or `{b}`"),
        _ => format!("one of {}", backticked(names)),
    }
}

/// `` `a`, `b`, `c` `` for messages.
pub fn backticked(names: &[&str]) -> String {
    names
        .iter()
        .map(|n| format!("`{n}`"))
        .collect::<Vec<_>>()
        .join(", ")
}

#[cfg(test)]
mod tests {
    use super::suggest;
    use super::{dedup, Diagnostic};

    /// Two formulas that fail on one line are two problems (found on a real book: the
    /// second undefined command of a line was never shown); the same problem reported
    /// twice at the same place is one.
    #[test]
    fn dedup_keeps_two_problems_of_one_line() {
        let source: std::sync::Arc<str> = "a $\\Foo$ and $\\Bar$\n".into();
        let path = std::path::Path::new("a.md");
        let at = |span: std::ops::Range<usize>, label: &str| {
            Diagnostic::error(path, &source, span, "LaTeX error in inline math").with_label(label)
        };
        let mut ds = vec![
            at(3..7, "Undefined control sequence: \\Foo"),
            at(14..18, "Undefined control sequence: \\Bar"),
            at(3..7, "Undefined control sequence: \\Foo"),
        ];
        dedup(&mut ds);
        assert_eq!(ds.len(), 2, "{ds:?}");
        assert_eq!(ds[1].span, 14..18);
    }

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
        let lines = LineIndex::new(&src);
        for i in [0, 7_999, 15_999] {
            let at = i * line.len() + 5;
            let d = Diagnostic::warning(Path::new("src/a.md"), &src, at..at + 3, "w");
            let text = d.render_with(false, &lines);
            assert_eq!(text.matches("text $x$ more").count(), 1, "{text}");
            assert!(text.contains(&format!("src/a.md:{}:6", i + 1)), "{text}");
            assert_eq!(lines.line_col(&src, at), line_col(&src, at));
        }
        // A span over two lines shows both.
        let d = Diagnostic::error(Path::new("a.md"), &src, 5..line.len() + 8, "two");
        assert_eq!(d.render(false).matches("text $x$ more").count(), 2);
    }

    #[test]
    fn many_errors_of_one_file_are_summed_up_after_a_limit() {
        // Issue #23: 16,000 broken formulas printed 16,000 seven-line errors.
        let line = "text $x$ more\n";
        let src: Arc<str> = Arc::from(line.repeat(16_000));
        let other: Arc<str> = Arc::from("one $y$\n");
        let mut ds: Vec<Diagnostic> = (0..16_000)
            .map(|i| {
                let at = i * line.len() + 5;
                Diagnostic::error(Path::new("src/a.md"), &src, at..at + 3, "e")
            })
            .collect();
        // Warnings are counted apart from errors, and each file on its own.
        ds.push(Diagnostic::warning(Path::new("src/a.md"), &src, 5..8, "w"));
        ds.push(Diagnostic::error(Path::new("src/b.md"), &other, 4..7, "e"));
        let text = render_all(&ds, false);
        assert_eq!(
            text.matches("text $x$ more").count(),
            MAX_SHOWN_PER_FILE + 1,
            "{text}"
        );
        assert!(text.contains("src/a.md:50:6"), "{text}");
        assert!(!text.contains("src/a.md:51:6"), "{text}");
        assert!(text.contains("src/b.md:1:5"), "{text}");
        assert!(text.contains("warning: w\n --> src/a.md:1:6"), "{text}");
        let more = text.trim_end().rsplit("\n\n").next().unwrap();
        assert_eq!(
            more,
            "error: 15950 more errors in src/a.md, not shown: on 15950 lines from 51 to 16000 (51, 52, 53, 54, 55, …)\n  = note: at most 50 errors of one file are shown in full; fix those shown and build again to see the rest"
        );
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
