//! Widget 2 — the matrix shape checker: pick the shapes of A (m×n) and B (p×q); the
//! widget says whether AB exists and why (inner dimensions n and p), shows the result
//! shape m×q and, when the product exists, A, B and AB as grids of small integers.
//! Hovering or focusing a cell of AB highlights the row of A and the column of B behind
//! it and writes the row·column sum out in the readout.
//!
//! Markup: four `<select>`s named `a-rows`, `a-cols`, `b-rows`, `b-cols` (values 1–4);
//! a `new-numbers` button; result cells carry `data-hover="cell-i-j"` (0-based row i,
//! column j) and `tabindex="0"`.
//!
//! `data-value` names: `exists` (yes / no), `shape` (e.g. `2×2`, or `none` when AB is not defined),
//! `ab-i-j` (each result cell, 0-based), `cell-terms` (the expanded sum) and `cell-sum`
//! (its value) while a cell is hovered.
//!
//! CSS classes used (besides the shared `mc-w-controls`, `mc-w-control`,
//! `mc-w-control-label`, `mc-w-button`, `mc-w-readouts`, `mc-w-note`):
//! - `mc-w-matrix-shapes` — the widget's root.
//! - `mc-w-shape-picks` — the row of shape pickers; `mc-w-shape-pick` — one matrix's
//!   two selects with the `×` between (`mc-w-times`).
//! - `mc-w-shape-eq` — the line `A: 2×3 · B: 3×2 → AB: 2×2`; `mc-w-inner` marks the inner
//!   dimensions, plus `mc-w-match` or `mc-w-mismatch` on that line.
//! - `mc-w-matrices` — the row of grids; `mc-w-op` — the `·` and `=` between them.
//! - `mc-w-matrix` (a `<table>`), with `mc-w-matrix-a`, `mc-w-matrix-b`,
//!   `mc-w-matrix-ab`; `mc-w-shape` — the shape in its caption.
//! - `mc-w-cell` — a focusable result cell; `mc-w-hl` — highlighted cells (the row of A,
//!   the column of B and the hovered result cell; style it with more than colour, e.g.
//!   an outline or bold).
//! - `mc-w-undefined` — the "AB is not defined" placeholder.
//! - `mc-w-expansion` — the expanded row·column sum.


use mathcourse_core::matrix::{self, Matrix};
use mathcourse_core::rng::Rng;
use crate::{put, text};

use crate::svg::{esc, push_button};
use crate::{Event, ParamError, Params, Widget};

/// Largest number of rows or columns.
const MAX: usize = 4;
/// Entries are whole numbers in `-RANGE..=RANGE`.
const RANGE: u64 = 3;

/// A grid of entries large enough for any shape; a matrix uses its top-left corner, so
/// changing a shape keeps the numbers already on screen.
type Pool = [[f64; MAX]; MAX];

/// State: the two shapes, the number pools and the hovered result cell.
#[derive(Debug, Clone, PartialEq)]
pub struct MatrixShapes {
    /// Shape of A as (m, n).
    pub a_shape: (usize, usize),
    /// Shape of B as (p, q).
    pub b_shape: (usize, usize),
    /// The result cell (row, column), 0-based, being hovered or focused.
    pub hover: Option<(usize, usize)>,
    rng: Rng,
    a_pool: Pool,
    b_pool: Pool,
}

fn draw_pool(rng: &mut Rng) -> Pool {
    let mut pool = [[0.0; MAX]; MAX];
    for row in pool.iter_mut() {
        for x in row.iter_mut() {
            *x = (rng.next_u64() % (2 * RANGE + 1)) as f64 - RANGE as f64;
        }
    }
    pool
}

fn matrix_from(pool: &Pool, (rows, cols): (usize, usize)) -> Option<Matrix> {
    let data = pool
        .iter()
        .take(rows)
        .flat_map(|r| r.iter().take(cols).copied())
        .collect();
    Matrix::new(rows, cols, data).ok()
}

/// A whole number for display, with a true minus sign.
fn int_text(x: f64) -> String {
    text!(m(x, 0))
}

fn shape_text((rows, cols): (usize, usize)) -> String {
    text!(p(rows) "×" p(cols))
}

