//! Widget 7 — why √d: dot products of random d-dimensional vectors (standard-normal
//! entries; each drawn from its exact distribution in O(1), see
//! `mathcourse_core::sqrt_d::random_dot_products`) spread out like √d. A histogram of `samples` dot products at the chosen d,
//! a "divide by √d" toggle that rescales them to spread ≈ 1, readouts of the measured
//! spread against √d (or 1), and a small plot of the spread against d = 1, 2, 4, …, 512
//! (computed once, with fewer samples) with the √d curve and the line at 1 overlaid.
//!
//! The histogram's axis runs from −4√d to 4√d in both modes, so switching the scaling
//! on visibly squeezes the same samples into ±1.
//!
//! Markup: a range input `d-power` (0–9, d = 2^value, `aria-valuetext` gives d), a
//! number input `d` (1–512), a checkbox `scale`, a `resample` button.
//!
//! `data-value` names: `d`, `sqrt-d`, `samples`, `spread` (measured std of what the
//! histogram shows), `expected` (√d unscaled, 1 scaled), `ratio` (spread / expected).
//!
//! CSS classes used (besides the shared `mc-w-controls`, `mc-w-control`,
//! `mc-w-control-label`, `mc-w-control-value`, `mc-w-button`, `mc-w-readouts`,
//! `mc-w-note`, `mc-w-svg`):
//! - `mc-w-sqrt-d` — the widget's root; `mc-w-check` — the checkbox's label.
//! - Histogram (`mc-w-hist`): `mc-w-hist-bar` (bars), `mc-w-axis` (axis lines),
//!   `mc-w-tick` (tick labels), `mc-w-ref` (dashed lines at ±√d or ±1) with
//!   `mc-w-ref-label`.
//! - Spread plot (`mc-w-spread-plot`): `mc-w-grid` (grid lines), `mc-w-tick`
//!   (`mc-w-tick-minor`: the labels of odd powers of 2, hidden on narrow screens),
//!   `mc-w-curve-sqrt` (the √d curve), `mc-w-curve-one` (dashed line at 1),
//!   `mc-w-pt-raw` (circles: measured spread), `mc-w-pt-scaled` (squares: after ÷√d),
//!   `mc-w-pt-current` (diamond: the histogram's spread), `mc-w-marker` (vertical line
//!   at the current d) with `mc-w-marker-label`.
//! - `mc-w-legend` — the text legend under the plot (names the marker shapes).

use core::f64::consts::LN_2;
use crate::put;

use mathcourse_core::rng::Rng;
use mathcourse_core::sqrt_d;

use crate::fmt::clamp;
use crate::svg::{esc, field_note, open_label, push_button, push_field_note, Anchor, LABEL_END};
use crate::{Event, ParamError, Params, Widget};

/// Largest dimension; the plot covers d = 2^0 … 2^MAX_POWER.
const MAX_D: usize = 512;
const MAX_POWER: u32 = 9;
/// Samples per d for the spread-against-d plot.
const TREND_SAMPLES: usize = 200;
/// Histogram bins.
const BINS: usize = 48;
/// Salt so the trend plot uses streams independent of the histogram's.
const TREND_SALT: u64 = 0x7E4D_5EED;

// Histogram geometry (viewBox units).
const H_W: f64 = 320.0;
const H_H: f64 = 170.0;
const H_LEFT: f64 = 12.0;
const H_RIGHT: f64 = 308.0;
const H_BASE: f64 = 140.0;
const H_TOP: f64 = 18.0;

// Spread-plot geometry.
const P_W: f64 = 320.0;
const P_H: f64 = 190.0;
const P_LEFT: f64 = 34.0;
const P_RIGHT: f64 = 306.0;
const P_BASE: f64 = 160.0;
const P_TOP: f64 = 14.0;
const P_YMAX: f64 = 24.0;

