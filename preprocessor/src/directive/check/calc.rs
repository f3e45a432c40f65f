//! `{check} calc`, the general check, and the inline role `` {calc}`…` ``.
//!
//! ```text
//! :::{check} calc
//! lines:
//!   - x = [1, 2, 3]
//!   - mu = mean(x)
//!   - var = mean((x - mu)^2)
//! expect:
//!   mu: 2
//!   var: 0.667
//! :::
//! ```
//!
//! Each line defines a value (`mu = …`) or a function (`f(x) = …`) in the core's
//! general expression grammar ([`Expr::parse_general`]); a line may use only the
//! names defined above it, so there is no recursion. Values are numbers or vectors:
//! arithmetic and the core's one-argument functions work entry by entry, a number
//! combines with every entry of a vector, and the built-in functions of [`BUILTINS`]
//! reduce or transform vectors. Every name under `expect` is compared with the
//! precision written, as in every other check.
//!
//! The evaluator is here, not in `mathcourse-core`, because only the build needs
//! vectors of values; the widgets evaluate compiled scalar programs.

use std::collections::HashMap;
use std::ops::Range;

use mathcourse_core::expr::{name_uses, parse_definition, Expr, Function};
use mathcourse_core::round::matches_stated;
use mathcourse_core::{softmax, stats, vector, CoreError};
use serde_json::Value;

use super::stated::{self, Num, Stated};
use super::{exact, fmt_computed, fmt_rounded, precision, tex, Line, Run};
use crate::diagnostic::Diagnostic;
use crate::directive::options;
use crate::directive::Cx;

/// The functions `calc` adds to the core's (`sin`, `sqrt`, … work entry by entry).
pub const BUILTINS: &[(&str, &str)] = &[
    ("sum", "the sum of a vector's entries"),
    ("mean", "the mean of a vector's entries"),
    ("variance", "the population variance (divides by n)"),
    ("std", "the population standard deviation"),
    ("norm", "the Euclidean length of a vector"),
    ("dot", "the dot product of two vectors"),
    ("len", "the number of entries"),
    ("softmax", "the softmax of a vector of scores"),
    (
        "min",
        "the smallest of the arguments, or of a vector's entries",
    ),
    (
        "max",
        "the largest of the arguments, or of a vector's entries",
    ),
];

/// Node evaluations allowed for one check, so that functions calling each other
/// many times over cannot stall the build.
const FUEL: usize = 1_000_000;

/// A value: a number or a vector.
#[derive(Debug, Clone, PartialEq)]
pub enum Val {
    /// A number.
    Scalar(f64),
    /// A vector.
    Vector(Vec<f64>),
}

impl Val {
    fn describe(&self) -> String {
        match self {
            Val::Scalar(_) => "a number".into(),
            Val::Vector(v) => format!("a vector of {} entries", v.len()),
        }
    }
}

/// Why a value could not be computed.
#[derive(Debug, Clone, PartialEq)]
pub struct EvalError(pub String);

type Eval<T> = Result<T, EvalError>;

/// Names defined so far: values and functions.
#[derive(Default)]
pub struct Env {
    values: HashMap<String, Val>,
    functions: HashMap<String, (Vec<String>, Expr)>,
    fuel: usize,
}

impl Env {
    fn new() -> Self {
        Env {
            fuel: FUEL,
            ..Env::default()
        }
    }

    /// The value of `e`, with `locals` (a function's parameters) in front.
    fn eval(&mut self, e: &Expr, locals: &[(String, Val)]) -> Eval<Val> {
        if self.fuel == 0 {
            return Err(EvalError(
                "this takes too many steps to compute (functions calling each other many times)"
                    .into(),
            ));
        }
        self.fuel -= 1;
        Ok(match e {
            Expr::Number(n) => Val::Scalar(*n),
            Expr::Constant(c) => Val::Scalar(c.value()),
            Expr::Variable(name) => locals
                .iter()
                .find(|(n, _)| n == name)
                .map(|(_, v)| v.clone())
                .or_else(|| self.values.get(name).cloned())
                .ok_or_else(|| EvalError(format!("`{name}` is not defined above")))?,
            Expr::Neg(a) => map(self.eval(a, locals)?, |x| -x),
            Expr::Binary(op, a, b) => {
                let (a, b) = (self.eval(a, locals)?, self.eval(b, locals)?);
                binary(a, b, |x, y| op.apply(x, y))?
            }
            Expr::Call(f, a) => {
                let f = *f;
                map(self.eval(a, locals)?, |x| f.apply(x))
            }
            Expr::Vector(items) => {
                let mut out = Vec::with_capacity(items.len());
                for item in items {
                    match self.eval(item, locals)? {
                        Val::Scalar(x) => out.push(x),
                        Val::Vector(_) => {
                            return Err(EvalError(
                                "a vector's entries must be numbers, not vectors".into(),
                            ))
                        }
                    }
                }
                Val::Vector(out)
            }
            Expr::Apply(name, args) => {
                let mut values = Vec::with_capacity(args.len());
                for a in args {
                    values.push(self.eval(a, locals)?);
                }
                self.call(name, values)?
            }
        })
    }

