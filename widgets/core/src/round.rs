//! Rounding and comparison of an author's rounded number with the computed
//! one, as used by the build-time `check` directive.

/// Exact powers of ten 10⁰ … 10²² (all exactly representable in `f64`).
const POW10: [f64; 23] = [
    1e0, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9, 1e10, 1e11, 1e12, 1e13, 1e14, 1e15, 1e16,
    1e17, 1e18, 1e19, 1e20, 1e21, 1e22,
];

/// 10^d as an `f64` (exact up to d = 22, +∞ beyond 10³⁰⁸).
fn pow10(d: u32) -> f64 {
    match POW10.get(d as usize) {
        Some(&p) => p,
        None => 10f64.powi(d.min(400) as i32),
    }
}

/// Absolute slack added to every tolerance (absorbs binary rounding).
pub const ABSOLUTE_SLACK: f64 = 1e-12;

/// Rounds x to `decimals` places, halves away from zero:
/// round(x·10^d) / 10^d (e.g. 0.66524 → 0.665 with d = 3). NaN/∞ are
/// returned unchanged, and so is x when it has no digits that fine.
pub fn round_to(x: f64, decimals: u32) -> f64 {
    if !x.is_finite() {
        return x;
    }
    let factor = pow10(decimals);
    let scaled = x * factor;
    // Beyond 2⁵² every f64 is already an integer: nothing to round.
    if !factor.is_finite() || !scaled.is_finite() || scaled.abs() >= 4_503_599_627_370_496.0 {
        return x;
    }
    let r = scaled.round() / factor;
    if r == 0.0 {
        0.0 // no "-0" in displays
    } else {
        r
    }
}

/// True when an author's `stated` number agrees with `computed` to the
/// precision it was written with, `decimals` places: [`agrees`] with a unit of
/// 10^(−decimals).
pub fn matches_stated(computed: f64, stated: f64, decimals: u32) -> bool {
    let unit = match POW10.get(decimals as usize) {
        Some(&p) => 1.0 / p,
        None => 10f64.powi(-(decimals.min(400) as i32)),
    };
    agrees(computed, stated, unit)
}

/// True when `stated`, written with its last digit worth `unit` (see [`unit_in`]),
/// is `computed` rounded there: |computed − stated| ≤ ½·unit, with a slack of a
/// billionth of that and a few ulps of the numbers (binary rounding), never an
/// absolute slack, so 14 written decimals are compared to 14 decimals.
/// False if either number is NaN or infinite.
pub fn agrees(computed: f64, stated: f64, unit: f64) -> bool {
    if !(computed.is_finite() && stated.is_finite()) {
        return false;
    }
    let half_unit = 0.5 * unit;
    let ulps = 4.0 * f64::EPSILON * computed.abs().max(stated.abs());
    (computed - stated).abs() <= half_unit * (1.0 + 1e-9) + ulps
}

/// The digits after the decimal point and the exponent of the first number
/// written in `text` ("1.50e-3" → (2, −3)).
fn fraction_and_exponent(text: &str) -> (i64, i64) {
    let t = text.trim();
    let start = t
        .find(|c: char| c.is_ascii_digit() || c == '.')
        .unwrap_or(t.len());
    let rest = t.get(start..).unwrap_or("");
    let mut chars = rest.chars().peekable();
    // Integer part.
    while chars.next_if(char::is_ascii_digit).is_some() {}
    // Fractional part.
    let mut frac: i64 = 0;
    if chars.next_if_eq(&'.').is_some() {
        while chars.next_if(char::is_ascii_digit).is_some() {
            frac = frac.saturating_add(1);
        }
    }
    // Optional exponent: e / E, optional sign, at least one digit.
    let mut exponent: i64 = 0;
    if chars.next_if(|c| *c == 'e' || *c == 'E').is_some() {
        let negative = match chars.peek() {
            Some('-') | Some('−') => {
                chars.next();
                true
            }
            Some('+') => {
                chars.next();
                false
            }
            _ => false,
        };
        while let Some(c) = chars.next_if(char::is_ascii_digit) {
            let digit = i64::from(c.to_digit(10).unwrap_or(0));
            exponent = exponent.saturating_mul(10).saturating_add(digit);
        }
        if negative {
            exponent = -exponent;
        }
    }
    (frac, exponent)
}

/// Number of decimal places of a number as written: digits after the decimal
/// point, less the exponent if any ("0.665" → 3, "4" → 0, "-1.50" → 2,
/// "1.5e-3" → 4, "2.5e3" → 0). Surrounding text such as spaces, a sign or a
/// trailing "%" is ignored; only the first number-like part is read.
pub fn decimals_in(text: &str) -> u32 {
    let (frac, exponent) = fraction_and_exponent(text);
    let decimals = frac.saturating_sub(exponent).max(0);
    u32::try_from(decimals).unwrap_or(u32::MAX)
}

