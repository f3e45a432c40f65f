//! The author's stated result (`expect`) as written: every number with its source
//! text, its byte span and the number of decimals it was written with.
//!
//! Parsed option values lose how a number was written (`0.090` becomes 0.09), so the
//! numbers are read again from the option's source text, in order, and paired with
//! the parsed structure (scalar, list, list of lists).

use std::ops::Range;

use mathcourse_core::round::{agrees, decimals_in, significant_digits_in, unit_in};
use serde_json::Value;

use crate::directive::block::{Block, OptionsSyntax};
use crate::directive::options::RawOptions;

/// One stated number.
#[derive(Debug, Clone, PartialEq)]
pub struct Num {
    /// Its value.
    pub value: f64,
    /// Decimals as written (`0.090` → 3).
    pub decimals: u32,
    /// What its last written digit is worth (`0.090` → 0.001, `6.02e23` → 1e21).
    pub unit: f64,
    /// The text as written.
    pub text: String,
    /// Where it is written.
    pub span: Range<usize>,
}

impl Num {
    /// True when `computed`, rounded where this number's last digit is, is this number.
    pub fn agrees(&self, computed: f64) -> bool {
        agrees(computed, self.value, self.unit)
    }

    /// What was compared, for messages: "checked to 3 decimals", or "checked to 3
    /// significant digits" for a number in scientific notation.
    pub fn precision(&self) -> String {
        if self.text.contains(['e', 'E']) {
            let n = significant_digits_in(&self.text);
            format!(
                "checked to {n} significant digit{}",
                if n == 1 { "" } else { "s" }
            )
        } else {
            precision(self.decimals)
        }
    }
}

/// "checked to 3 decimals".
pub(super) fn precision(decimals: u32) -> String {
    match decimals {
        0 => "checked to the nearest whole number".into(),
        1 => "checked to 1 decimal".into(),
        d => format!("checked to {d} decimals"),
    }
}

/// A stated result.
#[derive(Debug, Clone, PartialEq)]
pub enum Stated {
    /// `4`
    Scalar(Num),
    /// `[0.665, 0.245, 0.090]`
    Vector(Vec<Num>),
    /// `[[1, 2], [3, 4]]`
    Matrix(Vec<Vec<Num>>),
    /// A word, e.g. `error`.
    Word(String),
}

impl Stated {
    /// What it is, for messages.
    pub fn describe(&self) -> &'static str {
        match self {
            Stated::Scalar(_) => "one number",
            Stated::Vector(_) => "a list of numbers",
            Stated::Matrix(_) => "a matrix (a list of rows)",
            Stated::Word(_) => "a word",
        }
    }
}

/// Byte span of the value of option `key` in the chapter source (trimmed).
pub fn value_span(
    source: &str,
    block: &Block,
    raw: &RawOptions,
    key: &str,
) -> Option<Range<usize>> {
    match &block.options {
        OptionsSyntax::Fields(fields) => fields
            .iter()
            .find(|f| f.key == key)
            .map(|f| f.value_span.clone()),
        OptionsSyntax::Yaml(yaml) => {
            let key_span = raw.key_spans.get(key)?.clone();
            if key_span.is_empty() {
                return None;
            }
            Some(yaml_value_span(source, yaml.clone(), key_span))
        }
        OptionsSyntax::None => None,
    }
}

/// The text after `key:` to the end of its line, plus the following lines that are
/// indented deeper (or are `- item` lines at the key's indentation).
pub(super) fn yaml_value_span(
    source: &str,
    yaml: Range<usize>,
    key_span: Range<usize>,
) -> Range<usize> {
    let line_start = source[..key_span.start].rfind('\n').map_or(0, |i| i + 1);
    let indent = key_span.start - line_start;
    let mut pos = key_span.end;
    let bytes = source.as_bytes();
    while pos < yaml.end && (bytes[pos] == b' ' || bytes[pos] == b'\t') {
        pos += 1;
    }
    if pos < yaml.end && bytes[pos] == b':' {
        pos += 1;
    }
    let line_end = |from: usize| {
        source[from..yaml.end]
            .find('\n')
            .map_or(yaml.end, |i| from + i)
    };
    let mut end = line_end(pos);
    let mut next = end + 1;
    while next < yaml.end {
        let le = line_end(next);
        let line = &source[next..le];
        let ind = line.len() - line.trim_start().len();
        let continues = line.trim().is_empty()
            || ind > indent
            || (ind == indent && line.trim_start().starts_with("- "));
        if !continues {
            break;
        }
        end = le;
        next = le + 1;
    }
    let text = &source[pos..end];
    let start = pos + (text.len() - text.trim_start().len());
    let stop = pos + text.trim_end().len();
    start..stop.max(start)
}

