//! Comparing stated numbers with computed ones, shared by every kind: reading the
//! stated result, one number (`scalar_at`), a list (`vector_at`), a matrix, and the
//! number formatting of the messages and of the computation line.

// `Diagnostic` is the crate's error type (as in every directive); it is built only
// when an example is wrong, so its size does not matter here.
#![allow(clippy::result_large_err)]

use std::ops::Range;

use mathcourse_core::matrix::Matrix;
use mathcourse_core::round::round_to;
use serde_json::Value;

use super::run::Run;
use super::stated::{self, Num, Stated};
use super::tex;
use crate::diagnostic::Diagnostic;

/// The stated result, formatted, and whether it equals the computed one exactly.
pub(super) struct Shown {
    pub(super) tex: String,
    pub(super) text: String,
    pub(super) exact: bool,
}

impl Shown {
    pub(super) fn rel_tex(&self) -> &'static str {
        if self.exact {
            "="
        } else {
            "\\approx"
        }
    }

    pub(super) fn rel(&self) -> &'static str {
        if self.exact {
            "="
        } else {
            "≈"
        }
    }
}

/// True when the stated number `n` is `computed` itself, not a rounding of it: equal up
/// to numerical noise (a billionth), and that noise far below the last digit written
/// (3.1415926536 is a rounding of π; 0.5 for a step computed as 0.5000000001 is not).
pub(super) fn exact(computed: f64, n: &Num) -> bool {
    let diff = (computed - n.value).abs();
    diff <= 1e-9 * n.value.abs().max(1.0) && diff <= 1e-3 * n.unit
}

/// A computed number with two more decimals than the stated one (trailing zeros
/// beyond the stated precision dropped): 0.665241 with 2 stated decimals → `0.6652`.
pub(super) fn fmt_computed(x: f64, decimals: u32) -> String {
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
pub(super) fn fmt_rounded(x: f64, decimals: u32) -> String {
    let d = decimals.min(17) as usize;
    let s = format!("{:.d$}", round_to(x, decimals));
    if s.starts_with('-') && s[1..].chars().all(|c| c == '0' || c == '.') {
        s[1..].to_string()
    } else {
        s
    }
}

/// `entry` → `entries`, `iterate` → `iterates` (for n ≠ 1).
pub(super) fn plural(noun: &str, n: usize) -> String {
    if n == 1 {
        noun.to_string()
    } else if let Some(stem) = noun.strip_suffix('y') {
        format!("{stem}ies")
    } else {
        format!("{noun}s")
    }
}

pub(super) fn list(items: impl IntoIterator<Item = String>) -> String {
    format!("({})", items.into_iter().collect::<Vec<_>>().join(", "))
}

pub(super) fn vec_text(v: &[f64]) -> String {
    list(tex::inputs(v))
}

pub(super) fn matrix_tex(rows: &[Vec<String>]) -> String {
    let body = rows
        .iter()
        .map(|r| r.join(" & "))
        .collect::<Vec<_>>()
        .join(" \\\\ ");
    format!("\\begin{{pmatrix}} {body} \\end{{pmatrix}}")
}

pub(super) fn matrix_text(rows: &[Vec<String>]) -> String {
    format!(
        "[{}]",
        rows.iter()
            .map(|r| format!("[{}]", r.join(", ")))
            .collect::<Vec<_>>()
            .join(", ")
    )
}

pub(super) fn input_rows(m: &[Vec<f64>]) -> Vec<Vec<String>> {
    // One number of decimals for the whole matrix.
    let mut all = tex::inputs(m.iter().flatten()).into_iter();
    m.iter()
        .map(|r| all.by_ref().take(r.len()).collect())
        .collect()
}

impl Run<'_, '_> {
    pub(super) fn stated(&self, expect: &Value) -> Result<Stated, Diagnostic> {
        let span = self.span("expect");
        stated::read(expect, &self.cx.source, span.clone()).map_err(|e| {
            self.cx
                .report.error(span, "could not read the stated result `expect`")
                .with_label(e.message)
                .with_hint("write the rounded result as a number, a list `[0.665, 0.245, 0.090]` or a list of rows `[[1, 2], [3, 4]]`")
        })
    }

    pub(super) fn wrong_form(&self, stated: &Stated, wanted: &str, example: &str) -> Diagnostic {
        self.wrong_form_at(stated, wanted, example, self.span("expect"), "expect")
    }

    /// The stated value `what` (written at `span`) has the wrong form.
    pub(super) fn wrong_form_at(
        &self,
        stated: &Stated,
        wanted: &str,
        example: &str,
        span: Range<usize>,
        what: &str,
    ) -> Diagnostic {
        self.cx
            .report
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

    pub(super) fn wrong(&self, span: Range<usize>, message: String, hint: String) -> Diagnostic {
        self.cx
            .report
            .error(span, format!("worked example is wrong: {message}"))
            .with_label("stated here")
            .with_hint(hint)
    }

    pub(super) fn scalar(&self, expect: &Value, computed: f64) -> Result<(Shown, Num), Diagnostic> {
        let stated = self.stated(expect)?;
        self.scalar_at(stated, computed, self.span("expect"), "expect")
    }

    /// Compares one stated number, `what` written at `span`, with `computed`.
    pub(super) fn scalar_at(
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
        if !n.agrees(computed) {
            return Err(self.wrong(
                n.span.clone(),
                format!(
                    "stated {}, computed {} ({})",
                    n.text,
                    fmt_computed(computed, n.decimals),
                    n.precision()
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
                exact: exact(computed, &n),
            },
            n,
        ))
    }

    /// Compares a list; `noun` names one entry ("entry", "iterate").
    pub(super) fn vector(
        &self,
        expect: &Value,
        computed: &[f64],
        noun: &str,
    ) -> Result<Shown, Diagnostic> {
        let stated = self.stated(expect)?;
        self.vector_at(stated, computed, noun, self.span("expect"), "expect")
    }

    /// Compares a stated list, `what` written at `span`, with `computed`.
    pub(super) fn vector_at(
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
            .filter(|&i| !nums[i].agrees(computed[i]))
            .collect();
        if let Some(&i) = wrong.first() {
            let n = &nums[i];
            let mut message = format!(
                "{noun} {} of {}: stated {}, computed {} ({})",
                i + 1,
                nums.len(),
                n.text,
                fmt_computed(computed[i], n.decimals),
                n.precision()
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
            exact: nums.iter().zip(computed).all(|(n, c)| exact(*c, n)),
        })
    }

    pub(super) fn matrix(&self, expect: &Value, computed: &Matrix) -> Result<Shown, Diagnostic> {
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
                if !n.agrees(c) {
                    return Err(self.wrong(
                        n.span.clone(),
                        format!(
                            "entry ({}, {}): stated {}, computed {} ({})",
                            i + 1,
                            j + 1,
                            n.text,
                            fmt_computed(c, n.decimals),
                            n.precision()
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
                .all(|(n, c)| exact(*c, n)),
        })
    }
}
