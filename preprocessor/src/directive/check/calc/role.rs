//! The inline role `` {calc}`sqrt(4 + 0 + 1) ≈ 2.24` ``: an expression, a relation and
//! the value the text states, computed and compared at build time, and shown as inline
//! math. Inside a `{check} calc` block's body it may use the block's names.

use std::ops::Range;

use mathcourse_core::expr::Expr;
use mathcourse_core::CoreError;

use super::eval::{self, finite, Env, Val};
use super::{check_names, leading_space, Kind, Names};
use crate::diagnostic::Diagnostic;
use crate::directive::check::compare::{exact, fmt_computed, fmt_rounded};
use crate::directive::check::run::caret_len;
use crate::directive::check::stated::{self, Num, Stated};
use crate::directive::check::tex;
use crate::directive::{Cx, Role};
use crate::scan::RoleSpan;

const HINT: &str = "write an expression, a relation and the stated value: {calc}`sqrt(4 + 0 + 1) ≈ 2.24` (`=`, `≈` or `\\approx`)";

/// The `calc` role, `` {calc}`sqrt(4 + 0 + 1) ≈ 2.24` ``: the expression and its stated
/// value, checked, shown as inline math.
pub static ROLE: Role = Role {
    name: "calc",
    inline_math: true,
    render: render_role,
    degrade: degrade_role,
};

fn render_role(cx: &mut Cx, span: &RoleSpan) -> Option<String> {
    match role(cx, &span.content, span.range.clone()) {
        Ok(tex) => Some(cx.math.generated_math(
            &mut cx.report,
            &tex,
            false,
            span.range.clone(),
            "this `{calc}` role",
            "the role shows its expression as a formula: compute the parts in a `{check} calc` block, then state the result with a short role that uses their names",
        )),
        Err(d) => {
            cx.report.push(d);
            None
        }
    }
}

/// Other renderers show the text as written; the check still runs.
fn degrade_role(cx: &mut Cx, span: &RoleSpan) -> String {
    if let Err(d) = role(cx, &span.content, span.range.clone()) {
        cx.report.push(d);
    }
    span.content.clone()
}

/// The role's text as written, with what locates a diagnostic in it.
struct Written<'c, 's> {
    cx: &'c Cx<'c>,
    /// The role's text, a slice of the chapter.
    content: &'s str,
    /// Where `content` starts in the chapter.
    at: usize,
}

impl Written<'_, '_> {
    /// An error at `range` of the role's text.
    fn error(&self, range: Range<usize>, message: impl Into<String>) -> Diagnostic {
        let place = self.at + range.start..self.at + range.end;
        self.cx.report.error(place, message)
    }
}

/// The inline role `` {calc}`sqrt(4 + 0 + 1) ≈ 2.24` ``: the TeX to show, or the
/// diagnostic. `whole` is the role in the chapter source.
pub fn role(cx: &Cx, content: &str, whole: Range<usize>) -> Result<String, Diagnostic> {
    // The role as written (a code span across lines reads its line ending as a space),
    // so that every offset inside `content` is a byte of the chapter.
    let (content, at) = as_written(&cx.source, content, &whole);
    let w = Written { cx, content, at };
    let relation = ["≈", "\\approx", "="]
        .iter()
        .filter_map(|r| content.find(r).map(|i| (i, *r)))
        .min_by_key(|(i, _)| *i);
    let Some((rel_at, rel)) = relation else {
        return Err(cx
            .report
            .error(whole, "`{calc}` needs a stated value")
            .with_label("no `=` or `≈` here")
            .with_hint(HINT));
    };
    let left = &content[..rel_at];
    let right_start = rel_at + rel.len();
    let (expr, value, fault) = evaluate(&w, left)?;
    let right = &content[right_start..];
    let value_span = right_start + leading_space(right)..right_start + right.trim_end().len();
    if value_span.is_empty() {
        return Err(w
            .error(
                rel_at..right_start,
                "`{calc}` needs a stated value after the relation",
            )
            .with_label("nothing after this")
            .with_hint(HINT));
    }
    let (nums, computed) = stated_value(&w, value_span, &value)?;
    if !finite(&value) {
        return Err(w
            .error(
                0..left.trim_end().len(),
                "this `{calc}` expression is not a finite number",
            )
            .with_label(fault.unwrap_or(eval::DOMAIN))
            .with_hint(HINT));
    }
    compare(&w, &nums, &computed)?;
    // The author's sign stays: `≈` as written; `=` only where the value is exact.
    let all_exact = nums.iter().zip(&computed).all(|(n, c)| exact(*c, n));
    let rel_tex = if rel == "=" && all_exact {
        "="
    } else {
        "\\approx"
    };
    let stated_tex = if nums.len() == 1 && matches!(value, Val::Scalar(_)) {
        tex::number(&nums[0].text)
    } else {
        format!(
            "({})",
            nums.iter()
                .map(|n| tex::number(&n.text))
                .collect::<Vec<_>>()
                .join(", ")
        )
    };
    Ok(format!("{} {rel_tex} {stated_tex}", tex::expr(&expr)))
}