    fn call(&mut self, name: &str, args: Vec<Val>) -> Eval<Val> {
        if let Some((params, body)) = self.functions.get(name).cloned() {
            if params.len() != args.len() {
                return Err(EvalError(format!(
                    "`{name}` takes {} argument{}, given {}",
                    params.len(),
                    if params.len() == 1 { "" } else { "s" },
                    args.len()
                )));
            }
            let locals: Vec<(String, Val)> = params.into_iter().zip(args).collect();
            return self.eval(&body, &locals);
        }
        builtin(name, args)
    }
}

fn map(v: Val, f: impl Fn(f64) -> f64) -> Val {
    match v {
        Val::Scalar(x) => Val::Scalar(f(x)),
        Val::Vector(xs) => Val::Vector(xs.into_iter().map(f).collect()),
    }
}

fn binary(a: Val, b: Val, f: impl Fn(f64, f64) -> f64) -> Eval<Val> {
    Ok(match (a, b) {
        (Val::Scalar(x), Val::Scalar(y)) => Val::Scalar(f(x, y)),
        (Val::Scalar(x), Val::Vector(ys)) => Val::Vector(ys.into_iter().map(|y| f(x, y)).collect()),
        (Val::Vector(xs), Val::Scalar(y)) => Val::Vector(xs.into_iter().map(|x| f(x, y)).collect()),
        (Val::Vector(xs), Val::Vector(ys)) => {
            if xs.len() != ys.len() {
                return Err(EvalError(format!(
                    "the vectors have {} and {} entries; entry-by-entry arithmetic needs the same length",
                    xs.len(),
                    ys.len()
                )));
            }
            Val::Vector(xs.into_iter().zip(ys).map(|(x, y)| f(x, y)).collect())
        }
    })
}

fn core<T>(name: &str, r: mathcourse_core::Result<T>) -> Eval<T> {
    r.map_err(|e| EvalError(format!("`{name}`: {e}")))
}

fn builtin(name: &str, mut args: Vec<Val>) -> Eval<Val> {
    let one_vector = |args: &mut Vec<Val>| -> Eval<Vec<f64>> {
        match (args.len(), args.pop()) {
            (1, Some(Val::Vector(v))) => Ok(v),
            (1, Some(Val::Scalar(x))) => Ok(vec![x]),
            (n, _) => Err(EvalError(format!(
                "`{name}` takes one vector, given {n} arguments"
            ))),
        }
    };
    Ok(match name {
        "sum" => Val::Scalar(one_vector(&mut args)?.iter().sum()),
        "mean" => Val::Scalar(core(name, stats::mean(&one_vector(&mut args)?))?),
        "variance" => Val::Scalar(core(name, stats::variance(&one_vector(&mut args)?))?),
        "std" => Val::Scalar(core(name, stats::std_dev(&one_vector(&mut args)?))?),
        "norm" => Val::Scalar(core(name, vector::norm(&one_vector(&mut args)?))?),
        "len" => Val::Scalar(one_vector(&mut args)?.len() as f64),
        "softmax" => Val::Vector(core(name, softmax::softmax(&one_vector(&mut args)?))?),
        "dot" => match args.as_slice() {
            [Val::Vector(a), Val::Vector(b)] => Val::Scalar(core(name, vector::dot(a, b))?),
            _ => {
                return Err(EvalError(format!(
                    "`dot` takes two vectors, given {}",
                    args.iter()
                        .map(Val::describe)
                        .collect::<Vec<_>>()
                        .join(" and ")
                )))
            }
        },
        "min" | "max" => {
            let xs: Vec<f64> = match args.as_slice() {
                [Val::Vector(v)] => v.clone(),
                _ if args.iter().all(|a| matches!(a, Val::Scalar(_))) => args
                    .iter()
                    .filter_map(|a| match a {
                        Val::Scalar(x) => Some(*x),
                        Val::Vector(_) => None,
                    })
                    .collect(),
                _ => return Err(EvalError(format!("`{name}` takes numbers, or one vector"))),
            };
            if xs.is_empty() {
                return Err(EvalError(format!("`{name}` of nothing")));
            }
            let pick = if name == "min" { f64::min } else { f64::max };
            Val::Scalar(xs.iter().copied().fold(xs[0], pick))
        }
        _ => {
            return Err(EvalError(format!(
                "`{name}` is not a function defined above"
            )))
        }
    })
}

