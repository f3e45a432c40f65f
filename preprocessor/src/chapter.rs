//! One chapter through the pipeline: front matter → directives → math and roles →
//! splice.
//!
//! Input is the chapter's record from the book-wide pass ([`ChapterRecord`]: its
//! Markdown, front matter and blocks, read once); output is the same Markdown with each directive
//! block and formula replaced by HTML (every other byte unchanged), plus the
//! diagnostics found on the way.

use std::path::Path;
use std::sync::Arc;

pub use crate::book_pass::ChapterRecord;
use crate::cache::{Cache, Pack};
pub use crate::context::BookContext;
use crate::diagnostic::Diagnostic;
use crate::directive::ids::Ids;
use crate::directive::report::Report;
use crate::directive::typeset::Typeset;
use crate::directive::Cx;
use crate::frontmatter::FrontMatter;
use crate::math::MathOptions;

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
    /// The whole page came from the cache ([`crate::page_cache`]).
    pub page_reused: bool,
    /// Why its formulas or its page could not be written to the cache folder: the
    /// folder's problem, not the chapter's, so reported once for the whole build
    /// ([`crate::cache_write_warning`]) rather than at every chapter.
    pub cache_write_error: Option<String>,
}

/// Processes one chapter, read by the book-wide pass. `html` selects full rendering (the
/// HTML renderer) or plain Markdown (any other renderer).
pub fn render_chapter(record: &ChapterRecord, book: &BookContext, html: bool) -> ChapterOutput {
    let source = &record.source;
    let display_path = record.shown.as_path();
    let mut front = ChapterFront::check(record, book);
    let (options, fingerprint) = match &front.options {
        Some((o, f)) => (o, f.as_str()),
        None => (&book.options, book.fingerprint.as_str()),
    };
    let pack = if html {
        book.cache.pack(&record.path)
    } else {
        Cache::new(None).pack(&record.path)
    };
    let mut cx = Cx {
        source: source.clone(),
        chapter_path: &record.path,
        book,
        html,
        report: Report {
            source: source.clone(),
            path: display_path,
            diagnostics: std::mem::take(&mut front.diagnostics),
        },
        ids: Ids::new(record.anchors()),
        math: Typeset {
            options,
            fingerprint,
            pack,
            on_error: book.on_error,
            error_color: &book.error_color,
            mathjax_macros: Default::default(),
            forbidden_macros: Default::default(),
            after_fingerprint: Default::default(),
            mathjax_page: None,
        },
        calc_scope: Default::default(),
        nesting: 0,
        pending_controls: Vec::new(),
        directives: crate::directive::registry::DIRECTIVES,
        roles: crate::directive::registry::ROLES,
    };

    let header = crate::header::render(&front.front, record.front_block.as_ref(), &mut cx);
    warn_misplaced_openers(&mut cx, record.body_start);
    let body = cx.markdown(record.body_start..source.len());
    crate::directive::registry::controls_without_widget(&mut cx);
    let Cx {
        math: Typeset { pack, .. },
        report: Report {
            mut diagnostics, ..
        },
        ..
    } = cx;
    let (cache_hits, cache_misses) = (pack.hits, pack.misses);
    let (skipped, cache_write_error) = save_pack(pack, display_path, source);
    diagnostics.extend(skipped);
    // Errors that follow from one reported above: the chapter's macros were not read,
    // or a macro's definition is broken.
    diagnostics.retain(|d| !front.explains(d));
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
        page_reused: false,
        cache_write_error,
    }
}

/// Processes one chapter given as text, on its own (no book-wide pass): for tests and
/// the fuzzer. `path` is the chapter's path inside `src/`; `display_path` is the path
/// shown in diagnostics.
pub fn render_source(
    source: &str,
    path: &Path,
    display_path: &Path,
    book: &BookContext,
    html: bool,
) -> ChapterOutput {
    let record = ChapterRecord::read(
        path.to_path_buf(),
        display_path.to_path_buf(),
        String::new(),
        None,
        Arc::from(source),
    );
    render_chapter(&record, book, html)
}

