//! What a formula that did not typeset becomes: its located diagnostic (with a hint
//! for the usual mistakes), the red box shown in its place with `on-error = "warn"`,
//! and the warnings for `$…$` pairs kept as text.

use std::ops::Range;

use super::report::Report;
use crate::config::OnError;
use crate::diagnostic::Diagnostic;
use crate::html;
use crate::math::{self, MathError};
use crate::scan::{Declined, DeclinedPair, MathSpan, Scan};

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
pub const MAX_DECLINED_SHOWN: usize = 20;

/// The warning for a dollar pair that mdbook-katex would typeset and this build keeps
/// as text: why, and how to get it typeset (or silence it).
pub fn declined_diagnostic(report: &Report, pair: &DeclinedPair) -> Diagnostic {
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
    report
        .warning(
            range,
            "`$...$` kept as text (mdbook-katex would typeset it as math)",
        )
        .with_label(label)
        .with_hint(hint)
}

/// The warning for an inline `$...$` formula whose closing `$` follows `\\`: `\\` is a TeX
/// line break, so that `$` closes the formula (as in mdbook-katex), though the author
/// usually meant a dollar sign inside the math (`\xleftarrow \\$ \mathbb G` written for
/// a reader that runs after Markdown). Every later `$` of the paragraph then pairs with
/// the wrong partner, so the warning points at the cause, not only at what follows.
pub fn closed_after_line_break(report: &Report, span: &MathSpan) -> Option<Diagnostic> {
    if span.delimiter != crate::scan::Delimiter::Dollar {
        return None;
    }
    let trailing = span.tex.bytes().rev().take_while(|&b| b == b'\\').count();
    if trailing < 2 || trailing % 2 != 0 || span.range.end < 3 {
        return None;
    }
    Some(
        report
            .warning(
                span.range.end - 3..span.range.end,
                "this formula ends at `\\\\$`: `\\\\` is a TeX line break, so the `$` after it closes the formula",
            )
            .with_label("the formula closes here")
            .with_hint("for a dollar sign inside the formula write `\\$` (`\\xleftarrow{\\$}`); every `$` after it in the paragraph now pairs with the next one"),
    )
}

/// The warning that counts the kept-as-text dollar pairs not reported one by one.
pub fn more_declined_diagnostic(report: &Report, first: &DeclinedPair, more: usize) -> Diagnostic {
    report
        .warning(
            first.range.clone(),
            format!("{more} more `$...$` pairs kept as text from here on"),
        )
        .with_label("not reported one by one")
        .with_hint("write each dollar sign that is not math as `\\$`")
}

/// The warnings a scan of prose gives before any formula is typeset: a `\(` that
/// nothing closes, a role Markdown does not read, `$…$` pairs kept as text (at most
/// [`MAX_DECLINED_SHOWN`], then one that counts the rest).
pub fn report_prose_notes(report: &mut Report, found: &Scan) {
    for paren in &found.unclosed_parens {
        let d = report
            .warning(paren.clone(), "`\\(` opens a formula that no `\\)` closes")
            .with_label("shown as `(`: Markdown drops the backslash")
            .with_hint("close the formula with `\\)`; for a backslash before a parenthesis in prose, write `\\\\(`");
        report.push(d);
    }
    for unread in &found.unread_roles {
        let d = if unread.in_html {
            report.warning(
                unread.range.clone(),
                format!("`{{{}}}` inside HTML is not read as a role", unread.name),
            )
            .with_label("shown as plain text, not checked")
            .with_hint("Markdown inside an HTML block is not parsed: leave a blank line after the opening tag (e.g. `<details>`, `<summary>…</summary>`, blank line) so the role is in Markdown, or move it out of the HTML")
        } else {
            report
                .warning(
                    unread.range.clone(),
                    format!(
                        "`{{{}}}` is not followed by a code span, so it is not read as a role",
                        unread.name
                    ),
                )
                .with_label("shown as plain text")
                .with_hint(format!(
                    "write the code span right after the braces, with no space: {{{}}}`...`",
                    unread.name
                ))
        };
        report.push(d);
    }
    for span in &found.math {
        if let Some(d) = closed_after_line_break(report, span) {
            report.push(d);
        }
    }
    let shown = found.declined.len().min(MAX_DECLINED_SHOWN);
    for pair in &found.declined[..shown] {
        let d = declined_diagnostic(report, pair);
        report.push(d);
    }
    if let Some(last) = found.declined.get(shown) {
        let d = more_declined_diagnostic(report, last, found.declined.len() - shown);
        report.push(d);
    }
}

/// The diagnostic for a formula KaTeX rejected: an error, or a warning when the book
/// builds anyway (`on_error`).
pub fn math_diagnostic(
    report: &Report,
    on_error: OnError,
    span: &MathSpan,
    err: &MathError,
) -> Diagnostic {
    let headline = format!("LaTeX error in {}", span.delimiter.describe());
    // The caret on the offending part when the engine located it in TeX that is a
    // verbatim slice of the source; otherwise on the whole formula.
    let unclosed = (err.message.contains("expected '}'") || err.message.contains("Expected '}'"))
        .then(|| math::unclosed_brace(&span.tex))
        .flatten();
    let at = match (span.tex_offset, err.position) {
        (Some(offset), _) if unclosed.is_some() => {
            let at = offset + unclosed.unwrap_or_default();
            at..at + 1
        }
        (Some(offset), Some(pos)) if pos <= span.tex.len() => {
            let start = offset + floor(&span.tex, pos);
            let len = err.length.unwrap_or(1).max(1);
            start..(start + len).min(offset + span.tex.len()).max(start + 1)
        }
        _ => span.range.clone(),
    };
    let d = match on_error {
        OnError::Fail => report.error(at, headline),
        OnError::Warn => report.warning(at, headline),
    };
    let mut label = err.message.clone();
    if unclosed.is_some() && span.tex_offset.is_some() {
        let d = d
            .with_label("this `{` is never closed")
            .with_hint("every `{` needs a matching `}`: close this group where it should end");
        return d;
    }
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
        "check the spelling, or define the command as a macro (book.toml `[preprocessor.mathcourse.macros]`, a macros file, or `macros:` in the chapter's front matter); or set `on-error = \"warn\"` to build anyway, the formula shown in red".into()
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
pub fn error_box(span: &MathSpan, err: &MathError, color: &str) -> String {
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
