//! Author parameters: a small JSON value type, its parser and printer (the page
//! carries parameters as JSON in `data-params`), and typed getters whose errors name
//! the parameter. Hand-written so the wasm bundle needs no serde.

use std::fmt;

use crate::fmt::Put;

/// A parameter value.
#[derive(Debug, Clone, PartialEq)]
pub enum Value {
    /// `null`
    Null,
    /// `true` / `false`
    Bool(bool),
    /// A number.
    Num(f64),
    /// A string.
    Text(String),
    /// A list.
    List(Vec<Value>),
    /// An object (kept in order).
    Map(Vec<(String, Value)>),
}

/// Why parameters were rejected.
#[derive(Debug, Clone, PartialEq)]
pub struct ParamError {
    /// The parameter (empty for the widget name or the whole set).
    pub param: String,
    /// What is wrong, in words an author understands.
    pub message: String,
    /// The valid parameter names, for "unknown parameter" errors.
    pub valid: Vec<String>,
    /// Where inside the parameter's value the problem is, when the widget knows.
    pub place: Option<Box<Place>>,
}

/// Where inside a parameter's value an error is, for a diagnostic that points at the
/// offending part (a nested key, a column inside an expression).
#[derive(Debug, Clone, PartialEq, Default)]
pub struct Place {
    /// Keys to find one after the other in the options, after the parameter's own key
    /// (`["w", "range"]` for `params: {w: {range: …}}`).
    pub keys: Vec<String>,
    /// The offending text as the author wrote it, found after the last key.
    pub text: Option<String>,
    /// Byte range inside `text` to point at (all of it when `None`).
    pub range: Option<(usize, usize)>,
    /// Label under the caret.
    pub label: String,
    /// What to do.
    pub hint: String,
}

impl ParamError {
    /// An error about parameter `param`.
    pub fn new(param: &str, message: impl Into<String>) -> ParamError {
        ParamError {
            param: param.to_string(),
            message: message.into(),
            valid: Vec::new(),
            place: None,
        }
    }

    /// This error, located at `place`.
    pub fn at(mut self, place: Place) -> ParamError {
        self.place = Some(Box::new(place));
        self
    }

    /// No widget has this name.
    pub fn unknown_widget(name: &str) -> ParamError {
        ParamError {
            param: String::new(),
            message: {
                let mut s = String::new();
                s.s("unknown widget `").p(name).s("`");
                s
            },
            valid: crate::names().iter().map(|s| s.to_string()).collect(),
            place: None,
        }
    }
}

impl ParamError {
    /// The error in words, naming the parameter (what `Display` shows); written without
    /// `core::fmt`, which the wasm bundle otherwise would not need.
    pub fn text(&self) -> String {
        let mut s = String::new();
        if !self.param.is_empty() {
            s.s("parameter `").p(&self.param).s("`: ");
        }
        s.p(&self.message);
        s
    }
}

impl fmt::Display for ParamError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.text())
    }
}

/// A widget's parameters (an object).
#[derive(Debug, Clone, PartialEq, Default)]
pub struct Params {
    entries: Vec<(String, Value)>,
}

impl Params {
    /// Parameters from (name, value) pairs.
    pub fn new(entries: Vec<(String, Value)>) -> Params {
        Params { entries }
    }

    /// Parses a JSON object.
    pub fn from_json(text: &str) -> Result<Params, ParamError> {
        match parse_json(text).map_err(|m| ParamError::new("", m))? {
            Value::Map(entries) => Ok(Params { entries }),
            Value::Null => Ok(Params::default()),
            _ => Err(ParamError::new("", "parameters must be an object")),
        }
    }

    /// Prints as compact JSON.
    pub fn to_json(&self) -> String {
        Value::Map(self.entries.clone()).to_json()
    }

    /// The raw value of `name`.
    pub fn get(&self, name: &str) -> Option<&Value> {
        self.entries.iter().find(|(k, _)| k == name).map(|(_, v)| v)
    }

