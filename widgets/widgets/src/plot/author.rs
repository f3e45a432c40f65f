//! The author's `plot` parameters → the live form (see the parent module): expressions
//! parsed with the core's grammar (the one `{check}` uses), names resolved, every
//! mistake a [`ParamError`] with a [`Place`] inside the parameter (the nested key, or the
//! column inside an expression). Build time only: the wasm bundle never parses text.

use mathcourse_core::expr::{self, BinOp, Expr, Function};
use mathcourse_core::plot::{self as core_plot, CompileError, Op, Program, Resolved};
use mathcourse_core::CoreError;

use crate::json::Value;
use crate::number::fmt_num;
use crate::params::Place;
use crate::{ParamError, Params};

mod lists;

/// The top-level keys.
const KEYS: &[&str] = &[
    "x", "y", "labels", "params", "curves", "points", "lines", "areas", "tangents", "readouts",
];
const PARAM_KEYS: &[&str] = &["value", "range", "step", "label"];
const CURVE_KEYS: &[&str] = &["expr", "style", "label"];
const STYLES: &[&str] = &["solid", "dashed", "dotted", "hidden"];
/// Most sliders, curves, and items of every other list.
const MAX_ITEMS: usize = 12;
/// Expressions a hint lists.
const GRAMMAR: &str = "expressions use numbers, + - * / ^, parentheses, pi, e, the functions sin cos tan atan atan2 exp ln log log2 log10 sqrt abs tanh floor ceil min max, the parameters and earlier named curves";
/// Functions built in besides [`Function::ALL`] (of several arguments).
const SEVERAL: &[&str] = &["min", "max", "atan2"];
/// Largest size of a slider's ends: beyond it `max − min` and its hundredth lose
/// meaning (and ±1e308 would overflow to ∞).
const SLIDER_LIMIT: f64 = 1e12;
/// Most stops a slider may have.
const MAX_STOPS: f64 = 100_000.0;

fn err(param: &str, message: String, place: Place) -> ParamError {
    ParamError::new(param, message).at(place)
}

fn keyed(keys: &[&str], label: &str, hint: impl Into<String>) -> Place {
    Place {
        keys: keys.iter().map(|k| k.to_string()).collect(),
        label: label.into(),
        hint: hint.into(),
        ..Place::default()
    }
}

/// Levenshtein distance, for "did you mean".
fn distance(a: &str, b: &str) -> usize {
    let b: Vec<char> = b.chars().collect();
    let mut row: Vec<usize> = (0..=b.len()).collect();
    for (i, ca) in a.chars().enumerate() {
        let mut prev = row[0];
        row[0] = i + 1;
        for (j, cb) in b.iter().enumerate() {
            let cur = row[j + 1];
            row[j + 1] = (prev + usize::from(ca != *cb)).min(row[j] + 1).min(cur + 1);
            prev = cur;
        }
    }
    row[b.len()]
}

fn did_you_mean<'a>(word: &str, candidates: impl IntoIterator<Item = &'a str>) -> String {
    let best = candidates
        .into_iter()
        .map(|c| (distance(word, c), c))
        .filter(|(d, c)| *d <= if c.chars().count() <= 3 { 1 } else { 2 })
        .min();
    best.map_or(String::new(), |(_, c)| format!("did you mean `{c}`? "))
}

/// A name an expression may use.
#[derive(Clone)]
struct Name {
    name: String,
    resolved: Resolved,
}

#[derive(Default)]
struct Compiler {
    names: Vec<Name>,
    funcs: Vec<Program>,
    /// Operations one evaluation of each function costs, calls included.
    costs: Vec<u64>,
    /// Functions drawn (not `hidden`): the automatic y window looks at these.
    shown: Vec<bool>,
    /// Each function's variable, and its name when named (for the axis labels).
    vars: Vec<(String, Option<String>)>,
    /// Heights of points and horizontal lines that depend on the parameters only: the
    /// automatic y window holds them too.
    heights: Vec<Program>,
    slots: Vec<f64>,
}

