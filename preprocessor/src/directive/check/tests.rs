//! Every kind with a correct and a wrong example, plus the option and expression errors.

use std::path::Path;

use crate::chapter::{render_source, BookContext, ChapterOutput};
use crate::config::OnError;
use crate::diagnostic::Diagnostic;

fn book() -> BookContext {
    BookContext::standalone(OnError::Fail)
}

fn run(src: &str, html: bool) -> ChapterOutput {
    render_source(src, Path::new("t.md"), Path::new("src/t.md"), &book(), html)
}

fn block(kind: &str, options: &str) -> String {
    format!(":::{{check}} {kind}\n{options}\nThe sentence the reader sees.\n:::\n")
}

/// Renders and asserts there is no diagnostic; returns the chapter.
fn ok(kind: &str, options: &str) -> String {
    let src = block(kind, options);
    let out = run(&src, true);
    assert!(
        out.diagnostics.is_empty(),
        "{kind}: {}",
        crate::diagnostic::render_all(&out.diagnostics, false)
    );
    assert!(
        out.content.contains("<div class=\"mc-check mc-check-"),
        "{}",
        out.content
    );
    out.content
}

/// Renders and returns the single diagnostic and the source it points into.
fn fails(kind: &str, options: &str) -> (Diagnostic, String) {
    let src = block(kind, options);
    let out = run(&src, true);
    assert_eq!(
        out.diagnostics.len(),
        1,
        "{kind}: {}",
        crate::diagnostic::render_all(&out.diagnostics, false)
    );
    (out.diagnostics[0].clone(), src)
}

/// A wrong example: the error says "worked example is wrong", mentions `needle`
/// and points at `at`.
fn wrong(kind: &str, options: &str, needle: &str, at: &str) {
    let (d, src) = fails(kind, options);
    assert!(
        d.message.starts_with("worked example is wrong: "),
        "{kind}: {}",
        d.message
    );
    assert!(d.message.contains(needle), "{kind}: {}", d.message);
    assert_eq!(&src[d.span.clone()], at, "{kind}: {}", d.message);
    assert_eq!(d.label, "stated here");
    assert!(d.hint.as_deref().unwrap_or("").contains("correct `expect`"));
}

#[test]
fn dot() {
    ok("dot", ":a: [1, 2, 2]\n:b: [2, 0, 1]\n:expect: 4");
    wrong(
        "dot",
        ":a: [1, 2, 2]\n:b: [2, 0, 1]\n:expect: 5",
        "stated 5, computed 4 (checked to the nearest whole number)",
        "5",
    );
}

#[test]
fn norm() {
    ok("norm", ":a: [1, 2, 2]\n:expect: 3");
    wrong(
        "norm",
        ":a: [1, 2, 2]\n:expect: 3.1",
        "stated 3.1, computed 3.0 (checked to 1 decimal)",
        "3.1",
    );
}

#[test]
fn cosine() {
    ok("cosine", ":a: [1, 2, 2]\n:b: [2, 0, 1]\n:expect: 0.596");
    wrong(
        "cosine",
        ":a: [1, 2, 2]\n:b: [2, 0, 1]\n:expect: 0.597",
        "stated 0.597, computed 0.59628 (checked to 3 decimals)",
        "0.597",
    );
}

#[test]
fn angle() {
    ok("angle", ":a: [1, 2, 2]\n:b: [2, 0, 1]\n:expect: 53.4");
    wrong(
        "angle",
        ":a: [1, 2, 2]\n:b: [2, 0, 1]\n:expect: 53.5",
        "computed 53.396",
        "53.5",
    );
}

#[test]
fn matmul() {
    let html = ok(
        "matmul",
        ":a: [[1, 2], [3, 4]]\n:b: [[5, 6], [7, 8]]\n:expect: [[19, 22], [43, 50]]",
    );
    assert!(html.contains("pmatrix") || html.contains("katex"));
    wrong(
        "matmul",
        ":a: [[1, 2], [3, 4]]\n:b: [[5, 6], [7, 8]]\n:expect: [[19, 22], [43, 51]]",
        "entry (2, 2): stated 51, computed 50",
        "51",
    );
    wrong(
        "matmul",
        ":a: [[1, 2], [3, 4]]\n:b: [[5, 6], [7, 8]]\n:expect: [[19, 22]]",
        "stated a 1×2 matrix, the product is 2×2",
        "[[19, 22]]",
    );
}

#[test]
fn shape() {
    ok(
        "shape",
        ":a-shape: [2, 3]\n:b-shape: [3, 4]\n:expect: [2, 4]",
    );
    ok(
        "shape",
        ":a-shape: [2, 3]\n:b-shape: [2, 4]\n:expect: error",
    );
    wrong(
        "shape",
        ":a-shape: [2, 3]\n:b-shape: [3, 4]\n:expect: error",
        "stated `error`, but (2×3)(3×4) is defined: it is 2×4",
        "error",
    );
    wrong(
        "shape",
        ":a-shape: [2, 3]\n:b-shape: [2, 4]\n:expect: [2, 4]",
        "the product is undefined: inner dimensions differ",
        "[2, 4]",
    );
}

