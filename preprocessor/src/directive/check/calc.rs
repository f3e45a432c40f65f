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
//! general expression grammar ([`mathcourse_core::expr::Expr::parse_general`]); a line may use only the
//! names defined above it, so there is no recursion. Values are numbers or vectors:
//! arithmetic and the core's one-argument functions work entry by entry, a number
//! combines with every entry of a vector, and the built-in functions of [`BUILTINS`]
//! reduce or transform vectors. Every name under `expect` is compared with the
//! precision written, as in every other check.

mod eval;
pub mod role;

use std::collections::HashMap;
use std::ops::Range;

use mathcourse_core::expr::{name_uses, parse_definition, Function};
use mathcourse_core::CoreError;
use serde_json::Value;

use super::run::{caret_len, Line, Run};
use super::stated::{self, Stated};
use super::tex;
use crate::diagnostic::Diagnostic;
use crate::directive::options;
use crate::directive::Cx;
use eval::{finite, Env, Val};

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

/// The values a `calc` block computed, by name: the `{calc}` roles of its body may use
/// them (set on [`Cx`] while the body renders).
pub use crate::directive::calc_scope::CalcScope as Scope;

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

    fn candidates(&self, kind: Kind, params: &[String]) -> Vec<String> {
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
    }
}

/// "; did you mean `x`?" for a name among `candidates`.
fn names_hint(name: &str, candidates: &[String]) -> String {
    let candidates: Vec<&str> = candidates.iter().map(String::as_str).collect();
    options::did_you_mean(name, &candidates)
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
                                names_hint(&u.name, &list)
                            )
                        } else {
                            format!(
                                "use a built-in function: sqrt exp ln sin cos sum mean variance std norm dot len softmax min max{}",
                                names_hint(&u.name, &list)
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
                    names_hint(&u.name, &list)
                )
            } else {
                format!(
                    "an inline `{{calc}}` uses numbers, `pi`, `e`, functions and, in the text of a `{{check}} calc` block, that block's names{}",
                    names_hint(&u.name, &list)
                )
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

/// The options of a `calc` check, read as JSON values: their numbers are read again
/// from the source with their spans ([`stated`]).
#[derive(serde::Deserialize)]
#[serde(deny_unknown_fields)]
struct CalcOptions {
    lines: Value,
    #[serde(default)]
    #[allow(dead_code)] // read from the raw options, with spans
    expect: Option<Value>,
}

/// Runs a `calc` check.
pub(super) fn run(run: &Run) -> Result<Line, Diagnostic> {
    // Unknown keys and wrong shapes are reported the standard way, from the type.
    let typed: CalcOptions = run.options()?;
    let lines_span = run.span("lines");
    let Some(lines) = written_lines(&typed.lines, &run.cx.source, lines_span.clone()) else {
        return Err(run
            .cx
            .report
            .error(lines_span, "`lines` must be a list of definitions")
            .with_label("not a list of text lines")
            .with_hint(HINT));
    };
    if lines.is_empty() {
        return Err(run
            .cx
            .report
            .error(lines_span, "`lines` is empty")
            .with_hint(HINT));
    }
    let errors = LineErrors {
        cx: run.cx,
        lines_span,
    };
    let mut defining = Defining {
        env: Env::new(),
        names: Names {
            defined: Vec::new(),
        },
        first_at: HashMap::new(),
    };
    let done = lines
        .iter()
        .map(|line| defining.define(&errors, line))
        .collect::<Result<Vec<Done>, Diagnostic>>()?;
    let shown = compare_expected(run, &done)?;
    Ok(computation_line(&done, &shown))
}

/// Where an error about a line of `lines` points: into the line when it is written
/// verbatim (`position` inside it; [`RHS`] and above: the right-hand side from there),
/// else at `lines`.
struct LineErrors<'c> {
    cx: &'c Cx<'c>,
    lines_span: Range<usize>,
}

impl LineErrors<'_> {
    fn at(
        &self,
        line: &Written,
        position: Option<usize>,
        message: impl Into<String>,
        label: impl Into<String>,
        hint: impl Into<String>,
    ) -> Diagnostic {
        let span = match (line.at, position) {
            (Some(at), Some(p)) if p >= RHS => {
                // The whole right-hand side, from `p - RHS` on.
                let p = (p - RHS).min(line.text.len());
                at + p..at + line.text.len()
            }
            (Some(at), Some(p)) => {
                let p = p.min(line.text.len());
                at + p..at + p + caret_len(&line.text, p)
            }
            (Some(at), None) => at..at + line.text.len(),
            (None, _) => self.lines_span.clone(),
        };
        self.cx
            .report
            .error(span, message)
            .with_label(label)
            .with_hint(hint)
    }
}

