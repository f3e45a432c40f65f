//! The lexer and the recursive-descent parser behind [`Expr::parse`],
//! [`Expr::parse_general`] and [`parse_definition`].

use super::{function_list, BinOp, Constant, Expr, Function, MAX_ARGS, MAX_DEPTH};
use crate::{CoreError, Result};
use core::iter::Peekable;
use core::str::CharIndices;

/// A definition line: `mu = (1 + 2 + 3)/3` or `sigma(x) = 1/(1 + exp(-x))`.
#[derive(Debug, Clone, PartialEq)]
pub struct Definition {
    /// The name defined.
    pub name: String,
    /// Its parameters, empty for a value.
    pub params: Vec<String>,
    /// The right-hand side, in the general form.
    pub body: Expr,
    /// Byte offset of the right-hand side in the line.
    pub body_start: usize,
}

/// Parses a definition line. Errors carry byte positions in `text`.
pub fn parse_definition(text: &str) -> Result<Definition> {
    let tokens = lex(text)?;
    let Some(eq) = tokens.iter().position(|t| t.kind == TokenKind::Equals) else {
        return Err(syntax(
            0,
            "expected a definition, `name = expression` or `f(x) = expression`",
        ));
    };
    let (head, rest) = tokens.split_at(eq);
    let eq_start = rest.first().map_or(0, |t| t.start);
    let (name, params) = match head {
        [Token {
            kind: TokenKind::Ident(name),
            ..
        }] => (name.clone(), Vec::new()),
        [Token {
            kind: TokenKind::Ident(name),
            ..
        }, Token {
            kind: TokenKind::LParen,
            ..
        }, inner @ .., Token {
            kind: TokenKind::RParen,
            ..
        }] => {
            let mut params = Vec::new();
            for (i, t) in inner.iter().enumerate() {
                match (&t.kind, i % 2) {
                    (TokenKind::Ident(p), 0) if !params.contains(p) => params.push(p.clone()),
                    (TokenKind::Comma, 1) => {}
                    _ => {
                        return Err(syntax(
                            t.start,
                            format!("expected a parameter name, found {}", t.kind.describe()),
                        ))
                    }
                }
            }
            if params.is_empty() || inner.len() % 2 == 0 {
                return Err(syntax(
                    head.get(1).map_or(0, |t| t.start),
                    "expected parameter names between `(` and `)`",
                ));
            }
            (name.clone(), params)
        }
        [] => return Err(syntax(eq_start, "a name is missing before `=`")),
        [first, ..] => {
            return Err(syntax(
                first.start,
                "the left of `=` must be a name, `mu`, or a function, `f(x)`",
            ))
        }
    };
    if Function::from_name(&name).is_some()
        || name == "pi"
        || name == "e"
        || name == "min"
        || name == "max"
    {
        return Err(syntax(
            head.first().map_or(0, |t| t.start),
            format!("`{name}` is built in and cannot be redefined"),
        ));
    }
    let body_start = eq_start + 1;
    let rest: Vec<Token> = rest.get(1..).unwrap_or(&[]).to_vec();
    let body = parse_tokens(rest, text.len(), true, body_start)?;
    Ok(Definition {
        name,
        params,
        body,
        body_start,
    })
}

/// A name as it occurs in an expression, for locating unknown names.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct NameUse {
    /// Byte offset in the text.
    pub position: usize,
    /// The name (`π` is reported as `pi`).
    pub name: String,
    /// Whether it is followed by `(`, that is, called.
    pub called: bool,
}

/// Every name in `text` other than the built-in functions and constants
/// (and `min`/`max` when called), in order. Errors if `text` does not lex.
pub fn name_uses(text: &str) -> Result<Vec<NameUse>> {
    let tokens = lex(text)?;
    let mut out = Vec::new();
    for (i, t) in tokens.iter().enumerate() {
        let TokenKind::Ident(name) = &t.kind else {
            continue;
        };
        let called = tokens.get(i + 1).map(|n| &n.kind) == Some(&TokenKind::LParen);
        let builtin = (called
            && (Function::from_name(name).is_some() || name == "min" || name == "max"))
            || (!called && (name == "pi" || name == "e"));
        if !builtin {
            out.push(NameUse {
                position: t.start,
                name: name.clone(),
                called,
            });
        }
    }
    Ok(out)
}