/// Most operations one evaluation of an expression may cost, counting the curves it
/// calls (a curve is evaluated up to 2400 times per frame; calls that nest could
/// otherwise multiply the work beyond any budget).
const MAX_COST: u64 = 2000;

impl Compiler {
    /// Keeps `p` for the automatic y window when it uses parameters only (values of
    /// areas and slopes are known at the starting values alone).
    fn keep_height(&mut self, p: &Program, params: usize) {
        if p.ops.iter().all(|op| !matches!(op, Op::Slot(s) if usize::from(*s) >= params)) {
            self.heights.push(p.clone());
        }
    }

    /// Operations of one evaluation of `p`, with the costs of the functions it calls.
    fn cost(&self, p: &Program) -> u64 {
        p.ops
            .iter()
            .map(|op| match op {
                Op::Call(i) => 1 + self.costs.get(usize::from(*i)).copied().unwrap_or(0),
                _ => 1,
            })
            .fold(0u64, u64::saturating_add)
    }
}

/// Where an expression is written, for its errors.
struct Site<'a> {
    param: &'a str,
    keys: Vec<String>,
    what: String,
}

impl Compiler {
    fn lookup(&self, name: &str, called: bool, var: Option<&str>) -> Option<Resolved> {
        if var == Some(name) && !called {
            return Some(Resolved::Arg);
        }
        self.names.iter().rev().find(|n| n.name == name).map(|n| n.resolved)
    }

    fn known(&self, var: Option<&str>) -> Vec<String> {
        let mut v: Vec<String> = var.map(str::to_string).into_iter().collect();
        v.extend(self.names.iter().map(|n| n.name.clone()));
        v
    }

    /// Parses and compiles `text` (a definition when `definition`), with `var` as the
    /// argument; errors point inside `text` at `site`.
    fn expr(
        &self,
        text: &str,
        var: Option<&str>,
        site: &Site,
    ) -> Result<Program, ParamError> {
        self.parsed(text, None, var, site).map(|(p, _)| p)
    }

    fn parsed(
        &self,
        text: &str,
        parsed: Option<(Expr, usize)>,
        var: Option<&str>,
        site: &Site,
    ) -> Result<(Program, Expr), ParamError> {
        let at = |start: usize, len: usize, label: &str, hint: String| Place {
            keys: site.keys.clone(),
            text: Some(text.to_string()),
            range: Some((start, start + len.max(1))),
            label: label.into(),
            hint,
        };
        let (parsed, body_start) = match parsed {
            Some(p) => p,
            None => match Expr::parse_general(text) {
                Ok(e) => (e, 0),
                Err(e) => return Err(self.syntax(text, e, site)),
            },
        };
        // Unknown names first, each located, with a suggestion.
        let uses = expr::name_uses(text).unwrap_or_default();
        for u in uses.iter().filter(|u| u.position >= body_start) {
            if self.lookup(&u.name, u.called, var).is_some() || (u.called && u.name == "atan2") {
                continue;
            }
            if u.called && self.lookup(&u.name, false, var).is_some() {
                // `2x(3)`: a value (or the curve's variable) followed by `(`.
                let what = if var == Some(u.name.as_str()) { "the curve's variable" } else { "a value" };
                return Err(err(
                    site.param,
                    format!("{}: `{}` is {what}, not a function", site.what, u.name),
                    at(u.position, u.name.len(), "not a function", format!("to multiply, write `{}*(…)`", u.name)),
                ));
            }
            let known = self.known(var);
            let functions: Vec<&str> = Function::ALL.iter().map(|f| f.name()).chain(SEVERAL.iter().copied()).collect();
            // A call is most likely a misspelt function; a bare name, a parameter.
            let mut hint = if u.called {
                did_you_mean(&u.name, functions.iter().copied().chain(known.iter().map(String::as_str)))
            } else {
                did_you_mean(&u.name, known.iter().map(String::as_str))
            };
            if known.is_empty() {
                hint.push_str("no names are defined here");
            } else {
                hint.push_str("names here: ");
                hint.push_str(&known.iter().map(|k| format!("`{k}`")).collect::<Vec<_>>().join(", "));
            }
            if u.called {
                hint.push_str("; functions: ");
                hint.push_str(&functions.join(", "));
            }
            if u.name == "x" && var.is_none() {
                hint.push_str(" (x is the variable of curves only; here write a number or a parameter)");
            }
            let message = format!("{}: unknown name `{}`", site.what, u.name);
            return Err(err(
                site.param,
                message,
                at(u.position, u.name.len(), "unknown name", hint),
            ));
        }
        let program = Program::compile(&parsed, &|name, called| self.lookup(name, called, var))
            .map_err(|e| {
                let message = match e {
                    CompileError::Unknown { name, .. } => format!("unknown name `{name}`"),
                    CompileError::Shape(m) => m,
                    CompileError::TooLarge => too_large(&parsed),
                };
                err(
                    site.param,
                    format!("{}: {message}", site.what),
                    at(body_start, text.len() - body_start, "here", GRAMMAR.into()),
                )
            })?;
        if self.cost(&program) > MAX_COST {
            return Err(err(
                site.param,
                format!(
                    "{}: too costly to draw: one value takes more than {MAX_COST} operations, counting the curves it calls",
                    site.what
                ),
                at(body_start, text.len() - body_start, "too costly", "call fewer curves, or name a simpler helper curve".into()),
            ));
        }
        Ok((program, parsed))
    }

