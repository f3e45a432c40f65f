//! Number text without core's float formatting and parsing: [`fixed`] (`{x:.d$}`),
//! [`fmt_num`] (shortest text that reads back), and [`parse_num`] (`str::parse::<f64>`),
//! all exact at every size; an assertion-free [`clamp`]. Imports nothing from the crate: `fmt`, `json` and `params`
//! build on it.

/// Shortest text that reads back as the same number (no trailing `.0`): plain digits
/// from 1e-7 up to 1e21 (`0.1`, `-3`, `18446744073709552000`), an exponent beyond
/// (`1e-300`, `1.5e300`), as JavaScript's `String(x)`; `NaN`, `inf`, `-inf` otherwise.
/// Used in messages and in the JSON of `data-params`, which [`parse_num`] reads back
/// exactly.
pub fn fmt_num(x: f64) -> String {
    let a = x.abs();
    if !a.is_finite() {
        return fixed(x, 0);
    }
    if a == 0.0 {
        return "0".into();
    }
    if a.fract() == 0.0 && a < 1e15 {
        return fixed(x + 0.0, 0); // no `-0`
    }
    let (digits, point) = shortest_digits(a);
    let mut out = String::new();
    if x < 0.0 {
        out.push('-');
    }
    if (1e-7..1e21).contains(&a) {
        push_plain(&mut out, &digits, point);
    } else {
        // d.ddd e N: the value is 0.D × 10^point = D₀.D₁… × 10^(point − 1).
        let (first, rest) = digits.split_first().unwrap_or((&0, &[]));
        out.push(char::from(b'0' + first));
        if !rest.is_empty() {
            out.push('.');
            out.extend(rest.iter().map(|&d| char::from(b'0' + d)));
        }
        out.push('e');
        let e = i64::from(point) - 1;
        if e < 0 {
            out.push('-');
        }
        push_u64(&mut out, e.unsigned_abs());
    }
    out
}

/// `0.D × 10^point` written without an exponent.
fn push_plain(out: &mut String, digits: &[u8], point: i32) {
    let digit = |i: i32| {
        usize::try_from(i)
            .ok()
            .and_then(|i| digits.get(i))
            .map_or('0', |&d| char::from(b'0' + d))
    };
    if point <= 0 {
        out.push_str("0.");
        for _ in point..0 {
            out.push('0');
        }
        out.extend(digits.iter().map(|&d| char::from(b'0' + d)));
        return;
    }
    for i in 0..point {
        out.push(digit(i));
    }
    let after = digits.get(point as usize..).unwrap_or(&[]);
    if !after.is_empty() {
        out.push('.');
        out.extend(after.iter().map(|&d| char::from(b'0' + d)));
    }
}

// ---- Exact decimal value of a double, by a small bignum (base 10⁹ limbs): what
// `fixed` needs beyond 2^64 (`2^70` = 1180591620717411303424 exactly, not the
// 1180591620717406000000 of a float loop), and what `fmt_num` and `parse_num` compare
// against to be exact at any size. A few hundred bytes of code instead of core's
// flt2dec/dec2flt.

/// |v| = 0.D × 10^point, D without leading or trailing zeros (empty for 0).
type Decimal = (Vec<u8>, i32);

/// Multiplies the little-endian base-10⁹ number `limbs` by `k` (< 2^32).
fn mul_small(limbs: &mut Vec<u64>, k: u64) {
    let mut carry = 0u64;
    for l in limbs.iter_mut() {
        let v = *l * k + carry;
        *l = v % 1_000_000_000;
        carry = v / 1_000_000_000;
    }
    while carry > 0 {
        limbs.push(carry % 1_000_000_000);
        carry /= 1_000_000_000;
    }
}

/// The exact decimal value of m·2^e.
fn exact(m: u64, e: i32) -> Decimal {
    if m == 0 {
        return (Vec::new(), 0);
    }
    let mut limbs = vec![
        m % 1_000_000_000,
        (m / 1_000_000_000) % 1_000_000_000,
        m / 1_000_000_000_000_000_000,
    ];
    // m·2^e = m·5^(−e) / 10^(−e) when e < 0.
    let (factor, chunk, chunk_k) = if e >= 0 {
        (2u64, 1u64 << 29, 29)
    } else {
        (5, 1_220_703_125, 13)
    };
    let mut k = e.unsigned_abs();
    while k >= chunk_k {
        mul_small(&mut limbs, chunk);
        k -= chunk_k;
    }
    mul_small(&mut limbs, factor.pow(k));
    while limbs.last() == Some(&0) {
        limbs.pop();
    }
    let mut digits = Vec::new();
    for (i, l) in limbs.iter().rev().enumerate() {
        let mut buf = [0u8; 9];
        let mut v = *l;
        for b in buf.iter_mut().rev() {
            *b = (v % 10) as u8;
            v /= 10;
        }
        // The leading limb without its leading zeros.
        let first = if i == 0 {
            buf.iter().position(|&d| d != 0).unwrap_or(8)
        } else {
            0
        };
        digits.extend(buf.iter().skip(first));
    }
    let len = digits.len() as i32;
    while digits.last() == Some(&0) {
        digits.pop();
    }
    (digits, if e >= 0 { len } else { len + e })
}

