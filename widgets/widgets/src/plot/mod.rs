//! Widget 9 — `plot`: an explorable written in Markdown. Curves given as expressions
//! (`sigma(x) = 1 / (1 + exp(-(w*x + b)))`), one slider per parameter, points,
//! vertical and horizontal lines, shaded areas under a curve (their value usable in
//! readouts), tangents at a draggable point, and readouts with `{expr:.N}`
//! placeholders. The author guide (`book/src/guide/widgets.md`) documents every option.
//!
//! Two forms of parameters. The author's (YAML, expressions as text) is read at build
//! time by [`author`] (native only): every mistake becomes a located [`ParamError`], and
//! the result is the *live* form, the same plot with each expression compiled to a
//! postfix program of [`mathcourse_core::plot::Op`]s and names resolved to slots, which
//! [`Widget::live_params`] hands to the page. The browser builds the widget from that
//! form with [`Plot::from_live`], so the wasm bundle carries no expression parser, no
//! float parsing and no `core::fmt`; the build-time render goes through the very same
//! `from_live`, so both renders are the same code on the same numbers.
//!
//! Live form (JSON): `x`, `y`: `[min, max]`; `params`: `[[name, value, min, max, step,
//! label, decimals], …]`; `funcs`: `[program, …]` (curve functions, called by index);
//! `derived`: values computed after the parameters, `["area", f, from, to]` or
//! `["slope", f, at]`; `curves`: `[[f, style, label], …]`; `points`: `[[x, y, label],
//! …]`; `lines`: `[["x" | "y", at, label], …]`; `areas`: `[[derived, label], …]`;
//! `tangents`: `[[f, param, label], …]`; `readouts`: `[[text | [program, decimals], …],
//! …]`. A program is a list: numbers push themselves, `"x"` the argument, `"sN"` slot N
//! (parameters, then derived values), `"fN"` calls function N, `"neg"`, `"+"`, `"-"`,
//! `"*"`, `"/"`, `"^"`, `"min"`, `"max"` (of two values), `"atan2"` (y, x), a built-in
//! function's name.
//!
//! Markup: range inputs named after the parameters (so a formula card's `controls` can
//! name them), each with `data-key="pN"` (arrows step, Shift ×10, PageUp/PageDown ×10,
//! Home/End) and `aria-valuetext`; tangent points `data-drag`/`data-key="tN"`
//! (`role="slider"`). `data-value` names: `rN` (readout N), `pN` (parameter N's value),
//! and `data-curve="N"` on each curve's path.
//!
//! CSS classes: `mc-w-plot`, `mc-w-plot-svg`, `mc-w-grid`, `mc-w-axis`,
//! `mc-w-tick-label`, `mc-w-plot-curve`, `mc-w-plot-cN` (N = 0…3, the colour),
//! `mc-w-plot-dashed`, `mc-w-plot-dotted`, `mc-w-plot-area`, `mc-w-plot-line`,
//! `mc-w-plot-point`, `mc-w-plot-label`, `mc-w-plot-tangent`, `mc-w-handle`,
//! `mc-w-plot-legend`, `mc-w-plot-key`, `mc-w-plot-readouts`, `mc-w-controls`,
//! `mc-w-control`, `mc-w-control-label`, `mc-w-control-value`.

// Native only (never in the bundle): reads the author's YAML and reports mistakes with
// `format!`, free of the bundle's rules in `widgets/clippy.toml`.
#[cfg(not(target_arch = "wasm32"))]
#[allow(clippy::disallowed_methods, clippy::disallowed_macros)]
pub mod author;

use mathcourse_core::expr::{BinOp, Function};
use mathcourse_core::plot::{self as core_plot, Op, Program, Window};
use crate::{put, text};

use crate::fmt::{clamp, parse_index};
use crate::json::Value;
use crate::svg::{esc, push_label, Anchor};
use crate::{DragPhase, Event, ParamError, Params, Widget};

/// Drawing box inside the 320 × 212 viewBox.
const LEFT: f64 = 38.0;
const RIGHT: f64 = 312.0;
const TOP: f64 = 8.0;
const BOTTOM: f64 = 188.0;
/// Curve styles, as in the live form.
const STYLES: [&str; 4] = ["solid", "dashed", "dotted", "hidden"];