    fn syntax(&self, text: &str, e: CoreError, site: &Site) -> ParamError {
        let (position, message) = match e {
            CoreError::Syntax { position, message } => (position, message),
            other => (0, other.to_string()),
        };
        let len = text.get(position..).and_then(|r| r.chars().next()).map_or(1, char::len_utf8);
        err(
            site.param,
            format!("{}: {message}", site.what),
            Place {
                keys: site.keys.clone(),
                text: Some(text.to_string()),
                range: Some((position.min(text.len()), position.min(text.len()) + len)),
                label: "cannot parse this".into(),
                hint: GRAMMAR.into(),
            },
        )
    }

    fn add(&mut self, name: &str, resolved: Resolved) {
        self.names.push(Name {
            name: name.into(),
            resolved,
        });
    }
}

/// A new name: a valid identifier, not built in, not taken.
fn check_name(c: &Compiler, name: &str, param: &str, place: Place) -> Result<(), ParamError> {
    let ident = name.chars().next().is_some_and(|ch| ch.is_ascii_alphabetic())
        && name.chars().all(|ch| ch.is_ascii_alphanumeric() || ch == '_');
    let builtin = Function::from_name(name).is_some()
        || ["pi", "e", "x"].contains(&name)
        || SEVERAL.contains(&name);
    let message = if !ident {
        format!("`{name}` is not a usable name: use letters, digits and `_`, starting with a letter")
    } else if builtin {
        format!("`{name}` is built in (or the curves' variable) and cannot name something else")
    } else if c.names.iter().any(|n| n.name == name) {
        format!("the name `{name}` is used twice")
    } else {
        return Ok(());
    };
    Err(err(param, message, place))
}

fn text_of(v: &Value) -> Option<String> {
    match v {
        Value::Text(s) => Some(s.clone()),
        Value::Num(x) => Some(fmt_num(*x)),
        _ => None,
    }
}

fn map_get<'a>(m: &'a [(String, Value)], key: &str) -> Option<&'a Value> {
    m.iter().find(|(k, _)| k == key).map(|(_, v)| v)
}

fn unknown_keys(m: &[(String, Value)], known: &[&str], param: &str, keys: &[&str]) -> Result<(), ParamError> {
    for (k, _) in m {
        if !known.contains(&k.as_str()) {
            let mut path: Vec<&str> = keys.to_vec();
            path.push(k);
            let list = known.iter().map(|k| format!("`{k}`")).collect::<Vec<_>>().join(", ");
            return Err(err(
                param,
                format!("unknown key `{k}`"),
                keyed(&path, "not a key here", format!("{}keys: {list}", did_you_mean(k, known.iter().copied()))),
            ));
        }
    }
    Ok(())
}