/// (m, e) with |x| = m·2^e (finite x).
fn parts(x: f64) -> (u64, i32) {
    let bits = x.abs().to_bits();
    let exp = (bits >> 52) as i32;
    let frac = bits & ((1 << 52) - 1);
    if exp == 0 {
        (frac, -1074)
    } else {
        (frac | (1 << 52), exp - 1075)
    }
}

/// Compares two decimals.
fn cmp_dec(a: &Decimal, b: &Decimal) -> core::cmp::Ordering {
    use core::cmp::Ordering;
    match (a.0.is_empty(), b.0.is_empty()) {
        (true, true) => return Ordering::Equal,
        (true, false) => return Ordering::Less,
        (false, true) => return Ordering::Greater,
        _ => {}
    }
    a.1.cmp(&b.1).then_with(|| {
        let n = a.0.len().max(b.0.len());
        for i in 0..n {
            let (x, y) = (
                a.0.get(i).copied().unwrap_or(0),
                b.0.get(i).copied().unwrap_or(0),
            );
            if x != y {
                return x.cmp(&y);
            }
        }
        Ordering::Equal
    })
}

/// `d` rounded to its first `keep` digits (ties to even); `keep` may be 0 or less.
fn round_dec(d: &Decimal, keep: i32) -> Decimal {
    let (digits, point) = d;
    if keep < 0 || digits.is_empty() {
        return (Vec::new(), 0);
    }
    let (kept, rest) = digits.split_at(digits.len().min(keep as usize));
    let Some(&next) = rest.first() else {
        return d.clone();
    };
    let mut kept = kept.to_vec();
    // Trailing zeros are stripped, so the rest is exactly one half when it is `5`.
    let up = next > 5 || (next == 5 && (rest.len() > 1 || kept.last().is_some_and(|d| d % 2 == 1)));
    let mut point = *point;
    if up {
        // Add one at the last kept digit: trailing 9s become (dropped) zeros.
        while kept.last() == Some(&9) {
            kept.pop();
        }
        match kept.last_mut() {
            Some(d) => *d += 1,
            None => {
                // 99…9 rounded up to 1 followed by zeros.
                kept.push(1);
                point += 1;
            }
        }
    }
    while kept.last() == Some(&0) {
        kept.pop();
    }
    (kept, point)
}

/// The two midpoints between |x| (finite, m·2^e) and its neighbours.
fn midpoints(m: u64, e: i32) -> (Decimal, Decimal) {
    // Below a power of two (not the smallest exponent) the lower neighbour is half as far.
    let low = if m == 1 << 52 && e > -1074 {
        exact(4 * m - 1, e - 2)
    } else {
        exact(2 * m - 1, e - 1)
    };
    (low, exact(2 * m + 1, e - 1))
}

/// Shortest digits that read back as `a` (> 0, finite): 0.D × 10^point.
fn shortest_digits(a: f64) -> Decimal {
    let (m, e) = parts(a);
    let value = exact(m, e);
    let (low, high) = midpoints(m, e);
    let even = m % 2 == 0;
    for p in 1..=17 {
        let c = round_dec(&value, p);
        let above_low = match cmp_dec(&c, &low) {
            core::cmp::Ordering::Greater => true,
            core::cmp::Ordering::Equal => even,
            core::cmp::Ordering::Less => false,
        };
        let below_high = match cmp_dec(&c, &high) {
            core::cmp::Ordering::Less => true,
            core::cmp::Ordering::Equal => even,
            core::cmp::Ordering::Greater => false,
        };
        if above_low && below_high {
            return c;
        }
    }
    round_dec(&value, 17)
}

