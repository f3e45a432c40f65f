//! Widget 5 — gradient descent in 2-D on the narrow valley L(θ) = ½(a θ₁² + b θ₂²):
//! learning-rate and momentum sliders, Step / Run (20 steps) / Reset; a contour plot
//! (ellipses at a few loss levels), the path as a polyline with dots and the current
//! point; readouts step t, θ, L(θ), ‖∇L‖ and a status word (ready / descending /
//! zig-zagging / overshooting / crawling / converged / diverged).
//!
//! Plain gradient descent is stable along θ₂ only for η < 2/b (0.1 for b = 20): near that
//! bound it zig-zags across the valley, beyond it it diverges, and a small η crawls
//! along the shallow θ₁ direction. Heavy-ball momentum (v ← μv − η∇L, θ ← θ + v)
//! changes the path.
//!
//! CSS classes: `mc-w-gd2d` (root), `mc-w-svg`, `mc-w-gd2d-svg`, `mc-w-side`,
//! `mc-w-caption`, `mc-w-axis`, `mc-w-axis-label`, `mc-w-contour`, `mc-w-gd-min`,
//! `mc-w-gd-path`, `mc-w-gd-dot`, `mc-w-gd-start`, `mc-w-gd-current`, `mc-w-note`,
//! `mc-w-readouts`, `mc-w-status`, `mc-w-status-<word>` (`ready`, `descending`,
//! `zig-zagging`, `overshooting`, `crawling`, `converged`, `diverged`),
//! `mc-w-controls`, `mc-w-control`, `mc-w-control-label`, `mc-w-control-value`,
//! `mc-w-buttons`, `mc-w-button`. Text sizes are SVG `font-size` attributes.
//!
//! `data-value` names: `t`, `theta1`, `theta2`, `loss`, `grad-norm`, `status`.


use mathcourse_core::descent::{gd_2d_momentum, Trajectory2D, Valley};
use crate::put;

use crate::descent::{self, snap, Descent};
use crate::svg::{esc, push_label, Anchor};
use crate::fmt::clamp;
use crate::{Event, ParamError, Params, Widget};

/// Accepted learning rates (the slider's top end depends on the valley).
const LR_RANGE: (f64, f64) = (0.01, 2.0);
const LR_STEP: f64 = 0.005;
const MOMENTUM_RANGE: (f64, f64) = (0.0, 0.99);
const MOMENTUM_STEP: f64 = 0.01;
const CURVATURE_RANGE: (f64, f64) = (0.05, 100.0);
const START_RANGE: (f64, f64) = (-10.0, 10.0);
/// The widget stops stepping after this many steps.
const MAX_T: usize = 2000;
/// A coordinate beyond this counts as diverged (far outside the chart).
const BLOW_UP: f64 = 1e3;
/// Only the last points are drawn.
const DRAWN: usize = 200;
const VIEW_W: f64 = 320.0;
const VIEW_H: f64 = 200.0;
/// Margin around the plot inside the viewBox.
const PAD: f64 = 8.0;

/// State: settings and the path so far.
#[derive(Debug, Clone, PartialEq)]
pub struct Gd2d {
    /// Learning rate η.
    pub lr: f64,
    /// Momentum μ (0 = plain gradient descent).
    pub momentum: f64,
    /// Start θ₀.
    pub start: [f64; 2],
    /// The valley's curvatures.
    pub valley: Valley,
    /// The path θ₀ … θ_t with losses and gradient norms (from `mathcourse_core`).
    pub path: Trajectory2D,
    lr_max: f64,
    /// SVG units per θ unit (same on both axes, so angles are true).
    scale: f64,
}

/// What the descent is doing now.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Status {
    /// No step taken yet.
    Ready,
    /// Loss going down at a healthy rate.
    Descending,
    /// The last step crossed the valley floor (θ₂ changed sign) and moved more across
    /// than along.
    ZigZagging,
    /// The loss went up on the last step.
    Overshooting,
    /// The loss fell by less than 3 % on the last step.
    Crawling,
    /// The loss is a millionth of where it started.
    Converged,
    /// A coordinate blew up; stepping stopped.
    Diverged,
}