/// The chapter's front matter as rendering uses it: its keys, the math options its
/// macros give, and what is wrong with it.
struct ChapterFront {
    /// The keys that read, without the macros that do not typeset.
    front: FrontMatter,
    /// Render options and their fingerprint, when the chapter defines macros.
    options: Option<(MathOptions, String)>,
    /// Its errors (invalid YAML, broken macros).
    diagnostics: Vec<Diagnostic>,
    /// The YAML did not read, and it defines macros.
    macros_lost: bool,
    /// Macros whose definition is reported: errors at their uses follow from it.
    broken: Vec<String>,
}

impl ChapterFront {
    fn check(record: &ChapterRecord, book: &BookContext) -> ChapterFront {
        let mut out = ChapterFront {
            front: FrontMatter::default(),
            options: None,
            diagnostics: Vec::new(),
            macros_lost: false,
            broken: Vec::new(),
        };
        let Some(block) = &record.front_block else {
            return out;
        };
        let (source, display_path) = (&record.source, record.shown.as_path());
        let mut fm = record.front.front.clone();
        for (name, problem) in crate::math::broken_macros(&fm.macros) {
            fm.macros.remove(&name);
            let yaml = block.yaml.clone();
            let at = source[yaml.clone()]
                .find(name.as_str())
                .map_or(yaml.start..yaml.start + 1, |i| {
                    yaml.start + i..yaml.start + i + name.len()
                });
            out.diagnostics.push(
                Diagnostic::error(display_path, source, at, format!("macro `{name}` does not typeset"))
                    .with_label(problem)
                    .with_hint("every `{` in a macro needs its `}`; formulas that use this macro are not checked until it is fixed"),
            );
            out.broken.push(name);
        }
        if !fm.macros.is_empty() {
            let mut options = book.options.clone();
            options.macros.extend(fm.macros.clone());
            let fingerprint = options.fingerprint();
            out.options = Some((options, fingerprint));
        }
        out.front = fm;
        out.macros_lost = record.front.macros_lost;
        if let Some(err) = &record.front.error {
            let hint = if out.macros_lost {
                "front matter is YAML between `---` lines; until it reads, the chapter's `macros:` are not defined, so errors about undefined commands in its formulas are not shown"
            } else {
                "front matter is YAML between `---` lines; the keys mathcourse reads are listed in the author guide"
            };
            out.diagnostics.push(
                Diagnostic::error(
                    display_path,
                    source,
                    err.offset..err.offset + 1,
                    "invalid front matter",
                )
                .with_label(err.message.clone())
                .with_hint(hint),
            );
        }
        out
    }

    /// True when `d` follows from a problem of the front matter reported already: an
    /// undefined command that a lost or broken macro would have defined.
    fn explains(&self, d: &Diagnostic) -> bool {
        let Some(name) = d.label.strip_prefix("Undefined control sequence: ") else {
            return false;
        };
        let name: String = name
            .chars()
            .take(1)
            .chain(name.chars().skip(1).take_while(char::is_ascii_alphabetic))
            .collect();
        self.macros_lost || self.broken.contains(&name)
    }
}

/// Warns about directive openers inside block quotes or list items: Markdown does not
/// give them to us as directives.
fn warn_misplaced_openers(cx: &mut Cx, body_start: usize) {
    use crate::directive::block::{misplaced_openers, Misplaced};
    for (opener, place) in misplaced_openers(&cx.source, body_start..cx.source.len()) {
        let d = match place {
            Misplaced::BlockQuote => cx
                .report.warning(opener, "a directive inside a block quote is not read as a directive")
                .with_label("shown as plain text")
                .with_hint("directives are read only outside block quotes: move the block out of the quote (a `{note}` or another callout can hold the quoted text)"),
            Misplaced::ListItem => cx
                .report.warning(opener, "a directive inside a list item is not read as part of the list")
                .with_label("indented under a list item")
                .with_hint("indented four spaces or more it is not read as a directive; indented less, its block ends the list; put the directive at the left margin, after the list"),
        };
        cx.report.push(d);
    }
}

