//! Widget 1 — vectors and the dot product: drag two arrow tips (or use the sliders or
//! arrow keys); shows the dashed projection of a onto b, a·b with its expanded sum,
//! both lengths, cos φ, and the angle with a word (aligned / perpendicular / opposed).


use mathcourse_core::vector::{self, AngleWord};
use crate::{put, text};

/// The angle in words: core's aligned / perpendicular / opposed, with "partly" for the
/// wide bands between 45° and 135° ("84° · aligned" would overstate it). Decided on the
/// angle as shown, in whole degrees.
fn graded(angle: f64, word: AngleWord) -> &'static str {
    let shown = (angle + 0.5) as i64;
    match word {
        AngleWord::Aligned if shown > 45 => "partly aligned",
        AngleWord::Opposed if shown < 135 => "partly opposed",
        other => other.as_str(),
    }
}

use crate::svg::{esc, num, open_label, push_slider, Anchor, LABEL_END};
use crate::fmt::clamp;
use crate::{DragPhase, Event, ParamError, Params, Widget};

/// Half-width of the drawing area, in vector units.
const EXTENT: f64 = 4.0;
/// Coordinates snap to this grid.
const SNAP: f64 = 0.1;

/// State: the two vectors.
#[derive(Debug, Clone, PartialEq)]
pub struct Vectors {
    /// Vector a.
    pub a: [f64; 2],
    /// Vector b.
    pub b: [f64; 2],
    dragging: Option<char>,
}

fn snap(x: f64) -> f64 {
    let v = (x / SNAP).round() * SNAP;
    let v = clamp(v, -EXTENT, EXTENT);
    // Avoid -0.0 and float noise such as 1.5000000000000002.
    (v * 10.0).round() / 10.0 + 0.0
}

impl Vectors {
    fn vec_mut(&mut self, which: char) -> Option<&mut [f64; 2]> {
        match which {
            'a' => Some(&mut self.a),
            'b' => Some(&mut self.b),
            _ => None,
        }
    }

    fn readouts(&self, id: &str) -> String {
        let (a, b) = (&self.a[..], &self.b[..]);
        let dot = vector::dot(a, b).unwrap_or(0.0);
        let na = vector::norm(a).unwrap_or(0.0);
        let nb = vector::norm(b).unwrap_or(0.0);
        let mut out = String::new();
        // Reader text: a true minus sign, as in the book's math.
        let v = |x: f64| {
            let mut t = String::new();
            crate::fmt::push_coord(&mut t, x, "−");
            t
        };
        let expansion = text!("(" p(v(self.a[0])) ")(" p(v(self.b[0])) ") + (" p(v(self.a[1])) ")(" p(v(self.b[1])) ")");
        put!(out;
            "<dl class=\"mc-w-readouts\" id=\"" p(id) "-readouts\" aria-live=\"polite\">"
            "<div><dt>a · b</dt><dd><span class=\"mc-w-expansion\">" p(expansion)
            " =</span> <strong data-value=\"dot\">" n(dot, 2) "</strong></dd></div>"
            "<div><dt>‖a‖, ‖b‖</dt><dd><span data-value=\"norm-a\">" n(na, 2)
            "</span>, <span data-value=\"norm-b\">" n(nb, 2) "</span></dd></div>"
        );
        match (vector::cosine(a, b), vector::angle_degrees(a, b), vector::angle_word(a, b)) {
            (Ok(cos), Ok(angle), Ok(word)) => {
                let sign = if dot > 1e-12 {
                    "positive"
                } else if dot < -1e-12 {
                    "negative"
                } else {
                    "zero"
                };
                put!(out;
                    "<div><dt>cos φ</dt><dd data-value=\"cos\">" n(cos, 3) "</dd></div>"
                    "<div><dt>angle φ</dt><dd><span data-value=\"angle\">" n(angle, 0)
                    "°</span> · <span data-value=\"word\">" p(graded(angle, word))
                    "</span> <span class=\"mc-w-note\">(a · b is " p(sign) ")</span></dd></div>"
                );
            }
            _ => {
                out.push_str("<div><dt>cos φ</dt><dd data-value=\"cos\">undefined</dd></div><div><dt>angle φ</dt><dd data-value=\"angle\">undefined: a zero vector has no direction</dd></div>");
            }
        }
        out.push_str("</dl>");
        out
    }

