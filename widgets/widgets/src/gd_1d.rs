//! Widget 4 — gradient descent in 1-D on f(x) = (x−2)² + A·sin 3x (the course's
//! rippled bowl, A = `ripple`): learning-rate and start sliders, Step / Run (20 steps) /
//! Reset buttons; the curve with the trajectory as dots joined by segments, the
//! current point with its tangent, and a status word (ready / converging / oscillating /
//! diverged / converged / stuck in a local dip).
//!
//! With the course's A = 0.5 the function has a single minimum (x ≈ 1.705); from
//! A ≈ 0.73 on a second, local dip appears near x ≈ 3.3 (and from A ≈ 1.3 a third near
//! x ≈ 0), so `ripple: 1` or more shows descent getting trapped.
//!
//! CSS classes: `mc-w-gd1d` (root), `mc-w-svg`, `mc-w-gd1d-svg`, `mc-w-side`,
//! `mc-w-caption`, `mc-w-grid`, `mc-w-axis`, `mc-w-tick-label`, `mc-w-gd-curve`,
//! `mc-w-gd-min`, `mc-w-gd-min-label`, `mc-w-gd-path`, `mc-w-gd-dot`, `mc-w-gd-start`,
//! `mc-w-gd-tangent`, `mc-w-gd-current`, `mc-w-gd-current-label`, `mc-w-note`,
//! `mc-w-readouts`, `mc-w-expansion`, `mc-w-status`, `mc-w-status-<word>` (`ready`,
//! `converging`, `oscillating`, `diverged`, `converged`, `stuck`), `mc-w-controls`,
//! `mc-w-control`, `mc-w-control-label`, `mc-w-control-value`, `mc-w-buttons`,
//! `mc-w-button`. Text sizes are SVG `font-size` attributes (user units).
//!
//! `data-value` names: `t`, `x`, `fx`, `dfx`, `next-x`, `status`, `xmin`.


use mathcourse_core::descent::{gd_1d, Function1D};
use crate::{put, text};

use crate::descent::{self, snap, Descent};
use crate::svg::{esc, open_label, push_label, Anchor, LABEL_END};
use crate::fmt::clamp;
use crate::{Event, ParamError, Params, Widget};

/// Slider ranges (also the accepted parameter ranges).
const LR_RANGE: (f64, f64) = (0.01, 1.2);
const X0_RANGE: (f64, f64) = (-1.0, 5.0);
const RIPPLE_RANGE: (f64, f64) = (0.0, 2.0);
/// The widget stops stepping after this many steps.
const MAX_T: usize = 1000;
/// |x| beyond this counts as diverged (far outside the chart): stepping stops.
const BLOW_UP: f64 = 1e3;
/// |f'(x)| below this counts as "the gradient is zero here".
const GRAD_TOL: f64 = 1e-3;
/// A point this close to the global minimiser is "at the global minimum".
const NEAR_MIN: f64 = 0.05;
/// Only the last iterates are drawn (the readouts keep counting).
const DRAWN: usize = 120;

/// Chart: x domain and the plot box inside the 320 × 210 viewBox.
const XMIN: f64 = -1.5;
const XMAX: f64 = 5.5;
const VIEW_W: f64 = 320.0;
const VIEW_H: f64 = 210.0;
const LEFT: f64 = 30.0;
const RIGHT: f64 = 314.0;
const TOP: f64 = 8.0;
const BOTTOM: f64 = 184.0;
/// Points of the sampled curve.
const SAMPLES: usize = 200;

/// State: settings and the iterates so far.
#[derive(Debug, Clone, PartialEq)]
pub struct Gd1d {
    /// Learning rate η.
    pub lr: f64,
    /// Start x₀.
    pub x0: f64,
    /// Ripple amplitude A in f(x) = (x−2)² + A·sin 3x.
    pub ripple: f64,
    /// Iterates x₀ … x_t (all finite).
    pub xs: Vec<f64>,
    /// True once |x| blew up; stepping has stopped.
    pub diverged: bool,
    /// The global minimiser, found numerically on a fine grid.
    pub global_min: f64,
    /// y range of the chart (from the sampled curve).
    y_range: (f64, f64),
}