/// Saves the chapter's formula cache: a warning when it was skipped (something else is
/// in its file's place), and why it could not be written, if so (reported once for the
/// whole build: the cause is the folder, not the chapter).
fn save_pack(
    pack: Pack,
    display_path: &Path,
    source: &Arc<str>,
) -> (Option<Diagnostic>, Option<String>) {
    let skipped = match (&pack.skipped, pack.path()) {
        (Some(what), Some(file)) => Some(
            Diagnostic::warning(display_path, source, 0..0, "the formula cache of this chapter was skipped")
                .with_label(format!("{} is a {what}, not a regular file", file.display()))
                .with_hint("only regular files are read from the cache folder (option `cache-dir`), so the build never waits on a pipe or follows a link out of it; remove that entry and the next build writes the chapter's cache again"),
        ),
        _ => None,
    };
    (skipped, pack.save().err().map(|e| e.to_string()))
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
        render_source(
            src,
            Path::new("t.md"),
            Path::new("src/t.md"),
            &book(on_error),
            true,
        )
    }

    #[test]
    fn each_chapter_is_read_once_for_the_book_and_its_page() {
        use crate::book_pass::{self, ChapterRecord};
        use crate::directive::registry::WALKED;
        use crate::frontmatter::LOCATED;
        let chapters = [
            "---\ntitle: One\nmodule: 2\nobjectives: [Read]\n---\n:::{claim} established\nA.\n:::\n\n```{math}\n---\nlabel: one\n---\nx\n```\n",
            "---\nmacros:\n  \\V: v\n---\nSee {eq}`one` and $\\V$.\n\n:::{symbols}\n---\n- {id: v, tex: v, name: v, meaning: A vector}\n---\n:::\n",
            ":::{notation-index}\n:::\n",
        ];
        let (located, walked) = (LOCATED.with(|n| n.get()), WALKED.with(|n| n.get()));
        let records: Vec<ChapterRecord> = chapters
            .iter()
            .enumerate()
            .map(|(i, text)| {
                let path = std::path::PathBuf::from(format!("c{i}.md"));
                let shown = Path::new("src").join(&path);
                ChapterRecord::read(path, shown, format!("C{i}"), None, Arc::from(*text))
            })
            .collect();
        let wide = book_pass::run(&records, Path::new("src"), Vec::new());
        assert!(wide.diagnostics.is_empty(), "{:?}", wide.diagnostics);
        let book = book(OnError::Fail).with_book_wide(wide.labels, wide.notation, wide.modules);
        for record in &records {
            let out = render_chapter(record, &book, true);
            assert!(out.diagnostics.is_empty(), "{:?}", out.diagnostics);
        }
        // The book-wide pass and the three pages: each chapter located and walked once.
        assert_eq!(LOCATED.with(|n| n.get()) - located, 3);
        assert_eq!(WALKED.with(|n| n.get()) - walked, 3);
    }

    /// Pages of a book of n chapters make links in proportion to n, not n²: a header
    /// links only the modules it names, and the notation index puts the chapters of a
    /// glyph defined in every chapter in book order once, not once per definition.
    #[test]
    fn links_between_pages_grow_linearly_with_the_chapters() {
        use crate::book_pass::{self, ChapterRecord};
        use crate::html::RELATIVE_PATHS;
        let n = 60;
        let mut texts: Vec<String> = (0..n)
            .map(|i| {
                format!(
                    "---\ntitle: C{i}\nmodule: {}\nprerequisites: [{}]\n---\n:::{{symbol-table}} S\n---\n- {{id: s{i}, tex: '\\sigma', read: sigma, meaning: Meaning {i}}}\n---\n:::\n\n:::{{math}}\n:inspect: true\n\\sigma\n:::\n",
                    i + 1,
                    i.max(1)
                )
            })
            .collect();
        texts.push(":::{notation-index}\n:::\n".to_string());
        let records: Vec<ChapterRecord> = texts
            .iter()
            .enumerate()
            .map(|(i, text)| {
                let path = std::path::PathBuf::from(format!("c{i}.md"));
                let shown = Path::new("src").join(&path);
                ChapterRecord::read(path, shown, format!("C{i}"), None, Arc::from(text.as_str()))
            })
            .collect();
        let wide = book_pass::run(&records, Path::new("src"), Vec::new());
        let book = book(OnError::Warn).with_book_wide(wide.labels, wide.notation, wide.modules);
        let before = RELATIVE_PATHS.with(|c| c.get());
        let mut index = String::new();
        for record in &records {
            index = render_chapter(record, &book, true).content;
        }
        let links = RELATIVE_PATHS.with(|c| c.get()) - before;
        // One "defined in" link per chapter, in book order.
        let defined: Vec<usize> = (0..n)
            .map(|i| {
                index
                    .find(&format!("c{i}.html#"))
                    .expect("every chapter is linked")
            })
            .collect();
        assert!(defined.windows(2).all(|w| w[0] < w[1]), "book order");
        // Each page: a few links of its own; the index: a few per chapter. Before, the
        // headers alone made n² (3600) and the index n³.
        assert!(links <= 8 * n, "{links} links for {n} chapters");
    }

    /// In a MathJax-compatible book, the options of the formulas after a `\\newcommand`
    /// (the book's macros and the page's) are made once per formula that defines a macro,
    /// not once per formula: each copy cost every macro of the book.
    #[test]
    fn a_mathjax_page_makes_its_macros_once_per_definition() {
        use crate::directive::typeset::PAGE_OPTIONS;
        let mut book = BookContext {
            mathjax: Some(crate::mathjax::Tex2jax::default()),
            ..book(OnError::Fail)
        };
        for i in 0..200 {
            book.options
                .macros
                .insert(format!("\\book{}", "x".repeat(i + 1)), "b".into());
        }
        book.fingerprint = book.options.fingerprint();
        let mut src = String::from("Define \\\\(\\newcommand{\\pg}{p}\\pg\\\\).\n\n");
        for i in 0..50 {
            src.push_str(&format!("Use \\\\(\\pg + {i}\\\\).\n\n"));
        }
        src.push_str("Again \\\\(\\newcommand{\\pg}{q}\\pg\\\\).\n\n");
        for i in 0..50 {
            src.push_str(&format!("Then \\\\(\\pg - {i}\\\\).\n\n"));
        }
        let before = PAGE_OPTIONS.with(|n| n.get());
        let out = render_source(&src, Path::new("t.md"), Path::new("src/t.md"), &book, true);
        assert!(out.diagnostics.is_empty(), "{:?}", out.diagnostics);
        // Kept for the 50 formulas after the first definition, made again for the
        // redefinition, kept for the 50 after it.
        assert_eq!(PAGE_OPTIONS.with(|n| n.get()) - before, 3);
        // And the macros apply as MathJax applies them.
        let after_first = &out.content[..out.content.find("Again").unwrap()];
        let after_second = &out.content[out.content.find("Again").unwrap()..];
        assert_eq!(after_first.matches("<mi>p</mi>").count(), 51);
        assert_eq!(after_second.matches("<mi>q</mi>").count(), 51);
        assert_eq!(after_second.matches("<mi>p</mi>").count(), 0);
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

    /// `\\$` inside a formula closes it (`\\` is a line break): the warning points at
    /// that `$`, the cause, not only at the pairs it shifts.
    #[test]
    fn a_formula_closed_right_after_a_line_break_warns_at_the_closer() {
        let src = "Pick $k \\xrightarrow \\\\$ \\mathbb K$ at random, then $m$.\n";
        let out = render(src, OnError::Fail);
        let texts: Vec<String> = out.diagnostics.iter().map(|d| d.render(false)).collect();
        let at = texts
            .iter()
            .find(|t| t.contains("this formula ends at `\\\\$`"))
            .unwrap_or_else(|| panic!("{texts:?}"));
        // Located at the `\\$` of the first formula (column 22).
        assert!(at.contains("1:22"), "{at}");
        assert!(at.contains("`\\$`"), "{at}");
        // An escaped dollar in prose, display math and a line break inside a formula
        // are not reported.
        for quiet in ["Costs \\$5, and $a$.\n", "$$a \\\\$$\n", "$a \\\\ b$\n"] {
            let out = render(quiet, OnError::Fail);
            assert!(
                !out.diagnostics
                    .iter()
                    .any(|d| d.message.contains("ends at")),
                "{quiet}: {:?}",
                out.diagnostics
            );
        }
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
        let out = render_source(
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
        let out = render_source(
            src,
            Path::new("t.md"),
            Path::new("src/t.md"),
            &book(OnError::Fail),
            false,
        );
        assert_eq!(out.content, "**Established.** Gradients point uphill.\n");
    }
}