    /// Rejects any parameter not in `known`.
    pub fn only(&self, known: &[&str]) -> Result<(), ParamError> {
        for (k, _) in &self.entries {
            if !known.contains(&k.as_str()) {
                return Err(ParamError {
                    param: k.clone(),
                    message: {
                        let mut s = String::new();
                        s.s("unknown parameter `").p(k).s("`");
                        s
                    },
                    valid: known.iter().map(|s| s.to_string()).collect(),
                    place: None,
                });
            }
        }
        Ok(())
    }

    /// A number in `[min, max]`, or `default` when absent.
    pub fn num(&self, name: &str, default: f64, min: f64, max: f64) -> Result<f64, ParamError> {
        match self.get(name) {
            None | Some(Value::Null) => Ok(default),
            Some(Value::Num(x)) if x.is_finite() => {
                if *x < min || *x > max {
                    Err(ParamError::new(name, {
                        let mut s = String::new();
                        s.p(fmt_num(*x))
                            .s(" is out of range: must be between ")
                            .p(fmt_num(min))
                            .s(" and ")
                            .p(fmt_num(max));
                        s
                    }))
                } else {
                    Ok(*x)
                }
            }
            Some(v) => Err(ParamError::new(name, {
                let mut s = String::new();
                s.s("expected a number, found ").p(v.describe());
                s
            })),
        }
    }

    /// A whole number in `[min, max]`.
    pub fn int(&self, name: &str, default: i64, min: i64, max: i64) -> Result<i64, ParamError> {
        let x = self.num(name, default as f64, min as f64, max as f64)?;
        if x.fract() != 0.0 {
            return Err(ParamError::new(name, {
                let mut s = String::new();
                s.s("expected a whole number, found ").p(fmt_num(x));
                s
            }));
        }
        Ok(x as i64)
    }

    /// A boolean.
    pub fn bool(&self, name: &str, default: bool) -> Result<bool, ParamError> {
        match self.get(name) {
            None | Some(Value::Null) => Ok(default),
            Some(Value::Bool(b)) => Ok(*b),
            Some(v) => Err(ParamError::new(name, {
                let mut s = String::new();
                s.s("expected true or false, found ").p(v.describe());
                s
            })),
        }
    }

    /// A text.
    pub fn text(&self, name: &str, default: &str) -> Result<String, ParamError> {
        match self.get(name) {
            None | Some(Value::Null) => Ok(default.to_string()),
            Some(Value::Text(s)) => Ok(s.clone()),
            Some(Value::Num(x)) => Ok(fmt_num(*x)),
            Some(v) => Err(ParamError::new(name, {
                let mut s = String::new();
                s.s("expected text, found ").p(v.describe());
                s
            })),
        }
    }

    /// A list of numbers with a length in `[min_len, max_len]`, each in `[min, max]`.
    pub fn nums(
        &self,
        name: &str,
        default: &[f64],
        (min_len, max_len): (usize, usize),
        (min, max): (f64, f64),
    ) -> Result<Vec<f64>, ParamError> {
        let list = match self.get(name) {
            None | Some(Value::Null) => return Ok(default.to_vec()),
            Some(Value::List(items)) => items,
            Some(v) => {
                return Err(ParamError::new(name, {
                    let mut s = String::new();
                    s.s("expected a list of numbers like [1, 2], found ")
                        .p(v.describe());
                    s
                }))
            }
        };
        if list.len() < min_len || list.len() > max_len {
            return Err(ParamError::new(name, {
                let mut s = String::new();
                s.s("expected ")
                    .p(range_text(min_len, max_len))
                    .s(" numbers, found ")
                    .p(list.len());
                s
            }));
        }
        list.iter()
            .enumerate()
            .map(|(i, v)| match v {
                Value::Num(x) if x.is_finite() && *x >= min && *x <= max => Ok(*x),
                Value::Num(x) => Err(ParamError::new(name, {
                    let mut s = String::new();
                    s.s("entry ")
                        .p(i + 1)
                        .s(" is ")
                        .p(fmt_num(*x))
                        .s(", outside ")
                        .p(fmt_num(min))
                        .s("..")
                        .p(fmt_num(max));
                    s
                })),
                other => Err(ParamError::new(name, {
                    let mut s = String::new();
                    s.s("entry ")
                        .p(i + 1)
                        .s(" should be a number, found ")
                        .p(other.describe());
                    s
                })),
            })
            .collect()
    }