/// The numbers written in `source[span]`, in order, skipping YAML comments.
pub fn numbers_in(source: &str, span: Range<usize>) -> Vec<(String, Range<usize>)> {
    let text = &source[span.clone()];
    let mut out = Vec::new();
    let chars: Vec<(usize, char)> = text.char_indices().collect();
    let mut i = 0;
    let mut prev: Option<char> = None;
    while i < chars.len() {
        let (at, c) = chars[i];
        if c == '#' && prev.is_none_or(char::is_whitespace) {
            // Comment to the end of the line.
            while i < chars.len() && chars[i].1 != '\n' {
                i += 1;
            }
            prev = None;
            continue;
        }
        let starts_number = |j: usize| {
            chars.get(j).is_some_and(|&(_, d)| {
                d.is_ascii_digit()
                    || (d == '.' && chars.get(j + 1).is_some_and(|n| n.1.is_ascii_digit()))
            })
        };
        let after_word = prev.is_some_and(|p| p.is_alphanumeric() || p == '_' || p == '.');
        let signed = matches!(c, '-' | '+' | '−') && starts_number(i + 1);
        if !after_word && (signed || starts_number(i)) {
            let mut j = if signed { i + 1 } else { i };
            while chars
                .get(j)
                .is_some_and(|&(_, d)| d.is_ascii_digit() || d == '.')
            {
                j += 1;
            }
            if chars.get(j).is_some_and(|&(_, d)| d == 'e' || d == 'E') {
                let mut k = j + 1;
                if chars.get(k).is_some_and(|&(_, d)| d == '-' || d == '+') {
                    k += 1;
                }
                if chars.get(k).is_some_and(|&(_, d)| d.is_ascii_digit()) {
                    while chars.get(k).is_some_and(|&(_, d)| d.is_ascii_digit()) {
                        k += 1;
                    }
                    j = k;
                }
            }
            let end = chars.get(j).map_or(text.len(), |&(e, _)| e);
            out.push((text[at..end].to_string(), span.start + at..span.start + end));
            prev = chars.get(j - 1).map(|&(_, d)| d);
            i = j;
            continue;
        }
        prev = Some(c);
        i += 1;
    }
    out
}

/// Why the stated numbers could not be read.
#[derive(Debug, Clone, PartialEq)]
pub struct ReadError {
    /// What is wrong.
    pub message: String,
}

/// Pairs the parsed `value` with the numbers written in `source[span]`.
pub fn read(value: &Value, source: &str, span: Range<usize>) -> Result<Stated, ReadError> {
    let tokens = numbers_in(source, span.clone());
    let mut tokens = tokens.into_iter();
    let stated = build(value, &mut tokens, 0)?;
    if tokens.next().is_some() {
        return Err(ReadError {
            message: "the written numbers do not match the parsed value".into(),
        });
    }
    Ok(stated)
}

/// Reads a value written as plain text, `2.24` or `[0.665, 0.245, 0.090]`, at
/// `source[span]` (the inline role and `:expect: mu = 2` use this form).
pub fn read_text(source: &str, span: Range<usize>) -> Result<Stated, ReadError> {
    let text = source[span.clone()].trim();
    let tokens = numbers_in(source, span.clone());
    let num = |(text, span): (String, Range<usize>)| -> Result<Num, ReadError> {
        let value: f64 = text.replace('−', "-").parse().map_err(|_| ReadError {
            message: format!("`{text}` is not a number"),
        })?;
        Ok(Num {
            value,
            decimals: decimals_in(&text),
            unit: unit_in(&text),
            text,
            span,
        })
    };
    if let Some(inner) = text.strip_prefix('[') {
        let Some(inner) = inner.strip_suffix(']') else {
            return Err(ReadError {
                message: "a list is closed with `]`".into(),
            });
        };
        let parts = inner.split(',').filter(|p| !p.trim().is_empty()).count();
        if parts != tokens.len() || parts == 0 {
            return Err(ReadError {
                message: "write a list of numbers, e.g. `[0.665, 0.245, 0.090]`".into(),
            });
        }
        return Ok(Stated::Vector(
            tokens.into_iter().map(num).collect::<Result<_, _>>()?,
        ));
    }
    match tokens.as_slice() {
        [(t, s)] if t == text => Ok(Stated::Scalar(num((t.clone(), s.clone()))?)),
        _ => Err(ReadError {
            message: format!("`{text}` is not one number"),
        }),
    }
}

