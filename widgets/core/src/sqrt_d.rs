//! Why attention divides by √d: dot products of random d-dimensional vectors
//! spread out like √d, which this module measures empirically.

use crate::rng::{portable_ln, Rng};
use crate::{stats, CoreError, Result};

/// Largest d·n accepted by [`random_dot_products`] (bounds time and memory).
pub const MAX_WORK: usize = 50_000_000;

/// Dot products of `n` independent pairs of random d-vectors whose entries
/// are standard normal: each is Σᵢ xᵢyᵢ, with mean 0 and standard deviation √d.
/// Deterministic for a given seed.
///
/// Each dot product is drawn from its exact distribution in O(1) instead of from 2d
/// normal entries (a widget resamples 500 of them at d = 512 per click, which took
/// 11–16 ms in the browser): y is rotation-invariant, so x·y = ‖x‖·(x/‖x‖)·y where
/// (x/‖x‖)·y is a standard normal z independent of ‖x‖, and ‖x‖² is chi-square with
/// d degrees of freedom, that is 2·Gamma(d/2). So x·y = √(2g)·z, g ~ Gamma(d/2, 1)
/// (Marsaglia and Tsang's method; for d = 1, x·y is drawn directly as x₁y₁).
/// [`random_dot_products_by_entries`] computes Σᵢ xᵢyᵢ literally; the tests compare
/// the two distributions.
pub fn random_dot_products(d: usize, n: usize, seed: u64) -> Result<Vec<f64>> {
    check_sizes(d, n)?;
    let mut rng = Rng::new(seed);
    let shape = d as f64 / 2.0;
    Ok((0..n)
        .map(|_| {
            if d == 1 {
                rng.normal() * rng.normal()
            } else {
                let g = gamma(&mut rng, shape);
                (2.0 * g).sqrt() * rng.normal()
            }
        })
        .collect())
}

/// A Gamma(`shape`, 1) sample for `shape` ≥ 1 (Marsaglia and Tsang, 2000): with
/// a = shape − ⅓ and c = 1/√(9a), draw a normal x and v = (1 + cx)³ until v > 0 and a
/// uniform u passes the squeeze u < 1 − 0.0331x⁴ or ln u < x²/2 + a(1 − v + ln v);
/// then a·v is the sample. Accepts about 98% of draws at shape ≥ 1.
fn gamma(rng: &mut Rng, shape: f64) -> f64 {
    let a = shape - 1.0 / 3.0;
    let c = 1.0 / (9.0 * a).sqrt();
    loop {
        let x = rng.normal();
        let t = 1.0 + c * x;
        if t <= 0.0 {
            continue;
        }
        let v = t * t * t;
        let u = rng.next_f64();
        let x2 = x * x;
        if u < 1.0 - 0.0331 * x2 * x2 || portable_ln(u) < 0.5 * x2 + a * (1.0 - v + portable_ln(v))
        {
            return a * v;
        }
    }
}

fn check_sizes(d: usize, n: usize) -> Result<()> {
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
    Ok(())
}

/// Dot products Σᵢ xᵢyᵢ of `n` pairs of random d-vectors with standard normal entries,
/// computed entry by entry (drawn x₁, y₁, x₂, y₂, …): 2d normals per sample. The
/// reference for [`random_dot_products`], which draws the same distribution in O(1).
pub fn random_dot_products_by_entries(d: usize, n: usize, seed: u64) -> Result<Vec<f64>> {
    check_sizes(d, n)?;
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

    /// The O(1) draw and the literal Σᵢ xᵢyᵢ have the same distribution: two-sample
    /// Kolmogorov–Smirnov distance below the 0.1% critical value (1.95·√(2/n) ≈ 0.0195
    /// for n = 20 000), same spread and same fourth moment (the tails: E[(x·y)⁴] =
    /// 3d² + 6d for standard normal entries).
    #[test]
    fn exact_draw_matches_the_sum_of_products() {
        let n = 20_000;
        for (k, d) in [1usize, 2, 3, 8, 64, 512].into_iter().enumerate() {
            let mut a = random_dot_products(d, n, 11 + k as u64).unwrap();
            let mut b = random_dot_products_by_entries(d, n, 97 + k as u64).unwrap();
            a.sort_by(f64::total_cmp);
            b.sort_by(f64::total_cmp);
            let (mut i, mut j, mut ks) = (0, 0, 0.0f64);
            while i < n && j < n {
                if a[i] <= b[j] {
                    i += 1;
                } else {
                    j += 1;
                }
                ks = ks.max((i as f64 - j as f64).abs() / n as f64);
            }
            assert!(ks < 0.0195, "d = {d}: KS distance {ks}");
            let df = d as f64;
            for xs in [&a, &b] {
                let m2 = xs.iter().map(|x| x * x).sum::<f64>() / n as f64;
                let m4 = xs.iter().map(|x| x.powi(4)).sum::<f64>() / n as f64;
                assert!((m2 / df - 1.0).abs() < 0.05, "d = {d}: E[x²] = {m2}");
                let want = 3.0 * df * df + 6.0 * df;
                assert!(
                    (m4 / want - 1.0).abs() < 0.25,
                    "d = {d}: E[x⁴] = {m4}, want {want}"
                );
            }
        }
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
