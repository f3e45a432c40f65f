//! A tiny seeded pseudo-random generator (xoshiro256**, seeded with
//! SplitMix64). Only integer operations, IEEE-exact arithmetic and `sqrt` are
//! used, so the same seed gives the same numbers on every platform
//! (native and wasm32) — including `normal()`, which uses its own logarithm.

use core::f64::consts::LN_2;

/// One SplitMix64 step: advances `state` and returns a well-mixed 64-bit value.
fn splitmix64(state: &mut u64) -> u64 {
    *state = state.wrapping_add(0x9E37_79B9_7F4A_7C15);
    let mut z = *state;
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
}

/// Natural logarithm of a positive finite `x` using only exact IEEE operations
/// (bit manipulation, +, −, ×, ÷), so results are identical on every platform.
///
/// x = 2^k·m with m ∈ [√½, √2); ln m = 2·atanh(s) = 2(s + s³/3 + s⁵/5 + …)
/// with s = (m−1)/(m+1), |s| ≤ 0.172, so 12 terms reach full precision.
pub(crate) fn portable_ln(x: f64) -> f64 {
    if x.is_nan() || x < 0.0 {
        return f64::NAN;
    }
    if x == 0.0 {
        return f64::NEG_INFINITY;
    }
    if x.is_infinite() {
        return f64::INFINITY;
    }
    let mut x = x;
    let mut k: i64 = 0;
    if x < f64::MIN_POSITIVE {
        // Subnormal: scale into the normal range first (2^54 is exact).
        x *= 18_014_398_509_481_984.0;
        k -= 54;
    }
    let bits = x.to_bits();
    k += ((bits >> 52) & 0x7ff) as i64 - 1023;
    let mut m = f64::from_bits((bits & 0x000F_FFFF_FFFF_FFFF) | 0x3FF0_0000_0000_0000);
    if m > core::f64::consts::SQRT_2 {
        m *= 0.5;
        k += 1;
    }
    let s = (m - 1.0) / (m + 1.0);
    let s2 = s * s;
    // Horner form of 1 + s²/3 + s⁴/5 + … + s²²/23.
    let mut series = 0.0;
    let mut denom = 23.0;
    while denom >= 1.0 {
        series = series * s2 + 1.0 / denom;
        denom -= 2.0;
    }
    k as f64 * LN_2 + 2.0 * s * series
}

/// Seeded pseudo-random number generator (xoshiro256**); deterministic, not
/// cryptographic. Clone it to replay a sequence.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Rng {
    s: [u64; 4],
    /// Second normal from the last polar Box–Muller draw, stored as bits.
    spare_normal: Option<u64>,
}

impl Rng {
    /// Creates a generator from a seed; the 256-bit state is filled by
    /// SplitMix64 so that every seed (even 0) gives a good, distinct stream.
    pub fn new(seed: u64) -> Rng {
        let mut sm = seed;
        let s = [
            splitmix64(&mut sm),
            splitmix64(&mut sm),
            splitmix64(&mut sm),
            splitmix64(&mut sm),
        ];
        Rng {
            s,
            spare_normal: None,
        }
    }

    /// Next 64 random bits (xoshiro256**: result = rotl(s₁·5, 7)·9).
    pub fn next_u64(&mut self) -> u64 {
        let [s0, s1, s2, s3] = self.s;
        let result = s1.wrapping_mul(5).rotate_left(7).wrapping_mul(9);
        let t = s1 << 17;
        let mut n = [s0, s1, s2 ^ s0, s3 ^ s1];
        n[1] ^= n[2];
        n[0] ^= n[3];
        n[2] ^= t;
        n[3] = n[3].rotate_left(45);
        self.s = n;
        result
    }

    /// Uniform number in [0, 1): the top 53 bits scaled by 2⁻⁵³ (exact).
    pub fn next_f64(&mut self) -> f64 {
        (self.next_u64() >> 11) as f64 * (1.0 / 9_007_199_254_740_992.0)
    }

    /// Standard normal sample (mean 0, variance 1) by the polar form of the
    /// Box–Muller transform: pick (u, v) uniform in the unit disc, s = u² + v²,
    /// then u·√(−2 ln s / s) and v·√(−2 ln s / s) are independent normals
    /// (the second is kept for the next call).
    pub fn normal(&mut self) -> f64 {
        if let Some(bits) = self.spare_normal.take() {
            return f64::from_bits(bits);
        }
        loop {
            let u = 2.0 * self.next_f64() - 1.0;
            let v = 2.0 * self.next_f64() - 1.0;
            let s = u * u + v * v;
            if s > 0.0 && s < 1.0 {
                let factor = (-2.0 * portable_ln(s) / s).sqrt();
                self.spare_normal = Some((v * factor).to_bits());
                return u * factor;
            }
        }
    }