/// One slider.
#[derive(Debug, Clone, PartialEq)]
struct Param {
    name: String,
    value: f64,
    min: f64,
    max: f64,
    step: f64,
    label: String,
    /// Decimals the step needs (values are shown and snapped to them).
    decimals: usize,
}

/// What a [`Mark`] draws (the number in the live form).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Kind {
    /// Function `f`, `style`.
    Curve,
    /// At (`a`, `b`).
    Point,
    /// x = `a`.
    VLine,
    /// y = `a`.
    HLine,
    /// Under function `f` from `a` to `b`; its value is a slot.
    Area,
    /// Of function `f` at parameter `p` (a draggable point); its slope is a slot.
    Tangent,
}

const KINDS: [Kind; 6] = [Kind::Curve, Kind::Point, Kind::VLine, Kind::HLine, Kind::Area, Kind::Tangent];

/// One thing drawn: a curve, point, line, area or tangent.
#[derive(Debug, Clone, PartialEq)]
struct Mark {
    kind: Kind,
    f: usize,
    p: usize,
    a: Program,
    b: Program,
    style: usize,
    label: String,
}

#[derive(Debug, Clone, PartialEq)]
enum Piece {
    Text(String),
    Value(Program, usize),
}

/// The plot's state: the parameters' values; everything else is fixed.
#[derive(Debug, Clone, PartialEq)]
pub struct Plot {
    x: (f64, f64),
    y: (f64, f64),
    params: Vec<Param>,
    funcs: Vec<Program>,
    marks: Vec<Mark>,
    readouts: Vec<Vec<Piece>>,
    /// The start of the picture's title (fixed: written at build time).
    title: String,
    /// Grid, axes and tick labels (fixed: written at build time, see [`Plot::axes`]).
    axes: String,
    /// The legend of labelled curves (fixed too).
    legend: String,
    /// The axis labels, x then y (the y label may be empty).
    labels: (String, String),
    #[cfg(not(target_arch = "wasm32"))]
    live: Params,
    /// Build-time warnings (see [`author::compile`]).
    #[cfg(not(target_arch = "wasm32"))]
    warnings: Vec<ParamError>,
}

fn list(v: Option<&Value>) -> &[Value] {
    match v {
        Some(Value::List(items)) => items,
        _ => &[],
    }
}

fn num(v: Option<&Value>) -> Option<f64> {
    match v {
        Some(Value::Num(x)) if x.is_finite() => Some(*x),
        _ => None,
    }
}

fn text(v: Option<&Value>) -> String {
    match v {
        Some(Value::Text(s)) => s.clone(),
        _ => String::new(),
    }
}

fn index(v: Option<&Value>, below: usize) -> Option<usize> {
    let x = num(v)?;
    (x >= 0.0 && x < below as f64 && x.fract() == 0.0).then_some(x as usize)
}

/// A program from its live form (see the module docs); `funcs` and `slots`: how many
/// functions and slots it may refer to.
fn program(v: Option<&Value>, funcs: usize, slots: usize) -> Option<Program> {
    let mut ops = Vec::new();
    for item in list(v) {
        let op = match item {
            Value::Num(n) => Op::Num(*n),
            Value::Text(t) => {
                let t = t.as_str();
                let numbered = |prefix: &str, limit: usize| {
                    t.strip_prefix(prefix)
                        .and_then(parse_index)
                        .filter(|&n| n < limit)
                        .and_then(|n| u16::try_from(n).ok())
                };
                match t {
                    "x" => Op::Arg,
                    "neg" => Op::Neg,
                    "+" => Op::Bin(BinOp::Add),
                    "-" => Op::Bin(BinOp::Sub),
                    "*" => Op::Bin(BinOp::Mul),
                    "/" => Op::Bin(BinOp::Div),
                    "^" => Op::Bin(BinOp::Pow),
                    "min" => Op::Min(2),
                    "max" => Op::Max(2),
                    "atan2" => Op::Atan2,
                    _ => {
                        if let Some(f) = Function::from_name(t) {
                            Op::Fn(f)
                        } else if let Some(n) = numbered("s", slots) {
                            Op::Slot(n)
                        } else if let Some(n) = numbered("f", funcs) {
                            Op::Call(n)
                        } else {
                            return None;
                        }
                    }
                }
            }
            _ => return None,
        };
        ops.push(op);
    }
    // No stack check here: a malformed program evaluates to NaN, never panics.
    Some(Program { ops })
}

