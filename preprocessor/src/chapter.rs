//! One chapter through the pipeline: front matter → scan → render math → splice.
//!
//! Input is the chapter's Markdown; output is the same Markdown with each formula's
//! byte range replaced by rendered HTML (every other byte unchanged), plus the
//! diagnostics found on the way. Pure apart from the formula cache.

use std::ops::Range;
use std::path::Path;
use std::sync::Arc;

use crate::cache::{self, Cache};
use crate::config::OnError;
use crate::diagnostic::Diagnostic;
use crate::frontmatter;
use crate::html;
use crate::math::{self, MathError, MathOptions};
use crate::scan::{self, MathSpan};

/// Book-wide settings every chapter shares.
#[derive(Debug)]
pub struct BookContext {
    /// Render options with the book-wide macros.
    pub options: MathOptions,
    /// Fingerprint of `options` (cache key part).
    pub fingerprint: String,
    /// What a LaTeX error does.
    pub on_error: OnError,
    /// Colour of the error box.
    pub error_color: String,
    /// The formula cache.
    pub cache: Cache,
    /// Link KaTeX's stylesheet (false with mdbook-katex's `no-css`).
    pub link_katex_css: bool,
}

/// What processing one chapter produced.
#[derive(Debug, Default)]
pub struct ChapterOutput {
    /// New Markdown.
    pub content: String,
    /// Problems found, in source order.
    pub diagnostics: Vec<Diagnostic>,
    /// Formulas served from the cache.
    pub cache_hits: usize,
    /// Formulas rendered.
    pub cache_misses: usize,
}

/// Renders every formula of one chapter for the HTML renderer.
///
/// `path` is the chapter's path inside `src/` (for relative asset links and the cache);
/// `display_path` is the path shown in diagnostics.
pub fn render_chapter(
    source: &str,
    path: &Path,
    display_path: &Path,
    book: &BookContext,
) -> ChapterOutput {
    let source: Arc<str> = Arc::from(source);
    let mut diagnostics = Vec::new();
    let block = frontmatter::locate(&source);
    let body_start = block.as_ref().map_or(0, |b| b.body_start);

    let mut chapter_options = None;
    if let Some(block) = &block {
        match frontmatter::parse(&source, block) {
            Ok(fm) if !fm.macros.is_empty() => {
                let mut options = book.options.clone();
                options.macros.extend(fm.macros);
                let fingerprint = options.fingerprint();
                chapter_options = Some((options, fingerprint));
            }
            Ok(_) => {}
            Err(err) => diagnostics.push(
                Diagnostic::error(
                    display_path,
                    &source,
                    err.offset..err.offset + 1,
                    "invalid front matter",
                )
                .with_label(err.message)
                .with_hint("front matter is YAML between `---` lines; the keys mathcourse reads are listed in the author guide"),
            ),
        }
    }
    let (options, fingerprint) = match &chapter_options {
        Some((o, f)) => (o, f.as_str()),
        None => (&book.options, book.fingerprint.as_str()),
    };

    let scan = scan::scan(&source, body_start);
    for range in &scan.suspicious {
        let text = &source[range.clone()];
        let unbalanced = text.matches('{').count() != text.matches('}').count();
        let d = if unbalanced {
            Diagnostic::error(
                display_path,
                &source,
                range.clone(),
                "unbalanced braces in math",
            )
            .with_label("this `$...$` was not typeset: its `{` and `}` do not pair up")
            .with_hint("every `{` needs a matching `}`; count the braces of this formula")
        } else {
            Diagnostic::warning(display_path, &source, range.clone(), "`$...$` was not recognized as math")
                .with_label("shown as plain text")
                .with_hint("inline math must not start or end with a space (`$x$`, not `$ x $`); write `\\$` for a literal dollar")
        };
        diagnostics.push(d);
    }
    let spans = scan.math;
    let mut pack = book.cache.pack(path);
    let mut replacements: Vec<(Range<usize>, String)> = Vec::with_capacity(spans.len());
    for span in &spans {
        let display = span.delimiter.is_display();
        let key = cache::key(fingerprint, display, &span.tex);
        match pack.get_or_render(&key, || math::render(&span.tex, display, options)) {
            Ok(html) => replacements.push((span.range.clone(), html)),
            Err(err) => {
                let diagnostic = math_diagnostic(display_path, &source, span, &err, book.on_error);
                if book.on_error == OnError::Warn {
                    replacements
                        .push((span.range.clone(), error_box(span, &err, &book.error_color)));
                }
                diagnostics.push(diagnostic);
            }
        }
    }
    let (cache_hits, cache_misses) = (pack.hits, pack.misses);
    if let Err(err) = pack.save() {
        diagnostics.push(
            Diagnostic::warning(display_path, &source, 0..0, "could not write the formula cache")
                .with_label(err.to_string())
                .with_hint("check that the cache folder (option `cache-dir`) is writable; the build itself is fine"),
        );
    }

    let mut content =
        crate::assets::head_html(&crate::assets::path_to_root(path), book.link_katex_css);
    content.push('\n');
    content.push_str(&splice(&source[body_start..], body_start, &replacements));
    ChapterOutput {
        content,
        diagnostics,
        cache_hits,
        cache_misses,
    }
}