fn select(id: &str, name: &str, label: &str, value: usize) -> String {
    let mut out = text!(
        "<label class=\"mc-w-control\" for=\"" p(id) "-" p(name)
        "\"><span class=\"mc-w-control-label\">" p(label) "</span>" "<select id=\"" p(id) "-"
        p(name) "\" name=\"" p(name) "\">"
    );
    for k in 1..=MAX {
        let selected = if k == value { " selected" } else { "" };
        put!(out; "<option value=\"" p(k) "\"" p(selected) ">" p(k) "</option>");
    }
    out.push_str("</select></label>");
    out
}

/// Parses a dimension sent by a select: a whole number 1..=MAX.
fn parse_dim(value: &str) -> Option<usize> {
    let x = crate::fmt::input_num(value)?;
    if x.fract() == 0.0 && (1.0..=MAX as f64).contains(&x) {
        Some(x as usize)
    } else {
        None
    }
}

/// Parses `cell-i-j`.
fn parse_cell(target: &str) -> Option<(usize, usize)> {
    let rest = target.strip_prefix("cell-")?;
    let (i, j) = rest.split_once('-')?;
    Some((crate::fmt::parse_index(i)?, crate::fmt::parse_index(j)?))
}

fn shape_param(
    params: &Params,
    name: &str,
    default: [f64; 2],
) -> Result<(usize, usize), ParamError> {
    let v = params.nums(name, &default, (2, 2), (1.0, MAX as f64))?;
    for (i, x) in v.iter().enumerate() {
        if x.fract() != 0.0 {
            return Err(ParamError::new(
                name,
                text!(
                    "entry " p(i + 1) " should be a whole number, found "
                    p(crate::number::fmt_num(*x))
                ),
            ));
        }
    }
    Ok((v[0] as usize, v[1] as usize))
}

impl MatrixShapes {
    /// Matrix A as currently shown.
    pub fn a(&self) -> Option<Matrix> {
        matrix_from(&self.a_pool, self.a_shape)
    }

    /// Matrix B as currently shown.
    pub fn b(&self) -> Option<Matrix> {
        matrix_from(&self.b_pool, self.b_shape)
    }

    /// The product AB when the inner dimensions agree.
    pub fn product(&self) -> Option<Matrix> {
        matrix::matmul(&self.a()?, &self.b()?).ok()
    }

    fn new_numbers(&mut self) {
        self.a_pool = draw_pool(&mut self.rng);
        self.b_pool = draw_pool(&mut self.rng);
    }

    /// Drops the hover when its cell is no longer in the product.
    fn fix_hover(&mut self) {
        let (m, q) = (self.a_shape.0, self.b_shape.1);
        let exists = self.a_shape.1 == self.b_shape.0;
        if let Some((i, j)) = self.hover {
            if !exists || i >= m || j >= q {
                self.hover = None;
            }
        }
    }

    fn shape_line(&self) -> String {
        let (m, n) = self.a_shape;
        let (p, q) = self.b_shape;
        let (class, verdict) = if n == p {
            ("mc-w-match", text!("→ AB: " p(shape_text((m, q)))))
        } else {
            ("mc-w-mismatch", text!("→ AB: not defined (" p(n) " ≠ " p(p) ")"))
        };
        {
            text!(
                "<p class=\"mc-w-shape-eq " p(class) "\">A: " p(m) "×<span class=\"mc-w-inner\">"
                p(n) "</span> · " "B: <span class=\"mc-w-inner\">" p(p) "</span>×" p(q) " "
                p(verdict) "</p>"
            )
        }
    }

    fn table(
        &self,
        which: &str,
        name: &str,
        m: &Matrix,
        hl: impl Fn(usize, usize) -> bool,
    ) -> String {
        let mut out = text!(
            "<table class=\"mc-w-matrix mc-w-matrix-" p(which) "\"><caption>" p(name)
            " <span class=\"mc-w-shape\">(" p(shape_text(m.shape())) ")</span></caption><tbody>"
        );
        for (r, row) in m.to_rows().iter().enumerate() {
            out.push_str("<tr>");
            for (c, x) in row.iter().enumerate() {
                let class = if hl(r, c) { " class=\"mc-w-hl\"" } else { "" };
                put!(out; "<td" p(class) ">" p(int_text(*x)) "</td>");
            }
            out.push_str("</tr>");
        }
        out.push_str("</tbody></table>");
        out
    }

