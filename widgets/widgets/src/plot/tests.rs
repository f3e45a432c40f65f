use super::*;
use crate::testkit::{input, value};

const LOGISTIC: &str = r#"{
  "x": [-4, 4], "y": [-0.2, 1.2],
  "params": {"w": {"value": 1, "range": [-3, 3], "step": 0.1, "label": "weight"},
             "b": {"value": 0, "range": [-3, 3], "step": 0.1, "label": "bias"}},
  "curves": ["sigma(x) = 1 / (1 + exp(-(w*x + b)))",
             {"expr": "sigma(x) * (1 - sigma(x)) * w", "style": "dashed", "label": "slope"}],
  "points": [["-b / w", 0.5]],
  "readouts": ["boundary at x = {-b/w:.2}", "slope there: {w/4:.3}", "σ(1) = {sigma(1)}"]
}"#;

fn plot(json: &str) -> Plot {
    crate::testkit::widget(json)
}

fn error(json: &str) -> ParamError {
    Plot::from_params(&Params::from_json(json).unwrap()).unwrap_err()
}

fn sigma(x: f64) -> f64 {
    1.0 / (1.0 + (-x).exp())
}

#[test]
fn the_issue_example_renders_its_readouts() {
    let mut w = plot(LOGISTIC);
    let html = w.render("p");
    assert_eq!(value(&html, "r0"), "boundary at x = 0.00");
    assert_eq!(value(&html, "r1"), "slope there: 0.250");
    assert_eq!(value(&html, "r2"), format!("σ(1) = {:.2}", sigma(1.0)));
    assert!(html.contains("name=\"w\""), "sliders are named after the parameters");
    assert!(html.contains("aria-valuetext=\"w = 1.0\""), "{html}");
    // Moving the sliders moves the readouts: boundary −b/w, slope w/4.
    assert!(input(&mut w, "w", "2"));
    assert!(input(&mut w, "b", "1"));
    let html = w.render("p");
    assert_eq!(value(&html, "r0"), "boundary at x = −0.50");
    assert_eq!(value(&html, "r1"), "slope there: 0.500");
    assert_eq!(value(&html, "r2"), format!("σ(1) = {:.2}", sigma(3.0)));
    assert!(!input(&mut w, "nope", "1"));
    assert!(!input(&mut w, "w", "abc"));
}

/// The (x, y) user-space points of the path `d` of curve `n`.
fn curve_points(html: &str, n: usize) -> Vec<(f64, f64)> {
    let key = format!("data-curve=\"{n}\" d=\"");
    let start = html.find(&key).unwrap() + key.len();
    let d = &html[start..start + html[start..].find('"').unwrap()];
    d.split(['M', 'L'])
        .filter(|s| !s.is_empty())
        .map(|p| {
            let (x, y) = p.split_once(' ').unwrap();
            (x.parse().unwrap(), y.parse().unwrap())
        })
        .collect()
}

#[test]
fn curve_paths_follow_the_function_at_the_current_parameters() {
    let mut w = plot(LOGISTIC);
    input(&mut w, "w", "2.5");
    input(&mut w, "b", "-1");
    let html = w.render("p");
    // Screen → data: x from 38..312 over [-4, 4], y from 188..8 over [-0.2, 1.2].
    let pts = curve_points(&html, 0);
    assert!(pts.len() > 50);
    for (sx, sy) in pts {
        let x = -4.0 + (sx - 38.0) / 274.0 * 8.0;
        let y = -0.2 + (188.0 - sy) / 180.0 * 1.4;
        // Coordinates are written with 2 decimals: allow that rounding.
        let want = sigma(2.5 * x - 1.0);
        assert!((y - want).abs() < 0.02, "x {x}: {y} vs {want}");
    }
}

#[test]
fn keys_step_and_jump_like_the_other_sliders() {
    let mut w = plot(LOGISTIC);
    let key = |w: &mut Plot, key: &str, shift: bool| w.update(&Event::Key { target: "p0", key, shift });
    assert!(key(&mut w, "ArrowRight", false));
    assert_eq!(value(&w.render("p"), "p0"), "1.1");
    assert!(key(&mut w, "ArrowUp", true));
    assert_eq!(value(&w.render("p"), "p0"), "2.1");
    assert!(key(&mut w, "End", false));
    assert_eq!(value(&w.render("p"), "p0"), "3.0");
    assert!(!key(&mut w, "ArrowRight", false), "already at the end");
    assert!(key(&mut w, "Home", false));
    assert_eq!(value(&w.render("p"), "p0"), "−3.0");
    assert!(key(&mut w, "PageUp", false));
    assert_eq!(value(&w.render("p"), "p0"), "−2.0");
    assert!(!w.update(&Event::Key { target: "p9", key: "End", shift: false }));
}

