//! Arithmetic expressions, as authors write them in `check` directives and in
//! the `plot` widget: `x^2 + 3*x - sin(2*x)/exp(x)`, `mean(v)`, `[1, 2, 3]`.
//!
//! One grammar, two strictnesses. [`Expr::parse`] is the function-of-one-
//! variable form the fixed `check` kinds use: only the built-in functions, no
//! vectors. [`Expr::parse_general`] also accepts calls to any name with
//! several arguments (`sigma(x)`, `dot(a, b)`) and vector literals; the caller
//! resolves those names through a [`Scope`]. [`parse_definition`] reads a
//! definition line, `mu = …` or `sigma(x) = …`.
//!
//! Grammar (usual precedence, `^` binds tightest and is right-associative,
//! unary minus binds looser than `^`, so `-x^2` is −(x²) and `2^-1` is ½):
//!
//! ```text
//! definition := name ("(" name ("," name)* ")")? "=" expr
//! expr    := term (("+" | "-") term)*
//! term    := unary (("*" | "/") unary | unary)*      -- juxtaposition multiplies: 3x, 2(x+1)
//! unary   := ("-" | "+") unary | power
//! power   := primary ("^" unary)?
//! primary := number | constant | variable | function "(" expr ")" | "(" expr ")"
//!          | name "(" expr ("," expr)* ")"          -- general form only
//!          | "[" expr ("," expr)* "]"               -- general form only
//! ```
//!
//! Numbers: `3`, `0.5`, `.5`, `1e-3`, `2.5E+2`. Constants: `pi` (or `π`) and
//! `e`. Functions: `sin cos tan atan exp ln log log2 log10 sqrt abs tanh floor
//! ceil` (`log` is the natural logarithm); the general form adds `min(a, b, …)` and
//! `max(a, b, …)` (and the plot's compiler `atan2(y, x)`). Every other name is a variable. `**` is accepted
//! for `^`, `·`/`×` for `*` and `−` (U+2212) for `-`, so text pasted from a
//! formula or from Python parses too. Parse errors carry the byte position of
//! the problem in the input.

mod parse;
#[cfg(test)]
mod tests;

pub use parse::{name_uses, parse_definition, Definition, NameUse};

use core::fmt;

use crate::{CoreError, Result};

/// Deepest nesting of parentheses, functions and unary signs accepted
/// (keeps the recursive parser's stack bounded).
pub const MAX_DEPTH: usize = 200;

/// A parsed expression.
#[derive(Debug, Clone, PartialEq)]
pub enum Expr {
    /// A number literal.
    Number(f64),
    /// `pi` or `e`.
    Constant(Constant),
    /// A variable, by name.
    Variable(String),
    /// Unary minus.
    Neg(Box<Expr>),
    /// A binary operation.
    Binary(BinOp, Box<Expr>, Box<Expr>),
    /// A built-in function applied to one argument.
    Call(Function, Box<Expr>),
    /// Any other name applied to arguments, `sigma(x)`, `dot(a, b)`
    /// ([`Expr::parse_general`] only); a [`Scope`] gives its meaning.
    Apply(String, Vec<Expr>),
    /// A vector literal, `[1, 2, 3]` ([`Expr::parse_general`] only).
    Vector(Vec<Expr>),
}

/// A binary operator.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum BinOp {
    /// `+`
    Add,
    /// `-`
    Sub,
    /// `*` (also written by juxtaposition, `3x`)
    Mul,
    /// `/`
    Div,
    /// `^` (right-associative)
    Pow,
}

impl BinOp {
    /// Applies the operator to two numbers.
    pub fn apply(self, a: f64, b: f64) -> f64 {
        match self {
            BinOp::Add => a + b,
            BinOp::Sub => a - b,
            BinOp::Mul => a * b,
            BinOp::Div => a / b,
            BinOp::Pow => a.powf(b),
        }
    }
}

/// Most arguments a call may take.
pub const MAX_ARGS: usize = 8;

/// Names defined by the caller, for [`Expr::eval_in`].
pub trait Scope {
    /// The value of the variable `name`, if defined.
    fn variable(&self, name: &str) -> Option<f64>;
    /// The value of `name(args…)`, if `name` is a function defined here.
    fn function(&self, name: &str, args: &[f64]) -> Option<f64> {
        let _ = (name, args);
        None
    }
}

/// A list of `(name, value)` pairs is a scope of variables.
impl Scope for [(&str, f64)] {
    fn variable(&self, name: &str) -> Option<f64> {
        self.iter().find(|(n, _)| *n == name).map(|(_, v)| *v)
    }
}

