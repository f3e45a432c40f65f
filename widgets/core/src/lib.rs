//! Pure math helpers for the mdbook-mathcourse preprocessor and its widgets.
//!
//! Everything here is a plain function (or a small plain struct) on `f64`
//! values: no I/O, no threads, no clocks, no global state and no `unsafe`,
//! so the same code runs at build time (the `check` directive that verifies
//! authors' worked examples) and inside the interactive widgets compiled to
//! native code and to `wasm32-unknown-unknown`.
//!
//! Functions whose input can be invalid return [`Result<_, CoreError>`];
//! NaN or infinite inputs are reported as errors, never as panics.

#![forbid(unsafe_code)]
#![deny(missing_docs)]
#![cfg_attr(
    not(test),
    deny(
        clippy::indexing_slicing,
        clippy::unwrap_used,
        clippy::expect_used,
        clippy::panic
    )
)]
// `widgets/clippy.toml` keeps float formatting and parsing, libm's trigonometry and
// `f64::clamp` out of the wasm bundle. Tests never reach the bundle and compare with
// exactly those std functions; the library target is still checked without this allow.
#![cfg_attr(test, allow(clippy::disallowed_methods, clippy::disallowed_macros))]

pub mod attention;
pub mod calculus;
pub mod descent;
mod error;
// The expression grammar is parsed and evaluated (with std's `sin`, `cos`, `tan`,
// messages with `format!`) only at build time, by `{check}` and the plot's author side;
// the bundle runs compiled plots through `plot.rs` with `trig`.
#[allow(clippy::disallowed_methods, clippy::disallowed_macros)]
pub mod expr;
pub mod info;
pub mod matrix;
pub mod plot;
pub mod rng;
// Rounding rules of the build-time `{check}` directive: never called by the bundle.
#[allow(clippy::disallowed_methods)]
pub mod round;
pub mod softmax;
pub mod sqrt_d;
pub mod stats;
pub mod trig;
pub mod vector;

pub use error::{CoreError, Result};

/// Returns an error unless every value is finite (neither NaN nor ±∞).
///
/// Shared input check: `what` names the argument in the error message.
pub(crate) fn ensure_finite(values: &[f64], what: &'static str) -> Result<()> {
    match values.iter().position(|v| !v.is_finite()) {
        Some(index) => Err(CoreError::NonFinite { what, index }),
        None => Ok(()),
    }
}

/// Returns an error unless `values` is non-empty and all finite.
pub(crate) fn ensure_nonempty_finite(values: &[f64], what: &'static str) -> Result<()> {
    if values.is_empty() {
        return Err(CoreError::Empty { what });
    }
    ensure_finite(values, what)
}

/// Returns an error unless a single scalar is finite.
pub(crate) fn ensure_finite_scalar(value: f64, name: &'static str) -> Result<()> {
    if value.is_finite() {
        Ok(())
    } else {
        Err(CoreError::InvalidParameter {
            name,
            value,
            expected: "a finite number",
        })
    }
}

/// Turns an overflowed (non-finite) result into an error.
pub(crate) fn finite_result(value: f64) -> Result<f64> {
    if value.is_finite() {
        Ok(value)
    } else {
        Err(CoreError::Overflow)
    }
}

/// Checks that every value of a computed vector is finite.
pub(crate) fn finite_vec(values: Vec<f64>) -> Result<Vec<f64>> {
    if values.iter().all(|v| v.is_finite()) {
        Ok(values)
    } else {
        Err(CoreError::Overflow)
    }
}