const TANGENT: &str = r#"{
  "x": [-3, 3],
  "params": {"a": {"value": 1, "range": [-3, 3], "step": 0.05}},
  "curves": ["f(x) = x^3 - 3x"],
  "tangents": [{"curve": "f", "at": "a", "name": "m", "label": "tangent point"}],
  "readouts": ["f'({a:.2}) = {m:.3}"]
}"#;

#[test]
fn the_tangent_point_drags_and_its_slope_is_a_readout() {
    let mut w = plot(TANGENT);
    let html = w.render("t");
    assert_eq!(value(&html, "r0"), "f&#39;(1.00) = 0.000");
    assert!(html.contains("data-drag=\"t1\""), "{html}");
    // Drag to x = 2 (user x = 38 + 274·(2 + 3)/6).
    let sx = 38.0 + 274.0 * 5.0 / 6.0;
    assert!(w.update(&Event::Drag { target: "t1", x: sx, y: 50.0, phase: DragPhase::Start }));
    let html = w.render("t");
    assert_eq!(value(&html, "r0"), "f&#39;(2.00) = 9.000", "3·2² − 3");
    assert!(w.update(&Event::Key { target: "t1", key: "ArrowLeft", shift: true }));
    assert_eq!(value(&w.render("t"), "r0"), "f&#39;(1.50) = 3.750");
    assert!(!w.update(&Event::Drag { target: "t0", x: sx, y: 0.0, phase: DragPhase::Move }));
}

#[test]
fn the_area_within_one_sigma_of_a_gaussian() {
    let json = r#"{
      "x": [-5, 5],
      "params": {"mu": {"value": 0, "range": [-2, 2], "step": 0.1},
                 "s": {"value": 1, "range": [0.5, 2], "step": 0.1, "label": "σ"}},
      "curves": ["p(x) = exp(-(x - mu)^2 / (2 s^2)) / (s sqrt(2 pi))"],
      "areas": [{"curve": "p", "from": "mu - s", "to": "mu + s", "name": "A"}],
      "lines": ["x = mu", {"y": 0.1, "label": "ten percent"}],
      "readouts": ["P(|X − μ| < σ) = {A:.4}"]
    }"#;
    let mut w = plot(json);
    let html = w.render("g");
    assert_eq!(value(&html, "r0"), "P(|X − μ| &lt; σ) = 0.6827");
    assert!(html.contains("class=\"mc-w-plot-area\""));
    assert!(html.contains("data-mc-t=\"ten percent\""));
    input(&mut w, "s", "2");
    input(&mut w, "mu", "1.5");
    // The same fraction whatever μ and σ (the window cuts the picture, not the value).
    assert_eq!(value(&w.render("g"), "r0"), "P(|X − μ| &lt; σ) = 0.6827");
}

