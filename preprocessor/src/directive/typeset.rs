//! The math service of one chapter: typesets the formulas the chapter shows (from its
//! prose, from options, from the build itself) through the chapter's cache pack, with
//! the chapter's macros, and reports what does not typeset. The part of the rendering
//! context that typesets (`cx.math`); each method takes the [`Report`] it reports to.

use std::collections::{BTreeMap, HashMap};
use std::ops::Range;

use super::math_errors;
use super::report::Report;
use crate::cache::{self, Pack};
use crate::config::OnError;
use crate::math::{self, MathError, MathOptions};
use crate::mathjax;
use crate::scan;

/// Typesets the formulas of one chapter.
pub struct Typeset<'a> {
    /// Math options for this chapter (book + chapter macros).
    pub(crate) options: &'a MathOptions,
    /// Their fingerprint (part of each cache key).
    pub(crate) fingerprint: &'a str,
    /// Formula cache pack of this chapter.
    pub(crate) pack: Pack,
    /// What a LaTeX error does.
    pub(crate) on_error: OnError,
    /// Colour of the error box.
    pub(crate) error_color: &'a str,
    /// Macros defined so far on this page by `\newcommand` or `\def` in a formula
    /// (MathJax keeps them for the rest of the page).
    pub(crate) mathjax_macros: BTreeMap<String, String>,
    /// The macros that reach a forbidden command, by the fingerprint of the options
    /// they belong to: found once per set of macros, not once per formula.
    pub(crate) forbidden_macros: HashMap<FingerprintId, Vec<(String, String)>>,
    /// The cache-key hasher's state after each fingerprint used (see [`FingerprintId`]).
    pub(crate) after_fingerprint: HashMap<FingerprintId, blake3::Hasher>,
    /// The options of this page's formulas with its `\newcommand` macros, kept until a
    /// formula defines another (MathJax-compatible books).
    pub(crate) mathjax_page: Option<std::sync::Arc<PageOptions>>,
}

/// A fingerprint this typesetter was given, by its place in memory: every fingerprint
/// it holds lives as long as it, so two with the same place and length are the same
/// text. Hashing or comparing the text itself per formula cost its length (every macro
/// of the book) per formula.
pub(crate) type FingerprintId = (usize, usize);

