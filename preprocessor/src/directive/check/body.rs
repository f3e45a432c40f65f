//! The numbers a checked example's body states: each must be one the build compared.
//!
//! A number written in the body's prose or math is accounted for when, rounded where
//! its last digit is, it is one of: a number of the options (the inputs, the expected
//! values, a `calc` line's constants), the length of an option's list, a number of the
//! computation line, or a value a `calc` line computed. A `{calc}` role checks itself.
//! Any other number was not checked: it is reported, and the block loses its ✓.

use std::ops::Range;

use mathcourse_core::round::{agrees, unit_in};
use pulldown_cmark::{Event, Parser, Tag, TagEnd};

/// A number written in the body that the build did not compare.
#[derive(Debug, Clone, PartialEq)]
pub struct Unchecked {
    /// As written.
    pub text: String,
    /// Where, in the chapter's source.
    pub span: Range<usize>,
}

/// The numbers of `source[body]` that are none of `known` (see the module docs).
pub fn unchecked(source: &str, body: Range<usize>, known: &[f64]) -> Vec<Unchecked> {
    let text = &source[body.clone()];
    let mut out = Vec::new();
    let mut code_depth = 0usize;
    for (event, range) in Parser::new(text).into_offset_iter() {
        match event {
            Event::Start(Tag::CodeBlock(_) | Tag::HtmlBlock) => code_depth += 1,
            Event::End(TagEnd::CodeBlock | TagEnd::HtmlBlock) => {
                code_depth = code_depth.saturating_sub(1)
            }
            Event::Text(_) if code_depth == 0 => {
                // The source text of the event (escapes included), so spans stay exact.
                let piece = &text[range.clone()];
                for (at, written, percent) in numbers(piece) {
                    let value: f64 = match written.replace('−', "-").parse() {
                        Ok(v) => v,
                        Err(_) => continue,
                    };
                    let unit = unit_in(written);
                    let matches = |k: f64| {
                        agrees(k.abs(), value.abs(), unit)
                            || (percent && agrees(k.abs() * 100.0, value.abs(), unit))
                    };
                    if !known.iter().any(|&k| matches(k)) {
                        let start = body.start + range.start + at;
                        out.push(Unchecked {
                            text: written.to_string(),
                            span: start..start + written.len(),
                        });
                    }
                }
            }
            _ => {}
        }
    }
    out
}

/// Every number in `text` (an option region, a computation line): the values.
pub fn values_in(text: &str) -> Vec<f64> {
    numbers(text)
        .into_iter()
        .filter_map(|(_, n, _)| n.replace('−', "-").parse().ok())
        .collect()
}

/// The lengths of the bracketed lists in `text` (`[2, 1, 0]` → 3; a matrix's rows and
/// row length too): "the three scores" may be written "the 3 scores".
pub fn list_lengths(text: &str) -> Vec<f64> {
    let mut out = Vec::new();
    let mut stack: Vec<usize> = Vec::new();
    for c in text.chars() {
        match c {
            '[' => stack.push(1),
            ',' => {
                if let Some(n) = stack.last_mut() {
                    *n += 1;
                }
            }
            ']' => {
                if let Some(n) = stack.pop() {
                    out.push(n as f64);
                }
            }
            _ => {}
        }
    }
    out
}

/// The numbers written in `text`: offset, text, and whether a `%` follows. A digit
/// run that is part of a word or a name (`x2`, `3D`, `GPT-4`), an index or exponent
/// (`x_1`, `e^{2}`), or a TeX command's argument is not a stated number.
fn numbers(text: &str) -> Vec<(usize, &str, bool)> {
    let bytes = text.as_bytes();
    let mut out = Vec::new();
    let mut i = 0;
    while i < bytes.len() {
        let c = bytes[i];
        if !(c.is_ascii_digit() || (c == b'.' && bytes.get(i + 1).is_some_and(u8::is_ascii_digit)))
        {
            i += 1;
            continue;
        }
        let mut start = i;
        let mut end = i;
        while end < bytes.len() && bytes[end].is_ascii_digit() {
            end += 1;
        }
        if end < bytes.len()
            && bytes[end] == b'.'
            && bytes.get(end + 1).is_some_and(u8::is_ascii_digit)
        {
            end += 1;
            while end < bytes.len() && bytes[end].is_ascii_digit() {
                end += 1;
            }
        }
        // An exponent: `e-3`, `E+5`.
        if end + 1 < bytes.len() && matches!(bytes[end], b'e' | b'E') {
            let mut k = end + 1;
            if matches!(bytes[k], b'-' | b'+') {
                k += 1;
            }
            if bytes.get(k).is_some_and(u8::is_ascii_digit) {
                while k < bytes.len() && bytes[k].is_ascii_digit() {
                    k += 1;
                }
                end = k;
            }
        }
        let before = text[..start].chars().next_back();
        let after = text[end..].chars().next();
        // `-0.37` and `−0.37`: the sign is part of the number.
        if matches!(before, Some('-' | '−')) {
            let sign_len = before.map_or(0, char::len_utf8);
            let before_sign = text[..start - sign_len].chars().next_back();
            if !before_sign.is_some_and(|b| b.is_alphanumeric() || b == '_') {
                start -= sign_len;
            }
        }
        let before = text[..start].chars().next_back();
        let before_brace = text[..start]
            .strip_suffix('{')
            .and_then(|t| t.chars().next_back());
        let part_of_name = before
            .is_some_and(|b| b.is_alphanumeric() || matches!(b, '_' | '^' | '\\' | '-'))
            || matches!(before_brace, Some('_' | '^'))
            || after.is_some_and(|a| a.is_alphabetic() && a != 'e' && a != 'E' || a == '_');
        if !part_of_name {
            let percent = text[end..].starts_with('%') || text[end..].starts_with("\\%");
            out.push((start, &text[start..end], percent));
        }
        i = end;
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn found(text: &str) -> Vec<&str> {
        numbers(text).into_iter().map(|(_, n, _)| n).collect()
    }

    #[test]
    fn stated_numbers_are_found_and_names_are_not() {
        assert_eq!(
            found(
                "The eigenvalues are $2.651$ and −0.373, about 66.5% of x_1, x2, 3D, e^{2}, GPT-4."
            ),
            ["2.651", "−0.373", "66.5"]
        );
        assert_eq!(found("$1.5e-3$ and (2, -4)"), ["1.5e-3", "2", "-4"]);
    }

    #[test]
    fn a_number_is_known_at_the_precision_written() {
        let src = "The value is 2.651, the sum 3, and 2.615 is wrong; 66.5% and `9.99` in code.";
        let body = 0..src.len();
        let bad = unchecked(src, body, &[2.651_3, 3.0, 0.665]);
        assert_eq!(
            bad,
            [Unchecked {
                text: "2.615".into(),
                span: 35..40
            }]
        );
    }

    #[test]
    fn lists_have_lengths() {
        assert_eq!(list_lengths(":scores: [2, 1, 0]"), [3.0]);
        assert_eq!(
            list_lengths("[[1, 2], [3, 4], [5, 6]]"),
            [2.0, 2.0, 2.0, 3.0]
        );
    }
}