impl Status {
    /// The word shown to the reader (also the CSS class suffix).
    pub fn as_str(self) -> &'static str {
        match self {
            Status::Ready => "ready",
            Status::Descending => "descending",
            Status::ZigZagging => "zig-zagging",
            Status::Overshooting => "overshooting",
            Status::Crawling => "crawling",
            Status::Converged => "converged",
            Status::Diverged => "diverged",
        }
    }
}

fn clamp_view(v: f64) -> f64 {
    clamp(v, -1000.0, 1000.0 + VIEW_W)
}

impl Gd2d {
    /// The step count t.
    pub fn t(&self) -> usize {
        self.path.points.len().saturating_sub(1)
    }

    /// The current point θ_t.
    pub fn theta(&self) -> [f64; 2] {
        *self.path.points.last().unwrap_or(&self.start)
    }

    /// True once a coordinate blew up.
    pub fn diverged(&self) -> bool {
        self.path.diverged
    }

    /// Recomputes the path of `steps` steps from θ₀ with `mathcourse_core`, cut at the
    /// first point beyond ±1e3 (which then counts as diverged).
    fn run_to(&mut self, steps: usize) {
        let mut path = gd_2d_momentum(&self.valley, self.start, self.lr, self.momentum, steps)
            .unwrap_or_else(|_| Trajectory2D {
                points: vec![self.start],
                losses: vec![self.valley.value(self.start)],
                grad_norms: vec![0.0],
                diverged: true,
            });
        if let Some(i) = path
            .points
            .iter()
            .position(|p| p[0].abs() > BLOW_UP || p[1].abs() > BLOW_UP)
        {
            path.points.truncate(i + 1);
            path.losses.truncate(i + 1);
            path.grad_norms.truncate(i + 1);
            path.diverged = true;
        }
        self.path = path;
    }

    fn step(&mut self, n: usize) {
        if self.diverged() {
            return;
        }
        let target = (self.t() + n).min(MAX_T);
        if target > self.t() {
            self.run_to(target);
        }
    }

    fn reset(&mut self) {
        self.run_to(0);
    }

    /// What the descent is doing now.
    pub fn status(&self) -> Status {
        if self.diverged() {
            return Status::Diverged;
        }
        let t = self.t();
        if t == 0 {
            return Status::Ready;
        }
        let (p, l) = (&self.path.points, &self.path.losses);
        if l[t] <= 1e-6 * l[0] || l[t] < 1e-12 {
            return Status::Converged;
        }
        let d = [p[t][0] - p[t - 1][0], p[t][1] - p[t - 1][1]];
        if p[t][1] * p[t - 1][1] < 0.0 && d[1].abs() > d[0].abs() {
            return Status::ZigZagging;
        }
        if l[t] > l[t - 1] {
            return Status::Overshooting;
        }
        if l[t] > 0.97 * l[t - 1] {
            return Status::Crawling;
        }
        Status::Descending
    }

    fn to_svg(&self, theta: [f64; 2]) -> (f64, f64) {
        (
            clamp_view(VIEW_W / 2.0 + theta[0] * self.scale),
            clamp_view(VIEW_H / 2.0 - theta[1] * self.scale),
        )
    }