fn finite(v: &Val) -> bool {
    match v {
        Val::Scalar(x) => x.is_finite(),
        Val::Vector(xs) => xs.iter().all(|x| x.is_finite()),
    }
}

/// What a name is, for checking uses before evaluating.
#[derive(Clone, Copy, PartialEq)]
enum Kind {
    Value,
    Function,
}

/// The names a line may use: everything defined above, plus the built-ins.
struct Names {
    defined: Vec<(String, Kind)>,
}

impl Names {
    fn kind(&self, name: &str) -> Option<Kind> {
        self.defined
            .iter()
            .rev()
            .find(|(n, _)| n == name)
            .map(|(_, k)| *k)
    }

    fn candidates(&self, kind: Kind, params: &[String]) -> String {
        let mut names: Vec<String> = self
            .defined
            .iter()
            .filter(|(_, k)| *k == kind)
            .map(|(n, _)| n.clone())
            .collect();
        if kind == Kind::Function {
            names.extend(BUILTINS.iter().map(|(n, _)| n.to_string()));
            names.extend(Function::ALL.iter().map(|f| f.name().to_string()));
        } else {
            names.extend(params.iter().cloned());
        }
        names
            .iter()
            .map(|n| format!("`{n}`"))
            .collect::<Vec<_>>()
            .join(", ")
    }
}

/// Checks that every name used on a line (in `text`, from byte `from` on) is
/// defined; returns the offending name's offset and a message with a hint.
fn check_names(
    text: &str,
    from: usize,
    params: &[String],
    names: &Names,
    in_lines: bool,
) -> Result<(), (usize, String, String, String)> {
    let Ok(uses) = name_uses(text) else {
        return Ok(());
    };
    for u in uses.into_iter().filter(|u| u.position >= from) {
        let is_builtin = BUILTINS.iter().any(|(n, _)| *n == u.name);
        if u.called {
            match names.kind(&u.name) {
                Some(Kind::Function) => continue,
                None if is_builtin => continue,
                Some(Kind::Value) => {
                    return Err((
                        u.position,
                        u.name.clone(),
                        format!("`{}` is a value, not a function", u.name),
                        format!(
                            "multiply with `*`, e.g. `{} * (…)`, or define a function `{}(x) = …` above",
                            u.name, u.name
                        ),
                    ))
                }
                None => {
                    let list = names.candidates(Kind::Function, params);
                    return Err((
                        u.position,
                        u.name.clone(),
                        format!("unknown function `{}`", u.name),
                        if in_lines {
                            format!(
                                "define it on a line above, `{}(x) = …`, or use a built-in function{}",
                                u.name,
                                options::did_you_mean(&u.name, &list)
                            )
                        } else {
                            format!(
                                "use a built-in function: sqrt exp ln sin cos sum mean variance std norm dot len softmax min max{}",
                                options::did_you_mean(&u.name, &list)
                            )
                        },
                    ));
                }
            }
        }
        if params.contains(&u.name) || names.kind(&u.name) == Some(Kind::Value) {
            continue;
        }
        if names.kind(&u.name) == Some(Kind::Function) || is_builtin {
            return Err((
                u.position,
                u.name.clone(),
                format!("`{}` is a function; call it", u.name),
                format!("write `{}(…)` with its arguments", u.name),
            ));
        }
        let list = names.candidates(Kind::Value, params);
        return Err((
            u.position,
            u.name.clone(),
            format!("unknown name `{}`", u.name),
            if in_lines {
                format!(
                    "a line may use only the names defined on the lines above it{}",
                    options::did_you_mean(&u.name, &list)
                )
            } else {
                "an inline `{calc}` uses numbers, `pi`, `e` and functions only; for names, use a `{check} calc` block".to_string()
            },
        ));
    }
    Ok(())
}

/// One line as written.
struct Written {
    text: String,
    /// Where `text` starts in the chapter source, when it could be found there.
    at: Option<usize>,
}