/// `head`, ` name="value"` for each attribute, `tail`.
fn el(out: &mut String, head: &str, attrs: &[(&str, f64)], tail: &str) {
    put!(out; s(head));
    for (name, v) in attrs {
        put!(out; " " s(name) "=\"" c(*v) "\"");
    }
    put!(out; s(tail));
}

/// A label at `(x, y)` (nothing when empty).
fn label(out: &mut String, at: (f64, f64), anchor: Anchor, text: &str) {
    if !text.is_empty() {
        push_label(out, "mc-w-plot-label", " font-size=\"9\"", at, anchor, text);
    }
}

/// A path command and its point.
fn pt(out: &mut String, cmd: &str, x: f64, y: f64) {
    put!(out; s(cmd) c(x) " " c(y));
}

/// Places after the point that `step` needs (up to 6).
#[cfg(not(target_arch = "wasm32"))]
pub(crate) fn decimals_of(step: f64) -> usize {
    let mut scale = 1.0;
    for d in 0..6 {
        let v = step * scale;
        if (v - v.round()).abs() < 1e-9 * v.abs().max(1.0) {
            return d;
        }
        scale *= 10.0;
    }
    6
}

/// `x` rounded to `d` places (removes float noise such as 0.30000000000000004).
fn round_to(x: f64, d: usize) -> f64 {
    let mut scale = 1.0;
    for _ in 0..d {
        scale *= 10.0;
    }
    (x * scale).round() / scale + 0.0
}

impl Param {
    fn set(&mut self, v: f64) -> bool {
        let k = ((v - self.min) / self.step).round();
        let snapped = round_to(clamp(self.min + k * self.step, self.min, self.max), self.decimals);
        let changed = snapped != self.value;
        self.value = snapped;
        changed
    }

    /// Arrows step (Shift: ten steps), Page Up/Down take ten steps, Home/End the ends.
    fn key(&mut self, key: &str, shift: bool) -> bool {
        let sign = match key {
            "ArrowRight" | "ArrowUp" | "PageUp" => 1.0,
            "ArrowLeft" | "ArrowDown" | "PageDown" => -1.0,
            "Home" => return self.set(self.min),
            "End" => return self.set(self.max),
            _ => return false,
        };
        let big = shift || key.starts_with('P');
        self.set(self.value + sign * self.step * if big { 10.0 } else { 1.0 })
    }

}

impl Plot {
    /// The plot from its live form (see the module docs): what the browser runs, and
    /// what the build renders after [`author`] compiled the author's parameters.
    pub fn from_live(p: &Params) -> Result<Plot, ParamError> {
        Plot::read_live(p).ok_or_else(|| ParamError::new("", "malformed compiled plot"))
    }

    fn read_live(p: &Params) -> Option<Plot> {
        let pair = |key: &str| -> Option<(f64, f64)> {
            let l = list(p.get(key));
            let (a, b) = (num(l.first())?, num(l.get(1))?);
            (a < b).then_some((a, b))
        };
        let mut plot = Plot {
            x: pair("x")?,
            y: pair("y")?,
            params: Vec::new(),
            funcs: Vec::new(),
            marks: Vec::new(),
            readouts: Vec::new(),
            title: text(p.get("title")),
            axes: text(p.get("axes")),
            legend: text(p.get("legend")),
            labels: {
                let l = list(p.get("labels"));
                (text(l.first()), text(l.get(1)))
            },
            #[cfg(not(target_arch = "wasm32"))]
            live: p.clone(),
            #[cfg(not(target_arch = "wasm32"))]
            warnings: Vec::new(),
        };
        plot.read_items(p)?;
        Some(plot)
    }