    fn product_table(&self, ab: &Matrix) -> String {
        let mut out = text!(
            "<table class=\"mc-w-matrix mc-w-matrix-ab\"><caption>AB <span class=\"mc-w-shape\">("
            p(shape_text(ab.shape())) ")</span></caption><tbody>"
        );
        for (r, row) in ab.to_rows().iter().enumerate() {
            out.push_str("<tr>");
            for (c, x) in row.iter().enumerate() {
                let class = if self.hover == Some((r, c)) {
                    "mc-w-cell mc-w-hl"
                } else {
                    "mc-w-cell"
                };
                put!(out;
                    "<td class=\"" p(class) "\" tabindex=\"0\" data-hover=\"cell-" p(r) "-" p(c)
                    "\" data-value=\"ab-" p(r) "-" p(c) "\" " "aria-label=\"Row " p(r + 1)
                    ", column " p(c + 1) " of AB: " p(int_text(*x)) "\">" p(int_text(*x)) "</td>"
                );
            }
            out.push_str("</tr>");
        }
        out.push_str("</tbody></table>");
        out
    }

    fn readouts(&self, id: &str) -> String {
        let (m, n) = self.a_shape;
        let (p, q) = self.b_shape;
        let mut out =
            text!("<dl class=\"mc-w-readouts\" id=\"" p(id) "-readouts\" aria-live=\"polite\">");
        if n == p {
            put!(out;
                "<div><dt>Does AB exist?</dt><dd><strong data-value=\"exists\">yes</strong>: the inner dimensions match "
                "(A has n = " p(n) " columns, B has p = " p(p)
                " rows), so each row of A pairs with each column of B.</dd></div>"
                "<div><dt>Shape of AB</dt><dd><strong data-value=\"shape\">" p(shape_text((m, q)))
                "</strong> <span class=\"mc-w-note\">(m × q: the rows of A by the columns of B)</span></dd></div>"
            );
            out.push_str("<div><dt>Cell of AB</dt><dd>");
            out.push_str(&self.cell_readout());
            out.push_str("</dd></div>");
        } else {
            put!(out;
                "<div><dt>Does AB exist?</dt><dd><strong data-value=\"exists\">no</strong>: the inner dimensions differ "
                "(A has n = " p(n) " columns but B has p = " p(p) " rows, " p(n) " ≠ " p(p)
                "); a row of A has " p(n) " numbers and a column of B has " p(p) ", "
                "so they cannot be paired up.</dd></div>"
                "<div><dt>Shape of AB</dt><dd><strong data-value=\"shape\">none</strong>: AB is not defined, "
                "because A has " p(n) " columns and B has " p(p) " rows <span class=\"mc-w-note\">(to define it, give B "
                p(n) " rows or give A " p(p) " columns)</span></dd></div>"
            );
            if q == m {
                put!(out;
                    "<div><dt>The other order</dt><dd>BA does exist: (" p(shape_text(self.b_shape))
                    ")(" p(shape_text(self.a_shape)) ") = " p(shape_text((p, n))) "</dd></div>"
                );
            }
        }
        out.push_str("</dl>");
        out
    }

    fn cell_readout(&self) -> String {
        let hovered = self.hover.and_then(|(i, j)| {
            let (a, b) = (self.a()?, self.b()?);
            let row = a.row(i)?.to_vec();
            let col = b.column(j)?;
            let sum = self.product()?.get(i, j)?;
            Some((i, j, row, col, sum))
        });
        match hovered {
            Some((i, j, row, col, sum)) => {
                let mut s = String::new();
                put!(s;
                    "row " p(i + 1) " of A · column " p(j + 1)
                    " of B: <span class=\"mc-w-expansion\" data-value=\"cell-terms\">"
                );
                for (k, (x, y)) in row.iter().zip(&col).enumerate() {
                    put!(s; s(if k == 0 { "(" } else { " + (" }) m(*x, 0) ")(" m(*y, 0) ")");
                }
                put!(s; "</span> = <strong data-value=\"cell-sum\">" m(sum, 0) "</strong>");
                s
            }
            None => "<span class=\"mc-w-note\">Hover over or focus (Tab to) a cell of AB to see the row · column sum behind it.</span>"
                .to_string(),
        }
    }
}

