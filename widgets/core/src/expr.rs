//! Arithmetic expressions in one variable, as authors write them in a `check`
//! directive: `x^2 + 3*x - sin(2*x)/exp(x)`.
//!
//! Grammar (usual precedence, `^` binds tightest and is right-associative,
//! unary minus binds looser than `^`, so `-x^2` is −(x²) and `2^-1` is ½):
//!
//! ```text
//! expr    := term (("+" | "-") term)*
//! term    := unary (("*" | "/") unary | unary)*      -- juxtaposition multiplies: 3x, 2(x+1)
//! unary   := ("-" | "+") unary | power
//! power   := primary ("^" unary)?
//! primary := number | constant | variable | function "(" expr ")" | "(" expr ")"
//! ```
//!
//! Numbers: `3`, `0.5`, `.5`, `1e-3`, `2.5E+2`. Constants: `pi` (or `π`) and
//! `e`. Functions: `sin cos tan exp ln log log2 log10 sqrt abs tanh` (`log` is
//! the natural logarithm). Every other name is a variable. `**` is accepted
//! for `^`, `·`/`×` for `*` and `−` (U+2212) for `-`, so text pasted from a
//! formula or from Python parses too. Parse errors carry the byte position of
//! the problem in the input.

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
    /// A function applied to one argument.
    Call(Function, Box<Expr>),
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
}

impl Function {
    /// Every function, in the order the documentation lists them.
    pub const ALL: [Function; 11] = [
        Function::Sin,
        Function::Cos,
        Function::Tan,
        Function::Exp,
        Function::Ln,
        Function::Log,
        Function::Log2,
        Function::Log10,
        Function::Sqrt,
        Function::Abs,
        Function::Tanh,
    ];

    /// The name as written.
    pub fn name(self) -> &'static str {
        match self {
            Function::Sin => "sin",
            Function::Cos => "cos",
            Function::Tan => "tan",
            Function::Tanh => "tanh",
            Function::Exp => "exp",
            Function::Ln => "ln",
            Function::Log => "log",
            Function::Log2 => "log2",
            Function::Log10 => "log10",
            Function::Sqrt => "sqrt",
            Function::Abs => "abs",
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
            Function::Exp => x.exp(),
            Function::Ln | Function::Log => x.ln(),
            Function::Log2 => x.log2(),
            Function::Log10 => x.log10(),
            Function::Sqrt => x.sqrt(),
            Function::Abs => x.abs(),
        }
    }
}

/// The list of function names, for error messages.
fn function_list() -> String {
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
        let tokens = lex(text)?;
        let mut parser = Parser {
            tokens,
            pos: 0,
            end: text.len(),
            depth: 0,
        };
        if parser.tokens.is_empty() {
            return Err(syntax(0, "the expression is empty"));
        }
        let expr = parser.expr()?;
        match parser.peek() {
            None => Ok(expr),
            Some(t) => Err(syntax(t.start, format!("unexpected {}", t.kind.describe()))),
        }
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

    /// Errors unless every variable of the expression is `var`.
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
            Expr::Binary(op, a, b) => {
                let (a, b) = (a.value(var, value), b.value(var, value));
                match op {
                    BinOp::Add => a + b,
                    BinOp::Sub => a - b,
                    BinOp::Mul => a * b,
                    BinOp::Div => a / b,
                    BinOp::Pow => a.powf(b),
                }
            }
            Expr::Call(f, a) => f.apply(a.value(var, value)),
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
            Expr::Binary(_, a, b) => {
                a.collect_variables(out);
                b.collect_variables(out);
            }
        }
    }
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
        }
    }
}

fn syntax(position: usize, message: impl Into<String>) -> CoreError {
    CoreError::Syntax {
        position,
        message: message.into(),
    }
}

#[derive(Debug, Clone, PartialEq)]
enum TokenKind {
    Number(f64),
    Ident(String),
    Plus,
    Minus,
    Star,
    Slash,
    Caret,
    LParen,
    RParen,
}

