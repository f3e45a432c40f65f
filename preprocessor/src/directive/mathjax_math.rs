//! Math in a book read the way MathJax reads it (`delimiters = "mathjax"`, or mdBook's
//! `mathjax-support = true`): every formula MathJax would typeset is typeset here with
//! the TeX MathJax receives; TeX only MathJax accepts is normalised first; what still
//! cannot be typeset stays text with a located warning, and the build goes on.

use std::ops::Range;

use super::{glue_punctuation, math_errors, trailing_punctuation, Cx};
use crate::cache;
use crate::math;
use crate::mathjax::{self, Found, Tex2jax};
use crate::scan;

/// At most this many "Markdown removed a backslash" warnings per stretch of Markdown.
const MAX_EATEN_SHOWN: usize = 10;

impl Cx<'_> {
    /// Math and roles in a stretch of Markdown without directives, MathJax's way.
    pub(super) fn plain_mathjax(&mut self, region: Range<usize>, rules: &Tex2jax) -> String {
        let source = self.source.clone();
        let page = mathjax::theme::page_rules(&source, rules);
        let rules = match &page {
            Some(page) => {
                // The page's own TeX macros hold for its formulas, as a `\newcommand` does.
                for (name, body) in &page.macros {
                    if !rules.macros.contains_key(name) {
                        self.math
                            .mathjax_macros
                            .entry(name.clone())
                            .or_insert_with(|| body.clone());
                    }
                }
                page
            }
            None => rules,
        };
        let found = mathjax::scan_region(&source, region.clone(), rules);
        let mut replacements: Vec<(Range<usize>, String)> = Vec::new();
        for f in &found.math {
            let Some(html) = self.mathjax_formula(f) else {
                continue;
            };
            let punct = if f.display {
                0
            } else {
                trailing_punctuation(&source[f.range.end..region.end])
            };
            let end = f.range.end + punct;
            match glue_punctuation(&html, &source[f.range.end..end]) {
                Some(html) => replacements.push((f.range.start..end, html)),
                None => replacements.push((f.range.clone(), html)),
            }
        }
        // GitHub's math syntax is read in every book; code to MathJax, so never both.
        for span in scan::github_math(&source, region.clone()) {
            if let Some(html) = self.math.formula(
                &mut self.report,
                &span.tex,
                span.delimiter.is_display(),
                &span,
            ) {
                replacements.push((span.range.clone(), html));
            }
        }
        for l in &found.literals {
            let shown: String = l
                .shows
                .chars()
                .map(|c| format!("&#{};", c as u32))
                .collect();
            replacements.push((l.range.clone(), shown));
        }
        self.report_eaten(&found.eaten);
        if !rules.inline.iter().any(|(open, _)| open == "$") && source[region.clone()].contains('$')
        {
            self.report_dollar_math(&source, region.clone(), &found.math);
        }
        for (at, close) in found.unclosed.iter().take(MAX_EATEN_SHOWN) {
            let open_len = source[*at..]
                .chars()
                .take(if source[*at..].starts_with("\\\\") {
                    3
                } else {
                    2
                })
                .map(char::len_utf8)
                .sum::<usize>();
            let d = self
                .report.warning(*at..*at + open_len, "not math: MathJax leaves this opening delimiter as text")
                .with_label(format!("no `{close}` follows in the same stretch of text"))
                .with_hint(format!("close it with `{close}` before the paragraph ends, and keep Markdown out of the formula: `*`, `_` pairs, links and code in it cut it (write `\\*`, `\\_`); if this is not math, escape it"));
            self.report.push(d);
        }
        if source[region.clone()].contains("}`") {
            for role in &scan::scan_region(&source, region.clone()).roles {
                if let Some(html) = self.role(role) {
                    replacements.push((role.range.clone(), html));
                }
            }
        }
        replacements.sort_by_key(|r| r.0.start);
        math_errors::splice(&source[region.clone()], region.start, &replacements)
    }

    /// One formula: typeset, or a warning and the text left as it is.
    fn mathjax_formula(&mut self, f: &Found) -> Option<String> {
        let defined = mathjax::compat::definitions(&f.tex);
        let base = self.math.options;
        let page = &self.math.mathjax_macros;
        let page_options = if page.is_empty() {
            None
        } else if defined.is_empty() {
            // The page's macros are those of the formula before: its options are kept
            // (made per formula, they cost every macro of the book per formula).
            let kept = self.math.mathjax_page.get_or_insert_with(|| {
                std::sync::Arc::new(super::typeset::PageOptions::new(base, page, &[]))
            });
            Some(kept.clone())
        } else {
            Some(std::sync::Arc::new(super::typeset::PageOptions::new(
                base, page, &defined,
            )))
        };
        if !defined.is_empty() {
            self.math.mathjax_page = None;
        }
        self.math.mathjax_macros.extend(defined);
        let (options, key) = match &page_options {
            Some(p) => (
                &p.options,
                cache::key_after(p.after.clone(), f.display, &f.tex),
            ),
            None => (self.math.options, self.math.key(f.display, &f.tex)),
        };
        match self.math.pack.get_or_render(&key, || {
            super::typeset::render_as_mathjax(&f.tex, f.display, options, true)
        }) {
            Ok(html) => {
                if html.contains(mathjax::compat::UNDEFINED_MARK) {
                    let name = math::render(&f.tex, f.display, options)
                        .err()
                        .and_then(|e| {
                            e.message
                                .strip_prefix("Undefined control sequence: ")
                                .map(str::to_string)
                        })
                        .unwrap_or_default();
                    let d = self
                        .report.warning(f.range.clone(), format!("undefined command {name} in this formula"))
                        .with_label("shown in red by its name, as MathJax shows it")
                        .with_hint("define it in the book's `macros`, or with `\\newcommand` in an earlier formula of the same page");
                    self.report.push(d);
                }
                Some(html)
            }
            Err(err) => {
                let raw = &self.source[f.range.clone()];
                let open = f.open.len();
                let tex_offset = (raw.get(open..open + f.tex.len()) == Some(f.tex.as_str()))
                    .then_some(f.range.start + open);
                let span = scan::MathSpan {
                    range: f.range.clone(),
                    tex: f.tex.clone(),
                    tex_offset,
                    delimiter: if f.display {
                        scan::Delimiter::Bracket
                    } else {
                        scan::Delimiter::Paren
                    },
                };
                let d = math_errors::math_diagnostic(&self.report, self.math.on_error, &span, &err);
                // MathJax shows such a formula in red and the page goes on: so does the build.
                let d = crate::diagnostic::Diagnostic {
                    severity: crate::diagnostic::Severity::Warning,
                    ..d
                };
                self.report.push(d.with_hint(
                    "the page shows the formula's TeX source in its place, as MathJax shows a formula it cannot typeset; rewrite it in TeX that KaTeX accepts (see \"Coming from mdBook's MathJax\" in the guide)",
                ));
                Some(tex_source_in_place(&f.tex, f.display))
            }
        }
    }

    /// `$...$` pairs holding TeX in a book whose MathJax has no `$` delimiter (its default,
    /// mdBook's stock configuration): MathJax showed them as text, and so does this page,
    /// but an author who wrote them meant math, usually without ever seeing the page
    /// (seen on a real book: a whole chapter of `$a \cdot b$` shown with its dollars). One
    /// warning per stretch of text, at the first pair whose content reads as TeX (a
    /// command, `^`, `_` or a brace), counting the others; prose dollars (`$5 and $10`)
    /// are left out by the same rules as in an mdbook-katex book.
    fn report_dollar_math(&mut self, source: &str, region: Range<usize>, math: &[Found]) {
        let pairs: Vec<scan::MathSpan> = scan::scan_region(source, region)
            .math
            .into_iter()
            .filter(|s| s.delimiter == scan::Delimiter::Dollar)
            .filter(|s| {
                !math
                    .iter()
                    .any(|f| f.range.start < s.range.end && s.range.start < f.range.end)
            })
            .collect();
        let Some(first) = pairs.iter().find(|s| reads_as_tex(&s.tex)) else {
            return;
        };
        let others = pairs.len() - 1;
        let label = if others == 0 {
            "it stays text, as the page showed it before".to_string()
        } else {
            format!("this and {others} other `$...$` pairs here stay text, as the page showed them before")
        };
        let d = self
            .report
            .warning(
                first.range.clone(),
                "`$...$` is not math in this book: the delimiters it is read with have no single `$`",
            )
            .with_label(label)
            .with_hint("MathJax's default configuration (mdBook's) reads inline math between `\\(` and `\\)`, written `\\\\( ... \\\\)` in the Markdown (Markdown makes it `\\(`): write the formula so; or, for a book written with `$` throughout, add `['$','$']` to the inline delimiters of the theme's MathJax configuration (or of its KaTeX auto-render), which is read too (see \"Coming from mdBook's MathJax\" in the guide)");
        self.report.push(d);
    }

    /// Warnings where Markdown removed a backslash that mattered to the TeX.
    fn report_eaten(&mut self, eaten: &[(usize, char)]) {
        for &(at, c) in eaten.iter().take(MAX_EATEN_SHOWN) {
            let d = self.report.warning(
                at..at + 2,
                format!("Markdown turns `\\{c}` into `{c}` before the math is read"),
            );
            let d = if c == '\\' {
                // A row break written once: MathJax got a space instead.
                d.with_label("the line break `\\\\` reaches the formula as `\\ ` (a space)")
                    .with_hint("the page showed no line break here before either (MathJax or KaTeX's auto-render read it after Markdown too); for one, write `\\\\\\\\` (Markdown makes it `\\\\`)")
            } else {
                d.with_label(format!("this formula shows `{c}` where the TeX says `\\{c}`"))
                    .with_hint(format!("the page showed `{c}` here before too (MathJax or KaTeX's auto-render read it after Markdown); if `\\{c}` is meant, write `\\\\{c}` (Markdown makes it `\\{c}`)"))
            };
            self.report.push(d);
        }
        if eaten.len() > MAX_EATEN_SHOWN {
            let (at, _) = eaten[MAX_EATEN_SHOWN];
            let d = self
                .report
                .warning(
                    at..at + 2,
                    format!(
                        "{} more backslashes removed by Markdown in formulas here",
                        eaten.len() - MAX_EATEN_SHOWN
                    ),
                )
                .with_hint(
                    "write `\\\\` before the character wherever the TeX needs its backslash",
                );
            self.report.push(d);
        }
    }
}

/// True when `tex` holds something only TeX means: a command (`\cdot`), a sub- or
/// superscript, or a brace group; `$x$` or `$5 and $` do not.
fn reads_as_tex(tex: &str) -> bool {
    let b = tex.as_bytes();
    b.iter().enumerate().any(|(i, &c)| {
        matches!(c, b'^' | b'_' | b'{')
            || (c == b'\\' && b.get(i + 1).is_some_and(u8::is_ascii_alphabetic))
    })
}

/// What MathJax (with its `noErrors` extension, part of mdBook's configuration) shows for
/// a formula it cannot typeset: the TeX source, in red, where the formula was. Carries
/// the TeX like every formula (`data-tex`).
fn tex_source_in_place(tex: &str, display: bool) -> String {
    let shown = crate::html::escape(tex.trim());
    let inner = format!(
        "<span class=\"katex\" data-tex=\"{}\"><span class=\"mc-tex-source\">{shown}</span></span>",
        shown.replace('"', "&quot;")
    );
    let html = if display {
        format!("<span class=\"katex-display\">{inner}</span>")
    } else {
        inner
    };
    math::markdown_safe(&html)
}