/// A named constant.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Constant {
    /// π = 3.14159…
    Pi,
    /// e = 2.71828…
    E,
}

impl Constant {
    /// The name as written (`pi`, `e`).
    pub fn name(self) -> &'static str {
        match self {
            Constant::Pi => "pi",
            Constant::E => "e",
        }
    }

    /// Its value.
    pub fn value(self) -> f64 {
        match self {
            Constant::Pi => core::f64::consts::PI,
            Constant::E => core::f64::consts::E,
        }
    }
}

/// A function of one argument.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Function {
    /// sine (radians)
    Sin,
    /// cosine (radians)
    Cos,
    /// tangent (radians)
    Tan,
    /// hyperbolic tangent
    Tanh,
    /// inverse tangent (radians, in (−π/2, π/2))
    Atan,
    /// eˣ
    Exp,
    /// natural logarithm, written `ln`
    Ln,
    /// natural logarithm, written `log`
    Log,
    /// base-2 logarithm
    Log2,
    /// base-10 logarithm
    Log10,
    /// square root
    Sqrt,
    /// absolute value
    Abs,
    /// largest integer not above
    Floor,
    /// smallest integer not below
    Ceil,
}

impl Function {
    /// Every function, in the order the documentation lists them.
    pub const ALL: [Function; 14] = [
        Function::Sin,
        Function::Cos,
        Function::Tan,
        Function::Atan,
        Function::Exp,
        Function::Ln,
        Function::Log,
        Function::Log2,
        Function::Log10,
        Function::Sqrt,
        Function::Abs,
        Function::Tanh,
        Function::Floor,
        Function::Ceil,
    ];

    /// The name as written.
    pub fn name(self) -> &'static str {
        match self {
            Function::Sin => "sin",
            Function::Cos => "cos",
            Function::Tan => "tan",
            Function::Tanh => "tanh",
            Function::Atan => "atan",
            Function::Exp => "exp",
            Function::Ln => "ln",
            Function::Log => "log",
            Function::Log2 => "log2",
            Function::Log10 => "log10",
            Function::Sqrt => "sqrt",
            Function::Abs => "abs",
            Function::Floor => "floor",
            Function::Ceil => "ceil",
        }
    }

    /// The function called `name`, if any.
    pub fn from_name(name: &str) -> Option<Function> {
        Function::ALL.into_iter().find(|f| f.name() == name)
    }

    /// Applies the function (NaN outside its domain, e.g. `ln(-1)`).
    pub fn apply(self, x: f64) -> f64 {
        match self {
            Function::Sin => x.sin(),
            Function::Cos => x.cos(),
            Function::Tan => x.tan(),
            Function::Tanh => x.tanh(),
            Function::Atan => x.atan(),
            Function::Exp => x.exp(),
            Function::Ln | Function::Log => x.ln(),
            Function::Log2 => x.log2(),
            Function::Log10 => x.log10(),
            Function::Sqrt => x.sqrt(),
            Function::Abs => x.abs(),
            Function::Floor => x.floor(),
            Function::Ceil => x.ceil(),
        }
    }
}

/// The list of function names, for error messages.
pub(crate) fn function_list() -> String {
    Function::ALL
        .iter()
        .map(|f| f.name())
        .collect::<Vec<_>>()
        .join(", ")
}

impl Expr {
    /// Parses `text`; errors are [`CoreError::Syntax`] with the byte
    /// position of the problem.
    pub fn parse(text: &str) -> Result<Expr> {
        parse::parse(text, false)
    }

    /// Parses `text` in the general form: calls to any name with one or
    /// more arguments, and vector literals, are accepted (see the module
    /// documentation). Errors as for [`Expr::parse`].
    pub fn parse_general(text: &str) -> Result<Expr> {
        parse::parse(text, true)
    }

    /// The value with `var` set to `value`. Errors: another variable appears
    /// ([`CoreError::UnknownVariable`]), or the result is NaN or infinite
    /// ([`CoreError::FunctionNotFinite`], e.g. `ln(x)` at 0).
    pub fn eval(&self, var: &str, value: f64) -> Result<f64> {
        self.check_variable(var)?;
        let v = self.value(var, value);
        if v.is_finite() {
            Ok(v)
        } else {
            Err(CoreError::FunctionNotFinite { x: value })
        }
    }

    /// Errors unless every variable of the expression is `var` (expressions
    /// from [`Expr::parse`] have no calls to other names, nor vectors).
    pub fn check_variable(&self, var: &str) -> Result<()> {
        match self.variables().into_iter().find(|v| v != var) {
            Some(name) => Err(CoreError::UnknownVariable {
                name,
                expected: var.to_string(),
            }),
            None => Ok(()),
        }
    }