    fn read_items(&mut self, p: &Params) -> Option<()> {
        for item in list(p.get("params")) {
            let f = list(Some(item));
            let (value, min, max, step) = (num(f.get(1))?, num(f.get(2))?, num(f.get(3))?, num(f.get(4))?);
            if !(min < max && step > 0.0) {
                return None;
            }
            let mut param = Param {
                name: text(f.first()),
                value,
                min,
                max,
                step,
                label: text(f.get(5)),
                decimals: index(f.get(6), 13)?,
            };
            param.set(value);
            self.params.push(param);
        }
        for item in list(p.get("funcs")) {
            let f = program(Some(item), self.funcs.len(), self.params.len())?;
            self.funcs.push(f);
        }
        let nf = self.funcs.len();
        // Slots: the parameters, then one value per area and tangent, in order; a
        // mark's programs may use the slots before its own.
        let mut slots = self.params.len();
        for item in list(p.get("marks")) {
            let m = list(Some(item));
            let kind = *KINDS.get(index(m.first(), KINDS.len())?)?;
            let f = index(m.get(1), nf.max(1))?;
            let p = index(m.get(2), self.params.len().max(1))?;
            let style = index(m.get(5), STYLES.len())?;
            let (a, b) = (program(m.get(3), nf, slots)?, program(m.get(4), nf, slots)?);
            let mark = Mark {
                kind,
                f,
                p,
                a,
                b,
                style,
                label: text(m.get(6)),
            };
            if matches!(kind, Kind::Area | Kind::Tangent) {
                slots += 1;
            }
            self.marks.push(mark);
        }
        for item in list(p.get("readouts")) {
            self.readouts.push(Vec::new());
            for piece in list(Some(item)) {
                let piece = match piece {
                    Value::List(v) => {
                        Piece::Value(program(v.first(), nf, slots)?, index(v.get(1), 13)?)
                    }
                    other => Piece::Text(text(Some(other))),
                };
                self.readouts.last_mut()?.push(piece);
            }
        }
        Some(())
    }

    /// Parameter values, then the value of each area and the slope of each tangent.
    fn slots(&self) -> Vec<f64> {
        let mut slots: Vec<f64> = self.params.iter().map(|p| p.value).collect();
        for m in &self.marks {
            let f = |t: f64| self.call(m.f, t, &slots);
            let v = match m.kind {
                Kind::Area => {
                    let (a, b) = self.ends(m, &slots);
                    core_plot::integral(&f, a, b, 400)
                }
                Kind::Tangent => core_plot::slope(&f, self.at(m), self.h()),
                _ => continue,
            };
            slots.push(v);
        }
        slots
    }

    fn ends(&self, m: &Mark, slots: &[f64]) -> (f64, f64) {
        (m.a.eval(0.0, slots, &self.funcs), m.b.eval(0.0, slots, &self.funcs))
    }

    /// A tangent's x: its parameter's value.
    fn at(&self, m: &Mark) -> f64 {
        self.params.get(m.p).map_or(f64::NAN, |p| p.value)
    }

    /// The parameter moved by tangent point `tN` (N: the mark's index).
    fn tangent(&self, target: &str) -> Option<usize> {
        let m = self.marks.get(target.strip_prefix('t').and_then(parse_index)?)?;
        (m.kind == Kind::Tangent).then_some(m.p)
    }

    /// Step of the numerical slopes.
    fn h(&self) -> f64 {
        (self.x.1 - self.x.0) * 1e-6
    }

    fn call(&self, f: usize, t: f64, slots: &[f64]) -> f64 {
        match (self.funcs.get(f), self.funcs.get(..f)) {
            (Some(p), Some(before)) => p.eval(t, slots, before),
            _ => f64::NAN,
        }
    }

    fn sx(&self, x: f64) -> f64 {
        LEFT + (x - self.x.0) / (self.x.1 - self.x.0) * (RIGHT - LEFT)
    }

    fn sy(&self, y: f64) -> f64 {
        BOTTOM - (y - self.y.0) / (self.y.1 - self.y.0) * (BOTTOM - TOP)
    }

    fn window(&self, x: (f64, f64)) -> Window {
        let width = (self.sx(x.1) - self.sx(x.0)).max(1e-9);
        Window {
            x,
            y: self.y,
            width,
            height: BOTTOM - TOP,
        }
    }

    /// A readout's value: exact digits, "undefined" (NaN) or "overflow" (±∞).
    fn value_text(out: &mut String, v: f64, decimals: usize) {
        put!(out; m(v, decimals));
    }

