//! One chapter through the pipeline: front matter → directives → math and roles →
//! splice.
//!
//! Input is the chapter's Markdown; output is the same Markdown with each directive
//! block and formula replaced by HTML (every other byte unchanged), plus the
//! diagnostics found on the way.

use std::ops::Range;
use std::path::Path;
use std::sync::Arc;

use crate::cache::Cache;
use crate::config::OnError;
use crate::diagnostic::Diagnostic;
use crate::directive::{Cx, Labels};
use crate::frontmatter;
use crate::html;
use crate::math::{self, MathError, MathOptions};
use crate::scan::{Declined, DeclinedPair, MathSpan};
use crate::templates::Templates;

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
    /// What the top of each chapter links (KaTeX's stylesheet, reading progress).
    pub head: crate::assets::Head,
    /// Directive templates.
    pub templates: Templates,
    /// Equation labels of the whole book.
    pub labels: Labels,
    /// Symbols and claims of the whole book.
    pub notation: crate::notation::Notation,
    /// The chapter (path inside `src/`) of each module number set in front matter
    /// (`module: 7`): prerequisites link to it, and its equations are numbered `7.n`.
    pub modules: std::collections::BTreeMap<u32, std::path::PathBuf>,
    /// What an undefined letter in an inspectable formula does.
    pub undefined_symbols: crate::config::UndefinedSymbols,
    /// Render options and fingerprint of each chapter with front-matter macros, for
    /// typesetting its symbols on other pages (see [`BookContext::with_chapter_macros`]).
    pub chapter_options: std::collections::HashMap<std::path::PathBuf, (MathOptions, String)>,
}

impl BookContext {
    /// The context of a book with default options, no cache, the built-in templates and
    /// no other chapters: for rendering one chapter on its own (tests, the fuzzer).
    pub fn standalone(on_error: OnError) -> BookContext {
        let options = MathOptions::default();
        BookContext {
            fingerprint: options.fingerprint(),
            options,
            on_error,
            error_color: "#cc0000".into(),
            cache: Cache::new(None),
            head: crate::assets::Head::default(),
            templates: Templates::builtin(),
            labels: Labels::new(),
            notation: crate::notation::Notation::default(),
            modules: Default::default(),
            undefined_symbols: crate::config::UndefinedSymbols::Warn,
            chapter_options: Default::default(),
        }
    }