fn items<'a>(params: &'a Params, key: &str) -> Result<&'a [Value], ParamError> {
    match params.get(key) {
        None | Some(Value::Null) => Ok(&[]),
        Some(Value::List(l)) if l.len() <= MAX_ITEMS => Ok(l),
        Some(Value::List(_)) => Err(err(
            key,
            format!("at most {MAX_ITEMS} items"),
            keyed(&[], "too many", "split the plot in two"),
        )),
        Some(_) => Err(err(
            key,
            "expected a list (`- item` lines)".into(),
            keyed(&[], "not a list", "write one `- item` per line under the key"),
        )),
    }
}

fn range_of(params: &Params, key: &str, default: Option<(f64, f64)>) -> Result<Option<(f64, f64)>, ParamError> {
    let list = match params.get(key) {
        None | Some(Value::Null) => return Ok(default),
        Some(Value::List(l)) if l.len() == 2 => l,
        Some(_) => {
            return Err(err(
                key,
                "expected `[min, max]`".into(),
                keyed(&[], "not two numbers", "write e.g. `[-5, 5]` or `[0, 2 pi]`"),
            ))
        }
    };
    let mut v = [0.0; 2];
    for (i, item) in list.iter().enumerate() {
        let what = format!("entry {}", i + 1);
        v[i] = constant(item, key, &[], &what)?;
        if v[i].abs() > 1e9 {
            return Err(err(
                key,
                format!("{what} is {}, outside -1e9..1e9", fmt_num(v[i])),
                keyed(&[], "too large", "a window is at most 1e9 from 0"),
            ));
        }
    }
    if v[0] >= v[1] {
        return Err(err(
            key,
            if v[0] == v[1] {
                format!("the range's min and max are both {}: a window needs min < max", fmt_num(v[0]))
            } else {
                format!("the range's min {} is above its max {}", fmt_num(v[0]), fmt_num(v[1]))
            },
            keyed(&[], "min must be below max", "write `[min, max]` with min < max"),
        ));
    }
    Ok(Some((v[0], v[1])))
}

/// A number written as a number or as an expression of numbers, `pi` and `e`
/// (`2 pi`, `pi/4`), for an axis range or a slider; `keys` and `what` locate errors.
fn constant(v: &Value, param: &str, keys: &[&str], what: &str) -> Result<f64, ParamError> {
    let text = match v {
        Value::Num(x) if x.is_finite() => return Ok(*x),
        Value::Text(t) => t.clone(),
        other => {
            return Err(err(
                param,
                format!("{what} should be a number, found {}", other.describe()),
                keyed(keys, "not a number", "write a number, or an expression of numbers, `pi` and `e` such as `2 pi`"),
            ))
        }
    };
    let empty = Compiler::default();
    let site = Site { param, keys: keys.iter().map(|k| k.to_string()).collect(), what: what.into() };
    let program = empty.expr(&text, None, &site).map_err(|mut e| {
        if let Some(p) = e.place.as_mut() {
            if e.message.contains("unknown name") {
                p.hint = "only numbers, `pi` and `e` here: parameters and curves are not known yet".into();
            }
        }
        e
    })?;
    let value = program.eval(0.0, &[], &[]);
    if !value.is_finite() {
        return Err(err(
            param,
            format!("{what}, `{text}`, is {}", if value.is_nan() { "undefined" } else { "too large (overflow)" }),
            Place { keys: site.keys.clone(), text: Some(text.clone()), label: "not a finite number".into(), hint: "write a number".into(), ..Place::default() },
        ));
    }
    Ok(value)
}