fn written_lines(value: &Value, source: &str, span: Range<usize>) -> Option<Vec<Written>> {
    let texts: Vec<String> = match value {
        Value::Array(items) => items
            .iter()
            .map(|i| match i {
                Value::String(s) => Some(s.clone()),
                Value::Number(n) => Some(n.to_string()),
                _ => None,
            })
            .collect::<Option<_>>()?,
        Value::String(s) => s
            .split(['\n', ';'])
            .map(str::to_string)
            .filter(|l| !l.trim().is_empty())
            .collect(),
        _ => return None,
    };
    let mut cursor = span.start;
    Some(
        texts
            .into_iter()
            .map(|text| {
                let text = text.trim().to_string();
                let at = source
                    .get(cursor..span.end)
                    .and_then(|s| s.find(&text))
                    .map(|i| cursor + i);
                if let Some(at) = at {
                    cursor = at + text.len();
                }
                Written { text, at }
            })
            .collect(),
    )
}

/// The part of `text` at `position` that a caret should cover: the name or number
/// there, else one character.
fn token_len(text: &str, position: usize) -> usize {
    let rest = text.get(position..).unwrap_or("");
    let word: usize = rest
        .chars()
        .take_while(|c| c.is_alphanumeric() || *c == '_' || *c == '.')
        .map(char::len_utf8)
        .sum();
    if word > 0 {
        word
    } else {
        rest.chars().next().map_or(0, char::len_utf8)
    }
}

/// One evaluated line, for the computation shown.
struct Done {
    name: String,
    lhs_tex: String,
    rhs_tex: String,
    text: String,
    value: Option<Val>,
}

/// Added to a position to mean "from there to the end of the line".
const RHS: usize = 1 << 30;

const HINT: &str = "write `name = expression` (a value) or `f(x) = expression` (a function) with + - * / ^, numbers, vectors `[1, 2, 3]`, the names defined above, and functions such as sqrt exp ln sum mean variance std norm dot softmax min max";