impl Typeset<'_> {
    fn fingerprint_id(&self) -> FingerprintId {
        (self.fingerprint.as_ptr() as usize, self.fingerprint.len())
    }

    /// The cache key of one formula under this chapter's options ([`cache::key`]).
    pub(crate) fn key(&mut self, display: bool, tex: &str) -> cache::Key {
        let fingerprint = self.fingerprint;
        let after = self
            .after_fingerprint
            .entry(self.fingerprint_id())
            .or_insert_with(|| cache::after_fingerprint(fingerprint));
        cache::key_after(after.clone(), display, tex)
    }

    /// Typesets math found in an HTML comment, as mdbook-katex does; invisible, so its
    /// errors are not reported (the comment keeps its TeX).
    pub fn commented(&mut self, span: &scan::MathSpan) -> Option<String> {
        let display = span.delimiter.is_display();
        let key = self.key(display, &span.tex);
        let options = self.options;
        self.pack
            .get_or_render(&key, || math::render(&span.tex, display, options))
            .ok()
    }

    /// Renders one formula found in the source (Markdown-safe), reporting errors.
    pub fn formula(
        &mut self,
        report: &mut Report,
        tex: &str,
        display: bool,
        span: &scan::MathSpan,
    ) -> Option<String> {
        if tex.contains('\\') {
            self.check_commands(report, tex, span);
        }
        let key = self.key(display, tex);
        let options = self.options;
        match self.pack.get_or_render(&key, || {
            // MathJax's TeX that KaTeX rejects (`k_\min`) typesets in every book.
            render_as_mathjax(tex, display, options, false)
        }) {
            Ok(html) => Some(html),
            Err(err) => {
                let d = math_errors::math_diagnostic(report, self.on_error, span, &err);
                report.push(d);
                (self.on_error == OnError::Warn)
                    .then(|| math_errors::error_box(span, &err, self.error_color))
            }
        }
    }

    /// Renders `tagged`, the symbol-tagged form of the author's `author` TeX (written at
    /// `span`; `tex_offset` is where `author` starts in the source when it is a verbatim
    /// slice). A LaTeX error is reported against what the author wrote: the author's TeX
    /// is rendered again for the engine's message and position, and the caret goes on the
    /// offending part.
    pub fn tagged_math(
        &mut self,
        report: &mut Report,
        tagged: &str,
        author: &str,
        display: bool,
        span: Range<usize>,
        tex_offset: Option<usize>,
    ) -> String {
        let key = self.key(display, tagged);
        let options = self.options;
        match self
            .pack
            .get_or_render(&key, || math::render(tagged, display, options))
        {
            Ok(html) => html,
            Err(tagged_err) => {
                let err = math::render(author, display, options)
                    .err()
                    .unwrap_or(tagged_err);
                let math_span = scan::MathSpan {
                    range: span,
                    tex: author.to_string(),
                    tex_offset,
                    delimiter: if display {
                        scan::Delimiter::DoubleDollar
                    } else {
                        scan::Delimiter::Dollar
                    },
                };
                let d = math_errors::math_diagnostic(report, self.on_error, &math_span, &err);
                report.push(d);
                if self.on_error == OnError::Warn {
                    math_errors::error_box(&math_span, &err, self.error_color)
                } else {
                    String::new()
                }
            }
        }
    }

    /// Reports the commands an author may not write in math (`\href`, `\htmlData`, ...):
    /// KaTeX's trust is granted only to the symbol tags mathcourse emits.
    fn check_commands(&mut self, report: &mut Report, tex: &str, span: &scan::MathSpan) {
        let mut found: Vec<(String, Range<usize>)> = crate::inspect::forbidden_commands(tex)
            .into_iter()
            // The symbol tag mathcourse itself emits (in tagged formulas), exactly; any
            // other key or a second attribute is the author's and is reported.
            .filter(|(name, range)| !(name == "\\htmlData" && is_symbol_tag(&tex[range.end..])))
            .map(|(name, range)| (format!("`{name}`"), range))
            .collect();
        // A macro (book-wide or from front matter) can hide one of them.
        let options = self.options;
        let tainted = self
            .forbidden_macros
            .entry(self.fingerprint_id())
            .or_insert_with(|| macros_reaching_forbidden(&options.macros));
        for (name, command) in tainted.iter() {
            for (at, _) in tex.match_indices(name.as_str()) {
                let end = at + name.len();
                if !tex[end..].starts_with(|c: char| c.is_ascii_alphabetic()) {
                    found.push((format!("`{command}` (through the macro `{name}`)"), at..end));
                }
            }
        }
        found.sort_by_key(|(_, r)| r.start);
        for (what, range) in found {
            let at = match span.tex_offset {
                Some(o) => o + range.start..o + range.end,
                None => span.range.clone(),
            };
            let d = report
                .error(at, format!("{what} is not allowed in this book's math"))
                .with_label("KaTeX will not trust this command")
                .with_hint("links and HTML attributes in formulas are switched off for safety; put links in the text around the formula, and use `\\sym{id}{...}` to mark a symbol");
            report.push(d);
        }
    }

    /// Renders TeX given in a directive option (`span` locates it) to HTML for use inside
    /// a template's HTML.
    pub fn option_math(
        &mut self,
        report: &mut Report,
        tex: &str,
        display: bool,
        span: Range<usize>,
    ) -> String {
        let math_span = scan::MathSpan {
            range: span,
            tex: tex.to_string(),
            tex_offset: None,
            delimiter: if display {
                scan::Delimiter::DoubleDollar
            } else {
                scan::Delimiter::Dollar
            },
        };
        self.formula(report, tex, display, &math_span)
            .unwrap_or_default()
    }

    /// Renders TeX the build wrote (a check's computation, a `{calc}` role's expression)
    /// like [`Typeset::option_math`]. The author wrote no TeX, so a formula too long to
    /// typeset is reported as `what` being too long to show, with `hint`, not as a LaTeX
    /// error.
    pub fn generated_math(
        &mut self,
        report: &mut Report,
        tex: &str,
        display: bool,
        span: Range<usize>,
        what: &str,
        hint: &str,
    ) -> String {
        if tex.len() > crate::math::MAX_TEX_BYTES {
            let d = report
                .error(span, format!("{what} is too long to show"))
                .with_label(format!(
                    "shown as a formula it would take {} bytes of TeX; a formula holds at most {}",
                    tex.len(),
                    crate::math::MAX_TEX_BYTES
                ))
                .with_hint(hint.to_string());
            report.push(d);
            return String::new();
        }
        self.option_math(report, tex, display, span)
    }
}

/// True when `rest` starts with `{mc-sym=ID}`, ID of letters, digits, `-` and `_`: the
/// argument of the symbol tag that tagging emits.
fn is_symbol_tag(rest: &str) -> bool {
    rest.strip_prefix("{mc-sym=")
        .and_then(|r| r.split_once('}'))
        .is_some_and(|(id, _)| {
            !id.is_empty()
                && id
                    .chars()
                    .all(|c| c.is_ascii_alphanumeric() || c == '-' || c == '_')
        })
}

