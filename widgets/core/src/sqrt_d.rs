//! Why attention divides by √d: dot products of random d-dimensional vectors
//! spread out like √d, which this module measures empirically.

use crate::rng::Rng;
use crate::{stats, CoreError, Result};

/// Largest d·n accepted by [`random_dot_products`] (bounds time and memory).
pub const MAX_WORK: usize = 50_000_000;

/// Dot products of `n` independent pairs of random d-vectors whose entries
/// are standard normal: each is Σᵢ xᵢyᵢ, with mean 0 and standard deviation √d.
/// Deterministic for a given seed (entries are drawn x₁, y₁, x₂, y₂, …).
pub fn random_dot_products(d: usize, n: usize, seed: u64) -> Result<Vec<f64>> {
    if d == 0 {
        return Err(CoreError::Empty {
            what: "dimension d",
        });
    }
    if n == 0 {
        return Err(CoreError::Empty {
            what: "number of samples",
        });
    }
    match d.checked_mul(n) {
        Some(work) if work <= MAX_WORK => {}
        _ => {
            return Err(CoreError::TooLarge {
                what: "d × number of samples",
                requested: d.saturating_mul(n),
                limit: MAX_WORK,
            })
        }
    }
    let mut rng = Rng::new(seed);
    let mut out = Vec::with_capacity(n);
    for _ in 0..n {
        let mut s = 0.0;
        for _ in 0..d {
            let x = rng.normal();
            let y = rng.normal();
            s += x * y;
        }
        out.push(s);
    }
    Ok(out)
}

/// Spread of the samples: their population standard deviation
/// √((1/n) Σ (xᵢ − x̄)²).
pub fn spread(xs: &[f64]) -> Result<f64> {
    stats::std_dev(xs)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn spread_grows_like_sqrt_d() {
        let xs = random_dot_products(64, 20_000, 1).unwrap();
        assert_eq!(xs.len(), 20_000);
        let s = spread(&xs).unwrap();
        assert!((s - 8.0).abs() <= 0.05 * 8.0, "spread {s}");
        let s4 = spread(&random_dot_products(4, 20_000, 2).unwrap()).unwrap();
        assert!((s4 - 2.0).abs() <= 0.05 * 2.0, "spread {s4}");
        // Scaling by 1/√d brings the spread back to about 1.
        let scaled: Vec<f64> = xs.iter().map(|x| x / 8.0).collect();
        assert!((spread(&scaled).unwrap() - 1.0).abs() < 0.05);
    }

    #[test]
    fn deterministic() {
        assert_eq!(
            random_dot_products(8, 50, 5).unwrap(),
            random_dot_products(8, 50, 5).unwrap()
        );
        assert_ne!(
            random_dot_products(8, 50, 5).unwrap(),
            random_dot_products(8, 50, 6).unwrap()
        );
    }

    #[test]
    fn errors() {
        assert!(random_dot_products(0, 10, 1).is_err());
        assert!(random_dot_products(10, 0, 1).is_err());
        assert!(matches!(
            random_dot_products(usize::MAX, 2, 1),
            Err(CoreError::TooLarge { .. })
        ));
        assert!(spread(&[]).is_err());
    }
}
