//! Normalization: every argument becomes a braced group (`x_i` → `x_{i}`, `\frac12` →
//! `\frac{1}{2}`), each token annotated with its role; `\sym`/`\nosym` read here.

use std::ops::Range;

use crate::commands::{command_spec, env_has_spec_arg, is_delimiter_command, is_size_command};
use crate::output::Writer;
use crate::token::{tokenize, Kind, Role, Tok, Token};

/// An author mistake in an inspectable formula.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Problem {
    /// Bytes in the input TeX.
    pub range: Range<usize>,
    /// What is wrong.
    pub message: String,
    /// How to fix it.
    pub hint: String,
}

/// `tex` with every argument braced (`x_i` → `x_{i}`, `\frac12` → `\frac{1}{2}`,
/// `\mathbf x` → `\mathbf{x}`), `%` comments dropped, `\nosym{tex}` and `\sym{id}{tex}`
/// replaced by `{tex}`, and nothing tagged. KaTeX renders it exactly like `tex`.
pub fn normalize(tex: &str) -> String {
    let norm = Normalizer::run(tex, &[]);
    let mut w = Writer::default();
    for t in &norm.out {
        w.token(t);
    }
    w.out
}

/// A canonical form of a symbol's TeX: two symbols are the same when their keys are equal
/// (`\mathbf x` and `\mathbf{x}`, `x_i` and `x_{i}`).
///
/// The key is the normalized token sequence with whitespace dropped (a space is kept
/// after a control word followed by a letter, so `\alpha x` does not become `\alphax`).
pub fn key(tex: &str) -> String {
    let norm = Normalizer::run(tex, &[]);
    let mut w = Writer::default();
    for t in norm.out.iter().filter(|t| t.kind != Kind::Space) {
        w.token(t);
    }
    w.out
}

#[derive(Debug, Clone, Copy, Default)]
struct Ctx {
    opaque: bool,
    locked: bool,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Stop {
    Eof,
    Brace,
    Bracket,
}

/// Nesting beyond this is copied flat (no normalization) so garbage cannot overflow the stack.
const MAX_DEPTH: usize = 200;

pub(crate) struct Normalizer<'a> {
    pub(crate) raw: Vec<Token>,
    pub(crate) pos: usize,
    pub(crate) depth: usize,
    pub(crate) ids: &'a [&'a str],
    pub(crate) out: Vec<Tok>,
    /// `\sym` overrides: index of the emitted `\htmlData` token and the id.
    pub(crate) forced: Vec<(usize, String)>,
    pub(crate) problems: Vec<Problem>,
}