    fn drawing(&self, id: &str, slots: &[f64]) -> String {
        let mut out = String::new();
        put!(out;
            "<svg class=\"mc-w-svg mc-w-plot-svg\" viewBox=\"0 0 320 212\" role=\"group\" aria-labelledby=\""
            s(id) "-svg-title\"><title id=\"" s(id) "-svg-title\">" s(&self.title)
        );
        put!(out;
            "</title><defs><clipPath id=\"" s(id)
            "-clip\"><rect x=\"38\" y=\"8\" width=\"274\" height=\"180\"/></clipPath></defs>"
            s(&self.axes) "<g clip-path=\"url(#" s(id) "-clip)\">"
        );
        let eval = |p: &Program| p.eval(0.0, slots, &self.funcs);
        // Areas under the curves, then the curves, lines and tangents, all clipped.
        for pass in [Kind::Area, Kind::Curve, Kind::VLine, Kind::Tangent, Kind::Point] {
            for (i, m) in self.marks.iter().enumerate() {
                let line = pass == Kind::VLine && m.kind == Kind::HLine;
                if m.kind != pass && !line {
                    continue;
                }
                let f = |t: f64| self.call(m.f, t, slots);
                match m.kind {
                    Kind::Area => self.area(&mut out, m, slots),
                    Kind::Curve => self.curve(&mut out, i, m, slots),
                    Kind::VLine | Kind::HLine => {
                        let v = eval(&m.a);
                        if !v.is_finite() {
                            continue;
                        }
                        let (x, y) = (self.sx(v), self.sy(v));
                        let vertical = m.kind == Kind::VLine;
                        let (x1, y1, x2, y2) = if vertical { (x, TOP, x, BOTTOM) } else { (LEFT, y, RIGHT, y) };
                        el(&mut out, "<line class=\"mc-w-plot-line\"", &[("x1", x1), ("y1", y1), ("x2", x2), ("y2", y2)], "/>");
                        let at = if vertical { (x + 3.0, TOP + 10.0) } else { (RIGHT - 3.0, y - 4.0) };
                        label(&mut out, at, if vertical { Anchor::Start } else { Anchor::End }, &m.label);
                    }
                    Kind::Point => {
                        let (cx, cy) = (self.sx(eval(&m.a)), self.sy(eval(&m.b)));
                        if cx.is_finite() && cy.is_finite() {
                            el(&mut out, "<circle class=\"mc-w-plot-point\" r=\"3.5\"", &[("cx", cx), ("cy", cy)], "/>");
                            label(&mut out, (cx + 5.0, cy - 5.0), Anchor::Start, &m.label);
                        }
                    }
                    _ => {
                        let (a, fa) = (self.at(m), f(self.at(m)));
                        let k = core_plot::slope(&f, a, self.h());
                        if !(fa.is_finite() && k.is_finite()) {
                            continue;
                        }
                        let half = (self.x.1 - self.x.0) / 5.0;
                        el(&mut out, "<line class=\"mc-w-plot-tangent\"", &[("x1", self.sx(a - half)), ("y1", self.sy(fa - half * k)), ("x2", self.sx(a + half)), ("y2", self.sy(fa + half * k))], "/>");
                    }
                }
            }
        }
        put!(out; "</g>");
        self.handles(&mut out, slots);
        put!(out; "</svg>");
        out
    }

    /// The area under mark `m`'s curve between its ends (nothing when they hold no part
    /// of the window).
    fn area(&self, out: &mut String, m: &Mark, slots: &[f64]) {
        let f = |t: f64| self.call(m.f, t, slots);
        let (a, b) = self.ends(m, slots);
        let (lo, hi) = (a.min(b).max(self.x.0), a.max(b).min(self.x.1));
        if lo.is_nan() || hi.is_nan() || lo >= hi {
            return;
        }
        let base = self.sy(clamp(0.0, self.y.0, self.y.1));
        put!(out; "<path class=\"mc-w-plot-area\" d=\"");
        for run in core_plot::sample(&f, &self.window((lo, hi))) {
            if let (Some(s), Some(e)) = (run.first(), run.last()) {
                pt(out, "M", self.sx(s.0), base);
                for &(x, y) in &run {
                    pt(out, "L", self.sx(x), self.sy(y));
                }
                pt(out, "L", self.sx(e.0), base);
                put!(out; "Z");
            }
        }
        put!(out; "\"/>");
    }

