//! Directive options → typed structs, with errors pointing at the offending key.
//!
//! Both option syntaxes become one JSON object first (`:key: value` lines: plain
//! strings, except numbers, booleans and `[...]` lists; a YAML block:
//! parsed with serde-saphyr), then each directive deserializes its own options struct
//! (serde, `deny_unknown_fields`) from it, as a [`Typed`] that keeps each key's span.
//!
//! Diagnostics never read serde's message text: the options are deserialized through
//! [`de::ObjectDe`] with our own error type, [`de::Problem`], so an unknown key arrives
//! as `unknown_field(key, expected)`, where `expected` is the options struct's own list
//! of keys (serde's derive passes its field names, renames applied), and a missing
//! option as `missing_field(key)`. Every "did you mean" goes through [`suggest`].

mod de;

use std::collections::BTreeMap;
use std::ops::{Deref, Range};

use serde::de::DeserializeOwned;
use serde_json::{Map, Value};

use super::block::{Block, OptionsSyntax};
use crate::frontmatter::offset_of;
use de::{ObjectDe, Problem};

/// Options as a JSON object plus where each key is written.
#[derive(Debug, Clone, Default)]
pub struct RawOptions {
    /// The object.
    pub value: Map<String, Value>,
    /// Byte span of each key in the chapter source.
    pub key_spans: BTreeMap<String, Range<usize>>,
}

impl RawOptions {
    /// The text value of `key`, if it is a string (for `degrade`, which never fails).
    pub fn text(&self, key: &str) -> Option<&str> {
        self.value.get(key).and_then(|v| v.as_str())
    }
}

/// A directive's typed options with the span of each key the author wrote: the
/// options struct through `Deref`, spans through [`Typed::span`].
#[derive(Debug, Clone)]
pub struct Typed<T> {
    value: T,
    raw: RawOptions,
    fallback: Range<usize>,
}

impl<T> Typed<T> {
    /// The span of `key`, or of the directive's opening line when the key is not
    /// written (an error about a default value points at the directive).
    pub fn span(&self, key: &str) -> Range<usize> {
        self.key_span(key).unwrap_or_else(|| self.fallback.clone())
    }

    /// The span of `key`, when the author wrote it.
    pub fn key_span(&self, key: &str) -> Option<Range<usize>> {
        self.raw.key_spans.get(key).cloned()
    }

    /// The options as written (JSON values and key spans).
    pub fn raw(&self) -> &RawOptions {
        &self.raw
    }

    /// The options struct.
    pub fn into_inner(self) -> T {
        self.value
    }
}

impl<T> Deref for Typed<T> {
    type Target = T;

    fn deref(&self) -> &T {
        &self.value
    }
}

/// An options problem at a byte offset range of the chapter.
#[derive(Debug, Clone, PartialEq)]
pub struct OptionError {
    /// Where.
    pub span: Range<usize>,
    /// What.
    pub message: String,
    /// What to do.
    pub hint: String,
}

/// Collects the options of `block` into a JSON object.
pub fn raw_options(source: &str, block: &Block) -> Result<RawOptions, OptionError> {
    let mut out = RawOptions::default();
    match &block.options {
        OptionsSyntax::None => {}
        OptionsSyntax::Fields(fields) => {
            for f in fields {
                if out.value.contains_key(&f.key) {
                    return Err(OptionError {
                        span: f.key_span.clone(),
                        message: format!("option `{}` is given twice", f.key),
                        hint: "keep one of the two lines".into(),
                    });
                }
                let v = field_value(&f.value).map_err(|message| OptionError {
                    span: f.value_span.clone(),
                    message,
                    hint: "a value starting with `[` is read as a list, e.g. `[1, 2.5, 3]`; quote it to keep it as text".into(),
                })?;
                out.value.insert(f.key.clone(), v);
                out.key_spans.insert(f.key.clone(), f.key_span.clone());
            }
        }
        OptionsSyntax::Yaml(range) => {
            let yaml = &source[range.clone()];
            if !yaml.trim().is_empty() {
                let parsed: Value = parse_yaml(yaml, range.start)?;
                match parsed {
                    Value::Object(map) => {
                        for key in map.keys() {
                            out.key_spans
                                .insert(key.clone(), yaml_key_span(yaml, range.start, key));
                        }
                        out.value = map;
                    }
                    Value::Null => {}
                    _ => {
                        return Err(OptionError {
                            span: range.clone(),
                            message:
                                "the options block must be a YAML mapping (`key: value` lines)"
                                    .into(),
                            hint: "write one `key: value` per line between the `---` lines".into(),
                        })
                    }
                }
            }
        }
    }
    Ok(out)
}