#[test]
fn the_live_form_builds_the_same_widget() {
    for json in [LOGISTIC, TANGENT] {
        let w = plot(json);
        let live = w.live_params().unwrap();
        let again = Plot::from_live(&Params::from_json(&live.to_json()).unwrap()).unwrap();
        assert_eq!(again.render("x"), w.render("x"));
    }
    assert!(Plot::from_live(&Params::from_json(r#"{"x":[1,0]}"#).unwrap()).is_err());
    assert!(Plot::from_live(&Params::from_json(r#"{"x":[0,1],"y":[0,1],"funcs":[["?"]]}"#).unwrap()).is_err());
}

#[test]
fn author_text_is_escaped() {
    let json = r#"{"curves": [{"expr": "x", "label": "<b>&"}], "points": [{"at": [0, 0], "label": "<i>"}],
                   "readouts": ["<script>{1}"]}"#;
    let html = plot(json).render("e");
    assert!(!html.contains("<b>") && !html.contains("<i>") && !html.contains("<script>"), "{html}");
    assert!(html.contains("&lt;b&gt;&amp;") && html.contains("&lt;script&gt;1.00"));
}

#[test]
fn poles_and_jumps_leave_no_vertical_spikes() {
    let json = r#"{"x": [-3, 3], "y": [-3, 3], "curves": ["1/x", "tan(x)", "floor(x)"]}"#;
    let html = plot(json).render("q");
    for n in 0..3 {
        let key = format!("data-curve=\"{n}\" d=\"");
        let start = html.find(&key).unwrap() + key.len();
        let d = &html[start..start + html[start..].find('"').unwrap()];
        // Each move (`M`) starts a new run: 1/x and tan x break at their poles (2 and 3
        // runs), floor at each of its 6 steps.
        assert_eq!(d.matches('M').count(), [2, 3, 6][n], "{d}");
    }
}

#[test]
fn the_y_window_is_chosen_from_the_curves() {
    let w = plot(r#"{"x": [0, 2], "curves": ["x^2"]}"#);
    let (lo, hi) = w.y;
    assert!(lo < 0.0 && lo > -0.5 && hi > 4.0 && hi < 4.5, "{lo} {hi}");
}

// ---- Located author mistakes (the preprocessor turns them into diagnostics).

/// (parameter, text, range inside it, keys) of a located error.
type Located<'a> = (&'a str, Option<&'a str>, Option<(usize, usize)>, Vec<&'a str>);

fn place(e: &ParamError) -> Located<'_> {
    let p = e.place.as_ref().expect("located");
    (
        e.param.as_str(),
        p.text.as_deref(),
        p.range,
        p.keys.iter().map(String::as_str).collect(),
    )
}

#[test]
fn unknown_names_suggest_the_close_one() {
    let e = error(r#"{"params": {"w": {"value": 1, "range": [0, 2]}}, "curves": ["sigma(x) = 1/(1 + exp(-w*x))", "sigm(x) * 2"]}"#);
    assert_eq!(e.message, "curve 2: unknown name `sigm`");
    assert_eq!(place(&e), ("curves", Some("sigm(x) * 2"), Some((0, 4)), vec![]));
    assert!(e.place.unwrap().hint.starts_with("did you mean `sigma`?"));
    let e = error(r#"{"readouts": ["value {x + 1}"]}"#);
    assert_eq!(e.message, "readout 1: unknown name `x`");
    assert_eq!(place(&e).2, Some((7, 8)), "the column inside the readout");
}

#[test]
fn parse_errors_point_inside_the_expression() {
    let e = error(r#"{"curves": ["x^2 + * 3"]}"#);
    assert_eq!(place(&e).2, Some((6, 7)));
    assert!(e.message.starts_with("curve 1: "), "{}", e.message);
    let e = error(r#"{"readouts": ["a {1 +} b"]}"#);
    assert_eq!(place(&e).2, Some((6, 7)), "{e:?}");
    let e = error(r#"{"readouts": ["a {1:2}"]}"#);
    assert_eq!(place(&e).2, Some((5, 6)), "{e:?}");
    assert!(e.message.contains("`2` is not a format"));
    let e = error(r#"{"readouts": ["a {1"]}"#);
    assert_eq!(place(&e).2, Some((2, 3)));
}

#[test]
fn slider_mistakes_point_at_their_key() {
    let e = error(r#"{"params": {"w": {"value": 1, "range": [3, -3]}}}"#);
    assert!(e.message.contains("min 3 is above its max -3"), "{}", e.message);
    assert_eq!(place(&e).3, vec!["w", "range"]);
    let e = error(r#"{"params": {"w": {"value": 1, "range": [0, 1], "step": 0.3}}}"#);
    assert!(e.message.contains("does not divide"), "{}", e.message);
    assert_eq!(place(&e).3, vec!["w", "step"]);
    let e = error(r#"{"params": {"w": {"value": 5, "range": [0, 1]}}}"#);
    assert_eq!(place(&e).3, vec!["w", "value"]);
    // A value between two of the slider's steps: the slider could not hold it.
    let e = error(r#"{"params": {"w": {"value": 0.15, "range": [-3, 3], "step": 0.1}}}"#);
    assert!(e.message.contains("the value 0.15 is not on the slider's steps (-3 + a whole number of 0.1)"), "{}", e.message);
    assert_eq!(place(&e).3, vec!["w", "value"]);
    assert_eq!(e.place.as_ref().unwrap().hint, "the slider can hold 0.1 or 0.2");
    let e = error(r#"{"params": {"w": {"value": 1, "range": [0, 2], "stp": 1}}}"#);
    assert_eq!(place(&e).3, vec!["w", "stp"]);
    assert!(e.place.unwrap().hint.starts_with("did you mean `step`?"));
    let e = error(r#"{"x": [4, -4]}"#);
    assert_eq!(place(&e).3, Vec::<&str>::new());
}

#[test]
fn a_curve_undefined_in_the_whole_window_is_an_error() {
    let e = error(r#"{"x": [-4, -1], "curves": ["ln(x)"]}"#);
    assert!(e.message.contains("curve 1 is undefined everywhere in the window x from -4 to -1"), "{}", e.message);
    assert_eq!(place(&e).1, Some("ln(x)"));
}

#[test]
fn names_must_refer_to_the_right_things() {
    let e = error(r#"{"curves": ["f(x) = x"], "tangents": [{"curve": "f", "at": "q"}]}"#);
    assert!(e.message.contains("`at` must name a parameter"), "{}", e.message);
    let e = error(r#"{"curves": ["x"], "areas": [{"curve": "g", "from": 0, "to": 1}]}"#);
    assert!(e.message.contains("`curve` must name a curve"), "{}", e.message);
    let e = error(r#"{"params": {"sin": {"value": 1, "range": [0, 2]}}}"#);
    assert!(e.message.contains("built in"), "{}", e.message);
    let e = error(r#"{"curves": ["f(x) = x", "f(x) = 2x"]}"#);
    assert!(e.message.contains("used twice"), "{}", e.message);
    let e = error(r#"{"curves": [{"expr": "x", "style": "dashd"}]}"#);
    assert!(e.place.unwrap().hint.starts_with("did you mean `dashed`?"));
    let e = error(r#"{"lines": ["z = 1"]}"#);
    assert!(e.message.contains("expected `x = …`"), "{}", e.message);
}

#[test]
fn nested_calls_that_would_multiply_the_work_are_refused() {
    let mut curves = vec!["f0(x) = x + 1".to_string()];
    for i in 1..5 {
        let calls: Vec<String> = (0..12).map(|_| format!("f{}(x)", i - 1)).collect();
        curves.push(format!("f{i}(x) = {}", calls.join(" + ")));
    }
    let json = format!("{{\"curves\": {:?}}}", curves);
    let e = error(&json);
    assert!(e.message.contains("too costly to draw"), "{}", e.message);
    assert_eq!(place(&e).1.map(|t| t.starts_with("f3(x)")), Some(true));
}

#[test]
fn hidden_curves_are_not_drawn_and_do_not_set_the_y_window() {
    let w = plot(r#"{"x": [0, 1], "curves": [{"expr": "big(x) = 1000 x", "style": "hidden"}, "big(x) / 1000"]}"#);
    let html = w.render("h");
    assert!(!html.contains("data-curve=\"0\""));
    assert!(html.contains("data-curve=\"1\""));
    assert!(w.y.1 < 2.0, "{:?}", w.y);
}

// ---- Issue 22 §5 and issue 23: what the plot shows is what the author meant.

#[test]
fn the_y_window_holds_the_curves_over_the_sliders_ranges() {
    // The newcomer's case: a maximum that a slider moves up (here a·x(2 − x), peak a at
    // x = 1, a from 0.5 to 3.5 starting at 1). The window from the starting values alone
    // stopped near 1.1, cutting the curve at a = 3.5.
    let w = plot(r#"{"x": [0, 2], "params": {"a": {"value": 1, "range": [0.5, 3.5], "step": 0.5}},
                     "curves": ["a x * (2 - x)"]}"#);
    let (lo, hi) = w.y;
    assert!((3.5..3.5 * 1.2).contains(&hi), "{lo} {hi}");
    assert!((-0.5..=0.0).contains(&lo), "{lo} {hi}");
    // Every slider stop keeps the curve inside: no point of the path above the top edge.
    let mut w = w;
    for v in ["0.5", "2", "3.5"] {
        input(&mut w, "a", v);
        for (_, sy) in curve_points(&w.render("y"), 0) {
            assert!((8.0..=188.0).contains(&sy), "a = {v}: y {sy} outside the box");
        }
    }
    // A point and a line that the slider moves are kept inside too (the λ₁ line).
    let w = plot(r#"{"x": [0, 2], "params": {"a": {"value": 1, "range": [0.5, 3.5], "step": 0.5}},
                     "curves": ["x"], "points": [[1, "a^2"]], "lines": ["y = -a"]}"#);
    let (lo, hi) = w.y;
    assert!(hi >= 12.25 && lo <= -3.5, "{lo} {hi}");
    // An explicit window is the author's choice and is kept.
    let w = plot(r#"{"x": [0, 2], "y": [0, 1.2], "params": {"a": {"value": 1, "range": [0.5, 3.5], "step": 0.5}},
                     "curves": ["a x * (2 - x)"]}"#);
    assert_eq!(w.y, (0.0, 1.2));
    // … but a slider that carries the curve out of it is worth a warning, with a fix.
    let warnings = w.warnings();
    assert_eq!(warnings.len(), 1);
    assert_eq!(warnings[0].message, "the y window 0..1.2 cuts what the sliders draw: at a = 3.5, the picture reaches 3.5");
    assert_eq!(warnings[0].place.as_ref().unwrap().hint, "write `y: [0, 3.78]`, or leave `y` out: the window then holds every slider setting");
    // What is outside from the start is the author's framing: no warning.
    let w = plot(r#"{"x": [-3, 3], "y": [-4, 6], "params": {"a": {"value": 0, "range": [-2, 2], "step": 0.5}},
                     "curves": ["x^3 - 3x"], "points": [["a", "a^3 - 3a"]]}"#);
    assert!(w.warnings().is_empty(), "{:?}", w.warnings());
}

#[test]
fn a_tangent_slope_at_a_pole_or_jump_reads_undefined() {
    for curve in ["f(x) = 1/x", "f(x) = 1/x^2", "f(x) = floor(x)", "f(x) = abs(x)"] {
        let json = format!(
            r#"{{"x": [-2, 2], "y": [-3, 3], "params": {{"a": {{"value": 0, "range": [-2, 2], "step": 0.5}}}},
               "curves": ["{curve}"], "tangents": [{{"curve": "f", "at": "a", "name": "m"}}],
               "readouts": ["slope {{m}}"]}}"#
        );
        let mut w = plot(&json);
        if curve.contains("floor") {
            input(&mut w, "a", "1");
        }
        let html = w.render("t");
        assert_eq!(value(&html, "r0"), "slope undefined", "{curve}");
        assert!(!html.contains("mc-w-plot-tangent\""), "{curve}: no tangent line drawn");
    }
    // Away from the pole: d/dx 1/x = −1/x² = −4 at 0.5.
    let mut w = plot(r#"{"x": [-2, 2], "y": [-3, 3], "params": {"a": {"value": 0.5, "range": [-2, 2], "step": 0.5}},
                         "curves": ["f(x) = 1/x"], "tangents": [{"curve": "f", "at": "a", "name": "m"}],
                         "readouts": ["slope {m}"]}"#);
    assert_eq!(value(&w.render("t"), "r0"), "slope −4.00");
    input(&mut w, "a", "0");
    assert_eq!(value(&w.render("t"), "r0"), "slope undefined");
}

#[test]
fn readouts_print_exact_digits_or_say_overflow() {
    let w = plot(r#"{"curves": ["x"], "readouts": ["{2^64:.0}", "{2^70}", "{2^1024}", "{2^2^2^2^2}", "{1e300:.0}", "{ln(-1)}", "{-0.3731:.3}", "{atan2(1, -1):.6}", "{atan(1)*4:.6}"]}"#);
    let html = w.render("d");
    assert_eq!(value(&html, "r0"), "18446744073709551616");
    assert_eq!(value(&html, "r1"), "1180591620717411303424.00");
    assert_eq!(value(&html, "r2"), "overflow");
    assert_eq!(value(&html, "r3"), "overflow");
    // The double nearest 1e300, digit for digit (as Rust's own `{:.0}` prints it).
    assert_eq!(value(&html, "r4"), format!("{:.0}", 1e300));
    assert_eq!(value(&html, "r5"), "undefined");
    assert_eq!(value(&html, "r6"), "−0.373");
    assert_eq!(value(&html, "r7"), "2.356194", "3π/4");
    assert_eq!(value(&html, "r8"), "3.141593");
    // The page gets the same numbers: the live form reads back to the same widget.
    let w = plot(r#"{"x": [1e-300, 2e-300], "curves": ["x"], "readouts": ["{1.8446744073709551616e19:.0} {1e-300}"]}"#);
    let live = w.live_params().unwrap().to_json();
    assert!(live.contains("1e-300") && live.contains("18446744073709552000"), "{live}");
    let again = Plot::from_live(&Params::from_json(&live).unwrap()).unwrap();
    assert_eq!(again, w);
}

#[test]
fn axes_are_labelled_with_the_authors_variable() {
    let w = plot(r#"{"x": [0, 3], "curves": ["f(θ) = cos(θ)^2"]}"#);
    let html = w.render("a");
    assert!(html.contains("data-mc-t=\"θ\"") && html.contains("data-mc-t=\"f(θ)\""), "{html}");
    assert!(html.contains("for θ from 0.00 to 3.00"), "{html}");
    assert!(!html.contains("data-mc-t=\"x\""), "{html}");
    let w = plot(r#"{"curves": ["x^2", "x^3"], "labels": {"x": "time t", "y": "<loss>"}}"#);
    let html = w.render("a");
    assert!(html.contains("data-mc-t=\"time t\"") && html.contains("data-mc-t=\"&lt;loss&gt;\""), "{html}");
    let html = plot(r#"{"curves": ["x^2", "x^3"]}"#).render("a");
    assert!(html.contains("data-mc-t=\"x\"") && !html.contains("rotate(-90)"), "{html}");
}

#[test]
fn misspelt_functions_values_called_and_ranges_with_pi() {
    // `coss(theta)`: the suggestion is the function, and the functions are listed.
    let e = error(r#"{"x": [0, 3], "curves": ["f(theta) = coss(theta)"]}"#);
    assert_eq!(e.message, "curve 1: unknown name `coss`");
    let hint = &e.place.as_ref().unwrap().hint;
    assert!(hint.starts_with("did you mean `cos`?"), "{hint}");
    assert!(hint.contains("functions: sin, cos, tan, atan,") && hint.contains("atan2"), "{hint}");
    // `2x(3)`: x is the variable, not a function.
    let e = error(r#"{"curves": ["2x(3)"]}"#);
    assert_eq!(e.message, "curve 1: `x` is the curve's variable, not a function");
    assert_eq!(place(&e).2, Some((1, 2)));
    assert_eq!(e.place.as_ref().unwrap().hint, "to multiply, write `x*(…)`");
    // pi and e in windows and sliders.
    let w = plot(r#"{"x": [0, "2 pi"], "params": {"k": {"value": "pi/4", "range": [0, "pi"], "step": "pi/4"}}, "curves": ["sin(k x)"]}"#);
    assert_eq!(w.x, (0.0, 2.0 * core::f64::consts::PI));
    assert_eq!(w.params[0].max, core::f64::consts::PI);
    let e = error(r#"{"x": [0, "pix"]}"#);
    assert_eq!(e.message, "entry 2: unknown name `pix`");
    assert_eq!(place(&e), ("x", Some("pix"), Some((0, 3)), vec![]));
}

#[test]
fn step_and_range_hints_say_what_is_wrong() {
    let msg = |p: &str| error(&format!(r#"{{"params": {{"w": {p}}}}}"#));
    let e = msg(r#"{"range": [0, 1], "step": 0}"#);
    assert_eq!(e.message, "parameter `w`: the step must be above 0, found 0");
    assert_eq!(e.place.as_ref().unwrap().hint, "the range spans 1; a step such as 0.01 divides it");
    let e = msg(r#"{"range": [0, 1], "step": 1e-12}"#);
    assert_eq!(e.message, "parameter `w`: the step 1e-12 is too small: it cuts the range 0..1 into more than 100000 steps");
    assert_eq!(e.place.as_ref().unwrap().hint, "use a step of at least 0.00001 (the range spans 1), such as 0.01");
    let e = msg(r#"{"range": [0, 1], "step": 1e-300}"#);
    assert!(e.message.contains("the step 1e-300 is too small"), "{}", e.message);
    assert!(!e.place.as_ref().unwrap().hint.contains("inf"));
    let e = msg(r#"{"range": [1, 1]}"#);
    assert_eq!(e.message, "parameter `w`: the range's min and max are both 1: a slider needs min < max");
    let e = msg(r#"{"range": [-1e308, 1e308]}"#);
    assert_eq!(e.message, "parameter `w`: the range -1e308..1e308 reaches beyond ±1e12");
    assert_eq!(place(&e).3, vec!["w", "range"]);
}

#[test]
fn a_curve_too_large_names_the_limit_it_passes() {
    // A continued fraction of 50 levels is short text but holds 50 values at once.
    let deep = format!("{}x{}", "1/(1+".repeat(50), ")".repeat(50));
    let e = error(&format!(r#"{{"curves": ["{deep}"]}}"#));
    assert!(
        e.message.contains("nests too deeply") && e.message.contains("at most 48 values"),
        "{}",
        e.message
    );
    // A long sum holds few values but has too many operations.
    let long = vec!["x"; 300].join(" + ");
    let e = error(&format!(r#"{{"curves": ["{long}"]}}"#));
    assert!(
        e.message.contains("operations; a curve may have at most 400"),
        "{}",
        e.message
    );
}