    fn drawing(&self, id: &str) -> String {
        let to_svg = |p: [f64; 2]| (p[0], -p[1]);
        let mut out = String::new();
        let e = EXTENT + 0.5;
        put!(out;
            "<svg class=\"mc-w-svg mc-w-vectors-svg\" viewBox=\"" c(-e) " " c(-e) " " c(2.0 * e) " "
            c(2.0 * e) "\" role=\"group\" aria-labelledby=\"" p(id) "-svg-title\">" "<title id=\""
            p(id) "-svg-title\">Vectors a = (" n(self.a[0], 1) ", " n(self.a[1], 1) ") and b = ("
            n(self.b[0], 1) ", " n(self.b[1], 1) ") drawn from the origin</title>"
            "<defs><marker id=\"" p(id)
            "-head-a\" viewBox=\"0 0 10 10\" refX=\"9\" refY=\"5\" markerWidth=\"5\" markerHeight=\"5\" orient=\"auto-start-reverse\"><path class=\"mc-w-vec-a-head\" d=\"M0 0L10 5L0 10z\"/></marker>"
            "<marker id=\"" p(id)
            "-head-b\" viewBox=\"0 0 10 10\" refX=\"9\" refY=\"5\" markerWidth=\"5\" markerHeight=\"5\" orient=\"auto-start-reverse\"><path class=\"mc-w-vec-b-head\" d=\"M0 0L10 5L0 10z\"/></marker></defs>"
        );
        out.push_str("<g class=\"mc-w-grid\">");
        for i in -4..=4 {
            let f = i as f64;
            put!(out;
                "<line x1=\"" c(f) "\" y1=\"" c(-EXTENT) "\" x2=\"" c(f) "\" y2=\"" c(EXTENT)
                "\"/><line x1=\"" c(-EXTENT) "\" y1=\"" c(f) "\" x2=\"" c(EXTENT) "\" y2=\"" c(f)
                "\"/>"
            );
        }
        out.push_str("</g>");
        put!(out;
            "<g class=\"mc-w-axis\"><line x1=\"" c(-EXTENT) "\" y1=\"0\" x2=\"" c(EXTENT)
            "\" y2=\"0\"/><line x1=\"0\" y1=\"" c(-EXTENT) "\" x2=\"0\" y2=\"" c(EXTENT) "\"/></g>"
        );
        // Dashed projection of a onto b: from the tip of a to its foot on b's line.
        if let Ok(p) = vector::projection(&self.a, &self.b) {
            let (px, py) = to_svg([p[0], p[1]]);
            let (ax, ay) = to_svg(self.a);
            put!(out;
                "<g class=\"mc-w-proj\"><line class=\"mc-w-proj-drop\" x1=\"" c(ax) "\" y1=\"" c(ay)
                "\" x2=\"" c(px) "\" y2=\"" c(py)
                "\"/><line class=\"mc-w-proj-shadow\" x1=\"0\" y1=\"0\" x2=\"" c(px) "\" y2=\""
                c(py) "\"/></g>"
            );
        }
        for (name, v) in [('a', self.a), ('b', self.b)] {
            let (x, y) = to_svg(v);
            put!(out;
                "<g class=\"mc-w-vec mc-w-vec-" p(name) "\"><line x1=\"0\" y1=\"0\" x2=\"" c(x)
                "\" y2=\"" c(y) "\" marker-end=\"url(#" p(id) "-head-" p(name) ")\"/>"
            );
            // The label in units of 1/20 of the grid (an HTML font of a fraction of a
            // pixel would be laid out with rounded metrics).
            let at = ((x * 1.08 + 0.25) * 20.0, (y * 1.08 - 0.2) * 20.0);
            open_label(&mut out, "mc-w-vec-label", " transform=\"scale(0.05)\"", at, Anchor::Start);
            put!(out;
                p(name) s(LABEL_END) "<circle class=\"mc-w-handle\" cx=\"" c(x) "\" cy=\"" c(y)
                "\" r=\"0.32\" tabindex=\"0\" role=\"slider\" data-drag=\"" p(name) "\" data-key=\""
                p(name) "\" " "aria-label=\"Tip of vector " p(name)
                ": use arrow keys to move it (Shift for bigger steps)\" aria-valuetext=\"("
                n(v[0], 1) ", " n(v[1], 1) ")\"/></g>"
            );
        }
        out.push_str("</svg>");
        out
    }
}

