//! Descriptive statistics and the spread of sums and dot products of
//! independent random values.

use crate::{ensure_nonempty_finite, finite_result, CoreError, Result};

/// Arithmetic mean x̄ = (1/n) Σ xᵢ.
pub fn mean(xs: &[f64]) -> Result<f64> {
    ensure_nonempty_finite(xs, "values")?;
    Ok(mean_unchecked(xs))
}

/// Mean of a validated non-empty finite slice; never overflows.
fn mean_unchecked(xs: &[f64]) -> f64 {
    let n = xs.len() as f64;
    let s: f64 = xs.iter().sum();
    if s.is_finite() {
        s / n
    } else {
        // Σxᵢ overflowed; Σ(xᵢ/n) cannot, since its magnitude is ≤ max|xᵢ|.
        xs.iter().map(|x| x / n).sum()
    }
}

/// Sum of squared deviations Σ (xᵢ − x̄)² (two-pass, for accuracy).
fn sum_sq_dev(xs: &[f64]) -> Result<f64> {
    let m = mean_unchecked(xs);
    finite_result(xs.iter().map(|x| (x - m) * (x - m)).sum())
}

/// Population variance σ² = (1/n) Σ (xᵢ − x̄)²: the mean squared distance
/// from the mean.
pub fn variance(xs: &[f64]) -> Result<f64> {
    ensure_nonempty_finite(xs, "values")?;
    Ok(sum_sq_dev(xs)? / xs.len() as f64)
}

/// Population standard deviation σ = √variance, in the units of the data.
pub fn std_dev(xs: &[f64]) -> Result<f64> {
    Ok(variance(xs)?.sqrt())
}

/// Sample variance s² = Σ (xᵢ − x̄)² / (n − 1) (Bessel's correction, an
/// unbiased estimate of the population variance); needs n ≥ 2.
pub fn sample_variance(xs: &[f64]) -> Result<f64> {
    ensure_nonempty_finite(xs, "values")?;
    if xs.len() < 2 {
        return Err(CoreError::TooFewValues {
            needed: 2,
            got: xs.len(),
        });
    }
    Ok(sum_sq_dev(xs)? / (xs.len() - 1) as f64)
}

/// Sample standard deviation s = √(sample variance); needs n ≥ 2.
pub fn sample_std_dev(xs: &[f64]) -> Result<f64> {
    Ok(sample_variance(xs)?.sqrt())
}

/// Standard deviation of a sum of independent random variables,
/// σ = √(Σ σᵢ²): variances add, standard deviations do not (3 and 4 give 5).
pub fn std_of_sum_independent(stds: &[f64]) -> Result<f64> {
    ensure_nonempty_finite(stds, "standard deviations")?;
    if let Some(&value) = stds.iter().find(|s| **s < 0.0) {
        return Err(CoreError::InvalidParameter {
            name: "a standard deviation",
            value,
            expected: "≥ 0",
        });
    }
    finite_result(crate::vector::norm(stds)?)
}

/// Standard deviation of the dot product x·y of two independent random
/// d-vectors whose entries are independent, zero-mean, with variance `var`:
/// each product xᵢyᵢ has variance var², the d products add, so
/// std = √(d·var²) = √d·var. With var = 1 this is √d — why attention divides
/// scores by √d_k.
pub fn dot_product_std(d: usize, var: f64) -> Result<f64> {
    if d == 0 {
        return Err(CoreError::Empty {
            what: "dimension d",
        });
    }
    if !(var.is_finite() && var >= 0.0) {
        return Err(CoreError::InvalidParameter {
            name: "variance",
            value: var,
            expected: "finite and ≥ 0",
        });
    }
    finite_result((d as f64).sqrt() * var)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn hand_checked_values() {
        let xs = [2.0, 4.0, 4.0, 4.0, 5.0, 5.0, 7.0, 9.0];
        assert_eq!(mean(&xs).unwrap(), 5.0);
        assert_eq!(variance(&xs).unwrap(), 4.0);
        assert_eq!(std_dev(&xs).unwrap(), 2.0);
        assert!((sample_variance(&xs).unwrap() - 32.0 / 7.0).abs() < 1e-15);
        assert!((sample_std_dev(&xs).unwrap() - (32.0f64 / 7.0).sqrt()).abs() < 1e-15);
        assert_eq!(std_of_sum_independent(&[3.0, 4.0]).unwrap(), 5.0);
        assert_eq!(dot_product_std(64, 1.0).unwrap(), 8.0);
        assert_eq!(dot_product_std(16, 0.5).unwrap(), 2.0);
    }

    #[test]
    fn independent_variance_via_moments() {
        // Var = E[x²] − (E[x])², a different formula from the two-pass one.
        let xs = [1.5, -2.0, 3.25, 0.0, 7.0];
        let n = xs.len() as f64;
        let ex: f64 = xs.iter().sum::<f64>() / n;
        let ex2: f64 = xs.iter().map(|x| x * x).sum::<f64>() / n;
        assert!((variance(&xs).unwrap() - (ex2 - ex * ex)).abs() < 1e-12);
    }

    #[test]
    fn extreme_inputs() {
        assert_eq!(mean(&[1e308, 1e308]).unwrap(), 1e308);
        assert!(variance(&[1e308, -1e308]).is_err());
        assert_eq!(variance(&[3.0]).unwrap(), 0.0);
    }

    #[test]
    fn errors() {
        assert!(mean(&[]).is_err());
        assert!(mean(&[f64::NAN]).is_err());
        assert!(matches!(
            sample_variance(&[1.0]),
            Err(CoreError::TooFewValues { needed: 2, got: 1 })
        ));
        assert!(std_of_sum_independent(&[3.0, -4.0]).is_err());
        assert!(std_of_sum_independent(&[]).is_err());
        assert!(dot_product_std(0, 1.0).is_err());
        assert!(dot_product_std(4, -1.0).is_err());
        assert!(dot_product_std(4, f64::NAN).is_err());
    }
}