pub(super) fn parse(text: &str, general: bool) -> Result<Expr> {
    let tokens = lex(text)?;
    parse_tokens(tokens, text.len(), general, 0)
}

fn parse_tokens(tokens: Vec<Token>, end: usize, general: bool, start: usize) -> Result<Expr> {
    let mut parser = Parser {
        tokens,
        pos: 0,
        end,
        depth: 0,
        general,
    };
    if parser.tokens.is_empty() {
        return Err(syntax(start, "the expression is empty"));
    }
    let expr = parser.expr()?;
    match parser.peek() {
        None => Ok(expr),
        Some(t) => Err(syntax(t.start, format!("unexpected {}", t.kind.describe()))),
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
    LBracket,
    RBracket,
    Comma,
    Equals,
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
            TokenKind::LBracket => "`[`".into(),
            TokenKind::RBracket => "`]`".into(),
            TokenKind::Comma => "`,`".into(),
            TokenKind::Equals => "`=`".into(),
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
            tokens.push(Token {
                kind: TokenKind::Number(number(text, start, &mut chars)?),
                start,
            });
            continue;
        }
        if c.is_alphabetic() || c == '_' {
            tokens.push(Token {
                kind: TokenKind::Ident(ident(&mut chars)),
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
            '[' => TokenKind::LBracket,
            ']' => TokenKind::RBracket,
            ',' => TokenKind::Comma,
            '=' => TokenKind::Equals,
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

/// The number literal starting at byte `start` of `text` (digits and dots, then an
/// optional exponent), taken from `chars`.
fn number(text: &str, start: usize, chars: &mut Peekable<CharIndices<'_>>) -> Result<f64> {
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
    Ok(value)
}

/// The name starting at the next character of `chars` (`π` is `pi`).
fn ident(chars: &mut Peekable<CharIndices<'_>>) -> String {
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
    name
}

fn opener(close: &TokenKind) -> &'static str {
    if *close == TokenKind::RBracket {
        "`[`"
    } else {
        "`(`"
    }
}

struct Parser {
    tokens: Vec<Token>,
    pos: usize,
    end: usize,
    depth: usize,
    /// Calls to any name and vector literals are accepted.
    general: bool,
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
                Some(TokenKind::LBracket) if self.general => BinOp::Mul,
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
            TokenKind::LBracket if self.general => {
                Ok(Expr::Vector(self.list(at, TokenKind::RBracket)?))
            }
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
                if followed_by_paren && self.general {
                    let open = self.here();
                    self.next();
                    let args = self.list(open, TokenKind::RParen)?;
                    return Ok(Expr::Apply(name, args));
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

    /// After an opening `(` or `[` at byte `open`: `expr ("," expr)* close`.
    fn list(&mut self, open: usize, close: TokenKind) -> Result<Vec<Expr>> {
        self.enter()?;
        let mut items = vec![self.expr()?];
        loop {
            match self.next() {
                Some(Token {
                    kind: TokenKind::Comma,
                    ..
                }) => items.push(self.expr()?),
                Some(t) if t.kind == close => break,
                Some(t) => {
                    return Err(syntax(
                        t.start,
                        format!(
                            "expected `,` or {} to close the {} at position {open}, found {}",
                            close.describe(),
                            opener(&close),
                            t.kind.describe()
                        ),
                    ))
                }
                None => {
                    return Err(syntax(
                        self.end,
                        format!(
                            "missing {} to close the {} at position {open}",
                            close.describe(),
                            opener(&close)
                        ),
                    ))
                }
            }
        }
        self.depth -= 1;
        if close == TokenKind::RParen && items.len() > MAX_ARGS {
            return Err(syntax(
                open,
                format!("a call takes at most {MAX_ARGS} arguments"),
            ));
        }
        Ok(items)
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
