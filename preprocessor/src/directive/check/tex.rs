//! TeX for the computation line of a `{check}`: parsed expressions and numbers.

use mathcourse_core::expr::{BinOp, Constant, Expr, Function};

/// An expression as TeX, with as few parentheses as its meaning allows:
/// `(x - 2)^2 + 0.5*sin(3*x)` → `(x - 2)^{2} + 0.5\sin(3x)`.
pub fn expr(e: &Expr) -> String {
    raw(e)
}

fn prec(e: &Expr) -> u8 {
    match e {
        Expr::Binary(BinOp::Add | BinOp::Sub, ..) => 1,
        Expr::Binary(BinOp::Mul | BinOp::Div, ..) => 2,
        Expr::Neg(_) => 3,
        Expr::Binary(BinOp::Pow, ..) => 4,
        Expr::Number(_)
        | Expr::Constant(_)
        | Expr::Variable(_)
        | Expr::Call(..)
        | Expr::Apply(..)
        | Expr::Vector(_) => 5,
    }
}

/// `e` as TeX, parenthesised when its precedence is below `min` (or when it is a
/// unary minus and `no_neg` is set).
fn operand(e: &Expr, min: u8, no_neg: bool) -> String {
    if prec(e) < min || (no_neg && matches!(e, Expr::Neg(_))) {
        paren(&raw(e))
    } else {
        raw(e)
    }
}

fn paren(s: &str) -> String {
    // Already one group (a tuple such as a vector argument): `exp((1, 2))` reads badly.
    if is_one_group(s) {
        return s.to_string();
    }
    if s.contains("\\frac") || s.contains("\\sqrt") {
        format!("\\left({s}\\right)")
    } else {
        format!("({s})")
    }
}

/// True when `s` is `(…)` with the first parenthesis closed by the last character.
fn is_one_group(s: &str) -> bool {
    if !(s.starts_with('(') && s.ends_with(')')) {
        return false;
    }
    let mut depth = 0usize;
    for (i, c) in s.char_indices() {
        match c {
            '(' => depth += 1,
            ')' => {
                depth = depth.saturating_sub(1);
                if depth == 0 && i + 1 < s.len() {
                    return false;
                }
            }
            _ => {}
        }
    }
    depth == 0
}

fn raw(e: &Expr) -> String {
    match e {
        Expr::Number(n) => format!("{n}"),
        Expr::Constant(Constant::Pi) => "\\pi".into(),
        Expr::Constant(Constant::E) => "e".into(),
        Expr::Variable(v) => variable(v),
        Expr::Neg(a) => format!("-{}", operand(a, 2, true)),
        Expr::Binary(op, a, b) => match op {
            BinOp::Add => format!("{} + {}", operand(a, 1, false), operand(b, 1, true)),
            BinOp::Sub => format!("{} - {}", operand(a, 1, false), operand(b, 2, true)),
            BinOp::Mul => {
                let left = operand(a, 2, false);
                let right = operand(b, 2, true);
                let numeric_start = right.starts_with(|c: char| c.is_ascii_digit() || c == '.');
                let fraction = right.starts_with("\\frac") || left.ends_with('}');
                if numeric_start || fraction {
                    format!("{left} \\cdot {right}")
                } else if right.starts_with('\\') && left.ends_with(|c: char| c.is_alphabetic()) {
                    format!("{left}\\,{right}")
                } else {
                    format!("{left}{right}")
                }
            }
            BinOp::Div => format!("\\frac{{{}}}{{{}}}", raw(a), raw(b)),
            BinOp::Pow => format!("{}^{{{}}}", operand(a, 5, true), raw(b)),
        },
        Expr::Call(f, a) => {
            let arg = raw(a);
            match f {
                Function::Sqrt => format!("\\sqrt{{{arg}}}"),
                Function::Abs => format!("\\left|{arg}\\right|"),
                Function::Log2 => format!("\\log_2{}", paren(&arg)),
                Function::Log10 => format!("\\log_{{10}}{}", paren(&arg)),
                Function::Sin => format!("\\sin{}", paren(&arg)),
                Function::Cos => format!("\\cos{}", paren(&arg)),
                Function::Tan => format!("\\tan{}", paren(&arg)),
                Function::Tanh => format!("\\tanh{}", paren(&arg)),
                Function::Atan => format!("\\arctan{}", paren(&arg)),
                Function::Exp => format!("\\exp{}", paren(&arg)),
                Function::Ln => format!("\\ln{}", paren(&arg)),
                Function::Log => format!("\\log{}", paren(&arg)),
                Function::Floor => format!("\\left\\lfloor {arg}\\right\\rfloor"),
                Function::Ceil => format!("\\left\\lceil {arg}\\right\\rceil"),
            }
        }
        Expr::Apply(name, args) => {
            // A single vector argument is the call's own tuple: `softmax(2, 1, 0)`.
            let args: Vec<String> = match args.as_slice() {
                [Expr::Vector(items)] => items.iter().map(raw).collect(),
                _ => args.iter().map(raw).collect(),
            };
            let head = match name.as_str() {
                "min" | "max" => format!("\\{name}"),
                _ if name.chars().count() == 1 || GREEK.contains(&name.as_str()) => variable(name),
                _ => format!("\\operatorname{{{}}}", escape_name(name)),
            };
            format!("{head}\\left({}\\right)", args.join(", "))
        }
        Expr::Vector(items) => {
            let items: Vec<String> = items.iter().map(raw).collect();
            // A tuple, as the checks write their vector inputs.
            format!("({})", items.join(", "))
        }
    }
}