#[test]
fn softmax() {
    let html = ok(
        "softmax",
        ":scores: [2, 1, 0]\n:expect: [0.665, 0.245, 0.090]",
    );
    assert!(html.contains("Checked at build time"));
    ok(
        "softmax",
        ":scores: [2, 1, 0]\n:temperature: 0.5\n:expect: [0.867, 0.117, 0.016]",
    );
    wrong(
        "softmax",
        ":scores: [2, 1, 0]\n:expect: [0.665, 0.245, 0.091]",
        "entry 3 of 3: stated 0.091, computed 0.09003 (checked to 3 decimals)",
        "0.091",
    );
    wrong(
        "softmax",
        ":scores: [2, 1, 0]\n:expect: [0.665, 0.245]",
        "stated 2 entries, computed 3",
        "[0.665, 0.245]",
    );
}

#[test]
fn softmax_in_yaml_reads_decimals_from_the_source() {
    // 0.090 is parsed as 0.09, but was written with 3 decimals: 0.0904 is wrong at 3.
    ok(
        "softmax",
        "---\nscores: [2, 1, 0]\nexpect:\n  - 0.665\n  - 0.245\n  - 0.090\n---",
    );
    let (d, src) = fails(
        "softmax",
        "---\nscores: [2, 1, 0]\nexpect: [0.665, 0.244, 0.090]\n---",
    );
    assert_eq!(&src[d.span.clone()], "0.244");
    assert!(d.message.contains("entry 2 of 3"), "{}", d.message);
}

#[test]
fn entropy() {
    let html = ok("entropy", ":p: [0.5, 0.5]\n:expect: 1");
    assert!(html.contains("bit"));
    ok("entropy", ":p: [0.5, 0.5]\n:unit: nats\n:expect: 0.693");
    wrong(
        "entropy",
        ":p: [0.5, 0.5]\n:expect: 0.9",
        "stated 0.9, computed 1",
        "0.9",
    );
}

#[test]
fn surprise() {
    ok("surprise", ":p: 0.25\n:expect: 2");
    ok("surprise", ":p: 0.25\n:unit: nats\n:expect: 1.386");
    wrong(
        "surprise",
        ":p: 0.25\n:expect: 3",
        "stated 3, computed 2",
        "3",
    );
}

#[test]
fn cross_entropy() {
    ok("cross-entropy", ":probs: [0.5, 0.25]\n:expect: 1.040");
    ok(
        "cross-entropy",
        ":probs: [0.5, 0.25]\n:unit: bits\n:expect: 1.5",
    );
    wrong(
        "cross-entropy",
        ":probs: [0.5, 0.25]\n:expect: 1.05",
        "stated 1.05, computed 1.0397",
        "1.05",
    );
}

#[test]
fn perplexity() {
    ok("perplexity", ":probs: [0.5, 0.25]\n:expect: 2.828");
    wrong(
        "perplexity",
        ":probs: [0.5, 0.25]\n:expect: 2.9",
        "stated 2.9, computed 2.828",
        "2.9",
    );
}

#[test]
fn log_product() {
    ok("log-product", ":values: [0.5, 0.25]\n:base: 2\n:expect: -3");
    ok("log-product", ":values: [0.5, 0.25, 0.1]\n:expect: -4.382");
    ok(
        "log-product",
        ":values: [0.5, 0.25, 0.1]\n:base: 10\n:expect: −1.903",
    );
    wrong(
        "log-product",
        ":values: [0.5, 0.25]\n:base: 2\n:expect: -2",
        "stated -2, computed -3",
        "-2",
    );
}

#[test]
fn derivative() {
    ok("derivative", ":f: x^2 + 3*x\n:at: 2\n:expect: 7");
    wrong(
        "derivative",
        ":f: x^2 + 3*x\n:at: 2\n:expect: 6.9",
        "stated 6.9, computed 7",
        "6.9",
    );
}

#[test]
fn chain_rule() {
    ok(
        "chain-rule",
        ":outer: sin(u)\n:inner: x^2\n:at: 1\n:expect: 1.081",
    );
    wrong(
        "chain-rule",
        ":outer: sin(u)\n:inner: x^2\n:at: 1\n:expect: 0.540",
        "stated 0.540, computed 1.0806 (checked to 3 decimals)",
        "0.540",
    );
}

