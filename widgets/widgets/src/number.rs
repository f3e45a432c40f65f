//! Number text without core's float formatting and parsing: [`fixed`] (`{x:.d$}`),
//! [`shortest`] and [`fmt_num`] (`{x}`), and [`parse_num`] (`str::parse::<f64>`); an
//! assertion-free [`clamp`]. Imports nothing from the crate: `fmt`, `json` and `params`
//! build on it.

/// Shortest text for a number (no trailing `.0`), as `format!("{x}")` prints it.
pub fn fmt_num(x: f64) -> String {
    if x.fract() == 0.0 && x.abs() < 1e15 {
        fixed(x + 0.0, 0) // no `-0`
    } else {
        shortest(x)
    }
}

// ---- Number text without core's float formatting and parsing.
//
// `format!("{x:.2}")`, `format!("{x}")` and `str::parse::<f64>` pull core's flt2dec
// (Grisu + Dragon with bignums) and dec2flt (with a 10 KB table) into the wasm bundle.
// The widgets show short decimals, so exact integer arithmetic on f64 does the same job
// in a fraction of the size. `fixed` equals `format!("{x:.d$}")` exactly (ties to even);
// `shortest` equals `format!("{x}")` except that among equally short candidates of 17
// significant digits it may pick the other neighbour (both read back as `x`).

/// Exact powers of ten 10⁰ … 10²² (every one exactly representable in `f64`).
const POW10: [f64; 23] = [
    1e0, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9, 1e10, 1e11, 1e12, 1e13, 1e14, 1e15, 1e16,
    1e17, 1e18, 1e19, 1e20, 1e21, 1e22,
];

/// `a·b` as `p + e` exactly (Dekker's product with Veltkamp's split).
fn two_product(a: f64, b: f64) -> (f64, f64) {
    fn split(x: f64) -> (f64, f64) {
        let c = 134_217_729.0 * x; // 2^27 + 1
        let hi = c - (c - x);
        (hi, x - hi)
    }
    let p = a * b;
    let (ah, al) = split(a);
    let (bh, bl) = split(b);
    (p, ((ah * bh - p) + ah * bl + al * bh) + al * bl)
}

/// The integer nearest to the exact sum `p + e` (|e| at most half an ulp of `p`, `p` ≥ 0),
/// ties to even, as `u64`.
fn round_exact(p: f64, e: f64) -> u64 {
    let whole = p.floor();
    let frac = p - whole;
    let mut n = whole as u64;
    if frac == 0.0 {
        // p is an integer (always so from 2^52 on): e alone decides.
        let ew = e.floor();
        let ef = e - ew;
        n = (n as i64 + ew as i64) as u64;
        if ef > 0.5 || (ef == 0.5 && n % 2 == 1) {
            n += 1;
        }
        return n;
    }
    if frac > 0.5 || (frac == 0.5 && (e > 0.0 || (e == 0.0 && n % 2 == 1))) {
        n += 1;
    }
    n
}

/// `x` with exactly `decimals` places, like `format!("{x:.decimals$}")` (exact decimal
/// rounding, ties to even, `-` kept on negative values that round to zero) without
/// pulling core's float formatting into the wasm bundle. Exact for |x| < 2^64 and up to
/// 22 places.
pub fn fixed(x: f64, decimals: usize) -> String {
    let mut out = String::new();
    push_fixed(&mut out, x, decimals, true);
    out
}