/// State: dimension, sample size, scaling and the current samples.
#[derive(Debug, Clone, PartialEq)]
pub struct SqrtD {
    /// Dimension d.
    pub d: usize,
    /// Number of dot products in the histogram.
    pub samples: usize,
    /// Whether the dot products are divided by √d.
    pub scale: bool,
    /// The seed of the current batch of samples.
    pub sample_seed: u64,
    /// The current (unscaled) dot products.
    pub dots: Vec<f64>,
    /// Measured spread of unscaled dot products at d = 2^k, k = 0..=9.
    pub trend: Vec<(usize, f64)>,
    seed_rng: Rng,
    /// Dot products already drawn for other d with the current seed (most recent last),
    /// so moving the slider back and forth does not redraw them.
    cache: Vec<(usize, Vec<f64>)>,
    /// The d the current `dots` were drawn for.
    cache_d: usize,
    /// What became of the last d typed when it was not used as typed ("at most 512:
    /// 512 is used"), shown next to the field; empty otherwise.
    pub note: String,
}

/// How many batches of other dimensions [`SqrtD`] keeps (10 = every power of two).
const CACHE: usize = 10;

/// log₂ d: exact for powers of two, else ln d / ln 2 (`f64::log2` and `powf` would
/// link libm's `log2` and `exp2`, 1 KB of wasm for one axis).
fn log2(d: usize) -> f64 {
    if d.is_power_of_two() {
        d.trailing_zeros() as f64
    } else {
        (d as f64).ln() / LN_2
    }
}

fn spread(xs: &[f64]) -> f64 {
    sqrt_d::spread(xs).unwrap_or(f64::NAN)
}

/// A number with up to one decimal, trailing `.0` dropped, true minus sign.
fn short(x: f64) -> String {
    let mut s = String::new();
    put!(s; m(x, 1));
    if s.ends_with(".0") {
        s.truncate(s.len() - 2);
    }
    s
}

/// ` x1=… y1=… x2=… y2=…/>` (closes the element).
fn line_attrs(out: &mut String, x1: f64, y1: f64, x2: f64, y2: f64) {
    put!(out; " x1=\"" c(x1) "\" y1=\"" c(y1) "\" x2=\"" c(x2) "\" y2=\"" c(y2) "\"/>");
}

fn hline(out: &mut String, x1: f64, x2: f64, y: f64) {
    put!(out; "<line");
    line_attrs(out, x1, y, x2, y);
}

fn vline(out: &mut String, x: f64, y1: f64, y2: f64) {
    put!(out; "<line");
    line_attrs(out, x, y1, x, y2);
}

/// Opens a picture label (with `class` unless empty) at (x, y) (see
/// [`crate::svg::open_label`]); the caller writes its text and `LABEL_END`.
fn text(out: &mut String, class: &str, x: f64, y: f64, anchor: Anchor) {
    open_label(out, class, "", (x, y), anchor);
}

impl SqrtD {
    fn sqrt_d(&self) -> f64 {
        (self.d as f64).sqrt()
    }

    /// Draws the dot products for the current d and seed (same d and seed, same samples:
    /// a batch drawn before is reused).
    fn resample(&mut self) {
        let d = self.d;
        let dots = match self.cache.iter().position(|(k, _)| *k == d) {
            Some(i) => self.cache.remove(i).1,
            None => sqrt_d::random_dot_products(d, self.samples, self.sample_seed)
                .unwrap_or_default(),
        };
        let old = std::mem::replace(&mut self.dots, dots);
        if !old.is_empty() {
            let old_d = self.cache_d;
            if self.cache.len() >= CACHE {
                self.cache.remove(0);
            }
            self.cache.push((old_d, old));
        }
        self.cache_d = d;
    }

    /// What the histogram shows: the dot products, divided by √d when scaling is on.
    pub fn shown(&self) -> Vec<f64> {
        let k = if self.scale { self.sqrt_d() } else { 1.0 };
        self.dots.iter().map(|x| x / k).collect()
    }

    /// Half-width of the histogram's axis: 4√d.
    fn half_range(&self) -> f64 {
        4.0 * self.sqrt_d()
    }

    /// Bin counts over [−R, R]; values outside go to the end bins.
    fn bins(&self, values: &[f64]) -> [usize; BINS] {
        let r = self.half_range();
        let mut counts = [0; BINS];
        for x in values {
            let t = ((x + r) / (2.0 * r) * BINS as f64).floor();
            let i = clamp(t, 0.0, (BINS - 1) as f64) as usize;
            counts[i] += 1;
        }
        counts
    }