    /// Fills [`BookContext::chapter_options`] from the chapters' front-matter macros
    /// the notation collector found.
    pub fn with_chapter_macros(mut self) -> BookContext {
        self.chapter_options = self
            .notation
            .chapter_macros
            .iter()
            .map(|(path, macros)| {
                let mut options = self.options.clone();
                options.macros.extend(macros.clone());
                let fingerprint = options.fingerprint();
                (path.clone(), (options, fingerprint))
            })
            .collect();
        self
    }
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

/// Processes one chapter. `html` selects full rendering (the HTML renderer) or plain
/// Markdown (any other renderer).
///
/// `path` is the chapter's path inside `src/` (for relative links and the cache);
/// `display_path` is the path shown in diagnostics.
pub fn render_chapter(
    source: &str,
    path: &Path,
    display_path: &Path,
    book: &BookContext,
    html: bool,
) -> ChapterOutput {
    let source: Arc<str> = Arc::from(source);
    let mut diagnostics = Vec::new();
    let block = frontmatter::locate(&source);
    let body_start = block.as_ref().map_or(0, |b| b.body_start);

    let mut chapter_options = None;
    let mut front = frontmatter::FrontMatter::default();
    if let Some(block) = &block {
        match frontmatter::parse(&source, block) {
            Ok(fm) => {
                if !fm.macros.is_empty() {
                    let mut options = book.options.clone();
                    options.macros.extend(fm.macros.clone());
                    let fingerprint = options.fingerprint();
                    chapter_options = Some((options, fingerprint));
                }
                front = fm;
            }
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

    let pack = if html {
        book.cache.pack(path)
    } else {
        Cache::new(None).pack(path)
    };
    let mut cx = Cx {
        source: source.clone(),
        display_path,
        chapter_path: path,
        book,
        math_options: options,
        fingerprint,
        pack,
        diagnostics,
        html,
        next_id: 0,
        counters: crate::notation::Counters::default(),
        anchors: std::collections::HashSet::new(),
        nesting: 0,
    };
    let header = crate::header::render(&front, block.as_ref(), &mut cx);
    for (opener, place) in
        crate::directive::block::misplaced_openers(&source, body_start..source.len())
    {
        let d = match place {
            crate::directive::block::Misplaced::BlockQuote => cx
                .warning(opener, "a directive inside a block quote is not read as a directive")
                .with_label("shown as plain text")
                .with_hint("directives are read only outside block quotes: move the block out of the quote (a `{note}` or another callout can hold the quoted text)"),
            crate::directive::block::Misplaced::ListItem => cx
                .warning(opener, "a directive inside a list item is not read as part of the list")
                .with_label("indented under a list item")
                .with_hint("indented four spaces or more it is not read as a directive; indented less, its block ends the list; put the directive at the left margin, after the list"),
        };
        cx.diagnostics.push(d);
    }
    let body = cx.markdown(body_start..source.len());
    let Cx {
        pack,
        mut diagnostics,
        ..
    } = cx;
    let (cache_hits, cache_misses) = (pack.hits, pack.misses);
    if let Err(err) = pack.save() {
        diagnostics.push(
            Diagnostic::warning(display_path, &source, 0..0, "could not write the formula cache")
                .with_label(err.to_string())
                .with_hint("check that the cache folder (option `cache-dir`) is writable; the build itself is fine"),
        );
    }
    diagnostics.sort_by_key(|d| d.span.start);

    // Asset links are in the theme's `head.hbs` (`assets::head_hbs`), not here.
    let content = if html && !header.is_empty() {
        header + "\n" + &body
    } else {
        header + &body
    };
    ChapterOutput {
        content,
        diagnostics,
        cache_hits,
        cache_misses,
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
        if start < pos {
            continue;
        }
        out.push_str(&body[pos..start]);
        out.push_str(text);
        pos = end;
    }
    out.push_str(&body[pos..]);
    out
}

/// At most this many kept-as-text dollar pairs are reported one by one per stretch of
/// Markdown; the rest are counted in one last warning.
pub(crate) const MAX_DECLINED_SHOWN: usize = 20;

/// The warning for a dollar pair that mdbook-katex would typeset and this build keeps
/// as text: why, and how to get it typeset (or silence it).
pub(crate) fn declined_diagnostic(cx: &Cx, pair: &DeclinedPair) -> Diagnostic {
    let range = pair.range.clone();
    let (label, hint) = match pair.why {
        Declined::CloserStartsWord => (
            "kept as text: the second `$` starts a number or a word, so these read as two prose dollars (a price, a shell variable)",
            "if this is a formula, put no digit right after its closing `$`, and no space before it when a letter follows; if these are dollar signs, write them `\\$` (`costs \\$5 and \\$10`)",
        ),
        Declined::OpenerEndsWord => (
            "kept as text: the first `$` ends a word and a space follows it, as in `US$ 20`",
            "if this is a formula, put a space before its opening `$`; if this is a dollar sign, write it `\\$`",
        ),
        Declined::BlankLine => (
            "kept as text: these two dollars are in different paragraphs",
            "a formula cannot contain a blank line: close it before the paragraph ends, or use `$$...$$`; write a dollar sign as `\\$`",
        ),
        Declined::CrossesCode => (
            "kept as text: a code span, code block or HTML comment lies between these dollars",
            "a formula cannot contain code; a `$` that is not math must be written `\\$` (e.g. `costs \\$5`)",
        ),
    };
    cx.warning(
        range,
        "`$...$` kept as text (mdbook-katex would typeset it as math)",
    )
    .with_label(label)
    .with_hint(hint)
}

/// The warning that counts the kept-as-text dollar pairs not reported one by one.
pub(crate) fn more_declined_diagnostic(cx: &Cx, first: &DeclinedPair, more: usize) -> Diagnostic {
    cx.warning(
        first.range.clone(),
        format!("{more} more `$...$` pairs kept as text from here on"),
    )
    .with_label("not reported one by one")
    .with_hint("write each dollar sign that is not math as `\\$`")
}

/// The diagnostic for a formula KaTeX rejected.
pub(crate) fn math_diagnostic(cx: &Cx, span: &MathSpan, err: &MathError) -> Diagnostic {
    let headline = format!("LaTeX error in {}", span.delimiter.describe());
    // The caret on the offending part when the engine located it in TeX that is a
    // verbatim slice of the source; otherwise on the whole formula.
    let at = match (span.tex_offset, err.position) {
        (Some(offset), Some(pos)) if pos <= span.tex.len() => {
            let start = offset + floor(&span.tex, pos);
            let len = err.length.unwrap_or(1).max(1);
            start..(start + len).min(offset + span.tex.len()).max(start + 1)
        }
        _ => span.range.clone(),
    };
    let d = match cx.book.on_error {
        OnError::Fail => cx.error(at, headline),
        OnError::Warn => cx.warning(at, headline),
    };
    let mut label = err.message.clone();
    if let Some(pos) = err.position {
        let (tex_before, tex_at) = span.tex.split_at(floor(&span.tex, pos));
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

fn floor(text: &str, mut i: usize) -> usize {
    i = i.min(text.len());
    while !text.is_char_boundary(i) {
        i -= 1;
    }
    i
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

/// The red box shown in place of a broken formula with `on-error = "warn"`.
pub(crate) fn error_box(span: &MathSpan, err: &MathError, color: &str) -> String {
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

    pub(crate) fn book(on_error: OnError) -> BookContext {
        BookContext::standalone(on_error)
    }

    fn render(src: &str, on_error: OnError) -> ChapterOutput {
        render_chapter(
            src,
            Path::new("t.md"),
            Path::new("src/t.md"),
            &book(on_error),
            true,
        )
    }

    #[test]
    fn everything_outside_math_is_unchanged() {
        let src = "# T\n\nCode `$x$` and *emph* $a_1$ end.\n\n```\n$$y$$\n```\n";
        let out = render(src, OnError::Fail);
        assert!(out.diagnostics.is_empty());
        let (before, rest) = out
            .content
            .split_once("<span class=\"katex\" data-tex=")
            .unwrap();
        assert_eq!(before, "# T\n\nCode `$x$` and *emph* ");
        assert!(
            rest.ends_with("</span> end.\n\n```\n$$y$$\n```\n"),
            "{rest}"
        );
    }

    #[test]
    fn dollar_pair_across_a_code_span_warns() {
        let out = render(
            "It costs $10 in total; write `$x$` for math.\n",
            OnError::Fail,
        );
        assert_eq!(out.diagnostics.len(), 1, "{:?}", out.diagnostics);
        let text = out.diagnostics[0].render(false);
        assert!(text.contains("kept as text"), "{text}");
        assert!(text.contains("a code span"), "{text}");
        // Kept as text, not typeset.
        assert!(!out.content.contains("class=\"katex\""), "{}", out.content);
        let ok = render(
            "It costs \\$10 in total; write `$x$` for math.\n",
            OnError::Fail,
        );
        assert!(ok.diagnostics.is_empty(), "{:?}", ok.diagnostics);
    }

    #[test]
    fn prose_dollars_warn_once_each_up_to_a_cap() {
        // `$5 and $` and `$10 for $` (mdbook-katex typesets both) are kept as text.
        let out = render("It costs $5 and $10 for $n$ items.\n", OnError::Fail);
        assert_eq!(out.diagnostics.len(), 2, "{:?}", out.diagnostics);
        let text = out.diagnostics[0].render(false);
        assert!(text.contains("kept as text"), "{text}");
        assert!(text.contains("`\\$`"), "{text}");
        assert_eq!(out.content.matches("class=\"katex\"").count(), 1);
        // Issue #13: 80,000 of them give a bounded number of warnings.
        let src = "$a ".repeat(80_000);
        let out = render(&src, OnError::Fail);
        assert_eq!(out.diagnostics.len(), MAX_DECLINED_SHOWN + 1);
        let last = out.diagnostics.last().unwrap();
        assert_eq!(
            last.message,
            format!(
                "{} more `$...$` pairs kept as text from here on",
                79_999 - MAX_DECLINED_SHOWN
            )
        );
    }

    #[test]
    fn math_in_a_comment_cannot_close_the_comment() {
        // The source cannot hold `-->` inside a comment; the rendered HTML must not either.
        let out = render(
            "<!-- $a -\\!->b$ and $\\text{-}\\text{->}$ and $\\verb|-|\\verb|->|$ -->\n\nAfter.\n",
            OnError::Fail,
        );
        assert!(out.diagnostics.is_empty(), "{:?}", out.diagnostics);
        let body = out.content.split_once("<!--").unwrap().1;
        assert_eq!(body.matches("-->").count(), 1, "{body}");
        assert!(body.contains("class=\"katex\""), "{body}");
    }

    #[test]
    fn error_fails_or_warns_with_box() {
        let out = render("Bad $\\frac{1}{2$ here.\n", OnError::Fail);
        assert_eq!(out.diagnostics.len(), 1);
        // Typeset as mdbook-katex would, so KaTeX's own error is reported, with a hint.
        let text = out.diagnostics[0].render(false);
        assert!(text.contains("LaTeX error in inline math"), "{text}");
        assert!(text.contains("every `{` needs a matching `}`"), "{text}");

        let src = "Bad $\\frac{1}{2}\\nope$ here.\n";
        let out = render(src, OnError::Fail);
        assert_eq!(out.diagnostics.len(), 1);
        assert_eq!(
            out.diagnostics[0].severity,
            crate::diagnostic::Severity::Error
        );
        assert!(out.content.contains("$\\frac{1}{2}\\nope$"));

        let out = render(src, OnError::Warn);
        assert_eq!(
            out.diagnostics[0].severity,
            crate::diagnostic::Severity::Warning
        );
        assert!(out.content.contains("mc-math-error"));
        assert!(!out.content.contains("$\\frac"));
    }

    #[test]
    fn chapter_macros_from_front_matter() {
        let out = render(
            "---\nmacros:\n  \\V: \\mathbf{v}\n---\n$\\V$\n",
            OnError::Fail,
        );
        assert!(out.diagnostics.is_empty(), "{:?}", out.diagnostics);
        assert!(out.content.contains("mathbf"));
        assert!(!out.content.contains("macros:"));
    }

    #[test]
    fn chapter_content_links_no_assets() {
        // They are linked once per page from the theme's head.hbs (assets::head_hbs).
        let out = render_chapter(
            "x",
            Path::new("a/b.md"),
            Path::new("src/a/b.md"),
            &book(OnError::Fail),
            true,
        );
        assert_eq!(out.content, "x");
    }

    #[test]
    fn directive_body_math_and_nesting() {
        let src = "Intro\n\n::::{practice} Shapes of $QK^\\top$\nWhat is $x$?\n:::{solution}\nIt is $y$.\n:::\n::::\nAfter.\n";
        let out = render(src, OnError::Fail);
        assert!(out.diagnostics.is_empty(), "{:?}", out.diagnostics);
        assert!(out.content.contains("<section class=\"mc-practice\""));
        assert!(out.content.contains("<details class=\"mc-solution\">"));
        assert!(!out.content.contains(":::"));
        assert!(!out.content.contains("$x$"));
        assert!(
            out.content.contains("</section>\n\nAfter."),
            "{}",
            out.content
        );
    }

    #[test]
    fn unknown_directive_is_an_error_with_suggestion() {
        let out = render(":::{clam} empirical\nx\n:::\n", OnError::Fail);
        assert_eq!(out.diagnostics.len(), 1);
        let text = out.diagnostics[0].render(false);
        assert!(text.contains("unknown directive `clam`"), "{text}");
        assert!(text.contains("did you mean `claim`?"), "{text}");
    }

    #[test]
    fn degrade_keeps_text() {
        let src = "---\nmacros: {}\n---\n:::{claim} established\nGradients point uphill.\n:::\n";
        let out = render_chapter(
            src,
            Path::new("t.md"),
            Path::new("src/t.md"),
            &book(OnError::Fail),
            false,
        );
        assert_eq!(out.content, "**Established.** Gradients point uphill.\n");
    }
}