impl Widget for Vectors {
    const NAME: &'static str = "vectors";
    const SUMMARY: &'static str = "Two draggable 2-D vectors with their dot product, lengths, cosine and angle.";
    const PARAMS: &'static [(&'static str, &'static str, &'static str)] = &[
        ("a", "[x, y], default [3, 1]", "starting vector a; each entry between -4 and 4, snapped to 0.1 (the sliders' step)"),
        ("b", "[x, y], default [1.5, 3]", "starting vector b; each entry between -4 and 4, snapped to 0.1 (the sliders' step)"),
    ];

    fn from_params(params: &Params) -> Result<Self, ParamError> {
        params.only(&["a", "b"])?;
        let a = params.nums("a", &[3.0, 1.0], (2, 2), (-EXTENT, EXTENT))?;
        let b = params.nums("b", &[1.5, 3.0], (2, 2), (-EXTENT, EXTENT))?;
        Ok(Vectors {
            a: [snap(a[0]), snap(a[1])],
            b: [snap(b[0]), snap(b[1])],
            dragging: None,
        })
    }

    fn render(&self, id: &str) -> String {
        let id = esc(id);
        let mut out = String::from("<div class=\"mc-w-vectors\">");
        out.push_str(&self.drawing(&id));
        out.push_str("<div class=\"mc-w-side\">");
        out.push_str(&self.readouts(&id));
        out.push_str("<fieldset class=\"mc-w-controls\"><legend>Coordinates</legend>");
        for (name, v) in [("a", self.a), ("b", self.b)] {
            for (i, comp) in ["1", "2"].iter().enumerate() {
                push_slider(
                    &mut out,
                    &id,
                    &text!(p(name) p(comp)),
                    &text!(p(name) "<sub>" p(comp) "</sub>"),
                    (v[i], -EXTENT, EXTENT, SNAP),
                    &num(v[i], 1),
                );
            }
        }
        out.push_str("</fieldset></div></div>");
        out
    }

    fn update(&mut self, event: &Event) -> bool {
        let before = (self.a, self.b);
        match *event {
            Event::Input { control, value } => {
                let Some(x) = crate::fmt::input_num(value) else { return false };
                let mut chars = control.chars();
                let (Some(which), Some(comp)) = (chars.next(), chars.next()) else { return false };
                let index = match comp {
                    '1' => 0,
                    '2' => 1,
                    _ => return false,
                };
                if let Some(v) = self.vec_mut(which) {
                    v[index] = snap(x);
                }
            }
            Event::Drag { target, x, y, phase } => {
                let which = target.chars().next().unwrap_or(' ');
                match phase {
                    DragPhase::Start => self.dragging = Some(which),
                    DragPhase::End => self.dragging = None,
                    DragPhase::Move => {}
                }
                if let Some(v) = self.vec_mut(which) {
                    *v = [snap(x), snap(-y)];
                }
            }
            Event::Key { target, key, shift } => {
                let step = if shift { 1.0 } else { SNAP };
                let which = target.chars().next().unwrap_or(' ');
                if let Some(v) = self.vec_mut(which) {
                    match key {
                        "ArrowLeft" => v[0] = snap(v[0] - step),
                        "ArrowRight" => v[0] = snap(v[0] + step),
                        "ArrowUp" => v[1] = snap(v[1] + step),
                        "ArrowDown" => v[1] = snap(v[1] - step),
                        _ => {}
                    }
                }
            }
            Event::Action { .. } | Event::Hover { .. } => {}
        }
        (self.a, self.b) != before
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::testkit::{input};

    fn widget(json: &str) -> Vectors {
        crate::testkit::widget(json)
    }

    #[test]
    fn seed_example_readouts() {
        let w = widget(r#"{"a":[3,1],"b":[1.5,3]}"#);
        let html = w.render("w1");
        assert!(html.contains("(3)(1.5) + (1)(3) =</span> <strong data-value=\"dot\">7.50</strong>"), "{html}");
        assert!(html.contains("<span data-value=\"norm-a\">3.16</span>, <span data-value=\"norm-b\">3.35</span>"));
        assert!(html.contains("<dd data-value=\"cos\">0.707</dd>"));
        assert!(html.contains("<span data-value=\"angle\">45°</span> · <span data-value=\"word\">aligned</span>"));
    }

    #[test]
    fn angle_is_phi_and_negatives_use_a_true_minus() {
        // The course calls the angle φ (θ is the parameters), and writes − (U+2212).
        let html = widget(r#"{"a":[-2,1],"b":[1.5,-3]}"#).render("w1");
        assert!(html.contains("<dt>cos φ</dt>") && html.contains("<dt>angle φ</dt>"), "{html}");
        assert!(!html.contains('θ'), "{html}");
        assert!(html.contains("(−2)(1.5) + (1)(−3) =</span> <strong data-value=\"dot\">−6.00</strong>"), "{html}");
        assert!(html.contains("<dd data-value=\"cos\">−0.800</dd>"), "{html}");
    }

    #[test]
    fn keys_drag_and_sliders_move_tips() {
        let mut w = widget("{}");
        assert!(w.update(&Event::Key { target: "a", key: "ArrowUp", shift: false }));
        assert_eq!(w.a, [3.0, 1.1]);
        assert!(w.update(&Event::Key { target: "b", key: "ArrowLeft", shift: true }));
        assert_eq!(w.b, [0.5, 3.0]);
        assert!(w.update(&Event::Drag { target: "a", x: -1.04, y: 2.96, phase: DragPhase::Move }));
        assert_eq!(w.a, [-1.0, -3.0]);
        assert!(input(&mut w, "b2", "-2.5"));
        assert_eq!(w.b, [0.5, -2.5]);
        assert!(!input(&mut w, "b2", "-2.5"));
    }

    #[test]
    fn sign_flips_past_ninety_degrees() {
        let mut w = widget(r#"{"a":[2,0],"b":[0,2]}"#);
        assert!(w.render("x").contains("perpendicular"));
        input(&mut w, "b1", "-0.5");
        let html = w.render("x");
        assert!(html.contains("opposed") && html.contains("a · b is negative"), "{html}");
        // 84°, 104° and 153° in words.
        let word = |json: &str| {
            let html = widget(json).render("x");
            let at = html.find("data-value=\"word\">").unwrap() + 18;
            html[at..at + html[at..].find('<').unwrap()].to_string()
        };
        assert_eq!(word(r#"{"a":[1,0],"b":[0.1,0.95]}"#), "partly aligned");
        assert_eq!(word(r#"{"a":[1,0],"b":[-0.25,1]}"#), "partly opposed");
        assert_eq!(word(r#"{"a":[1,0],"b":[-2,1]}"#), "opposed");
        assert_eq!(word(r#"{"a":[1,0],"b":[2,1]}"#), "aligned");
    }

    #[test]
    fn zero_vector_is_explained_not_nan() {
        let html = widget(r#"{"a":[0,0]}"#).render("x");
        assert!(html.contains("zero vector has no direction"));
        assert!(!html.contains("NaN"));
    }

    #[test]
    fn bad_params_name_the_parameter() {
        let e = Vectors::from_params(&Params::from_json(r#"{"a":[9,1]}"#).unwrap()).unwrap_err();
        assert_eq!(e.param, "a");
        let e = Vectors::from_params(&Params::from_json(r#"{"c":1}"#).unwrap()).unwrap_err();
        assert_eq!(e.param, "c");
    }
}