/// The lines defined so far: their values and functions, their names, and where each
/// name was first defined.
struct Defining {
    env: Env,
    names: Names,
    first_at: HashMap<String, Option<usize>>,
}

impl Defining {
    /// Reads, checks and computes one line of `lines`.
    fn define(&mut self, errors: &LineErrors, line: &Written) -> Result<Done, Diagnostic> {
        let def = parse_definition(&line.text).map_err(|e| match e {
            CoreError::Syntax { position, message } => errors.at(
                line,
                Some(position),
                "invalid line in `lines`",
                message,
                HINT,
            ),
            other => errors.at(
                line,
                None,
                "invalid line in `lines`",
                other.to_string(),
                HINT,
            ),
        })?;
        self.check_name(errors, line, &def)?;
        self.first_at.insert(def.name.clone(), line.at);
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
            let env = &mut self.env;
            let v = env.eval(&def.body, &[]).map_err(|e| {
                let rhs = RHS + def.body_start + leading_space(&line.text[def.body_start..]);
                errors.at(
                    line,
                    Some(rhs),
                    format!("cannot compute `{}`", def.name),
                    e.0,
                    HINT,
                )
            })?;
            if !finite(&v) {
                return Err(errors.at(
                    line,
                    None,
                    format!("`{}` is not a finite number", def.name),
                    env.fault.unwrap_or(eval::DOMAIN),
                    "check the inputs of this line",
                ));
            }
            env.values.insert(def.name.clone(), v.clone());
            self.names.defined.push((def.name.clone(), Kind::Value));
            Some(v)
        } else {
            self.env
                .functions
                .insert(def.name.clone(), (params.clone(), def.body.clone()));
            self.names.defined.push((def.name.clone(), Kind::Function));
            None
        };
        Ok(Done {
            name: def.name,
            lhs_tex,
            rhs_tex,
            text: line.text.clone(),
            value,
        })
    }

    /// The line's name is not a built-in nor defined above, and it uses only names
    /// defined above (and its parameters).
    fn check_name(
        &self,
        errors: &LineErrors,
        line: &Written,
        def: &mathcourse_core::expr::Definition,
    ) -> Result<(), Diagnostic> {
        if BUILTINS.iter().any(|(n, _)| *n == def.name) {
            return Err(errors.at(
                line,
                Some(0),
                format!("`{}` is a built-in function", def.name),
                "cannot be redefined",
                "choose another name",
            ));
        }
        if let Some(previous) = self.first_at.get(&def.name) {
            let first = previous.map_or(String::new(), |p| {
                let (l, _) = crate::diagnostic::line_col(&errors.cx.source, p);
                format!(" (first on line {l})")
            });
            return Err(errors.at(
                line,
                Some(0),
                format!("`{}` is defined twice", def.name),
                format!("defined again here{first}"),
                "give each line its own name",
            ));
        }
        if let Err((position, _, message, hint)) =
            check_names(&line.text, def.body_start, &def.params, &self.names, true)
        {
            return Err(errors.at(line, Some(position), message, "used here", hint));
        }
        Ok(())
    }
}

/// How a stated value shows in the computation line: its TeX, its text, and the
/// relation to the computed value (TeX and text).
type Shown = (String, String, &'static str, &'static str);