    /// The value with `var` set to `value`, without checks: NaN when another
    /// variable appears or outside a function's domain. Meant for numerical
    /// routines after [`Expr::check_variable`].
    pub fn value(&self, var: &str, value: f64) -> f64 {
        match self {
            Expr::Number(n) => *n,
            Expr::Constant(c) => c.value(),
            Expr::Variable(name) => {
                if name == var {
                    value
                } else {
                    f64::NAN
                }
            }
            Expr::Neg(a) => -a.value(var, value),
            Expr::Binary(op, a, b) => op.apply(a.value(var, value), b.value(var, value)),
            Expr::Call(f, a) => f.apply(a.value(var, value)),
            Expr::Apply(..) | Expr::Vector(_) => f64::NAN,
        }
    }

    /// The value, with names resolved by `scope`: NaN when a name is
    /// unknown, a vector appears, or a function is outside its domain.
    /// `min` and `max` are built in unless the scope defines them.
    pub fn eval_in<S: Scope + ?Sized>(&self, scope: &S) -> f64 {
        match self {
            Expr::Number(n) => *n,
            Expr::Constant(c) => c.value(),
            Expr::Variable(name) => scope.variable(name).unwrap_or(f64::NAN),
            Expr::Neg(a) => -a.eval_in(scope),
            Expr::Binary(op, a, b) => op.apply(a.eval_in(scope), b.eval_in(scope)),
            Expr::Call(f, a) => f.apply(a.eval_in(scope)),
            Expr::Apply(name, args) => {
                let mut values = [0.0; MAX_ARGS];
                if args.len() > MAX_ARGS {
                    return f64::NAN;
                }
                for (slot, arg) in values.iter_mut().zip(args) {
                    *slot = arg.eval_in(scope);
                }
                let values = values.get(..args.len()).unwrap_or(&[]);
                if let Some(v) = scope.function(name, values) {
                    return v;
                }
                match name.as_str() {
                    "min" => values.iter().copied().fold(f64::INFINITY, f64::min),
                    "max" => values.iter().copied().fold(f64::NEG_INFINITY, f64::max),
                    _ => f64::NAN,
                }
            }
            Expr::Vector(_) => f64::NAN,
        }
    }

    /// The variable names used, sorted, without duplicates.
    pub fn variables(&self) -> Vec<String> {
        let mut out = Vec::new();
        self.collect_variables(&mut out);
        out.sort();
        out.dedup();
        out
    }

    fn collect_variables(&self, out: &mut Vec<String>) {
        match self {
            Expr::Number(_) | Expr::Constant(_) => {}
            Expr::Variable(name) => out.push(name.clone()),
            Expr::Neg(a) | Expr::Call(_, a) => a.collect_variables(out),
            Expr::Apply(_, args) | Expr::Vector(args) => {
                for a in args {
                    a.collect_variables(out);
                }
            }
            Expr::Binary(_, a, b) => {
                a.collect_variables(out);
                b.collect_variables(out);
            }
        }
    }
}

fn write_list(f: &mut fmt::Formatter<'_>, items: &[Expr]) -> fmt::Result {
    for (i, item) in items.iter().enumerate() {
        if i > 0 {
            f.write_str(", ")?;
        }
        write!(f, "{item}")?;
    }
    Ok(())
}

/// Prints the expression back in the input syntax, fully parenthesised where
/// precedence requires it (parsing the output gives the same tree).
impl fmt::Display for Expr {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Expr::Number(n) => write!(f, "{n}"),
            Expr::Constant(c) => f.write_str(c.name()),
            Expr::Variable(v) => f.write_str(v),
            Expr::Neg(a) => write!(f, "-({a})"),
            Expr::Binary(op, a, b) => {
                let sym = match op {
                    BinOp::Add => "+",
                    BinOp::Sub => "-",
                    BinOp::Mul => "*",
                    BinOp::Div => "/",
                    BinOp::Pow => "^",
                };
                write!(f, "({a}) {sym} ({b})")
            }
            Expr::Call(func, a) => write!(f, "{}({a})", func.name()),
            Expr::Apply(name, args) => {
                write!(f, "{name}(")?;
                write_list(f, args)?;
                f.write_str(")")
            }
            Expr::Vector(items) => {
                f.write_str("[")?;
                write_list(f, items)?;
                f.write_str("]")
            }
        }
    }
}