/// Parses the YAML options text found at `base` of the chapter; errors are located.
/// YAML 1.2 booleans only: `y`, `n`, `yes`, `no`, `on`, `off` stay text (`tex: y` is
/// the letter y, not `true`).
fn parse_yaml<T: DeserializeOwned>(yaml: &str, base: usize) -> Result<T, OptionError> {
    let options = serde_saphyr::options! { strict_booleans: true };
    serde_saphyr::from_str_with_options(yaml, options).map_err(|err| {
        let at = err
            .location()
            .map(|l| offset_of(yaml, l.line() as usize, l.column() as usize))
            .unwrap_or(0);
        OptionError {
            span: base + at..base + at + 1,
            message: format!("invalid YAML in the options: {}", yaml_message(&err)),
            hint: "options between `---` lines are YAML: `key: value`, lists as `- item` or `[a, b]`; quote values that contain `: ` or start with `*`, `&`, `{`".into(),
        }
    })
}

/// One item of options written as a YAML list (`- {key: value}` or an indented
/// mapping under `- `).
#[derive(Debug, Clone, Default)]
pub struct RawItem {
    /// The item's keys and values, with the span of each key.
    pub options: RawOptions,
    /// From the item's first byte (its `{` or first key) to the next item.
    pub span: Range<usize>,
}

/// Collects the options of `block` written as a YAML list of mappings between `---`
/// lines (directives whose options are a list of records, e.g. `symbols`). No options
/// give an empty list; `:key: value` lines or a YAML mapping are an error.
pub fn raw_list(source: &str, block: &Block) -> Result<Vec<RawItem>, OptionError> {
    let list_hint = "write one `- {key: value, ...}` item per line between two `---` lines";
    let range = match &block.options {
        OptionsSyntax::None => return Ok(Vec::new()),
        OptionsSyntax::Fields(fields) => {
            return Err(OptionError {
                span: fields[0].key_span.clone(),
                message: format!(
                    "the options of `{}` are a YAML list, not `:key: value` lines",
                    block.name
                ),
                hint: list_hint.into(),
            })
        }
        OptionsSyntax::Yaml(range) => range.clone(),
    };
    let yaml = &source[range.clone()];
    if yaml.trim().is_empty() {
        return Ok(Vec::new());
    }
    let parsed: Value = parse_yaml(yaml, range.start)?;
    match parsed {
        Value::Array(_) => {}
        Value::Null => return Ok(Vec::new()),
        _ => {
            return Err(OptionError {
                span: range.clone(),
                message: format!(
                    "the options of `{}` must be a YAML list (`- ...` lines)",
                    block.name
                ),
                hint: list_hint.into(),
            })
        }
    }
    let spanned: Vec<serde_saphyr::Spanned<Value>> = parse_yaml(yaml, range.start)?;
    let starts: Vec<usize> = spanned
        .iter()
        .map(|item| {
            let l = &item.referenced;
            offset_of(yaml, l.line() as usize, l.column() as usize)
        })
        .collect();
    let mut out = Vec::new();
    for (i, item) in spanned.into_iter().enumerate() {
        let start = starts[i];
        let end = starts.get(i + 1).copied().unwrap_or(yaml.len()).max(start);
        let span = range.start + start..range.start + end;
        let Value::Object(map) = item.value else {
            return Err(OptionError {
                span: span.start..span.start + 1,
                message: format!(
                    "item {} of `{}` must be a mapping (`{{key: value, ...}}`)",
                    i + 1,
                    block.name
                ),
                hint: list_hint.into(),
            });
        };
        let mut options = RawOptions::default();
        for key in map.keys() {
            let at = flow_key_offset(&yaml[start..end], key)
                .map_or(span.start..span.start + 1, |o| {
                    span.start + o..span.start + o + key.len()
                });
            options.key_spans.insert(key.clone(), at);
        }
        options.value = map;
        out.push(RawItem { options, span });
    }
    Ok(out)
}

