//! Helpers shared by the unit tests.

use crate::token::{tokenize, Kind, Role, Tok};
use crate::{tag, Pattern, Tagged};

pub(crate) fn pats(list: &[(&str, &str)]) -> Vec<Pattern> {
    list.iter()
        .map(|(id, tex)| Pattern {
            id: id.to_string(),
            tex: tex.to_string(),
        })
        .collect()
}

pub(crate) fn undefined_texts(t: &Tagged) -> Vec<&str> {
    t.undefined.iter().map(|u| u.text.as_str()).collect()
}

pub(crate) fn tex(formula: &str, list: &[(&str, &str)]) -> String {
    tag(formula, &pats(list)).tex
}

/// A token outside any argument: a control word when it starts with `\`, else a char.
pub(crate) fn plain_tok(text: &str) -> Tok {
    Tok {
        text: text.into(),
        kind: if text.starts_with('\\') {
            Kind::Word
        } else {
            Kind::Char
        },
        range: None,
        role: Role::Plain,
        delta: 0,
        opaque: false,
        locked: false,
        delim: false,
        arg_start: false,
    }
}

/// Removes every `\htmlData{mc-sym=...}{` wrapper (and its closing brace).
pub(crate) fn strip_wrappers(tex: &str) -> String {
    let toks = tokenize(tex);
    let mut out = String::new();
    let mut stack: Vec<bool> = Vec::new();
    let mut i = 0;
    while i < toks.len() {
        let t = &toks[i];
        if t.text == r"\htmlData" {
            let rest: String = toks[i + 1..]
                .iter()
                .take(64)
                .map(|t| t.text.as_str())
                .collect();
            if rest.starts_with("{mc-sym=") {
                let close = (i + 1..toks.len()).find(|&j| toks[j].text == "}");
                if let Some(j) = close {
                    assert_eq!(toks.get(j + 1).map(|t| t.text.as_str()), Some("{"));
                    stack.push(true);
                    i = j + 2;
                    continue;
                }
            }
        }
        if t.kind == Kind::Char && t.text == "{" {
            stack.push(false);
        } else if t.kind == Kind::Char && t.text == "}" && stack.pop() == Some(true) {
            i += 1;
            continue;
        }
        out.push_str(&t.text);
        i += 1;
    }
    assert!(!stack.contains(&true), "unclosed wrapper in {tex}");
    out
}
