//! Math in a book read the way MathJax reads it (`delimiters = "mathjax"`, or mdBook's
//! `mathjax-support = true`): every formula MathJax would typeset is typeset here with
//! the TeX MathJax receives; TeX only MathJax accepts is normalised first; what still
//! cannot be typeset stays text with a located warning, and the build goes on.

use std::ops::Range;

use super::{glue_punctuation, math_errors, trailing_punctuation, Cx};
use crate::cache;
use crate::math::{self, MathError, MathOptions};
use crate::mathjax::{self, Found, Tex2jax};
use crate::scan;

/// At most this many "Markdown removed a backslash" warnings per stretch of Markdown.
const MAX_EATEN_SHOWN: usize = 10;

impl Cx<'_> {
    /// Math and roles in a stretch of Markdown without directives, MathJax's way.
    pub(super) fn plain_mathjax(&mut self, region: Range<usize>, rules: &Tex2jax) -> String {
        let source = self.source.clone();
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
            if let Some(html) = self.formula(&span.tex, span.delimiter.is_display(), &span) {
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
                .warning(*at..*at + open_len, "not math: MathJax leaves this opening delimiter as text")
                .with_label(format!("no `{close}` follows in the same stretch of text"))
                .with_hint(format!("close it with `{close}` before the paragraph ends, and keep Markdown out of the formula: `*`, `_` pairs, links and code in it cut it (write `\\*`, `\\_`); if this is not math, escape it"));
            self.diagnostics.push(d);
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
        let page_options = (!self.mathjax_macros.is_empty()).then(|| {
            let mut o = self.math_options.clone();
            for (name, body) in &self.mathjax_macros {
                // A formula that defines a macro again starts from its own definition.
                if !defined.iter().any(|(n, _)| n == name) {
                    o.macros.insert(name.clone(), body.clone());
                }
            }
            let fp = format!("{};mathjax-compat", o.fingerprint());
            (o, fp)
        });
        self.mathjax_macros.extend(defined);
        let (options, fingerprint) = match &page_options {
            Some((o, fp)) => (o, fp.as_str()),
            None => (self.math_options, self.fingerprint),
        };
        let key = cache::key(fingerprint, f.display, &f.tex);
        match self
            .pack
            .get_or_render(&key, || render_as_mathjax(&f.tex, f.display, options, true))
        {
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
                        .warning(f.range.clone(), format!("undefined command {name} in this formula"))
                        .with_label("shown in red by its name, as MathJax shows it")
                        .with_hint("define it in the book's `macros`, or with `\\newcommand` in an earlier formula of the same page");
                    self.diagnostics.push(d);
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
                let d = math_errors::math_diagnostic(self, &span, &err);
                // MathJax shows such a formula in red and the page goes on: so does the build.
                let d = crate::diagnostic::Diagnostic {
                    severity: crate::diagnostic::Severity::Warning,
                    ..d
                };
                self.diagnostics.push(d.with_hint(
                    "the page shows the formula's TeX source in its place, as MathJax shows a formula it cannot typeset; rewrite it in TeX that KaTeX accepts (see \"Coming from mdBook's MathJax\" in the guide)",
                ));
                Some(tex_source_in_place(&f.tex, f.display))
            }
        }
    }

    /// Warnings where Markdown removed a backslash that mattered to the TeX.
    fn report_eaten(&mut self, eaten: &[(usize, char)]) {
        for &(at, c) in eaten.iter().take(MAX_EATEN_SHOWN) {
            let d = self
                .warning(at..at + 2, format!("Markdown turns `\\{c}` into `{c}` before the math is read"))
                .with_label(format!("this formula shows `{c}` where the TeX says `\\{c}`"))
                .with_hint(format!("MathJax showed `{c}` here too; if `\\{c}` is meant, write `\\\\{c}` (Markdown makes it `\\{c}`)"));
            self.diagnostics.push(d);
        }
        if eaten.len() > MAX_EATEN_SHOWN {
            let (at, _) = eaten[MAX_EATEN_SHOWN];
            let d = self
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
            self.diagnostics.push(d);
        }
    }
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