    fn histogram(&self, out: &mut String, id: &str, shown: &[f64], s: f64) {
        let r = self.half_range();
        let x_of = |v: f64| H_LEFT + (v + r) / (2.0 * r) * (H_RIGHT - H_LEFT);
        let counts = self.bins(shown);
        let max = counts.iter().copied().max().unwrap_or(1).max(1) as f64;
        let mode = if self.scale {
            "divided by √d"
        } else {
            "not scaled"
        };
        put!(out;
            "<svg class=\"mc-w-svg mc-w-hist\" viewBox=\"0 0 " c(H_W) " " c(H_H)
            "\" role=\"img\" aria-labelledby=\"" s(id) "-hist-title\"><title id=\"" s(id)
            "-hist-title\">Histogram of " u(self.samples) " dot products of random " u(self.d)
            "-dimensional vectors, " s(mode) ": spread " n(s, 2) "</title>"
        );
        // All bars in one path (one rectangle per non-empty bin): a small DOM to patch.
        let bw = (H_RIGHT - H_LEFT) / BINS as f64;
        put!(out; "<g class=\"mc-w-hist-bars\"><path class=\"mc-w-hist-bar\" d=\"");
        for (i, &c) in counts.iter().enumerate() {
            if c == 0 {
                continue;
            }
            let h = c as f64 / max * (H_BASE - H_TOP);
            put!(out;
                "M" c(H_LEFT + i as f64 * bw + 0.5) " " c(H_BASE) "v-" c(h) "h" c(bw - 1.0) "v" c(h)
                "z"
            );
        }
        put!(out; "\"/></g><g class=\"mc-w-axis\">");
        hline(out, H_LEFT, H_RIGHT, H_BASE);
        put!(out; "</g><g class=\"mc-w-tick\">");
        for m in [-4.0, -2.0, 0.0, 2.0, 4.0] {
            let v = m * self.sqrt_d();
            let x = x_of(v);
            vline(out, x, H_BASE, H_BASE + 4.0);
            let anchor = if m < -3.0 {
                Anchor::Start
            } else if m > 3.0 {
                Anchor::End
            } else {
                Anchor::Middle
            };
            text(out, "", x, H_BASE + 16.0, anchor);
            put!(out; s(&short(v)) s(LABEL_END));
        }
        put!(out; "</g>");
        let (target, name) = if self.scale {
            (1.0, "1")
        } else {
            (self.sqrt_d(), "√d")
        };
        put!(out; "<g class=\"mc-w-ref\">");
        let (left, right) = (x_of(-target), x_of(target));
        for x in [left, right] {
            vline(out, x, H_TOP - 4.0, H_BASE);
        }
        let label_y = H_TOP - 7.0;
        if right - left < 30.0 {
            // Too close for two labels: one "±" label in the middle.
            text(out, "mc-w-ref-label", (left + right) / 2.0, label_y, Anchor::Middle);
            put!(out; "±" s(name) s(LABEL_END));
        } else {
            text(out, "mc-w-ref-label", left, label_y, Anchor::End);
            put!(out; "−" s(name) s(LABEL_END));
            text(out, "mc-w-ref-label", right, label_y, Anchor::Start);
            put!(out; "+" s(name) s(LABEL_END));
        }
        put!(out; "</g></svg>");
    }