    /// Curve mark `m` (the `i`-th mark), sampled across the window (nothing when hidden).
    fn curve(&self, out: &mut String, i: usize, m: &Mark, slots: &[f64]) {
        if m.style == 3 {
            return;
        }
        let f = |t: f64| self.call(m.f, t, slots);
        put!(out; "<path class=\"mc-w-plot-curve mc-w-plot-c" u(i % 4));
        if m.style > 0 {
            put!(out;
                " mc-w-plot-" s(STYLES.get(m.style).copied().unwrap_or("solid"))
            );
        }
        put!(out; "\" data-curve=\"" u(i) "\" d=\"");
        for run in core_plot::sample(&f, &self.window(self.x)) {
            for (k, &(x, y)) in run.iter().enumerate() {
                pt(out, if k == 0 { "M" } else { "L" }, self.sx(x), self.sy(y));
            }
        }
        put!(out; "\"/>");
    }

    /// The tangents' draggable points, after the clipped group (on top of every mark).
    fn handles(&self, out: &mut String, slots: &[f64]) {
        for (i, m) in self.marks.iter().enumerate() {
            if m.kind == Kind::Tangent {
                let Some(p) = self.params.get(m.p) else { continue };
                let fa = self.call(m.f, p.value, slots);
                let cy = if fa.is_finite() { clamp(self.sy(fa), TOP, BOTTOM) } else { BOTTOM };
                let what = if m.label.is_empty() { "Tangent point" } else { m.label.as_str() };
                el(out, "<circle class=\"mc-w-handle mc-w-plot-handle\" r=\"6\"", &[("cx", self.sx(p.value)), ("cy", cy)], " tabindex=\"0\" role=\"slider\" data-drag=\"t");
                put!(out;
                    u(i) "\" data-key=\"t" u(i) "\" aria-label=\"" e(what)
                    ": drag it, or use the arrow keys\" aria-valuemin=\"" g(p.min)
                    "\" aria-valuemax=\"" g(p.max) "\" aria-valuenow=\"" g(p.value)
                    "\" aria-valuetext=\"" e(&p.name) " = " m(p.value, p.decimals) "\"/>"
                );
            }
        }
    }

    /// The grid, axes and tick labels, fixed by the window: computed once at build time
    /// and carried in the live form, so the bundle needs no tick arithmetic.
    #[cfg(not(target_arch = "wasm32"))]
    fn axes(&self) -> String {
        use crate::svg::{open_label, LABEL_END};
        let out = &mut String::new();
        let xs = core_plot::nice_step(self.x.1 - self.x.0, 7.0);
        let ys = core_plot::nice_step(self.y.1 - self.y.0, 5.0);
        let ticks = |(lo, hi): (f64, f64), step: f64| {
            let mut v = Vec::new();
            let mut k = (lo / step).ceil();
            while k * step <= hi + step * 1e-9 && v.len() < 30 {
                v.push(k * step + 0.0);
                k += 1.0;
            }
            v
        };
        let (xt, yt) = (ticks(self.x, xs), ticks(self.y, ys));
        put!(out; "<path class=\"mc-w-grid\" d=\"");
        for &x in &xt {
            pt(out, "M", self.sx(x), TOP);
            put!(out; "V" c(BOTTOM));
        }
        for &y in &yt {
            pt(out, "M", LEFT, self.sy(y));
            put!(out; "H" c(RIGHT));
        }
        put!(out; "\"/><path class=\"mc-w-axis\" d=\"");
        let y0 = if self.y.0 <= 0.0 && 0.0 <= self.y.1 { self.sy(0.0) } else { BOTTOM };
        let x0 = if self.x.0 <= 0.0 && 0.0 <= self.x.1 { self.sx(0.0) } else { LEFT };
        put!(out;
            "M" c(LEFT) " " c(y0) "H" c(RIGHT) "M" c(x0) " " c(TOP) "V" c(BOTTOM)
            "\"/><g class=\"mc-w-tick-label\" font-size=\"9\">"
        );
        let (dx, dy) = (decimals_of(xs), decimals_of(ys));
        for &x in &xt {
            open_label(out, "", "", (self.sx(x), BOTTOM + 12.0), Anchor::Middle);
            put!(out; m(x, dx) s(LABEL_END));
        }
        for &y in &yt {
            open_label(out, "", "", (LEFT - 4.0, self.sy(y) + 3.0), Anchor::End);
            put!(out; m(y, dy) s(LABEL_END));
        }
        let x_label = if self.labels.0.is_empty() { "x" } else { self.labels.0.as_str() };
        push_label(out, "mc-w-axis-label", "", (RIGHT, BOTTOM + 22.0), Anchor::End, x_label);
        if !self.labels.1.is_empty() {
            // Along the left edge, read bottom to top.
            let at = (-(TOP + BOTTOM) / 2.0, 9.0);
            push_label(out, "mc-w-axis-label", " transform=\"rotate(-90)\"", at, Anchor::Middle, &self.labels.1);
        }
        put!(out; "</g>");
        core::mem::take(out)
    }