/// Offset of `key` written as a mapping key (`key:` or `"key":` after a line start,
/// whitespace, `{` or `,`) in `text`.
pub(crate) fn flow_key_offset(text: &str, key: &str) -> Option<usize> {
    let is_boundary = |c: Option<char>| c.is_none_or(|c| c.is_whitespace() || c == '{' || c == ',');
    let mut from = 0;
    while let Some(i) = text[from..].find(key) {
        let at = from + i;
        let mut before = text[..at].chars();
        let prev = before.next_back();
        let mut rest = &text[at + key.len()..];
        let mut ok = is_boundary(prev);
        if let Some(q @ ('"' | '\'')) = prev {
            if let Some(r) = rest.strip_prefix(q) {
                ok = is_boundary(before.next_back());
                rest = r;
            }
        }
        if ok && rest.trim_start_matches([' ', '\t']).starts_with(':') {
            return Some(at);
        }
        // Step past the match, by at least one whole character (an empty key matches
        // everywhere, and a byte step could land inside `é`).
        let step = text[at..].chars().next().map_or(1, char::len_utf8);
        from = at + key.len().max(step);
        if from > text.len() {
            break;
        }
    }
    None
}

/// Deserializes item `index` (0-based) of a list read by [`raw_list`]; errors name the
/// item and point at the key, or at the item.
pub fn typed_item<T: DeserializeOwned>(
    item: &RawItem,
    index: usize,
    block: &Block,
) -> Result<T, OptionError> {
    let fallback = item.span.start..item.span.start + 1;
    typed_at(&item.options, block, fallback, Some(index))
}

/// serde-saphyr's message without its "error: line L column C:" prefix (the
/// diagnostic shows the position).
fn yaml_message(err: &serde_saphyr::Error) -> String {
    let text = err.to_string();
    let first = text.lines().next().unwrap_or("").trim();
    let first = first.strip_prefix("error:").unwrap_or(first).trim();
    match first.strip_prefix("line ") {
        Some(rest) => rest.split_once(": ").map_or(first, |(_, m)| m).to_string(),
        None => first.to_string(),
    }
}

fn field_value(text: &str) -> Result<Value, String> {
    let t = text.trim();
    // `[1, 2]` is a list; `[a link](url)` or `[unclosed` stays text.
    if t.starts_with('[') && t.ends_with(']') {
        if let Ok(v) = serde_saphyr::from_str::<Value>(t) {
            return Ok(v);
        }
    }
    if t == "true" || t == "false" {
        return Ok(Value::Bool(t == "true"));
    }
    if let Ok(i) = t.parse::<i64>() {
        return Ok(Value::from(i));
    }
    if let Ok(f) = t.parse::<f64>() {
        if f.is_finite() {
            return Ok(Value::from(f));
        }
    }
    Ok(Value::String(t.to_string()))
}

fn yaml_key_span(yaml: &str, base: usize, key: &str) -> Range<usize> {
    let mut offset = 0;
    for line in yaml.split_inclusive('\n') {
        let trimmed = line.trim_start();
        if trimmed.starts_with(key) && trimmed[key.len()..].trim_start().starts_with(':') {
            let start = base + offset + (line.len() - trimmed.len());
            return start..start + key.len();
        }
        offset += line.len();
    }
    base..base
}

/// Deserializes typed options; errors name the key and point at it.
pub fn typed<T: DeserializeOwned>(raw: RawOptions, block: &Block) -> Result<Typed<T>, OptionError> {
    let value = typed_at(&raw, block, block.name_span.clone(), None)?;
    Ok(Typed {
        value,
        raw,
        fallback: block.opener.clone(),
    })
}