const GREEK: &[&str] = &[
    "alpha", "beta", "gamma", "delta", "epsilon", "eta", "theta", "lambda", "mu", "sigma", "tau",
    "phi", "omega",
];

/// A name as TeX: one letter as is, a Greek name as its letter, else upright-italic text.
pub fn name(v: &str) -> String {
    variable(v)
}

fn variable(v: &str) -> String {
    if v.chars().count() == 1 && v.chars().all(|c| c.is_ascii_alphabetic()) {
        v.to_string()
    } else if GREEK.contains(&v) {
        format!("\\{v} ")
    } else {
        format!("\\mathit{{{}}}", escape_name(v))
    }
}

/// A name as TeX text: only letters, digits and `\_`.
fn escape_name(v: &str) -> String {
    let safe: String = v
        .chars()
        .filter(|c| c.is_alphanumeric() || *c == '_')
        .collect();
    safe.replace('_', "\\_")
}

/// A number as the author wrote it, for TeX: `−` → `-`, `1.5e-3` → `1.5 \times 10^{-3}`.
pub fn number(text: &str) -> String {
    let t = plain_number(text);
    match t.split_once(['e', 'E']) {
        Some((mantissa, exponent)) => {
            let exponent = exponent.trim_start_matches('+');
            format!("{mantissa} \\times 10^{{{exponent}}}")
        }
        None => t,
    }
}

/// A number as the author wrote it, for plain text: `−` → `-`, no leading `+`.
pub fn plain_number(text: &str) -> String {
    text.trim()
        .replace('−', "-")
        .trim_start_matches('+')
        .to_string()
}

/// An input value as text (shortest form that reads back to the same `f64`).
pub fn input(x: f64) -> String {
    if x == 0.0 {
        "0".into()
    } else {
        format!("{x}")
    }
}

/// Input values that are read together (a vector, a matrix) as text with the same
/// number of decimals, the most any of them needs: `(0.665241, 0.2447285, 0.0900306)`
/// reads `(0.6652410, 0.2447285, 0.0900306)`. Values that need an exponent keep
/// [`input`]'s form.
pub fn inputs<'a>(xs: impl IntoIterator<Item = &'a f64>) -> Vec<String> {
    let shortest: Vec<String> = xs.into_iter().map(|x| input(*x)).collect();
    if shortest.iter().any(|t| t.contains(['e', 'E', 'i', 'N'])) {
        return shortest;
    }
    let decimals = |t: &String| t.split_once('.').map_or(0, |(_, d)| d.len());
    let most = shortest.iter().map(decimals).max().unwrap_or(0);
    shortest
        .into_iter()
        .map(|t| {
            let have = decimals(&t);
            match (have, most) {
                (_, 0) => t,
                (0, _) => format!("{t}.{}", "0".repeat(most)),
                _ => format!("{t}{}", "0".repeat(most - have)),
            }
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn t(text: &str) -> String {
        expr(&Expr::parse_general(text).unwrap())
    }

    #[test]
    fn expressions() {
        assert_eq!(t("(x - 2)^2 + 0.5*sin(3*x)"), "(x - 2)^{2} + 0.5\\sin(3x)");
        assert_eq!(
            t("x^2 + 3*x - sin(2*x)/exp(x)"),
            "x^{2} + 3x - \\frac{\\sin(2x)}{\\exp(x)}"
        );
        assert_eq!(t("-x^2"), "-x^{2}");
        assert_eq!(t("(-x)^2"), "(-x)^{2}");
        assert_eq!(
            t("a - (b - c)"),
            "\\mathit{a} - (b - c)".replace("\\mathit{a}", "a")
        );
        assert_eq!(t("2*3"), "2 \\cdot 3");
        assert_eq!(t("x*(-2)"), "x(-2)");
        assert_eq!(t("sqrt(x)/2"), "\\frac{\\sqrt{x}}{2}");
        assert_eq!(t("(1/x)^2"), "\\left(\\frac{1}{x}\\right)^{2}");
        assert_eq!(t("e^(2x) + pi"), "e^{2x} + \\pi");
        assert_eq!(
            t("log2(x) + log10(x) + abs(x)"),
            "\\log_2(x) + \\log_{10}(x) + \\left|x\\right|"
        );
        assert_eq!(t("x sin(x)"), "x\\,\\sin(x)");
        assert_eq!(t("theta + lr"), "\\theta  + \\mathit{lr}");
        // A vector argument is the call's tuple, not wrapped again.
        assert_eq!(t("exp([2, 1, 3])"), "\\exp(2, 1, 3)");
        assert_eq!(
            t("softmax([2, 1, 0])"),
            "\\operatorname{softmax}\\left(2, 1, 0\\right)"
        );
        assert!(is_one_group("(a, (b))") && !is_one_group("(a)(b)") && !is_one_group("a"));
    }

    #[test]
    fn numbers() {
        assert_eq!(number("−0.25"), "-0.25");
        assert_eq!(number("1.5e-3"), "1.5 \\times 10^{-3}");
        assert_eq!(number("+2"), "2");
        assert_eq!(input(0.1), "0.1");
        assert_eq!(input(-0.0), "0");
        assert_eq!(input(2.0), "2");
        assert_eq!(
            inputs(&[0.665241, 0.2447285, 0.0900306]),
            ["0.6652410", "0.2447285", "0.0900306"]
        );
        assert_eq!(inputs(&[1.0, 0.5, 0.0]), ["1.0", "0.5", "0.0"]);
        assert_eq!(inputs(&[2.0, 3.0]), ["2", "3"]);
    }
}