/// Runs a `calc` check.
pub(super) fn run(run: &Run) -> Result<Line, Diagnostic> {
    let cx = run.cx;
    for key in run.raw.value.keys() {
        if key != "lines" && key != "expect" {
            let span = run
                .raw
                .key_spans
                .get(key)
                .cloned()
                .unwrap_or_else(|| run.block.opener.clone());
            return Err(cx
                .error(span, format!("unknown option `{key}` of `{{check}} calc`"))
                .with_label("not an option of `calc`")
                .with_hint(format!(
                    "`calc` takes `lines` and `expect`{}",
                    options::did_you_mean(key, "`lines`, `expect`")
                )));
        }
    }
    let Some(lines_value) = run.raw.value.get("lines") else {
        return Err(cx
            .error(run.block.opener.clone(), "`{check} calc` needs `lines`")
            .with_label("no `lines` option")
            .with_hint("list the computation, one definition per line:\nlines:\n  - mu = (1 + 2 + 3)/3\nexpect:\n  mu: 2"));
    };
    let lines_span = run.span("lines");
    let Some(lines) = written_lines(lines_value, &cx.source, lines_span.clone()) else {
        return Err(cx
            .error(lines_span, "`lines` must be a list of definitions")
            .with_label("not a list of text lines")
            .with_hint(HINT));
    };
    if lines.is_empty() {
        return Err(cx.error(lines_span, "`lines` is empty").with_hint(HINT));
    }
    let line_err =
        |line: &Written, position: Option<usize>, message: String, label: String, hint: String| {
            let span = match (line.at, position) {
                (Some(at), Some(p)) if p >= RHS => {
                    // The whole right-hand side, from `p - RHS` on.
                    let p = (p - RHS).min(line.text.len());
                    at + p..at + line.text.len()
                }
                (Some(at), Some(p)) => {
                    let p = p.min(line.text.len());
                    at + p..at + p + token_len(&line.text, p)
                }
                (Some(at), None) => at..at + line.text.len(),
                (None, _) => lines_span.clone(),
            };
            cx.error(span, message).with_label(label).with_hint(hint)
        };

    let mut env = Env::new();
    let mut names = Names {
        defined: Vec::new(),
    };
    let mut done: Vec<Done> = Vec::new();
    let mut first_at: HashMap<String, Option<usize>> = HashMap::new();
    for line in &lines {
        let def = parse_definition(&line.text).map_err(|e| match e {
            CoreError::Syntax { position, message } => line_err(
                line,
                Some(position),
                "invalid line in `lines`".into(),
                message,
                HINT.into(),
            ),
            other => line_err(
                line,
                None,
                "invalid line in `lines`".into(),
                other.to_string(),
                HINT.into(),
            ),
        })?;
        if BUILTINS.iter().any(|(n, _)| *n == def.name) {
            return Err(line_err(
                line,
                Some(0),
                format!("`{}` is a built-in function", def.name),
                "cannot be redefined".into(),
                "choose another name".into(),
            ));
        }
        if let Some(previous) = first_at.get(&def.name) {
            let first = previous.map_or(String::new(), |p| {
                let (l, _) = crate::diagnostic::line_col(&cx.source, p);
                format!(" (first on line {l})")
            });
            return Err(line_err(
                line,
                Some(0),
                format!("`{}` is defined twice", def.name),
                format!("defined again here{first}"),
                "give each line its own name".into(),
            ));
        }
        if let Err((position, _, message, hint)) =
            check_names(&line.text, def.body_start, &def.params, &names, true)
        {
            return Err(line_err(
                line,
                Some(position),
                message,
                "used here".into(),
                hint,
            ));
        }
        first_at.insert(def.name.clone(), line.at);
        let params: Vec<String> = def.params.clone();
        let lhs_tex = if params.is_empty() {
            tex::name(&def.name)
        } else {
            format!(
                "{}({})",
                tex::name(&def.name),
                params
                    .iter()
                    .map(|p| tex::name(p))
                    .collect::<Vec<_>>()
                    .join(", ")
            )
        };
        let rhs_tex = tex::expr(&def.body);
        let value = if params.is_empty() {
            let v = env.eval(&def.body, &[]).map_err(|e| {
                line_err(
                    line,
                    Some(RHS + def.body_start + leading_space(&line.text[def.body_start..])),
                    format!("cannot compute `{}`", def.name),
                    e.0,
                    HINT.into(),
                )
            })?;
            if !finite(&v) {
                return Err(line_err(
                    line,
                    None,
                    format!("`{}` is not a finite number", def.name),
                    "division by zero, or a function outside its domain (ln 0, sqrt of a negative number)".into(),
                    "check the inputs of this line".into(),
                ));
            }
            env.values.insert(def.name.clone(), v.clone());
            names.defined.push((def.name.clone(), Kind::Value));
            Some(v)
        } else {
            env.functions
                .insert(def.name.clone(), (params.clone(), def.body.clone()));
            names.defined.push((def.name.clone(), Kind::Function));
            None
        };
        done.push(Done {
            name: def.name,
            lhs_tex,
            rhs_tex,
            text: line.text.clone(),
            value,
        });
    }

    // The stated values.
    let expect_span = run.span("expect");
    let stated = read_expect(run, &expect_span)?;
    if stated.is_empty() {
        return Err(cx
            .error(
                run.raw
                    .key_spans
                    .get("expect")
                    .cloned()
                    .unwrap_or_else(|| run.block.opener.clone()),
                "`{check} calc` needs `expect`: the values the text states",
            )
            .with_label("nothing to check")
            .with_hint(
                "name each stated value with its rounded result:\nexpect:\n  mu: 2\n  var: 0.667",
            ));
    }
    let mut shown: HashMap<String, (String, String, &'static str, &'static str)> = HashMap::new();
    for (name, key_span, value_span, st) in stated {
        let Some(line) = done.iter().find(|d| d.name == name) else {
            let list = done
                .iter()
                .filter(|d| d.value.is_some())
                .map(|d| format!("`{}`", d.name))
                .collect::<Vec<_>>()
                .join(", ");
            return Err(cx
                .error(
                    key_span,
                    format!("`expect` names `{name}`, which no line defines"),
                )
                .with_label("not defined in `lines`")
                .with_hint(format!(
                    "the values defined are {list}{}",
                    options::did_you_mean(&name, &list)
                )));
        };
        let what = format!("expect.{name}");
        let s = match &line.value {
            None => {
                return Err(cx
                    .error(
                        key_span,
                        format!("`{name}` is a function; only values can be expected"),
                    )
                    .with_label("a function")
                    .with_hint(format!(
                        "define a value, e.g. `y = {name}(2)`, and expect that"
                    )))
            }
            Some(Val::Scalar(x)) => run.scalar_at(st, *x, value_span, &what)?.0,
            Some(Val::Vector(xs)) => run.vector_at(st, xs, "entry", value_span, &what)?,
        };
        let (rel_tex, rel) = (s.rel_tex(), s.rel());
        shown.insert(name, (s.tex, s.text, rel_tex, rel));
    }

    let mut tex_rows = Vec::new();
    let mut text_rows = Vec::new();
    for d in &done {
        let mut row = format!("{} &= {}", d.lhs_tex, d.rhs_tex);
        let mut text = d.text.clone();
        if let Some((s_tex, s_text, rel_tex, rel)) = shown.get(&d.name) {
            if d.rhs_tex != *s_tex {
                row.push_str(&format!(" {rel_tex} {s_tex}"));
            }
            text.push_str(&format!(" {rel} {s_text}"));
        }
        tex_rows.push(row);
        text_rows.push(text);
    }
    Ok(Line {
        tex: format!(
            "\\begin{{aligned}}{}\\end{{aligned}}",
            tex_rows.join(" \\\\ ")
        ),
        text: text_rows.join("; "),
    })
}

