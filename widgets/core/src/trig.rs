//! Sine and cosine for the widgets' functions, without the platform's `libm`.
//!
//! `f64::sin` on `wasm32-unknown-unknown` links the general argument reduction for any
//! `|x|` up to 1.8e308 (a 5 KB table-driven routine, more than a whole widget). The
//! widgets only evaluate moderate arguments (the 1-D descent's `sin 3x` on its chart),
//! so here the reduction is a three-part Cody–Waite subtraction of k·π/2, exact for
//! |x| < 1.6e6, followed by Taylor polynomials on [−π/4, π/4]. Results agree with the
//! correctly rounded value to within a few units in the last place there (tested
//! against `f64::sin`/`f64::cos` below). Beyond 1.6e6 the reduction first subtracts
//! whole turns of 2π, with an error that grows like |x|·2⁻⁵³ (1e-7 at x = 1e9): still a
//! sine, no longer to the last digit, which nothing on a chart or in a readout shows.

use core::f64::consts::{FRAC_2_PI, PI};

// π/2 split into parts whose products with a whole k < 2^20 are exact: the first
// 33 bits, the next 33 bits, and the rest.
const PIO2_1: f64 = 1.570_796_326_734_125_6;
const PIO2_2: f64 = 6.077_100_506_303_966e-11;
const PIO2_3: f64 = 2.022_266_248_795_950_6e-21;

/// 2π − (2π as f64).
const TWO_PI_LO: f64 = 2.449_293_598_294_706_4e-16;

/// Largest |k| for which the three-part reduction is exact.
const EXACT_K: f64 = 1_048_576.0;

/// sin x.
pub fn sin(x: f64) -> f64 {
    let (quadrant, r) = reduce(x);
    match quadrant {
        0 => sin_poly(r),
        1 => cos_poly(r),
        2 => -sin_poly(r),
        _ => -cos_poly(r),
    }
}

/// cos x.
pub fn cos(x: f64) -> f64 {
    let (quadrant, r) = reduce(x);
    match quadrant {
        0 => cos_poly(r),
        1 => -sin_poly(r),
        2 => -cos_poly(r),
        _ => sin_poly(r),
    }
}

/// arctan x in (−π/2, π/2), without libm (as [`sin`]): `atan x = π/2 − atan(1/x)` for
/// |x| > 1, `atan x = π/6 + atan((√3·x − 1)/(x + √3))` above tan(π/12), then the odd
/// Taylor series on |x| ≤ tan(π/12) ≈ 0.268 (its 18 terms reach below 1e-20). Within a
/// few ulps of `f64::atan` (tested below).
pub fn atan(x: f64) -> f64 {
    const SQRT3: f64 = 1.732_050_807_568_877_2;
    const TAN_PI_12: f64 = 0.267_949_192_431_122_7;
    if x.is_nan() {
        return x;
    }
    let (neg, a) = (x < 0.0, x.abs());
    let (inverted, a) = if a > 1.0 { (true, 1.0 / a) } else { (false, a) };
    let (shifted, a) = if a > TAN_PI_12 {
        (true, (SQRT3 * a - 1.0) / (a + SQRT3))
    } else {
        (false, a)
    };
    let z = a * a;
    let mut term = a;
    let mut sum = 0.0;
    for k in 0..18 {
        sum += term / f64::from(2 * k + 1);
        term *= -z;
    }
    if shifted {
        sum += PI / 6.0;
    }
    if inverted {
        sum = PI / 2.0 - sum;
    }
    if neg {
        -sum
    } else {
        sum
    }
}

/// The angle of the point (x, y) in (−π, π], as `f64::atan2` (without libm).
pub fn atan2(y: f64, x: f64) -> f64 {
    if x.is_nan() || y.is_nan() {
        return f64::NAN;
    }
    if x == 0.0 {
        return if y > 0.0 {
            PI / 2.0
        } else if y < 0.0 {
            -PI / 2.0
        } else if x.is_sign_negative() {
            if y.is_sign_negative() {
                -PI
            } else {
                PI
            }
        } else {
            y
        };
    }
    let base = if x.is_infinite() || y.is_infinite() {
        // Directions only: ±∞ treated as a very large coordinate.
        let (cy, cx) = (clamp_inf(y), clamp_inf(x));
        atan(cy / cx)
    } else {
        atan(y / x)
    };
    if x > 0.0 {
        base
    } else if y.is_sign_negative() {
        base - PI
    } else {
        base + PI
    }
}

