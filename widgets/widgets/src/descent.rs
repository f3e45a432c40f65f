//! What the two gradient-descent widgets (`gd-1d`, `gd-2d`) share: the step / run /
//! reset buttons and their actions, the two snapped sliders that restart the descent,
//! and the drawn trajectory (polyline plus dots).

use crate::fmt::clamp;
use crate::put;
use crate::svg::{push_button, push_slider};
use crate::Event;

/// Steps taken by the "Run" button.
pub const RUN_STEPS: usize = 20;

/// A descent the reader steps through.
pub trait Descent {
    /// Takes up to `n` more steps (none once it diverged or hit the step limit).
    fn step(&mut self, n: usize);
    /// Back to the start point, no steps.
    fn reset(&mut self);
    /// The two slider parameters (learning rate first), as mutable fields.
    fn knobs(&mut self) -> [&mut f64; 2];
    /// (name, snap step, (min, max)) of the two sliders, in the order of [`Descent::knobs`].
    fn knob_specs(&self) -> [(&'static str, f64, (f64, f64)); 2];
}

/// `x` clamped to `[lo, hi]` and snapped to the grid of `step`, without float noise such
/// as 0.30000000000000004.
pub fn snap(x: f64, step: f64, (lo, hi): (f64, f64)) -> f64 {
    let v = clamp((clamp(x, lo, hi) / step).round() * step, lo, hi);
    (v * 1e6).round() / 1e6 + 0.0
}

/// Applies a slider input or a step / run / reset action; `None` when the event is not
/// one of them (the caller compares its state to tell whether anything changed).
pub fn apply(w: &mut impl Descent, event: &Event) -> Option<()> {
    match *event {
        Event::Input { control, value } => {
            let v = crate::fmt::input_num(value)?;
            let specs = w.knob_specs();
            let k = specs.iter().position(|s| s.0 == control)?;
            let (_, step, range) = specs[k];
            let new = snap(v, step, range);
            let knob = w.knobs().into_iter().nth(k)?;
            if *knob != new {
                *knob = new;
                w.reset();
            }
        }
        Event::Action { action } => match action {
            "step" => w.step(1),
            "run" => w.step(RUN_STEPS),
            "reset" => w.reset(),
            _ => return None,
        },
        Event::Key { .. } | Event::Drag { .. } | Event::Hover { .. } => return None,
    }
    Some(())
}

/// The settings fieldset: two sliders (label, shown decimals, slider step and max for
/// each; the values come from `values`), the three buttons and a note.
pub fn controls(
    out: &mut String,
    id: &str,
    specs: [(&str, &str, usize, f64, f64, f64); 2],
    values: [f64; 2],
    note: &str,
) {
    put!(out; "<fieldset class=\"mc-w-controls\"><legend>Descent settings</legend>");
    for ((name, label, decimals, min, max, step), value) in specs.into_iter().zip(values) {
        let mut shown = String::new();
        put!(shown; n(value, decimals));
        push_slider(out, id, name, label, (value, min, max, step), &shown);
    }
    put!(out; "<div class=\"mc-w-buttons\">");
    push_button(out, "step", "Step");
    put!(out;
        "<button type=\"button\" class=\"mc-w-button\" data-action=\"run\">Run " u(RUN_STEPS)
        " steps</button>"
    );
    push_button(out, "reset", "Reset");
    put!(out; "</div><p class=\"mc-w-note\">" s(note) "</p></fieldset>");
}

/// The path through `pts` (SVG coordinates) as a polyline, then a dot of radius `r` at
/// each point; the first dot is marked as the start when `from_start`.
pub fn trajectory(out: &mut String, pts: &[(f64, f64)], from_start: bool, r: &str) {
    if pts.len() > 1 {
        put!(out; "<polyline class=\"mc-w-gd-path\" fill=\"none\" points=\"");
        for (i, &(x, y)) in pts.iter().enumerate() {
            if i > 0 {
                put!(out; " ");
            }
            put!(out; c(x) "," c(y));
        }
        put!(out; "\"/>");
    }
    for (i, &(x, y)) in pts.iter().enumerate() {
        put!(out;
            s(if i == 0 && from_start { "<circle class=\"mc-w-gd-dot mc-w-gd-start\" cx=\"" } else { "<circle class=\"mc-w-gd-dot\" cx=\"" })
            c(x) "\" cy=\"" c(y) "\" r=\"" s(r) "\"/>"
        );
    }
}