    fn drawing(&self, id: &str) -> String {
        let [t1, t2] = self.theta();
        let mut out = String::new();
        put!(out;
            "<svg class=\"mc-w-svg mc-w-gd2d-svg\" viewBox=\"0 0 " c(VIEW_W) " " c(VIEW_H)
            "\" role=\"img\" aria-labelledby=\"" p(id) "-svg-title\">" "<title id=\"" p(id)
            "-svg-title\">Contours of L(θ) = ½(" c(self.valley.a) "θ₁² + " c(self.valley.b)
            "θ₂²), minimum at the origin, with the descent path from (" n(self.start[0], 2) ", "
            n(self.start[1], 2) "): step " p(self.t()) ", θ = (" n(t1, 2) ", " n(t2, 2) ")</title>"
            "<defs><clipPath id=\"" p(id) "-clip\"><rect x=\"0\" y=\"0\" width=\"" c(VIEW_W)
            "\" height=\"" c(VIEW_H) "\"/></clipPath></defs><g clip-path=\"url(#" p(id) "-clip)\">"
        );
        // Contours: L = L_ref · 4^k are ellipses with semi-axes √(2L/a), √(2L/b).
        let half = [
            (VIEW_W / 2.0 - PAD) / self.scale,
            (VIEW_H / 2.0 - PAD) / self.scale,
        ];
        let l_ref = self
            .valley
            .value([half[0] / 1.3, half[1] / 1.3])
            .max(self.path.losses[0]);
        let (cx, cy) = (VIEW_W / 2.0, VIEW_H / 2.0);
        out.push_str("<g class=\"mc-w-contour\" fill=\"none\">");
        for k in -4..=1 {
            let level = l_ref * 4f64.powi(k);
            let rx = (2.0 * level / self.valley.a).sqrt() * self.scale;
            let ry = (2.0 * level / self.valley.b).sqrt() * self.scale;
            if rx.max(ry) > 4.0 * VIEW_W || rx.max(ry) < 0.5 {
                continue;
            }
            put!(out;
                "<ellipse cx=\"" c(cx) "\" cy=\"" c(cy) "\" rx=\"" c(rx) "\" ry=\"" c(ry)
                "\"><title>L = " n(level, 3) "</title></ellipse>"
            );
        }
        out.push_str("</g>");
        put!(out;
            "<g class=\"mc-w-axis\"><line x1=\"0\" y1=\"" c(cy) "\" x2=\"" c(VIEW_W) "\" y2=\""
            c(cy) "\"/><line x1=\"" c(cx) "\" y1=\"0\" x2=\"" c(cx) "\" y2=\"" c(VIEW_H) "\"/></g>"
            "<g class=\"mc-w-axis-label\" font-size=\"11\">"
        );
        push_label(&mut out, "", "", (VIEW_W - 4.0, cy - 5.0), Anchor::End, "θ₁");
        push_label(&mut out, "", "", (cx + 5.0, 14.0), Anchor::Start, "θ₂");
        put!(out;
            "</g><g class=\"mc-w-gd-min\"><path d=\"M" c(cx - 4.0) " " c(cy - 4.0)
            "l8 8m0 -8l-8 8\"/></g>"
        );
        let first = self.path.points.len().saturating_sub(DRAWN);
        let pts: Vec<(f64, f64)> = self.path.points[first..]
            .iter()
            .map(|&p| self.to_svg(p))
            .collect();
        descent::trajectory(&mut out, &pts, first == 0, "2.2");
        let (x, y) = self.to_svg([t1, t2]);
        put!(out;
            "<circle class=\"mc-w-gd-current\" cx=\"" c(x) "\" cy=\"" c(y) "\" r=\"4.5\"/></g>"
        );
        let visible = (0.0..=VIEW_W).contains(&x) && (0.0..=VIEW_H).contains(&y);
        if !visible {
            let at = (cx, VIEW_H - 10.0);
            push_label(&mut out, "mc-w-note", " font-size=\"11\"", at, Anchor::Middle, "θ is off the chart");
        }
        out.push_str("</svg>");
        out
    }