fn clamp_inf(v: f64) -> f64 {
    if v == f64::INFINITY {
        f64::MAX
    } else if v == f64::NEG_INFINITY {
        -f64::MAX
    } else {
        v
    }
}

/// arccos x in [0, π], by bisection on [`cos`] (decreasing there): 64 halvings of
/// [0, π] reach the last bit, so the error is that of `cos` divided by sin θ, the
/// conditioning of arccos itself. Not `f64::acos`, which links libm's 0.7 KB routine
/// for one readout (the vectors' angle). NaN outside [−1, 1].
pub fn acos(x: f64) -> f64 {
    if x >= 1.0 {
        return if x == 1.0 { 0.0 } else { f64::NAN };
    }
    if x <= -1.0 {
        return if x == -1.0 { PI } else { f64::NAN };
    }
    if x.is_nan() {
        return x;
    }
    let (mut lo, mut hi) = (0.0, PI);
    for _ in 0..64 {
        let mid = 0.5 * (lo + hi);
        if cos(mid) > x {
            lo = mid;
        } else {
            hi = mid;
        }
    }
    0.5 * (lo + hi)
}

/// x = k·π/2 + r with |r| ≤ π/4 (a hair more after rounding): (k mod 4, r).
fn reduce(x: f64) -> (u8, f64) {
    if !x.is_finite() {
        return (0, f64::NAN);
    }
    let mut x = x;
    if (x * FRAC_2_PI).abs() >= EXACT_K {
        // Not `x % (2π)`: that links a 1 KB integer remainder routine.
        let turns = (x / (2.0 * PI)).trunc();
        x = (x - turns * (2.0 * PI)) - turns * TWO_PI_LO;
    }
    let k = round_half_even(x * FRAC_2_PI);
    let r = ((x - k * PIO2_1) - k * PIO2_2) - k * PIO2_3;
    ((k as i64).rem_euclid(4) as u8, r)
}

/// Round to nearest without `f64::round` (which is also a libm call on some targets).
fn round_half_even(v: f64) -> f64 {
    // Adding and subtracting 1.5·2^52 rounds any |v| < 2^51 to a whole number.
    const SHIFT: f64 = 6_755_399_441_055_744.0;
    (v + SHIFT) - SHIFT
}

/// Taylor series of sin on |r| ≤ π/4 through r^17 (the next term is below 1e-19).
fn sin_poly(r: f64) -> f64 {
    let z = r * r;
    // Coefficients (−1)^n / (2n+1)!, n = 1..=8, in Horner form.
    let p = -1.0 / 6.0
        + z * (1.0 / 120.0
            + z * (-1.0 / 5040.0
                + z * (1.0 / 362_880.0
                    + z * (-1.0 / 39_916_800.0
                        + z * (1.0 / 6_227_020_800.0
                            + z * (-1.0 / 1_307_674_368_000.0
                                + z * (1.0 / 355_687_428_096_000.0)))))));
    r + r * z * p
}