fn ops_value(p: &Program) -> Value {
    Value::List(
        p.ops
            .iter()
            .flat_map(|op| -> Vec<Value> { vec![match *op {
                Op::Num(n) => Value::Num(n),
                Op::Arg => Value::Text("x".into()),
                Op::Slot(n) => Value::Text(format!("s{n}")),
                Op::Call(n) => Value::Text(format!("f{n}")),
                Op::Neg => Value::Text("neg".into()),
                Op::Bin(b) => Value::Text(
                    match b {
                        BinOp::Add => "+",
                        BinOp::Sub => "-",
                        BinOp::Mul => "*",
                        BinOp::Div => "/",
                        BinOp::Pow => "^",
                    }
                    .into(),
                ),
                Op::Fn(f) => Value::Text(f.name().into()),
                Op::Atan2 => Value::Text("atan2".into()),
                // n-ary min/max: n − 1 binary ones (the operands are already on the stack).
                Op::Min(n) => return vec![Value::Text("min".into()); usize::from(n).saturating_sub(1)],
                Op::Max(n) => return vec![Value::Text("max".into()); usize::from(n).saturating_sub(1)],
            }] })
            .collect(),
    )
}

fn text_value(s: &str) -> Value {
    Value::Text(s.into())
}

/// A mark of the live form: kind (0 curve, 1 point, 2 x-line, 3 y-line, 4 area, 5
/// tangent), function, parameter, two programs, style, label.
fn mark(kind: u8, f: usize, p: usize, a: Option<&Program>, b: Option<&Program>, style: usize, label: String) -> Value {
    let empty = Value::List(Vec::new());
    Value::List(vec![
        Value::Num(f64::from(kind)),
        Value::Num(f as f64),
        Value::Num(p as f64),
        a.map_or(empty.clone(), ops_value),
        b.map_or(empty, ops_value),
        Value::Num(style as f64),
        Value::Text(label),
    ])
}

/// The live form (see the parent module), entry by entry.
pub type Live = Vec<(String, Value)>;

/// The author's parameters → the live form, and the warnings for the build.
pub fn compile(params: &Params) -> Result<(Live, Vec<ParamError>), ParamError> {
    params.only(KEYS)?;
    let x = range_of(params, "x", Some((-5.0, 5.0)))?.unwrap_or((-5.0, 5.0));
    let y = range_of(params, "y", None)?;
    let mut c = Compiler::default();
    let live_params = lists::sliders(params, &mut c)?;
    let mut marks = lists::curves(params, &mut c, x)?;
    lists::areas(params, &mut c, &mut marks)?;
    lists::tangents(params, &mut c, x, &live_params, &mut marks)?;
    lists::points(params, &mut c, &live_params, &mut marks)?;
    lists::lines(params, &mut c, &live_params, &mut marks)?;
    let readouts = lists::readouts(params, &c)?;
    let mut warnings = Vec::new();
    let y = match y {
        Some(y) => {
            warnings.extend(leaves_window(&c, x, y, &live_params));
            y
        }
        None => auto_y(&c, x, &live_params),
    };
    let labels = axis_labels(params, &c)?;
    let pair = |(a, b): (f64, f64)| Value::List(vec![Value::Num(a), Value::Num(b)]);
    Ok((vec![
        ("x".into(), pair(x)),
        ("y".into(), pair(y)),
        ("params".into(), Value::List(live_params)),
        ("funcs".into(), Value::List(c.funcs.iter().map(ops_value).collect())),
        ("marks".into(), Value::List(marks)),
        ("readouts".into(), Value::List(readouts)),
        ("labels".into(), Value::List(vec![Value::Text(labels.0), Value::Text(labels.1)])),
    ], warnings))
}