/// [`typed`] for the options (`item == None`) or one list item; `fallback` is where an
/// error points when no key fits.
fn typed_at<T: DeserializeOwned>(
    raw: &RawOptions,
    block: &Block,
    fallback: Range<usize>,
    item: Option<usize>,
) -> Result<T, OptionError> {
    serde_path_to_error::deserialize(ObjectDe(&raw.value)).map_err(|err| {
        let path = err.path().to_string();
        let key = path.split(['.', '[']).next().unwrap_or("").to_string();
        let problem = err.into_inner();
        let unknown = match &problem {
            Problem::UnknownField { field, expected } => Some((field.as_str(), *expected)),
            _ => None,
        };
        let span = unknown
            .and_then(|(k, _)| raw.key_spans.get(k))
            .or_else(|| raw.key_spans.get(&key))
            .cloned()
            .unwrap_or(fallback);
        let (message, hint) = match (item, unknown, &problem) {
            (Some(n), Some((k, expected)), _) => (
                format!("unknown key `{k}` in item {} of `{}`", n + 1, block.name),
                format!(
                    "valid keys: {}{}",
                    one_of(expected),
                    did_you_mean(k, expected)
                ),
            ),
            (Some(n), None, Problem::MissingField(field)) => (
                format!("item {} of `{}` needs the key `{field}`", n + 1, block.name),
                format!("add `{field}: ...` to this item"),
            ),
            (Some(n), None, _) => (
                format!(
                    "item {} of `{}`, key `{path}`: {problem}",
                    n + 1,
                    block.name
                ),
                "see the author guide for this directive's options".into(),
            ),
            (None, Some((k, expected)), _) => {
                let parent = path.strip_suffix(&format!(".{k}")).unwrap_or(&path);
                if path == "." || path.is_empty() || parent == k {
                    (
                        format!("unknown option `{k}` for directive `{}`", block.name),
                        if expected.is_empty() {
                            format!("`{}` takes no options; remove this line", block.name)
                        } else {
                            format!(
                                "valid options: {}{}",
                                one_of(expected),
                                did_you_mean(k, expected)
                            )
                        },
                    )
                } else {
                    (
                        format!("unknown key `{k}` in option `{parent}`"),
                        format!(
                            "valid keys: {}{}",
                            one_of(expected),
                            did_you_mean(k, expected)
                        ),
                    )
                }
            }
            (None, None, Problem::MissingField(field)) if path == "." || path.is_empty() => (
                format!("directive `{}` needs the option `{field}`", block.name),
                format!("add a line `:{field}: ...` after the opening line"),
            ),
            (None, None, _) if path == "." || path.is_empty() => (
                format!("invalid options for `{}`: {problem}", block.name),
                "see the author guide for this directive's options".into(),
            ),
            (None, None, _) => (
                format!("option `{path}`: {problem}"),
                "see the author guide for this directive's options".into(),
            ),
        };
        OptionError {
            span,
            message,
            hint,
        }
    })
}

/// The value written after the option key at `key` (`:key: value` or `key: value`), to
/// the end of its line; the rest of the line when the value is empty. A caret belongs on
/// what the author wrote wrong, not on the key.
pub fn value_span(source: &str, key: Range<usize>) -> Range<usize> {
    let line_end = source[key.end..]
        .find('\n')
        .map_or(source.len(), |i| key.end + i);
    let line = &source[key.end..line_end];
    let lead = line.len() - line.trim_start_matches([':', ' ', '\t']).len();
    let value = line[lead..].trim_end();
    if value.is_empty() {
        key.start..line_end
    } else {
        key.end + lead..key.end + lead + value.len()
    }
}

pub use crate::diagnostic::{did_you_mean, suggest};

/// `` `a`, `b`, `c` `` for messages.
pub fn backticked(names: &[&str]) -> String {
    names
        .iter()
        .map(|n| format!("`{n}`"))
        .collect::<Vec<_>>()
        .join(", ")
}