    fn spread_plot(&self, out: &mut String, id: &str, current: f64) {
        let x_of = |log2d: f64| P_LEFT + log2d / MAX_POWER as f64 * (P_RIGHT - P_LEFT);
        let y_of = |v: f64| P_BASE - v.min(P_YMAX) / P_YMAX * (P_BASE - P_TOP);
        put!(out;
            "<svg class=\"mc-w-svg mc-w-spread-plot\" viewBox=\"0 0 " c(P_W) " " c(P_H)
            "\" role=\"img\" aria-labelledby=\"" s(id) "-plot-title\" aria-describedby=\"" s(id)
            "-plot-desc\"><title id=\"" s(id)
            "-plot-title\">Measured spread of dot products against d ("
            u(TREND_SAMPLES.min(self.samples))
            " samples each) with the √d curve; after dividing by √d the spread stays near 1</title><desc id=\""
            s(id) "-plot-desc\">"
        );
        for (i, &(d, s)) in self.trend.iter().enumerate() {
            if i > 0 {
                put!(out; "; ");
            }
            put!(out; "d = " u(d) ": spread " n(s, 2) " (√d = " n((d as f64).sqrt(), 2) ")");
        }
        put!(out; "</desc><g class=\"mc-w-grid\">");
        for v in [0.0, 8.0, 16.0, 24.0] {
            hline(out, P_LEFT, P_RIGHT, y_of(v));
        }
        put!(out; "</g><g class=\"mc-w-tick\">");
        for v in [0.0, 8.0, 16.0, 24.0] {
            text(out, "", P_LEFT - 4.0, y_of(v) + 3.5, Anchor::End);
            put!(out; s(&short(v)) s(LABEL_END));
        }
        for k in 0..=MAX_POWER {
            // Odd powers (2, 8, …, 512) are hidden on narrow screens, where ten labels
            // would run together ("128256512").
            let class = if k % 2 == 1 { "mc-w-tick-minor" } else { "" };
            text(out, class, x_of(k as f64), P_BASE + 14.0, Anchor::Middle);
            put!(out; u(1usize << k) s(LABEL_END));
        }
        text(out, "", P_RIGHT + 10.0, P_BASE + 26.0, Anchor::End);
        put!(out; "d" s(LABEL_END));
        text(out, "", P_LEFT, P_TOP - 4.0, Anchor::Start);
        put!(out; "spread" s(LABEL_END) "</g>");
        // √d curve and the line at 1.
        put!(out; "<polyline class=\"mc-w-curve-sqrt\" fill=\"none\" points=\"");
        for i in 0..=4 * MAX_POWER {
            let k = i as f64 / 4.0;
            if i > 0 {
                put!(out; " ");
            }
            put!(out; c(x_of(k)) "," c(y_of((k / 2.0 * LN_2).exp())));
        }
        put!(out; "\"/><line class=\"mc-w-curve-one\"");
        line_attrs(out, P_LEFT, y_of(1.0), P_RIGHT, y_of(1.0));
        // Current d.
        let xd = x_of(log2(self.d));
        put!(out; "<line class=\"mc-w-marker\"");
        line_attrs(out, xd, P_TOP, xd, P_BASE);
        text(
            out,
            "mc-w-marker-label",
            xd,
            P_TOP + 8.0,
            if self.d > 64 { Anchor::End } else { Anchor::Start },
        );
        put!(out; "d = " u(self.d) s(LABEL_END));
        // Measured points, each kind in one path: circles (raw), squares (scaled).
        put!(out; "<path class=\"mc-w-pt-raw\" d=\"");
        for &(d, s) in &self.trend {
            let x = x_of(log2(d));
            put!(out; "M" c(x - 3.0) " " c(y_of(s)) "a3 3 0 1 0 6 0a3 3 0 1 0-6 0z");
        }
        put!(out; "\"/><path class=\"mc-w-pt-scaled\" d=\"");
        for &(d, s) in &self.trend {
            let x = x_of(log2(d));
            let scaled = s / (d as f64).sqrt();
            put!(out; "M" c(x - 2.5) " " c(y_of(scaled) - 2.5) "h5v5h-5z");
        }
        // The histogram's own spread.
        let (cx, cy) = (x_of(log2(self.d)), y_of(current));
        put!(out;
            "\"/><path class=\"mc-w-pt-current\" d=\"M" c(cx) " " c(cy - 5.0) "L" c(cx + 5.0) " "
            c(cy) "L" c(cx) " " c(cy + 5.0) "L" c(cx - 5.0) " " c(cy) "Z\"/></svg>"
        );
    }