/// The expression left of the relation: parsed, its names checked (inside a `calc`
/// block's body, the block's names), and computed; with the evaluator's fault, if any.
fn evaluate(w: &Written, left: &str) -> Result<(Expr, Val, Option<&'static str>), Diagnostic> {
    let expr = Expr::parse_general(left).map_err(|e| {
        let (position, label) = match e {
            CoreError::Syntax { position, message } => (position, message),
            other => (0, other.to_string()),
        };
        let p = position.min(left.len());
        let len = caret_len(w.content, p);
        w.error(p..p + len, "invalid expression in `{calc}`")
            .with_label(label)
            .with_hint(HINT)
    })?;
    let scope = &w.cx.calc_scope.0;
    let names = Names {
        defined: scope
            .iter()
            .map(|(n, _)| (n.clone(), Kind::Value))
            .collect(),
    };
    if let Err((position, _, message, hint)) = check_names(left, 0, &[], &names, false) {
        let len = caret_len(w.content, position);
        return Err(w
            .error(position..position + len, message)
            .with_label("used here")
            .with_hint(hint));
    }
    let mut env = Env::new();
    for (name, value) in scope {
        env.values.insert(name.clone(), value.clone());
    }
    let value = env.eval(&expr, &[]).map_err(|e| {
        w.error(
            0..left.trim_end().len(),
            "cannot compute this `{calc}` expression",
        )
        .with_label(e.0)
        .with_hint(HINT)
    })?;
    Ok((expr, value, env.fault))
}

/// The stated value at `value_span` of the role's text, read, with the computed numbers
/// it states (one, or each entry of a vector).
fn stated_value(
    w: &Written,
    value_span: Range<usize>,
    value: &Val,
) -> Result<(Vec<Num>, Vec<f64>), Diagnostic> {
    let stated = stated::read_text(w.content, value_span.clone()).map_err(|e| {
        w.error(
            value_span.clone(),
            "could not read the stated value of `{calc}`",
        )
        .with_label(e.message)
        .with_hint(HINT)
    })?;
    match (stated, value) {
        (Stated::Scalar(n), Val::Scalar(x)) => Ok((vec![n], vec![*x])),
        (Stated::Vector(v), Val::Vector(xs)) if v.len() == xs.len() => Ok((v, xs.clone())),
        (st, v) => Err(w
            .error(
                value_span,
                format!(
                    "the expression is {}, the stated value is {}",
                    v.describe(),
                    st.describe()
                ),
            )
            .with_label("stated here")
            .with_hint(HINT)),
    }
}

/// Each stated number against its computed value, to the precision written.
fn compare(w: &Written, nums: &[Num], computed: &[f64]) -> Result<(), Diagnostic> {
    for (n, c) in nums.iter().zip(computed) {
        if !n.agrees(*c) {
            return Err(w
                .error(
                    n.span.clone(),
                    format!(
                        "stated value is wrong: stated {}, computed {} ({})",
                        n.text,
                        fmt_computed(*c, n.decimals),
                        n.precision()
                    ),
                )
                .with_label("stated here")
                .with_hint(format!(
                    "to the precision written, the value is {}",
                    fmt_rounded(*c, n.decimals)
                )));
        }
    }
    Ok(())
}

/// The text of the role at `whole` as written in `source`, and where it starts. A code
/// span's text has its line endings turned into spaces, so a role wrapped across lines
/// is not there verbatim; every offset this module computes must be a byte of the
/// source (a fuzzer found a caret inside `≈`).
fn as_written<'s>(source: &'s str, content: &str, whole: &Range<usize>) -> (&'s str, usize) {
    let Some(text) = source.get(whole.clone()) else {
        return ("", whole.start);
    };
    let Some(open) = text.find('`') else {
        return ("", whole.start);
    };
    let ticks = text[open..].len() - text[open..].trim_start_matches('`').len();
    let start = open + ticks;
    let inner = &text[start..];
    let inner = inner.strip_suffix(&text[open..start]).unwrap_or(inner);
    // The code span's text as Markdown gives it, when it is there verbatim (one space
    // either side may have been stripped); else the text between the backticks.
    match inner.find(content) {
        Some(i) if !content.is_empty() => (&inner[i..i + content.len()], whole.start + start + i),
        _ => (inner, whole.start + start),
    }
}