    fn readouts(&self, id: &str) -> String {
        let t = self.t();
        let [t1, t2] = self.theta();
        let status = self.status();
        let mut out = String::new();
        put!(out;
            "<dl class=\"mc-w-readouts\" id=\"" p(id) "-readouts\" aria-live=\"polite\">"
            "<div><dt>step t</dt><dd data-value=\"t\">" p(t) "</dd></div>"
            "<div><dt>θ</dt><dd>(<span data-value=\"theta1\">" n(t1, 2)
            "</span>, <span data-value=\"theta2\">" n(t2, 2) "</span>)</dd></div>"
            "<div><dt>L(θ)</dt><dd data-value=\"loss\">" n(self.path.losses[t], 4) "</dd></div>"
            "<div><dt>‖∇L‖</dt><dd data-value=\"grad-norm\">" n(self.path.grad_norms[t], 3)
            "</dd></div>" "<div><dt>status</dt><dd><strong class=\"mc-w-status mc-w-status-"
            p(status.as_str()) "\" data-value=\"status\">" p(status.as_str())
            "</strong></dd></div></dl>"
        );
        if self.diverged() {
            put!(out;
                "<p class=\"mc-w-note\">θ blew up: along the steep θ₂ direction each step overshoots farther (plain descent needs η &lt; 2/b = "
                n(2.0 / self.valley.b, 3) "). Stepping has stopped; lower η or press Reset.</p>"
            );
        } else if t >= MAX_T {
            put!(out;
                "<p class=\"mc-w-note\">Stopped after " p(MAX_T)
                " steps. Press Reset to start again.</p>"
            );
        }
        out
    }
}

impl Widget for Gd2d {
    const NAME: &'static str = "gd-2d";
    const SUMMARY: &'static str =
        "Gradient descent with momentum on the narrow valley L(θ) = ½(aθ₁² + bθ₂²): contour plot with the path; zig-zag, crawl and divergence.";
    const PARAMS: &'static [(&'static str, &'static str, &'static str)] = &[
        ("lr", "number, default 0.08", "learning rate η, between 0.01 and 2, snapped to 0.005 (the slider reaches 2.5/max(a, b) or lr, whichever is larger)"),
        ("momentum", "number, default 0", "momentum μ between 0 and 0.99 (0 = plain gradient descent)"),
        ("start", "[θ₁, θ₂], default [-2.6, 1.4]", "start point θ₀; each entry between -10 and 10"),
        ("a", "number, default 1", "curvature along θ₁ (the shallow direction), between 0.05 and 100"),
        ("b", "number, default 20", "curvature along θ₂ (the steep direction), between 0.05 and 100"),
    ];

    fn from_params(params: &Params) -> Result<Self, ParamError> {
        params.only(&["lr", "momentum", "start", "a", "b"])?;
        let lr = params.num("lr", 0.08, LR_RANGE.0, LR_RANGE.1)?;
        let momentum = params.num("momentum", 0.0, MOMENTUM_RANGE.0, MOMENTUM_RANGE.1)?;
        let start = params.nums("start", &[-2.6, 1.4], (2, 2), START_RANGE)?;
        let a = params.num("a", 1.0, CURVATURE_RANGE.0, CURVATURE_RANGE.1)?;
        let b = params.num("b", 20.0, CURVATURE_RANGE.0, CURVATURE_RANGE.1)?;
        let lr = snap(lr, LR_STEP, LR_RANGE);
        // Slider top: a bit past the divergence bound 2/max(a, b), in whole hundredths.
        let lr_max = ((2.5 / a.max(b)).max(lr) / 0.01).ceil() * 0.01;
        let half = [start[0].abs().max(0.5) * 1.3, start[1].abs().max(0.5) * 1.3];
        let scale = ((VIEW_W / 2.0 - PAD) / half[0]).min((VIEW_H / 2.0 - PAD) / half[1]);
        let mut w = Gd2d {
            lr,
            momentum: snap(momentum, MOMENTUM_STEP, MOMENTUM_RANGE),
            start: [start[0], start[1]],
            valley: Valley { a, b },
            path: Trajectory2D {
                points: Vec::new(),
                losses: Vec::new(),
                grad_norms: Vec::new(),
                diverged: false,
            },
            lr_max: (lr_max * 1e6).round() / 1e6,
            scale,
        };
        w.reset();
        Ok(w)
    }

    fn render(&self, id: &str) -> String {
        let id = esc(id);
        let mut out = String::from("<div class=\"mc-w-gd2d\">");
        put!(out;
            "<p class=\"mc-w-caption\">L(θ) = ½(" c(self.valley.a) "·θ₁² + " c(self.valley.b)
            "·θ₂²); each step v ← μv − η∇L(θ), θ ← θ + v</p>"
        );
        out.push_str(&self.drawing(&id));
        out.push_str("<div class=\"mc-w-side\">");
        out.push_str(&self.readouts(&id));
        descent::controls(
            &mut out,
            &id,
            [
                ("lr", "learning rate η", 3, LR_RANGE.0, self.lr_max, LR_STEP),
                (
                    "momentum",
                    "momentum μ",
                    2,
                    MOMENTUM_RANGE.0,
                    MOMENTUM_RANGE.1,
                    MOMENTUM_STEP,
                ),
            ],
            [self.lr, self.momentum],
            "Moving a slider restarts from θ<sub>0</sub>.",
        );
        out.push_str("</div></div>");
        out
    }

    fn update(&mut self, event: &Event) -> bool {
        let before = (
            self.lr,
            self.momentum,
            self.path.points.len(),
            self.path.diverged,
        );
        descent::apply(self, event).is_some()
            && (
                self.lr,
                self.momentum,
                self.path.points.len(),
                self.path.diverged,
            ) != before
    }
}

