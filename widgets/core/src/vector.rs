//! Vectors as `f64` slices: dot product, length, cosine similarity, angle,
//! projection, and the words the course uses for angles.

use crate::{ensure_finite_scalar, ensure_nonempty_finite, finite_result, finite_vec};
use crate::{CoreError, Result};
use core::fmt;

/// Checks that `a` and `b` are non-empty, finite and of the same length.
fn check_pair(a: &[f64], b: &[f64]) -> Result<()> {
    if a.len() != b.len() {
        return Err(CoreError::LengthMismatch {
            left: a.len(),
            right: b.len(),
        });
    }
    ensure_nonempty_finite(a, "first vector")?;
    ensure_nonempty_finite(b, "second vector")
}

/// Largest absolute entry, used to rescale before squaring (avoids overflow).
fn max_abs(a: &[f64]) -> f64 {
    a.iter().fold(0.0_f64, |m, v| m.max(v.abs()))
}

/// Dot product a·b = Σᵢ aᵢbᵢ: how much two vectors point the same way,
/// weighted by their lengths.
pub fn dot(a: &[f64], b: &[f64]) -> Result<f64> {
    check_pair(a, b)?;
    finite_result(a.iter().zip(b).map(|(x, y)| x * y).sum())
}

/// The individual products aᵢbᵢ of a dot product, for showing the expansion
/// "1·2 + 2·0 + 2·1" term by term; their sum is [`dot`].
pub fn dot_expansion_terms(a: &[f64], b: &[f64]) -> Result<Vec<f64>> {
    check_pair(a, b)?;
    finite_vec(a.iter().zip(b).map(|(x, y)| x * y).collect())
}

/// Euclidean length ‖a‖ = √(Σᵢ aᵢ²), computed with rescaling so that large
/// entries do not overflow.
pub fn norm(a: &[f64]) -> Result<f64> {
    ensure_nonempty_finite(a, "vector")?;
    Ok(norm_unchecked(a))
}

/// ‖a‖ for an already validated, finite slice.
fn norm_unchecked(a: &[f64]) -> f64 {
    let m = max_abs(a);
    if m == 0.0 {
        return 0.0;
    }
    let s: f64 = a.iter().map(|v| (v / m) * (v / m)).sum();
    m * s.sqrt()
}

/// Unit vector a/‖a‖ (the direction of `a`), or an error for the zero vector.
fn unit(a: &[f64], what: &'static str) -> Result<Vec<f64>> {
    let m = max_abs(a);
    if m == 0.0 {
        return Err(CoreError::ZeroVector { what });
    }
    // Rescale first so that ‖a/m‖ is between 1 and √n: no overflow or underflow.
    let scaled: Vec<f64> = a.iter().map(|v| v / m).collect();
    let n = norm_unchecked(&scaled);
    Ok(scaled.iter().map(|v| v / n).collect())
}

/// Cosine similarity cos θ = a·b / (‖a‖‖b‖), in [−1, 1]: the dot product of
/// the directions, ignoring lengths. Errors if either vector is zero.
pub fn cosine(a: &[f64], b: &[f64]) -> Result<f64> {
    check_pair(a, b)?;
    let ua = unit(a, "first vector")?;
    let ub = unit(b, "second vector")?;
    let c: f64 = ua.iter().zip(&ub).map(|(x, y)| x * y).sum();
    // Not f64::clamp: its `min <= max` assertion formats both floats in its message, which
    // would pull core's float formatting into the widget bundle (it is not inlined there).
    #[allow(clippy::manual_clamp)]
    Ok(if c < -1.0 {
        -1.0
    } else if c > 1.0 {
        1.0
    } else {
        c
    })
}

/// Angle between two vectors in degrees, θ = arccos(cos θ) · 180/π, in [0, 180]
/// ([`crate::trig::acos`], not libm's).
pub fn angle_degrees(a: &[f64], b: &[f64]) -> Result<f64> {
    Ok(crate::trig::acos(cosine(a, b)?).to_degrees())
}