impl<'a> Normalizer<'a> {
    pub(crate) fn run(tex: &str, ids: &'a [&'a str]) -> Self {
        let mut n = Normalizer {
            raw: tokenize(tex),
            pos: 0,
            depth: 0,
            ids,
            out: Vec::new(),
            forced: Vec::new(),
            problems: Vec::new(),
        };
        n.seq(Stop::Eof, Ctx::default());
        n
    }

    fn peek(&self) -> Option<&Token> {
        self.raw.get(self.pos)
    }

    fn peek_text(&self) -> Option<&str> {
        self.peek().map(|t| t.text.as_str())
    }

    /// Index of the next non-whitespace raw token.
    fn next_nonspace(&self) -> usize {
        let mut i = self.pos;
        while self.raw.get(i).is_some_and(|t| t.kind == Kind::Space) {
            i += 1;
        }
        i
    }

    fn skip_space(&mut self) {
        self.pos = self.next_nonspace();
    }

    fn push(&mut self, tok: Token, role: Role, delta: i32, ctx: Ctx) -> usize {
        self.out.push(Tok {
            text: tok.text,
            kind: tok.kind,
            range: tok.range,
            role,
            delta,
            opaque: ctx.opaque,
            locked: ctx.locked,
            delim: false,
            arg_start: matches!(role, Role::ArgOpen | Role::OptOpen | Role::Star),
        });
        self.out.len() - 1
    }

    /// Pushes the current raw token.
    fn take(&mut self, role: Role, delta: i32, ctx: Ctx) -> usize {
        let tok = self.raw[self.pos].clone();
        self.pos += 1;
        self.push(tok, role, delta, ctx)
    }

    fn inserted(text: &str, kind: Kind) -> Token {
        Token {
            text: text.to_string(),
            kind,
            range: None,
        }
    }

    fn seq(&mut self, stop: Stop, ctx: Ctx) {
        while let Some(t) = self.peek() {
            match t.text.as_str() {
                "}" if t.kind == Kind::Char => {
                    if stop == Stop::Eof {
                        // Unbalanced: keep it, but no match may contain it.
                        self.take(Role::Plain, -1, ctx);
                    } else {
                        break;
                    }
                }
                "]" if t.kind == Kind::Char && stop == Stop::Bracket => break,
                _ => self.element(ctx),
            }
        }
    }

    /// One item of a sequence (the current token is not a closing brace).
    fn element(&mut self, ctx: Ctx) {
        let Some(t) = self.peek() else { return };
        match (t.kind, t.text.as_str()) {
            (Kind::Space, _) => {
                self.take(Role::Plain, 0, ctx);
            }
            (Kind::Char, "{") => self.group(ctx, Role::GroupOpen, Role::GroupClose),
            (Kind::Char, "_" | "^") => {
                self.take(Role::Plain, 0, ctx);
                self.arg(ctx);
            }
            (Kind::Word | Kind::Symbol, _) => self.command(ctx),
            (Kind::Char, "\\") => {
                // A lone backslash at the very end: wrapping it would escape our brace.
                let i = self.take(Role::Plain, 0, ctx);
                self.out[i].locked = true;
            }
            _ => {
                self.take(Role::Plain, 0, ctx);
            }
        }
    }

    /// A braced group starting at the current `{`.
    fn group(&mut self, ctx: Ctx, open: Role, close: Role) {
        if self.depth >= MAX_DEPTH {
            self.flat_group();
            return;
        }
        self.depth += 1;
        self.take(open, 1, ctx);
        self.seq(Stop::Brace, ctx);
        if self.peek_text() == Some("}") {
            self.take(close, -1, ctx);
        }
        self.depth -= 1;
    }

    /// Too deep: copies the group verbatim, locked.
    fn flat_group(&mut self) {
        let ctx = Ctx {
            opaque: true,
            locked: true,
        };
        let mut level = 0usize;
        while let Some(t) = self.peek() {
            let is_char = t.kind == Kind::Char;
            match t.text.as_str() {
                "{" if is_char => {
                    level += 1;
                    self.take(Role::GroupOpen, 1, ctx);
                }
                "}" if is_char => {
                    self.take(Role::GroupClose, -1, ctx);
                    level = level.saturating_sub(1);
                    if level == 0 {
                        return;
                    }
                }
                _ => {
                    self.take(Role::Plain, 0, ctx);
                }
            }
        }
    }

    /// A mandatory argument: a braced group, or the next atom wrapped in inserted braces.
    /// Whitespace before it is dropped.
    fn arg(&mut self, ctx: Ctx) {
        self.skip_space();
        let Some(t) = self.peek() else { return };
        if t.kind == Kind::Char && (t.text == "}" || t.text == "\\") {
            return;
        }
        if t.kind == Kind::Char && t.text == "{" {
            self.group(ctx, Role::ArgOpen, Role::ArgClose);
            return;
        }
        self.push(Self::inserted("{", Kind::Char), Role::ArgOpen, 1, ctx);
        self.atom(ctx);
        self.push(Self::inserted("}", Kind::Char), Role::ArgClose, -1, ctx);
    }

    /// An unbraced argument: one token, or a command with known arity and its arguments.
    fn atom(&mut self, ctx: Ctx) {
        let Some(t) = self.peek() else { return };
        let is_cmd = matches!(t.kind, Kind::Word | Kind::Symbol)
            && command_spec(&t.text).is_some()
            && self.depth < MAX_DEPTH;
        if is_cmd {
            self.depth += 1;
            self.command(ctx);
            self.depth -= 1;
        } else {
            self.take(Role::Plain, 0, ctx);
        }
    }

    /// An optional `[...]` argument starting at the current `[`.
    fn opt(&mut self, ctx: Ctx) {
        if self.depth >= MAX_DEPTH {
            self.take(Role::Plain, 0, ctx);
            return;
        }
        self.depth += 1;
        self.take(Role::OptOpen, 1, ctx);
        self.seq(Stop::Bracket, ctx);
        if self.peek_text() == Some("]") {
            self.take(Role::OptClose, -1, ctx);
        }
        self.depth -= 1;
    }

    fn next_is(&self, text: &str) -> bool {
        self.raw
            .get(self.next_nonspace())
            .is_some_and(|t| t.kind == Kind::Char && t.text == text)
    }

    /// A command (control word or symbol) at the current position.
    fn command(&mut self, ctx: Ctx) {
        let name = self.raw[self.pos].text.clone();
        match name.as_str() {
            "\\sym" => self.sym(),
            "\\nosym" => self.nosym(),
            "\\begin" | "\\end" => self.environment_edge(ctx),
            "\\\\" => self.line_break(ctx),
            "\\rule" => self.rule(ctx),
            // `\not` applies to the next token like `\left` to its delimiter: neither can
            // be part of a match.
            _ if is_delimiter_command(&name) || name == "\\not" => self.delimiter(ctx),
            _ if is_size_command(&name) => {
                self.take(Role::Plain, 0, ctx);
                self.size_arg();
            }
            _ => self.with_arguments(&name, ctx),
        }
    }

    /// `\nosym{tex}`: the group kept, opaque and locked, the command dropped.
    fn nosym(&mut self) {
        self.pos += 1;
        let start = self.out.len();
        self.arg(Ctx {
            opaque: true,
            locked: true,
        });
        // `\nosym` itself is dropped from the output, so its group is nobody's
        // argument: a symbol right before it may still be wrapped.
        if let Some(open) = self.out.get_mut(start) {
            open.arg_start = false;
        }
    }

    /// `\begin{env}` (with the column spec of an array-like environment) or `\end{env}`.
    fn environment_edge(&mut self, ctx: Ctx) {
        let delta = if self.raw[self.pos].text == "\\begin" {
            1
        } else {
            -1
        };
        self.take(Role::Plain, delta, ctx);
        let opaque = Ctx {
            opaque: true,
            ..ctx
        };
        let start = self.out.len();
        self.arg(opaque);
        let env: String = self.out[start..]
            .iter()
            .filter(|t| !matches!(t.role, Role::ArgOpen | Role::ArgClose))
            .map(|t| t.text.as_str())
            .collect();
        if delta == 1 && env_has_spec_arg(env.trim()) && self.next_is("{") {
            self.arg(opaque);
        }
    }

    /// `\\` and its optional `[dimension]`, locked.
    fn line_break(&mut self, ctx: Ctx) {
        self.take(Role::Plain, 0, ctx);
        if self.next_is("[") {
            self.skip_space();
            self.opt(Ctx {
                opaque: true,
                locked: true,
            });
        }
    }

    /// `\left`, `\right`, `\big`... or `\not`, and the token it applies to: both marked
    /// as delimiters.
    fn delimiter(&mut self, ctx: Ctx) {
        let i = self.take(Role::Plain, 0, ctx);
        self.out[i].delim = true;
        while self.peek().is_some_and(|t| t.kind == Kind::Space) {
            self.take(Role::Plain, 0, ctx);
        }
        if let Some(t) = self.peek() {
            if !(t.kind == Kind::Char && (t.text == "{" || t.text == "}")) {
                let i = self.take(Role::Plain, 0, ctx);
                self.out[i].delim = true;
            }
        }
    }

    /// `\rule[raise]{width}{height}`: every dimension locked.
    fn rule(&mut self, ctx: Ctx) {
        self.take(Role::Plain, 0, ctx);
        let locked = Ctx {
            opaque: true,
            locked: true,
        };
        if self.next_is("[") {
            self.skip_space();
            self.opt(locked);
        }
        for _ in 0..2 {
            if self.next_is("{") {
                self.arg(locked);
            }
        }
    }

    /// Any other command: its star, optional and mandatory arguments as the command
    /// table gives them (none for a command the table does not know).
    fn with_arguments(&mut self, name: &str, ctx: Ctx) {
        let Some(spec) = command_spec(name) else {
            self.take(Role::Plain, 0, ctx);
            return;
        };
        self.take(Role::Plain, 0, ctx);
        if spec.star && self.next_is("*") {
            self.skip_space();
            self.take(Role::Star, 0, ctx);
        }
        if let Some(opaque) = spec.opt {
            if self.next_is("[") {
                self.skip_space();
                self.opt(Ctx {
                    opaque: ctx.opaque || opaque,
                    ..ctx
                });
            }
        }
        for &opaque in spec.args {
            self.arg(Ctx {
                opaque: ctx.opaque || opaque,
                ..ctx
            });
        }
    }

    /// A dimension after `\kern` and friends: `{2pt}` or `-1.5em`, locked.
    fn size_arg(&mut self) {
        let locked = Ctx {
            opaque: true,
            locked: true,
        };
        if self.next_is("{") {
            self.skip_space();
            self.group(locked, Role::ArgOpen, Role::ArgClose);
            return;
        }
        let mark = self.out.len();
        while self.peek().is_some_and(|t| t.kind == Kind::Space) {
            self.take(Role::Plain, 0, locked);
        }
        if self.peek().is_some_and(|t| t.text == "-" || t.text == "+") {
            self.take(Role::Plain, 0, locked);
        }
        while self.peek().is_some_and(|t| {
            t.kind == Kind::Char && t.text.chars().all(|c| c.is_ascii_digit() || c == '.')
        }) {
            self.take(Role::Plain, 0, locked);
        }
        while self.peek().is_some_and(|t| t.kind == Kind::Space) {
            self.take(Role::Plain, 0, locked);
        }
        for _ in 0..2 {
            if self.peek().is_some_and(|t| {
                t.kind == Kind::Char && t.text.chars().all(|c| c.is_ascii_alphabetic())
            }) {
                self.take(Role::Plain, 0, locked);
            }
        }
        if let Some(first) = self.out.get_mut(mark) {
            first.arg_start = true;
        }
    }

    /// `\sym{id}{tex}`: `\htmlData{mc-sym=id}{tex}` when `id` is known, else `{tex}` and a
    /// problem.
    fn sym(&mut self) {
        let start = self.raw[self.pos].range.as_ref().map_or(0, |r| r.start);
        self.pos += 1;
        let locked = Ctx {
            opaque: true,
            locked: true,
        };
        let mark = self.out.len();
        self.arg(locked);
        let id_toks = self.out.split_off(mark);
        let id: String = id_toks
            .iter()
            .filter(|t| t.kind != Kind::Space && !matches!(t.role, Role::ArgOpen | Role::ArgClose))
            .map(|t| t.text.as_str())
            .collect();
        let has_tex = {
            let i = self.next_nonspace();
            self.raw
                .get(i)
                .is_some_and(|t| !(t.kind == Kind::Char && t.text == "}"))
        };
        let known = self.ids.contains(&id.as_str());
        if known && has_tex {
            self.forced.push((self.out.len(), id.clone()));
            for (text, kind) in [
                ("\\htmlData", Kind::Word),
                ("{", Kind::Char),
                ("mc-sym=", Kind::Char),
                (id.as_str(), Kind::Char),
                ("}", Kind::Char),
            ] {
                self.push(Self::inserted(text, kind), Role::Plain, 0, locked);
            }
        }
        self.arg(locked);
        if !known {
            let end = self
                .pos
                .checked_sub(1)
                .and_then(|i| self.raw.get(i))
                .and_then(|t| t.range.as_ref())
                .map_or(start, |r| r.end)
                .max(start);
            self.problems.push(Problem {
                range: start..end,
                message: format!("`\\sym` names an unknown symbol `{id}`"),
                hint: unknown_id_hint(&id, self.ids),
            });
        }
    }
}

