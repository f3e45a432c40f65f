//! Widget 7 — why √d: dot products of random d-dimensional vectors (standard-normal
//! entries) spread out like √d. A histogram of `samples` dot products at the chosen d,
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
//! - Spread plot (`mc-w-spread-plot`): `mc-w-grid` (grid lines), `mc-w-tick`,
//!   `mc-w-curve-sqrt` (the √d curve), `mc-w-curve-one` (dashed line at 1),
//!   `mc-w-pt-raw` (circles: measured spread), `mc-w-pt-scaled` (squares: after ÷√d),
//!   `mc-w-pt-current` (diamond: the histogram's spread), `mc-w-marker` (vertical line
//!   at the current d) with `mc-w-marker-label`.
//! - `mc-w-legend` — the text legend under the plot (names the marker shapes).

use std::fmt::Write;

use mathcourse_core::rng::Rng;
use mathcourse_core::sqrt_d;

use crate::svg::{button, coord, esc, num};
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
}

fn spread(xs: &[f64]) -> f64 {
    sqrt_d::spread(xs).unwrap_or(f64::NAN)
}

/// A number with up to one decimal, trailing `.0` dropped, true minus sign.
fn short(x: f64) -> String {
    let s = num(x, 1);
    let s = s.strip_suffix(".0").unwrap_or(&s);
    s.replace('-', "−")
}

impl SqrtD {
    fn sqrt_d(&self) -> f64 {
        (self.d as f64).sqrt()
    }