impl Descent for Gd2d {
    fn step(&mut self, n: usize) {
        Gd2d::step(self, n);
    }

    fn reset(&mut self) {
        Gd2d::reset(self);
    }

    fn knobs(&mut self) -> [&mut f64; 2] {
        [&mut self.lr, &mut self.momentum]
    }

    fn knob_specs(&self) -> [(&'static str, f64, (f64, f64)); 2] {
        [
            ("lr", LR_STEP, (LR_RANGE.0, self.lr_max)),
            ("momentum", MOMENTUM_STEP, MOMENTUM_RANGE),
        ]
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::testkit::{input, action};
    use crate::testkit::value as value_of;

    fn widget(json: &str) -> Gd2d {
        crate::testkit::widget(json)
    }


    #[test]
    fn initial_readouts_for_defaults() {
        let w = widget("{}");
        let html = w.render("v");
        assert_eq!(value_of(&html, "t"), "0");
        assert_eq!(value_of(&html, "theta1"), "−2.60");
        assert_eq!(value_of(&html, "theta2"), "1.40");
        // L = ½(1·2.6² + 20·1.4²) = ½(6.76 + 39.2) = 22.98.
        assert_eq!(value_of(&html, "loss"), "22.9800");
        // ∇L = (−2.6, 28); ‖∇L‖ = √(6.76 + 784) = √790.76 = 28.120…
        assert_eq!(value_of(&html, "grad-norm"), "28.120");
        assert_eq!(value_of(&html, "status"), "ready");
        assert!(html.contains("aria-live=\"polite\""));
        assert!(html.contains("name=\"lr\"") && html.contains("name=\"momentum\""));
        // Slider top: 2.5/b = 0.125, rounded up to hundredths.
        assert!(
            html.contains("min=\"0.01\" max=\"0.13\" step=\"0.005\" value=\"0.08\""),
            "{html}"
        );
        assert!(html.matches("<ellipse").count() >= 4);
    }

    #[test]
    fn step_run_reset() {
        let mut w = widget("{}");
        assert!(action(&mut w, "step"));
        // θ₁ = θ₀ − η(aθ₀₁, bθ₀₂) = (−2.6 + 0.08·2.6, 1.4 − 0.08·28) = (−2.392, −0.84).
        let [t1, t2] = w.theta();
        assert!((t1 + 2.392).abs() < 1e-12 && (t2 + 0.84).abs() < 1e-12);
        let html = w.render("v");
        assert_eq!(value_of(&html, "theta1"), "−2.39");
        assert_eq!(value_of(&html, "theta2"), "−0.84");
        // L = ½(2.392² + 20·0.84²) = ½(5.721664 + 14.112) = 9.916832.
        assert_eq!(value_of(&html, "loss"), "9.9168");
        // Crossed the valley floor, more across than along: zig-zag.
        assert_eq!(value_of(&html, "status"), "zig-zagging");
        assert!(action(&mut w, "run"));
        assert_eq!(w.t(), 21);
        // Plain GD factorises: θ₁ ← (1 − ηa)θ₁, θ₂ ← (1 − ηb)θ₂.
        let [t1, t2] = w.theta();
        assert!((t1 - (-2.6 * 0.92f64.powi(21))).abs() < 1e-12);
        assert!((t2 - (1.4 * (-0.6f64).powi(21))).abs() < 1e-12);
        assert!(action(&mut w, "reset"));
        assert_eq!(w.t(), 0);
        assert!(!action(&mut w, "reset"));
    }

    #[test]
    fn small_rate_crawls() {
        let mut w = widget(r#"{"lr":0.01}"#);
        for _ in 0..3 {
            action(&mut w, "run");
        }
        // θ₂ has died out (factor 0.8 per step), θ₁ shrinks by only 1 % per step, so the
        // loss by 2 %.
        assert_eq!(w.status(), Status::Crawling);
        assert!(w.theta()[0] < -1.4);
    }

    #[test]
    fn large_rate_diverges_and_stops() {
        let mut w = widget(r#"{"lr":0.12}"#);
        // θ₂ ← (1 − 0.12·20)θ₂ = −1.4θ₂: grows; |1.4·1.4^t| > 1e3 after 20 steps.
        action(&mut w, "run");
        action(&mut w, "run");
        assert!(w.diverged());
        assert!(w.theta()[1].abs() > BLOW_UP);
        let t = w.t();
        assert!(t < 40);
        assert!(!action(&mut w, "step"));
        assert_eq!(w.t(), t);
        let html = w.render("v");
        assert_eq!(value_of(&html, "status"), "diverged");
        assert!(html.contains("off the chart"));
        assert!(!html.contains("NaN"));
        assert!(input(&mut w, "lr", "0.05"));
        assert_eq!(w.status(), Status::Ready);
    }

    #[test]
    fn momentum_changes_the_path() {
        let mut plain = widget("{}");
        let mut heavy = widget(r#"{"momentum":0.5}"#);
        action(&mut plain, "step");
        action(&mut heavy, "step");
        // The first step is the same (v starts at 0) …
        assert_eq!(plain.theta(), heavy.theta());
        action(&mut plain, "step");
        action(&mut heavy, "step");
        // … the second adds μv₁: v₂ = 0.5·v₁ − η∇L(θ₁), v₁ = (0.208, −2.24).
        let th1 = [-2.392, -0.84];
        let v2 = [
            0.5 * 0.208 - 0.08 * th1[0],
            0.5 * -2.24 - 0.08 * 20.0 * th1[1],
        ];
        let [h1, h2] = heavy.theta();
        assert!((h1 - (th1[0] + v2[0])).abs() < 1e-12 && (h2 - (th1[1] + v2[1])).abs() < 1e-12);
        assert_ne!(plain.theta(), heavy.theta());
        // Changing the slider restarts and changes the path too.
        assert!(input(&mut plain, "momentum", "0.5"));
        assert_eq!(plain.t(), 0);
        action(&mut plain, "step");
        action(&mut plain, "step");
        assert_eq!(plain.theta(), heavy.theta());
        assert!(!input(&mut plain, "momentum", "x"));
    }

    #[test]
    fn converges_with_a_good_rate() {
        let mut w = widget(r#"{"lr":0.09,"momentum":0.6}"#);
        for _ in 0..20 {
            action(&mut w, "run");
        }
        assert_eq!(w.status(), Status::Converged);
        assert!(w.render("v").len() < 30_000);
    }

    #[test]
    fn bad_params_name_the_parameter() {
        let err = |json: &str| Gd2d::from_params(&Params::from_json(json).unwrap()).unwrap_err();
        assert_eq!(err(r#"{"lr":0}"#).param, "lr");
        assert_eq!(err(r#"{"momentum":1}"#).param, "momentum");
        assert_eq!(err(r#"{"start":[1]}"#).param, "start");
        assert_eq!(err(r#"{"a":0}"#).param, "a");
        assert_eq!(err(r#"{"b":"steep"}"#).param, "b");
        let e = err(r#"{"beta":0.9}"#);
        assert_eq!(e.param, "beta");
        assert_eq!(e.valid, vec!["lr", "momentum", "start", "a", "b"]);
    }
}