/// What the descent is doing now.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Status {
    /// No step taken yet.
    Ready,
    /// Moving steadily downhill.
    Converging,
    /// Jumping back and forth without settling.
    Oscillating,
    /// Moving away: the last two points reach further from the global minimum than
    /// any of the three before them, or than twice where it started.
    Diverging,
    /// |x| blew up; stepping stopped.
    Diverged,
    /// Gradient ≈ 0 at the global minimum.
    Converged,
    /// Gradient ≈ 0 at a point that is not the global minimum.
    Stuck,
}

impl Status {
    /// The word shown to the reader.
    pub fn as_str(self) -> &'static str {
        match self {
            Status::Ready => "ready",
            Status::Converging => "converging",
            Status::Oscillating => "oscillating",
            Status::Diverging => "diverging",
            Status::Diverged => "diverged",
            Status::Converged => "converged",
            Status::Stuck => "stuck in a local dip",
        }
    }

    fn class(self) -> &'static str {
        match self {
            Status::Stuck => "stuck",
            other => other.as_str(),
        }
    }
}

/// Keeps SVG coordinates short even for far-off points (they are clipped anyway).
fn clamp_view(v: f64) -> f64 {
    clamp(v, -1000.0, 1000.0 + VIEW_W)
}

/// x* minimising f on [−3, 7] (the bowl's walls rule out anything outside): a grid
/// with step 0.001, then golden-section refinement around the best grid point.
fn global_minimiser(f: &Function1D) -> f64 {
    let (lo, h) = (-3.0, 0.001);
    let mut best = (lo, f.value(lo));
    for i in 1..=10_000 {
        let x = lo + i as f64 * h;
        let y = f.value(x);
        if y < best.1 {
            best = (x, y);
        }
    }
    let (mut a, mut b) = (best.0 - h, best.0 + h);
    let g = (5f64.sqrt() - 1.0) / 2.0;
    for _ in 0..40 {
        let c = b - g * (b - a);
        let d = a + g * (b - a);
        if f.value(c) < f.value(d) {
            b = d;
        } else {
            a = c;
        }
    }
    (a + b) / 2.0
}

impl Gd1d {
    fn function(&self) -> Function1D {
        Function1D::Rippled {
            amplitude: self.ripple,
        }
    }

    /// The current iterate x_t.
    pub fn x(&self) -> f64 {
        *self.xs.last().unwrap_or(&self.x0)
    }

    /// The step count t.
    pub fn t(&self) -> usize {
        self.xs.len().saturating_sub(1)
    }

    fn reset(&mut self) {
        self.xs = vec![self.x0];
        self.diverged = false;
    }

    /// Takes up to `n` steps x ← x − η f'(x) (via `mathcourse_core::descent::gd_1d`),
    /// stopping for good once |x| blows up.
    fn step(&mut self, n: usize) {
        if self.diverged {
            return;
        }
        let n = n.min(MAX_T - self.t());
        if n == 0 {
            return;
        }
        match gd_1d(&self.function(), self.x(), self.lr, n) {
            Ok(run) => {
                for &x in run.xs.iter().skip(1) {
                    self.xs.push(x);
                    if x.abs() > BLOW_UP {
                        self.diverged = true;
                        return;
                    }
                }
                self.diverged = run.diverged;
            }
            Err(_) => self.diverged = true,
        }
    }