fn leading_space(s: &str) -> usize {
    s.len() - s.trim_start().len()
}

/// One stated value of `expect`: name, key span, value span, the numbers as written.
type Expected = (String, Range<usize>, Range<usize>, Stated);

/// The stated values of `expect`.
fn read_expect(
    run: &Run,
    expect_span: &Range<usize>,
) -> Result<Vec<Expected>, Diagnostic> {
    let cx = run.cx;
    let source = &cx.source;
    let hint =
        "name each stated value: `expect: {mu: 2, var: 0.667}`, or one per line under `expect:`";
    let read_err = |span: Range<usize>, message: String| {
        cx.error(span, "could not read the stated values `expect`")
            .with_label(message)
            .with_hint(hint)
    };
    match run.raw.value.get("expect") {
        None => Ok(Vec::new()),
        Some(Value::Object(map)) => {
            let flow = source[expect_span.clone()].trim_start().starts_with('{');
            let mut out = Vec::new();
            for (name, value) in map {
                let key_span = find_key(source, expect_span.clone(), name)
                    .unwrap_or_else(|| expect_span.clone());
                let value_span = if key_span == *expect_span {
                    expect_span.clone()
                } else if flow {
                    flow_value_span(source, key_span.end, expect_span.end)
                } else {
                    stated::yaml_value_span(
                        source,
                        expect_span.start..expect_span.end,
                        key_span.clone(),
                    )
                };
                let st = stated::read(value, source, value_span.clone())
                    .map_err(|e| read_err(value_span.clone(), e.message))?;
                out.push((name.clone(), key_span, value_span, st));
            }
            out.sort_by_key(|o| o.1.start);
            Ok(out)
        }
        Some(Value::String(_)) => {
            // `:expect: mu = 2; var = 0.667`
            let mut out = Vec::new();
            let mut start = expect_span.start;
            let text = &source[expect_span.clone()];
            for part in text.split(['\n', ';']) {
                let part_start = start;
                start += part.len() + 1;
                if part.trim().is_empty() {
                    continue;
                }
                let Some((name, value)) = part.split_once('=') else {
                    let s = part_start + leading_space(part);
                    return Err(read_err(
                        s..s + part.trim().len(),
                        "expected `name = value`".into(),
                    ));
                };
                let name_start = part_start + leading_space(name);
                let name = name.trim().to_string();
                let value_start = part_start + part.len() - value.len();
                let value_span =
                    value_start + leading_space(value)..value_start + value.trim_end().len();
                let st = stated::read_text(source, value_span.clone())
                    .map_err(|e| read_err(value_span.clone(), e.message))?;
                out.push((
                    name.clone(),
                    name_start..name_start + name.len(),
                    value_span,
                    st,
                ));
            }
            Ok(out)
        }
        Some(_) => Err(read_err(
            expect_span.clone(),
            "expected a map from names to values".into(),
        )),
    }
}

/// The span of `key` written as a mapping key (`key:`) inside `span`.
fn find_key(source: &str, span: Range<usize>, key: &str) -> Option<Range<usize>> {
    let text = source.get(span.clone())?;
    let mut from = 0;
    while let Some(i) = text[from..].find(key) {
        let at = from + i;
        let before = text[..at].chars().next_back();
        let after = text[at + key.len()..].trim_start_matches([' ', '\t']);
        let starts = before.is_none_or(|c| c.is_whitespace() || c == '{' || c == ',');
        if starts && after.starts_with(':') {
            return Some(span.start + at..span.start + at + key.len());
        }
        from = at + key.len();
    }
    None
}

