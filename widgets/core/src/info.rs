//! Information theory: surprise, entropy, cross-entropy, perplexity and KL
//! divergence. Natural logs give nats, base-2 logs give bits (1 bit = ln 2 nats).

use crate::{ensure_nonempty_finite, finite_result, CoreError, Result};
use core::f64::consts::LN_2;

/// Tolerance on Σp = 1 for a probability distribution.
pub const SUM_TOLERANCE: f64 = 1e-6;

/// Checks that `p` is a distribution: non-empty, finite, pᵢ ≥ 0, |Σp − 1| ≤ 1e-6.
pub fn validate_distribution(p: &[f64]) -> Result<()> {
    ensure_nonempty_finite(p, "probabilities")?;
    if let Some((index, &value)) = p.iter().enumerate().find(|(_, v)| **v < 0.0) {
        return Err(CoreError::NegativeProbability { index, value });
    }
    let sum: f64 = p.iter().sum();
    if (sum - 1.0).abs() > SUM_TOLERANCE {
        return Err(CoreError::NotNormalized { sum });
    }
    Ok(())
}

/// Checks that a single probability is in (0, 1].
fn check_probability(p: f64) -> Result<()> {
    if p.is_finite() && p > 0.0 && p <= 1.0 {
        Ok(())
    } else {
        Err(CoreError::ProbabilityOutOfRange(p))
    }
}

/// Entropy in nats, H(p) = −Σ pᵢ ln pᵢ (with 0·ln 0 = 0): the average
/// surprise of outcomes drawn from p.
pub fn entropy_nats(p: &[f64]) -> Result<f64> {
    validate_distribution(p)?;
    let h: f64 = p.iter().filter(|&&v| v > 0.0).map(|&v| -v * v.ln()).sum();
    // Entries a hair above 1 (allowed by the tolerance) could make h ≈ −1e-7.
    Ok(if h > 0.0 { h } else { 0.0 })
}

/// Entropy in bits, H(p) = −Σ pᵢ log₂ pᵢ = H_nats / ln 2: e.g. a fair coin
/// has 1 bit, a uniform choice among 4 has 2 bits.
pub fn entropy_bits(p: &[f64]) -> Result<f64> {
    Ok(entropy_nats(p)? / LN_2)
}

/// Surprise (information content) of an event of probability p in nats,
/// −ln p; p must be in (0, 1].
pub fn surprise_nats(p: f64) -> Result<f64> {
    check_probability(p)?;
    Ok(0.0 - p.ln())
}

/// Surprise of an event of probability p in bits, −log₂ p (p = 1/4 → 2 bits).
pub fn surprise_bits(p: f64) -> Result<f64> {
    Ok(surprise_nats(p)? / LN_2)
}

/// Cross-entropy loss in nats from the probabilities a model gave to the true
/// tokens: (1/N) Σ −ln pᵢ, the mean surprise; each pᵢ must be in (0, 1].
pub fn cross_entropy_nats(probs_of_true_tokens: &[f64]) -> Result<f64> {
    if probs_of_true_tokens.is_empty() {
        return Err(CoreError::Empty {
            what: "probabilities",
        });
    }
    let mut total = 0.0;
    for &p in probs_of_true_tokens {
        total += surprise_nats(p)?;
    }
    Ok(total / probs_of_true_tokens.len() as f64)
}

/// Cross-entropy in bits, (1/N) Σ −log₂ pᵢ = cross-entropy in nats / ln 2.
pub fn cross_entropy_bits(probs_of_true_tokens: &[f64]) -> Result<f64> {
    Ok(cross_entropy_nats(probs_of_true_tokens)? / LN_2)
}

/// Perplexity exp((1/N) Σ −ln pᵢ) = e^{cross-entropy}: the "effective number
/// of equally likely choices" the model hesitates between; always ≥ 1.
pub fn perplexity(probs_of_true_tokens: &[f64]) -> Result<f64> {
    finite_result(cross_entropy_nats(probs_of_true_tokens)?.exp())
}

/// Natural log of a product computed as a sum of logs, ln Πᵢ vᵢ = Σᵢ ln vᵢ.
///
/// Why: multiplying many probabilities underflows to 0 (0.1¹⁰⁰⁰ is 0 in
/// `f64`), while adding their logs stays accurate (−2302.6). Values must be
/// positive and finite.
pub fn log_of_product(values: &[f64]) -> Result<f64> {
    ensure_nonempty_finite(values, "values")?;
    let mut total = 0.0;
    for (index, &value) in values.iter().enumerate() {
        if value <= 0.0 {
            return Err(CoreError::NonPositive { index, value });
        }
        total += value.ln();
    }
    finite_result(total)
}

