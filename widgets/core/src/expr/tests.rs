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

struct Course;

impl Scope for Course {
    fn variable(&self, name: &str) -> Option<f64> {
        match name {
            "w" => Some(2.0),
            "b" => Some(-1.0),
            _ => None,
        }
    }
    fn function(&self, name: &str, args: &[f64]) -> Option<f64> {
        match (name, args) {
            ("sigma", [x]) => Some(1.0 / (1.0 + (-x).exp())),
            ("add", [a, b]) => Some(a + b),
            _ => None,
        }
    }
}

#[test]
fn general_form_calls_vectors_and_scopes() {
    let e = Expr::parse_general("sigma(w*0.5 + b) + add(1, 2) + max(1, 5, 3) - min(4, 2)").unwrap();
    let want = 1.0 / (1.0 + (-(2.0f64 * 0.5 - 1.0)).exp()) + 3.0 + 5.0 - 2.0;
    assert!(close(e.eval_in(&Course), want));
    // Unknown names, wrong arity and vectors are NaN in scalar evaluation.
    assert!(Expr::parse_general("q + 1")
        .unwrap()
        .eval_in(&Course)
        .is_nan());
    assert!(Expr::parse_general("sigma(1, 2)")
        .unwrap()
        .eval_in(&Course)
        .is_nan());
    assert!(Expr::parse_general("[1, 2]")
        .unwrap()
        .eval_in(&Course)
        .is_nan());
    let v = Expr::parse_general("2[1, x, 3]").unwrap();
    assert_eq!(v.to_string(), "(2) * ([1, x, 3])");
    assert_eq!(Expr::parse_general(&v.to_string()).unwrap(), v);
    assert_eq!(v.variables(), vec!["x"]);
    // Lists of pairs are scopes too.
    let vars: &[(&str, f64)] = &[("mu", 2.0), ("x", 5.0)];
    assert_eq!(
        Expr::parse_general("(x - mu)^2").unwrap().eval_in(vars),
        9.0
    );
    assert_eq!(
        Expr::parse_general("floor(2.7) + ceil(0.2)")
            .unwrap()
            .eval_in(vars),
        3.0
    );
    // The strict form keeps its errors.
    assert!(err("max(1, 2)").1.contains("unknown function `max`"));
    assert!(err("[1, 2]").1.contains("found `[`"));
}

fn general_err(text: &str) -> (usize, String) {
    match Expr::parse_general(text) {
        Err(CoreError::Syntax { position, message }) => (position, message),
        other => panic!("expected a syntax error for {text:?}, got {other:?}"),
    }
}

#[test]
fn general_form_errors_carry_positions() {
    let (pos, msg) = general_err("dot(a, b");
    assert_eq!(pos, 8);
    assert!(msg.contains("missing `)`"), "{msg}");
    let (pos, msg) = general_err("[1, 2; 3]");
    assert_eq!(pos, 5);
    assert!(msg.contains("`;`"), "{msg}");
    let (pos, msg) = general_err("[1, 2 3");
    assert_eq!(pos, 7);
    assert!(msg.contains("missing `]`"), "{msg}");
    let (pos, msg) = general_err("f(1,2,3,4,5,6,7,8,9)");
    assert_eq!(pos, 1);
    assert!(msg.contains("at most 8"), "{msg}");
    let (pos, _) = general_err("f(,)");
    assert_eq!(pos, 2);
}

#[test]
fn definitions() {
    let d = parse_definition("mu = (1 + 2 + 3)/3").unwrap();
    assert_eq!(
        (d.name.as_str(), d.params.len(), d.body_start),
        ("mu", 0, 4)
    );
    assert_eq!(d.body.eval_in(&[] as &[(&str, f64)]), 2.0);
    let d = parse_definition("sigma(x) = 1 / (1 + exp(-x))").unwrap();
    assert_eq!(d.name, "sigma");
    assert_eq!(d.params, vec!["x"]);
    let d = parse_definition("f(a, b) = a*b").unwrap();
    assert_eq!(d.params, vec!["a", "b"]);
    let bad = |text: &str| match parse_definition(text) {
        Err(CoreError::Syntax { position, message }) => (position, message),
        other => panic!("expected an error for {text:?}, got {other:?}"),
    };
    assert!(bad("mu + 1").1.contains("expected a definition"));
    assert_eq!(bad("= 3").0, 0);
    assert_eq!(bad("2x = 3").0, 0);
    assert_eq!(bad("f(1) = 3").0, 2);
    assert_eq!(bad("f(a, a) = 3").0, 5);
    assert_eq!(bad("f() = 3").0, 1);
    assert!(bad("sin = 3").1.contains("built in"));
    let (pos, msg) = bad("mu = 1 +");
    assert_eq!(pos, 8);
    assert!(msg.contains("ends too early"), "{msg}");
    assert_eq!(bad("mu = ").0, 4);
}

#[test]
fn name_uses_locate_names() {
    let uses = name_uses("sigma(w x) + pi + max(e, q) + sin(t)").unwrap();
    let names: Vec<(usize, &str, bool)> = uses
        .iter()
        .map(|u| (u.position, u.name.as_str(), u.called))
        .collect();
    assert_eq!(
        names,
        vec![
            (0, "sigma", true),
            (6, "w", false),
            (8, "x", false),
            (25, "q", false),
            (34, "t", false)
        ]
    );
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

    /// The general form never panics either, and what it prints back
/// parses to the same tree.
#[test]
fn general_parse_never_panics(text in "[xab0-9.+*/^()\\[\\], =eπsinmaxf-]{0,40}") {
    match Expr::parse_general(&text) {
        Ok(e) => prop_assert_eq!(Expr::parse_general(&e.to_string()).unwrap(), e),
        Err(CoreError::Syntax { position, .. }) => prop_assert!(position <= text.len()),
        Err(other) => prop_assert!(false, "unexpected error {:?}", other),
    }
    let _ = parse_definition(&text);
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