#[test]
fn gradient_descent() {
    // The course function: numerical derivative, or the exact one given.
    let xs =
        mathcourse_core::descent::gd_1d(&mathcourse_core::descent::Function1D::Course, 0.0, 0.1, 3)
            .unwrap()
            .xs;
    let expect: Vec<String> = xs[1..].iter().map(|x| format!("{x:.3}")).collect();
    assert_eq!(expect, ["0.250", "0.490", "0.777"]);
    ok(
        "gd",
        ":f: (x - 2)^2 + 0.5*sin(3*x)\n:x0: 0\n:lr: 0.1\n:steps: 3\n:expect: [0.250, 0.490, 0.777]",
    );
    ok(
        "gd",
        ":f: (x - 2)^2 + 0.5*sin(3*x)\n:derivative: 2*(x - 2) + 1.5*cos(3*x)\n:x0: 0\n:lr: 0.1\n:steps: 3\n:expect: [0.250, 0.490, 0.777]",
    );
    wrong(
        "gd",
        ":f: (x - 2)^2 + 0.5*sin(3*x)\n:x0: 0\n:lr: 0.1\n:steps: 3\n:expect: [0.250, 0.480, 0.787]",
        "iterate 2 of 3: stated 0.480, computed 0.49025 (checked to 3 decimals); iterates 2, 3 differ",
        "0.480",
    );
}

#[test]
fn gd_divergence_is_an_input_error() {
    let (d, src) = fails("gd", ":f: x^2\n:x0: 1\n:lr: 1.5\n:steps: 40\n:expect: [1]");
    assert!(d.message.contains("diverged"), "{}", d.message);
    assert_eq!(&src[d.span.clone()], "1.5");
}

#[test]
fn std_sum() {
    ok("std-sum", ":stds: [3, 4]\n:expect: 5");
    wrong(
        "std-sum",
        ":stds: [3, 4]\n:expect: 7",
        "stated 7, computed 5",
        "7",
    );
}

#[test]
fn unknown_kind_suggests() {
    let (d, src) = fails("sofmax", ":scores: [1]\n:expect: [1]");
    assert_eq!(&src[d.span.clone()], "sofmax");
    assert!(d.message.contains("unknown check kind `sofmax`"));
    assert!(d.hint.unwrap().contains("did you mean `softmax`?"));
    let (d, _) = fails("", ":expect: 1");
    assert!(d.message.contains("needs the kind"), "{}", d.message);
}

#[test]
fn missing_and_unknown_options_name_the_kind() {
    let (d, _) = fails("dot", ":a: [1, 2]\n:expect: 4");
    assert_eq!(d.message, "`{check} dot` needs the option `b`");
    let (d, src) = fails("dot", ":a: [1]\n:b: [1]\n:temperature: 2\n:expect: 1");
    assert_eq!(&src[d.span.clone()], "temperature");
    assert!(
        d.message
            .contains("unknown option `temperature` for `{check} dot`"),
        "{}",
        d.message
    );
}

#[test]
fn invalid_expression_points_into_the_value() {
    let (d, src) = fails("derivative", ":f: x^2 + sinh(x)\n:at: 1\n:expect: 1");
    assert_eq!(d.message, "invalid expression in `f`");
    assert_eq!(&src[d.span.clone()], "sinh");
    assert!(d.label.contains("unknown function `sinh`"), "{}", d.label);
    let (d, src) = fails("derivative", ":f: (x + 1\n:at: 1\n:expect: 1");
    assert!(d.label.contains("missing `)`"), "{}", d.label);
    assert_eq!(d.span.start, src.find("(x + 1").unwrap() + 6);
    let (d, _) = fails(
        "chain-rule",
        ":outer: sin(x)\n:inner: x^2\n:at: 1\n:expect: 1",
    );
    assert!(d.message.contains("uses the variable `x`"), "{}", d.message);
}

#[test]
fn input_errors_use_core_messages() {
    let (d, src) = fails("dot", ":a: [1, 2, 2]\n:b: [2, 0]\n:expect: 4");
    assert_eq!(
        d.message,
        "cannot check this example: vectors have different lengths (3 and 2)"
    );
    assert_eq!(&src[d.span.clone()], "[2, 0]");
    let (d, _) = fails("matmul", ":a: [[1, 2]]\n:b: [[1, 2]]\n:expect: [[1]]");
    assert!(
        d.message.contains("inner dimensions differ"),
        "{}",
        d.message
    );
    let (d, _) = fails("entropy", ":p: [0.5, 0.6]\n:expect: 1");
    assert!(d.message.contains("sum to 1"), "{}", d.message);
}

#[test]
fn wrong_form_of_expect() {
    let (d, _) = fails("dot", ":a: [1]\n:b: [1]\n:expect: [1, 2]");
    assert!(
        d.message.contains("is one number, not a list"),
        "{}",
        d.message
    );
}