/// What the last digit written is worth: "0.665" → 0.001, "4" → 1,
/// "6.02e23" → 1e21, "1.5e-3" → 1e-4. In scientific notation the precision is
/// relative, as the digits say: 6.02e23 means 6.015e23 … 6.025e23.
pub fn unit_in(text: &str) -> f64 {
    let (frac, exponent) = fraction_and_exponent(text);
    let place = exponent.saturating_sub(frac).clamp(-400, 400) as i32;
    match POW10.get(place.unsigned_abs() as usize) {
        Some(&p) if place >= 0 => p,
        Some(&p) => 1.0 / p,
        None => 10f64.powi(place),
    }
}

/// Significant digits written in the mantissa of the first number of `text`
/// ("6.020e23" → 4, "0.0150" → 3).
pub fn significant_digits_in(text: &str) -> usize {
    let t = text.trim();
    let mantissa: String = t
        .chars()
        .skip_while(|c| !(c.is_ascii_digit() || *c == '.'))
        .take_while(|c| c.is_ascii_digit() || *c == '.')
        .filter(char::is_ascii_digit)
        .collect();
    mantissa.trim_start_matches('0').len().max(1)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rounding() {
        assert_eq!(round_to(0.665_240_9, 3), 0.665);
        assert_eq!(round_to(2.5, 0), 3.0);
        assert_eq!(round_to(-2.5, 0), -3.0);
        assert_eq!(round_to(53.395_5, 1), 53.4);
        assert_eq!(round_to(-0.0001, 2).to_bits(), 0.0f64.to_bits());
        assert_eq!(round_to(1e300, 5), 1e300);
        assert_eq!(round_to(1.234_567, 400), 1.234_567);
        assert!(round_to(f64::NAN, 2).is_nan());
        assert!((round_to(1.234_5e-30, 32) - 1.23e-30).abs() < 1e-44);
    }

    #[test]
    fn scientific_notation_is_relative() {
        assert_eq!(unit_in("6.02e23"), 1e21);
        assert_eq!(unit_in("0.665"), 0.001);
        assert_eq!(unit_in("4"), 1.0);
        assert_eq!(unit_in("2.5e3"), 100.0);
        assert!((unit_in("1.5e-3") - 1e-4).abs() < 1e-20);
        // Avogadro's number to three significant digits.
        assert!(agrees(6.022_140_76e23, 6.02e23, unit_in("6.02e23")));
        assert!(!agrees(6.022_140_76e23, 6.03e23, unit_in("6.03e23")));
        assert!(agrees(2_512.0, 2.5e3, unit_in("2.5e3")));
        assert_eq!(significant_digits_in("6.020e23"), 4);
        assert_eq!(significant_digits_in("0.0150"), 3);
    }

    #[test]
    fn stated_values() {
        let cos = 4.0 / (3.0 * 5f64.sqrt());
        assert!(matches_stated(cos, 0.596, 3));
        assert!(!matches_stated(cos, 0.597, 3));
        assert!(matches_stated(cos, 0.6, 1));
        assert!(matches_stated(2.0 * 2f64.sqrt(), 2.828, 3));
        assert!(!matches_stated(2.0 * 2f64.sqrt(), 2.83, 3));
        // Exactly half a unit away is accepted.
        assert!(matches_stated(0.6655, 0.665, 3));
        assert!(matches_stated(0.6645, 0.665, 3));
        assert!(!matches_stated(f64::NAN, 0.5, 1));
        assert!(!matches_stated(0.5, f64::INFINITY, 1));
        // No absolute slack: 14 written decimals are compared to 14 decimals.
        assert!(!matches_stated(
            std::f64::consts::PI,
            3.141_592_653_589_90,
            14
        ));
        let written: f64 = "3.14159265358979".parse().unwrap();
        assert!(matches_stated(std::f64::consts::PI, written, 14));
        assert!(matches_stated(0.1 + 0.2, 0.3, 1));
        assert!(matches_stated(0.1 + 0.2, 0.3, 16));
        assert!(matches_stated(4.0, 4.0, 0));
        assert!(matches_stated(4.4, 4.0, 0));
        assert!(!matches_stated(4.6, 4.0, 0));
    }

    #[test]
    fn counting_decimals() {
        assert_eq!(decimals_in("0.665"), 3);
        assert_eq!(decimals_in("4"), 0);
        assert_eq!(decimals_in("-1.50"), 2);
        assert_eq!(decimals_in("  +2.30 "), 2);
        assert_eq!(decimals_in("−0.25"), 2);
        assert_eq!(decimals_in(".5"), 1);
        assert_eq!(decimals_in("5."), 0);
        assert_eq!(decimals_in("12.5%"), 1);
        assert_eq!(decimals_in("1.5e-3"), 4);
        assert_eq!(decimals_in("1.5E+3"), 0);
        assert_eq!(decimals_in("3e-2"), 2);
        assert_eq!(decimals_in(""), 0);
        assert_eq!(decimals_in("abc"), 0);
        assert_eq!(decimals_in("1e-99999999999999999999999"), u32::MAX);
    }
}