impl Widget for MatrixShapes {
    const NAME: &'static str = "matrix-shapes";
    const SUMMARY: &'static str =
        "Matrix shape checker: pick the shapes of A and B, see whether AB exists and why, and the product of small integers with the row·column behind each cell.";
    const PARAMS: &'static [(&'static str, &'static str, &'static str)] = &[
        (
            "a",
            "[m, n], default [2, 3]",
            "starting shape of A (rows, columns); each between 1 and 4",
        ),
        (
            "b",
            "[p, q], default [3, 2]",
            "starting shape of B (rows, columns); each between 1 and 4",
        ),
        (
            "seed",
            "whole number, default 1",
            "seed for the random small integers (−3 to 3); same seed, same numbers",
        ),
    ];

    fn from_params(params: &Params) -> Result<Self, ParamError> {
        params.only(&["a", "b", "seed"])?;
        let a_shape = shape_param(params, "a", [2.0, 3.0])?;
        let b_shape = shape_param(params, "b", [3.0, 2.0])?;
        let seed = params.int("seed", 1, 0, u32::MAX as i64)?;
        let mut rng = Rng::new(seed as u64);
        let a_pool = draw_pool(&mut rng);
        let b_pool = draw_pool(&mut rng);
        Ok(MatrixShapes {
            a_shape,
            b_shape,
            hover: None,
            rng,
            a_pool,
            b_pool,
        })
    }

    fn render(&self, id: &str) -> String {
        let id = esc(id);
        let mut out = String::from("<div class=\"mc-w-matrix-shapes\">");
        out.push_str("<fieldset class=\"mc-w-controls\"><legend>Shapes</legend><div class=\"mc-w-shape-picks\">");
        for (name, upper, shape) in [("a", "A", self.a_shape), ("b", "B", self.b_shape)] {
            let (r, c) = if name == "a" { ("m", "n") } else { ("p", "q") };
            put!(out;
                "<div class=\"mc-w-shape-pick\" role=\"group\" aria-label=\"Shape of " p(upper)
                "\">"
            );
            out.push_str(&select(
                &id,
                &text!(p(name) "-rows"),
                &text!(p(upper) " rows (" p(r) ")"),
                shape.0,
            ));
            out.push_str("<span class=\"mc-w-times\" aria-hidden=\"true\">×</span>");
            out.push_str(&select(
                &id,
                &text!(p(name) "-cols"),
                &text!(p(upper) " columns (" p(c) ")"),
                shape.1,
            ));
            out.push_str("</div>");
        }
        out.push_str("</div>");
        push_button(&mut out, "new-numbers", "New numbers");
        out.push_str("</fieldset>");
        out.push_str(&self.shape_line());
        out.push_str("<div class=\"mc-w-matrices\">");
        let (a, b) = (self.a(), self.b());
        let hover = self.hover;
        if let Some(a) = &a {
            out.push_str(&self.table("a", "A", a, |r, _| hover.is_some_and(|(i, _)| i == r)));
        }
        out.push_str("<span class=\"mc-w-op\" aria-hidden=\"true\">·</span>");
        if let Some(b) = &b {
            out.push_str(&self.table("b", "B", b, |_, c| hover.is_some_and(|(_, j)| j == c)));
        }
        out.push_str("<span class=\"mc-w-op\" aria-hidden=\"true\">=</span>");
        match self.product() {
            Some(ab) => out.push_str(&self.product_table(&ab)),
            None => out.push_str("<p class=\"mc-w-undefined\">AB is not defined</p>"),
        }
        out.push_str("</div>");
        out.push_str(&self.readouts(&id));
        out.push_str("</div>");
        out
    }

    fn update(&mut self, event: &Event) -> bool {
        let before = self.clone();
        match *event {
            Event::Input { control, value } => {
                let Some(k) = parse_dim(value) else {
                    return false;
                };
                match control {
                    "a-rows" => self.a_shape.0 = k,
                    "a-cols" => self.a_shape.1 = k,
                    "b-rows" => self.b_shape.0 = k,
                    "b-cols" => self.b_shape.1 = k,
                    _ => return false,
                }
                self.fix_hover();
            }
            Event::Action {
                action: "new-numbers",
            } => self.new_numbers(),
            Event::Hover { target } => {
                self.hover = target.and_then(parse_cell);
                self.fix_hover();
            }
            Event::Action { .. } | Event::Key { .. } | Event::Drag { .. } => {}
        }
        *self != before
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::testkit::{input, action};
    use crate::testkit::value;

    fn widget(json: &str) -> MatrixShapes {
        crate::testkit::widget(json)
    }


    /// Reads an integer as displayed (true minus sign).
    fn int(text: &str) -> f64 {
        text.replace('−', "-").parse().unwrap()
    }

    #[test]
    fn default_shapes_multiply() {
        let w = widget("{}");
        assert_eq!((w.a_shape, w.b_shape), ((2, 3), (3, 2)));
        let html = w.render("m");
        assert_eq!(value(&html, "exists"), "yes");
        assert_eq!(value(&html, "shape"), "2×2");
        assert!(html.contains("A has n = 3 columns, B has p = 3 rows"));
        assert!(html.contains("mc-w-match\">A: 2×<span class=\"mc-w-inner\">3</span> · B: <span class=\"mc-w-inner\">3</span>×2 → AB: 2×2</p>"));
        // AB computed here by the textbook sum Σₖ A[i][k]·B[k][j], independently of `matmul`.
        let (a, b) = (w.a().unwrap().to_rows(), w.b().unwrap().to_rows());
        let ab: Vec<Vec<f64>> = a
            .iter()
            .map(|row| {
                (0..2)
                    .map(|j| (0..3).map(|k| row[k] * b[k][j]).sum())
                    .collect()
            })
            .collect();
        for (i, r) in ab.iter().enumerate() {
            for (j, s) in r.iter().enumerate() {
                assert_eq!(int(value(&html, &format!("ab-{i}-{j}"))), *s);
            }
        }
        // Small integers only.
        for x in a.iter().chain(&b).flatten() {
            assert!(x.fract() == 0.0 && (-3.0..=3.0).contains(x));
        }
        assert!(!html.contains("data-value=\"cell-sum\""));
        assert_eq!(html.matches("tabindex=\"0\"").count(), 4);
        assert_eq!(html.matches("<select").count(), 4);
    }

    #[test]
    fn mismatch_is_explained() {
        let w = widget(r#"{"a":[2,3],"b":[2,2]}"#);
        let html = w.render("m");
        assert_eq!(value(&html, "exists"), "no");
        assert_eq!(value(&html, "shape"), "none");
        // Says what is meant, not a bare "undefined" that reads like a bug.
        assert!(
            html.contains("AB is not defined, because A has 3 columns and B has 2 rows"),
            "{html}"
        );
        assert!(!html.contains(">undefined<"), "{html}");
        assert!(
            html.contains("A has n = 3 columns but B has p = 2 rows, 3 ≠ 2"),
            "{html}"
        );
        assert!(html.contains("give B 3 rows or give A 2 columns"));
        assert!(html.contains("AB is not defined"));
        assert!(html.contains("mc-w-mismatch") && html.contains("→ AB: not defined (3 ≠ 2)"));
        assert!(html.contains("BA does exist: (2×2)(2×3) = 2×3"));
        assert!(!html.contains("data-hover"));
    }

    #[test]
    fn hover_expands_row_times_column() {
        let mut w = widget(r#"{"a":[2,3],"b":[3,2],"seed":5}"#);
        assert!(w.update(&Event::Hover {
            target: Some("cell-1-0")
        }));
        let html = w.render("m");
        let (a, b) = (w.a().unwrap().to_rows(), w.b().unwrap().to_rows());
        let expected_terms = format!(
            "({})({}) + ({})({}) + ({})({})",
            int_text(a[1][0]),
            int_text(b[0][0]),
            int_text(a[1][1]),
            int_text(b[1][0]),
            int_text(a[1][2]),
            int_text(b[2][0])
        );
        assert_eq!(value(&html, "cell-terms"), expected_terms);
        let sum = a[1][0] * b[0][0] + a[1][1] * b[1][0] + a[1][2] * b[2][0];
        assert_eq!(int(value(&html, "cell-sum")), sum);
        assert!(html.contains("row 2 of A · column 1 of B"));
        // Row 2 of A (3 cells), column 1 of B (3 cells) and the cell itself.
        assert_eq!(html.matches("mc-w-hl").count(), 7);
        assert!(w.update(&Event::Hover { target: None }));
        assert!(!w.render("m").contains("mc-w-hl"));
        assert!(!w.update(&Event::Hover {
            target: Some("cell-5-0")
        }));
        assert!(!w.update(&Event::Hover {
            target: Some("nonsense")
        }));
    }

    #[test]
    fn known_numbers_give_the_seed_style_expansion() {
        let mut w = widget(r#"{"a":[1,3],"b":[3,1]}"#);
        w.a_pool[0] = [1.0, -1.0, 3.0, 0.0];
        w.b_pool[0][0] = 2.0;
        w.b_pool[1][0] = 0.0;
        w.b_pool[2][0] = 1.0;
        w.update(&Event::Hover {
            target: Some("cell-0-0"),
        });
        let html = w.render("m");
        assert_eq!(value(&html, "cell-terms"), "(1)(2) + (−1)(0) + (3)(1)");
        assert_eq!(value(&html, "cell-sum"), "5");
    }

    #[test]
    fn selects_change_shapes_and_drop_stale_hover() {
        let mut w = widget("{}");
        w.update(&Event::Hover {
            target: Some("cell-1-1"),
        });
        assert!(input(&mut w, "b-cols", "4"));
        assert_eq!(w.b_shape, (3, 4));
        assert_eq!(w.hover, Some((1, 1)));
        assert_eq!(value(&w.render("m"), "shape"), "2×4");
        assert!(input(&mut w, "a-rows", "1"));
        assert_eq!(w.hover, None, "row 1 (0-based) no longer exists");
        assert!(input(&mut w, "a-cols", "2"));
        assert_eq!(value(&w.render("m"), "exists"), "no");
        assert!(input(&mut w, "b-rows", "2"));
        assert_eq!(value(&w.render("m"), "shape"), "1×4");
        assert!(!input(&mut w, "b-rows", "2"));
        assert!(!input(&mut w, "b-rows", "5"));
        assert!(!input(&mut w, "b-rows", "x"));
        assert!(!input(&mut w, "other", "2"));
        // Numbers already on screen stay when a shape grows.
        let a_before = w.a().unwrap().to_rows();
        input(&mut w, "a-rows", "3");
        assert_eq!(w.a().unwrap().to_rows()[0], a_before[0]);
    }

    #[test]
    fn new_numbers_are_deterministic() {
        let mut w1 = widget(r#"{"seed":9}"#);
        let mut w2 = widget(r#"{"seed":9}"#);
        assert_eq!(w1.render("x"), w2.render("x"));
        let first = w1.a();
        assert!(action(&mut w1, "new-numbers"));
        assert!(action(&mut w2, "new-numbers"));
        assert_eq!(w1.render("x"), w2.render("x"));
        assert_ne!(w1.a(), first);
        assert_ne!(widget(r#"{"seed":10}"#).a(), widget(r#"{"seed":9}"#).a());
        assert!(!action(&mut w1, "other"));
    }

    #[test]
    fn bad_params_name_the_parameter() {
        for (json, param) in [
            (r#"{"a":[2,5]}"#, "a"),
            (r#"{"b":[0,2]}"#, "b"),
            (r#"{"b":[1.5,2]}"#, "b"),
            (r#"{"a":[2]}"#, "a"),
            (r#"{"seed":-1}"#, "seed"),
            (r#"{"size":2}"#, "size"),
        ] {
            let e = MatrixShapes::from_params(&Params::from_json(json).unwrap()).unwrap_err();
            assert_eq!(e.param, param, "{json}: {e}");
        }
    }
}
