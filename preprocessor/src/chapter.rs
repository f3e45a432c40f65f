//! One chapter through the pipeline: front matter → directives → math and roles →
//! splice.
//!
//! Input is the chapter's Markdown; output is the same Markdown with each directive
//! block and formula replaced by HTML (every other byte unchanged), plus the
//! diagnostics found on the way.

use std::path::Path;
use std::sync::Arc;

use crate::cache::Cache;
pub use crate::context::BookContext;
use crate::diagnostic::Diagnostic;
use crate::directive::Cx;
use crate::frontmatter;

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
    let mut macros_lost = false;
    // Macros whose definition is reported: errors at their uses follow from it.
    let mut broken: Vec<String> = Vec::new();
    if let Some(block) = &block {
        let parsed = frontmatter::parse_keeping(&source, block);
        let mut fm = parsed.front;
        for (name, problem) in crate::math::broken_macros(&fm.macros) {
            fm.macros.remove(&name);
            let yaml = block.yaml.clone();
            let at = source[yaml.clone()]
                .find(name.as_str())
                .map_or(yaml.start..yaml.start + 1, |i| {
                    yaml.start + i..yaml.start + i + name.len()
                });
            diagnostics.push(
                Diagnostic::error(display_path, &source, at, format!("macro `{name}` does not typeset"))
                    .with_label(problem)
                    .with_hint("every `{` in a macro needs its `}`; formulas that use this macro are not checked until it is fixed"),
            );
            broken.push(name);
        }
        if !fm.macros.is_empty() {
            let mut options = book.options.clone();
            options.macros.extend(fm.macros.clone());
            let fingerprint = options.fingerprint();
            chapter_options = Some((options, fingerprint));
        }
        front = fm;
        macros_lost = parsed.macros_lost;
        if let Some(err) = parsed.error {
            let hint = if macros_lost {
                "front matter is YAML between `---` lines; until it reads, the chapter's `macros:` are not defined, so errors about undefined commands in its formulas are not shown"
            } else {
                "front matter is YAML between `---` lines; the keys mathcourse reads are listed in the author guide"
            };
            diagnostics.push(
                Diagnostic::error(
                    display_path,
                    &source,
                    err.offset..err.offset + 1,
                    "invalid front matter",
                )
                .with_label(err.message)
                .with_hint(hint),
            );
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
        anchors_by_block: crate::directive::registry::anchors(&source, body_start),
        mathjax_macros: Default::default(),
        calc_scope: Default::default(),
        anchors: std::collections::HashSet::new(),
        nesting: 0,
        pending_controls: Vec::new(),
        directives: crate::directive::registry::DIRECTIVES,
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
    crate::directive::registry::controls_without_widget(&mut cx);
    let Cx {
        pack,
        mut diagnostics,
        ..
    } = cx;
    let (cache_hits, cache_misses) = (pack.hits, pack.misses);
    if let (Some(what), Some(file)) = (&pack.skipped, pack.path()) {
        diagnostics.push(
            Diagnostic::warning(display_path, &source, 0..0, "the formula cache of this chapter was skipped")
                .with_label(format!("{} is a {what}, not a regular file", file.display()))
                .with_hint("only regular files are read from the cache folder (option `cache-dir`), so the build never waits on a pipe or follows a link out of it; remove that entry and the next build writes the chapter's cache again"),
        );
    }
    if let Err(err) = pack.save() {
        diagnostics.push(
            Diagnostic::warning(display_path, &source, 0..0, "could not write the formula cache")
                .with_label(err.to_string())
                .with_hint("check that the cache folder (option `cache-dir`) is writable; the build itself is fine"),
        );
    }
    // Errors that follow from one reported above: the chapter's macros were not read,
    // or a macro's definition is broken.
    diagnostics.retain(|d| {
        let Some(name) = d.label.strip_prefix("Undefined control sequence: ") else {
            return true;
        };
        let name: String = name
            .chars()
            .take(1)
            .chain(name.chars().skip(1).take_while(char::is_ascii_alphabetic))
            .collect();
        !(macros_lost || broken.contains(&name))
    });
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::config::OnError;
    use crate::directive::math_errors::MAX_DECLINED_SHOWN;

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
                79_999 - crate::directive::math_errors::MAX_DECLINED_SHOWN
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
