//! Author parameters: [`Params`] (an object of [`Value`]s) and typed getters whose
//! errors name the parameter.

use crate::{put, text};
use std::fmt;

use crate::json::{parse_json, Value};
use crate::number::fmt_num;

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
            message: { text!("unknown widget `" p(name) "`") },
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
            put!(s; "parameter `" p(&self.param) "`: ");
        }
        put!(s; p(&self.message));
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
                    message: { text!("unknown parameter `" p(k) "`") },
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
                    Err(ParamError::new(
                        name,
                        text!(
                            p(fmt_num(*x)) " is out of range: must be between " p(fmt_num(min)) " and "
                            p(fmt_num(max))
                        ),
                    ))
                } else {
                    Ok(*x)
                }
            }
            Some(v) => Err(ParamError::new(
                name,
                text!("expected a number, found " p(v.describe())),
            )),
        }
    }

    /// A whole number in `[min, max]`.
    pub fn int(&self, name: &str, default: i64, min: i64, max: i64) -> Result<i64, ParamError> {
        let x = self.num(name, default as f64, min as f64, max as f64)?;
        if x.fract() != 0.0 {
            return Err(ParamError::new(
                name,
                text!("expected a whole number, found " p(fmt_num(x))),
            ));
        }
        Ok(x as i64)
    }

    /// A boolean.
    pub fn bool(&self, name: &str, default: bool) -> Result<bool, ParamError> {
        match self.get(name) {
            None | Some(Value::Null) => Ok(default),
            Some(Value::Bool(b)) => Ok(*b),
            Some(v) => Err(ParamError::new(
                name,
                text!("expected true or false, found " p(v.describe())),
            )),
        }
    }

    /// A text.
    pub fn text(&self, name: &str, default: &str) -> Result<String, ParamError> {
        match self.get(name) {
            None | Some(Value::Null) => Ok(default.to_string()),
            Some(Value::Text(s)) => Ok(s.clone()),
            Some(Value::Num(x)) => Ok(fmt_num(*x)),
            Some(v) => Err(ParamError::new(
                name,
                text!("expected text, found " p(v.describe())),
            )),
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
                return Err(ParamError::new(
                    name,
                    text!("expected a list of numbers like [1, 2], found " p(v.describe())),
                ))
            }
        };
        if list.len() < min_len || list.len() > max_len {
            return Err(ParamError::new(
                name,
                text!("expected " p(range_text(min_len, max_len)) " numbers, found " p(list.len())),
            ));
        }
        list.iter()
            .enumerate()
            .map(|(i, v)| match v {
                Value::Num(x) if x.is_finite() && *x >= min && *x <= max => Ok(*x),
                Value::Num(x) => Err(ParamError::new(
                    name,
                    text!(
                        "entry " p(i + 1) " is " p(fmt_num(*x)) ", outside " p(fmt_num(min)) ".."
                        p(fmt_num(max))
                    ),
                )),
                other => Err(ParamError::new(
                    name,
                    text!("entry " p(i + 1) " should be a number, found " p(other.describe())),
                )),
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
                return Err(ParamError::new(
                    name,
                    text!("expected a list like [a, b], found " p(v.describe())),
                ))
            }
        };
        if list.len() < min_len || list.len() > max_len {
            return Err(ParamError::new(
                name,
                text!("expected " p(range_text(min_len, max_len)) " items, found " p(list.len())),
            ));
        }
        list.iter()
            .enumerate()
            .map(|(i, v)| match v {
                Value::Text(s) => Ok(s.clone()),
                Value::Num(x) => Ok(fmt_num(*x)),
                other => Err(ParamError::new(
                    name,
                    text!("entry " p(i + 1) " should be text, found " p(other.describe())),
                )),
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
            return Err(ParamError::new(
                name,
                text!(
                    "has " p(labels.len()) " entries but `" p(of) "` has " p(n) "; give one label per "
                    p(per)
                ),
            ));
        }
        if let Some(i) = labels.iter().position(|l| crate::fmt::trim(l).is_empty()) {
            return Err(ParamError::new(name, text!("entry " p(i + 1) " is empty")));
        }
        Ok(Some(labels))
    }
}

fn range_text(min: usize, max: usize) -> String {
    if min == max {
        text!("exactly " p(min))
    } else {
        text!(p(min) " to " p(max))
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