/// Removes front matter for renderers other than HTML; math stays as its TeX source.
pub fn degrade_chapter(source: &str) -> String {
    match frontmatter::locate(source) {
        Some(block) => source[block.body_start..].to_string(),
        None => source.to_string(),
    }
}

/// Replaces `replacements` (ranges relative to the full source, sorted, disjoint) in
/// `body`, which starts at byte `base` of the full source.
pub fn splice(body: &str, base: usize, replacements: &[(Range<usize>, String)]) -> String {
    let extra: usize = replacements.iter().map(|(_, s)| s.len()).sum();
    let mut out = String::with_capacity(body.len() + extra);
    let mut pos = 0;
    for (range, text) in replacements {
        let (start, end) = (range.start - base, range.end - base);
        out.push_str(&body[pos..start]);
        out.push_str(text);
        pos = end;
    }
    out.push_str(&body[pos..]);
    out
}

fn math_diagnostic(
    path: &Path,
    source: &Arc<str>,
    span: &MathSpan,
    err: &MathError,
    on_error: OnError,
) -> Diagnostic {
    let headline = format!("LaTeX error in {}", span.delimiter.describe());
    let d = match on_error {
        OnError::Fail => Diagnostic::error(path, source, span.range.clone(), headline),
        OnError::Warn => Diagnostic::warning(path, source, span.range.clone(), headline),
    };
    let mut label = err.message.clone();
    if let (Some(pos), Some(_)) = (err.position, span.tex_offset) {
        let (tex_before, tex_at) = span.tex.split_at(pos.min(span.tex.len()));
        let near: String = tex_at.chars().take(12).collect();
        if !near.is_empty() {
            label.push_str(&format!(
                " (at `{near}`, character {})",
                tex_before.chars().count() + 1
            ));
        }
    }
    d.with_label(label).with_hint(hint_for(err))
}

fn hint_for(err: &MathError) -> String {
    let m = &err.message;
    if err.engine_panic {
        "this is a bug in the math engine, not in your formula; please report it with the formula, and rewrite the formula to work around it".into()
    } else if m.contains("Undefined control sequence") {
        "check the spelling, or define the command as a macro (book.toml `[preprocessor.mathcourse.macros]`, a macros file, or `macros:` in the chapter's front matter)".into()
    } else if m.contains("expected '}'")
        || m.contains("Expected '}'")
        || m.contains("Unexpected '}'")
        || m.contains("Extra }")
    {
        "every `{` needs a matching `}`; count the braces of this formula".into()
    } else if m.contains("Expected '\\right'") || m.contains("\\left") {
        "every `\\left` needs a matching `\\right` (use `\\right.` for an invisible one)".into()
    } else {
        "see the commands KaTeX supports: https://katex.org/docs/supported.html (or set `on-error = \"warn\"` to build anyway)".into()
    }
}