    /// What the descent is doing now.
    pub fn status(&self) -> Status {
        if self.diverged {
            return Status::Diverged;
        }
        let t = self.t();
        if t == 0 {
            return Status::Ready;
        }
        let x = self.x();
        if self.function().derivative(x).abs() < GRAD_TOL {
            return if (x - self.global_min).abs() < NEAR_MIN {
                Status::Converged
            } else {
                Status::Stuck
            };
        }
        // Diverging: the farthest of the last two points (a whole bounce, when it
        // bounces) lies further from the global minimum than any of the three before
        // them. Steady descent only comes closer; a bounce that settles or repeats does
        // not reach further out. Once it has swung out to twice its starting distance
        // (and at least 1), an occasional smaller swing does not make it "oscillating".
        let dist = |k: usize| (self.xs[k] - self.global_min).abs();
        let recent = dist(t).max(dist(t - 1));
        let earlier = (t.saturating_sub(4)..t - 1).map(dist).fold(0.0, f64::max);
        let away = t >= 2 && (recent > earlier || recent > (2.0 * dist(0)).max(1.0));
        if away {
            return Status::Diverging;
        }
        if t >= 2 {
            let d1 = self.xs[t] - self.xs[t - 1];
            let d0 = self.xs[t - 1] - self.xs[t - 2];
            // Direction flips and the steps are not shrinking much: bouncing across.
            if d1 * d0 < 0.0 && d1.abs() > 0.8 * d0.abs() {
                return Status::Oscillating;
            }
        }
        Status::Converging
    }

    fn to_svg(&self, x: f64, y: f64) -> (f64, f64) {
        let (ylo, yhi) = self.y_range;
        let sx = LEFT + (x - XMIN) / (XMAX - XMIN) * (RIGHT - LEFT);
        let sy = BOTTOM - (y - ylo) / (yhi - ylo) * (BOTTOM - TOP);
        (clamp_view(sx), clamp_view(sy))
    }

    fn formula(&self) -> String {
        text!("f(x) = (x − 2)² + " c(self.ripple) "·sin 3x")
    }

    /// The grid, the axes and their tick labels (x at whole numbers, y every 5).
    fn axes(&self, out: &mut String) {
        out.push_str("<g class=\"mc-w-grid\">");
        for i in (XMIN.ceil() as i64)..=(XMAX.floor() as i64) {
            let (sx, _) = self.to_svg(i as f64, 0.0);
            put!(out;
                "<line x1=\"" c(sx) "\" y1=\"" c(TOP) "\" x2=\"" c(sx) "\" y2=\"" c(BOTTOM) "\"/>"
            );
        }
        let (ylo, yhi) = self.y_range;
        let ystep = 5.0;
        let mut yticks = Vec::new();
        let mut y = (ylo / ystep).ceil() * ystep;
        while y <= yhi {
            yticks.push(y);
            y += ystep;
        }
        for &y in &yticks {
            let (_, sy) = self.to_svg(0.0, y);
            put!(out;
                "<line x1=\"" c(LEFT) "\" y1=\"" c(sy) "\" x2=\"" c(RIGHT) "\" y2=\"" c(sy) "\"/>"
            );
        }
        out.push_str("</g><g class=\"mc-w-axis\">");
        put!(out;
            "<line x1=\"" c(LEFT) "\" y1=\"" c(BOTTOM) "\" x2=\"" c(RIGHT) "\" y2=\"" c(BOTTOM)
            "\"/><line x1=\"" c(LEFT) "\" y1=\"" c(TOP) "\" x2=\"" c(LEFT) "\" y2=\"" c(BOTTOM)
            "\"/>"
        );
        out.push_str("</g><g class=\"mc-w-tick-label\" font-size=\"10\">");
        for i in (XMIN.ceil() as i64)..=(XMAX.floor() as i64) {
            let (sx, _) = self.to_svg(i as f64, 0.0);
            open_label(out, "", "", (sx, BOTTOM + 13.0), Anchor::Middle);
            put!(out; p(i) s(LABEL_END));
        }
        for &y in &yticks {
            let (_, sy) = self.to_svg(0.0, y);
            open_label(out, "", "", (LEFT - 4.0, sy + 3.5), Anchor::End);
            put!(out; n(y, 0) s(LABEL_END));
        }
        push_label(out, "", "", (RIGHT, BOTTOM + 24.0), Anchor::End, "x");
        out.push_str("</g>");
    }