/// An options struct's keys as a hint lists them: `` `a` ``, `` `a` or `b` ``,
/// `` one of `a`, `b`, `c` `` (serde's own wording, which the snapshots pin).
fn one_of(names: &[&str]) -> String {
    match names {
        [] => String::new(),
        [a] => format!("`{a}`"),
        [a, b] => format!("`{a}` or `{b}`"),
        _ => format!("one of {}", backticked(names)),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::directive::block::find_blocks;
    use serde::Deserialize;

    #[derive(Deserialize, Debug)]
    #[serde(deny_unknown_fields, rename_all = "kebab-case")]
    struct Opts {
        source: String,
        #[serde(default)]
        level: Option<u8>,
        #[serde(default)]
        scores: Vec<f64>,
    }

    fn parse(src: &str) -> Result<Opts, OptionError> {
        let (blocks, _) = find_blocks(src, 0..src.len());
        let raw = raw_options(src, &blocks[0])?;
        typed(raw, &blocks[0]).map(Typed::into_inner)
    }

    #[test]
    fn fields_and_yaml() {
        let o =
            parse(":::{x}\n:source: A, *B*\n:level: 2\n:scores: [1, 2.5]\nbody\n:::\n").unwrap();
        assert_eq!(o.source, "A, *B*");
        assert_eq!(o.level, Some(2));
        assert_eq!(o.scores, vec![1.0, 2.5]);
        let o = parse(":::{x}\n---\nsource: hi\nscores: [3]\n---\n:::\n").unwrap();
        assert_eq!(o.source, "hi");
    }

    /// Every kind of option mistake, in both syntaxes: where the caret goes (the text
    /// under the span: the key, the directive name for a missing option, the YAML's
    /// own error position), what the message and the hint say.
    #[test]
    fn option_errors_table() {
        struct Case {
            src: &'static str,
            at: &'static str,
            message: &'static str,
            hint: &'static str,
        }
        #[rustfmt::skip]
        let cases = [
            Case { src: ":::{x}\n:sorce: A\n:::\n", at: "sorce",
                message: "unknown option `sorce` for directive `x`", hint: "did you mean `source`?" },
            Case { src: ":::{x}\n---\nsource: A\nlevle: 2\n---\n:::\n", at: "levle",
                message: "unknown option `levle` for directive `x`", hint: "did you mean `level`?" },
            Case { src: ":::{x}\n:source: A\n:level: high\n:::\n", at: "level",
                message: "option `level`", hint: "author guide" },
            Case { src: ":::{x}\n---\nsource: A\nscores: [1, x]\n---\n:::\n", at: "scores",
                message: "option `scores", hint: "author guide" },
            Case { src: ":::{x}\n:level: 2\n:::\n", at: "x",
                message: "directive `x` needs the option `source`", hint: "add a line `:source: ...`" },
            Case { src: ":::{x}\n:source: A\n:source: B\n:::\n", at: "source",
                message: "option `source` is given twice", hint: "keep one of the two lines" },
            Case { src: ":::{x}\n---\n- a\n- b\n---\n:::\n", at: "- a\n- b\n",
                message: "must be a YAML mapping", hint: "`key: value`" },
            Case { src: ":::{x}\n---\nsource: [unclosed\n---\n:::\n", at: "[",
                message: "invalid YAML in the options", hint: "options between `---` lines are YAML" },
        ];
        for case in cases {
            let src = case.src;
            let err = parse(src).unwrap_err();
            let at = src
                .get(err.span.clone())
                .unwrap_or("<not a span of the source>");
            assert_eq!(at, case.at, "span of {src:?}");
            assert!(
                err.message.contains(case.message),
                "{src:?}: {}",
                err.message
            );
            assert!(err.hint.contains(case.hint), "{src:?}: {}", err.hint);
        }
    }

    #[test]
    fn empty_and_multibyte_keys_never_split_a_character() {
        // Regression: `- {a: é, "": 1}` panicked (byte index inside `é`).
        let src = ":::{symbols}\n---\n- {a: é, \"\": 1}\n---\n:::\n";
        let (blocks, _) = find_blocks(src, 0..src.len());
        let items = raw_list(src, &blocks[0]).unwrap();
        assert_eq!(items.len(), 1);
        // Every key, every text: no panic, and a found offset is a real key position.
        let texts = [
            "",
            "é",
            "{a: é, \"\": 1}",
            "ü: 1",
            "\"\": x",
            "日本: 語",
            "a:é:",
        ];
        let keys = ["", "a", "é", "日本", ":", "\""];
        for text in texts {
            for key in keys {
                if let Some(at) = flow_key_offset(text, key) {
                    assert!(text.is_char_boundary(at) && text[at..].starts_with(key));
                }
            }
        }
    }
}
