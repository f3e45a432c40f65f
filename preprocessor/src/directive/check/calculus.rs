//! Checks on derivatives and gradient descent: `derivative`, `chain-rule`, `gd`. Their
//! functions are written as expressions (`mathcourse_core::expr`).

// `Diagnostic` is the crate's error type (as in every directive); it is built only
// when an example is wrong, so its size does not matter here.
#![allow(clippy::result_large_err)]

use mathcourse_core::expr::Expr;
use mathcourse_core::{calculus, descent, CoreError};
use serde::{Deserialize, Deserializer};
use serde_json::Value;

use super::compare::fmt_computed;
use super::run::{Line, Run};
use super::tex;
use crate::diagnostic::Diagnostic;

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct DerivativeOptions {
    #[serde(deserialize_with = "text")]
    f: String,
    at: f64,
    expect: Value,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct ChainRuleOptions {
    #[serde(deserialize_with = "text")]
    outer: String,
    #[serde(deserialize_with = "text")]
    inner: String,
    at: f64,
    expect: Value,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct GdOptions {
    #[serde(deserialize_with = "text")]
    f: String,
    x0: f64,
    lr: f64,
    steps: usize,
    #[serde(default, deserialize_with = "optional_text")]
    derivative: Option<String>,
    expect: Value,
}

/// An expression option: text, or a bare number (`:f: 3`).
fn text<'de, D: Deserializer<'de>>(d: D) -> Result<String, D::Error> {
    match Value::deserialize(d)? {
        Value::String(s) => Ok(s),
        Value::Number(n) => Ok(n.to_string()),
        _ => Err(serde::de::Error::custom(
            "expected an expression, e.g. `x^2 + 3*x`",
        )),
    }
}

fn optional_text<'de, D: Deserializer<'de>>(d: D) -> Result<Option<String>, D::Error> {
    text(d).map(Some)
}

/// Parses the expression option `key` as a function of `var`.
fn expr(run: &Run, text: &str, key: &str, var: &str) -> Result<Expr, Diagnostic> {
    let span = run.span(key);
    let written = &run.cx.source[span.clone()];
    let base = written.find(text).map(|i| span.start + i);
    let example = if var == "u" {
        "`sin(u)` or `u^2 + 1`"
    } else {
        "`(x - 2)^2 + 0.5*sin(3*x)`"
    };
    let hint = format!(
        "write a function of `{var}` with + - * / ^, parentheses, numbers, `pi`, `e` and sin cos tan exp ln log log2 log10 sqrt abs tanh floor ceil, e.g. {example}"
    );
    let expr = Expr::parse(text).map_err(|e| match e {
        CoreError::Syntax { position, message } => {
            let at = base.map_or(span.clone(), |b| {
                let start = (b + position).min(b + text.len());
                // The whole name or number there (`sinh`), else one character.
                start..start + super::run::caret_len(text, position).max(1)
            });
            run.cx
                .report
                .error(at, format!("invalid expression in `{key}`"))
                .with_label(message)
                .with_hint(hint.clone())
        }
        other => run
            .cx
            .report
            .error(span.clone(), format!("invalid expression in `{key}`"))
            .with_label(other.to_string())
            .with_hint(hint.clone()),
    })?;
    if let Err(CoreError::UnknownVariable { name, .. }) = expr.check_variable(var) {
        return Err(run
            .cx
            .report
            .error(
                span,
                format!("the expression in `{key}` uses the variable `{name}`"),
            )
            .with_label(format!("`{key}` is a function of `{var}`"))
            .with_hint(hint));
    }
    Ok(expr)
}

/// `f'(at)`.
pub(super) fn derivative(run: &Run) -> Result<Line, Diagnostic> {
    let o: DerivativeOptions = run.options()?;
    let f = expr(run, &o.f, "f", "x")?;
    let c = run.core(calculus::derivative_default(|x| f.value("x", x), o.at), "f")?;
    let (s, _) = run.scalar(&o.expect, c)?;
    let at = tex::input(o.at);
    Ok(Line {
        computed: Vec::new(),
        scope: Default::default(),
        tex: format!(
            "f(x) = {},\\quad\\allowbreak f'({at}) {} {}",
            tex::expr(&f),
            s.rel_tex(),
            s.tex
        ),
        text: format!("f(x) = {}, f′({at}) {} {}", o.f.trim(), s.rel(), s.text),
    })
}

/// `(f∘g)'(at) = f'(g(at)) g'(at)`.
pub(super) fn chain_rule(run: &Run) -> Result<Line, Diagnostic> {
    let o: ChainRuleOptions = run.options()?;
    let outer = expr(run, &o.outer, "outer", "u")?;
    let inner = expr(run, &o.inner, "inner", "x")?;
    run.core(inner.eval("x", o.at), "inner")?;
    let g = |x: f64| inner.value("x", x);
    let c = run.core(
        calculus::chain_rule(
            |u| calculus::derivative_default(|t| outer.value("u", t), u).unwrap_or(f64::NAN),
            g,
            |x| calculus::derivative_default(g, x).unwrap_or(f64::NAN),
            o.at,
        ),
        "outer",
    )?;
    let (s, _) = run.scalar(&o.expect, c)?;
    let at = tex::input(o.at);
    Ok(Line {
computed: Vec::new(),
scope: Default::default(),
        tex: format!(
            "f(u) = {},\\allowbreak\\ g(x) = {};\\quad\\allowbreak (f\\circ g)'({at}) = f'(g({at}))\\,g'({at}) {} {}",
            tex::expr(&outer),
            tex::expr(&inner),
            s.rel_tex(),
            s.tex
        ),
        text: format!(
            "f(u) = {}, g(x) = {}: (f∘g)′({at}) = f′(g({at}))·g′({at}) {} {}",
            o.outer.trim(),
            o.inner.trim(),
            s.rel(),
            s.text
        ),
    })
}

/// The iterates of gradient descent on `f` from `x0`.
pub(super) fn gd(run: &Run) -> Result<Line, Diagnostic> {
    let o: GdOptions = run.options()?;
    let f = expr(run, &o.f, "f", "x")?;
    let derivative = match &o.derivative {
        Some(d) => Some(expr(run, d, "derivative", "x")?),
        None => None,
    };
    let trajectory = match &derivative {
        Some(d) => descent::gd_1d_with(|x| d.value("x", x), o.x0, o.lr, o.steps),
        None => descent::gd_1d_with(
            |x| calculus::derivative_default(|t| f.value("x", t), x).unwrap_or(f64::NAN),
            o.x0,
            o.lr,
            o.steps,
        ),
    };
    let trajectory = run.core(trajectory, "lr")?;
    if trajectory.diverged {
        let last = trajectory.xs.last().copied().unwrap_or(o.x0);
        return Err(run
            .cx
            .report.error(
                run.span("lr"),
                format!(
                    "cannot check this example: gradient descent diverged after {} steps (last finite iterate {})",
                    trajectory.xs.len().saturating_sub(1),
                    fmt_computed(last, 3)
                ),
            )
            .with_label("with this learning rate")
            .with_hint("a divergent run has no iterates to state; use a smaller `lr`, fewer `steps`, or check `f`/`derivative`"));
    }
    let iterates = trajectory.xs.get(1..).unwrap_or(&[]);
    let s = run.vector(&o.expect, iterates, "iterate")?;
    let n = iterates.len();
    let (xs_tex, xs_text) = match n {
        1 => ("x_1".to_string(), "x₁".to_string()),
        2 => ("x_1, x_2".to_string(), "x₁, x₂".to_string()),
        3 => ("x_1, x_2, x_3".to_string(), "x₁, x₂, x₃".to_string()),
        _ => (format!("x_1, \\dots, x_{{{n}}}"), format!("x_1 … x_{n}")),
    };
    let (x0, lr) = (tex::input(o.x0), tex::input(o.lr));
    let bare = |t: &str| {
        t.strip_prefix('(')
            .and_then(|t| t.strip_suffix(')'))
            .unwrap_or(t)
            .to_string()
    };
    let (stated_tex, stated_text) = (bare(&s.tex), bare(&s.text));
    Ok(Line {
computed: Vec::new(),
scope: Default::default(),
        tex: format!(
            "f(x) = {},\\allowbreak\\ {{x_0 = {x0}}},\\allowbreak\\ {{\\eta = {lr}}};\\quad\\allowbreak {xs_tex} {} {stated_tex}",
            tex::expr(&f),
            s.rel_tex(),
        ),
        text: format!(
            "f(x) = {}, x₀ = {x0}, η = {lr}: {xs_text} {} {stated_text}",
            o.f.trim(),
            s.rel(),
        ),
    })
}