    fn drawing(&self, id: &str) -> String {
        let f = self.function();
        let (x, fx) = (self.x(), f.value(self.x()));
        let mut out = String::new();
        put!(out;
            "<svg class=\"mc-w-svg mc-w-gd1d-svg\" viewBox=\"0 0 " c(VIEW_W) " " c(VIEW_H)
            "\" role=\"img\" aria-labelledby=\"" p(id) "-svg-title\">" "<title id=\"" p(id)
            "-svg-title\">Graph of " p(self.formula()) " for x from " r(XMIN) " to " r(XMAX)
            ", with the descent path: step " p(self.t()) ", x = " n(x, 3) ", f(x) = " n(fx, 3)
            "</title>" "<defs><clipPath id=\"" p(id) "-clip\"><rect x=\"" c(LEFT) "\" y=\"" c(TOP)
            "\" width=\"" c(RIGHT - LEFT) "\" height=\"" c(BOTTOM - TOP) "\"/></clipPath></defs>"
        );
        self.axes(&mut out);
        // The curve.
        out.push_str("<path class=\"mc-w-gd-curve\" fill=\"none\" d=\"");
        for i in 0..=SAMPLES {
            let xi = XMIN + (XMAX - XMIN) * i as f64 / SAMPLES as f64;
            let (sx, sy) = self.to_svg(xi, f.value(xi));
            put!(out; p(if i == 0 { "M" } else { "L" }) c(sx) " " c(sy));
        }
        out.push_str("\"/>");
        // Global minimum marker.
        let (mx, my) = self.to_svg(self.global_min, f.value(self.global_min));
        put!(out;
            "<g class=\"mc-w-gd-min\"><line x1=\"" c(mx) "\" y1=\"" c(my + 4.0) "\" x2=\"" c(mx)
            "\" y2=\"" c(BOTTOM) "\" stroke-dasharray=\"3 3\"/>"
        );
        let at = (mx, BOTTOM + 23.0);
        push_label(&mut out, "mc-w-gd-min-label", " font-size=\"9\"", at, Anchor::Middle, "global min");
        out.push_str("</g>");
        // Trajectory (clipped to the plot box).
        put!(out; "<g clip-path=\"url(#" p(id) "-clip)\">");
        let first = self.xs.len().saturating_sub(DRAWN);
        let pts: Vec<(f64, f64)> = self.xs[first..]
            .iter()
            .map(|&xi| self.to_svg(xi, f.value(xi)))
            .collect();
        descent::trajectory(&mut out, &pts, first == 0, "2.6");
        // Tangent at the current point (slope f'(x)), half a unit either side.
        let slope = f.derivative(x);
        let (tx1, ty1) = self.to_svg(x - 0.5, fx - 0.5 * slope);
        let (tx2, ty2) = self.to_svg(x + 0.5, fx + 0.5 * slope);
        put!(out;
            "<line class=\"mc-w-gd-tangent\" x1=\"" c(tx1) "\" y1=\"" c(ty1) "\" x2=\"" c(tx2)
            "\" y2=\"" c(ty2) "\"/>"
        );
        let (cx, cy) = self.to_svg(x, fx);
        put!(out;
            "<circle class=\"mc-w-gd-current\" cx=\"" c(cx) "\" cy=\"" c(cy) "\" r=\"5\"/>"
        );
        let name = text!("x" p(sub_digits(self.t())));
        let at = (cx, cy - 9.0);
        push_label(&mut out, "mc-w-gd-current-label", " font-size=\"10\"", at, Anchor::Middle, &name);
        out.push_str("</g>");
        let (ylo, yhi) = self.y_range;
        if !(XMIN..=XMAX).contains(&x) || !(ylo..=yhi).contains(&fx) {
            let at = ((LEFT + RIGHT) / 2.0, TOP + 14.0);
            open_label(&mut out, "mc-w-note", " font-size=\"11\"", at, Anchor::Middle);
            put!(out; s(&name) " = " n(x, 2) " is off the chart" s(LABEL_END));
        }
        out.push_str("</svg>");
        out
    }