/// [`fixed`], appended to `out`; with `neg_zero` false, a negative value that rounds to
/// zero is written without its `-` (as every readout wants).
pub fn push_fixed(out: &mut String, x: f64, decimals: usize, neg_zero: bool) {
    if x.is_nan() {
        out.push_str("NaN");
        return;
    }
    let a = x.abs();
    if a.is_infinite() {
        if x < 0.0 {
            out.push('-');
        }
        out.push_str("inf");
        return;
    }
    let d = decimals.min(22);
    let mut int = a.trunc();
    let frac = a - int;
    let (digits, carry) = if d == 0 {
        let up = frac > 0.5 || (frac == 0.5 && int % 2.0 == 1.0);
        (0, up)
    } else {
        let (p, e) = two_product(frac, POW10[d]);
        let n = round_exact(p, e);
        let limit = 10u64.pow(d as u32);
        if n >= limit {
            (n - limit, true)
        } else {
            (n, false)
        }
    };
    if carry {
        int += 1.0;
    }
    if x.is_sign_negative() && (neg_zero || int != 0.0 || digits != 0) {
        out.push('-');
    }
    if int < 18_446_744_073_709_551_616.0 {
        push_u64(out, int as u64);
    } else {
        // Beyond u64: every such f64 is an integer; digits by repeated division (the
        // last few may be inexact; no widget shows numbers this large).
        let mut digits_rev = Vec::new();
        let mut v = int;
        while v >= 1.0 {
            let q = (v / 10.0).floor();
            digits_rev.push(b'0' + clamp(v - q * 10.0, 0.0, 9.0) as u8);
            v = q;
        }
        out.extend(digits_rev.iter().rev().map(|&c| c as char));
    }
    if decimals > 0 {
        out.push('.');
        let mut buf = [b'0'; 22];
        let mut n = digits;
        for i in (0..d).rev() {
            buf[i] = b'0' + (n % 10) as u8;
            n /= 10;
        }
        for &b in &buf[..d] {
            out.push(b as char);
        }
        for _ in d..decimals {
            out.push('0');
        }
    }
}

/// Appends the decimal digits of `n`.
pub(crate) fn push_u64(out: &mut String, mut n: u64) {
    let mut buf = [0u8; 20];
    let mut i = buf.len();
    loop {
        i -= 1;
        buf[i] = b'0' + (n % 10) as u8;
        n /= 10;
        if n == 0 {
            break;
        }
    }
    for &b in &buf[i..] {
        out.push(b as char);
    }
}

/// Parses a decimal number (`-1.5`, `2e-3`, `.5`, `+3`); `None` for anything else.
/// Correctly rounded for up to 15 significant digits with exponents within ±22 (every
/// number a reader or an author types); within an ulp or two beyond.
pub fn parse_num(text: &str) -> Option<f64> {
    let s = text.as_bytes();
    let mut i = 0;
    let neg = s.first() == Some(&b'-');
    if matches!(s.first(), Some(b'-' | b'+')) {
        i = 1;
    }
    let mut mant: u64 = 0;
    let mut exp: i32 = 0;
    let mut seen_digit = false;
    let mut after_point = false;
    while i < s.len() {
        match s[i] {
            c @ b'0'..=b'9' => {
                seen_digit = true;
                if mant < 100_000_000_000_000_000 {
                    mant = mant * 10 + u64::from(c - b'0');
                    exp -= i32::from(after_point);
                } else {
                    exp += i32::from(!after_point); // digits beyond 18 significant ones
                }
            }
            b'.' if !after_point => after_point = true,
            _ => break,
        }
        i += 1;
    }
    if !seen_digit {
        return None;
    }
    if i < s.len() && (s[i] == b'e' || s[i] == b'E') {
        i += 1;
        let negative_exp = s.get(i) == Some(&b'-');
        if matches!(s.get(i), Some(b'-' | b'+')) {
            i += 1;
        }
        let start = i;
        let mut e: i32 = 0;
        while i < s.len() && s[i].is_ascii_digit() {
            e = (e * 10 + i32::from(s[i] - b'0')).min(10_000);
            i += 1;
        }
        if i == start {
            return None;
        }
        exp += if negative_exp { -e } else { e };
    }
    if i != s.len() {
        return None;
    }
    let m = mant as f64;
    let v = if mant == 0 {
        0.0
    } else if mant >> 53 == 0 && exp.unsigned_abs() <= 22 {
        // Both factors exact: one correctly rounded operation.
        if exp < 0 {
            m / POW10[exp.unsigned_abs() as usize]
        } else {
            m * POW10[exp as usize]
        }
    } else {
        m * 10f64.powi(exp)
    };
    Some(if neg { -v } else { v })
}