    /// The legend: one entry per labelled, visible curve (fixed, as [`Plot::axes`]).
    #[cfg(not(target_arch = "wasm32"))]
    fn legend(&self) -> String {
        let mut out = String::new();
        let labelled: Vec<_> = self.marks.iter().enumerate().filter(|(_, m)| m.kind == Kind::Curve && m.style != 3 && !m.label.is_empty()).collect();
        if !labelled.is_empty() {
            put!(out; "<ul class=\"mc-w-plot-legend\">");
            for (i, m) in labelled {
                put!(out; "<li><span class=\"mc-w-plot-key mc-w-plot-c" u(i % 4));
                if m.style > 0 {
                    put!(out; " mc-w-plot-" s(STYLES.get(m.style).copied().unwrap_or("solid")));
                }
                put!(out; "\" aria-hidden=\"true\"></span>" e(&m.label) "</li>");
            }
            put!(out; "</ul>");
        }
        out
    }

    /// The start of the picture's title: what it plots, over which x (fixed).
    #[cfg(not(target_arch = "wasm32"))]
    fn title(&self) -> String {
        let mut out = String::from("Plot");
        let mut first = true;
        for m in &self.marks {
            if m.kind == Kind::Curve && m.style != 3 && !m.label.is_empty() {
                put!(out; s(if first { " of " } else { ", " }) e(&m.label));
                first = false;
            }
        }
        let var = if self.labels.0.is_empty() { "x" } else { self.labels.0.as_str() };
        put!(out; " for " e(var) " from " m(self.x.0, 2) " to " m(self.x.1, 2));
        out
    }
}