    fn readouts(&self, id: &str) -> String {
        let f = self.function();
        let x = self.x();
        let (fx, dfx) = (f.value(x), f.derivative(x));
        let status = self.status();
        let t = self.t();
        let mut out = String::new();
        put!(out;
            "<dl class=\"mc-w-readouts\" id=\"" p(id) "-readouts\" aria-live=\"polite\">"
            "<div><dt>step t</dt><dd data-value=\"t\">" p(t) "</dd></div>"
            "<div><dt>x<sub>t</sub></dt><dd data-value=\"x\">" n(x, 3) "</dd></div>"
            "<div><dt>f(x<sub>t</sub>)</dt><dd data-value=\"fx\">" n(fx, 3) "</dd></div>"
            "<div><dt>f′(x<sub>t</sub>)</dt><dd data-value=\"dfx\">" n(dfx, 3) "</dd></div>"
            "<div><dt>status</dt><dd><strong class=\"mc-w-status mc-w-status-" p(status.class())
            "\" data-value=\"status\">" p(status.as_str()) "</strong></dd></div></dl>"
        );
        if self.diverged {
            out.push_str("<p class=\"mc-w-note\">|x| blew up: each step overshot farther than the last, so stepping has stopped. Lower the learning rate or press Reset.</p>");
        } else if t >= MAX_T {
            put!(out;
                "<p class=\"mc-w-note\">Stopped after " p(MAX_T)
                " steps. Press Reset to start again.</p>"
            );
        } else {
            let next = x - self.lr * dfx;
            put!(out;
                "<p class=\"mc-w-expansion\">Next step: x<sub>" p(t + 1) "</sub> = x<sub>" p(t)
                "</sub> − η·f′(x<sub>" p(t) "</sub>) = " n(x, 3) " − " c(self.lr) "·(" n(dfx, 3)
                ") = <span data-value=\"next-x\">" n(next, 3) "</span></p>"
            );
        }
        put!(out;
            "<p class=\"mc-w-note\">Global minimum (found on a fine grid) at x ≈ <span data-value=\"xmin\">"
            n(self.global_min, 3) "</span>.</p>"
        );
        out
    }
}

/// Subscript digits for text inside SVG (`x₁₂`).
fn sub_digits(n: usize) -> String {
    // `text!(u(n))`, not `n.to_string()` (core::fmt's integer Display).
    text!(u(n))
        .bytes()
        .map(|b| char::from_u32(0x2080 + u32::from(b - b'0')).unwrap_or('?'))
        .collect()
}