    fn readouts(&self, out: &mut String, id: &str, s: f64) {
        let sd = self.sqrt_d();
        put!(out;
            "<dl class=\"mc-w-readouts\" id=\"" s(id)
            "-readouts\" aria-live=\"polite\"><div><dt>Dimension</dt><dd>d = <strong data-value=\"d\">"
            u(self.d) "</strong>, √d = <span data-value=\"sqrt-d\">" n(sd, 2)
            "</span> <span class=\"mc-w-note\">(<span data-value=\"samples\">" u(self.samples)
            "</span> random pairs)</span></dd></div>"
        );
        let (what, expected, name) = if self.scale {
            ("Spread after dividing by √d", 1.0, "1")
        } else {
            ("Spread of the dot products", sd, "√d")
        };
        put!(out;
            "<div><dt>" s(what) "</dt><dd><strong data-value=\"spread\">" n(s, 2)
            "</strong> (standard deviation) vs " s(name) " = <span data-value=\"expected\">"
            n(expected, 2) "</span> <span class=\"mc-w-note\">(ratio <span data-value=\"ratio\">"
            n(s / expected, 2) "</span>)</span></dd></div><div><dt>So</dt><dd>"
        );
        if self.scale {
            put!(out;
                "Scores of typical size ±1, whatever d is: softmax stays soft. The histogram keeps the raw axis "
                "(±4√d), so you see the samples squeezed by √d = " n(sd, 2) "."
            );
        } else if self.d >= 16 {
            put!(out;
                "Scores of typical size ±" n(sd, 1)
                ": fed to softmax, they make one token win nearly everything."
            );
        } else {
            put!(out; "Scores of typical size ±" n(sd, 1) "; they grow like √d as d grows.");
        }
        put!(out; "</dd></div></dl>");
    }

    fn controls(&self, out: &mut String, id: &str) {
        let power = log2(self.d).round() as u32;
        put!(out;
            "<fieldset class=\"mc-w-controls\"><legend>Dimension and scaling</legend>"
            "<label class=\"mc-w-control\" for=\"" s(id)
            "-d-power\"><span class=\"mc-w-control-label\">d (powers of 2)</span><input type=\"range\" id=\""
            s(id) "-d-power\" name=\"d-power\" min=\"0\" max=\"" u(MAX_POWER as usize)
            "\" step=\"1\" value=\"" u(power as usize) "\" aria-valuetext=\"d = " u(self.d)
        );
        if self.d != 1 << power {
            // A typed d between two stops: the slider cannot hold it; say where it sits.
            put!(out; " (between powers of two; the slider sits at " u(1usize << power) ")");
        }
        put!(out;
            "\"><output class=\"mc-w-control-value\" for=\"" s(id) "-d-power\">" u(self.d)
            "</output></label><label class=\"mc-w-control\" for=\"" s(id)
            "-d\"><span class=\"mc-w-control-label\">d (any, 1 to " u(MAX_D)
            ")</span><input type=\"number\" id=\"" s(id) "-d\" name=\"d\" min=\"1\" max=\"" u(MAX_D)
            "\" step=\"1\" value=\"" u(self.d) "\" inputmode=\"numeric\" aria-describedby=\"" s(id)
            "-d-note\"></label>"
        );
        push_field_note(out, id, "d", &self.note);
        put!(out;
            "<label class=\"mc-w-control mc-w-check\" for=\"" s(id)
            "-scale\"><input type=\"checkbox\" id=\"" s(id) "-scale\" name=\"scale\" value=\"true\""
            s(if self.scale { " checked" } else { "" })
            "><span class=\"mc-w-control-label\">Divide by √d</span></label>"
        );
        push_button(out, "resample", "Resample");
        put!(out; "</fieldset>");
    }

    fn set_d(&mut self, d: usize) {
        let d = d.clamp(1, MAX_D);
        if d != self.d {
            self.d = d;
            self.resample();
        }
    }
}

