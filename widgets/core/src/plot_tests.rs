use super::*;
use crate::expr::Expr;
use proptest::prelude::*;

/// Compiles `text` with `x` as the argument, `a` and `b` as slots 0 and 1.
fn prog(text: &str) -> Program {
    let e = Expr::parse_general(text).unwrap();
    Program::compile(&e, &|name, called| match (name, called) {
        ("x", false) => Some(Resolved::Arg),
        ("a", false) => Some(Resolved::Slot(0)),
        ("b", false) => Some(Resolved::Slot(1)),
        ("f", true) => Some(Resolved::Func(0)),
        _ => None,
    })
    .unwrap()
}

fn close(a: f64, b: f64, tol: f64) -> bool {
    (a - b).abs() <= tol * b.abs().max(1.0)
}

#[test]
fn programs_match_the_formulas_computed_directly() {
    let slots = [2.0, -1.0];
    let sigma = prog("1 / (1 + exp(-(a*x + b)))");
    let poly = prog("x^3 - 2x + a^-1");
    let mixed = prog("min(x, a, 3) + max(x, b) - abs(x) * floor(x) + ceil(x/2)");
    for i in -40..=40 {
        let x = i as f64 / 7.3;
        assert!(close(
            sigma.eval(x, &slots, &[]),
            1.0 / (1.0 + (-(2.0 * x - 1.0)).exp()),
            1e-15
        ));
        assert!(close(
            poly.eval(x, &slots, &[]),
            x * x * x - 2.0 * x + 0.5,
            1e-14
        ));
        let m = x.min(2.0).min(3.0) + x.max(-1.0) - x.abs() * x.floor() + (x / 2.0).ceil();
        assert!(close(mixed.eval(x, &slots, &[]), m, 1e-15));
    }
    // A call evaluates an earlier function at its argument.
    let funcs = [prog("x^2 + a")];
    let call = prog("f(x + 1) * b");
    assert_eq!(call.eval(2.0, &slots, &funcs), -(9.0 + 2.0));
    // Undefined values are NaN, never a panic.
    assert!(prog("ln(x)").eval(-1.0, &slots, &[]).is_nan());
    assert!(prog("sqrt(x)").eval(-1.0, &slots, &[]).is_nan());
    assert!(call.eval(1.0, &slots, &[]).is_nan(), "missing function");
}

#[test]
fn unknown_names_and_shapes_are_compile_errors() {
    let e = Expr::parse_general("a * g(x)").unwrap();
    let r = Program::compile(&e, &|n, _| (n == "a").then_some(Resolved::Slot(0)));
    assert_eq!(
        r,
        Err(CompileError::Unknown {
            name: "g".into(),
            called: true
        })
    );
    let e = Expr::parse_general("[1, 2]").unwrap();
    assert!(matches!(
        Program::compile(&e, &|_, _| None),
        Err(CompileError::Shape(_))
    ));
}

#[test]
fn built_in_functions_agree_with_the_platform() {
    for i in -200..=200 {
        let x = i as f64 / 31.0;
        for (f, want) in [
            (Function::Sin, x.sin()),
            (Function::Cos, x.cos()),
            (Function::Tan, x.tan()),
            (Function::Tanh, x.tanh()),
            (Function::Exp, x.exp()),
        ] {
            assert!(close(apply(f, x), want, 1e-12), "{f:?}({x})");
        }
        if x > 0.0 {
            assert!(close(apply(Function::Log2, x), x.log2(), 1e-14));
            assert!(close(apply(Function::Log10, x), x.log10(), 1e-14));
        }
    }
}

proptest! {
    #[test]
    fn pow_agrees_with_powf(a in -10.0f64..10.0, b in -6.0f64..6.0, n in -20i32..20) {
        let want = a.powf(b);
        let got = pow(a, b);
        prop_assert!(want.is_nan() == got.is_nan());
        if want.is_finite() {
            prop_assert!(close(got, want, 1e-12), "{a}^{b}: {got} vs {want}");
        }
        let whole = pow(a, f64::from(n));
        prop_assert!(close(whole, a.powi(n), 1e-12) || (whole.is_infinite() && a.powi(n).is_infinite()));
    }
}