/// Scalar projection of `a` onto `b`, a·b/‖b‖: the signed length of the
/// shadow `a` casts on the line through `b`.
pub fn scalar_projection(a: &[f64], b: &[f64]) -> Result<f64> {
    check_pair(a, b)?;
    let ub = unit(b, "second vector")?;
    finite_result(a.iter().zip(&ub).map(|(x, y)| x * y).sum())
}

/// Vector projection of `a` onto `b`, (a·b/‖b‖²) b: the shadow itself, a
/// vector along `b`. Errors if `b` is zero.
pub fn projection(a: &[f64], b: &[f64]) -> Result<Vec<f64>> {
    check_pair(a, b)?;
    let ub = unit(b, "second vector")?;
    let s: f64 = a.iter().zip(&ub).map(|(x, y)| x * y).sum();
    finite_vec(ub.iter().map(|u| s * u).collect())
}

/// Component-wise sum a + b.
pub fn add(a: &[f64], b: &[f64]) -> Result<Vec<f64>> {
    check_pair(a, b)?;
    finite_vec(a.iter().zip(b).map(|(x, y)| x + y).collect())
}

/// Scalar multiple k·a: stretches (|k| > 1), shrinks (|k| < 1) or flips (k < 0) `a`.
pub fn scale(a: &[f64], k: f64) -> Result<Vec<f64>> {
    ensure_nonempty_finite(a, "vector")?;
    ensure_finite_scalar(k, "scale factor")?;
    finite_vec(a.iter().map(|x| k * x).collect())
}

/// Half-width, in degrees, of the band around 90° called "perpendicular".
pub const PERPENDICULAR_BAND_DEGREES: f64 = 1.0;

/// The course's word for an angle between two vectors.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum AngleWord {
    /// Angle below 89°: the vectors point the same general way (a·b > 0).
    Aligned,
    /// Angle within 1° of 90°: the vectors are (nearly) at right angles (a·b ≈ 0).
    Perpendicular,
    /// Angle above 91°: the vectors point in opposing directions (a·b < 0).
    Opposed,
}

impl AngleWord {
    /// Classifies an angle in degrees: |θ − 90| ≤ 1 (plus 1e-9 tolerance) →
    /// perpendicular, θ < 90 → aligned, θ > 90 → opposed.
    pub fn from_degrees(degrees: f64) -> Result<AngleWord> {
        ensure_finite_scalar(degrees, "angle")?;
        if (degrees - 90.0).abs() <= PERPENDICULAR_BAND_DEGREES + 1e-9 {
            Ok(AngleWord::Perpendicular)
        } else if degrees < 90.0 {
            Ok(AngleWord::Aligned)
        } else {
            Ok(AngleWord::Opposed)
        }
    }

    /// The lowercase word: "aligned", "perpendicular" or "opposed".
    pub fn as_str(self) -> &'static str {
        match self {
            AngleWord::Aligned => "aligned",
            AngleWord::Perpendicular => "perpendicular",
            AngleWord::Opposed => "opposed",
        }
    }
}

impl fmt::Display for AngleWord {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// The word for the angle between `a` and `b` ([`AngleWord::from_degrees`]
/// of [`angle_degrees`]).
pub fn angle_word(a: &[f64], b: &[f64]) -> Result<AngleWord> {
    AngleWord::from_degrees(angle_degrees(a, b)?)
}

#[cfg(test)]
mod tests {
    use super::*;

    const A: [f64; 3] = [1.0, 2.0, 2.0];
    const B: [f64; 3] = [2.0, 0.0, 1.0];

    fn close(x: f64, y: f64, tol: f64) -> bool {
        (x - y).abs() <= tol
    }

    #[test]
    fn hand_checked_worked_example() {
        assert_eq!(dot(&A, &B).unwrap(), 4.0);
        assert_eq!(dot_expansion_terms(&A, &B).unwrap(), vec![2.0, 0.0, 2.0]);
        assert_eq!(norm(&A).unwrap(), 3.0);
        assert!(close(norm(&B).unwrap(), 5f64.sqrt(), 1e-15));
        assert!(close(norm(&B).unwrap(), 2.236, 5e-4));
        let c = cosine(&A, &B).unwrap();
        assert!(close(c, 4.0 / (3.0 * 5f64.sqrt()), 1e-15));
        assert!(close(c, 0.596, 5e-4));
        assert!(close(angle_degrees(&A, &B).unwrap(), 53.4, 0.05));
        assert!(close(norm(&[2.0, 1.0]).unwrap(), 2.24, 5e-3));
        assert_eq!(angle_word(&A, &B).unwrap(), AngleWord::Aligned);
    }