impl Widget for SqrtD {
    const NAME: &'static str = "sqrt-d";
    const SUMMARY: &'static str =
        "Why √d: a histogram of dot products of random d-dimensional vectors, their spread against √d, with and without dividing by √d.";
    const PARAMS: &'static [(&'static str, &'static str, &'static str)] = &[
        (
            "d",
            "whole number, default 64",
            "starting dimension, between 1 and 512",
        ),
        (
            "samples",
            "whole number, default 500",
            "dot products in the histogram, between 50 and 2000",
        ),
        (
            "seed",
            "whole number, default 7",
            "seed for the random vectors; same seed, same samples",
        ),
        (
            "scale",
            "true/false, default false",
            "start with the dot products divided by √d",
        ),
    ];

    fn from_params(params: &Params) -> Result<Self, ParamError> {
        params.only(&["d", "samples", "seed", "scale"])?;
        let d = params.int("d", 64, 1, MAX_D as i64)? as usize;
        let samples = params.int("samples", 500, 50, 2000)? as usize;
        let seed = params.int("seed", 7, 0, u32::MAX as i64)? as u64;
        let scale = params.bool("scale", false)?;
        let mut trend_rng = Rng::new(seed ^ TREND_SALT);
        let trend = (0..=MAX_POWER)
            .map(|k| {
                let d = 1usize << k;
                let xs = sqrt_d::random_dot_products(
                    d,
                    TREND_SAMPLES.min(samples),
                    trend_rng.next_u64(),
                )
                .unwrap_or_default();
                (d, spread(&xs))
            })
            .collect();
        let mut w = SqrtD {
            d,
            samples,
            scale,
            sample_seed: seed,
            dots: Vec::new(),
            trend,
            seed_rng: Rng::new(seed),
            cache: Vec::new(),
            cache_d: d,
            note: String::new(),
        };
        w.resample();
        Ok(w)
    }

    fn render(&self, id: &str) -> String {
        let id = esc(id);
        let shown = self.shown();
        let s = spread(&shown);
        let mut out = String::with_capacity(8192);
        put!(out; "<div class=\"mc-w-sqrt-d\">");
        self.histogram(&mut out, &id, &shown, s);
        self.readouts(&mut out, &id, s);
        self.controls(&mut out, &id);
        self.spread_plot(&mut out, &id, s);
        out.push_str(
            "<p class=\"mc-w-legend\">● measured spread of the dot products · ── √d · ■ measured spread after dividing by √d · \
- - 1 · ◆ the histogram above. Horizontal axis: d, doubling at each step.</p></div>",
        );
        out
    }

    fn update(&mut self, event: &Event) -> bool {
        let before = (self.d, self.scale, self.sample_seed);
        let note_before = self.note.len();
        match *event {
            Event::Input {
                control: "scale",
                value,
            } => match crate::fmt::trim(value) {
                "true" | "on" => self.scale = true,
                "false" => self.scale = false,
                _ => {}
            },
            Event::Input { control: "d", value } => {
                let old = self.d;
                let (d, why) = match crate::fmt::input_num(value) {
                    None if crate::fmt::trim(value).is_empty() => (old, "empty"),
                    None => (old, "not a number"),
                    Some(x) => {
                        let d = clamp(x.round(), 1.0, MAX_D as f64) as usize;
                        let why = if x > MAX_D as f64 {
                            "at most 512"
                        } else if x < 1.0 {
                            "at least 1"
                        } else if x.fract() != 0.0 {
                            "whole numbers only"
                        } else {
                            ""
                        };
                        (d, why)
                    }
                };
                self.set_d(d);
                let note = if why.is_empty() {
                    String::new()
                } else {
                    field_note(why, d as f64, why.starts_with(['e', 'n']))
                };
                if note != self.note {
                    self.note = note;
                    return true;
                }
            }
            Event::Input { control, value } => {
                let Some(x) = crate::fmt::input_num(value) else {
                    return false;
                };
                if !x.is_finite() {
                    return false;
                }
                if control == "d-power" {
                    self.note.clear();
                    self.set_d(1usize << (clamp(x.round(), 0.0, MAX_POWER as f64) as u32));
                }
            }
            Event::Action { action: "resample" } => {
                self.sample_seed = self.seed_rng.next_u64();
                self.cache.clear();
                self.dots.clear();
                self.resample();
            }
            Event::Action { .. } | Event::Key { .. } | Event::Drag { .. } | Event::Hover { .. } => {
            }
        }
        (self.d, self.scale, self.sample_seed) != before || self.note.len() != note_before
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::svg::num;
    use crate::testkit::{input, action};
    use crate::testkit::value;

    fn widget(json: &str) -> SqrtD {
        crate::testkit::widget(json)
    }


    /// Population standard deviation, written out independently of `stats`.
    fn std(xs: &[f64]) -> f64 {
        let n = xs.len() as f64;
        let m = xs.iter().sum::<f64>() / n;
        (xs.iter().map(|x| (x - m).powi(2)).sum::<f64>() / n).sqrt()
    }

    #[test]
    fn default_readouts() {
        let w = widget("{}");
        assert_eq!((w.d, w.samples, w.scale), (64, 500, false));
        let html = w.render("q");
        assert_eq!(value(&html, "d"), "64");
        assert_eq!(value(&html, "sqrt-d"), "8.00");
        assert_eq!(value(&html, "samples"), "500");
        assert_eq!(value(&html, "expected"), "8.00");
        let dots = sqrt_d::random_dot_products(64, 500, 7).unwrap();
        assert_eq!(w.dots, dots);
        let s = std(&dots);
        assert_eq!(value(&html, "spread"), num(s, 2));
        // Theory: std = √64 = 8; with 500 samples the estimate is within about ±0.25 of it.
        assert!((s - 8.0).abs() < 0.8, "{s}");
        assert_eq!(value(&html, "ratio"), num(s / 8.0, 2));
        assert!(html.contains("±8.0"));
        assert!(html.contains("name=\"d-power\" min=\"0\" max=\"9\" step=\"1\" value=\"6\""));
        assert!(html.contains("aria-live=\"polite\""));
        assert!(!html.contains("NaN"));
    }

    #[test]
    fn scaling_brings_the_spread_to_one() {
        let mut w = widget("{}");
        let raw = std(&w.dots);
        assert!(input(&mut w, "scale", "true"));
        let html = w.render("q");
        assert_eq!(value(&html, "expected"), "1.00");
        assert_eq!(value(&html, "spread"), num(raw / 8.0, 2));
        assert!(html.contains("checked"));
        assert!(html.contains("Spread after dividing by √d"));
        assert!(!input(&mut w, "scale", "true"));
        assert!(!input(&mut w, "scale", "maybe"));
        assert!(input(&mut w, "scale", "false"));
        assert!(widget(r#"{"scale":true}"#).render("q").contains("checked"));
    }

    #[test]
    fn dimension_controls() {
        let mut w = widget(r#"{"samples":400}"#);
        assert!(input(&mut w, "d-power", "2"));
        assert_eq!(w.d, 4);
        assert_eq!(w.dots, sqrt_d::random_dot_products(4, 400, 7).unwrap());
        let html = w.render("q");
        assert_eq!(value(&html, "sqrt-d"), "2.00");
        assert!((std(&w.dots) - 2.0).abs() < 0.3);
        assert!(input(&mut w, "d", "100"));
        assert_eq!(w.d, 100);
        assert_eq!(value(&w.render("q"), "sqrt-d"), "10.00");
        assert!(
            w.render("q")
                .contains("name=\"d-power\" min=\"0\" max=\"9\" step=\"1\" value=\"7\""),
            "slider at the nearest power, 128"
        );
        // The slider cannot hold 100: its aria-valuetext says d and where it sits.
        assert!(w.render("q").contains(
            "aria-valuetext=\"d = 100 (between powers of two; the slider sits at 128)\""
        ));
        assert!(w.render("q").contains("id=\"q-d-note\" aria-live=\"polite\"></span>"));
        assert!(input(&mut w, "d", "9999"));
        assert_eq!(w.d, 512);
        let html = w.render("q");
        assert!(html.contains("aria-valuetext=\"d = 512\""));
        assert!(html.contains("name=\"d\" min=\"1\" max=\"512\" step=\"1\" value=\"512\""));
        assert!(html.contains(
            "<span class=\"mc-w-field-note\" id=\"q-d-note\" aria-live=\"polite\">at most 512: 512 is used</span>"
        ));
        assert!(input(&mut w, "d", "0"));
        assert!(w.render("q").contains(">at least 1: 1 is used</span>"));
        assert!(input(&mut w, "d", "2.6"));
        assert_eq!(w.d, 3);
        assert!(w.render("q").contains(">whole numbers only: 3 is used</span>"));
        assert!(input(&mut w, "d", ""));
        assert_eq!(w.d, 3);
        assert!(w.render("q").contains(">empty: 3 is still used</span>"));
        assert!(input(&mut w, "d", "abc"));
        assert!(w.render("q").contains(">not a number: 3 is still used</span>"));
        assert!(!input(&mut w, "d", "abc"), "the same note again: nothing to redraw");
        assert!(input(&mut w, "d-power", "12"), "the slider clears the note");
        assert_eq!((w.d, w.note.as_str()), (512, ""));
        assert!(
            !input(&mut w, "d-power", "12"),
            "clamped to 2^9 = 512"
        );
        assert!(!input(&mut w, "other", "3"));
        assert!(!w.update(&Event::Hover { target: None }));
    }

    #[test]
    fn resample_is_deterministic() {
        let mut w1 = widget(r#"{"d":16,"samples":100,"seed":3}"#);
        let mut w2 = widget(r#"{"d":16,"samples":100,"seed":3}"#);
        let first = w1.dots.clone();
        assert!(action(&mut w1, "resample"));
        assert!(action(&mut w2, "resample"));
        assert_eq!(w1.dots, w2.dots);
        assert_ne!(w1.dots, first);
        assert_eq!(w1.render("a"), w2.render("a"));
        assert_ne!(widget(r#"{"seed":4}"#).dots, widget(r#"{"seed":3}"#).dots);
        assert!(!action(&mut w1, "other"));
        // Back and forth over d: every batch is the one drawn for that d and seed.
        for (d, p) in [(4, "2"), (16, "4"), (4, "2"), (512, "9"), (16, "4")] {
            assert!(input(&mut w1, "d-power", p));
            let fresh = sqrt_d::random_dot_products(d, 100, w1.sample_seed).unwrap();
            assert_eq!(w1.dots, fresh, "d = {d}");
        }
    }

    #[test]
    fn trend_follows_sqrt_d() {
        let w = widget("{}");
        assert_eq!(w.trend.len(), 10);
        for &(d, s) in &w.trend {
            let root = (d as f64).sqrt();
            assert!(
                (s / root - 1.0).abs() < 0.3,
                "d = {d}: spread {s} vs √d {root}"
            );
        }
        let html = w.render("q");
        // One path per kind of point, one subpath per d.
        assert_eq!(html.matches("class=\"mc-w-pt-raw\"").count(), 1);
        assert_eq!(html.matches("a3 3 0 1 0 6 0a3 3 0 1 0-6 0z").count(), 10);
        assert_eq!(html.matches("class=\"mc-w-pt-scaled\"").count(), 1);
        assert_eq!(html.matches("h5v5h-5z").count(), 10);
        assert!(html.contains("d = 512: spread"));
    }

    #[test]
    fn histogram_counts_every_sample() {
        let mut w = widget("{}");
        for scale in [false, true] {
            w.scale = scale;
            let counts = w.bins(&w.shown());
            assert_eq!(counts.iter().sum::<usize>(), 500);
        }
        // Scaled samples crowd into the middle bins (±1 of the ±32 axis).
        let counts = w.bins(&w.shown());
        let middle: usize = counts[BINS / 2 - 2..BINS / 2 + 2].iter().sum();
        assert!(middle > 400, "{counts:?}");
    }

    #[test]
    fn bad_params_name_the_parameter() {
        for (json, param) in [
            (r#"{"d":0}"#, "d"),
            (r#"{"d":513}"#, "d"),
            (r#"{"d":2.5}"#, "d"),
            (r#"{"samples":10}"#, "samples"),
            (r#"{"samples":5000}"#, "samples"),
            (r#"{"seed":"x"}"#, "seed"),
            (r#"{"scale":1}"#, "scale"),
            (r#"{"dim":4}"#, "dim"),
        ] {
            let e = SqrtD::from_params(&Params::from_json(json).unwrap()).unwrap_err();
            assert_eq!(e.param, param, "{json}: {e}");
        }
    }
}
