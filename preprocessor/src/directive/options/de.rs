//! A serde `Deserializer` over a JSON value whose error type keeps serde's facts apart
//! (an unknown key with the struct's list of keys, a missing key), so diagnostics are
//! built from them instead of from message text.
//!
//! It behaves as `serde_json::Value`'s own deserializer (same visits, same wording of
//! length errors), so every options struct reads the same values as before.

use std::fmt;

use serde::de::value::MapAccessDeserializer;
use serde::de::{
    self, DeserializeSeed, IntoDeserializer, MapAccess, SeqAccess, Unexpected, Visitor,
};
use serde_json::{Map, Value};

/// Why options did not deserialize.
#[derive(Debug, Clone, PartialEq)]
pub enum Problem {
    /// A key the struct does not have; `expected` is the struct's own list of keys.
    UnknownField {
        /// The key as written.
        field: String,
        /// Every key the struct accepts (empty: it takes none).
        expected: &'static [&'static str],
    },
    /// A required key is not written.
    MissingField(&'static str),
    /// Anything else (wrong type, bad value), in serde's words.
    Other(String),
}

impl fmt::Display for Problem {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Problem::UnknownField {
                field,
                expected: [],
            } => write!(f, "unknown field `{field}`, there are no fields"),
            Problem::UnknownField { field, expected } => {
                write!(
                    f,
                    "unknown field `{field}`, expected {}",
                    crate::diagnostic::one_of(expected)
                )
            }
            Problem::MissingField(field) => write!(f, "missing field `{field}`"),
            Problem::Other(message) => f.write_str(message),
        }
    }
}

impl std::error::Error for Problem {}

impl de::Error for Problem {
    fn custom<M: fmt::Display>(msg: M) -> Self {
        Problem::Other(msg.to_string())
    }

    fn unknown_field(field: &str, expected: &'static [&'static str]) -> Self {
        Problem::UnknownField {
            field: field.to_string(),
            expected,
        }
    }

    fn missing_field(field: &'static str) -> Self {
        Problem::MissingField(field)
    }
}

/// A borrowed JSON value as a deserializer.
#[derive(Clone, Copy)]
struct ValueDe<'a>(&'a Value);

/// A borrowed JSON object as a deserializer: the options, without cloning them into a
/// `Value` first.
#[derive(Clone, Copy)]
pub struct ObjectDe<'a>(pub &'a Map<String, Value>);

fn unexpected(v: &Value) -> Unexpected<'_> {
    match v {
        Value::Null => Unexpected::Unit,
        Value::Bool(b) => Unexpected::Bool(*b),
        Value::Number(n) => match (n.as_u64(), n.as_i64()) {
            (Some(u), _) => Unexpected::Unsigned(u),
            (None, Some(i)) => Unexpected::Signed(i),
            _ => Unexpected::Float(n.as_f64().unwrap_or(f64::NAN)),
        },
        Value::String(s) => Unexpected::Str(s),
        Value::Array(_) => Unexpected::Seq,
        Value::Object(_) => Unexpected::Map,
    }
}

struct Seq<'a> {
    iter: std::slice::Iter<'a, Value>,
}

impl<'de, 'a> SeqAccess<'de> for Seq<'a> {
    type Error = Problem;

    fn next_element_seed<S: DeserializeSeed<'de>>(
        &mut self,
        seed: S,
    ) -> Result<Option<S::Value>, Problem> {
        self.iter
            .next()
            .map(|v| seed.deserialize(ValueDe(v)))
            .transpose()
    }

    fn size_hint(&self) -> Option<usize> {
        Some(self.iter.len())
    }
}

struct Entries<'a> {
    iter: serde_json::map::Iter<'a>,
    value: Option<&'a Value>,
}

impl<'de, 'a> MapAccess<'de> for Entries<'a> {
    type Error = Problem;

    fn next_key_seed<K: DeserializeSeed<'de>>(
        &mut self,
        seed: K,
    ) -> Result<Option<K::Value>, Problem> {
        match self.iter.next() {
            Some((k, v)) => {
                self.value = Some(v);
                seed.deserialize(k.as_str().into_deserializer()).map(Some)
            }
            None => Ok(None),
        }
    }

    fn next_value_seed<V: DeserializeSeed<'de>>(&mut self, seed: V) -> Result<V::Value, Problem> {
        match self.value.take() {
            Some(v) => seed.deserialize(ValueDe(v)),
            None => Err(de::Error::custom("value is missing")),
        }
    }

    fn size_hint(&self) -> Option<usize> {
        Some(self.iter.len())
    }
}

fn visit_array<'de, V: Visitor<'de>>(items: &[Value], visitor: V) -> Result<V::Value, Problem> {
    let mut seq = Seq { iter: items.iter() };
    let out = visitor.visit_seq(&mut seq)?;
    match seq.iter.len() {
        0 => Ok(out),
        _ => Err(de::Error::invalid_length(
            items.len(),
            &"fewer elements in array",
        )),
    }
}

