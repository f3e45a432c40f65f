//! Softmax turns scores (logits) into probabilities; temperature sharpens
//! (T < 1) or flattens (T > 1) the distribution.

use crate::{ensure_nonempty_finite, finite_vec, CoreError, Result};

/// Largest value of a non-empty finite slice.
fn max_of(z: &[f64]) -> f64 {
    z.iter().copied().fold(f64::NEG_INFINITY, f64::max)
}

/// Softmax pᵢ = e^{zᵢ} / Σⱼ e^{zⱼ}: positive numbers summing to 1, larger
/// scores getting larger shares (same as temperature T = 1).
pub fn softmax(z: &[f64]) -> Result<Vec<f64>> {
    softmax_with_temperature(z, 1.0)
}

/// Softmax at temperature T: pᵢ = e^{zᵢ/T} / Σⱼ e^{zⱼ/T}. Computed stably as
/// e^{(zᵢ−max z)/T} (the shift cancels), so large scores never overflow;
/// T must be positive and finite.
pub fn softmax_with_temperature(z: &[f64], t: f64) -> Result<Vec<f64>> {
    if !(t.is_finite() && t > 0.0) {
        return Err(CoreError::InvalidTemperature(t));
    }
    ensure_nonempty_finite(z, "scores")?;
    let m = max_of(z);
    // The max entry gives e⁰ = 1, so the sum is ≥ 1 and never 0 or NaN.
    let e: Vec<f64> = z.iter().map(|&v| ((v - m) / t).exp()).collect();
    let sum: f64 = e.iter().sum();
    finite_vec(e.iter().map(|v| v / sum).collect())
}

/// Log-softmax ln pᵢ = zᵢ − max z − ln Σⱼ e^{zⱼ − max z}: the logarithms of
/// the softmax probabilities without the underflow of taking ln of a tiny pᵢ.
pub fn log_softmax(z: &[f64]) -> Result<Vec<f64>> {
    ensure_nonempty_finite(z, "scores")?;
    let m = max_of(z);
    let lse = z.iter().map(|&v| (v - m).exp()).sum::<f64>().ln();
    finite_vec(z.iter().map(|&v| (v - m) - lse).collect())
}

/// Index of the largest score (the first one on ties), which is also the most
/// probable token after softmax; `None` if `z` is empty or has NaN/∞.
pub fn argmax(z: &[f64]) -> Option<usize> {
    if z.iter().any(|v| !v.is_finite()) {
        return None;
    }
    let mut best: Option<(usize, f64)> = None;
    for (i, &v) in z.iter().enumerate() {
        match best {
            Some((_, b)) if v <= b => {}
            _ => best = Some((i, v)),
        }
    }
    best.map(|(i, _)| i)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn assert_close(got: &[f64], want: &[f64], tol: f64) {
        assert_eq!(got.len(), want.len());
        for (g, w) in got.iter().zip(want) {
            assert!((g - w).abs() <= tol, "got {got:?}, want {want:?}");
        }
    }

    #[test]
    fn hand_checked_values() {
        let z = [2.0, 1.0, 0.0];
        assert_close(&softmax(&z).unwrap(), &[0.665, 0.245, 0.090], 5e-4);
        assert_close(
            &softmax_with_temperature(&z, 0.5).unwrap(),
            &[0.867, 0.117, 0.016],
            5e-4,
        );
        assert_close(
            &softmax_with_temperature(&z, 2.0).unwrap(),
            &[0.506, 0.307, 0.186],
            5e-4,
        );
    }

    #[test]
    fn independent_naive_formula() {
        // Direct e^{z}/Σe^{z} with no max-shift (safe for small inputs).
        for (z, t) in [
            (vec![2.0, 1.0, 0.0], 1.0),
            (vec![0.3, -1.2, 2.5, 0.0], 0.7),
            (vec![1.0, 1.0], 3.0),
        ] {
            let e: Vec<f64> = z.iter().map(|v: &f64| (v / t).exp()).collect();
            let s: f64 = e.iter().sum();
            let naive: Vec<f64> = e.iter().map(|v| v / s).collect();
            assert_close(&softmax_with_temperature(&z, t).unwrap(), &naive, 1e-15);
            if t == 1.0 {
                let logs: Vec<f64> = naive.iter().map(|p| p.ln()).collect();
                assert_close(&log_softmax(&z).unwrap(), &logs, 1e-14);
            }
        }
    }

    #[test]
    fn huge_scores_do_not_overflow() {
        let p = softmax(&[1000.0, 999.0, 998.0]).unwrap();
        assert_close(&p, &softmax(&[2.0, 1.0, 0.0]).unwrap(), 1e-15);
        let p = softmax_with_temperature(&[1.0, 0.0], 1e-300).unwrap();
        assert_eq!(p, vec![1.0, 0.0]);
    }

    #[test]
    fn errors() {
        assert!(matches!(
            softmax_with_temperature(&[1.0], 0.0),
            Err(CoreError::InvalidTemperature(_))
        ));
        assert!(softmax_with_temperature(&[1.0], -1.0).is_err());
        assert!(softmax_with_temperature(&[1.0], f64::NAN).is_err());
        assert!(softmax_with_temperature(&[1.0], f64::INFINITY).is_err());
        assert!(softmax(&[]).is_err());
        assert!(softmax(&[1.0, f64::NAN]).is_err());
        assert!(log_softmax(&[f64::NEG_INFINITY]).is_err());
        assert!(log_softmax(&[1e308, -1e308]).is_err());
    }

    #[test]
    fn argmax_first_on_ties() {
        assert_eq!(argmax(&[1.0, 3.0, 3.0, 2.0]), Some(1));
        assert_eq!(argmax(&[-5.0]), Some(0));
        assert_eq!(argmax(&[]), None);
        assert_eq!(argmax(&[1.0, f64::NAN]), None);
    }
}
