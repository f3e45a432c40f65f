//! The values of `{check} calc`: numbers and vectors, and the evaluator over the
//! core's expression tree (entry-by-entry arithmetic, the built-in functions).
//!
//! It is here, not in `mathcourse-core`, because only the build needs vectors of
//! values; the widgets evaluate compiled scalar programs.

use std::collections::HashMap;

use mathcourse_core::expr::{BinOp, Expr, Function};
use mathcourse_core::{softmax, stats, vector};

/// Node evaluations allowed for one check, so that functions calling each other
/// many times over cannot stall the build.
const FUEL: usize = 1_000_000;

/// A value: a number or a vector (defined with the scope the rendering context carries).
pub use crate::directive::calc_scope::Val;

impl Val {
    pub(super) fn describe(&self) -> String {
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
    pub(super) values: HashMap<String, Val>,
    pub(super) functions: HashMap<String, (Vec<String>, Expr)>,
    fuel: usize,
    /// The first operation that turned finite numbers into a non-finite one, in words
    /// (what a "not a finite number" message names).
    pub(super) fault: Option<&'static str>,
}

impl Env {
    pub(super) fn new() -> Self {
        Env {
            fuel: FUEL,
            ..Env::default()
        }
    }

    /// The value of `e`, with `locals` (a function's parameters) in front.
    pub(super) fn eval(&mut self, e: &Expr, locals: &[(String, Val)]) -> Eval<Val> {
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
                let fault = std::cell::Cell::new(None);
                let v = binary(a, b, |x, y| {
                    let r = op.apply(x, y);
                    if fault.get().is_none() && x.is_finite() && y.is_finite() && !r.is_finite() {
                        fault.set(Some(binary_fault(*op, x, y, r)));
                    }
                    r
                })?;
                self.fault = self.fault.or(fault.get());
                v
            }
            Expr::Call(f, a) => {
                let f = *f;
                let v = self.eval(a, locals)?;
                let fault = std::cell::Cell::new(None);
                let v = map(v, |x| {
                    let r = f.apply(x);
                    if fault.get().is_none() && x.is_finite() && !r.is_finite() {
                        fault.set(Some(if f == Function::Exp { OVERFLOW } else { DOMAIN }));
                    }
                    r
                });
                self.fault = self.fault.or(fault.get());
                v
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

/// Why a result is not finite: too large for a double.
pub(super) const OVERFLOW: &str =
    "overflow: the result is beyond ±1.8e308, the largest number a double holds";
/// Why a result is not finite: a division by zero.
pub(super) const DIVISION: &str = "division by zero";
/// Why a result is not finite: a function outside its domain.
pub(super) const DOMAIN: &str = "a function outside its domain (ln 0, sqrt of a negative number)";

/// What turned the finite `x op y` into the non-finite `r`.
fn binary_fault(op: BinOp, x: f64, y: f64, r: f64) -> &'static str {
    match op {
        BinOp::Div if y == 0.0 => DIVISION,
        BinOp::Pow if x == 0.0 && y < 0.0 => DIVISION,
        BinOp::Pow if r.is_nan() => "a negative number to a fractional power",
        _ if r.is_infinite() => OVERFLOW,
        _ => DOMAIN,
    }
}

pub(super) fn finite(v: &Val) -> bool {
    match v {
        Val::Scalar(x) => x.is_finite(),
        Val::Vector(xs) => xs.iter().all(|x| x.is_finite()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use mathcourse_core::expr::parse_definition;

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
}
