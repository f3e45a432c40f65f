//! `{check}`: a worked example whose stated numbers are recomputed at build time.
//!
//! ```text
//! :::{check} softmax
//! :scores: [2, 1, 0]
//! :expect: [0.665, 0.245, 0.090]
//! The softmax of the scores (2, 1, 0) is about (0.665, 0.245, 0.090).
//! :::
//! ```
//!
//! The argument names the computation (one of [`KINDS`]), the options give its inputs
//! and the author's rounded result `expect`, the body is what the reader sees. The
//! result is recomputed with `mathcourse-core` and compared to the precision the author
//! wrote (`0.090` is checked to 3 decimals); a wrong number fails the build with an
//! error pointing at it. The page shows the body, a "checked" badge and the
//! computation as a formula.

// `Diagnostic` is the crate's error type (as in every directive); it is built only
// when an example is wrong, so its size does not matter here.
#![allow(clippy::result_large_err)]

mod body;
pub mod calc;
mod calculus;
mod compare;
mod information;
mod matrices;
mod run;
mod stated;
mod statistics;
mod tex;
mod vectors;

use super::options;
use super::{Block, Cx, Directive};
use crate::diagnostic::Diagnostic;
use crate::templates::Slot;
use run::{Line, Run};

/// The `check` directive.
pub struct Check;

/// What runs one kind of check.
type Compute = fn(&Run) -> Result<Line, Diagnostic>;

/// Every computation a `check` can verify (the word after `{check}`), by family. The
/// one list: a block's kind is looked up here and the "unknown kind" hint lists these
/// names, so a kind cannot be listed without being implemented.
const KINDS: &[(&str, Compute)] = &[
    ("dot", vectors::dot),
    ("norm", vectors::norm),
    ("cosine", vectors::cosine),
    ("angle", vectors::angle),
    ("matmul", matrices::matmul),
    ("shape", matrices::shape),
    ("softmax", information::softmax),
    ("entropy", information::entropy),
    ("surprise", information::surprise),
    ("cross-entropy", information::cross_entropy),
    ("perplexity", information::perplexity),
    ("log-product", information::log_product),
    ("derivative", calculus::derivative),
    ("chain-rule", calculus::chain_rule),
    ("gd", calculus::gd),
    ("std-sum", statistics::std_sum),
    ("calc", calc::run),
];

/// Runs the check of `block`: the computation line, or the diagnostic.
fn evaluate(block: &Block, cx: &Cx) -> Result<(&'static str, Line), Diagnostic> {
    let word = block.argument.trim();
    let Some(&(kind, compute)) = KINDS.iter().find(|(name, _)| *name == word) else {
        let span = if word.is_empty() {
            block.name_span.clone()
        } else {
            block.argument_span.clone()
        };
        let names: Vec<&str> = KINDS.iter().map(|(name, _)| *name).collect();
        let list = options::backticked(&names);
        let message = if word.is_empty() {
            "`check` needs the kind of computation to verify".to_string()
        } else {
            format!("unknown check kind `{word}`")
        };
        return Err(cx
            .report
            .error(span, message)
            .with_label("expected a kind here")
            .with_hint(format!(
                "write `:::{{check}} <kind>` with one of {list}{}",
                options::did_you_mean(word, &names)
            )));
    };
    let raw = options::raw_options(&cx.source, block)
        .map_err(|e| cx.report.error(e.span, e.message).with_hint(e.hint))?;
    let run = Run {
        cx,
        block,
        kind,
        raw,
    };
    Ok((kind, compute(&run)?))
}

/// Escapes Markdown punctuation so plain text stays plain.
fn markdown_escape(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for c in text.chars() {
        if matches!(
            c,
            '\\' | '`' | '*' | '_' | '[' | ']' | '<' | '>' | '$' | '#' | '|' | '~'
        ) {
            out.push('\\');
        }
        out.push(c);
    }
    out
}

impl Directive for Check {
    fn name(&self) -> &'static str {
        "check"
    }

    fn render(&self, block: &Block, cx: &mut Cx) -> Result<String, Diagnostic> {
        let (kind, line) = evaluate(block, cx)?;
        let all_checked = body_numbers_checked(block, &line, cx);
        // A `calc` shows its lines aligned, one per row.
        let math = cx.math.generated_math(&mut cx.report,
            &line.tex,
            kind == "calc",
            block.opener.clone(),
            &format!("the computation of this `{{check}} {kind}`"),
            "a check shows its computation as a formula: give it fewer or shorter inputs, or split it into several checks",
        );
        let mut context = tera::Context::new();
        context.insert("kind", kind);
        context.insert("id", &cx.ids.fresh_id("check"));
        context.insert("computation_html", &math);
        context.insert("computation_text", &line.text);
        context.insert("all_checked", &all_checked);
        let saved = std::mem::replace(&mut cx.calc_scope, line.scope.clone());
        let body = cx.markdown(block.body.clone());
        cx.calc_scope = saved;
        cx.template(
            "check",
            context,
            vec![Slot::new("body", body)],
            block.opener.clone(),
        )
    }

    fn degrade(&self, block: &Block, cx: &mut Cx) -> String {
        let evaluated = evaluate(block, cx);
        let scope = evaluated
            .as_ref()
            .map(|(_, line)| line.scope.clone())
            .unwrap_or_default();
        let saved = std::mem::replace(&mut cx.calc_scope, scope);
        let body = cx.markdown(block.body.clone());
        cx.calc_scope = saved;
        let mut out = body.trim().to_string();
        match evaluated {
            Ok((_, line)) => {
                if !out.is_empty() {
                    out.push_str("\n\n");
                }
                if body_numbers_checked(block, &line, cx) {
                    out.push_str("*✓ Checked at build time:* ");
                } else {
                    out.push_str(
                        "*Computation checked at build time (not every number of the text):* ",
                    );
                }
                out.push_str(&markdown_escape(&line.text));
                out.push('\n');
            }
            Err(d) => cx.report.push(d),
        }
        out
    }
}

/// Reports each number of the body that the build did not compare (see [`body`]);
/// true when there is none, so the example may carry its ✓.
fn body_numbers_checked(block: &Block, line: &Line, cx: &mut Cx) -> bool {
    let options = &cx.source[block.opener.end.min(block.body.start)..block.body.start];
    let mut known = body::values_in(options);
    known.extend(body::list_lengths(options));
    known.extend(body::values_in(&line.text));
    known.extend(&line.computed);
    let unchecked = body::unchecked(&cx.source, block.body.clone(), &known);
    for n in &unchecked {
        let d = cx
            .report.warning(
                n.span.clone(),
                format!(
                    "`{}` in this checked example is not compared with anything the build computed",
                    n.text
                ),
            )
            .with_label("not checked")
            .with_hint("write it as a `{calc}` role that computes it (e.g. {calc}`sqrt(2) ≈ 1.41`), or state it in the options (`expect`, or a `calc` line), so the build compares it; until then the example shows no ✓ (a number that is no result, such as a count, can be written in words)");
        cx.report.push(d);
    }
    unchecked.is_empty()
}

#[cfg(test)]
mod tests;