impl Widget for Gd1d {
    const NAME: &'static str = "gd-1d";
    const SUMMARY: &'static str =
        "Gradient descent on f(x) = (x−2)² + A·sin 3x: learning rate and start sliders, step / run / reset, the path on the curve, divergence and local-dip traps.";
    const PARAMS: &'static [(&'static str, &'static str, &'static str)] = &[
        ("lr", "number, default 0.1", "learning rate η, between 0.01 and 1.2 (the slider snaps to 0.01)"),
        ("x0", "number, default -1", "start x₀, between -1 and 5 (the slider snaps to 0.1)"),
        (
            "ripple",
            "number, default 0.5",
            "ripple amplitude A between 0 and 2; 0.5 has a single minimum, about 1 or more adds local dips that trap descent",
        ),
    ];

    fn from_params(params: &Params) -> Result<Self, ParamError> {
        params.only(&["lr", "x0", "ripple"])?;
        let lr = params.num("lr", 0.1, LR_RANGE.0, LR_RANGE.1)?;
        let x0 = params.num("x0", -1.0, X0_RANGE.0, X0_RANGE.1)?;
        let ripple = params.num("ripple", 0.5, RIPPLE_RANGE.0, RIPPLE_RANGE.1)?;
        let f = Function1D::Rippled { amplitude: ripple };
        let (mut lo, mut hi) = (f64::INFINITY, f64::NEG_INFINITY);
        for i in 0..=SAMPLES {
            let y = f.value(XMIN + (XMAX - XMIN) * i as f64 / SAMPLES as f64);
            lo = lo.min(y);
            hi = hi.max(y);
        }
        let x0 = snap(x0, 0.1, X0_RANGE);
        Ok(Gd1d {
            lr: snap(lr, 0.01, LR_RANGE),
            x0,
            ripple,
            xs: vec![x0],
            diverged: false,
            global_min: global_minimiser(&f),
            y_range: (lo - 0.6, hi + 0.4),
        })
    }

    fn render(&self, id: &str) -> String {
        let id = esc(id);
        let mut out = String::from("<div class=\"mc-w-gd1d\">");
        put!(out; "<p class=\"mc-w-caption\">" p(self.formula()) "</p>");
        out.push_str(&self.drawing(&id));
        out.push_str("<div class=\"mc-w-side\">");
        out.push_str(&self.readouts(&id));
        descent::controls(
            &mut out,
            &id,
            [
                ("lr", "learning rate η", 2, LR_RANGE.0, LR_RANGE.1, 0.01),
                ("x0", "start x<sub>0</sub>", 1, X0_RANGE.0, X0_RANGE.1, 0.1),
            ],
            [self.lr, self.x0],
            "Moving a slider restarts from x<sub>0</sub>.",
        );
        out.push_str("</div></div>");
        out
    }

    fn update(&mut self, event: &Event) -> bool {
        let before = (self.lr, self.x0, self.xs.len(), self.diverged);
        descent::apply(self, event).is_some()
            && (self.lr, self.x0, self.xs.len(), self.diverged) != before
    }
}

impl Descent for Gd1d {
    fn step(&mut self, n: usize) {
        Gd1d::step(self, n);
    }

    fn reset(&mut self) {
        Gd1d::reset(self);
    }

    fn knobs(&mut self) -> [&mut f64; 2] {
        [&mut self.lr, &mut self.x0]
    }