impl Widget for Plot {
    const NAME: &'static str = "plot";
    const SUMMARY: &'static str = "Curves written as expressions, with a slider per parameter, points, lines, shaded areas, draggable tangents and live readouts.";
    const PARAMS: &'static [(&'static str, &'static str, &'static str)] = &[
        ("x", "[min, max], default [-5, 5]", "the x window"),
        ("y", "[min, max], optional", "the y window; when left out, one that holds the drawn curves over the sliders' whole ranges"),
        ("labels", "{x: text, y: text}, optional", "axis labels; by default the curves' variable on x, and f(θ) on y for a single named curve"),
        ("params", "map name → {value, range: [min, max], step, label}", "one slider each; the name is usable in every expression"),
        ("curves", "list of `expr`, `name(x) = expr` or {expr, style, label}", "curves of x; a named curve can be called by later ones; style solid, dashed, dotted or hidden"),
        ("points", "list of [x, y] or {at: [x, y], label}", "points; coordinates are expressions"),
        ("lines", "list of `x = expr`, `y = expr` or {x|y: expr, label}", "vertical and horizontal lines"),
        ("areas", "list of {curve, from, to, name, label}", "shaded area under a named curve; `name` holds its value for readouts"),
        ("tangents", "list of {curve, at, name, label}", "tangent at x = parameter `at` (a draggable point); `name` holds its slope"),
        ("readouts", "list of text with {expr} or {expr:.N}", "live values, N decimals (default 2)"),
    ];

    fn from_params(params: &Params) -> Result<Self, ParamError> {
        #[cfg(target_arch = "wasm32")]
        {
            Plot::from_live(params)
        }
        #[cfg(not(target_arch = "wasm32"))]
        {
            let (mut live, warnings) = author::compile(params)?;
            let draft = Plot::from_live(&Params::new(live.clone()))?;
            live.push(("axes".into(), Value::Text(draft.axes())));
            live.push(("legend".into(), Value::Text(draft.legend())));
            live.push(("title".into(), Value::Text(draft.title())));
            let mut plot = Plot::from_live(&Params::new(live))?;
            plot.warnings = warnings;
            Ok(plot)
        }
    }

    fn render(&self, id: &str) -> String {
        let id = esc(id);
        let slots = self.slots();
        let mut out = String::from("<div class=\"mc-w-plot\">");
        out.push_str(&self.drawing(&id, &slots));
        put!(out; "<div class=\"mc-w-side\">");
        put!(out; s(&self.legend));
        if !self.readouts.is_empty() {
            put!(out;
                "<ul class=\"mc-w-plot-readouts\" id=\"" s(&id) "-readouts\" aria-live=\"polite\">"
            );
            for (i, pieces) in self.readouts.iter().enumerate() {
                put!(out; "<li data-value=\"r" u(i) "\">");
                for piece in pieces {
                    match piece {
                        Piece::Text(t) => {
                            put!(out; e(t));
                        }
                        Piece::Value(p, d) => {
                            Plot::value_text(&mut out, p.eval(0.0, &slots, &self.funcs), *d)
                        }
                    }
                }
                put!(out; "</li>");
            }
            put!(out; "</ul>");
        }
        if !self.params.is_empty() {
            put!(out; "<fieldset class=\"mc-w-controls\"><legend>Parameters</legend>");
            for (i, p) in self.params.iter().enumerate() {
                let name = esc(&p.name);
                let value = text!(m(p.value, p.decimals));
                let mut target = String::new();
                put!(target; s(&id) "-" s(&name));
                put!(out;
                    "<label class=\"mc-w-control\" for=\"" s(&target)
                    "\"><span class=\"mc-w-control-label\">" e(&p.label)
                    "</span><input type=\"range\" id=\"" s(&target) "\" name=\"" s(&name)
                    "\" min=\"" g(p.min) "\" max=\"" g(p.max) "\" step=\"" g(p.step) "\" value=\""
                    g(p.value) "\" data-key=\"p" u(i) "\" aria-valuetext=\"" s(&name) " = "
                    s(&value) "\"><output class=\"mc-w-control-value\" for=\"" s(&target)
                    "\" data-value=\"p" u(i) "\">" s(&value) "</output></label>"
                );
            }
            put!(out; "</fieldset>");
        }
        put!(out; "</div></div>");
        out
    }

    fn update(&mut self, event: &Event) -> bool {
        match *event {
            Event::Input { control, value } => {
                let Some(v) = crate::fmt::input_num(value) else { return false };
                match self.params.iter_mut().find(|p| p.name == control) {
                    Some(p) => p.set(v),
                    None => false,
                }
            }
            Event::Key { target, key, shift } => {
                let param = if let Some(i) = target.strip_prefix('p').and_then(parse_index) {
                    Some(i)
                } else {
                    self.tangent(target)
                };
                match param.and_then(|i| self.params.get_mut(i)) {
                    Some(p) => p.key(key, shift),
                    None => false,
                }
            }
            Event::Drag { target, x, phase, .. } => {
                if phase == DragPhase::End {
                    return false;
                }
                let Some(param) = self.tangent(target) else {
                    return false;
                };
                let data_x = self.x.0 + (x - LEFT) / (RIGHT - LEFT) * (self.x.1 - self.x.0);
                match self.params.get_mut(param) {
                    Some(p) => p.set(data_x),
                    None => false,
                }
            }
            Event::Action { .. } | Event::Hover { .. } => false,
        }
    }

    #[cfg(not(target_arch = "wasm32"))]
    fn live_params(&self) -> Option<Params> {
        Some(self.live.clone())
    }

    #[cfg(not(target_arch = "wasm32"))]
    fn warnings(&self) -> Vec<ParamError> {
        self.warnings.clone()
    }
}

#[cfg(test)]
mod tests;
