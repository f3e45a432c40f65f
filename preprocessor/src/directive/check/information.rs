//! Checks on probabilities and information: `softmax`, `entropy`, `surprise`,
//! `cross-entropy`, `perplexity`, `log-product`.

// `Diagnostic` is the crate's error type (as in every directive); it is built only
// when an example is wrong, so its size does not matter here.
#![allow(clippy::result_large_err)]

use mathcourse_core::{info, softmax};
use serde::Deserialize;
use serde_json::Value;

use super::run::{Line, Run};
use super::tex;
use crate::diagnostic::Diagnostic;

fn one() -> f64 {
    1.0
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct SoftmaxOptions {
    scores: Vec<f64>,
    #[serde(default = "one")]
    temperature: f64,
    expect: Value,
}

#[derive(Deserialize, Clone, Copy, PartialEq, Eq)]
#[serde(rename_all = "lowercase")]
enum Unit {
    #[serde(alias = "bit")]
    Bits,
    #[serde(alias = "nat")]
    Nats,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct EntropyOptions {
    p: Vec<f64>,
    #[serde(default)]
    unit: Option<Unit>,
    expect: Value,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct SurpriseOptions {
    p: f64,
    #[serde(default)]
    unit: Option<Unit>,
    expect: Value,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct CrossEntropyOptions {
    probs: Vec<f64>,
    #[serde(default)]
    unit: Option<Unit>,
    expect: Value,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct PerplexityOptions {
    probs: Vec<f64>,
    expect: Value,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct LogProductOptions {
    values: Vec<f64>,
    #[serde(default)]
    base: Option<Value>,
    expect: Value,
}

/// The unit after a stated value: `1 bit`, `2 bits`.
fn unit_word(unit: Unit, stated_value: f64) -> (&'static str, &'static str) {
    let singular = stated_value == 1.0;
    match (unit, singular) {
        (Unit::Bits, true) => ("\\ \\text{bit}", " bit"),
        (Unit::Bits, false) => ("\\ \\text{bits}", " bits"),
        (Unit::Nats, true) => ("\\ \\text{nat}", " nat"),
        (Unit::Nats, false) => ("\\ \\text{nats}", " nats"),
    }
}

/// `\ln` / `\log_2` and their plain forms.
fn log_names(unit: Unit) -> (&'static str, &'static str) {
    match unit {
        Unit::Bits => ("\\log_2", "log₂"),
        Unit::Nats => ("\\ln", "ln"),
    }
}

/// `-\tfrac{1}{2}(\ln 0.5 + \ln 0.25)` and its plain form.
fn mean_surprise(probs: &[f64], log_tex: &str, log_text: &str) -> (String, String) {
    let terms_tex: Vec<String> = probs
        .iter()
        .map(|p| format!("{log_tex} {}", tex::input(*p)))
        .collect();
    let terms_text: Vec<String> = probs
        .iter()
        .map(|p| format!("{log_text} {}", tex::input(*p)))
        .collect();
    if probs.len() == 1 {
        (format!("-{}", terms_tex[0]), format!("−{}", terms_text[0]))
    } else {
        (
            format!(
                "-\\tfrac{{1}}{{{}}}({})",
                probs.len(),
                terms_tex.join(" + ")
            ),
            format!("−(1/{})({})", probs.len(), terms_text.join(" + ")),
        )
    }
}

/// `softmax(scores; T)`.
pub(super) fn softmax(run: &Run) -> Result<Line, Diagnostic> {
    let o: SoftmaxOptions = run.options()?;
    let c = run.core(
        softmax::softmax_with_temperature(&o.scores, o.temperature),
        if o.temperature == 1.0 {
            "scores"
        } else {
            "temperature"
        },
    )?;
    let s = run.vector(&o.expect, &c, "entry")?;
    let scores = tex::inputs(&o.scores).join(", ");
    let t = if o.temperature == 1.0 {
        String::new()
    } else {
        format!("; T = {}", tex::input(o.temperature))
    };
    Ok(Line {
        computed: Vec::new(),
        scope: Default::default(),
        tex: format!(
            "\\operatorname{{softmax}}({scores}{}) {} {}",
            t.replace("; ", ";\\ "),
            s.rel_tex(),
            s.tex
        ),
        text: format!("softmax({scores}{t}) {} {}", s.rel(), s.text),
    })
}

/// `H(p)` in bits (default) or nats.
pub(super) fn entropy(run: &Run) -> Result<Line, Diagnostic> {
    let o: EntropyOptions = run.options()?;
    let unit = o.unit.unwrap_or(Unit::Bits);
    let c = match unit {
        Unit::Bits => run.core(info::entropy_bits(&o.p), "p")?,
        Unit::Nats => run.core(info::entropy_nats(&o.p), "p")?,
    };
    let (s, n) = run.scalar(&o.expect, c)?;
    let (ut, ux) = unit_word(unit, n.value);
    let p = tex::inputs(&o.p).join(", ");
    Ok(Line {
        computed: Vec::new(),
        scope: Default::default(),
        tex: format!("H({p}) {} {}{ut}", s.rel_tex(), s.tex),
        text: format!("H({p}) {} {}{ux}", s.rel(), s.text),
    })
}

/// `−log p` in bits (default) or nats.
pub(super) fn surprise(run: &Run) -> Result<Line, Diagnostic> {
    let o: SurpriseOptions = run.options()?;
    let unit = o.unit.unwrap_or(Unit::Bits);
    let c = match unit {
        Unit::Bits => run.core(info::surprise_bits(o.p), "p")?,
        Unit::Nats => run.core(info::surprise_nats(o.p), "p")?,
    };
    let (s, n) = run.scalar(&o.expect, c)?;
    let (ut, ux) = unit_word(unit, n.value);
    let (lt, lx) = log_names(unit);
    let p = tex::input(o.p);
    Ok(Line {
        computed: Vec::new(),
        scope: Default::default(),
        tex: format!("-{lt} {p} {} {}{ut}", s.rel_tex(), s.tex),
        text: format!("−{lx} {p} {} {}{ux}", s.rel(), s.text),
    })
}

/// The mean surprise of the probabilities given to the right answers, in nats
/// (default) or bits.
pub(super) fn cross_entropy(run: &Run) -> Result<Line, Diagnostic> {
    let o: CrossEntropyOptions = run.options()?;
    let unit = o.unit.unwrap_or(Unit::Nats);
    let c = match unit {
        Unit::Bits => run.core(info::cross_entropy_bits(&o.probs), "probs")?,
        Unit::Nats => run.core(info::cross_entropy_nats(&o.probs), "probs")?,
    };
    let (s, n) = run.scalar(&o.expect, c)?;
    let (ut, ux) = unit_word(unit, n.value);
    let (lt, lx) = log_names(unit);
    let (mt, mx) = mean_surprise(&o.probs, lt, lx);
    Ok(Line {
        computed: Vec::new(),
        scope: Default::default(),
        tex: format!("{mt} {} {}{ut}", s.rel_tex(), s.tex),
        text: format!("{mx} {} {}{ux}", s.rel(), s.text),
    })
}

/// `exp` of the mean surprise in nats.
pub(super) fn perplexity(run: &Run) -> Result<Line, Diagnostic> {
    let o: PerplexityOptions = run.options()?;
    let c = run.core(info::perplexity(&o.probs), "probs")?;
    let (s, _) = run.scalar(&o.expect, c)?;
    let (mt, mx) = mean_surprise(&o.probs, "\\ln", "ln");
    Ok(Line {
        computed: Vec::new(),
        scope: Default::default(),
        tex: format!("\\exp\\bigl({mt}\\bigr) {} {}", s.rel_tex(), s.tex),
        text: format!("exp({mx}) {} {}", s.rel(), s.text),
    })
}

/// `log(v₁ · v₂ · …) = log v₁ + log v₂ + …`, base `e` (default), 2 or 10.
pub(super) fn log_product(run: &Run) -> Result<Line, Diagnostic> {
    let o: LogProductOptions = run.options()?;
    let base = match &o.base {
        None => 0,
        Some(Value::String(s)) if s.trim() == "e" => 0,
        Some(Value::Number(n)) if n.as_f64() == Some(2.0) => 2,
        Some(Value::Number(n)) if n.as_f64() == Some(10.0) => 10,
        Some(Value::String(s)) if s.trim() == "2" => 2,
        Some(Value::String(s)) if s.trim() == "10" => 10,
        Some(other) => {
            return Err(run
                .cx
                .report
                .error(
                    run.span("base"),
                    format!("unsupported logarithm base `{other}`"),
                )
                .with_label("here")
                .with_hint("`base` is `e` (the default), `2` or `10`"))
        }
    };
    let ln = run.core(info::log_of_product(&o.values), "values")?;
    let c = match base {
        2 => ln / std::f64::consts::LN_2,
        10 => ln / std::f64::consts::LN_10,
        _ => ln,
    };
    let (s, _) = run.scalar(&o.expect, c)?;
    let (lt, lx) = match base {
        2 => ("\\log_2", "log₂"),
        10 => ("\\log_{10}", "log₁₀"),
        _ => ("\\ln", "ln"),
    };
    let values: Vec<String> = o.values.iter().map(|v| tex::input(*v)).collect();
    Ok(Line {
        computed: Vec::new(),
        scope: Default::default(),
        tex: format!(
            "{lt}({}) = {} {} {}",
            values.join(" \\cdot "),
            values
                .iter()
                .map(|v| format!("{lt} {v}"))
                .collect::<Vec<_>>()
                .join(" + "),
            s.rel_tex(),
            s.tex
        ),
        text: format!(
            "{lx}({}) = {} {} {}",
            values.join(" · "),
            values
                .iter()
                .map(|v| format!("{lx} {v}"))
                .collect::<Vec<_>>()
                .join(" + "),
            s.rel(),
            s.text
        ),
    })
}
