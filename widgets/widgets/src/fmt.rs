//! A tiny markup writer: pushes text pieces and numbers straight into a `String`.
//!
//! Render code writes markup with two macros, one piece after another:
//!
//! ```text
//! put!(out; "<rect x=\"" c(x) "\" y=\"" c(y) "\"><title>" e(label) "</title></rect>");
//! let title = text!("step " p(t) " of " p(n));
//! ```
//!
//! A string literal is written as is; `name(args)` is the [`Put`] method of that name
//! (`e` escaped text, `p` text or a whole number, `c` a coordinate, `n`/`m` a number
//! with decimals, `g` shortest, `u`/`i` integers). They expand to the same pushes as
//! `out.s("<rect x=\"").c(x)…`: no `core::fmt` machinery, no temporary `String` per
//! number, no float formatting from core (see `number::fixed`), so the wasm bundle stays
//! small, and the markup reads as markup, one piece per line when it is long.

use crate::number::{fmt_num, parse_num, push_fixed, push_u64};
// Number helpers every widget imports from here, with `Put`.
pub use crate::number::{clamp, trim_zeros};

/// Appends markup pieces to a `String` (see the module documentation).
#[macro_export]
macro_rules! put {
    ($out:expr; $($piece:tt)*) => {{
        #[allow(unused_imports)]
        use $crate::fmt::Put as _;
        $crate::put!(@ ($out) []; $($piece)*);
    }};
    // Adjacent literals are joined at compile time (`concat!`): one push per run of text.
    (@ ($out:expr) [$($acc:literal)*]; ) => {
        $crate::put!(@flush ($out) [$($acc)*]);
    };
    (@ ($out:expr) [$($acc:literal)*]; $text:literal $($rest:tt)*) => {
        $crate::put!(@ ($out) [$($acc)* $text]; $($rest)*);
    };
    (@ ($out:expr) [$($acc:literal)*]; $method:ident ( $($arg:expr),* ) $($rest:tt)*) => {
        $crate::put!(@flush ($out) [$($acc)*]);
        $out.$method($($arg),*);
        $crate::put!(@ ($out) []; $($rest)*);
    };
    (@flush ($out:expr) []) => {};
    (@flush ($out:expr) [$($acc:literal)+]) => {
        $out.push_str(concat!($($acc),+));
    };
}

/// A new `String` of markup pieces, as [`put!`] writes them.
#[macro_export]
macro_rules! text {
    ($($piece:tt)*) => {{
        let mut s = String::new();
        $crate::put!(s; $($piece)*);
        s
    }};
}

/// Appending markup pieces to a `String`; every method returns the string for chaining.
pub trait Put {
    /// Text as is.
    fn s(&mut self, text: &str) -> &mut Self;
    /// Text escaped for HTML content and attribute values.
    fn e(&mut self, text: &str) -> &mut Self;
    /// A whole number.
    fn u(&mut self, n: usize) -> &mut Self;
    /// A signed whole number.
    fn i(&mut self, n: i64) -> &mut Self;
    /// `x` with `decimals` places for the reader: without `-0`, with a true minus sign
    /// (`−`, U+2212, as the book's typeset math), "undefined" for NaN and "overflow"
    /// for ±∞ (as [`crate::svg::num`]). Never for attribute values a program reads.
    fn n(&mut self, x: f64, decimals: usize) -> &mut Self;
    /// An SVG coordinate: 2 places, trailing zeros trimmed (as [`crate::svg::coord`]).
    fn c(&mut self, x: f64) -> &mut Self;
    /// Shortest text of `x` (as [`crate::number::fmt_num`]).
    fn g(&mut self, x: f64) -> &mut Self;
    /// Text or a whole number, as is (see [`Piece`]).
    fn p<T: Piece>(&mut self, piece: T) -> &mut Self;
    /// As [`Put::n`] (kept for the plot's code).
    fn m(&mut self, x: f64, decimals: usize) -> &mut Self;
    /// Shortest text of `x` for the reader, as [`Put::g`] with a true minus sign.
    fn r(&mut self, x: f64) -> &mut Self;
}

/// What [`Put::p`] writes as is: text and whole numbers (never floats, which need a
/// chosen precision: [`Put::n`], [`Put::c`], [`Put::g`]).
pub trait Piece {
    /// Appends `self` to `out`.
    fn put(self, out: &mut String);
}

impl Piece for &str {
    fn put(self, out: &mut String) {
        out.push_str(self);
    }
}

impl Piece for &String {
    fn put(self, out: &mut String) {
        out.push_str(self);
    }
}

impl Piece for String {
    fn put(self, out: &mut String) {
        out.push_str(&self);
    }
}

impl Piece for &&str {
    fn put(self, out: &mut String) {
        out.push_str(self);
    }
}

impl Piece for char {
    fn put(self, out: &mut String) {
        out.push(self);
    }
}

impl Piece for bool {
    fn put(self, out: &mut String) {
        out.push_str(if self { "true" } else { "false" });
    }
}

macro_rules! whole_pieces {
    ($($t:ty),*) => {$(
        impl Piece for $t {
            fn put(self, out: &mut String) {
                out.i(self as i64);
            }
        }
        impl Piece for &$t {
            fn put(self, out: &mut String) {
                out.i(*self as i64);
            }
        }
    )*};
}
whole_pieces!(usize, u32, u64, i32, i64);