    #[test]
    fn independent_angle_via_law_of_cosines() {
        // ‖a−b‖² = ‖a‖² + ‖b‖² − 2‖a‖‖b‖cos θ, with ‖a−b‖² = 1 + 4 + 1 = 6.
        let cos_theta = (9.0 + 5.0 - 6.0) / (2.0 * 3.0 * 5f64.sqrt());
        assert!(close(cosine(&A, &B).unwrap(), cos_theta, 1e-14));
        let theta = cos_theta.acos() * 180.0 / core::f64::consts::PI;
        assert!(close(angle_degrees(&A, &B).unwrap(), theta, 1e-10));
    }

    #[test]
    fn projections() {
        // a onto b: (4/5)·(2,0,1) = (1.6, 0, 0.8); scalar 4/√5.
        let p = projection(&A, &B).unwrap();
        for (x, y) in p.iter().zip([1.6, 0.0, 0.8]) {
            assert!(close(*x, y, 1e-14));
        }
        assert!(close(
            scalar_projection(&A, &B).unwrap(),
            4.0 / 5f64.sqrt(),
            1e-14
        ));
        assert!(projection(&A, &[0.0, 0.0, 0.0]).is_err());
    }

    #[test]
    fn add_and_scale() {
        assert_eq!(add(&A, &B).unwrap(), vec![3.0, 2.0, 3.0]);
        assert_eq!(scale(&A, -2.0).unwrap(), vec![-2.0, -4.0, -4.0]);
        assert!(scale(&A, f64::NAN).is_err());
    }

    #[test]
    fn errors() {
        assert_eq!(
            dot(&[1.0, 2.0, 3.0], &[1.0, 2.0]).unwrap_err().to_string(),
            "vectors have different lengths (3 and 2)"
        );
        assert!(matches!(
            cosine(&[0.0, 0.0], &[1.0, 0.0]),
            Err(CoreError::ZeroVector { .. })
        ));
        assert!(matches!(dot(&[], &[]), Err(CoreError::Empty { .. })));
        assert!(matches!(
            norm(&[1.0, f64::NAN]),
            Err(CoreError::NonFinite { index: 1, .. })
        ));
        assert!(dot(&[f64::INFINITY], &[1.0]).is_err());
        assert!(matches!(dot(&[1e200], &[1e200]), Err(CoreError::Overflow)));
    }

    #[test]
    fn no_overflow_in_norm_and_cosine() {
        assert!(close(norm(&[3e200, 4e200]).unwrap() / 5e200, 1.0, 1e-15));
        assert!(close(
            cosine(&[1e300, 1e300], &[1e-300, 0.0]).unwrap(),
            0.5f64.sqrt(),
            1e-15
        ));
    }

    #[test]
    fn angle_words() {
        assert_eq!(
            angle_word(&[1.0, 0.0], &[0.0, 1.0]).unwrap(),
            AngleWord::Perpendicular
        );
        assert_eq!(
            angle_word(&[1.0, 0.0], &[-1.0, 0.1]).unwrap(),
            AngleWord::Opposed
        );
        assert_eq!(
            AngleWord::from_degrees(89.0).unwrap(),
            AngleWord::Perpendicular
        );
        assert_eq!(
            AngleWord::from_degrees(91.0).unwrap(),
            AngleWord::Perpendicular
        );
        assert_eq!(AngleWord::from_degrees(88.9).unwrap(), AngleWord::Aligned);
        assert_eq!(AngleWord::from_degrees(91.1).unwrap(), AngleWord::Opposed);
        assert_eq!(AngleWord::Opposed.to_string(), "opposed");
        assert!(AngleWord::from_degrees(f64::NAN).is_err());
    }
}