fn error_box(span: &MathSpan, err: &MathError, color: &str) -> String {
    let open = if span.delimiter.is_display() {
        "\\["
    } else {
        "$"
    };
    let close = if span.delimiter.is_display() {
        "\\]"
    } else {
        "$"
    };
    let source = format!("{open}{}{close}", span.tex);
    let markup = format!(
        "<span class=\"mc-math-error\" role=\"note\" style=\"--mc-error-color: {}\"><strong class=\"mc-math-error-label\">LaTeX error</strong> <code class=\"mc-math-error-source\">{}</code> <span class=\"mc-math-error-message\">{}</span></span>",
        html::escape(color),
        html::escape(&source),
        html::escape(&err.message),
    );
    math::markdown_safe(&markup)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn book(on_error: OnError) -> BookContext {
        let options = MathOptions::default();
        BookContext {
            fingerprint: options.fingerprint(),
            options,
            on_error,
            error_color: "#cc0000".into(),
            cache: Cache::new(None),
            link_katex_css: true,
        }
    }

    #[test]
    fn everything_outside_math_is_unchanged() {
        let src = "# T\n\nCode `$x$` and *emph* $a_1$ end.\n\n```\n$$y$$\n```\n";
        let out = render_chapter(
            src,
            Path::new("t.md"),
            Path::new("src/t.md"),
            &book(OnError::Fail),
        );
        assert!(out.diagnostics.is_empty());
        let body = out.content.split_once("\n\n").unwrap().1;
        let (before, rest) = body.split_once("<span class=\"katex\">").unwrap();
        assert_eq!(before, "# T\n\nCode `$x$` and *emph* ");
        assert!(
            rest.ends_with("</span> end.\n\n```\n$$y$$\n```\n"),
            "{rest}"
        );
    }

    #[test]
    fn error_fails_or_warns_with_box() {
        let unbalanced = "Bad $\\frac{1}{2$ here.\n";
        let out = render_chapter(
            unbalanced,
            Path::new("t.md"),
            Path::new("src/t.md"),
            &book(OnError::Fail),
        );
        assert_eq!(out.diagnostics.len(), 1);
        assert_eq!(out.diagnostics[0].message, "unbalanced braces in math");

        let src = "Bad $\\frac{1}{2}\\nope$ here.\n";
        let out = render_chapter(
            src,
            Path::new("t.md"),
            Path::new("src/t.md"),
            &book(OnError::Fail),
        );
        assert_eq!(out.diagnostics.len(), 1);
        assert_eq!(
            out.diagnostics[0].severity,
            crate::diagnostic::Severity::Error
        );
        assert!(out.content.contains("$\\frac{1}{2}\\nope$"));

        let out = render_chapter(
            src,
            Path::new("t.md"),
            Path::new("src/t.md"),
            &book(OnError::Warn),
        );
        assert_eq!(
            out.diagnostics[0].severity,
            crate::diagnostic::Severity::Warning
        );
        assert!(out.content.contains("mc-math-error"));
        assert!(!out.content.contains("$\\frac"));
    }

    #[test]
    fn chapter_macros_from_front_matter() {
        let src = "---\nmacros:\n  \\V: \\mathbf{v}\n---\n$\\V$\n";
        let out = render_chapter(
            src,
            Path::new("t.md"),
            Path::new("src/t.md"),
            &book(OnError::Fail),
        );
        assert!(out.diagnostics.is_empty(), "{:?}", out.diagnostics);
        assert!(out.content.contains("mathbf"));
        assert!(!out.content.contains("macros:"));
    }

    #[test]
    fn nested_chapter_links_assets_relatively() {
        let out = render_chapter(
            "x",
            Path::new("a/b.md"),
            Path::new("src/a/b.md"),
            &book(OnError::Fail),
        );
        assert!(out
            .content
            .starts_with("<link rel=\"stylesheet\" href=\"../mathcourse-assets/"));
    }
}
