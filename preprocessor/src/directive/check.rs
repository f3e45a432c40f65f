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

pub mod calc;
mod stated;
mod tex;

use std::ops::Range;

use mathcourse_core::expr::Expr;
use mathcourse_core::matrix::Matrix;
use mathcourse_core::round::{matches_stated, round_to};
use mathcourse_core::{calculus, descent, info, matrix, softmax, stats, vector, CoreError};
use serde::de::DeserializeOwned;
use serde::{Deserialize, Deserializer};
use serde_json::Value;

use super::options::{self, RawOptions};
use super::{Block, Cx, Directive};
use crate::diagnostic::Diagnostic;
use crate::templates::Slot;
use stated::{Num, Stated};

/// The `check` directive.
pub struct Check;

/// The computations a `check` can verify.
pub const KINDS: &[&str] = &[
    "dot",
    "norm",
    "cosine",
    "angle",
    "matmul",
    "shape",
    "softmax",
    "entropy",
    "surprise",
    "cross-entropy",
    "perplexity",
    "log-product",
    "derivative",
    "chain-rule",
    "gd",
    "std-sum",
    "calc",
];

fn kinds_list() -> String {
    options::backticked(KINDS)
}

// ---------- options, one struct per kind ----------

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct TwoVectors {
    a: Vec<f64>,
    b: Vec<f64>,
    expect: Value,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct OneVector {
    a: Vec<f64>,
    expect: Value,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct MatMul {
    a: Vec<Vec<f64>>,
    b: Vec<Vec<f64>>,
    expect: Value,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields, rename_all = "kebab-case")]
struct ShapeOptions {
    a_shape: [usize; 2],
    b_shape: [usize; 2],
    expect: Value,
}

fn one() -> f64 {
    1.0
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct SoftmaxOptions {
    scores: Vec<f64>,
    #[serde(default = "one")]
    temperature: f64,
    expect: Value,
}

#[derive(Deserialize, Clone, Copy, PartialEq, Eq)]
#[serde(rename_all = "lowercase")]
enum Unit {
    #[serde(alias = "bit")]
    Bits,
    #[serde(alias = "nat")]
    Nats,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct EntropyOptions {
    p: Vec<f64>,
    #[serde(default)]
    unit: Option<Unit>,
    expect: Value,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct SurpriseOptions {
    p: f64,
    #[serde(default)]
    unit: Option<Unit>,
    expect: Value,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct CrossEntropyOptions {
    probs: Vec<f64>,
    #[serde(default)]
    unit: Option<Unit>,
    expect: Value,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct PerplexityOptions {
    probs: Vec<f64>,
    expect: Value,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct LogProductOptions {
    values: Vec<f64>,
    #[serde(default)]
    base: Option<Value>,
    expect: Value,
}

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

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct StdSumOptions {
    stds: Vec<f64>,
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

// ---------- what a check produces ----------

/// The computation line, as TeX (HTML renderer) and as plain text (others).
#[derive(Debug, Clone, PartialEq)]
pub struct Line {
    /// TeX, typeset inline.
    pub tex: String,
    /// Plain text.
    pub text: String,
}

/// The stated result, formatted, and whether it equals the computed one exactly.
struct Shown {
    tex: String,
    text: String,
    exact: bool,
}

impl Shown {
    fn rel_tex(&self) -> &'static str {
        if self.exact {
            "="
        } else {
            "\\approx"
        }
    }

    fn rel(&self) -> &'static str {
        if self.exact {
            "="
        } else {
            "≈"
        }
    }
}

fn exact(computed: f64, stated: f64) -> bool {
    (computed - stated).abs() <= 1e-9 * stated.abs().max(1.0)
}

/// "checked to 3 decimals".
fn precision(decimals: u32) -> String {
    match decimals {
        0 => "checked to the nearest whole number".into(),
        1 => "checked to 1 decimal".into(),
        d => format!("checked to {d} decimals"),
    }
}

/// A computed number with two more decimals than the stated one (trailing zeros
/// beyond the stated precision dropped): 0.665241 with 2 stated decimals → `0.6652`.
fn fmt_computed(x: f64, decimals: u32) -> String {
    let shown = (decimals + 2).min(17) as usize;
    let mut s = format!("{x:.shown$}");
    if s.contains('.') {
        let min_len = s.find('.').map_or(s.len(), |dot| {
            if decimals == 0 {
                dot
            } else {
                dot + 1 + decimals as usize
            }
        });
        while s.len() > min_len && (s.ends_with('0') || s.ends_with('.')) {
            s.pop();
        }
    }
    if s.starts_with('-') && s[1..].chars().all(|c| c == '0' || c == '.') {
        s.remove(0);
    }
    s
}

/// A computed number rounded to `decimals`, as the author should write it.
fn fmt_rounded(x: f64, decimals: u32) -> String {
    let d = decimals.min(17) as usize;
    let s = format!("{:.d$}", round_to(x, decimals));
    if s.starts_with('-') && s[1..].chars().all(|c| c == '0' || c == '.') {
        s[1..].to_string()
    } else {
        s
    }
}

/// `entry` → `entries`, `iterate` → `iterates` (for n ≠ 1).
fn plural(noun: &str, n: usize) -> String {
    if n == 1 {
        noun.to_string()
    } else if let Some(stem) = noun.strip_suffix('y') {
        format!("{stem}ies")
    } else {
        format!("{noun}s")
    }
}

fn list(items: impl IntoIterator<Item = String>) -> String {
    format!("({})", items.into_iter().collect::<Vec<_>>().join(", "))
}

fn vec_text(v: &[f64]) -> String {
    list(tex::inputs(v))
}

fn matrix_tex(rows: &[Vec<String>]) -> String {
    let body = rows
        .iter()
        .map(|r| r.join(" & "))
        .collect::<Vec<_>>()
        .join(" \\\\ ");
    format!("\\begin{{pmatrix}} {body} \\end{{pmatrix}}")
}

fn matrix_text(rows: &[Vec<String>]) -> String {
    format!(
        "[{}]",
        rows.iter()
            .map(|r| format!("[{}]", r.join(", ")))
            .collect::<Vec<_>>()
            .join(", ")
    )
}

fn input_rows(m: &[Vec<f64>]) -> Vec<Vec<String>> {
    // One number of decimals for the whole matrix.
    let mut all = tex::inputs(m.iter().flatten()).into_iter();
    m.iter()
        .map(|r| all.by_ref().take(r.len()).collect())
        .collect()
}

/// The unit after a stated value: `1 bit`, `2 bits`.
fn unit_word(unit: Unit, stated_value: f64) -> (&'static str, &'static str) {
    let singular = stated_value == 1.0;
    match (unit, singular) {
        (Unit::Bits, true) => ("\\ \\text{bit}", " bit"),
        (Unit::Bits, false) => ("\\ \\text{bits}", " bits"),
        (Unit::Nats, true) => ("\\ \\text{nat}", " nat"),
        (Unit::Nats, false) => ("\\ \\text{nats}", " nats"),
    }
}

/// `\ln` / `\log_2` and their plain forms.
fn log_names(unit: Unit) -> (&'static str, &'static str) {
    match unit {
        Unit::Bits => ("\\log_2", "log₂"),
        Unit::Nats => ("\\ln", "ln"),
    }
}

/// `-\tfrac{1}{2}(\ln 0.5 + \ln 0.25)` and its plain form.
fn mean_surprise(probs: &[f64], log_tex: &str, log_text: &str) -> (String, String) {
    let terms_tex: Vec<String> = probs
        .iter()
        .map(|p| format!("{log_tex} {}", tex::input(*p)))
        .collect();
    let terms_text: Vec<String> = probs
        .iter()
        .map(|p| format!("{log_text} {}", tex::input(*p)))
        .collect();
    if probs.len() == 1 {
        (format!("-{}", terms_tex[0]), format!("−{}", terms_text[0]))
    } else {
        (
            format!(
                "-\\tfrac{{1}}{{{}}}({})",
                probs.len(),
                terms_tex.join(" + ")
            ),
            format!("−(1/{})({})", probs.len(), terms_text.join(" + ")),
        )
    }
}

// ---------- one run of a check ----------

struct Run<'c, 'a> {
    cx: &'c Cx<'a>,
    block: &'c Block,
    kind: &'static str,
    raw: RawOptions,
}

impl Run<'_, '_> {
    fn options<T: DeserializeOwned>(&self) -> Result<T, Diagnostic> {
        self.cx
            .options(self.block)
            .map(options::Typed::into_inner)
            .map_err(|mut d| {
                d.message = d
                    .message
                    .replace("directive `check`", &format!("`{{check}} {}`", self.kind));
                d
            })
    }

    /// Where the value of option `key` is written (else its key, else the opener).
    fn span(&self, key: &str) -> Range<usize> {
        stated::value_span(&self.cx.source, self.block, &self.raw, key)
            .or_else(|| self.raw.key_spans.get(key).cloned())
            .unwrap_or_else(|| self.block.opener.clone())
    }

    /// A core error about the inputs, pointing at option `key`.
    fn core<T>(&self, result: mathcourse_core::Result<T>, key: &str) -> Result<T, Diagnostic> {
        result.map_err(|e| {
            self.cx
                .error(self.span(key), format!("cannot check this example: {e}"))
                .with_label(format!("in `{key}`"))
                .with_hint(format!(
                    "fix the inputs of this `{}` example (see the author guide for what each option means)",
                    self.kind
                ))
        })
    }

    /// Parses the expression option `key` as a function of `var`.
    fn expr(&self, text: &str, key: &str, var: &str) -> Result<Expr, Diagnostic> {
        let span = self.span(key);
        let written = &self.cx.source[span.clone()];
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
                    let rest = &text[position.min(text.len())..];
                    let word: usize = rest
                        .chars()
                        .take_while(|c| c.is_alphanumeric() || *c == '_' || *c == '.')
                        .map(char::len_utf8)
                        .sum();
                    let len = if word > 0 {
                        word
                    } else {
                        rest.chars().next().map_or(1, char::len_utf8)
                    };
                    start..start + len
                });
                self.cx
                    .error(at, format!("invalid expression in `{key}`"))
                    .with_label(message)
                    .with_hint(hint.clone())
            }
            other => self
                .cx
                .error(span.clone(), format!("invalid expression in `{key}`"))
                .with_label(other.to_string())
                .with_hint(hint.clone()),
        })?;
        if let Err(CoreError::UnknownVariable { name, .. }) = expr.check_variable(var) {
            return Err(self
                .cx
                .error(
                    span,
                    format!("the expression in `{key}` uses the variable `{name}`"),
                )
                .with_label(format!("`{key}` is a function of `{var}`"))
                .with_hint(hint));
        }
        Ok(expr)
    }

    fn stated(&self, expect: &Value) -> Result<Stated, Diagnostic> {
        let span = self.span("expect");
        stated::read(expect, &self.cx.source, span.clone()).map_err(|e| {
            self.cx
                .error(span, "could not read the stated result `expect`")
                .with_label(e.message)
                .with_hint("write the rounded result as a number, a list `[0.665, 0.245, 0.090]` or a list of rows `[[1, 2], [3, 4]]`")
        })
    }

    fn wrong_form(&self, stated: &Stated, wanted: &str, example: &str) -> Diagnostic {
        self.wrong_form_at(stated, wanted, example, self.span("expect"), "expect")
    }

    /// The stated value `what` (written at `span`) has the wrong form.
    fn wrong_form_at(
        &self,
        stated: &Stated,
        wanted: &str,
        example: &str,
        span: Range<usize>,
        what: &str,
    ) -> Diagnostic {
        self.cx
            .error(
                span,
                format!(
                    "`{what}` of a `{}` check is {wanted}, not {}",
                    self.kind,
                    stated.describe()
                ),
            )
            .with_label("stated here")
            .with_hint(if what == "expect" {
                format!("write the rounded result, e.g. `:expect: {example}`")
            } else {
                format!("write the rounded result, e.g. `{what}: {example}`")
            })
    }

    fn wrong(&self, span: Range<usize>, message: String, hint: String) -> Diagnostic {
        self.cx
            .error(span, format!("worked example is wrong: {message}"))
            .with_label("stated here")
            .with_hint(hint)
    }

    fn scalar(&self, expect: &Value, computed: f64) -> Result<(Shown, Num), Diagnostic> {
        let stated = self.stated(expect)?;
        self.scalar_at(stated, computed, self.span("expect"), "expect")
    }

    /// Compares one stated number, `what` written at `span`, with `computed`.
    fn scalar_at(
        &self,
        stated: Stated,
        computed: f64,
        span: Range<usize>,
        what: &str,
    ) -> Result<(Shown, Num), Diagnostic> {
        let n = match stated {
            Stated::Scalar(n) => n,
            Stated::Vector(mut v) if v.len() == 1 => v.remove(0),
            other => return Err(self.wrong_form_at(&other, "one number", "0.596", span, what)),
        };
        if !matches_stated(computed, n.value, n.decimals) {
            return Err(self.wrong(
                n.span.clone(),
                format!(
                    "stated {}, computed {} ({})",
                    n.text,
                    fmt_computed(computed, n.decimals),
                    precision(n.decimals)
                ),
                format!(
                    "to the precision written, the result is {}; correct `{what}` (or the inputs, if they are what is wrong)",
                    fmt_rounded(computed, n.decimals)
                ),
            ));
        }
        Ok((
            Shown {
                tex: tex::number(&n.text),
                text: tex::plain_number(&n.text),
                exact: exact(computed, n.value),
            },
            n,
        ))
    }

    /// Compares a list; `noun` names one entry ("entry", "iterate").
    fn vector(&self, expect: &Value, computed: &[f64], noun: &str) -> Result<Shown, Diagnostic> {
        let stated = self.stated(expect)?;
        self.vector_at(stated, computed, noun, self.span("expect"), "expect")
    }

    /// Compares a stated list, `what` written at `span`, with `computed`.
    fn vector_at(
        &self,
        stated: Stated,
        computed: &[f64],
        noun: &str,
        span: Range<usize>,
        what: &str,
    ) -> Result<Shown, Diagnostic> {
        let nums = match stated {
            Stated::Vector(v) => v,
            Stated::Scalar(n) if computed.len() == 1 => vec![n],
            other => {
                return Err(self.wrong_form_at(
                    &other,
                    "a list of numbers",
                    "[0.665, 0.245, 0.090]",
                    span,
                    what,
                ))
            }
        };
        let rounded = |decimals: &dyn Fn(usize) -> u32| {
            list(
                computed
                    .iter()
                    .enumerate()
                    .map(|(i, c)| fmt_rounded(*c, decimals(i))),
            )
        };
        if nums.len() != computed.len() {
            let d = nums.iter().map(|n| n.decimals).max().unwrap_or(3);
            return Err(self.wrong(
                span.clone(),
                format!(
                    "stated {} {}, computed {}",
                    nums.len(),
                    plural(noun, nums.len()),
                    computed.len()
                ),
                format!(
                    "the computed result is {}; correct `{what}` (or the inputs, if they are what is wrong)",
                    rounded(&|_| d)
                ),
            ));
        }
        let wrong: Vec<usize> = (0..nums.len())
            .filter(|&i| !matches_stated(computed[i], nums[i].value, nums[i].decimals))
            .collect();
        if let Some(&i) = wrong.first() {
            let n = &nums[i];
            let mut message = format!(
                "{noun} {} of {}: stated {}, computed {} ({})",
                i + 1,
                nums.len(),
                n.text,
                fmt_computed(computed[i], n.decimals),
                precision(n.decimals)
            );
            if wrong.len() > 1 {
                let others: Vec<String> = wrong.iter().map(|w| (w + 1).to_string()).collect();
                message.push_str(&format!(
                    "; {} {} differ",
                    plural(noun, wrong.len()),
                    others.join(", ")
                ));
            }
            return Err(self.wrong(
                n.span.clone(),
                message,
                format!(
                    "to the precision written, the result is {}; correct `{what}` (or the inputs, if they are what is wrong)",
                    rounded(&|j| nums[j].decimals)
                ),
            ));
        }
        let texts: Vec<String> = nums.iter().map(|n| tex::number(&n.text)).collect();
        let plain: Vec<String> = nums.iter().map(|n| tex::plain_number(&n.text)).collect();
        Ok(Shown {
            // Long lists may wrap after a comma on narrow screens.
            tex: format!("({})", texts.join(",\\allowbreak ")),
            text: list(plain),
            exact: nums.iter().zip(computed).all(|(n, c)| exact(*c, n.value)),
        })
    }

    fn matrix(&self, expect: &Value, computed: &Matrix) -> Result<Shown, Diagnostic> {
        let rows = match self.stated(expect)? {
            Stated::Matrix(rows) => rows,
            other => {
                return Err(self.wrong_form(
                    &other,
                    "a matrix (a list of rows)",
                    "[[19, 22], [43, 50]]",
                ))
            }
        };
        let computed_rows = computed.to_rows();
        let d = rows.iter().flatten().map(|n| n.decimals).max().unwrap_or(0);
        let rounded = matrix_text(
            &computed_rows
                .iter()
                .map(|r| r.iter().map(|c| fmt_rounded(*c, d)).collect())
                .collect::<Vec<_>>(),
        );
        let fix = format!(
            "the computed product is {rounded}; correct `expect` (or the inputs, if they are what is wrong)"
        );
        let stated_shape = (rows.len(), rows.first().map_or(0, Vec::len));
        if stated_shape != computed.shape() || rows.iter().any(|r| r.len() != stated_shape.1) {
            return Err(self.wrong(
                self.span("expect"),
                format!(
                    "stated a {}×{} matrix, the product is {}×{}",
                    stated_shape.0,
                    stated_shape.1,
                    computed.rows(),
                    computed.cols()
                ),
                fix,
            ));
        }
        for (i, row) in rows.iter().enumerate() {
            for (j, n) in row.iter().enumerate() {
                let c = computed_rows[i][j];
                if !matches_stated(c, n.value, n.decimals) {
                    return Err(self.wrong(
                        n.span.clone(),
                        format!(
                            "entry ({}, {}): stated {}, computed {} ({})",
                            i + 1,
                            j + 1,
                            n.text,
                            fmt_computed(c, n.decimals),
                            precision(n.decimals)
                        ),
                        fix,
                    ));
                }
            }
        }
        let texts: Vec<Vec<String>> = rows
            .iter()
            .map(|r| r.iter().map(|n| tex::number(&n.text)).collect())
            .collect();
        let plain: Vec<Vec<String>> = rows
            .iter()
            .map(|r| r.iter().map(|n| tex::plain_number(&n.text)).collect())
            .collect();
        Ok(Shown {
            tex: matrix_tex(&texts),
            text: matrix_text(&plain),
            exact: rows
                .iter()
                .flatten()
                .zip(computed.data())
                .all(|(n, c)| exact(*c, n.value)),
        })
    }

    fn compute(&self) -> Result<Line, Diagnostic> {
        match self.kind {
            "dot" => {
                let o: TwoVectors = self.options()?;
                let c = self.core(vector::dot(&o.a, &o.b), "b")?;
                let (s, _) = self.scalar(&o.expect, c)?;
                let (a, b) = (vec_text(&o.a), vec_text(&o.b));
                Ok(Line {
                    tex: format!("{a} \\cdot {b} {} {}", s.rel_tex(), s.tex),
                    text: format!("{a} · {b} {} {}", s.rel(), s.text),
                })
            }
            "norm" => {
                let o: OneVector = self.options()?;
                let c = self.core(vector::norm(&o.a), "a")?;
                let (s, _) = self.scalar(&o.expect, c)?;
                let a = vec_text(&o.a);
                Ok(Line {
                    tex: format!("\\lVert {a} \\rVert {} {}", s.rel_tex(), s.tex),
                    text: format!("‖{a}‖ {} {}", s.rel(), s.text),
                })
            }
            "cosine" | "angle" => {
                let o: TwoVectors = self.options()?;
                let degrees = self.kind == "angle";
                let c = if degrees {
                    self.core(vector::angle_degrees(&o.a, &o.b), "b")?
                } else {
                    self.core(vector::cosine(&o.a, &o.b), "b")?
                };
                let (s, _) = self.scalar(&o.expect, c)?;
                let (a, b) = (vec_text(&o.a), vec_text(&o.b));
                Ok(if degrees {
                    Line {
                        tex: format!(
                            "\\angle\\bigl({a}, {b}\\bigr) {} {}^\\circ",
                            s.rel_tex(),
                            s.tex
                        ),
                        text: format!("angle({a}, {b}) {} {}°", s.rel(), s.text),
                    }
                } else {
                    Line {
                        tex: format!(
                            "\\cos\\angle\\bigl({a}, {b}\\bigr) {} {}",
                            s.rel_tex(),
                            s.tex
                        ),
                        text: format!("cos angle({a}, {b}) {} {}", s.rel(), s.text),
                    }
                })
            }
            "matmul" => {
                let o: MatMul = self.options()?;
                let a = self.core(Matrix::from_rows(&o.a), "a")?;
                let b = self.core(Matrix::from_rows(&o.b), "b")?;
                let c = self.core(matrix::matmul(&a, &b), "b")?;
                let s = self.matrix(&o.expect, &c)?;
                let (ra, rb) = (input_rows(&o.a), input_rows(&o.b));
                Ok(Line {
                    tex: format!(
                        "{}{} {} {}",
                        matrix_tex(&ra),
                        matrix_tex(&rb),
                        s.rel_tex(),
                        s.tex
                    ),
                    text: format!(
                        "{} × {} {} {}",
                        matrix_text(&ra),
                        matrix_text(&rb),
                        s.rel(),
                        s.text
                    ),
                })
            }
            "shape" => self.shape(),
            "softmax" => {
                let o: SoftmaxOptions = self.options()?;
                let c = self.core(
                    softmax::softmax_with_temperature(&o.scores, o.temperature),
                    if o.temperature == 1.0 {
                        "scores"
                    } else {
                        "temperature"
                    },
                )?;
                let s = self.vector(&o.expect, &c, "entry")?;
                let scores = tex::inputs(&o.scores).join(", ");
                let t = if o.temperature == 1.0 {
                    String::new()
                } else {
                    format!("; T = {}", tex::input(o.temperature))
                };
                Ok(Line {
                    tex: format!(
                        "\\operatorname{{softmax}}({scores}{}) {} {}",
                        t.replace("; ", ";\\ "),
                        s.rel_tex(),
                        s.tex
                    ),
                    text: format!("softmax({scores}{t}) {} {}", s.rel(), s.text),
                })
            }
            "entropy" => {
                let o: EntropyOptions = self.options()?;
                let unit = o.unit.unwrap_or(Unit::Bits);
                let c = match unit {
                    Unit::Bits => self.core(info::entropy_bits(&o.p), "p")?,
                    Unit::Nats => self.core(info::entropy_nats(&o.p), "p")?,
                };
                let (s, n) = self.scalar(&o.expect, c)?;
                let (ut, ux) = unit_word(unit, n.value);
                let p = tex::inputs(&o.p).join(", ");
                Ok(Line {
                    tex: format!("H({p}) {} {}{ut}", s.rel_tex(), s.tex),
                    text: format!("H({p}) {} {}{ux}", s.rel(), s.text),
                })
            }
            "surprise" => {
                let o: SurpriseOptions = self.options()?;
                let unit = o.unit.unwrap_or(Unit::Bits);
                let c = match unit {
                    Unit::Bits => self.core(info::surprise_bits(o.p), "p")?,
                    Unit::Nats => self.core(info::surprise_nats(o.p), "p")?,
                };
                let (s, n) = self.scalar(&o.expect, c)?;
                let (ut, ux) = unit_word(unit, n.value);
                let (lt, lx) = log_names(unit);
                let p = tex::input(o.p);
                Ok(Line {
                    tex: format!("-{lt} {p} {} {}{ut}", s.rel_tex(), s.tex),
                    text: format!("−{lx} {p} {} {}{ux}", s.rel(), s.text),
                })
            }
            "cross-entropy" => {
                let o: CrossEntropyOptions = self.options()?;
                let unit = o.unit.unwrap_or(Unit::Nats);
                let c = match unit {
                    Unit::Bits => self.core(info::cross_entropy_bits(&o.probs), "probs")?,
                    Unit::Nats => self.core(info::cross_entropy_nats(&o.probs), "probs")?,
                };
                let (s, n) = self.scalar(&o.expect, c)?;
                let (ut, ux) = unit_word(unit, n.value);
                let (lt, lx) = log_names(unit);
                let (mt, mx) = mean_surprise(&o.probs, lt, lx);
                Ok(Line {
                    tex: format!("{mt} {} {}{ut}", s.rel_tex(), s.tex),
                    text: format!("{mx} {} {}{ux}", s.rel(), s.text),
                })
            }
            "perplexity" => {
                let o: PerplexityOptions = self.options()?;
                let c = self.core(info::perplexity(&o.probs), "probs")?;
                let (s, _) = self.scalar(&o.expect, c)?;
                let (mt, mx) = mean_surprise(&o.probs, "\\ln", "ln");
                Ok(Line {
                    tex: format!("\\exp\\bigl({mt}\\bigr) {} {}", s.rel_tex(), s.tex),
                    text: format!("exp({mx}) {} {}", s.rel(), s.text),
                })
            }
            "log-product" => self.log_product(),
            "derivative" => {
                let o: DerivativeOptions = self.options()?;
                let f = self.expr(&o.f, "f", "x")?;
                let c = self.core(calculus::derivative_default(|x| f.value("x", x), o.at), "f")?;
                let (s, _) = self.scalar(&o.expect, c)?;
                let at = tex::input(o.at);
                Ok(Line {
                    tex: format!(
                        "f(x) = {},\\quad\\allowbreak f'({at}) {} {}",
                        tex::expr(&f),
                        s.rel_tex(),
                        s.tex
                    ),
                    text: format!("f(x) = {}, f′({at}) {} {}", o.f.trim(), s.rel(), s.text),
                })
            }
            "chain-rule" => {
                let o: ChainRuleOptions = self.options()?;
                let outer = self.expr(&o.outer, "outer", "u")?;
                let inner = self.expr(&o.inner, "inner", "x")?;
                self.core(inner.eval("x", o.at), "inner")?;
                let g = |x: f64| inner.value("x", x);
                let c = self.core(
                    calculus::chain_rule(
                        |u| {
                            calculus::derivative_default(|t| outer.value("u", t), u)
                                .unwrap_or(f64::NAN)
                        },
                        g,
                        |x| calculus::derivative_default(g, x).unwrap_or(f64::NAN),
                        o.at,
                    ),
                    "outer",
                )?;
                let (s, _) = self.scalar(&o.expect, c)?;
                let at = tex::input(o.at);
                Ok(Line {
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
            "gd" => self.gd(),
            "calc" => calc::run(self),
            "std-sum" => {
                let o: StdSumOptions = self.options()?;
                let c = self.core(stats::std_of_sum_independent(&o.stds), "stds")?;
                let (s, _) = self.scalar(&o.expect, c)?;
                let squares: Vec<String> = o
                    .stds
                    .iter()
                    .map(|x| {
                        let t = tex::input(*x);
                        if *x < 0.0 {
                            format!("({t})^2")
                        } else {
                            format!("{t}^2")
                        }
                    })
                    .collect();
                Ok(Line {
                    tex: format!(
                        "\\sqrt{{{}}} {} {}",
                        squares.join(" + "),
                        s.rel_tex(),
                        s.tex
                    ),
                    text: format!("√({}) {} {}", squares.join(" + "), s.rel(), s.text),
                })
            }
            other => Err(self
                .cx
                .error(
                    self.block.argument_span.clone(),
                    format!("check kind `{other}` is not implemented"),
                )
                .with_hint("this is a bug in mdbook-mathcourse; please report it")),
        }
    }

    fn shape(&self) -> Result<Line, Diagnostic> {
        let o: ShapeOptions = self.options()?;
        let (a, b) = ((o.a_shape[0], o.a_shape[1]), (o.b_shape[0], o.b_shape[1]));
        let computed = match matrix::product_shape(a, b) {
            Err(e @ CoreError::InnerDimensionMismatch { .. }) => Err(e),
            other => Ok(self.core(other, "b-shape")?),
        };
        let stated = self.stated(&o.expect)?;
        let stated_shape = match &stated {
            Stated::Word(w) if w.eq_ignore_ascii_case("error") => None,
            Stated::Vector(v) if v.len() == 2 => Some((v[0].value, v[1].value)),
            other => return Err(self.wrong_form(other, "`[rows, cols]` or `error`", "[2, 4]")),
        };
        let dims = |s: (usize, usize)| format!("{}×{}", s.0, s.1);
        let fix = |what: &str| {
            format!("the product is {what}; correct `expect` (or the shapes, if they are what is wrong)")
        };
        let expect_span = self.span("expect");
        match (&computed, stated_shape) {
            (Ok(c), Some((r, k))) if r == c.0 as f64 && k == c.1 as f64 => {}
            (Ok(c), Some((r, k))) => {
                return Err(self.wrong(
                    expect_span,
                    format!(
                        "stated {}×{}, but ({})({}) is {}",
                        tex::input(r),
                        tex::input(k),
                        dims(a),
                        dims(b),
                        dims(*c)
                    ),
                    fix(&format!("`[{}, {}]`", c.0, c.1)),
                ))
            }
            (Ok(c), None) => {
                return Err(self.wrong(
                    expect_span,
                    format!(
                        "stated `error`, but ({})({}) is defined: it is {}",
                        dims(a),
                        dims(b),
                        dims(*c)
                    ),
                    fix(&format!("`[{}, {}]`", c.0, c.1)),
                ))
            }
            (Err(e), Some((r, k))) => {
                return Err(self.wrong(
                    expect_span,
                    format!(
                        "stated {}×{}, but the product is undefined: {e}",
                        tex::input(r),
                        tex::input(k)
                    ),
                    fix("undefined: write `:expect: error`"),
                ))
            }
            (Err(_), None) => {}
        }
        let (at, bt) = (
            format!("({} \\times {})", a.0, a.1),
            format!("({} \\times {})", b.0, b.1),
        );
        Ok(match computed {
            Ok(c) => Line {
                tex: format!("{at}\\,{bt} \\to {} \\times {}", c.0, c.1),
                text: format!("({})({}) → {}", dims(a), dims(b), dims(c)),
            },
            Err(_) => Line {
                tex: format!(
                    "{at}\\,{bt}\\colon\\ \\text{{undefined}}\\ ({} \\ne {})",
                    a.1, b.0
                ),
                text: format!("({})({}): undefined ({} ≠ {})", dims(a), dims(b), a.1, b.0),
            },
        })
    }

    fn log_product(&self) -> Result<Line, Diagnostic> {
        let o: LogProductOptions = self.options()?;
        let base = match &o.base {
            None => 0,
            Some(Value::String(s)) if s.trim() == "e" => 0,
            Some(Value::Number(n)) if n.as_f64() == Some(2.0) => 2,
            Some(Value::Number(n)) if n.as_f64() == Some(10.0) => 10,
            Some(Value::String(s)) if s.trim() == "2" => 2,
            Some(Value::String(s)) if s.trim() == "10" => 10,
            Some(other) => {
                return Err(self
                    .cx
                    .error(
                        self.span("base"),
                        format!("unsupported logarithm base `{other}`"),
                    )
                    .with_label("here")
                    .with_hint("`base` is `e` (the default), `2` or `10`"))
            }
        };
        let ln = self.core(info::log_of_product(&o.values), "values")?;
        let c = match base {
            2 => ln / std::f64::consts::LN_2,
            10 => ln / std::f64::consts::LN_10,
            _ => ln,
        };
        let (s, _) = self.scalar(&o.expect, c)?;
        let (lt, lx) = match base {
            2 => ("\\log_2", "log₂"),
            10 => ("\\log_{10}", "log₁₀"),
            _ => ("\\ln", "ln"),
        };
        let values: Vec<String> = o.values.iter().map(|v| tex::input(*v)).collect();
        Ok(Line {
            tex: format!(
                "{lt}({}) = {} {} {}",
                values.join(" \\cdot "),
                values
                    .iter()
                    .map(|v| format!("{lt} {v}"))
                    .collect::<Vec<_>>()
                    .join(" + "),
                s.rel_tex(),
                s.tex
            ),
            text: format!(
                "{lx}({}) = {} {} {}",
                values.join(" · "),
                values
                    .iter()
                    .map(|v| format!("{lx} {v}"))
                    .collect::<Vec<_>>()
                    .join(" + "),
                s.rel(),
                s.text
            ),
        })
    }

    fn gd(&self) -> Result<Line, Diagnostic> {
        let o: GdOptions = self.options()?;
        let f = self.expr(&o.f, "f", "x")?;
        let derivative = match &o.derivative {
            Some(d) => Some(self.expr(d, "derivative", "x")?),
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
        let trajectory = self.core(trajectory, "lr")?;
        if trajectory.diverged {
            let last = trajectory.xs.last().copied().unwrap_or(o.x0);
            return Err(self
                .cx
                .error(
                    self.span("lr"),
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
        let s = self.vector(&o.expect, iterates, "iterate")?;
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
}

/// Runs the check of `block`: the computation line, or the diagnostic.
fn evaluate(block: &Block, cx: &Cx) -> Result<(&'static str, Line), Diagnostic> {
    let word = block.argument.trim();
    let Some(kind) = KINDS.iter().copied().find(|k| *k == word) else {
        let span = if word.is_empty() {
            block.name_span.clone()
        } else {
            block.argument_span.clone()
        };
        let list = kinds_list();
        let message = if word.is_empty() {
            "`check` needs the kind of computation to verify".to_string()
        } else {
            format!("unknown check kind `{word}`")
        };
        return Err(cx
            .error(span, message)
            .with_label("expected a kind here")
            .with_hint(format!(
                "write `:::{{check}} <kind>` with one of {list}{}",
                options::did_you_mean(word, KINDS)
            )));
    };
    let raw = options::raw_options(&cx.source, block)
        .map_err(|e| cx.error(e.span, e.message).with_hint(e.hint))?;
    let run = Run {
        cx,
        block,
        kind,
        raw,
    };
    Ok((kind, run.compute()?))
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
        // A `calc` shows its lines aligned, one per row.
        let math = cx.option_math(&line.tex, kind == "calc", block.opener.clone());
        let mut context = tera::Context::new();
        context.insert("kind", kind);
        context.insert("id", &cx.fresh_id("check"));
        context.insert("computation_html", &math);
        context.insert("computation_text", &line.text);
        let body = cx.markdown(block.body.clone());
        cx.template(
            "check",
            context,
            vec![Slot::new("body", body)],
            block.opener.clone(),
        )
    }

    fn degrade(&self, block: &Block, cx: &mut Cx) -> String {
        let body = cx.markdown(block.body.clone());
        let mut out = body.trim().to_string();
        match evaluate(block, cx) {
            Ok((_, line)) => {
                if !out.is_empty() {
                    out.push_str("\n\n");
                }
                out.push_str("*✓ Checked at build time:* ");
                out.push_str(&markdown_escape(&line.text));
                out.push('\n');
            }
            Err(d) => cx.diagnostics.push(d),
        }
        out
    }
}

#[cfg(test)]
mod tests;