    /// Samples index i with probability wᵢ / Σw (categorical distribution),
    /// e.g. drawing a token from softmax probabilities. Weights need not sum
    /// to 1; returns `None` (drawing nothing) if they are empty, contain a
    /// negative/NaN/∞ value, or sum to 0. Zero-weight indices are never chosen.
    pub fn sample_index(&mut self, weights: &[f64]) -> Option<usize> {
        if weights.iter().any(|w| !(w.is_finite() && *w >= 0.0)) {
            return None;
        }
        let total: f64 = weights.iter().sum();
        if !(total.is_finite() && total > 0.0) {
            return None;
        }
        let target = self.next_f64() * total;
        let mut cumulative = 0.0;
        for (i, &w) in weights.iter().enumerate() {
            cumulative += w;
            if target < cumulative {
                return Some(i);
            }
        }
        // Rounding left the target just above the running sum: take the last
        // index with positive weight.
        weights.iter().rposition(|&w| w > 0.0)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reference_values_are_stable() {
        // SplitMix64 reference: seed 0 gives 0xE220A8397B1DCDAF first.
        let mut sm = 0u64;
        assert_eq!(splitmix64(&mut sm), 0xE220_A839_7B1D_CDAF);
        // Same seed, same stream; different seeds, different streams.
        let mut a = Rng::new(42);
        let mut b = Rng::new(42);
        let mut c = Rng::new(43);
        let xa: Vec<u64> = (0..5).map(|_| a.next_u64()).collect();
        let xb: Vec<u64> = (0..5).map(|_| b.next_u64()).collect();
        let xc: Vec<u64> = (0..5).map(|_| c.next_u64()).collect();
        assert_eq!(xa, xb);
        assert_ne!(xa, xc);
    }

    #[test]
    fn xoshiro_reference_step() {
        // xoshiro256** from state (1, 2, 3, 4): first output rotl(2·5, 7)·9 = 11520,
        // and the documented next state.
        let mut r = Rng {
            s: [1, 2, 3, 4],
            spare_normal: None,
        };
        assert_eq!(r.next_u64(), 11520);
        assert_eq!(r.s, [7, 0, 262_146, 211_106_232_532_992]);
    }

    #[test]
    fn uniform_range_and_mean() {
        let mut r = Rng::new(7);
        let xs: Vec<f64> = (0..100_000).map(|_| r.next_f64()).collect();
        assert!(xs.iter().all(|x| (0.0..1.0).contains(x)));
        let m = xs.iter().sum::<f64>() / xs.len() as f64;
        assert!((m - 0.5).abs() < 0.01);
    }

    #[test]
    fn portable_ln_matches_std() {
        let mut r = Rng::new(1);
        for _ in 0..20_000 {
            let x = r.next_f64() + f64::EPSILON;
            let got = portable_ln(x);
            let want = x.ln();
            assert!((got - want).abs() <= 4.0 * f64::EPSILON * want.abs().max(1.0));
        }
        for x in [1.0, 2.0, 0.5, 1e-300, 5e-324, 1e300, core::f64::consts::E] {
            let want = x.ln();
            assert!((portable_ln(x) - want).abs() <= 4.0 * f64::EPSILON * want.abs().max(1.0));
        }
        assert_eq!(portable_ln(1.0), 0.0);
        assert!(portable_ln(-1.0).is_nan());
        assert_eq!(portable_ln(0.0), f64::NEG_INFINITY);
    }

    #[test]
    fn normal_moments() {
        let mut r = Rng::new(2024);
        let n = 100_000;
        let xs: Vec<f64> = (0..n).map(|_| r.normal()).collect();
        let m = xs.iter().sum::<f64>() / n as f64;
        let v = xs.iter().map(|x| (x - m) * (x - m)).sum::<f64>() / n as f64;
        assert!(m.abs() < 0.02, "mean {m}");
        assert!((v - 1.0).abs() < 0.02, "variance {v}");
        let within_1 = xs.iter().filter(|x| x.abs() < 1.0).count() as f64 / n as f64;
        assert!((within_1 - 0.6827).abs() < 0.01);
    }

    #[test]
    fn sampling_follows_weights() {
        let mut r = Rng::new(99);
        let w = [0.665, 0.245, 0.090];
        let mut counts = [0usize; 3];
        for _ in 0..50_000 {
            counts[r.sample_index(&w).unwrap()] += 1;
        }
        for (c, p) in counts.iter().zip(w) {
            assert!((*c as f64 / 50_000.0 - p).abs() < 0.01);
        }
        for _ in 0..1000 {
            assert_eq!(r.sample_index(&[0.0, 3.0, 0.0]), Some(1));
        }
        assert_eq!(r.sample_index(&[]), None);
        assert_eq!(r.sample_index(&[0.0, 0.0]), None);
        assert_eq!(r.sample_index(&[1.0, -0.5]), None);
        assert_eq!(r.sample_index(&[1.0, f64::NAN]), None);
        assert_eq!(r.sample_index(&[f64::MAX, f64::MAX]), None);
    }
}