impl TokenKind {
    fn describe(&self) -> String {
        match self {
            TokenKind::Number(n) => format!("number `{n}`"),
            TokenKind::Ident(s) => format!("name `{s}`"),
            TokenKind::Plus => "`+`".into(),
            TokenKind::Minus => "`-`".into(),
            TokenKind::Star => "`*`".into(),
            TokenKind::Slash => "`/`".into(),
            TokenKind::Caret => "`^`".into(),
            TokenKind::LParen => "`(`".into(),
            TokenKind::RParen => "`)`".into(),
        }
    }
}

#[derive(Debug, Clone, PartialEq)]
struct Token {
    kind: TokenKind,
    start: usize,
}

fn lex(text: &str) -> Result<Vec<Token>> {
    let mut tokens = Vec::new();
    let mut chars = text.char_indices().peekable();
    while let Some(&(start, c)) = chars.peek() {
        if c.is_whitespace() {
            chars.next();
            continue;
        }
        if c.is_ascii_digit() || c == '.' {
            let mut end = start;
            while let Some(&(i, d)) = chars.peek() {
                if d.is_ascii_digit() || d == '.' {
                    end = i + 1;
                    chars.next();
                } else {
                    break;
                }
            }
            // Exponent: e/E, optional sign, at least one digit.
            let rest = text.get(end..).unwrap_or("");
            let mut rest_chars = rest.chars();
            if matches!(rest_chars.next(), Some('e' | 'E')) {
                let after = rest_chars.as_str();
                let sign = usize::from(after.starts_with(['+', '-']));
                let digits = after
                    .get(sign..)
                    .unwrap_or("")
                    .chars()
                    .take_while(char::is_ascii_digit)
                    .count();
                if digits > 0 {
                    let exp_len = 1 + sign + digits;
                    for _ in 0..exp_len {
                        chars.next();
                    }
                    end += exp_len;
                }
            }
            let literal = text.get(start..end).unwrap_or("");
            let value: f64 = literal
                .parse()
                .map_err(|_| syntax(start, format!("`{literal}` is not a number")))?;
            if !value.is_finite() {
                return Err(syntax(start, format!("`{literal}` is too large")));
            }
            tokens.push(Token {
                kind: TokenKind::Number(value),
                start,
            });
            continue;
        }
        if c.is_alphabetic() || c == '_' {
            let mut name = String::new();
            while let Some(&(_, d)) = chars.peek() {
                if d.is_alphanumeric() || d == '_' {
                    name.push(d);
                    chars.next();
                } else {
                    break;
                }
            }
            if name == "π" {
                name = "pi".into();
            }
            tokens.push(Token {
                kind: TokenKind::Ident(name),
                start,
            });
            continue;
        }
        chars.next();
        let kind = match c {
            '+' => TokenKind::Plus,
            '-' | '−' => TokenKind::Minus,
            '*' | '·' | '×' => {
                if c == '*' && chars.peek().map(|p| p.1) == Some('*') {
                    chars.next();
                    TokenKind::Caret
                } else {
                    TokenKind::Star
                }
            }
            '/' => TokenKind::Slash,
            '^' => TokenKind::Caret,
            '(' => TokenKind::LParen,
            ')' => TokenKind::RParen,
            _ => {
                return Err(syntax(
                    start,
                    format!("unexpected character `{c}` (use + - * / ^ and parentheses)"),
                ))
            }
        };
        tokens.push(Token { kind, start });
    }
    Ok(tokens)
}

struct Parser {
    tokens: Vec<Token>,
    pos: usize,
    end: usize,
    depth: usize,
}

impl Parser {
    fn peek(&self) -> Option<&Token> {
        self.tokens.get(self.pos)
    }

    fn peek_kind(&self) -> Option<&TokenKind> {
        self.peek().map(|t| &t.kind)
    }

    fn next(&mut self) -> Option<Token> {
        let t = self.tokens.get(self.pos).cloned();
        if t.is_some() {
            self.pos += 1;
        }
        t
    }

    fn here(&self) -> usize {
        self.peek().map_or(self.end, |t| t.start)
    }