#[test]
fn powers_are_exact_where_a_double_holds_them_and_overflow_is_infinite() {
    // 2^70 = 1180591620717411303424 exactly (a power of two is held exactly).
    assert_eq!(pow(2.0, 70.0), 1_180_591_620_717_411_303_424.0);
    assert_eq!(pow(2.0, 1023.0), f64::from_bits(0x7FE0_0000_0000_0000));
    assert_eq!(pow(2.0, -1074.0), f64::from_bits(1));
    assert_eq!(pow(0.5, 70.0), 1.0 / 1_180_591_620_717_411_303_424.0);
    // Beyond the largest double: infinite, not 1.797…e308.
    assert_eq!(pow(2.0, 1024.0), f64::INFINITY);
    assert_eq!(pow(10.0, 309.0), f64::INFINITY);
    assert_eq!(pow(3.0, 1000.0), f64::INFINITY);
    assert_eq!(pow(-3.0, 1001.0), f64::NEG_INFINITY);
    assert_eq!(pow(2.0, pow(2.0, pow(2.0, pow(2.0, 2.0)))), f64::INFINITY);
    // A negative base with a large whole exponent has a sign, not NaN.
    assert!((pow(-1.5, 101.0) + 1.5f64.powi(101)).abs() <= 1e-12 * 1.5f64.powi(101));
    assert!((pow(-1.5, 100.0) - 1.5f64.powi(100)).abs() <= 1e-12 * 1.5f64.powi(100));
}

#[test]
fn simpson_area_of_the_standard_normal_within_one_sigma() {
    let phi = |x: f64| (-x * x / 2.0).exp() / (2.0 * core::f64::consts::PI).sqrt();
    // erf(1/√2) = 0.682689492137086…
    assert!((integral(&phi, -1.0, 1.0, 400) - 0.682_689_492_137_086).abs() < 1e-10);
    assert!((integral(&|x| x * x, 0.0, 3.0, 2) - 9.0).abs() < 1e-12);
    assert!((integral(&|x| x, 1.0, 0.0, 10) + 0.5).abs() < 1e-12);
    assert!(integral(&|x: f64| x.ln(), -1.0, 1.0, 10).is_nan());
}

#[test]
fn slopes_are_undefined_at_poles_jumps_and_corners() {
    let h = 10.0 * 1e-6; // the plot's step for a window 10 wide
                         // Independent values: d/dx sin(2x) + x/2 = 2 cos(2x) + 1/2; d/dx e^(5x) = 5 e^(5x).
    for x in [-2.0f64, -0.3, 0.0, 0.5, 1.7] {
        let want = 2.0 * (2.0 * x).cos() + 0.5;
        let got = slope(&|t: f64| (2.0 * t).sin() + t / 2.0, x, h);
        assert!((got - want).abs() < 1e-8, "{x}: {got} vs {want}");
    }
    let got = slope(&|t: f64| (5.0 * t).exp(), 3.0, h);
    assert!((got / (5.0 * 15f64.exp()) - 1.0).abs() < 1e-8, "{got}");
    // Near, not at, a pole the slope exists: d/dx 1/x = −1/x² = −400 at 0.05.
    assert!((slope(&|t| 1.0 / t, 0.05, h) + 400.0).abs() < 1e-3);
    // At the pole, the jump and the corner: undefined (today: 1e10, 50000, 0).
    assert!(slope(&|t| 1.0 / t, 0.0, h).is_nan());
    assert!(slope(&|t| 1.0 / (t * t), 0.0, h).is_nan());
    assert!(slope(&f64::floor, 2.0, h).is_nan());
    assert!(slope(&f64::abs, 0.0, h).is_nan());
    assert!(slope(&|t: f64| t.sqrt(), 0.0, h).is_nan());
    // Away from the jump, floor is flat.
    assert_eq!(slope(&f64::floor, 2.5, h), 0.0);
}

#[test]
fn slopes_and_tick_steps() {
    assert!((slope(&|x| x * x * x, 2.0, 1e-5) - 12.0).abs() < 1e-8);
    assert_eq!(nice_step(8.0, 7.0), 1.0);
    assert_eq!(nice_step(1.4, 5.0), 0.2);
    assert_eq!(nice_step(100.0, 5.0), 20.0);
    assert_eq!(nice_step(0.0, 5.0), 1.0);
}

fn window(x: (f64, f64), y: (f64, f64)) -> Window {
    Window {
        x,
        y,
        width: 274.0,
        height: 180.0,
    }
}