/// `a` (≥ 0, finite) with `decimals` places from its exact value, digits only.
fn push_fixed_exact(out: &mut String, a: f64, decimals: usize) -> bool {
    let (m, e) = parts(a);
    let value = exact(m, e);
    let (digits, point) = round_dec(&value, value.1 + decimals as i32);
    let nonzero = !digits.is_empty();
    if point <= 0 || digits.is_empty() {
        out.push('0');
    } else {
        for i in 0..point as usize {
            out.push(char::from(b'0' + digits.get(i).copied().unwrap_or(0)));
        }
    }
    if decimals > 0 {
        out.push('.');
        for k in 0..decimals as i32 {
            let i = point + k; // index into digits of the k-th decimal
            let d = usize::try_from(i)
                .ok()
                .filter(|_| !digits.is_empty())
                .and_then(|i| digits.get(i))
                .copied()
                .unwrap_or(0);
            out.push(char::from(b'0' + d));
        }
    }
    nonzero
}

// ---- Number text without core's float formatting and parsing.
//
// `format!("{x:.2}")`, `format!("{x}")` and `str::parse::<f64>` pull core's flt2dec
// (Grisu + Dragon with bignums) and dec2flt (with a 10 KB table) into the wasm bundle.
// The widgets show short decimals, so exact integer arithmetic on f64 does the same job
// in a fraction of the size. `fixed` equals `format!("{x:.d$}")` exactly (ties to even);
// `fmt_num` has as few significant digits as `format!("{x:e}")` and reads back as `x`.

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
/// pulling core's float formatting into the wasm bundle: the exact digits of the double
/// at every size (fast integer arithmetic below 2^64 and up to 22 places, the bignum
/// beyond).
pub fn fixed(x: f64, decimals: usize) -> String {
    let mut out = String::new();
    push_fixed(&mut out, x, decimals, true, "-");
    out
}

/// [`fixed`], appended to `out`, with `minus` as the sign of a negative value (`-`, or
/// the reader's `−`); with `neg_zero` false, a negative value that rounds to zero is
/// written without its sign (as every readout wants).
pub fn push_fixed(out: &mut String, x: f64, decimals: usize, neg_zero: bool, minus: &str) {
    if x.is_nan() {
        out.push_str("NaN");
        return;
    }
    let a = x.abs();
    if a.is_infinite() {
        if x < 0.0 {
            out.push_str(minus);
        }
        out.push_str("inf");
        return;
    }
    if a >= 18_446_744_073_709_551_616.0 || decimals > 22 {
        let mut digits = String::new();
        let nonzero = push_fixed_exact(&mut digits, a, decimals);
        if x.is_sign_negative() && (neg_zero || nonzero) {
            out.push_str(minus);
        }
        out.push_str(&digits);
        return;
    }
    let d = decimals;
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
        out.push_str(minus);
    }
    push_u64(out, int as u64);
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
    }
}

/// Appends the decimal digits of `n`.
pub(crate) fn push_u64(out: &mut String, n: u64) {
    if n >= 10 {
        push_u64(out, n / 10);
    }
    out.push(char::from(b'0' + (n % 10) as u8));
}

/// Parses a decimal number (`-1.5`, `2e-3`, `.5`, `+3`); `None` for anything else.
/// Correctly rounded at every length and size (ties to even, as `str::parse::<f64>`):
/// one exact operation for up to 15 significant digits with exponents within ±22
/// (every number a reader types), otherwise an estimate corrected against the exact
/// midpoints between doubles (so `data-params` reads back the very numbers the build
/// used).
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
    // Every significant digit, for the exact check: 0.D × 10^(point + exponent).
    let mut all: Vec<u8> = Vec::new();
    let mut point: i32 = 0;
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
                if all.is_empty() && c == b'0' {
                    point -= i32::from(after_point);
                } else {
                    all.push(c - b'0');
                    point += i32::from(!after_point);
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
        let e = if negative_exp { -e } else { e };
        exp += e;
        point += e;
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
    } else if point > 400 {
        f64::INFINITY
    } else if point < -400 {
        0.0
    } else {
        // An estimate within a few ulps (halves keep 10^exp from over- or underflowing),
        // then corrected exactly.
        let half = exp / 2;
        let estimate = m * 10f64.powi(half) * 10f64.powi(exp - half);
        while all.last() == Some(&0) {
            all.pop();
        }
        correct(estimate, &(all, point))
    };
    Some(if neg { -v } else { v })
}