/// A flow mapping's value after `key:`: to the next `,` or `}` outside brackets.
fn flow_value_span(source: &str, key_end: usize, end: usize) -> Range<usize> {
    let text = &source[key_end..end];
    let colon = text.find(':').map_or(0, |i| i + 1);
    let mut depth = 0i32;
    let mut stop = text.len();
    for (i, c) in text[colon..].char_indices() {
        match c {
            '[' => depth += 1,
            ']' => depth -= 1,
            ',' | '}' if depth == 0 => {
                stop = colon + i;
                break;
            }
            _ => {}
        }
    }
    let value = &text[colon..stop];
    let start = key_end + colon + leading_space(value);
    start..(key_end + colon + value.trim_end().len()).max(start)
}

/// The inline role `` {calc}`sqrt(4 + 0 + 1) ≈ 2.24` ``: the TeX to show, or the
/// diagnostic. `at` is where `content` starts in the chapter source.
pub fn role(cx: &Cx, content: &str, at: usize, whole: Range<usize>) -> Result<String, Diagnostic> {
    let hint = "write an expression, a relation and the stated value: {calc}`sqrt(4 + 0 + 1) ≈ 2.24` (`=`, `≈` or `\\approx`)";
    let relation = ["≈", "\\approx", "="]
        .iter()
        .filter_map(|r| content.find(r).map(|i| (i, *r)))
        .min_by_key(|(i, _)| *i);
    let Some((rel_at, rel)) = relation else {
        return Err(cx
            .error(whole, "`{calc}` needs a stated value")
            .with_label("no `=` or `≈` here")
            .with_hint(hint));
    };
    let left = &content[..rel_at];
    let right_start = rel_at + rel.len();
    let right = &content[right_start..];
    let expr = Expr::parse_general(left).map_err(|e| {
        let (position, label) = match e {
            CoreError::Syntax { position, message } => (position, message),
            other => (0, other.to_string()),
        };
        let p = position.min(left.len());
        let len = token_len(left, p).max(1).min(content.len() - p);
        cx.error(at + p..at + p + len, "invalid expression in `{calc}`")
            .with_label(label)
            .with_hint(hint)
    })?;
    let names = Names {
        defined: Vec::new(),
    };
    if let Err((position, _, message, hint)) = check_names(left, 0, &[], &names, false) {
        let len = token_len(left, position).max(1);
        return Err(cx
            .error(at + position..at + position + len, message)
            .with_label("used here")
            .with_hint(hint));
    }
    let value = Env::new().eval(&expr, &[]).map_err(|e| {
        cx.error(
            at..at + left.trim_end().len(),
            "cannot compute this `{calc}` expression",
        )
        .with_label(e.0)
        .with_hint(hint)
    })?;
    let value_span =
        at + right_start + leading_space(right)..at + right_start + right.trim_end().len();
    if value_span.is_empty() {
        return Err(cx
            .error(
                at + rel_at..at + right_start,
                "`{calc}` needs a stated value after the relation",
            )
            .with_label("nothing after this")
            .with_hint(hint));
    }
    let stated = stated::read_text(&cx.source, value_span.clone()).map_err(|e| {
        cx.error(
            value_span.clone(),
            "could not read the stated value of `{calc}`",
        )
        .with_label(e.message)
        .with_hint(hint)
    })?;
    let (nums, computed): (Vec<Num>, Vec<f64>) = match (stated, &value) {
        (Stated::Scalar(n), Val::Scalar(x)) => (vec![n], vec![*x]),
        (Stated::Vector(v), Val::Vector(xs)) if v.len() == xs.len() => (v, xs.clone()),
        (st, v) => {
            return Err(cx
                .error(
                    value_span,
                    format!(
                        "the expression is {}, the stated value is {}",
                        v.describe(),
                        st.describe()
                    ),
                )
                .with_label("stated here")
                .with_hint(hint))
        }
    };
    if !finite(&value) {
        return Err(cx
            .error(
                at..at + left.trim_end().len(),
                "this `{calc}` expression is not a finite number",
            )
            .with_label("division by zero, or a function outside its domain")
            .with_hint(hint));
    }
    for (n, c) in nums.iter().zip(&computed) {
        if !matches_stated(*c, n.value, n.decimals) {
            return Err(cx
                .error(
                    n.span.clone(),
                    format!(
                        "stated value is wrong: stated {}, computed {} ({})",
                        n.text,
                        fmt_computed(*c, n.decimals),
                        precision(n.decimals)
                    ),
                )
                .with_label("stated here")
                .with_hint(format!(
                    "to the precision written, the value is {}",
                    fmt_rounded(*c, n.decimals)
                )));
        }
    }
    let all_exact = nums.iter().zip(&computed).all(|(n, c)| exact(*c, n.value));
    let rel_tex = if all_exact { "=" } else { "\\approx" };
    let stated_tex = if nums.len() == 1 && matches!(value, Val::Scalar(_)) {
        tex::number(&nums[0].text)
    } else {
        format!(
            "({})",
            nums.iter()
                .map(|n| tex::number(&n.text))
                .collect::<Vec<_>>()
                .join(", ")
        )
    };
    Ok(format!("{} {rel_tex} {stated_tex}", tex::expr(&expr)))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn eval(lines: &[&str]) -> Val {
        let mut env = Env::new();
        let mut last = Val::Scalar(f64::NAN);
        for l in lines {
            let d = parse_definition(l).unwrap();
            if d.params.is_empty() {
                last = env.eval(&d.body, &[]).unwrap();
                env.values.insert(d.name, last.clone());
            } else {
                env.functions.insert(d.name, (d.params, d.body));
            }
        }
        last
    }

    fn close(v: Val, want: &[f64]) {
        let got = match v {
            Val::Scalar(x) => vec![x],
            Val::Vector(xs) => xs,
        };
        assert_eq!(got.len(), want.len(), "{got:?}");
        for (g, w) in got.iter().zip(want) {
            assert!((g - w).abs() < 1e-12, "{got:?} vs {want:?}");
        }
    }

    #[test]
    fn layer_norm() {
        // Independently: mean 2, population variance 2/3, normalized ±1.2247.
        let v = eval(&[
            "x = [1, 2, 3]",
            "mu = mean(x)",
            "var = mean((x - mu)^2)",
            "y = (x - mu) / sqrt(var)",
        ]);
        let s = (1.5f64).sqrt();
        close(v, &[-s, 0.0, s]);
        close(eval(&["x = [1, 2, 3]", "v = variance(x)"]), &[2.0 / 3.0]);
        close(eval(&["v = std([2, 4, 4, 4, 5, 5, 7, 9])"]), &[2.0]);
    }

    #[test]
    fn functions_and_builtins() {
        close(eval(&["f(x) = x^2 + 1", "y = f(3)"]), &[10.0]);
        close(eval(&["f(x, y) = x*y", "z = f([1, 2], 3)"]), &[3.0, 6.0]);
        close(eval(&["d = dot([1, 2, 3], [4, 5, 6])"]), &[32.0]);
        close(eval(&["n = norm([3, 4])"]), &[5.0]);
        close(eval(&["n = len([3, 4, 5]) + sum([1, 2])"]), &[6.0]);
        close(eval(&["m = max([3, 9, 4]) - min(2, 1)"]), &[8.0]);
        close(eval(&["p = softmax([0, 0])"]), &[0.5, 0.5]);
        close(eval(&["s = sqrt([4, 9])"]), &[2.0, 3.0]);
    }

    #[test]
    fn mismatched_vectors_are_an_error() {
        let d = parse_definition("z = [1, 2] + [1, 2, 3]").unwrap();
        let e = Env::new().eval(&d.body, &[]).unwrap_err();
        assert!(e.0.contains("2 and 3 entries"), "{e:?}");
    }

    #[test]
    fn fuel_stops_runaway_calls() {
        let mut env = Env::new();
        let mut prev = "x".to_string();
        for i in 0..40 {
            let d = parse_definition(&format!("f{i}(x) = {prev} + {prev}")).unwrap();
            env.functions.insert(d.name.clone(), (d.params, d.body));
            prev = format!("f{i}(x)");
        }
        let d = parse_definition(&format!("y = {}", prev.replace("(x)", "(1)"))).unwrap();
        assert!(env.eval(&d.body, &[]).is_err());
    }

    #[test]
    fn keys_are_found() {
        let src = "expect:\n  mu: 2\n  var: 0.667\n";
        assert_eq!(find_key(src, 0..src.len(), "var"), Some(18..21));
        assert_eq!(find_key(src, 0..src.len(), "v"), None);
        let src = "{mu: 2, y: [1, 2], z: 3}";
        let k = find_key(src, 0..src.len(), "y").unwrap();
        assert_eq!(&src[flow_value_span(src, k.end, src.len())], "[1, 2]");
    }
}