    fn enter(&mut self) -> Result<()> {
        self.depth += 1;
        if self.depth > MAX_DEPTH {
            Err(syntax(self.here(), "the expression is nested too deeply"))
        } else {
            Ok(())
        }
    }

    fn expr(&mut self) -> Result<Expr> {
        let mut left = self.term()?;
        loop {
            let op = match self.peek_kind() {
                Some(TokenKind::Plus) => BinOp::Add,
                Some(TokenKind::Minus) => BinOp::Sub,
                _ => return Ok(left),
            };
            self.next();
            let right = self.term()?;
            left = Expr::Binary(op, Box::new(left), Box::new(right));
        }
    }

    fn term(&mut self) -> Result<Expr> {
        let mut left = self.unary()?;
        loop {
            let op = match self.peek_kind() {
                Some(TokenKind::Star) => {
                    self.next();
                    BinOp::Mul
                }
                Some(TokenKind::Slash) => {
                    self.next();
                    BinOp::Div
                }
                // Juxtaposition: `3x`, `2(x + 1)`, `x sin(x)`.
                Some(TokenKind::Number(_) | TokenKind::Ident(_) | TokenKind::LParen) => BinOp::Mul,
                _ => return Ok(left),
            };
            let right = self.unary()?;
            left = Expr::Binary(op, Box::new(left), Box::new(right));
        }
    }

    fn unary(&mut self) -> Result<Expr> {
        match self.peek_kind() {
            Some(TokenKind::Minus) => {
                self.next();
                self.enter()?;
                let inner = self.unary()?;
                self.depth -= 1;
                Ok(Expr::Neg(Box::new(inner)))
            }
            Some(TokenKind::Plus) => {
                self.next();
                self.enter()?;
                let inner = self.unary();
                self.depth -= 1;
                inner
            }
            _ => self.power(),
        }
    }

    fn power(&mut self) -> Result<Expr> {
        let base = self.primary()?;
        if self.peek_kind() == Some(&TokenKind::Caret) {
            self.next();
            self.enter()?;
            let exponent = self.unary()?;
            self.depth -= 1;
            return Ok(Expr::Binary(BinOp::Pow, Box::new(base), Box::new(exponent)));
        }
        Ok(base)
    }

    fn primary(&mut self) -> Result<Expr> {
        let at = self.here();
        let Some(token) = self.next() else {
            return Err(syntax(
                self.end,
                "the expression ends too early: expected a number, a variable, a function or `(`",
            ));
        };
        match token.kind {
            TokenKind::Number(n) => Ok(Expr::Number(n)),
            TokenKind::LParen => {
                let inner = self.parenthesised(at)?;
                Ok(inner)
            }
            TokenKind::Ident(name) => {
                let followed_by_paren = self.peek_kind() == Some(&TokenKind::LParen);
                if let Some(f) = Function::from_name(&name) {
                    if !followed_by_paren {
                        return Err(syntax(
                            at,
                            format!("`{name}` is a function: write its argument in parentheses, `{name}(x)`"),
                        ));
                    }
                    let open = self.here();
                    self.next();
                    let arg = self.parenthesised(open)?;
                    return Ok(Expr::Call(f, Box::new(arg)));
                }
                if followed_by_paren {
                    return Err(syntax(
                        at,
                        format!(
                            "unknown function `{name}` (known functions: {}); to multiply, write `{name}*(...)`",
                            function_list()
                        ),
                    ));
                }
                Ok(match name.as_str() {
                    "pi" => Expr::Constant(Constant::Pi),
                    "e" => Expr::Constant(Constant::E),
                    _ => Expr::Variable(name),
                })
            }
            other => Err(syntax(
                at,
                format!(
                    "expected a number, a variable, a function or `(`, found {}",
                    other.describe()
                ),
            )),
        }
    }