impl Put for String {
    fn s(&mut self, text: &str) -> &mut Self {
        self.push_str(text);
        self
    }

    fn e(&mut self, text: &str) -> &mut Self {
        for c in text.chars() {
            match c {
                '&' => self.push_str("&amp;"),
                '<' => self.push_str("&lt;"),
                '>' => self.push_str("&gt;"),
                '"' => self.push_str("&quot;"),
                '\'' => self.push_str("&#39;"),
                c => self.push(c),
            }
        }
        self
    }

    fn u(&mut self, n: usize) -> &mut Self {
        push_u64(self, n as u64);
        self
    }

    fn i(&mut self, n: i64) -> &mut Self {
        if n < 0 {
            self.push('-');
        }
        push_u64(self, n.unsigned_abs());
        self
    }

    fn n(&mut self, x: f64, decimals: usize) -> &mut Self {
        if x.is_nan() {
            return self.s("undefined");
        }
        if x.is_infinite() {
            return self.s("overflow");
        }
        push_fixed(self, x, decimals, false, "−");
        self
    }

    fn c(&mut self, x: f64) -> &mut Self {
        push_coord(self, x, "-");
        self
    }

    fn g(&mut self, x: f64) -> &mut Self {
        self.push_str(&fmt_num(x));
        self
    }

    fn p<T: Piece>(&mut self, piece: T) -> &mut Self {
        piece.put(self);
        self
    }

    fn m(&mut self, x: f64, decimals: usize) -> &mut Self {
        self.n(x, decimals)
    }

    fn r(&mut self, x: f64) -> &mut Self {
        // fmt_num writes a negative number (-inf too) as `-` and the text of -x.
        if x < 0.0 {
            self.push('−');
        }
        self.push_str(&fmt_num(if x < 0.0 { -x } else { x }));
        self
    }
}

/// [`Put::c`] with `minus` as the sign of a negative value (the reader's `−` in text).
pub fn push_coord(out: &mut String, x: f64, minus: &str) {
    push_fixed(out, x, 2, false, minus);
    // Trim trailing zeros and then the point: `3.10` → `3.1`, `2.00` → `2`.
    if !x.is_finite() {
        return;
    }
    while out.ends_with('0') {
        out.pop();
    }
    if out.ends_with('.') {
        out.pop();
    }
}

/// Number of characters (Unicode scalar values) in `s`.
pub fn char_count(s: &str) -> usize {
    s.bytes().filter(|b| b & 0xC0 != 0x80).count()
}

/// Parses a whole number made of ASCII digits only (`"12"`); `None` otherwise.
pub fn parse_index(text: &str) -> Option<usize> {
    let text = text.strip_prefix('+').unwrap_or(text);
    if text.is_empty() || text.len() > 9 {
        return None;
    }
    let mut n = 0usize;
    for b in text.bytes() {
        if !b.is_ascii_digit() {
            return None;
        }
        n = n * 10 + usize::from(b - b'0');
    }
    Some(n)
}

/// A finite number typed into a control (surrounding spaces allowed).
pub fn input_num(value: &str) -> Option<f64> {
    parse_num(trim(value)).filter(|x| x.is_finite())
}

/// `s` without leading and trailing whitespace, exactly as `str::trim` (Unicode
/// `White_Space`) in one forward pass: `str::trim` links a generic two-ended
/// pattern matcher into the bundle.
pub fn trim(s: &str) -> &str {
    let (mut start, mut end) = (None, 0);
    for (i, c) in s.char_indices() {
        if !c.is_whitespace() {
            start.get_or_insert(i);
            end = i + c.len_utf8();
        }
    }
    s.get(start.unwrap_or(0)..end).unwrap_or("")
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::svg::{coord, num};

    #[test]
    fn same_text_as_the_string_helpers() {
        for x in [
            0.0, -0.0, -0.001, 0.004, 0.005, 1.0, -1.0, 3.10, 2.675, -12.5, 123.456, 1e-9, -3.999,
        ] {
            for d in 0..4 {
                let mut s = String::from("x");
                s.n(x, d);
                assert_eq!(s, format!("x{}", num(x, d)), "{x} {d}");
            }
            let mut s = String::from("x");
            s.c(x);
            assert_eq!(s, format!("x{}", coord(x)), "{x}");
        }
        let mut s = String::new();
        s.s("a").u(0).s(" ").u(120).s(" ").i(-7).s(" ").e("<&>\"'");
        assert_eq!(s, "a0 120 -7 &lt;&amp;&gt;&quot;&#39;");
    }

    #[test]
    fn indexes() {
        assert_eq!(parse_index("0"), Some(0));
        assert_eq!(parse_index("17"), Some(17));
        assert_eq!(parse_index("+1"), Some(1));
        for t in ["", "-1", "+", "1.0", " 1", "a"] {
            assert_eq!(parse_index(t), None, "{t:?}");
        }
        assert_eq!(input_num(" 1.5 "), Some(1.5));
        for t in [
            "",
            " ",
            "a",
            " a b\t\n",
            "\u{a0}x\u{3000}",
            "\u{2028}",
            "é ",
            " ∞",
        ] {
            assert_eq!(trim(t), t.trim(), "{t:?}");
        }
        assert_eq!(input_num("x"), None);
    }
}
