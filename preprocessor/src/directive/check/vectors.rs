//! Checks on vectors: `dot`, `norm`, `cosine`, `angle`.

// `Diagnostic` is the crate's error type (as in every directive); it is built only
// when an example is wrong, so its size does not matter here.
#![allow(clippy::result_large_err)]

use mathcourse_core::vector;
use serde::Deserialize;
use serde_json::Value;

use super::compare::vec_text;
use super::run::{Line, Run};
use crate::diagnostic::Diagnostic;

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

/// `a · b`.
pub(super) fn dot(run: &Run) -> Result<Line, Diagnostic> {
    let o: TwoVectors = run.options()?;
    let c = run.core(vector::dot(&o.a, &o.b), "b")?;
    let (s, _) = run.scalar(&o.expect, c)?;
    let (a, b) = (vec_text(&o.a), vec_text(&o.b));
    Ok(Line {
        computed: Vec::new(),
        scope: Default::default(),
        tex: format!("{a} \\cdot {b} {} {}", s.rel_tex(), s.tex),
        text: format!("{a} · {b} {} {}", s.rel(), s.text),
    })
}

/// `‖a‖`.
pub(super) fn norm(run: &Run) -> Result<Line, Diagnostic> {
    let o: OneVector = run.options()?;
    let c = run.core(vector::norm(&o.a), "a")?;
    let (s, _) = run.scalar(&o.expect, c)?;
    let a = vec_text(&o.a);
    Ok(Line {
        computed: Vec::new(),
        scope: Default::default(),
        tex: format!("\\lVert {a} \\rVert {} {}", s.rel_tex(), s.tex),
        text: format!("‖{a}‖ {} {}", s.rel(), s.text),
    })
}

/// `cos ∠(a, b)`.
pub(super) fn cosine(run: &Run) -> Result<Line, Diagnostic> {
    cosine_or_angle(run, false)
}

/// `∠(a, b)` in degrees.
pub(super) fn angle(run: &Run) -> Result<Line, Diagnostic> {
    cosine_or_angle(run, true)
}

fn cosine_or_angle(run: &Run, degrees: bool) -> Result<Line, Diagnostic> {
    let o: TwoVectors = run.options()?;
    let c = if degrees {
        run.core(vector::angle_degrees(&o.a, &o.b), "b")?
    } else {
        run.core(vector::cosine(&o.a, &o.b), "b")?
    };
    let (s, _) = run.scalar(&o.expect, c)?;
    let (a, b) = (vec_text(&o.a), vec_text(&o.b));
    Ok(if degrees {
        Line {
            computed: Vec::new(),
            scope: Default::default(),
            tex: format!(
                "\\angle\\bigl({a}, {b}\\bigr) {} {}^\\circ",
                s.rel_tex(),
                s.tex
            ),
            text: format!("angle({a}, {b}) {} {}°", s.rel(), s.text),
        }
    } else {
        Line {
            computed: Vec::new(),
            scope: Default::default(),
            tex: format!(
                "\\cos\\angle\\bigl({a}, {b}\\bigr) {} {}",
                s.rel_tex(),
                s.tex
            ),
            text: format!("cos angle({a}, {b}) {} {}", s.rel(), s.text),
        }
    })
}