/// KL divergence in nats, D(p‖q) = Σ pᵢ ln(pᵢ/qᵢ) (terms with pᵢ = 0 count 0):
/// the extra surprise from using q when outcomes follow p. It is ≥ 0 and
/// infinite (an error here) when some qᵢ = 0 < pᵢ.
pub fn kl_divergence_nats(p: &[f64], q: &[f64]) -> Result<f64> {
    if p.len() != q.len() {
        return Err(CoreError::LengthMismatch {
            left: p.len(),
            right: q.len(),
        });
    }
    validate_distribution(p)?;
    validate_distribution(q)?;
    let mut d = 0.0;
    for (index, (&pi, &qi)) in p.iter().zip(q).enumerate() {
        if pi == 0.0 {
            continue;
        }
        if qi == 0.0 {
            return Err(CoreError::InfiniteDivergence { index });
        }
        // ln pᵢ − ln qᵢ rather than ln(pᵢ/qᵢ): the ratio could overflow.
        d += pi * (pi.ln() - qi.ln());
    }
    Ok(if d > 0.0 { d } else { 0.0 })
}

/// KL divergence in bits, D(p‖q) = Σ pᵢ log₂(pᵢ/qᵢ) = D_nats / ln 2.
pub fn kl_divergence_bits(p: &[f64], q: &[f64]) -> Result<f64> {
    Ok(kl_divergence_nats(p, q)? / LN_2)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn close(x: f64, y: f64, tol: f64) -> bool {
        (x - y).abs() <= tol
    }

    #[test]
    fn hand_checked_values() {
        assert_eq!(entropy_bits(&[0.5, 0.5]).unwrap(), 1.0);
        assert!(close(entropy_bits(&[0.25; 4]).unwrap(), 2.0, 1e-15));
        assert!(close(surprise_bits(0.25).unwrap(), 2.0, 1e-15));
        assert!(close(surprise_nats(0.25).unwrap(), 1.386, 5e-4));
        let ppl = perplexity(&[0.5, 0.25]).unwrap();
        assert!(close(ppl, ((2f64.ln() + 4f64.ln()) / 2.0).exp(), 1e-14));
        assert!(close(ppl, 2.0 * 2f64.sqrt(), 1e-14));
        assert!(close(ppl, 2.828, 5e-4));
        assert!(close(cross_entropy_bits(&[0.5, 0.25]).unwrap(), 1.5, 1e-15));
        assert_eq!(entropy_bits(&[1.0, 0.0]).unwrap(), 0.0);
        assert_eq!(surprise_bits(1.0).unwrap().to_bits(), 0.0f64.to_bits());
    }

    #[test]
    fn independent_entropy_in_base_10_then_converted() {
        // H computed with log10, converted: H_bits = H_dits / log10(2).
        let p = [0.1, 0.2, 0.3, 0.4];
        let h_dits: f64 = p.iter().map(|v: &f64| -v * v.log10()).sum();
        assert!(close(
            entropy_bits(&p).unwrap(),
            h_dits / 2f64.log10(),
            1e-14
        ));
        assert!(close(entropy_nats(&p).unwrap(), h_dits * 10f64.ln(), 1e-14));
        // Known value: 1.846439344671 bits.
        assert!(close(entropy_bits(&p).unwrap(), 1.846_439_344_671, 1e-11));
    }

    #[test]
    fn kl_divergence() {
        // D((½,½) ‖ (¼,¾)) = ½log₂2 + ½log₂(2/3) = 1 − ½log₂3.
        let d = kl_divergence_bits(&[0.5, 0.5], &[0.25, 0.75]).unwrap();
        assert!(close(d, 1.0 - 0.5 * 3f64.log2(), 1e-15));
        assert_eq!(kl_divergence_bits(&[0.3, 0.7], &[0.3, 0.7]).unwrap(), 0.0);
        assert!(matches!(
            kl_divergence_bits(&[0.5, 0.5], &[1.0, 0.0]),
            Err(CoreError::InfiniteDivergence { index: 1 })
        ));
        assert!(kl_divergence_bits(&[0.0, 1.0], &[0.5, 0.5]).is_ok());
        assert!(kl_divergence_bits(&[1.0], &[0.5, 0.5]).is_err());
    }

    #[test]
    fn log_of_product_avoids_underflow() {
        let probs = vec![0.1; 1000];
        assert_eq!(probs.iter().product::<f64>(), 0.0);
        assert!(close(
            log_of_product(&probs).unwrap(),
            1000.0 * 0.1f64.ln(),
            1e-9
        ));
        assert!(close(
            log_of_product(&[2.0, 3.0]).unwrap(),
            6f64.ln(),
            1e-15
        ));
        assert!(matches!(
            log_of_product(&[1.0, 0.0]),
            Err(CoreError::NonPositive { index: 1, .. })
        ));
    }

    #[test]
    fn errors() {
        assert!(matches!(
            entropy_bits(&[0.5, 0.6]),
            Err(CoreError::NotNormalized { .. })
        ));
        assert!(matches!(
            entropy_bits(&[1.5, -0.5]),
            Err(CoreError::NegativeProbability { index: 1, .. })
        ));
        assert!(entropy_bits(&[]).is_err());
        assert!(entropy_bits(&[f64::NAN]).is_err());
        assert!(entropy_bits(&[0.5, 0.5 + 1e-7]).is_ok());
        for bad in [0.0, -0.1, 1.5, f64::NAN, f64::INFINITY] {
            assert!(matches!(
                surprise_bits(bad),
                Err(CoreError::ProbabilityOutOfRange(_))
            ));
        }
        assert!(cross_entropy_nats(&[]).is_err());
        assert!(perplexity(&[0.5, 0.0]).is_err());
    }
}