/// Every name under `expect`, compared with the value its line computed.
fn compare_expected(run: &Run, done: &[Done]) -> Result<HashMap<String, Shown>, Diagnostic> {
    let cx = run.cx;
    let expect_span = run.span("expect");
    let stated = read_expect(run, &expect_span)?;
    if stated.is_empty() {
        return Err(cx
            .report
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
    let mut shown: HashMap<String, Shown> = HashMap::new();
    for (name, key_span, value_span, st) in stated {
        let Some(line) = done.iter().find(|d| d.name == name) else {
            let defined: Vec<&str> = done
                .iter()
                .filter(|d| d.value.is_some())
                .map(|d| d.name.as_str())
                .collect();
            let list = options::backticked(&defined);
            return Err(cx
                .report
                .error(
                    key_span,
                    format!("`expect` names `{name}`, which no line defines"),
                )
                .with_label("not defined in `lines`")
                .with_hint(format!(
                    "the values defined are {list}{}",
                    options::did_you_mean(&name, &defined)
                )));
        };
        let what = format!("expect.{name}");
        let s = match &line.value {
            None => {
                return Err(cx
                    .report
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
    Ok(shown)
}

/// The computation line: each definition, with the stated value where one is expected.
fn computation_line(done: &[Done], shown: &HashMap<String, Shown>) -> Line {
    let mut tex_rows = Vec::new();
    let mut text_rows = Vec::new();
    for d in done {
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
    let scope = Scope(
        done.iter()
            .filter_map(|d| d.value.clone().map(|v| (d.name.clone(), v)))
            .collect(),
    );
    Line {
        scope,
        computed: done
            .iter()
            .filter_map(|d| d.value.as_ref())
            .flat_map(|v| match v {
                Val::Scalar(x) => vec![*x],
                Val::Vector(xs) => xs.clone(),
            })
            .collect(),
        tex: format!(
            "\\begin{{aligned}}{}\\end{{aligned}}",
            tex_rows.join(" \\\\ ")
        ),
        text: text_rows.join("; "),
    }
}

fn leading_space(s: &str) -> usize {
    s.len() - s.trim_start().len()
}

/// One stated value of `expect`: name, key span, value span, the numbers as written.
type Expected = (String, Range<usize>, Range<usize>, Stated);

/// The stated values of `expect`.
fn read_expect(run: &Run, expect_span: &Range<usize>) -> Result<Vec<Expected>, Diagnostic> {
    let cx = run.cx;
    let source = &cx.source;
    let hint =
        "name each stated value: `expect: {mu: 2, var: 0.667}`, or one per line under `expect:`";
    let read_err = |span: Range<usize>, message: String| {
        cx.report
            .error(span, "could not read the stated values `expect`")
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_role_across_lines_is_checked_and_located_at_the_role() {
        use crate::directive::testkit::{errors, render};
        // The code span's line break reads as a space: the content is not verbatim in
        // the source, so errors point at the whole role (found by the fuzzer: a caret
        // inside `≈`).
        let out = render("About {calc}`1/e ≈\n0.368`, one nat.\n");
        assert!(out.contains("class=\"katex\""), "{out}");
        let e = errors("Wrong: {calc}`1/e ≈\n0.37é`.\n");
        assert!(e.contains("src/t.md:2:1"), "{e}");
        let e = errors("Wrong: {calc}`sqrt(2) ≈ 1.42`.\n");
        assert!(e.contains("stated 1.42, computed 1.4142"), "{e}");
        assert!(e.contains("src/t.md:1:25"), "{e}");
    }

    /// The precision compared is the one the digits say (no absolute slack; relative
    /// in scientific notation), the message says it, and the author's `≈` stays.
    #[test]
    fn a_role_is_compared_to_the_digits_written_and_keeps_its_sign() {
        use crate::directive::testkit::{errors, render};
        let e = errors("Wrong: {calc}`pi = 3.14159265358990`.\n");
        assert!(e.contains("checked to 14 decimals"), "{e}");
        assert!(e.contains("3.14159265358979"), "{e}");
        let out = render("Close: {calc}`pi ≈ 3.1415926536`.\n");
        assert!(out.contains("≈"), "{out}");
        assert!(
            !out.contains("<mo>=</mo>"),
            "the author's ≈ became =: {out}"
        );
        let out = render("Exact: {calc}`2^10 = 1024`.\n");
        assert!(out.contains("<mo>=</mo>"), "{out}");
        // Written `=` but rounded: shown as ≈.
        let out = render("Rounded: {calc}`sqrt(2) = 1.414`.\n");
        assert!(out.contains("≈"), "{out}");
        // 6.02e23 is three significant digits.
        let out = render("Big: {calc}`6.02214076 * 10^23 ≈ 6.02e23`.\n");
        assert!(out.contains("class=\"katex\""), "{out}");
        let e = errors("Big: {calc}`6.02214076 * 10^23 ≈ 6.03e23`.\n");
        assert!(e.contains("checked to 3 significant digits"), "{e}");
    }

    /// In the text of a `calc` block, a `{calc}` role uses the block's names; outside,
    /// they are unknown.
    #[test]
    fn a_role_in_a_calc_block_uses_its_names() {
        use crate::directive::testkit::{errors, render};
        let src = ":::{check} calc\n---\nlines: |\n  a = 2\n  b = a^2 + 1\nexpect:\n  b: 5\n---\nSo {calc}`sqrt(b) ≈ 2.24`.\n:::\n";
        let out = render(src);
        assert!(out.contains("class=\"katex\""), "{out}");
        let e = errors(&src.replace("2.24", "2.42"));
        assert!(e.contains("stated 2.42"), "{e}");
        let e = errors(&format!("{src}\nLater {{calc}}`sqrt(b) ≈ 2.24`.\n"));
        assert!(e.contains("unknown name `b`"), "{e}");
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
