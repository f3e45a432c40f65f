//! Checks on statistics: `std-sum` (the standard deviation of a sum of independent
//! variables). The general `calc` kind covers the rest (means, variances).

// `Diagnostic` is the crate's error type (as in every directive); it is built only
// when an example is wrong, so its size does not matter here.
#![allow(clippy::result_large_err)]

use mathcourse_core::stats;
use serde::Deserialize;
use serde_json::Value;

use super::run::{Line, Run};
use super::tex;
use crate::diagnostic::Diagnostic;

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct StdSumOptions {
    stds: Vec<f64>,
    expect: Value,
}

/// `√(σ₁² + σ₂² + …)`.
pub(super) fn std_sum(run: &Run) -> Result<Line, Diagnostic> {
    let o: StdSumOptions = run.options()?;
    let c = run.core(stats::std_of_sum_independent(&o.stds), "stds")?;
    let (s, _) = run.scalar(&o.expect, c)?;
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
        computed: Vec::new(),
        scope: Default::default(),
        tex: format!(
            "\\sqrt{{{}}} {} {}",
            squares.join(" + "),
            s.rel_tex(),
            s.tex
        ),
        text: format!("√({}) {} {}", squares.join(" + "), s.rel(), s.text),
    })
}