/// The axis labels: `labels: {x: …, y: …}` as written; by default the curves' variable
/// on x (`θ` when every named curve is `f(θ) = …`, else `x`) and, when one curve is
/// drawn and named, `f(θ)` on y.
fn axis_labels(params: &Params, c: &Compiler) -> Result<(String, String), ParamError> {
    let shown: Vec<&(String, Option<String>)> = c.vars.iter().zip(&c.shown).filter(|(_, s)| **s).map(|(v, _)| v).collect();
    let var = match c.vars.first() {
        Some((v, _)) if c.vars.iter().all(|(w, _)| w == v) => v.clone(),
        _ => "x".to_string(),
    };
    let y = match shown.as_slice() {
        [(v, Some(name))] => format!("{name}({v})"),
        _ => String::new(),
    };
    let (mut lx, mut ly) = (var, y);
    match params.get("labels") {
        None | Some(Value::Null) => {}
        Some(Value::Map(m)) => {
            unknown_keys(m, &["x", "y"], "labels", &[])?;
            if let Some(t) = map_get(m, "x").and_then(text_of) {
                lx = t;
            }
            if let Some(t) = map_get(m, "y").and_then(text_of) {
                ly = t;
            }
        }
        Some(_) => {
            return Err(err("labels", "expected `{x: …, y: …}`".into(), keyed(&[], "not a map", "write e.g. `labels: {x: θ, y: loss}`")))
        }
    }
    Ok((lx, ly))
}

/// One slider setting's y extent: the slider moved and its value (`None` for the
/// starting values and the corners), lowest and highest y.
type Extent = (Option<(usize, f64)>, f64, f64);

/// The y extents of what is drawn, per slider setting: the starting values first, then
/// each slider in turn at five stops across its range, then all sliders at their
/// minimums and at their maximums. Each setting gives the central 96 % of its curves'
/// values (a pole's huge values do not flatten the rest) widened to the heights of its
/// points and horizontal lines, and says which slider moved (`None` for the start and
/// the corners).
fn extents(c: &Compiler, x: (f64, f64), live_params: &[Value]) -> Vec<Extent> {
    let n = live_params.len();
    let ranges: Vec<(f64, f64)> = live_params
        .iter()
        .map(|p| match p {
            Value::List(l) => match (l.get(2), l.get(3)) {
                (Some(Value::Num(a)), Some(Value::Num(b))) => (*a, *b),
                _ => (0.0, 0.0),
            },
            _ => (0.0, 0.0),
        })
        .collect();
    let start: Vec<f64> = c.slots.get(..n).unwrap_or(&[]).to_vec();
    let mut settings = vec![(None, start.clone())];
    for (i, &(lo, hi)) in ranges.iter().enumerate() {
        for k in 0..5 {
            let mut s = start.clone();
            s[i] = lo + (hi - lo) * f64::from(k) / 4.0;
            settings.push((Some((i, s[i])), s));
        }
    }
    if n > 1 {
        settings.push((None, ranges.iter().map(|r| r.0).collect()));
        settings.push((None, ranges.iter().map(|r| r.1).collect()));
    }
    let mut out = Vec::new();
    for (k, (moved, setting)) in settings.iter().enumerate() {
        let mut slots = c.slots.clone();
        slots[..n].copy_from_slice(setting);
        let samples = if k == 0 { 400 } else { 160 };
        let mut ys = Vec::new();
        for (f, p) in c.funcs.iter().enumerate() {
            if !c.shown.get(f).copied().unwrap_or(true) {
                continue;
            }
            for j in 0..=samples {
                let t = x.0 + (x.1 - x.0) * j as f64 / samples as f64;
                let v = p.eval(t, &slots, &c.funcs[..f]);
                if v.is_finite() {
                    ys.push(v);
                }
            }
        }
        let heights: Vec<f64> = c.heights.iter().map(|p| p.eval(0.0, &slots, &c.funcs)).filter(|v| v.is_finite()).collect();
        if ys.is_empty() && heights.is_empty() {
            continue;
        }
        ys.extend(&heights);
        ys.sort_by(f64::total_cmp);
        let q = |p: f64| ys[((ys.len() - 1) as f64 * p).round() as usize];
        let (mut lo, mut hi) = (q(0.02), q(0.98));
        // Points and lines are few: each is kept whole, not trimmed as a pole's values.
        for &h in &heights {
            lo = lo.min(h);
            hi = hi.max(h);
        }
        out.push((*moved, lo, hi));
    }
    out
}