fn visit_object<'de, V: Visitor<'de>>(
    map: &Map<String, Value>,
    visitor: V,
) -> Result<V::Value, Problem> {
    let mut entries = Entries {
        iter: map.iter(),
        value: None,
    };
    let out = visitor.visit_map(&mut entries)?;
    match entries.iter.len() {
        0 => Ok(out),
        _ => Err(de::Error::invalid_length(
            map.len(),
            &"fewer elements in map",
        )),
    }
}

impl<'de, 'a> de::Deserializer<'de> for ValueDe<'a> {
    type Error = Problem;

    fn deserialize_any<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, Problem> {
        match self.0 {
            Value::Null => visitor.visit_unit(),
            Value::Bool(b) => visitor.visit_bool(*b),
            Value::Number(n) => match (n.as_u64(), n.as_i64(), n.as_f64()) {
                (Some(u), _, _) => visitor.visit_u64(u),
                (None, Some(i), _) => visitor.visit_i64(i),
                (None, None, f) => visitor.visit_f64(f.unwrap_or(f64::NAN)),
            },
            Value::String(s) => visitor.visit_str(s),
            Value::Array(items) => visit_array(items, visitor),
            Value::Object(map) => visit_object(map, visitor),
        }
    }

    fn deserialize_option<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, Problem> {
        match self.0 {
            Value::Null => visitor.visit_none(),
            _ => visitor.visit_some(self),
        }
    }

    fn deserialize_newtype_struct<V: Visitor<'de>>(
        self,
        _name: &'static str,
        visitor: V,
    ) -> Result<V::Value, Problem> {
        visitor.visit_newtype_struct(self)
    }

    fn deserialize_enum<V: Visitor<'de>>(
        self,
        _name: &'static str,
        _variants: &'static [&'static str],
        visitor: V,
    ) -> Result<V::Value, Problem> {
        match self.0 {
            Value::String(s) => visitor.visit_enum(s.as_str().into_deserializer()),
            Value::Object(map) if map.len() == 1 => {
                visitor.visit_enum(MapAccessDeserializer::new(Entries {
                    iter: map.iter(),
                    value: None,
                }))
            }
            Value::Object(_) => Err(de::Error::invalid_value(
                Unexpected::Map,
                &"map with a single key",
            )),
            other => Err(de::Error::invalid_type(unexpected(other), &"string or map")),
        }
    }

    fn deserialize_ignored_any<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, Problem> {
        visitor.visit_unit()
    }

    serde::forward_to_deserialize_any! {
        bool i8 i16 i32 i64 i128 u8 u16 u32 u64 u128 f32 f64 char str string
        bytes byte_buf unit unit_struct seq tuple tuple_struct map struct identifier
    }
}

impl<'de, 'a> IntoDeserializer<'de, Problem> for ValueDe<'a> {
    type Deserializer = Self;

    fn into_deserializer(self) -> Self {
        self
    }
}

impl<'de, 'a> de::Deserializer<'de> for ObjectDe<'a> {
    type Error = Problem;

    fn deserialize_any<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, Problem> {
        visit_object(self.0, visitor)
    }

    serde::forward_to_deserialize_any! {
        bool i8 i16 i32 i64 i128 u8 u16 u32 u64 u128 f32 f64 char str string
        bytes byte_buf option unit unit_struct newtype_struct seq tuple tuple_struct
        map struct enum identifier ignored_any
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde::Deserialize;

    #[derive(Deserialize, Debug, PartialEq)]
    #[serde(deny_unknown_fields, rename_all = "kebab-case")]
    struct Opts {
        a_shape: [usize; 2],
        #[serde(default)]
        unit: Option<Unit>,
    }

    #[derive(Deserialize, Debug, PartialEq)]
    #[serde(rename_all = "lowercase")]
    enum Unit {
        #[serde(alias = "bit")]
        Bits,
    }

    fn read(json: &str) -> Result<Opts, Problem> {
        let Value::Object(map) = serde_json::from_str(json).unwrap() else {
            panic!("not an object")
        };
        Opts::deserialize(ObjectDe(&map))
    }

    /// The facts diagnostics need arrive as data; other errors read as
    /// `serde_json::Value`'s do.
    #[test]
    fn problems_are_data_and_values_read_as_serde_json_reads_them() {
        assert_eq!(
            read(r#"{"a-shape": [2, 3], "unit": "bit"}"#).unwrap(),
            Opts {
                a_shape: [2, 3],
                unit: Some(Unit::Bits)
            }
        );
        assert_eq!(
            read(r#"{"a-shap": [2, 3]}"#).unwrap_err(),
            Problem::UnknownField {
                field: "a-shap".into(),
                expected: &["a-shape", "unit"]
            }
        );
        assert_eq!(read("{}").unwrap_err(), Problem::MissingField("a-shape"));
        for json in [
            r#"{"a-shape": [2, 3, 4]}"#,
            r#"{"a-shape": [2, "x"]}"#,
            r#"{"a-shape": [2, 3], "unit": 7}"#,
            r#"{"a-shape": [2, 3], "unit": "bytes"}"#,
        ] {
            let ours = read(json).unwrap_err().to_string();
            let theirs = serde_json::from_str::<Value>(json)
                .and_then(Opts::deserialize)
                .unwrap_err()
                .to_string();
            assert_eq!(ours, theirs, "{json}");
        }
    }
}