    /// A list of texts with a length in `[min_len, max_len]`.
    pub fn texts(
        &self,
        name: &str,
        default: &[&str],
        (min_len, max_len): (usize, usize),
    ) -> Result<Vec<String>, ParamError> {
        let list = match self.get(name) {
            None | Some(Value::Null) => return Ok(default.iter().map(|s| s.to_string()).collect()),
            Some(Value::List(items)) => items,
            Some(v) => {
                return Err(ParamError::new(name, {
                    let mut s = String::new();
                    s.s("expected a list like [a, b], found ").p(v.describe());
                    s
                }))
            }
        };
        if list.len() < min_len || list.len() > max_len {
            return Err(ParamError::new(name, {
                let mut s = String::new();
                s.s("expected ")
                    .p(range_text(min_len, max_len))
                    .s(" items, found ")
                    .p(list.len());
                s
            }));
        }
        list.iter()
            .enumerate()
            .map(|(i, v)| match v {
                Value::Text(s) => Ok(s.clone()),
                Value::Num(x) => Ok(fmt_num(*x)),
                other => Err(ParamError::new(name, {
                    let mut s = String::new();
                    s.s("entry ")
                        .p(i + 1)
                        .s(" should be text, found ")
                        .p(other.describe());
                    s
                })),
            })
            .collect()
    }
}

impl Params {
    /// Labels for the `n` entries of the list parameter `of` (`per`: "score", …): the
    /// list `name` with `min..=max` non-empty texts and exactly `n` of them; `None` when
    /// it is absent.
    pub fn labels_for(
        &self,
        name: &str,
        (n, of, per): (usize, &str, &str),
        (min, max): (usize, usize),
    ) -> Result<Option<Vec<String>>, ParamError> {
        if matches!(self.get(name), None | Some(Value::Null)) {
            return Ok(None);
        }
        let labels = self.texts(name, &[], (min, max))?;
        if labels.len() != n {
            return Err(ParamError::new(name, {
                let mut s = String::new();
                s.s("has ")
                    .p(labels.len())
                    .s(" entries but `")
                    .p(of)
                    .s("` has ")
                    .p(n)
                    .s("; give one label per ")
                    .p(per);
                s
            }));
        }
        if let Some(i) = labels.iter().position(|l| l.trim().is_empty()) {
            return Err(ParamError::new(name, {
                let mut s = String::new();
                s.s("entry ").p(i + 1).s(" is empty");
                s
            }));
        }
        Ok(Some(labels))
    }
}

fn range_text(min: usize, max: usize) -> String {
    if min == max {
        {
            let mut s = String::new();
            s.s("exactly ").p(min);
            s
        }
    } else {
        {
            let mut s = String::new();
            s.p(min).s(" to ").p(max);
            s
        }
    }
}

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
            digits_rev.push(b'0' + crate::fmt::clamp(v - q * 10.0, 0.0, 9.0) as u8);
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
    crate::fmt::trim_zeros(&mut long);
    long
}

impl Value {
    /// "a number", "a list", … for messages.
    pub fn describe(&self) -> &'static str {
        match self {
            Value::Null => "nothing",
            Value::Bool(_) => "true/false",
            Value::Num(_) => "a number",
            Value::Text(_) => "text",
            Value::List(_) => "a list",
            Value::Map(_) => "a map",
        }
    }

    /// Compact JSON.
    pub fn to_json(&self) -> String {
        let mut out = String::new();
        self.write_json(&mut out);
        out
    }

    fn write_json(&self, out: &mut String) {
        match self {
            Value::Null => out.push_str("null"),
            Value::Bool(b) => out.push_str(if *b { "true" } else { "false" }),
            Value::Num(x) => out.push_str(&fmt_num(*x)),
            Value::Text(s) => write_json_string(s, out),
            Value::List(items) => {
                out.push('[');
                for (i, v) in items.iter().enumerate() {
                    if i > 0 {
                        out.push(',');
                    }
                    v.write_json(out);
                }
                out.push(']');
            }
            Value::Map(entries) => {
                out.push('{');
                for (i, (k, v)) in entries.iter().enumerate() {
                    if i > 0 {
                        out.push(',');
                    }
                    write_json_string(k, out);
                    out.push(':');
                    v.write_json(out);
                }
                out.push('}');
            }
        }
    }
}