    fn resample(&mut self) {
        self.dots =
            sqrt_d::random_dot_products(self.d, self.samples, self.sample_seed).unwrap_or_default();
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
            let i = t.clamp(0.0, (BINS - 1) as f64) as usize;
            counts[i] += 1;
        }
        counts
    }

    fn histogram(&self, id: &str, shown: &[f64], s: f64) -> String {
        let r = self.half_range();
        let x_of = |v: f64| H_LEFT + (v + r) / (2.0 * r) * (H_RIGHT - H_LEFT);
        let counts = self.bins(shown);
        let max = counts.iter().copied().max().unwrap_or(1).max(1) as f64;
        let mode = if self.scale {
            "divided by √d"
        } else {
            "not scaled"
        };
        let mut out = String::new();
        let _ = write!(
            out,
            "<svg class=\"mc-w-svg mc-w-hist\" viewBox=\"0 0 {} {}\" role=\"img\" aria-labelledby=\"{id}-hist-title\">\
<title id=\"{id}-hist-title\">Histogram of {} dot products of random {}-dimensional vectors, {mode}: spread {}</title>",
            coord(H_W),
            coord(H_H),
            self.samples,
            self.d,
            num(s, 2)
        );
        let bw = (H_RIGHT - H_LEFT) / BINS as f64;
        out.push_str("<g class=\"mc-w-hist-bars\">");
        for (i, &c) in counts.iter().enumerate() {
            if c == 0 {
                continue;
            }
            let h = c as f64 / max * (H_BASE - H_TOP);
            let _ = write!(
                out,
                "<rect class=\"mc-w-hist-bar\" x=\"{}\" y=\"{}\" width=\"{}\" height=\"{}\"/>",
                coord(H_LEFT + i as f64 * bw + 0.5),
                coord(H_BASE - h),
                coord(bw - 1.0),
                coord(h)
            );
        }
        out.push_str("</g>");
        let _ = write!(
            out,
            "<g class=\"mc-w-axis\"><line x1=\"{}\" y1=\"{b}\" x2=\"{}\" y2=\"{b}\"/></g><g class=\"mc-w-tick\">",
            coord(H_LEFT),
            coord(H_RIGHT),
            b = coord(H_BASE)
        );
        for m in [-4.0, -2.0, 0.0, 2.0, 4.0] {
            let v = m * self.sqrt_d();
            let _ = write!(
                out,
                "<line x1=\"{x}\" y1=\"{}\" x2=\"{x}\" y2=\"{}\"/><text x=\"{x}\" y=\"{}\" text-anchor=\"{}\">{}</text>",
                coord(H_BASE),
                coord(H_BASE + 4.0),
                coord(H_BASE + 16.0),
                if m < -3.0 { "start" } else if m > 3.0 { "end" } else { "middle" },
                short(v),
                x = coord(x_of(v)),
            );
        }
        out.push_str("</g>");
        let (target, name) = if self.scale {
            (1.0, "1")
        } else {
            (self.sqrt_d(), "√d")
        };
        out.push_str("<g class=\"mc-w-ref\">");
        let (left, right) = (x_of(-target), x_of(target));
        for x in [left, right] {
            let _ = write!(
                out,
                "<line x1=\"{x}\" y1=\"{}\" x2=\"{x}\" y2=\"{}\"/>",
                coord(H_TOP - 4.0),
                coord(H_BASE),
                x = coord(x)
            );
        }
        let label_y = coord(H_TOP - 7.0);
        if right - left < 30.0 {
            // Too close for two labels: one "±" label in the middle.
            let _ = write!(
                out,
                "<text class=\"mc-w-ref-label\" x=\"{}\" y=\"{label_y}\" text-anchor=\"middle\">±{name}</text>",
                coord((left + right) / 2.0)
            );
        } else {
            let _ = write!(
                out,
                "<text class=\"mc-w-ref-label\" x=\"{}\" y=\"{label_y}\" text-anchor=\"end\">−{name}</text>\
<text class=\"mc-w-ref-label\" x=\"{}\" y=\"{label_y}\" text-anchor=\"start\">+{name}</text>",
                coord(left),
                coord(right)
            );
        }
        out.push_str("</g></svg>");
        out
    }

    fn spread_plot(&self, id: &str, current: f64) -> String {
        let x_of = |log2d: f64| P_LEFT + log2d / MAX_POWER as f64 * (P_RIGHT - P_LEFT);
        let y_of = |v: f64| P_BASE - v.min(P_YMAX) / P_YMAX * (P_BASE - P_TOP);
        let mut out = String::new();
        let _ = write!(
            out,
            "<svg class=\"mc-w-svg mc-w-spread-plot\" viewBox=\"0 0 {} {}\" role=\"img\" aria-labelledby=\"{id}-plot-title\" aria-describedby=\"{id}-plot-desc\">\
<title id=\"{id}-plot-title\">Measured spread of dot products against d ({} samples each) with the √d curve; after dividing by √d the spread stays near 1</title><desc id=\"{id}-plot-desc\">",
            coord(P_W),
            coord(P_H),
            TREND_SAMPLES.min(self.samples)
        );
        let parts: Vec<String> = self
            .trend
            .iter()
            .map(|&(d, s)| {
                format!(
                    "d = {d}: spread {} (√d = {})",
                    num(s, 2),
                    num((d as f64).sqrt(), 2)
                )
            })
            .collect();
        out.push_str(&parts.join("; "));
        out.push_str("</desc><g class=\"mc-w-grid\">");
        for v in [0.0, 8.0, 16.0, 24.0] {
            let _ = write!(
                out,
                "<line x1=\"{}\" y1=\"{y}\" x2=\"{}\" y2=\"{y}\"/>",
                coord(P_LEFT),
                coord(P_RIGHT),
                y = coord(y_of(v))
            );
        }
        out.push_str("</g><g class=\"mc-w-tick\">");
        for v in [0.0, 8.0, 16.0, 24.0] {
            let _ = write!(
                out,
                "<text x=\"{}\" y=\"{}\" text-anchor=\"end\">{}</text>",
                coord(P_LEFT - 4.0),
                coord(y_of(v) + 3.5),
                short(v)
            );
        }
        for k in 0..=MAX_POWER {
            let _ = write!(
                out,
                "<text x=\"{}\" y=\"{}\" text-anchor=\"middle\">{}</text>",
                coord(x_of(k as f64)),
                coord(P_BASE + 14.0),
                1usize << k
            );
        }
        let _ = write!(
            out,
            "<text x=\"{}\" y=\"{}\" text-anchor=\"end\">d</text><text x=\"{}\" y=\"{}\" text-anchor=\"start\">spread</text></g>",
            coord(P_RIGHT + 10.0),
            coord(P_BASE + 26.0),
            coord(P_LEFT),
            coord(P_TOP - 4.0)
        );
        // √d curve and the line at 1.
        let curve: Vec<String> = (0..=4 * MAX_POWER)
            .map(|i| {
                let k = i as f64 / 4.0;
                format!("{},{}", coord(x_of(k)), coord(y_of(2f64.powf(k / 2.0))))
            })
            .collect();
        let _ = write!(
            out,
            "<polyline class=\"mc-w-curve-sqrt\" fill=\"none\" points=\"{}\"/>\
<line class=\"mc-w-curve-one\" x1=\"{}\" y1=\"{y}\" x2=\"{}\" y2=\"{y}\"/>",
            curve.join(" "),
            coord(P_LEFT),
            coord(P_RIGHT),
            y = coord(y_of(1.0))
        );
        // Current d.
        let xd = coord(x_of((self.d as f64).log2()));
        let _ = write!(
            out,
            "<line class=\"mc-w-marker\" x1=\"{xd}\" y1=\"{}\" x2=\"{xd}\" y2=\"{}\"/>\
<text class=\"mc-w-marker-label\" x=\"{xd}\" y=\"{}\" text-anchor=\"{}\">d = {}</text>",
            coord(P_TOP),
            coord(P_BASE),
            coord(P_TOP + 8.0),
            if self.d > 64 { "end" } else { "start" },
            self.d
        );
        // Measured points: circles (raw), squares (scaled).
        for &(d, s) in &self.trend {
            let x = x_of((d as f64).log2());
            let scaled = s / (d as f64).sqrt();
            let _ = write!(
                out,
                "<circle class=\"mc-w-pt-raw\" cx=\"{}\" cy=\"{}\" r=\"3\"/>\
<rect class=\"mc-w-pt-scaled\" x=\"{}\" y=\"{}\" width=\"5\" height=\"5\"/>",
                coord(x),
                coord(y_of(s)),
                coord(x - 2.5),
                coord(y_of(scaled) - 2.5)
            );
        }
        // The histogram's own spread.
        let (cx, cy) = (x_of((self.d as f64).log2()), y_of(current));
        let _ = write!(
            out,
            "<path class=\"mc-w-pt-current\" d=\"M{} {}L{} {}L{} {}L{} {}Z\"/></svg>",
            coord(cx),
            coord(cy - 5.0),
            coord(cx + 5.0),
            coord(cy),
            coord(cx),
            coord(cy + 5.0),
            coord(cx - 5.0),
            coord(cy)
        );
        out
    }

    fn readouts(&self, id: &str, s: f64) -> String {
        let sd = self.sqrt_d();
        let mut out =
            format!("<dl class=\"mc-w-readouts\" id=\"{id}-readouts\" aria-live=\"polite\">");
        let _ = write!(
            out,
            "<div><dt>Dimension</dt><dd>d = <strong data-value=\"d\">{}</strong>, √d = <span data-value=\"sqrt-d\">{}</span> \
<span class=\"mc-w-note\">(<span data-value=\"samples\">{}</span> random pairs)</span></dd></div>",
            self.d,
            num(sd, 2),
            self.samples
        );
        let (what, expected, name) = if self.scale {
            ("Spread after dividing by √d", 1.0, "1")
        } else {
            ("Spread of the dot products", sd, "√d")
        };
        let ratio = s / expected;
        let _ = write!(
            out,
            "<div><dt>{what}</dt><dd><strong data-value=\"spread\">{}</strong> (standard deviation) vs {name} = \
<span data-value=\"expected\">{}</span> <span class=\"mc-w-note\">(ratio <span data-value=\"ratio\">{}</span>)</span></dd></div>",
            num(s, 2),
            num(expected, 2),
            num(ratio, 2)
        );
        let note = if self.scale {
            format!(
                "Scores of typical size ±1, whatever d is: softmax stays soft. The histogram keeps the raw axis \
(±4√d), so you see the samples squeezed by √d = {}.",
                num(sd, 2)
            )
        } else if self.d >= 16 {
            format!("Scores of typical size ±{}: fed to softmax, they make one token win nearly everything.", num(sd, 1))
        } else {
            format!(
                "Scores of typical size ±{}; they grow like √d as d grows.",
                num(sd, 1)
            )
        };
        let _ = write!(out, "<div><dt>So</dt><dd>{note}</dd></div></dl>");
        out
    }

    fn controls(&self, id: &str) -> String {
        let power = (self.d as f64).log2().round() as u32;
        let mut out = String::from(
            "<fieldset class=\"mc-w-controls\"><legend>Dimension and scaling</legend>",
        );
        let _ = write!(
            out,
            "<label class=\"mc-w-control\" for=\"{id}-d-power\"><span class=\"mc-w-control-label\">d (powers of 2)</span>\
<input type=\"range\" id=\"{id}-d-power\" name=\"d-power\" min=\"0\" max=\"{MAX_POWER}\" step=\"1\" value=\"{power}\" \
aria-valuetext=\"d = {}\"><output class=\"mc-w-control-value\" for=\"{id}-d-power\">{}</output></label>",
            1usize << power,
            self.d
        );
        let _ = write!(
            out,
            "<label class=\"mc-w-control\" for=\"{id}-d\"><span class=\"mc-w-control-label\">d (any, 1 to {MAX_D})</span>\
<input type=\"number\" id=\"{id}-d\" name=\"d\" min=\"1\" max=\"{MAX_D}\" step=\"1\" value=\"{}\" inputmode=\"numeric\"></label>",
            self.d
        );
        let _ = write!(
            out,
            "<label class=\"mc-w-control mc-w-check\" for=\"{id}-scale\"><input type=\"checkbox\" id=\"{id}-scale\" name=\"scale\" value=\"true\"{}>\
<span class=\"mc-w-control-label\">Divide by √d</span></label>",
            if self.scale { " checked" } else { "" }
        );
        out.push_str(&button("resample", "Resample"));
        out.push_str("</fieldset>");
        out
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
        };
        w.resample();
        Ok(w)
    }

    fn render(&self, id: &str) -> String {
        let id = esc(id);
        let shown = self.shown();
        let s = spread(&shown);
        let mut out = String::from("<div class=\"mc-w-sqrt-d\">");
        out.push_str(&self.histogram(&id, &shown, s));
        out.push_str(&self.readouts(&id, s));
        out.push_str(&self.controls(&id));
        out.push_str(&self.spread_plot(&id, s));
        out.push_str(
            "<p class=\"mc-w-legend\">● measured spread of the dot products · ── √d · ■ measured spread after dividing by √d · \
- - 1 · ◆ the histogram above. Horizontal axis: d, doubling at each step.</p></div>",
        );
        out
    }

    fn update(&mut self, event: &Event) -> bool {
        let before = (self.d, self.scale, self.sample_seed);
        match *event {
            Event::Input {
                control: "scale",
                value,
            } => match value.trim() {
                "true" | "on" => self.scale = true,
                "false" => self.scale = false,
                _ => {}
            },
            Event::Input { control, value } => {
                let Ok(x) = value.trim().parse::<f64>() else {
                    return false;
                };
                if !x.is_finite() {
                    return false;
                }
                match control {
                    "d" => self.set_d(x.round().clamp(1.0, MAX_D as f64) as usize),
                    "d-power" => {
                        self.set_d(1usize << (x.round().clamp(0.0, MAX_POWER as f64) as u32))
                    }
                    _ => {}
                }
            }
            Event::Action { action: "resample" } => {
                self.sample_seed = self.seed_rng.next_u64();
                self.resample();
            }
            Event::Action { .. } | Event::Key { .. } | Event::Drag { .. } | Event::Hover { .. } => {
            }
        }
        (self.d, self.scale, self.sample_seed) != before
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn widget(json: &str) -> SqrtD {
        SqrtD::from_params(&Params::from_json(json).unwrap()).unwrap()
    }

    fn value<'a>(html: &'a str, name: &str) -> &'a str {
        let key = format!("data-value=\"{name}\"");
        let start = html
            .find(&key)
            .unwrap_or_else(|| panic!("no {name} in {html}"));
        let rest = &html[start..];
        let open = rest.find('>').unwrap() + 1;
        let close = rest[open..].find('<').unwrap() + open;
        &rest[open..close]
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
        assert!(w.update(&Event::Input {
            control: "scale",
            value: "true"
        }));
        let html = w.render("q");
        assert_eq!(value(&html, "expected"), "1.00");
        assert_eq!(value(&html, "spread"), num(raw / 8.0, 2));
        assert!(html.contains("checked"));
        assert!(html.contains("Spread after dividing by √d"));
        assert!(!w.update(&Event::Input {
            control: "scale",
            value: "true"
        }));
        assert!(!w.update(&Event::Input {
            control: "scale",
            value: "maybe"
        }));
        assert!(w.update(&Event::Input {
            control: "scale",
            value: "false"
        }));
        assert!(widget(r#"{"scale":true}"#).render("q").contains("checked"));
    }

    #[test]
    fn dimension_controls() {
        let mut w = widget(r#"{"samples":400}"#);
        assert!(w.update(&Event::Input {
            control: "d-power",
            value: "2"
        }));
        assert_eq!(w.d, 4);
        assert_eq!(w.dots, sqrt_d::random_dot_products(4, 400, 7).unwrap());
        let html = w.render("q");
        assert_eq!(value(&html, "sqrt-d"), "2.00");
        assert!((std(&w.dots) - 2.0).abs() < 0.3);
        assert!(w.update(&Event::Input {
            control: "d",
            value: "100"
        }));
        assert_eq!(w.d, 100);
        assert_eq!(value(&w.render("q"), "sqrt-d"), "10.00");
        assert!(
            w.render("q")
                .contains("name=\"d-power\" min=\"0\" max=\"9\" step=\"1\" value=\"7\""),
            "slider at the nearest power, 128"
        );
        assert!(w.update(&Event::Input {
            control: "d",
            value: "9999"
        }));
        assert_eq!(w.d, 512);
        assert!(
            !w.update(&Event::Input {
                control: "d-power",
                value: "12"
            }),
            "clamped to 2^9 = 512"
        );
        assert!(!w.update(&Event::Input {
            control: "d",
            value: "abc"
        }));
        assert!(!w.update(&Event::Input {
            control: "other",
            value: "3"
        }));
        assert!(!w.update(&Event::Hover { target: None }));
    }

    #[test]
    fn resample_is_deterministic() {
        let mut w1 = widget(r#"{"d":16,"samples":100,"seed":3}"#);
        let mut w2 = widget(r#"{"d":16,"samples":100,"seed":3}"#);
        let first = w1.dots.clone();
        assert!(w1.update(&Event::Action { action: "resample" }));
        assert!(w2.update(&Event::Action { action: "resample" }));
        assert_eq!(w1.dots, w2.dots);
        assert_ne!(w1.dots, first);
        assert_eq!(w1.render("a"), w2.render("a"));
        assert_ne!(widget(r#"{"seed":4}"#).dots, widget(r#"{"seed":3}"#).dots);
        assert!(!w1.update(&Event::Action { action: "other" }));
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
        assert_eq!(html.matches("class=\"mc-w-pt-raw\"").count(), 10);
        assert_eq!(html.matches("class=\"mc-w-pt-scaled\"").count(), 10);
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