fn num_from(
    parsed: f64,
    tokens: &mut impl Iterator<Item = (String, Range<usize>)>,
) -> Result<Num, ReadError> {
    let (text, span) = tokens.next().ok_or_else(|| ReadError {
        message: "a number of the value could not be found in the source".into(),
    })?;
    let written: Option<f64> = text.replace('−', "-").parse().ok();
    if written.is_some_and(|w| (w - parsed).abs() > 1e-9 * parsed.abs().max(1.0)) {
        return Err(ReadError {
            message: format!(
                "the written number `{text}` does not match the parsed value {parsed}"
            ),
        });
    }
    Ok(Num {
        value: parsed,
        decimals: decimals_in(&text),
        unit: unit_in(&text),
        text,
        span,
    })
}

fn build(
    value: &Value,
    tokens: &mut impl Iterator<Item = (String, Range<usize>)>,
    depth: usize,
) -> Result<Stated, ReadError> {
    match value {
        Value::Number(n) => Ok(Stated::Scalar(num_from(
            n.as_f64().unwrap_or(f64::NAN),
            tokens,
        )?)),
        Value::String(s) => match s.trim().replace('−', "-").parse::<f64>() {
            Ok(v) if v.is_finite() => Ok(Stated::Scalar(num_from(v, tokens)?)),
            _ => Ok(Stated::Word(s.trim().to_string())),
        },
        Value::Array(items) if depth < 2 => {
            let parts = items
                .iter()
                .map(|item| build(item, tokens, depth + 1))
                .collect::<Result<Vec<_>, _>>()?;
            if parts.iter().all(|p| matches!(p, Stated::Scalar(_))) {
                Ok(Stated::Vector(
                    parts
                        .into_iter()
                        .filter_map(|p| match p {
                            Stated::Scalar(n) => Some(n),
                            _ => None,
                        })
                        .collect(),
                ))
            } else if depth == 0 && parts.iter().all(|p| matches!(p, Stated::Vector(_))) {
                Ok(Stated::Matrix(
                    parts
                        .into_iter()
                        .filter_map(|p| match p {
                            Stated::Vector(v) => Some(v),
                            _ => None,
                        })
                        .collect(),
                ))
            } else {
                Err(ReadError {
                    message: "mix a list's entries: all numbers, or all lists of numbers".into(),
                })
            }
        }
        _ => Err(ReadError {
            message: "expected a number, a list of numbers or a list of such lists".into(),
        }),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn texts(s: &str) -> Vec<String> {
        numbers_in(s, 0..s.len()).into_iter().map(|t| t.0).collect()
    }

    #[test]
    fn finds_numbers_as_written() {
        assert_eq!(texts("[0.665, 0.245, 0.090]"), ["0.665", "0.245", "0.090"]);
        assert_eq!(texts("[[1, -2], [3e-2, .5]]"), ["1", "-2", "3e-2", ".5"]);
        assert_eq!(
            texts("\n  - 0.25 # was 0.3\n  - −1.50\n"),
            ["0.25", "−1.50"]
        );
        assert_eq!(texts("x2 + 3"), ["3"]);
        assert_eq!(texts("\"0.50\""), ["0.50"]);
    }

    #[test]
    fn pairs_with_structure() {
        let src = "[[1, 2.0], [3, 4]]";
        let v: Value = serde_json::from_str("[[1, 2.0], [3, 4]]").unwrap();
        match read(&v, src, 0..src.len()).unwrap() {
            Stated::Matrix(rows) => {
                assert_eq!(rows[0][1].decimals, 1);
                assert_eq!(&src[rows[1][0].span.clone()], "3");
            }
            other => panic!("{other:?}"),
        }
        let v = Value::String("error".into());
        assert_eq!(
            read(&v, "error", 0..5).unwrap(),
            Stated::Word("error".into())
        );
    }

    #[test]
    fn yaml_values_spans() {
        let src = "expect:\n  - 0.665\n  - 0.090\nscores: [1]\n";
        let span = yaml_value_span(src, 0..src.len(), 0..6);
        assert_eq!(&src[span], "- 0.665\n  - 0.090");
        let span = yaml_value_span(src, 0..src.len(), 29..35);
        assert_eq!(&src[span], "[1]");
    }
}
