//! Books written for MathJax: their math read the way MathJax 2.7 reads it in the page.
//!
//! With mdBook's `mathjax-support = true`, MathJax runs in the reader's browser over the
//! HTML mdBook made from the Markdown. So the TeX it typesets is what is left after
//! Markdown: `\\(` reaches it as `\(`, `\\\\` as `\\`, `\_` as `_`, and a formula cut by
//! emphasis or a link is not a formula. This module reproduces that: [`text`] reads a
//! chapter into the text nodes the page will have (each byte mapped back to the
//! source), [`tex2jax`] applies MathJax's delimiter rules to them, [`theme`] reads the
//! delimiters and macros a custom theme configures, and [`compat`] turns MathJax-only
//! TeX into TeX the engine accepts.

pub mod compat;
pub mod convert;
pub mod tex2jax;
pub mod text;
pub mod theme;

use std::ops::Range;

pub use tex2jax::{Found, Literal, Tex2jax};

/// What MathJax finds in a stretch of a chapter.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct MathjaxScan {
    /// Formulas, in source order.
    pub math: Vec<Found>,
    /// Escaped dollars MathJax shows as text.
    pub literals: Vec<Literal>,
    /// Backslashes Markdown removed inside a formula that change its meaning: the byte of
    /// the backslash and the character after it (`\|` reaches MathJax as `|`).
    pub eaten: Vec<(usize, char)>,
    /// Openers (`\(`, `$$`, `\[`...) MathJax leaves as text because their closer is not
    /// in the same stretch of text (a paragraph, or emphasis, a link or code cut it):
    /// the opener's source byte and the closer.
    pub unclosed: Vec<(usize, String)>,
}

/// Characters whose backslash Markdown removes although `\x` means something else to
/// TeX than `x` (a norm, a brace, a space, a symbol).
const MEANINGFUL: &[char] = &['|', '{', '}', ',', ';', '!', ':', '>', '#', '%', '&', '$'];

/// Finds what MathJax typesets in `source[region]`.
pub fn scan_region(source: &str, region: Range<usize>, rules: &Tex2jax) -> MathjaxScan {
    let mut out = MathjaxScan::default();
    for run in text::runs(source, region, crate::scan::mdbook_options()) {
        tex2jax::scan_run(
            rules,
            &run,
            &mut out.math,
            &mut out.literals,
            &mut out.unclosed,
        );
    }
    out.math.sort_by_key(|f| f.range.start);
    out.literals.sort_by_key(|l| l.range.start);
    // Math first: a literal inside a formula's bytes is not shown (cannot happen with
    // tex2jax, which reads escapes only between formulas).
    let bytes = source.as_bytes();
    for f in &out.math {
        let mut i = f.range.start;
        while i + 1 < f.range.end {
            if bytes[i] == b'\\' {
                let c = bytes[i + 1] as char;
                if MEANINGFUL.contains(&c) && !preceded_by_odd_backslashes(bytes, i) {
                    out.eaten.push((i, c));
                }
                // `\\` then a space or a line end: a line break in TeX, which Markdown
                // makes `\` (a space) before MathJax reads it; `\\\\` is the line break.
                if c == '\\'
                    && (i == 0 || bytes[i - 1] != b'\\')
                    && bytes.get(i + 2).is_some_and(|b| b.is_ascii_whitespace())
                    && row_follows(&source[i + 2..f.range.end])
                {
                    out.eaten.push((i, c));
                }
                i += 2;
            } else {
                i += 1;
            }
        }
    }
    out
}

/// True when `rest` (what follows a row break, up to the formula's closer) holds another
/// row: not only the closer or an `\end{...}`, where a lost last break shows nothing.
fn row_follows(rest: &str) -> bool {
    let rest = rest.trim_start();
    !rest.starts_with("\\end") && rest.len() > 2
}

fn preceded_by_odd_backslashes(bytes: &[u8], i: usize) -> bool {
    bytes[..i].iter().rev().take_while(|&&b| b == b'\\').count() % 2 == 1
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A `\\\\` row break written once (`\\\\`, not `\\\\\\\\`) reaches MathJax as `\\` (a
    /// space): the rows of an `aligned` run together, as on a real page. It is reported
    /// with the other removed backslashes; the doubled form, `\\\\{` and a last break before
    /// `\\end` (nothing follows it) are not.
    #[test]
    fn a_row_break_markdown_halves_is_reported() {
        let rules = Tex2jax::default();
        let lost = "$$\n\\begin{aligned}\na \\\\\nb\n\\end{aligned}\n$$\n";
        let found = scan_region(lost, 0..lost.len(), &rules);
        assert_eq!(found.math.len(), 1, "{found:?}");
        assert_eq!(found.eaten, vec![(lost.find("\\\\").unwrap(), '\\')]);
        for kept in [
            "$$\n\\begin{aligned}\na \\\\\\\\\nb\n\\end{aligned}\n$$\n",
            // A last row break: nothing follows it, nothing is lost.
            "$$\n\\begin{array}{l}\na \\\\\\\\\nb \\\\\n\\end{array}\n$$\n",
            "$$ a \\\\ $$\n",
            "$$ \\\\{x\\\\} $$\n",
        ] {
            let found = scan_region(kept, 0..kept.len(), &rules);
            assert_eq!(found.math.len(), 1, "{kept}");
            assert!(
                !found.eaten.iter().any(|e| e.1 == '\\'),
                "{kept}: {found:?}"
            );
        }
    }

    /// Every cut of a text full of traps (multi-byte characters beside HTML, escapes,
    /// delimiters, entities) scans without a panic, with ranges inside the text.
    #[test]
    fn any_cut_of_a_tricky_text_scans() {
        let text = "é<div>ü$$a&amp;ß\\(x\\)</div>\n\n\\(ç\\_\\|y\\|\\) *é* \\[\n∑\n\\]\n\n| a | \\(b\\|c\\) |\n|---|---|\n| é | $$ü$$ |\n\n<span>\\(z</span>\\)\\begin{x}é\\end{x} \\ref{é} \\$ `\\(c\\)`\n";
        let mut rules = Tex2jax::default();
        for escapes in [false, true] {
            rules.process_escapes = escapes;
            rules.inline.push(("$".into(), "$".into()));
            let cuts: Vec<usize> = text
                .char_indices()
                .map(|(i, _)| i)
                .chain([text.len()])
                .collect();
            for &a in &cuts {
                for &b in cuts.iter().filter(|&&b| b >= a) {
                    let found = scan_region(text, a..b, &rules);
                    for f in &found.math {
                        assert!(a <= f.range.start && f.range.end <= b, "{a}..{b}: {f:?}");
                    }
                }
            }
        }
    }
}