#[test]
fn computation_line_is_typeset_and_degrades_to_text() {
    let html = ok(
        "softmax",
        ":scores: [2, 1, 0]\n:expect: [0.665, 0.245, 0.090]",
    );
    assert!(html.contains("mc-check-computation"), "{html}");
    assert!(html.contains("class=\"katex\""), "{html}");
    assert!(html.contains("The sentence the reader sees."));
    let out = run(
        &block(
            "softmax",
            ":scores: [2, 1, 0]\n:expect: [0.665, 0.245, 0.090]",
        ),
        false,
    );
    assert!(out.diagnostics.is_empty());
    assert_eq!(
        out.content.trim_end(),
        "The sentence the reader sees.\n\n*✓ Checked at build time:* softmax(2, 1, 0) ≈ (0.665, 0.245, 0.090)"
    );
    // Other renderers are checked too.
    let out = run(&block("dot", ":a: [1]\n:b: [1]\n:expect: 2"), false);
    assert_eq!(out.diagnostics.len(), 1);
    let out = run(
        &block(
            "gd",
            ":f: x^2\n:x0: 1\n:lr: 0.25\n:steps: 1\n:expect: [0.5]",
        ),
        false,
    );
    assert!(
        out.content
            .contains("f(x) = x^2, x₀ = 1, η = 0.25: x₁ = 0.5"),
        "{}",
        out.content
    );
}

#[test]
fn kinds_are_listed_once() {
    let mut names: Vec<&str> = super::KINDS.iter().map(|(name, _)| *name).collect();
    names.sort_unstable();
    names.dedup();
    assert_eq!(names.len(), super::KINDS.len());
}

/// A `{calc}` role wrapped across lines (its code span text has the line ending as a
/// space) is read as written: a right value passes, a wrong one is pointed at exactly,
/// and a caret never lands inside a character (a fuzzer found one inside `≈`).
#[test]
fn a_calc_role_wrapped_across_lines_is_read_as_written() {
    let out = run("The root is {calc}`sqrt(2)\n≈ 1.41`, as stated.\n", true);
    assert!(
        out.diagnostics.is_empty(),
        "{}",
        crate::diagnostic::render_all(&out.diagnostics, false)
    );
    let src = "The root is {calc}`sqrt(2)\n≈ 1.52`, as stated.\n";
    let out = run(src, true);
    assert_eq!(out.diagnostics.len(), 1);
    assert_eq!(&src[out.diagnostics[0].span.clone()], "1.52");
    let src = "{calc}`sqrt(2) ≈ 1.41r\nahead and\nonly`, but\n";
    let out = run(src, true);
    assert_eq!(out.diagnostics.len(), 1);
    assert!(src.get(out.diagnostics[0].span.clone()).is_some());
}

/// Every number the body states is compared, or reported: a typo in the prose of a
/// checked example is a warning at the number, and the block loses its ✓.
#[test]
fn numbers_in_the_body_are_compared_or_reported() {
    let calc = ":::{check} calc\nlines: |\n  a = 2\n  l1 = (5 + sqrt(5)) / 2\n  l2 = (5 - sqrt(5)) / 2\nexpect:\n  l2: 1.38\n---\nThe eigenvalues are $3.618$ and $1.38$, from the 2 inputs.\n:::\n";
    let calc = calc.replace("lines:", "---\nlines:");
    let out = run(&calc, true);
    assert!(
        out.diagnostics.is_empty(),
        "{}",
        crate::diagnostic::render_all(&out.diagnostics, false)
    );
    assert!(
        out.content.contains("mc-check-icon"),
        "✓ kept: {}",
        out.content
    );
    // The same text with a typo (3.681): one warning at it, and no ✓.
    let typo = calc.replace("$3.618$", "$3.681$");
    let out = run(&typo, true);
    let text = crate::diagnostic::render_all(&out.diagnostics, false);
    assert_eq!(out.diagnostics.len(), 1, "{text}");
    assert!(
        text.contains("`3.681` in this checked example is not compared"),
        "{text}"
    );
    assert!(text.contains("src/t.md:10:22"), "{text}");
    assert!(!out.content.contains("mc-check-icon"), "{}", out.content);
    assert!(out.content.contains("Computation checked at build time"));
    // Other renderers say the same.
    let out = run(&typo, false);
    assert!(
        out.content.contains("not every number of the text"),
        "{}",
        out.content
    );
    // A non-calc kind: the inputs, the list length and the result are known.
    let ok = ":::{check} softmax\n:scores: [2, 1, 0]\n:expect: [0.665, 0.245, 0.090]\nThe 3 scores $(2, 1, 0)$ give $(0.665, 0.245, 0.090)$, or 66.5% for the first.\n:::\n";
    let out = run(ok, true);
    assert!(
        out.diagnostics.is_empty(),
        "{}",
        crate::diagnostic::render_all(&out.diagnostics, false)
    );
}