    fn knob_specs(&self) -> [(&'static str, f64, (f64, f64)); 2] {
        [("lr", 0.01, LR_RANGE), ("x0", 0.1, X0_RANGE)]
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::testkit::{input, action};
    use crate::testkit::value as value_of;
    #[allow(unused_imports)]
    use crate::svg::num;

    fn widget(json: &str) -> Gd1d {
        crate::testkit::widget(json)
    }

    #[test]
    fn subscripts_are_the_step_digits() {
        assert_eq!(sub_digits(0), "₀");
        assert_eq!(sub_digits(7), "₇");
        assert_eq!(sub_digits(120), "₁₂₀");
        assert_eq!(sub_digits(98_765), "₉₈₇₆₅");
    }


    /// f'(x) = 2(x − 2) + 3A cos 3x, written out independently of core.
    fn df(x: f64, a: f64) -> f64 {
        2.0 * (x - 2.0) + 3.0 * a * (3.0 * x).cos()
    }

    #[test]
    fn initial_readouts_for_defaults() {
        let w = widget("{}");
        let html = w.render("g");
        assert_eq!(value_of(&html, "t"), "0");
        assert_eq!(value_of(&html, "x"), "−1.000");
        // f(−1) = 9 + 0.5 sin(−3) = 9 − 0.0706 = 8.929; f'(−1) = −6 + 1.5 cos 3 = −7.485.
        assert_eq!(value_of(&html, "fx"), "8.929");
        assert_eq!(value_of(&html, "dfx"), "−7.485");
        assert_eq!(value_of(&html, "status"), "ready");
        // Next: −1 − 0.1·(−7.485) = −0.2515 → −0.251 or −0.252 after rounding.
        let next = -1.0 - 0.1 * df(-1.0, 0.5);
        assert_eq!(value_of(&html, "next-x"), num(next, 3));
        assert!((next + 0.2515).abs() < 1e-3);
        // The single minimum of the course function.
        assert_eq!(value_of(&html, "xmin"), "1.705");
        assert!(html.contains("f(x) = (x − 2)² + 0.5·sin 3x"));
        assert!(html.contains("aria-live=\"polite\""));
        assert!(html.contains("name=\"lr\"") && html.contains("name=\"x0\""));
        assert!(html.contains("data-action=\"run\""));
        assert!(!html.contains("NaN"));
    }

    #[test]
    fn step_run_reset_follow_the_update_rule() {
        let mut w = widget("{}");
        let x0 = -1.0;
        let x1 = x0 - 0.1 * df(x0, 0.5);
        let x2 = x1 - 0.1 * df(x1, 0.5);
        assert!(action(&mut w, "step"));
        assert_eq!(w.t(), 1);
        assert!((w.x() - x1).abs() < 1e-12);
        assert!(action(&mut w, "step"));
        assert!((w.x() - x2).abs() < 1e-12);
        let html = w.render("g");
        assert_eq!(value_of(&html, "t"), "2");
        assert_eq!(value_of(&html, "x"), num(x2, 3));
        assert_eq!(value_of(&html, "status"), "converging");
        // Run adds 20 steps; by hand, 22 steps of the rule from x0.
        assert!(action(&mut w, "run"));
        assert_eq!(w.t(), 22);
        let mut x = x0;
        for _ in 0..22 {
            x -= 0.1 * df(x, 0.5);
        }
        assert!((w.x() - x).abs() < 1e-9);
        // Enough steps reach the single minimum.
        for _ in 0..5 {
            action(&mut w, "run");
        }
        assert!((w.x() - 1.705).abs() < 0.01);
        assert_eq!(w.status(), Status::Converged);
        assert_eq!(value_of(&w.render("g"), "status"), "converged");
        assert!(action(&mut w, "reset"));
        assert_eq!(w.xs, vec![-1.0]);
        assert!(!action(&mut w, "reset"));
    }

    #[test]
    fn sliders_snap_and_restart() {
        let mut w = widget("{}");
        action(&mut w, "run");
        assert!(input(&mut w, "x0", "4.96"));
        assert_eq!(w.x0, 5.0);
        assert_eq!(w.t(), 0);
        assert!(input(&mut w, "lr", "0.353"));
        assert_eq!(w.lr, 0.35);
        assert!(!input(&mut w, "lr", "0.35"));
        assert!(input(&mut w, "lr", "7"));
        assert_eq!(w.lr, 1.2);
        assert!(!input(&mut w, "lr", "abc"));
        assert!(!input(&mut w, "other", "1"));
    }

    #[test]
    fn a_rate_of_one_is_called_diverging_from_the_first_steps() {
        // The chapter's start x₀ = 5 with η = 1, by hand: x = 5, 0.14, 2.49, 0.95, 4.49,
        // −1.43, 6.05, … with f = 9.33, 3.66, 0.70, 1.25, 6.57, 12.2, 16.1, …: two steps
        // downhill, then a bounce, then swinging ever further out from x ≈ 1.6.
        let mut w = widget(r#"{"lr":1.0,"x0":5}"#);
        for _ in 0..4 {
            action(&mut w, "step");
            assert_ne!(w.status(), Status::Diverging, "{:?}", w.xs);
        }
        action(&mut w, "step");
        while w.t() < 40 && !w.diverged {
            let html = w.render("g");
            let status = value_of(&html, "status");
            assert!(
                status == "diverging" || status == "diverged",
                "step {}: {status} {:?}",
                w.t(),
                w.xs
            );
            action(&mut w, "step");
        }
        // A small rate goes downhill: never called diverging.
        let mut w = widget(r#"{"lr":0.05,"x0":4}"#);
        for _ in 0..20 {
            action(&mut w, "step");
            assert_ne!(w.status(), Status::Diverging, "{:?}", w.xs);
        }
    }

    #[test]
    fn large_rate_diverges_and_stops() {
        let mut w = widget(r#"{"lr":1.2,"x0":5}"#);
        // x1 = 5 − 1.2·(6 + 1.5 cos 15), by hand.
        action(&mut w, "step");
        assert!((w.x() - (5.0 - 1.2 * (6.0 + 1.5 * 15f64.cos()))).abs() < 1e-12);
        action(&mut w, "step");
        assert_eq!(w.status(), Status::Diverging);
        action(&mut w, "run");
        action(&mut w, "run");
        assert!(w.diverged, "{:?}", w.xs);
        assert!(w.x().abs() > BLOW_UP);
        let t = w.t();
        assert!(!action(&mut w, "run"));
        assert!(!action(&mut w, "step"));
        assert_eq!(w.t(), t);
        let html = w.render("g");
        assert_eq!(value_of(&html, "status"), "diverged");
        assert!(html.contains("off the chart"));
        assert!(!html.contains("NaN") && !html.contains("inf"));
        assert!(action(&mut w, "reset"));
        assert_eq!(w.status(), Status::Ready);
    }

    #[test]
    fn ripple_one_traps_descent_in_a_local_dip() {
        // A = 1: a local dip near x ≈ 3.31 to the right of the global minimum (≈ 1.649).
        let mut w = widget(r#"{"ripple":1,"x0":5,"lr":0.05}"#);
        assert!((w.global_min - 1.649).abs() < 0.002);
        for _ in 0..10 {
            action(&mut w, "run");
        }
        assert!((w.x() - 3.311).abs() < 0.01, "{}", w.x());
        assert!(df(w.x(), 1.0).abs() < GRAD_TOL);
        assert_eq!(w.status(), Status::Stuck);
        let html = w.render("g");
        assert_eq!(value_of(&html, "status"), "stuck in a local dip");
        assert!(html.contains("mc-w-status-stuck"));
        // From x0 = −1 the same rate reaches the global minimum.
        let mut w = widget(r#"{"ripple":1,"lr":0.05}"#);
        for _ in 0..10 {
            action(&mut w, "run");
        }
        assert_eq!(w.status(), Status::Converged);
        // A = 1.5 adds a dip left of the global minimum: start −1 now gets stuck there.
        let mut w = widget(r#"{"ripple":1.5,"lr":0.05}"#);
        for _ in 0..10 {
            action(&mut w, "run");
        }
        assert!((w.x() + 0.115).abs() < 0.01, "{}", w.x());
        assert_eq!(w.status(), Status::Stuck);
    }

    #[test]
    fn markup_is_bounded() {
        let mut w = widget(r#"{"lr":0.01}"#);
        for _ in 0..60 {
            action(&mut w, "run");
        }
        assert_eq!(w.t(), MAX_T);
        assert!(!action(&mut w, "step"));
        let html = w.render("g");
        assert!(html.len() < 20_000, "{}", html.len());
        assert!(html.contains("Stopped after 1000 steps"));
    }

    #[test]
    fn bad_params_name_the_parameter() {
        let err = |json: &str| Gd1d::from_params(&Params::from_json(json).unwrap()).unwrap_err();
        assert_eq!(err(r#"{"lr":2}"#).param, "lr");
        assert_eq!(err(r#"{"x0":"left"}"#).param, "x0");
        assert_eq!(err(r#"{"ripple":-1}"#).param, "ripple");
        let e = err(r#"{"rate":0.1}"#);
        assert_eq!(e.param, "rate");
        assert_eq!(e.valid, vec!["lr", "x0", "ripple"]);
    }
}