/// Every segment of every run, as (x1, y1, x2, y2).
fn segments(runs: &[Vec<(f64, f64)>]) -> Vec<(f64, f64, f64, f64)> {
    runs.iter()
        .flat_map(|r| r.windows(2).map(|w| (w[0].0, w[0].1, w[1].0, w[1].1)))
        .collect()
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(64))]

    /// A sampled point lies on the curve (unless limited to the band around the window),
    /// and no segment crosses the pole of 1/(x − c).
    #[test]
    fn poles_break_the_path_and_points_lie_on_the_curve(c in -3.9f64..3.9, k in 0.1f64..5.0) {
        let f = |x: f64| k / (x - c);
        let w = window((-4.0, 4.0), (-5.0, 5.0));
        let runs = sample(&f, &w);
        prop_assert!(runs.len() >= 2, "{runs:?}");
        let band = 4.0 * 10.0;
        for &(x, y) in runs.iter().flatten() {
            if y.abs() < 5.0 + band {
                prop_assert_eq!(y, f(x));
            }
            prop_assert!((-4.0..=4.0).contains(&x));
        }
        for (x1, _, x2, _) in segments(&runs) {
            prop_assert!(!(x1 < c && c < x2), "segment {x1}..{x2} crosses the pole {c}");
        }
    }

    #[test]
    fn smooth_curves_stay_whole_and_close_to_the_function(a in 0.2f64..3.0, s in -2.0f64..2.0) {
        let f = |x: f64| a * crate::trig::sin(x) + s;
        let w = window((-6.0, 6.0), (-4.0, 4.0));
        let runs = sample(&f, &w);
        prop_assert_eq!(runs.len(), 1);
        let run = &runs[0];
        prop_assert_eq!(run[0].0, -6.0);
        prop_assert_eq!(run[run.len() - 1].0, 6.0);
        // The chords stay within half a pixel of the curve at their midpoints.
        let sy = 180.0 / 8.0;
        for (x1, y1, x2, y2) in segments(&runs) {
            let m = f(0.5 * (x1 + x2));
            prop_assert!(((m - 0.5 * (y1 + y2)) * sy).abs() < 0.5);
        }
    }
}

#[test]
fn tan_has_no_segment_across_its_poles() {
    let f = |x: f64| apply(Function::Tan, x);
    let runs = sample(&f, &window((-5.0, 5.0), (-4.0, 4.0)));
    // Poles at ±π/2 and ±3π/2 inside the window: 5 branches.
    assert_eq!(runs.len(), 5, "{}", runs.len());
    let poles = [-1.5, -0.5, 0.5, 1.5].map(|k| k * core::f64::consts::PI);
    for (x1, _, x2, _) in segments(&runs) {
        for p in poles {
            assert!(!(x1 < p && p < x2), "segment {x1}..{x2} across {p}");
        }
    }
}

#[test]
fn floor_steps_have_no_vertical_risers() {
    let runs = sample(&f64::floor, &window((-3.0, 3.0), (-4.0, 4.0)));
    assert_eq!(runs.len(), 6, "one run per step");
    for (_, y1, _, y2) in segments(&runs) {
        assert_eq!(y1, y2);
    }
}

#[test]
fn domain_edges_are_found() {
    // sqrt: defined from 0; ln: from 0 but unbounded below.
    let runs = sample(&f64::sqrt, &window((-2.0, 2.0), (-1.0, 2.0)));
    assert_eq!(runs.len(), 1);
    let first = runs[0][0];
    assert!(first.0 >= 0.0 && first.0 < 1e-3, "{first:?}");
    let runs = sample(
        &|x: f64| (1.0 - x * x).sqrt(),
        &window((-2.0, 2.0), (-1.0, 2.0)),
    );
    assert_eq!(runs.len(), 1);
    let run = &runs[0];
    assert!(run[0].0 < -0.999 && run[run.len() - 1].0 > 0.999);
    assert!(sample(&|_| f64::NAN, &window((-1.0, 1.0), (0.0, 1.0))).is_empty());
}

#[test]
fn sampling_is_cheap() {
    use core::cell::Cell;
    for f in [
        (|x: f64| 1.0 / x) as fn(f64) -> f64,
        |x: f64| apply(Function::Tan, x),
        f64::floor,
        |x: f64| crate::trig::sin(1.0 / x),
    ] {
        let n = Cell::new(0);
        let runs = sample(
            &|x| {
                n.set(n.get() + 1);
                f(x)
            },
            &window((-5.0, 5.0), (-3.0, 3.0)),
        );
        assert!(n.get() <= MAX_EVALS + 64, "{} evaluations", n.get());
        assert!(runs.iter().map(Vec::len).sum::<usize>() < 2 * MAX_EVALS);
    }
}