/// A y window that holds the drawn curves, points and horizontal lines over the
/// sliders' ranges, not only at the starting values (see [`extents`]), padded by 8 %.
fn auto_y(c: &Compiler, x: (f64, f64), live_params: &[Value]) -> (f64, f64) {
    let all = extents(c, x, live_params);
    let Some((mut lo, mut hi)) = all.iter().map(|e| (e.1, e.2)).reduce(|a, b| (a.0.min(b.0), a.1.max(b.1))) else {
        return (-1.0, 1.0);
    };
    if hi - lo < 1e-9 {
        lo -= 1.0;
        hi += 1.0;
    }
    let pad = (hi - lo) * 0.08;
    (lo - pad, hi + pad)
}

/// With a `y` written: a warning when a slider carries what is drawn out of it though
/// the starting picture fits (what is outside from the start is the author's framing).
fn leaves_window(c: &Compiler, x: (f64, f64), y: (f64, f64), live_params: &[Value]) -> Option<ParamError> {
    let all = extents(c, x, live_params);
    let (_, lo0, hi0) = *all.first()?;
    let slack = (y.1 - y.0) * 0.02;
    let (top_ok, bottom_ok) = (hi0 <= y.1 + slack, lo0 >= y.0 - slack);
    let worst = all.iter().filter_map(|&(moved, lo, hi)| {
        let (i, v) = moved?;
        let over = if top_ok && hi > y.1 + slack { hi - y.1 } else { 0.0 };
        let under = if bottom_ok && lo < y.0 - slack { y.0 - lo } else { 0.0 };
        (over > 0.0 || under > 0.0).then_some((i, v, over.max(under), if over >= under { hi } else { lo }))
    }).max_by(|a, b| a.2.total_cmp(&b.2))?;
    let (i, v, _, reach) = worst;
    let name = match live_params.get(i) {
        Some(Value::List(l)) => text_of(l.first()?)?,
        _ => return None,
    };
    // The window that holds them, with the automatic window's 8 % to spare on the
    // sides that were short.
    let (lo, hi) = all.iter().fold(y, |(a, b), e| (a.min(e.1), b.max(e.2)));
    let pad = (hi - lo) * 0.08;
    let (lo, hi) = (if lo < y.0 { lo - pad } else { lo }, if hi > y.1 { hi + pad } else { hi });
    Some(err(
        "y",
        format!(
            "the y window {}..{} cuts what the sliders draw: at {name} = {}, the picture reaches {}",
            fmt_num(y.0), fmt_num(y.1), fmt_num(round_sig(v)), fmt_num(round_sig(reach))
        ),
        keyed(&[], "too small for the sliders' ranges", format!(
            "write `y: [{}, {}]`, or leave `y` out: the window then holds every slider setting",
            fmt_num(round_sig(lo)), fmt_num(round_sig(hi))
        )),
    ))
}

/// `v` to 3 significant digits, for messages.
fn round_sig(v: f64) -> f64 {
    if v == 0.0 || !v.is_finite() {
        return v;
    }
    let scale = 10f64.powi(2 - v.abs().log10().floor() as i32);
    (v * scale).round() / scale
}

/// Which of a curve's two limits `expr` passes, named with its number: more than
/// [`core_plot::MAX_OPS`] operations, or more than [`core_plot::MAX_STACK`] values held
/// at once (a deep continued fraction passes that one long before the other).
fn too_large(expr: &Expr) -> String {
    fn ops(e: &Expr) -> usize {
        match e {
            Expr::Number(_) | Expr::Constant(_) | Expr::Variable(_) => 1,
            Expr::Neg(a) | Expr::Call(_, a) => 1 + ops(a),
            Expr::Binary(_, a, b) => 1 + ops(a) + ops(b),
            Expr::Apply(_, args) | Expr::Vector(args) => 1 + args.iter().map(ops).sum::<usize>(),
        }
    }
    let count = ops(expr);
    if count > core_plot::MAX_OPS {
        format!(
            "the expression has {count} operations; a curve may have at most {}",
            core_plot::MAX_OPS
        )
    } else {
        format!(
            "the expression nests too deeply: a curve keeps at most {} values pending while it is worked out (each open parenthesis or unfinished operation holds one)",
            core_plot::MAX_STACK
        )
    }
}