/// The double nearest to `target` (> 0), starting from `v` a few ulps away (ties to
/// even).
fn correct(v: f64, target: &Decimal) -> f64 {
    use core::cmp::Ordering;
    let mut v = if v.is_finite() { v.abs() } else { f64::MAX };
    for _ in 0..64 {
        let (m, e) = parts(v);
        if m == 0 {
            // Between 0 and the smallest double: its midpoint decides (a tie goes to 0).
            if cmp_dec(target, &exact(1, -1075)) == Ordering::Greater {
                v = f64::from_bits(1);
                continue;
            }
            return 0.0;
        }
        let (low, high) = midpoints(m, e);
        let up = match cmp_dec(target, &high) {
            Ordering::Greater => true,
            Ordering::Equal => m % 2 == 1,
            Ordering::Less => false,
        };
        if up {
            if v == f64::MAX {
                return f64::INFINITY;
            }
            v = f64::from_bits(v.to_bits() + 1);
            if cmp_dec(target, &high) == Ordering::Equal {
                return v;
            }
            continue;
        }
        let down = match cmp_dec(target, &low) {
            Ordering::Less => true,
            Ordering::Equal => m % 2 == 1,
            Ordering::Greater => false,
        };
        if down {
            v = f64::from_bits(v.to_bits() - 1);
            if cmp_dec(target, &low) == Ordering::Equal {
                return v;
            }
            continue;
        }
        return v;
    }
    v
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

    #[test]
    fn exact_digits_at_every_size() {
        // Independent reference: core's exact formatting and parsing (not in the bundle).
        let hard = [
            18_446_744_073_709_551_616.0,    // 2^64
            1_180_591_620_717_411_303_424.0, // 2^70
            1e300,
            f64::MAX,
            1e-300,
            5e-324,
            2.225_073_858_507_201e-308,
            0.1,
            123_456_789.012_345_67,
            1e21,
            9_007_199_254_740_993.0,
            -2.5e-8,
            -7.0e22,
        ];
        for &x in &hard {
            for d in [0, 2, 3, 12, 30] {
                assert_eq!(fixed(x, d), format!("{x:.d$}"), "{x:e} to {d} places");
            }
            let text = fmt_num(x);
            assert_eq!(parse_num(&text), Some(x), "{x:e} printed {text}");
            assert_eq!(text.parse::<f64>(), Ok(x), "{text} reads back");
            // Shortest: as many significant digits as core's shortest form.
            let core_short = format!("{x:e}");
            let sig = |t: &str| {
                t.split('e')
                    .next()
                    .unwrap_or("")
                    .trim_start_matches('-')
                    .replace('.', "")
                    .trim_start_matches('0')
                    .trim_end_matches('0')
                    .len()
            };
            assert_eq!(sig(&text), sig(&core_short), "{text} vs {core_short}");
        }
        assert_eq!(
            fixed(18_446_744_073_709_551_616.0, 0),
            "18446744073709551616"
        );
        assert_eq!(
            fixed(1_180_591_620_717_411_303_424.0, 2),
            "1180591620717411303424.00"
        );
        assert_eq!(fmt_num(1e300), "1e300");
        assert_eq!(fmt_num(1e-300), "1e-300");
        assert_eq!(fmt_num(-1.5e-12), "-1.5e-12");
        assert_eq!(fmt_num(1e-12), "1e-12");
        assert_eq!(fmt_num(2.5e21), "2.5e21");
        // Long and extreme texts parse exactly, as core's parser does.
        let mut seed: u64 = 0x2545_f491_4f6c_dd1d;
        for _ in 0..3000 {
            seed ^= seed << 13;
            seed ^= seed >> 7;
            seed ^= seed << 17;
            let x = f64::from_bits(seed >> 1);
            if !x.is_finite() {
                continue;
            }
            let long = format!("{x:e}");
            assert_eq!(parse_num(&long), Some(x), "{long}");
            let text = fmt_num(x);
            assert_eq!(parse_num(&text), Some(x), "{text}");
            for t in [format!("{x:.20e}"), format!("{:e}", x * 1.000_000_1)] {
                assert_eq!(parse_num(&t), t.parse::<f64>().ok(), "{t}");
            }
        }
        for t in [
            "1e400",
            "1e-400",
            "2.4703282292062328e-324",
            "2.4703282292062327e-324",
            "1.7976931348623158e308",
            "1.7976931348623159e308",
            "0.000000000000000000000000000001",
        ] {
            assert_eq!(parse_num(t), t.parse::<f64>().ok(), "{t}");
        }
        for t in ["", "-", "abc", "1e", "1.2.3", "1,5", " 1"] {
            assert_eq!(parse_num(t), None, "{t:?}");
        }
    }
}