/// True when `int + n/10^d` (the value `a` rounded to `d` places, `frac·10^d = p + e`
/// exactly) reads back as `a`: it is within half an ulp of `a` (ties to even).
fn reads_back(a: f64, p: f64, e: f64, n: u64, d: usize) -> bool {
    let diff = if p >= 9_007_199_254_740_992.0 {
        (n as i128 - p as i128) as f64
    } else {
        n as f64 - p
    };
    let r = (diff - e).abs();
    let ulp = f64::from_bits(a.to_bits() + 1) - a;
    let half = ulp * 0.5 * POW10[d];
    r < half || (r == half && a.to_bits().is_multiple_of(2))
}

/// Shortest text that reads back as the same number, as `format!("{x}")` prints it
/// (no exponent).
pub fn shortest(x: f64) -> String {
    let a = x.abs();
    if !a.is_finite() || a.fract() == 0.0 {
        return fixed(x, 0);
    }
    let frac = a - a.trunc();
    for (d, &scale) in POW10.iter().enumerate().skip(1) {
        let (p, e) = two_product(frac, scale);
        if reads_back(a, p, e, round_exact(p, e), d) {
            return fixed(x, d);
        }
    }
    let mut long = fixed(x, 22);
    trim_zeros(&mut long);
    long
}

/// `x` limited to `[lo, hi]`, as `f64::clamp` (NaN stays NaN) but without its
/// `lo <= hi` assertion, whose message would pull core's float formatting into the
/// wasm bundle.
pub fn clamp(x: f64, lo: f64, hi: f64) -> f64 {
    if x < lo {
        lo
    } else if x > hi {
        hi
    } else {
        x
    }
}

/// Drops trailing zeros after the decimal point, then the point itself: `0.250` → `0.25`,
/// `1.000` → `1`. The text must contain a point.
pub fn trim_zeros(s: &mut String) {
    while s.ends_with('0') {
        s.pop();
    }
    if s.ends_with('.') {
        s.pop();
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn number_text_matches_core_formatting() {
        let mut seed: u64 = 0x9e37_79b9_7f4a_7c15;
        let mut next = || {
            seed ^= seed << 13;
            seed ^= seed >> 7;
            seed ^= seed << 17;
            seed
        };
        for i in 0..20_000 {
            let r = next();
            let x = match i % 3 {
                0 => (r as f64 / u64::MAX as f64 - 0.5) * 200.0,
                1 => ((r % 2_000_001) as f64 - 1_000_000.0) / 1000.0,
                _ => ((r % 20_001) as f64 - 10_000.0) / 8.0,
            };
            for d in 0..6 {
                assert_eq!(fixed(x, d), format!("{x:.d$}"), "{x:?} to {d} places");
            }
            let short = format!("{x}");
            let significant = short
                .trim_start_matches('-')
                .replace('.', "")
                .trim_start_matches('0')
                .len();
            if significant < 17 {
                assert_eq!(fmt_num(x), short, "{x:?}");
            }
            if significant <= 15 {
                assert_eq!(parse_num(&short), Some(x), "{short}");
            }
        }
        assert_eq!(fixed(0.125, 2), "0.12");
        assert_eq!(fixed(-0.001, 2), "-0.00");
        assert_eq!(fixed(2.5, 0), "2");
        assert_eq!(fmt_num(0.1 + 0.2), "0.30000000000000004");
        assert_eq!(fmt_num(-3.0), "-3");
        for t in ["1.5", "-2", "+3", ".5", "1e3", "2.5e-3", "0.1", "007", "-0"] {
            assert_eq!(parse_num(t), t.parse::<f64>().ok(), "{t}");
        }
        for t in ["", "-", "abc", "1e", "1.2.3", "1,5", " 1"] {
            assert_eq!(parse_num(t), None, "{t:?}");
        }
    }
}