/// Taylor series of cos on |r| ≤ π/4 through r^18 (the next term is below 1e-20).
fn cos_poly(r: f64) -> f64 {
    let z = r * r;
    // Coefficients (−1)^n / (2n)!, n = 2..=9, in Horner form.
    let p = 1.0 / 24.0
        + z * (-1.0 / 720.0
            + z * (1.0 / 40_320.0
                + z * (-1.0 / 3_628_800.0
                    + z * (1.0 / 479_001_600.0
                        + z * (-1.0 / 87_178_291_200.0
                            + z * (1.0 / 20_922_789_888_000.0
                                + z * (-1.0 / 6_402_373_705_728_000.0)))))));
    let half = 0.5 * z;
    let w = 1.0 - half;
    // 1 − z/2 loses the low bits of z/2; add them back before the small terms.
    w + (((1.0 - w) - half) + z * z * p)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn acos_matches_the_platform() {
        for i in 0..=2000 {
            let x = -1.0 + i as f64 / 1000.0;
            let (ours, want) = (acos(x), x.acos());
            // arccos is ill-conditioned near ±1: allow the error of cos (a few ulps of
            // 1) divided by sin θ.
            let tol = 4.0 * f64::EPSILON / want.sin().max(1e-8) + 4.0 * f64::EPSILON;
            assert!(
                (ours - want).abs() <= tol,
                "acos({x}) = {ours}, want {want}"
            );
        }
        assert_eq!(acos(1.0), 0.0);
        assert_eq!(acos(-1.0), PI);
        assert_eq!(acos(0.0), PI / 2.0);
        assert!(acos(1.5).is_nan() && acos(f64::NAN).is_nan());
    }

    #[test]
    fn atan_and_atan2_match_the_platform() {
        for i in -4000..=4000 {
            let x = i as f64 / 97.0;
            for v in [x, x * x * x, 1.0 / x] {
                let (ours, want) = (atan(v), v.atan());
                assert!(ulps(ours, want) <= 4.0, "atan({v}) = {ours}, want {want}");
            }
            for y in [-3.5, -1.0, -0.0, 0.0, 0.25, 2.0] {
                let (ours, want) = (atan2(y, x), f64::atan2(y, x));
                assert!(
                    ulps(ours, want) <= 4.0,
                    "atan2({y}, {x}) = {ours}, want {want}"
                );
            }
        }
        // Hand-checked: atan 1 = π/4, atan2(1, −1) = 3π/4, atan2(−1, −1) = −3π/4.
        assert!(ulps(atan(1.0), PI / 4.0) <= 1.0);
        assert!(ulps(atan2(1.0, -1.0), 3.0 * PI / 4.0) <= 1.0);
        assert!(ulps(atan2(-1.0, -1.0), -3.0 * PI / 4.0) <= 1.0);
        assert_eq!(atan(f64::INFINITY), PI / 2.0);
        assert!(atan(f64::NAN).is_nan() && atan2(f64::NAN, 1.0).is_nan());
    }

    fn ulps(a: f64, b: f64) -> f64 {
        (a - b).abs() / (f64::EPSILON * b.abs().max(f64::MIN_POSITIVE))
    }

    #[test]
    fn hand_checked_values() {
        assert_eq!(sin(0.0), 0.0);
        assert_eq!(cos(0.0), 1.0);
        assert!((sin(PI / 6.0) - 0.5).abs() < 3e-16);
        assert!((cos(PI / 3.0) - 0.5).abs() < 3e-16);
        assert!((sin(PI / 4.0) - core::f64::consts::FRAC_1_SQRT_2).abs() < 3e-16);
        assert!((sin(PI / 2.0) - 1.0).abs() < 3e-16);
        assert!((cos(PI) + 1.0).abs() < 3e-16);
        assert!(sin(PI).abs() < 2e-16);
        assert!(sin(f64::NAN).is_nan() && cos(f64::INFINITY).is_nan());
        // The course function's values: sin 3 and sin 6 (x = 1 and x = 2).
        assert!((sin(3.0) - 0.141_120_008_059_867_2).abs() < 3e-16);
        assert!((sin(6.0) + 0.279_415_498_198_925_9).abs() < 3e-16);
    }

    #[test]
    fn matches_the_platform_to_a_few_ulps_where_exact() {
        // A deterministic sweep over the range the widgets use and far beyond it.
        let mut x = -2000.0;
        while x < 2000.0 {
            for v in [x, x * 1e-3, x * 37.0] {
                let (s, c) = (sin(v), cos(v));
                let (es, ec) = (v.sin(), v.cos());
                // Relative error in ulps where the value is not tiny; absolute near zeros.
                assert!(
                    ulps(s, es) < 4.0 || (s - es).abs() < 4e-16,
                    "sin({v}): {s} vs {es}"
                );
                assert!(
                    ulps(c, ec) < 4.0 || (c - ec).abs() < 4e-16,
                    "cos({v}): {c} vs {ec}"
                );
            }
            x += 0.013_7;
        }
    }

    #[test]
    fn huge_arguments_are_still_a_sine() {
        for v in [2e6, -5e7, 1e9, 3.3e12] {
            let (s, c) = (sin(v), cos(v));
            assert!((s * s + c * c - 1.0).abs() < 1e-12);
            assert!((s - v.sin()).abs() < 1e-15 * v.abs(), "sin({v})");
        }
    }
}
