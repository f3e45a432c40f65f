//! Checks on matrices: `matmul` (the product) and `shape` (the product's shape, or
//! that it is undefined).

// `Diagnostic` is the crate's error type (as in every directive); it is built only
// when an example is wrong, so its size does not matter here.
#![allow(clippy::result_large_err)]

use mathcourse_core::matrix::{self, Matrix};
use mathcourse_core::CoreError;
use serde::Deserialize;
use serde_json::Value;

use super::compare::{input_rows, matrix_tex, matrix_text};
use super::run::{Line, Run};
use super::stated::Stated;
use super::tex;
use crate::diagnostic::Diagnostic;

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

/// `A B`.
pub(super) fn matmul(run: &Run) -> Result<Line, Diagnostic> {
    let o: MatMul = run.options()?;
    let a = run.core(Matrix::from_rows(&o.a), "a")?;
    let b = run.core(Matrix::from_rows(&o.b), "b")?;
    let c = run.core(matrix::matmul(&a, &b), "b")?;
    let s = run.matrix(&o.expect, &c)?;
    let (ra, rb) = (input_rows(&o.a), input_rows(&o.b));
    Ok(Line {
        computed: Vec::new(),
        scope: Default::default(),
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

/// `(m × n)(n × p) → m × p`, or `error` when the inner sizes differ.
pub(super) fn shape(run: &Run) -> Result<Line, Diagnostic> {
    let o: ShapeOptions = run.options()?;
    let (a, b) = ((o.a_shape[0], o.a_shape[1]), (o.b_shape[0], o.b_shape[1]));
    let computed = match matrix::product_shape(a, b) {
        Err(e @ CoreError::InnerDimensionMismatch { .. }) => Err(e),
        other => Ok(run.core(other, "b-shape")?),
    };
    let stated = run.stated(&o.expect)?;
    let stated_shape = match &stated {
        Stated::Word(w) if w.eq_ignore_ascii_case("error") => None,
        Stated::Vector(v) if v.len() == 2 => Some((v[0].value, v[1].value)),
        other => return Err(run.wrong_form(other, "`[rows, cols]` or `error`", "[2, 4]")),
    };
    let dims = |s: (usize, usize)| format!("{}×{}", s.0, s.1);
    let fix = |what: &str| {
        format!(
            "the product is {what}; correct `expect` (or the shapes, if they are what is wrong)"
        )
    };
    let expect_span = run.span("expect");
    match (&computed, stated_shape) {
        (Ok(c), Some((r, k))) if r == c.0 as f64 && k == c.1 as f64 => {}
        (Ok(c), Some((r, k))) => {
            return Err(run.wrong(
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
            return Err(run.wrong(
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
            return Err(run.wrong(
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
            computed: Vec::new(),
            scope: Default::default(),
            tex: format!("{at}\\,{bt} \\to {} \\times {}", c.0, c.1),
            text: format!("({})({}) → {}", dims(a), dims(b), dims(c)),
        },
        Err(_) => Line {
            computed: Vec::new(),
            scope: Default::default(),
            tex: format!(
                "{at}\\,{bt}\\colon\\ \\text{{undefined}}\\ ({} \\ne {})",
                a.1, b.0
            ),
            text: format!("({})({}): undefined ({} ≠ {})", dims(a), dims(b), a.1, b.0),
        },
    })
}