fn unknown_id_hint(id: &str, ids: &[&str]) -> String {
    if ids.is_empty() {
        return format!(
            "no symbols are registered; register `{id}` in the symbol registry, or write \
             `\\nosym{{...}}` to leave this part untagged"
        );
    }
    // Levenshtein distance in characters; a suggestion when at most a third of the id's
    // characters (at least one) differ, so `los` → `loss` but not `foo` → `x`.
    let best = ids
        .iter()
        .map(|c| (strsim::levenshtein(id, c), *c))
        .min_by_key(|(d, _)| *d);
    if let Some((d, c)) = best {
        if d <= (id.chars().count() / 3).max(1) {
            return format!("did you mean `{c}`? Write `\\sym{{{c}}}{{...}}`");
        }
    }
    const SHOWN: usize = 12;
    let mut list = ids
        .iter()
        .take(SHOWN)
        .map(|c| format!("`{c}`"))
        .collect::<Vec<_>>()
        .join(", ");
    if ids.len() > SHOWN {
        list.push_str(&format!(" and {} more", ids.len() - SHOWN));
    }
    format!("registered symbols: {list}")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn normalizes_scripts() {
        assert_eq!(normalize("x_i"), "x_{i}");
        assert_eq!(normalize("e^x"), "e^{x}");
        assert_eq!(normalize(r"x^\prime"), r"x^{\prime}");
        assert_eq!(normalize(r"e^{z_i/T}"), r"e^{z_{i}/T}");
        assert_eq!(normalize("x_ i ^ 2"), "x_{i} ^{2}");
        assert_eq!(normalize("x_{ij}"), "x_{ij}");
        assert_eq!(normalize(r"x_\mathbf{i}"), r"x_{\mathbf{i}}");
        assert_eq!(normalize(r"x_\mathbf i"), r"x_{\mathbf{i}}");
        assert_eq!(normalize(r"x^\frac12"), r"x^{\frac{1}{2}}");
        assert_eq!(normalize(r"\nabla_\theta"), r"\nabla_{\theta}");
    }

    #[test]
    fn normalizes_command_arguments() {
        assert_eq!(normalize(r"\sqrt d"), r"\sqrt{d}");
        assert_eq!(normalize(r"\sqrt5"), r"\sqrt{5}");
        assert_eq!(normalize(r"\frac12"), r"\frac{1}{2}");
        assert_eq!(normalize(r"\frac 1 2"), r"\frac{1}{2}");
        assert_eq!(normalize(r"\frac {a} {b}"), r"\frac{a}{b}");
        assert_eq!(normalize(r"\frac\alpha\beta"), r"\frac{\alpha}{\beta}");
        assert_eq!(normalize(r"\tfrac16"), r"\tfrac{1}{6}");
        assert_eq!(normalize(r"\mathbf x"), r"\mathbf{x}");
        assert_eq!(normalize(r"\hat y"), r"\hat{y}");
        assert_eq!(normalize(r"\frac\sqrt2 2"), r"\frac{\sqrt{2}}{2}");
        assert_eq!(normalize(r"\overset!="), r"\overset{!}{=}");
        assert_eq!(normalize(r"\textcolor{red}x"), r"\textcolor{red}{x}");
        assert_eq!(normalize(r"\color{red} x"), r"\color{red} x");
        assert_eq!(normalize(r"\binom nk"), r"\binom{n}{k}");
    }

    #[test]
    fn normalizes_optional_arguments_and_stars() {
        assert_eq!(normalize(r"\sqrt[3]{x}"), r"\sqrt[3]{x}");
        assert_eq!(normalize(r"\sqrt[3] x"), r"\sqrt[3]{x}");
        assert_eq!(normalize(r"\sqrt [n]x"), r"\sqrt[n]{x}");
        assert_eq!(normalize(r"\sqrt[n^2]{x}"), r"\sqrt[n^{2}]{x}");
        assert_eq!(
            normalize(r"\operatorname*{argmax}_x"),
            r"\operatorname*{argmax}_{x}"
        );
        assert_eq!(
            normalize(r"\operatorname * {argmax}"),
            r"\operatorname*{argmax}"
        );
        assert_eq!(normalize(r"[a, b]"), "[a, b]");
    }

    #[test]
    fn normalization_keeps_everything_else() {
        assert_eq!(normalize(r"\text{a b}"), r"\text{a b}");
        assert_eq!(normalize(r"\alpha x"), r"\alpha x");
        assert_eq!(normalize(r"\left( x \right)"), r"\left( x \right)");
        assert_eq!(normalize("a %c"), "a ");
        assert_eq!(normalize("a%c\nb"), "a\nb");
        assert_eq!(normalize(r"\kern1em x"), r"\kern1em x");
        assert_eq!(normalize(r"a \\[2pt] b"), r"a \\[2pt] b");
        assert_eq!(
            normalize(r"\begin{array}{cc} a & b \end{array}"),
            r"\begin{array}{cc} a & b \end{array}"
        );
        assert_eq!(normalize(r"\nosym x_i"), r"{x}_{i}");
        assert_eq!(normalize(r"\sym{a}{b}"), r"{b}");
        assert_eq!(normalize(""), "");
        // Garbage stays garbage, without panicking.
        assert_eq!(normalize("x_"), "x_");
        assert_eq!(normalize("{x_}"), "{x_}");
        assert_eq!(normalize("}{"), "}{");
        assert_eq!(normalize(r"\sqrt[3"), r"\sqrt[3");
    }

    #[test]
    fn keys_are_canonical() {
        assert_eq!(key(r"\mathbf x"), key(r"\mathbf{x}"));
        assert_eq!(key("x_i"), key("x_{i}"));
        assert_eq!(key("x _ i"), key("x_{i}"));
        assert_eq!(key(r"\theta_{t + 1}"), r"\theta_{t+1}");
        assert_eq!(key(r"\nabla_\theta"), key(r"\nabla_{\theta}"));
        assert_eq!(key(r"\frac12"), key(r"\frac{1}{2}"));
        assert_ne!(key("x_i"), key("x^i"));
        assert_ne!(key(r"\mathbf{x}"), key("x"));
        assert_eq!(key(""), "");
    }
}