    /// After an opening parenthesis at byte `open`: `expr )`.
    fn parenthesised(&mut self, open: usize) -> Result<Expr> {
        self.enter()?;
        let inner = self.expr()?;
        self.depth -= 1;
        match self.next() {
            Some(Token {
                kind: TokenKind::RParen,
                ..
            }) => Ok(inner),
            Some(t) => Err(syntax(
                t.start,
                format!(
                    "expected `)` to close the `(` at position {open}, found {}",
                    t.kind.describe()
                ),
            )),
            None => Err(syntax(
                self.end,
                format!("missing `)` to close the `(` at position {open}"),
            )),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    fn eval(text: &str, x: f64) -> f64 {
        Expr::parse(text).unwrap().eval("x", x).unwrap()
    }

    fn close(a: f64, b: f64) -> bool {
        (a - b).abs() <= 1e-12 * a.abs().max(b.abs()).max(1.0)
    }

    #[test]
    fn precedence_and_associativity() {
        assert_eq!(eval("1 + 2 * 3", 0.0), 7.0);
        assert_eq!(eval("(1 + 2) * 3", 0.0), 9.0);
        assert_eq!(eval("2 ^ 3 ^ 2", 0.0), 512.0);
        assert_eq!(eval("-x^2", 3.0), -9.0);
        assert_eq!(eval("2^-1", 0.0), 0.5);
        assert_eq!(eval("10 - 4 - 3", 0.0), 3.0);
        assert_eq!(eval("16 / 4 / 2", 0.0), 2.0);
        assert_eq!(eval("--x", 2.0), 2.0);
        assert_eq!(eval("+x", 2.0), 2.0);
        assert_eq!(eval("x**2", 3.0), 9.0);
        assert_eq!(eval("2·x × 3 − 1", 1.0), 5.0);
    }

    #[test]
    fn numbers_constants_functions() {
        assert_eq!(eval("0.5 + .25 + 1e-3 + 2.5E+2", 0.0), 250.751);
        assert!(close(eval("pi", 0.0), core::f64::consts::PI));
        assert!(close(eval("π/2", 0.0), core::f64::consts::FRAC_PI_2));
        assert!(close(eval("e^x", 2.0), 2f64.exp()));
        assert!(close(eval("ln(e)", 0.0), 1.0));
        assert!(close(eval("log(e^3)", 0.0), 3.0));
        assert!(close(eval("log2(8) + log10(1000)", 0.0), 6.0));
        assert!(close(eval("sqrt(16) + abs(-2)", 0.0), 6.0));
        assert!(close(eval("tanh(0) + tan(0) + cos(0)", 0.0), 1.0));
        let x = 0.7;
        assert!(close(
            eval("x^2 + 3*x - sin(2*x)/exp(x)", x),
            x * x + 3.0 * x - (2.0 * x).sin() / x.exp()
        ));
    }

    #[test]
    fn juxtaposition_multiplies() {
        assert_eq!(eval("3x", 2.0), 6.0);
        assert_eq!(eval("2(x + 1)", 2.0), 6.0);
        assert!(close(eval("0.5 sin(3x)", 1.0), 0.5 * 3f64.sin()));
        assert_eq!(eval("2x^2", 3.0), 18.0);
        assert_eq!(eval("(x-1)(x+1)", 3.0), 8.0);
        // "2e" is 2·e, "2e3" is 2000.
        assert!(close(eval("2e", 0.0), 2.0 * core::f64::consts::E));
        assert_eq!(eval("2e3", 0.0), 2000.0);
    }

    #[test]
    fn course_function_matches_core() {
        let f = Expr::parse("(x - 2)^2 + 0.5*sin(3*x)").unwrap();
        for x in [-1.0, 0.0, 0.3, 2.0, 5.5] {
            let want = crate::descent::Function1D::Course.value(x);
            assert!(close(f.eval("x", x).unwrap(), want));
        }
    }

    fn err(text: &str) -> (usize, String) {
        match Expr::parse(text) {
            Err(CoreError::Syntax { position, message }) => (position, message),
            other => panic!("expected a syntax error for {text:?}, got {other:?}"),
        }
    }

    #[test]
    fn errors_carry_positions() {
        assert_eq!(err("").0, 0);
        assert_eq!(err("   ").0, 0);
        let (pos, msg) = err("x + ");
        assert_eq!(pos, 4);
        assert!(msg.contains("ends too early"), "{msg}");
        let (pos, msg) = err("(x + 1");
        assert_eq!(pos, 6);
        assert!(msg.contains("missing `)`"), "{msg}");
        let (pos, msg) = err("x + 1)");
        assert_eq!(pos, 5);
        assert!(msg.contains("unexpected `)`"), "{msg}");
        let (pos, msg) = err("2 * sinh(x)");
        assert_eq!(pos, 4);
        assert!(msg.contains("unknown function `sinh`"), "{msg}");
        let (pos, msg) = err("sin x");
        assert_eq!(pos, 0);
        assert!(msg.contains("sin(x)"), "{msg}");
        let (pos, msg) = err("x $ 2");
        assert_eq!(pos, 2);
        assert!(msg.contains("`$`"), "{msg}");
        let (pos, _) = err("1.2.3 + x");
        assert_eq!(pos, 0);
        let (pos, msg) = err("x * * 2");
        assert_eq!(pos, 4);
        assert!(msg.contains("found `*`"), "{msg}");
        let deep = "(".repeat(10_000) + "x" + &")".repeat(10_000);
        assert!(err(&deep).1.contains("nested too deeply"));
        let display = CoreError::Syntax {
            position: 3,
            message: "boom".into(),
        }
        .to_string();
        assert_eq!(display, "boom (at byte 3)");
    }

    #[test]
    fn variables_and_evaluation_errors() {
        let e = Expr::parse("a*x + b").unwrap();
        assert_eq!(e.variables(), vec!["a", "b", "x"]);
        assert_eq!(
            e.eval("x", 1.0),
            Err(CoreError::UnknownVariable {
                name: "a".into(),
                expected: "x".into()
            })
        );
        assert!(e.value("x", 1.0).is_nan());
        let u = Expr::parse("sin(u)").unwrap();
        assert!(close(u.eval("u", 1.0).unwrap(), 1f64.sin()));
        assert_eq!(
            Expr::parse("ln(x)").unwrap().eval("x", 0.0),
            Err(CoreError::FunctionNotFinite { x: 0.0 })
        );
        assert!(Expr::parse("sqrt(x)").unwrap().eval("x", -1.0).is_err());
    }

    #[test]
    fn display_round_trips() {
        for text in [
            "x^2 + 3*x - sin(2*x)/exp(x)",
            "-x^2",
            "2^3^2",
            "pi*e",
            "(x-1)(x+1)",
        ] {
            let e = Expr::parse(text).unwrap();
            assert_eq!(Expr::parse(&e.to_string()).unwrap(), e, "{text} → {e}");
        }
    }

    proptest! {
        /// A polynomial written out as text evaluates like Horner's rule.
        #[test]
        fn polynomial_text_evaluates_like_direct_computation(
            coefficients in proptest::collection::vec(-100.0f64..100.0, 1..6),
            x in -3.0f64..3.0,
        ) {
            let text = coefficients
                .iter()
                .enumerate()
                .map(|(k, c)| format!("{c} * x^{k}"))
                .collect::<Vec<_>>()
                .join(" + ");
            let direct = coefficients.iter().rev().fold(0.0, |acc, c| acc * x + c);
            let parsed = Expr::parse(&text).unwrap().eval("x", x).unwrap();
            let scale: f64 = coefficients.iter().map(|c| c.abs()).sum::<f64>() * 3f64.powi(6);
            prop_assert!((parsed - direct).abs() <= 1e-12 * scale.max(1.0),
                "{} at x = {}: {} vs {}", text, x, parsed, direct);
        }

        /// Parsing never panics, whatever the input; errors point inside it.
        #[test]
        fn parse_never_panics(text in "[x0-9.+*/^() eπsinlog-]{0,40}") {
            match Expr::parse(&text) {
                Ok(_) => {}
                Err(CoreError::Syntax { position, .. }) => prop_assert!(position <= text.len()),
                Err(other) => prop_assert!(false, "unexpected error {:?}", other),
            }
        }
    }
}