fn write_json_string(s: &str, out: &mut String) {
    out.push('"');
    for c in s.chars() {
        match c {
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            '\n' => out.push_str("\\n"),
            c if (c as u32) < 0x20 => out.push_str(&format!("\\u{:04x}", c as u32)),
            c => out.push(c),
        }
    }
    out.push('"');
}

/// Parses JSON (objects, arrays, strings with escapes, numbers, true/false/null).
pub fn parse_json(text: &str) -> Result<Value, String> {
    let mut p = JsonParser {
        s: text.as_bytes(),
        i: 0,
    };
    let v = p.value()?;
    p.ws();
    if p.i != p.s.len() {
        return Err({
            let mut s = String::new();
            s.s("unexpected text at byte ").p(p.i);
            s
        });
    }
    Ok(v)
}

struct JsonParser<'a> {
    s: &'a [u8],
    i: usize,
}

impl JsonParser<'_> {
    fn ws(&mut self) {
        while self.i < self.s.len() && matches!(self.s[self.i], b' ' | b'\n' | b'\r' | b'\t') {
            self.i += 1;
        }
    }

    fn peek(&self) -> Option<u8> {
        self.s.get(self.i).copied()
    }

    fn expect(&mut self, c: u8) -> Result<(), String> {
        self.ws();
        if self.peek() == Some(c) {
            self.i += 1;
            Ok(())
        } else {
            Err({
                let mut s = String::new();
                s.s("expected `").p(c as char).s("` at byte ").p(self.i);
                s
            })
        }
    }

    fn value(&mut self) -> Result<Value, String> {
        self.ws();
        match self.peek() {
            Some(b'{') => {
                self.i += 1;
                let mut entries = Vec::new();
                self.ws();
                if self.peek() == Some(b'}') {
                    self.i += 1;
                    return Ok(Value::Map(entries));
                }
                loop {
                    self.ws();
                    let key = self.string()?;
                    self.expect(b':')?;
                    let v = self.value()?;
                    entries.push((key, v));
                    self.ws();
                    match self.peek() {
                        Some(b',') => self.i += 1,
                        Some(b'}') => {
                            self.i += 1;
                            return Ok(Value::Map(entries));
                        }
                        _ => {
                            return Err({
                                let mut s = String::new();
                                s.s("expected `,` or `}` at byte ").p(self.i);
                                s
                            })
                        }
                    }
                }
            }
            Some(b'[') => {
                self.i += 1;
                let mut items = Vec::new();
                self.ws();
                if self.peek() == Some(b']') {
                    self.i += 1;
                    return Ok(Value::List(items));
                }
                loop {
                    items.push(self.value()?);
                    self.ws();
                    match self.peek() {
                        Some(b',') => self.i += 1,
                        Some(b']') => {
                            self.i += 1;
                            return Ok(Value::List(items));
                        }
                        _ => {
                            return Err({
                                let mut s = String::new();
                                s.s("expected `,` or `]` at byte ").p(self.i);
                                s
                            })
                        }
                    }
                }
            }
            Some(b'"') => Ok(Value::Text(self.string()?)),
            Some(b't') if self.s[self.i..].starts_with(b"true") => {
                self.i += 4;
                Ok(Value::Bool(true))
            }
            Some(b'f') if self.s[self.i..].starts_with(b"false") => {
                self.i += 5;
                Ok(Value::Bool(false))
            }
            Some(b'n') if self.s[self.i..].starts_with(b"null") => {
                self.i += 4;
                Ok(Value::Null)
            }
            Some(c) if c == b'-' || c.is_ascii_digit() => {
                let start = self.i;
                while self.i < self.s.len()
                    && matches!(
                        self.s[self.i],
                        b'-' | b'+' | b'.' | b'e' | b'E' | b'0'..=b'9'
                    )
                {
                    self.i += 1;
                }
                let text =
                    std::str::from_utf8(&self.s[start..self.i]).map_err(|_| "invalid UTF-8")?;
                parse_num(text).map(Value::Num).ok_or_else(|| {
                    let mut s = String::new();
                    s.s("bad number `").p(text).s("`");
                    s
                })
            }
            _ => Err({
                let mut s = String::new();
                s.s("unexpected character at byte ").p(self.i);
                s
            }),
        }
    }

    fn string(&mut self) -> Result<String, String> {
        if self.peek() != Some(b'"') {
            return Err({
                let mut s = String::new();
                s.s("expected a string at byte ").p(self.i);
                s
            });
        }
        self.i += 1;
        let mut out = Vec::new();
        while let Some(c) = self.peek() {
            self.i += 1;
            match c {
                b'"' => return String::from_utf8(out).map_err(|_| "invalid UTF-8".into()),
                b'\\' => {
                    let e = self.peek().ok_or("unfinished escape")?;
                    self.i += 1;
                    match e {
                        b'n' => out.push(b'\n'),
                        b't' => out.push(b'\t'),
                        b'r' => out.push(b'\r'),
                        b'b' => out.push(8),
                        b'f' => out.push(12),
                        b'u' => {
                            let hex = self.s.get(self.i..self.i + 4).ok_or("short \\u escape")?;
                            let mut code = 0u32;
                            for &h in hex {
                                let digit = match h {
                                    b'0'..=b'9' => h - b'0',
                                    b'a'..=b'f' => h - b'a' + 10,
                                    b'A'..=b'F' => h - b'A' + 10,
                                    _ => return Err("bad \\u escape".into()),
                                };
                                code = code * 16 + u32::from(digit);
                            }
                            self.i += 4;
                            let ch = char::from_u32(code).unwrap_or('\u{fffd}');
                            let mut buf = [0; 4];
                            out.extend_from_slice(ch.encode_utf8(&mut buf).as_bytes());
                        }
                        other => out.push(other),
                    }
                }
                c => out.push(c),
            }
        }
        Err("unterminated string".into())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn json_round_trip() {
        let text = r#"{"a":[3,1.5],"labels":["the \"cat\"","é"],"t":true,"n":null}"#;
        let p = Params::from_json(text).unwrap();
        assert_eq!(
            p.to_json(),
            r#"{"a":[3,1.5],"labels":["the \"cat\"","é"],"t":true,"n":null}"#
        );
        assert_eq!(
            p.nums("a", &[], (2, 2), (-10.0, 10.0)).unwrap(),
            vec![3.0, 1.5]
        );
        assert_eq!(
            p.texts("labels", &[], (1, 5)).unwrap(),
            vec!["the \"cat\"", "é"]
        );
    }

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
    fn typed_errors_name_the_parameter() {
        let p = Params::from_json(r#"{"t":"hot","a":[1],"x":99}"#).unwrap();
        let e = p.num("t", 1.0, 0.05, 5.0).unwrap_err();
        assert_eq!(
            e.to_string(),
            "parameter `t`: expected a number, found text"
        );
        let e = p.nums("a", &[], (2, 2), (-5.0, 5.0)).unwrap_err();
        assert!(e
            .to_string()
            .contains("expected exactly 2 numbers, found 1"));
        let e = p.num("x", 1.0, 0.0, 10.0).unwrap_err();
        assert!(e.to_string().contains("out of range"));
        let e = p.only(&["t", "a"]).unwrap_err();
        assert_eq!(e.param, "x");
        assert_eq!(e.valid, vec!["t", "a"]);
    }
}
