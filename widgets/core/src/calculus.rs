//! Derivatives: numerical (central difference) and the chain rule.

use crate::{ensure_finite_scalar, CoreError, Result};

/// Step used by [`derivative_default`].
pub const DEFAULT_STEP: f64 = 1e-5;

/// Central-difference derivative f'(x) ≈ (f(x+h) − f(x−h)) / (2h), whose
/// error shrinks like h²; `h` must be positive and finite.
pub fn numerical_derivative(f: impl Fn(f64) -> f64, x: f64, h: f64) -> Result<f64> {
    ensure_finite_scalar(x, "x")?;
    if !(h.is_finite() && h > 0.0) {
        return Err(CoreError::InvalidParameter {
            name: "step h",
            value: h,
            expected: "positive and finite",
        });
    }
    let d = (f(x + h) - f(x - h)) / (2.0 * h);
    if d.is_finite() {
        Ok(d)
    } else {
        Err(CoreError::FunctionNotFinite { x })
    }
}

/// [`numerical_derivative`] with h = 1e-5 (a good balance between the h²
/// truncation error and floating-point cancellation for |x| around 1).
pub fn derivative_default(f: impl Fn(f64) -> f64, x: f64) -> Result<f64> {
    numerical_derivative(f, x, DEFAULT_STEP)
}

/// Chain rule: the derivative of f(g(x)) is f'(g(x))·g'(x) — the outer
/// derivative evaluated at the inner value, times the inner derivative.
pub fn chain_rule(
    f_prime: impl Fn(f64) -> f64,
    g: impl Fn(f64) -> f64,
    g_prime: impl Fn(f64) -> f64,
    x: f64,
) -> Result<f64> {
    ensure_finite_scalar(x, "x")?;
    let inner = g(x);
    if !inner.is_finite() {
        return Err(CoreError::FunctionNotFinite { x });
    }
    let d = f_prime(inner) * g_prime(x);
    if d.is_finite() {
        Ok(d)
    } else {
        Err(CoreError::FunctionNotFinite { x })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn derivative_of_square() {
        let d = derivative_default(|x| x * x, 3.0).unwrap();
        assert!((d - 6.0).abs() < 1e-8);
        let d = numerical_derivative(|x| x * x * x, 2.0, 1e-3).unwrap();
        // Central difference on x³ is exact up to h²: 3x² + h² = 12 + 1e-6.
        assert!((d - 12.000_001).abs() < 1e-9);
    }

    #[test]
    fn chain_rule_of_sin_x_squared() {
        let v = chain_rule(f64::cos, |x| x * x, |x| 2.0 * x, 1.0).unwrap();
        assert!((v - 1f64.cos() * 2.0).abs() < 1e-15);
        assert!((v - 1.0806).abs() < 5e-5);
        // Independent check: differentiate sin(x²) numerically.
        let n = derivative_default(|x| (x * x).sin(), 1.0).unwrap();
        assert!((v - n).abs() < 1e-8);
    }

    #[test]
    fn errors() {
        assert!(numerical_derivative(|x| x, 1.0, 0.0).is_err());
        assert!(numerical_derivative(|x| x, 1.0, -1e-5).is_err());
        assert!(numerical_derivative(|x| x, f64::NAN, 1e-5).is_err());
        assert!(matches!(
            derivative_default(|x: f64| x.ln(), 0.0),
            Err(CoreError::FunctionNotFinite { .. })
        ));
        assert!(chain_rule(|x| x, |x: f64| x.ln(), |x| 1.0 / x, -1.0).is_err());
    }
}