/// Macros whose expansion reaches a command authors may not write (directly or through
/// other macros), each with that command.
fn macros_reaching_forbidden(
    macros: &std::collections::BTreeMap<String, String>,
) -> Vec<(String, String)> {
    let mut tainted: Vec<(String, String)> = macros
        .iter()
        .filter_map(|(name, expansion)| {
            let (command, _) = crate::inspect::forbidden_commands(expansion)
                .into_iter()
                .next()?;
            Some((name.clone(), command))
        })
        .collect();
    loop {
        let before = tainted.len();
        for (name, expansion) in macros {
            if tainted.iter().any(|(t, _)| t == name) {
                continue;
            }
            let via = tainted.iter().find(|(t, _)| {
                expansion.match_indices(t.as_str()).any(|(at, _)| {
                    !expansion[at + t.len()..].starts_with(|c: char| c.is_ascii_alphabetic())
                })
            });
            if let Some((_, command)) = via {
                let command = command.clone();
                tainted.push((name.clone(), command));
            }
        }
        if tainted.len() == before {
            return tainted;
        }
    }
}

/// Renders `tex` as MathJax would accept it: as it is, or normalised
/// ([`mathjax::compat`]) with the original TeX kept in `data-tex`; a command defined
/// nowhere is shown in red by its name, as MathJax shows it, when `show_undefined`
/// (books read as MathJax reads them; elsewhere it stays an error).
pub fn render_as_mathjax(
    tex: &str,
    display: bool,
    options: &MathOptions,
    show_undefined: bool,
) -> Result<String, MathError> {
    let first = match math::render(tex, display, options) {
        Ok(html) => return Ok(html),
        Err(err) => err,
    };
    let mut attempt = mathjax::compat::normalize(tex).unwrap_or_else(|| tex.to_string());
    for _ in 0..16 {
        match math::render(&attempt, display, options) {
            Ok(html) => return Ok(math::with_annotation(&html, tex)),
            Err(err) => {
                let Some(name) = err
                    .message
                    .strip_prefix("Undefined control sequence: ")
                    .filter(|_| show_undefined)
                else {
                    break;
                };
                match mathjax::compat::show_undefined(&attempt, name.trim()) {
                    Some(t) => attempt = t,
                    None => break,
                }
            }
        }
    }
    Err(first)
}

thread_local! {
    /// How many [`PageOptions`] were made on this thread (a test counts: once per
    /// formula that defines a macro, not once per formula).
    pub(crate) static PAGE_OPTIONS: std::cell::Cell<usize> = const { std::cell::Cell::new(0) };
}

/// The options of a formula on a page whose earlier formulas defined macros
/// (`\newcommand`): the chapter's, plus those.
pub(crate) struct PageOptions {
    pub(super) options: MathOptions,
    /// The cache-key hasher's state after these options' fingerprint.
    pub(super) after: blake3::Hasher,
}

impl PageOptions {
    /// `base` with the page's macros `page`, but those `defined` (a formula that defines
    /// a macro again starts from its own definition).
    pub(super) fn new(
        base: &MathOptions,
        page: &std::collections::BTreeMap<String, String>,
        defined: &[(String, String)],
    ) -> Self {
        PAGE_OPTIONS.with(|n| n.set(n.get() + 1));
        let mut options = base.clone();
        for (name, body) in page {
            if !defined.iter().any(|(n, _)| n == name) {
                options.macros.insert(name.clone(), body.clone());
            }
        }
        let fingerprint = format!("{};mathjax-compat", options.fingerprint());
        PageOptions {
            after: cache::after_fingerprint(&fingerprint),
            options,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// TeX that MathJax 2.7 (TeX-AMS) typesets: each must typeset here too.
    #[test]
    fn mathjax_only_tex_typesets() {
        let o = MathOptions::default();
        let mut failed = Vec::new();
        for (tex, display) in [
            ("k_\\min", false),
            ("x^\\prime_\\max", false),
            ("\\text{a_b & c#d}", false),
            ("\\begin{multline*} a \\\\ b \\end{multline*}", true),
            ("x = 1 \\label{eq-x}", true),
            ("\\require{cancel} \\cancel{x}", false),
            ("\\pmatrix{a & b \\cr c & d}", false),
            ("\\matrix{a & b \\cr c & d}", false),
            ("f(x) = \\cases{1 & x > 0 \\cr 0 & else}", true),
            ("\\unicode{x2200} x", false),
            ("\\bbox[yellow]{x}", false),
            (
                "\\class{a}{x} + \\style{color:red}{y} + \\cssId{i}{z}",
                false,
            ),
            ("\\mathop{\\rm arg\\,min}", false),
            ("a \\over b", false),
            ("\\Bbb R", false),
            ("\\eqalign{a &= b \\cr c &= d}", true),
            (
                "\\begin{eqnarray} a &=& b \\\\ c &=& d \\end{eqnarray}",
                true,
            ),
            ("x \\nonumber", true),
            ("\\mbox{if } x", false),
            ("\\undefinedcommand + 1", false),
        ] {
            match render_as_mathjax(tex, display, &o, true) {
                // Only a command defined nowhere is shown as a red name.
                Ok(html)
                    if html.contains(mathjax::compat::UNDEFINED_MARK)
                        != tex.contains("undefinedcommand") =>
                {
                    failed.push(tex)
                }
                Ok(_) => {}
                Err(_) => failed.push(tex),
            }
        }
        assert!(failed.is_empty(), "{failed:#?}");
    }
}
