//! Widget 3 — softmax and temperature: editable scores (logits) of labelled tokens, a
//! temperature slider, probability bars with the percentage written on each, the
//! entropy in bits, the loss −ln p of a chosen true token, the argmax limit as T → 0 and
//! a seeded "Sample" button that draws tokens and tallies them.
//!
//! Markup: number inputs `score-k` (0-based k, −10 to 10); a range input `temperature`
//! whose value is an index into [`TEMPERATURES`] (log-ish steps from 0.05 to 5, with
//! `aria-valuetext` giving T); a `<select name="true-token">` (values 0-based); buttons
//! `sample`, `sample-10` and `reset-draws`.
//!
//! `data-value` names: `p-k` (percentage of token k), `temperature`, `entropy` (bits),
//! `max-entropy`, `p-true`, `loss` (nats), `argmax` (label of the T → 0 winner),
//! `draws` (number of draws), `count-k` (draws of token k), `last-draw` (label).
//!
//! CSS classes used (besides the shared `mc-w-controls`, `mc-w-control`,
//! `mc-w-control-label`, `mc-w-control-value`, `mc-w-button`, `mc-w-readouts`,
//! `mc-w-note`):
//! - `mc-w-softmax` — the widget's root.
//! - `mc-w-bars` (a `<ul>`) of `mc-w-bar-row` (`<li>`); a row also gets `mc-w-bar-true`
//!   for the true token and `mc-w-bar-top` for the most probable one.
//! - `mc-w-bar-label` — the token's name (`mc-w-bar-name`, underlined for the true
//!   token) and its `mc-w-tag`s, the "true" / "top" words next to it.
//! - `mc-w-bar-track` — the bar's full-width track; `mc-w-bar` — the filled part (its
//!   width is an inline `style="width:…%"`); `mc-w-bar-value` — the percentage text.
//! - `mc-w-scores` — the grid of score inputs.
//! - `mc-w-buttons` — the row of buttons.
//! - `mc-w-tally` — the list of draw counts.


use core::f64::consts::LN_2;
use crate::{put, text};

use mathcourse_core::rng::Rng;
use mathcourse_core::{info, softmax};

use crate::svg::{esc, field_note, num, push_button, push_field_note};
use crate::fmt::clamp;
use crate::{Event, ParamError, Params, Widget};

/// The temperatures the slider steps through (log-ish spacing).
pub const TEMPERATURES: [f64; 20] = [
    0.05, 0.1, 0.15, 0.2, 0.25, 0.3, 0.4, 0.5, 0.6, 0.7, 0.8, 0.9, 1.0, 1.25, 1.5, 2.0, 2.5, 3.0,
    4.0, 5.0,
];
/// Scores are limited to this magnitude.
const SCORE_MAX: f64 = 10.0;
/// Fewest and most scores.
const MIN_TOKENS: usize = 2;
const MAX_TOKENS: usize = 8;

/// State: scores, labels, temperature, the true token and the sampling tally.
#[derive(Debug, Clone, PartialEq)]
pub struct Softmax {
    /// The scores (logits).
    pub scores: Vec<f64>,
    /// One label per score.
    pub labels: Vec<String>,
    /// The temperature T.
    pub temperature: f64,
    /// Index of the true token (for the loss).
    pub true_token: usize,
    /// Draws per token since the distribution last changed.
    pub counts: Vec<u64>,
    /// The most recent draw.
    pub last_draw: Option<usize>,
    /// What became of the last score typed, when it was not used as typed: the score's
    /// index and the reason ("at most 10: 10 is used"), shown next to its field.
    pub note: Option<(usize, String)>,
    seed: u64,
    rng: Rng,
}

/// Index of the slider stop nearest to `t` (on a log scale).
fn nearest_stop(t: f64) -> usize {
    let mut best = (0, f64::INFINITY);
    for (i, s) in TEMPERATURES.iter().enumerate() {
        let gap = (s.ln() - t.ln()).abs();
        if gap < best.1 {
            best = (i, gap);
        }
    }
    best.0
}

/// A probability as a percentage with one decimal.
fn percent(p: f64) -> String {
    text!(n(100.0 * p, 1) "%")
}

/// A probability for the loss formula: three decimals, or "< 0.001" for tiny ones.
fn prob_text(p: f64) -> String {
    if p < 0.0005 {
        "&lt; 0.001".to_string()
    } else {
        num(p, 3)
    }
}

/// A number with a true minus sign.
fn signed(x: f64, decimals: usize) -> String {
    text!(m(x, decimals))
}

fn letter_labels(n: usize) -> Vec<String> {
    (0..n)
        .map(|i| char::from(b'A' + i as u8).to_string())
        .collect()
}

impl Softmax {
    /// Probabilities at the current temperature.
    pub fn probabilities(&self) -> Vec<f64> {
        softmax::softmax_with_temperature(&self.scores, self.temperature).unwrap_or_default()
    }

    /// Indices of the largest score (several on ties).
    fn winners(&self) -> Vec<usize> {
        let Some(best) = softmax::argmax(&self.scores) else {
            return Vec::new();
        };
        let top = self.scores[best];
        (0..self.scores.len())
            .filter(|&i| self.scores[i] == top)
            .collect()
    }

    fn label(&self, i: usize) -> String {
        esc(self.labels.get(i).map_or("?", String::as_str))
    }

    fn distribution_changed(&mut self) {
        self.counts = vec![0; self.scores.len()];
        self.last_draw = None;
    }

    fn sample(&mut self, times: usize) {
        let p = self.probabilities();
        for _ in 0..times {
            if let Some(i) = self.rng.sample_index(&p) {
                if let Some(c) = self.counts.get_mut(i) {
                    *c += 1;
                }
                self.last_draw = Some(i);
            }
        }
    }

    fn bars(&self, p: &[f64]) -> String {
        let winners = self.winners();
        let mut out = text!(
            "<ul class=\"mc-w-bars\" aria-label=\"Probabilities at temperature "
            n(self.temperature, 2) "\">"
        );
        for (i, pi) in p.iter().enumerate() {
            let mut class = String::from("mc-w-bar-row");
            let mut tags = String::new();
            if i == self.true_token {
                class.push_str(" mc-w-bar-true");
                tags.push_str(" <span class=\"mc-w-tag\">true</span>");
            }
            if winners.contains(&i) {
                class.push_str(" mc-w-bar-top");
                tags.push_str(" <span class=\"mc-w-tag\">top</span>");
            }
            put!(out;
                "<li class=\"" p(class)
                "\"><span class=\"mc-w-bar-label\"><span class=\"mc-w-bar-name\">" p(self.label(i))
                "</span>" p(tags) "</span>"
                "<span class=\"mc-w-bar-track\" aria-hidden=\"true\"><span class=\"mc-w-bar\" style=\"width:"
                c(100.0 * pi) "%\"></span></span>" "<span class=\"mc-w-bar-value\" data-value=\"p-"
                p(i) "\">" p(percent(*pi)) "</span></li>"
            );
        }
        out.push_str("</ul>");
        out
    }

    fn readouts(&self, id: &str, p: &[f64]) -> String {
        let n = self.scores.len();
        let mut out =
            text!("<dl class=\"mc-w-readouts\" id=\"" p(id) "-readouts\" aria-live=\"polite\">");
        put!(out;
            "<div><dt>Temperature</dt><dd>T = <strong data-value=\"temperature\">"
            n(self.temperature, 2) "</strong></dd></div>"
        );
        let entropy = info::entropy_bits(p).map_or("undefined".to_string(), |h| num(h, 2));
        put!(out;
            "<div><dt>Entropy</dt><dd><strong data-value=\"entropy\">" p(entropy) "</strong> bits "
            "<span class=\"mc-w-note\">(0 = certain; at most log₂ " p(n)
            " = <span data-value=\"max-entropy\">" n((n as f64).ln() / LN_2, 2)
            "</span> when all are equal)</span></dd></div>"
        );
        let p_true = p.get(self.true_token).copied().unwrap_or(0.0);
        let loss = info::surprise_nats(p_true).map_or("∞".to_string(), |l| num(l, 3));
        put!(out;
            "<div><dt>Loss if the true token is " p(self.label(self.true_token)) "</dt><dd>−ln p("
            p(self.label(self.true_token)) ") = −ln <span data-value=\"p-true\">"
            p(prob_text(p_true)) "</span> = " "<strong data-value=\"loss\">" p(loss)
            "</strong> nats</dd></div>"
        );
        let winners = self.winners();
        out.push_str("<div><dt>As T → 0</dt><dd>");
        match winners.as_slice() {
            [w] => {
                put!(out;
                    "all the probability goes to <strong data-value=\"argmax\">" p(self.label(*w))
                    "</strong>, the largest score (" p(signed(self.scores[*w], 2)) "); " "it has "
                    p(percent(p[*w])) " now."
                );
            }
            ws => {
                put!(out;
                    "the probability is split equally between the tied largest scores <strong data-value=\"argmax\">"
                );
                for (k, &i) in ws.iter().enumerate() {
                    put!(out; s(if k == 0 { "" } else { ", " }) p(self.label(i)));
                }
                put!(out; "</strong> " "(" p(percent(1.0 / ws.len().max(1) as f64)) " each).");
            }
        }
        if self.temperature <= TEMPERATURES[0] {
            out.push_str(
                " <span class=\"mc-w-note\">T is at its minimum (0.05): this is already close to that limit, \
where softmax becomes a plain argmax.</span>",
            );
        }
        out.push_str("</dd></div>");
        let total: u64 = self.counts.iter().sum();
        let last = self
            .last_draw
            .map_or("none yet".to_string(), |i| self.label(i));
        put!(out;
            "<div><dt>Draws</dt><dd>last draw: <strong data-value=\"last-draw\">" p(last)
            "</strong>; " "draws so far: <span data-value=\"draws\">" p(total)
            "</span> (<span class=\"mc-w-tally\">"
        );
        for (i, c) in self.counts.iter().enumerate() {
            if i > 0 {
                out.push_str(", ");
            }
            put!(out; p(self.label(i)) " <span data-value=\"count-" p(i) "\">" p(c) "</span>");
        }
        out.push_str(
            "</span>) <span class=\"mc-w-note\">(the tally restarts when the scores or T change)</span></dd></div></dl>",
        );
        out
    }

    /// Score `k` from the text typed into its field. The score used is the text
    /// limited to ±10 and rounded to one decimal (the field's step); when that is not
    /// the text as typed, or the text is not a number (the score stays), [`Softmax::note`]
    /// says so next to the field.
    fn set_score(&mut self, k: usize, value: &str) {
        let Some(&old) = self.scores.get(k) else {
            return;
        };
        let (z, why, kept) = match crate::fmt::input_num(value) {
            None if crate::fmt::trim(value).is_empty() => (old, "empty", true),
            None => (old, "not a number", true),
            Some(x) => {
                let z = ((clamp(x, -SCORE_MAX, SCORE_MAX) * 10.0).round() / 10.0) + 0.0;
                let why = if x > SCORE_MAX {
                    "at most 10"
                } else if x < -SCORE_MAX {
                    "at least −10"
                } else if z != x {
                    "one decimal"
                } else {
                    ""
                };
                (z, why, false)
            }
        };
        self.scores[k] = z;
        self.note = (!why.is_empty()).then(|| (k, field_note(why, z, kept)));
    }

    /// The temperature slider (a stop index) and the true-token select.
    fn set_other(&mut self, control: &str, x: f64) {
        if control == "temperature" {
            let k = clamp(x.round(), 0.0, (TEMPERATURES.len() - 1) as f64) as usize;
            self.temperature = TEMPERATURES[k];
        } else if control == "true-token" {
            let k = x.round();
            if k >= 0.0 && (k as usize) < self.scores.len() {
                self.true_token = k as usize;
            }
        }
    }

    fn controls(&self, id: &str) -> String {
        let mut out = String::from("<fieldset class=\"mc-w-controls\"><legend>Scores and temperature</legend><div class=\"mc-w-scores\">");
        for (i, z) in self.scores.iter().enumerate() {
            put!(out;
                "<label class=\"mc-w-control\" for=\"" p(id) "-score-" p(i)
                "\"><span class=\"mc-w-control-label\">Score of " p(self.label(i)) "</span>"
                "<input type=\"number\" id=\"" p(id) "-score-" p(i) "\" name=\"score-" p(i)
                "\" min=\"" c(-SCORE_MAX) "\" max=\"" c(SCORE_MAX) "\" step=\"0.1\" value=\"" c(*z)
                "\" inputmode=\"decimal\" aria-describedby=\"" p(id) "-score-" p(i)
                "-note\"></label>"
            );
            let note = match &self.note {
                Some((k, text)) if *k == i => text.as_str(),
                _ => "",
            };
            let mut name = String::from("score-");
            put!(name; u(i));
            push_field_note(&mut out, id, &name, note);
        }
        out.push_str("</div>");
        let stop = nearest_stop(self.temperature);
        put!(out;
            "<label class=\"mc-w-control\" for=\"" p(id)
            "-temperature\"><span class=\"mc-w-control-label\">Temperature T</span>"
            "<input type=\"range\" id=\"" p(id)
            "-temperature\" name=\"temperature\" min=\"0\" max=\"" p(TEMPERATURES.len() - 1)
            "\" step=\"1\" value=\"" p(stop) "\" " "aria-valuetext=\"T = " n(self.temperature, 2)
            "\"><output class=\"mc-w-control-value\" for=\"" p(id) "-temperature\">"
            n(self.temperature, 2) "</output></label>"
        );
        put!(out;
            "<label class=\"mc-w-control\" for=\"" p(id)
            "-true-token\"><span class=\"mc-w-control-label\">True token</span>" "<select id=\""
            p(id) "-true-token\" name=\"true-token\">"
        );
        for i in 0..self.scores.len() {
            let selected = if i == self.true_token {
                " selected"
            } else {
                ""
            };
            put!(out; "<option value=\"" p(i) "\"" p(selected) ">" p(self.label(i)) "</option>");
        }
        out.push_str("</select></label></fieldset>");
        out
    }
}

impl Widget for Softmax {
    const NAME: &'static str = "softmax";
    const SUMMARY: &'static str =
        "Softmax and temperature: editable scores of labelled tokens, probability bars, entropy, the loss of a true token, the T → 0 limit and seeded sampling.";
    const PARAMS: &'static [(&'static str, &'static str, &'static str)] = &[
        (
            "scores",
            "list of 2 to 8 numbers, default [2, 1, 0]",
            "the scores (logits); each between -10 and 10",
        ),
        (
            "labels",
            "list of texts, default A, B, C, …",
            "one label per score (e.g. next-token candidates); must have as many entries as scores",
        ),
        (
            "temperature",
            "number, default 1",
            "starting temperature, between 0.05 and 5",
        ),
        (
            "true-token",
            "whole number, default 0",
            "index (from 0) of the true token whose loss −ln p is shown",
        ),
        (
            "seed",
            "whole number, default 42",
            "seed for the Sample button; same seed, same draws",
        ),
    ];

    fn from_params(params: &Params) -> Result<Self, ParamError> {
        params.only(&["scores", "labels", "temperature", "true-token", "seed"])?;
        let scores = params.nums(
            "scores",
            &[2.0, 1.0, 0.0],
            (MIN_TOKENS, MAX_TOKENS),
            (-SCORE_MAX, SCORE_MAX),
        )?;
        let n = scores.len();
        let labels = params
            .labels_for("labels", (n, "scores", "score"), (MIN_TOKENS, MAX_TOKENS))?
            .unwrap_or_else(|| letter_labels(n));
        let temperature = params.num(
            "temperature",
            1.0,
            TEMPERATURES[0],
            TEMPERATURES[TEMPERATURES.len() - 1],
        )?;
        let true_token = params.int("true-token", 0, 0, n as i64 - 1)? as usize;
        let seed = params.int("seed", 42, 0, u32::MAX as i64)? as u64;
        Ok(Softmax {
            counts: vec![0; n],
            last_draw: None,
            note: None,
            scores,
            labels,
            temperature,
            true_token,
            seed,
            rng: Rng::new(seed),
        })
    }

    fn render(&self, id: &str) -> String {
        let id = esc(id);
        let p = self.probabilities();
        let mut out = String::from("<div class=\"mc-w-softmax\">");
        out.push_str(&self.bars(&p));
        out.push_str(&self.readouts(&id, &p));
        out.push_str(&self.controls(&id));
        out.push_str("<div class=\"mc-w-buttons\">");
        push_button(&mut out, "sample", "Sample");
        push_button(&mut out, "sample-10", "Sample 10");
        push_button(&mut out, "reset-draws", "Reset draws");
        out.push_str("</div></div>");
        out
    }

    fn update(&mut self, event: &Event) -> bool {
        let before = self.clone();
        match *event {
            Event::Input { control, value } => {
                if let Some(k) = control
                    .strip_prefix("score-")
                    .and_then(crate::fmt::parse_index)
                {
                    self.set_score(k, value);
                } else if let Some(x) = crate::fmt::input_num(value) {
                    self.set_other(control, x);
                }
                if self.scores != before.scores || self.temperature != before.temperature {
                    self.distribution_changed();
                }
            }
            Event::Action { action } => match action {
                "sample" => self.sample(1),
                "sample-10" => self.sample(10),
                "reset-draws" => {
                    self.rng = Rng::new(self.seed);
                    self.distribution_changed();
                }
                _ => {}
            },
            Event::Key { .. } | Event::Drag { .. } | Event::Hover { .. } => {}
        }
        *self != before
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::testkit::{input, action};
    use crate::testkit::value;
    #[allow(unused_imports)]
    use crate::svg::num;

    fn widget(json: &str) -> Softmax {
        crate::testkit::widget(json)
    }


    #[test]
    fn default_readouts_match_hand_calculation() {
        let html = widget("{}").render("s");
        // e² : e¹ : e⁰ = 7.389 : 2.718 : 1, total 11.107 → 0.665, 0.245, 0.090.
        assert_eq!(value(&html, "p-0"), "66.5%");
        assert_eq!(value(&html, "p-1"), "24.5%");
        assert_eq!(value(&html, "p-2"), "9.0%");
        // H = −Σ p log₂ p = 0.665·0.588 + 0.245·2.031 + 0.090·3.473 = 1.20 bits.
        assert_eq!(value(&html, "entropy"), "1.20");
        assert_eq!(value(&html, "max-entropy"), "1.58");
        // −ln 0.665 = 0.408.
        assert_eq!(value(&html, "p-true"), "0.665");
        assert_eq!(value(&html, "loss"), "0.408");
        assert_eq!(value(&html, "argmax"), "A");
        assert_eq!(value(&html, "temperature"), "1.00");
        assert_eq!(value(&html, "draws"), "0");
        assert_eq!(value(&html, "last-draw"), "none yet");
        assert!(html.contains("style=\"width:66.52%\""));
        assert!(html.contains("aria-live=\"polite\""));
        assert!(
            html.contains("aria-valuetext=\"T = 1.00\">"),
            "slider starts at T = 1"
        );
        assert!(html.contains("name=\"temperature\" min=\"0\" max=\"19\" step=\"1\" value=\"12\""));
        assert!(!html.contains("T is at its minimum"));
    }

    #[test]
    fn temperature_slider_sharpens_and_flattens() {
        let mut w = widget("{}");
        // Stop 7 is T = 0.5: softmax(4, 2, 0) = 0.867, 0.117, 0.016.
        assert!(input(&mut w, "temperature", "7"));
        let html = w.render("s");
        assert_eq!(value(&html, "temperature"), "0.50");
        assert_eq!(value(&html, "p-0"), "86.7%");
        assert_eq!(value(&html, "p-1"), "11.7%");
        assert_eq!(value(&html, "p-2"), "1.6%");
        assert_eq!(value(&html, "entropy"), "0.64");
        // Stop 15 is T = 2: softmax(1, 0.5, 0) = 0.506, 0.307, 0.186.
        assert!(input(&mut w, "temperature", "15"));
        let html = w.render("s");
        assert_eq!(value(&html, "p-0"), "50.6%");
        assert_eq!(value(&html, "p-2"), "18.6%");
        assert_eq!(value(&html, "entropy"), "1.47");
        // The minimum: one-hot in practice, with a note.
        assert!(input(&mut w, "temperature", "0"));
        let html = w.render("s");
        assert_eq!(value(&html, "p-0"), "100.0%");
        assert_eq!(value(&html, "entropy"), "0.00");
        assert!(html.contains("T is at its minimum"));
        assert!(
            !input(&mut w, "temperature", "-3"),
            "clamped to stop 0"
        );
        assert!(!input(&mut w, "temperature", "hot"));
    }

    #[test]
    fn scores_and_true_token_inputs() {
        let mut w = widget("{}");
        assert!(input(&mut w, "true-token", "2"));
        let html = w.render("s");
        // −ln 0.090 = 2.408.
        assert_eq!(value(&html, "loss"), "2.408");
        assert!(html.contains("<option value=\"2\" selected>C</option>"));
        assert!(!input(&mut w, "true-token", "3"));
        // Raise C's score to 3: softmax(2, 1, 3) = 0.245, 0.090, 0.665.
        assert!(input(&mut w, "score-2", "3"));
        let html = w.render("s");
        assert_eq!(value(&html, "p-2"), "66.5%");
        assert_eq!(value(&html, "argmax"), "C");
        assert_eq!(value(&html, "loss"), "0.408");
        // Out-of-range scores are clamped, and the note next to the field says so.
        input(&mut w, "score-0", "99");
        assert_eq!(w.scores[0], 10.0);
        let html = w.render("s");
        assert!(html.contains("<input type=\"number\" id=\"s-score-0\" name=\"score-0\" min=\"-10\" max=\"10\" step=\"0.1\" value=\"10\""));
        assert!(html.contains("aria-describedby=\"s-score-0-note\""));
        assert!(html.contains("<span class=\"mc-w-field-note\" id=\"s-score-0-note\" aria-live=\"polite\">at most 10: 10 is used</span>"), "{html}");
        assert!(html.contains("id=\"s-score-1-note\" aria-live=\"polite\"></span>"));
        input(&mut w, "score-1", "-12");
        assert_eq!(w.scores[1], -10.0);
        assert!(w.render("s").contains(">at least −10: −10 is used</span>"));
        assert!(!w.render("s").contains(">at most 10"), "one note at a time");
        // An emptied field keeps the score, and says so.
        assert!(input(&mut w, "score-1", ""));
        assert_eq!(w.scores[1], -10.0);
        assert!(w.render("s").contains(">empty: −10 is still used</span>"));
        input(&mut w, "score-1", "1.26");
        assert_eq!(w.scores[1], 1.3);
        assert!(w.render("s").contains(">one decimal: 1.3 is used</span>"));
        assert!(input(&mut w, "score-1", "1"));
        assert_eq!(w.note, None, "used as typed: no note");
        assert!(!w.render("s").contains("is used</span>"));
        input(&mut w, "score-0", "10");
        assert!(!input(&mut w, "score-7", "1"));
        // A tie splits the T → 0 limit.
        input(&mut w, "score-0", "3");
        let html = w.render("s");
        assert_eq!(value(&html, "argmax"), "A, C");
        assert!(html.contains("(50.0% each)"));
    }

    #[test]
    fn sampling_is_seeded_and_tallied() {
        let mut w1 = widget("{}");
        let mut w2 = widget("{}");
        assert!(action(&mut w1, "sample"));
        assert!(action(&mut w1, "sample-10"));
        action(&mut w2, "sample");
        action(&mut w2, "sample-10");
        assert_eq!(w1.counts, w2.counts);
        assert_eq!(w1.last_draw, w2.last_draw);
        assert_eq!(w1.counts.iter().sum::<u64>(), 11);
        // The same draws, replayed by hand from the same seed.
        let p = w1.probabilities();
        let mut rng = Rng::new(42);
        let mut counts = vec![0u64; 3];
        for _ in 0..11 {
            counts[rng.sample_index(&p).unwrap()] += 1;
        }
        assert_eq!(w1.counts, counts);
        let html = w1.render("s");
        assert_eq!(value(&html, "draws"), "11");
        assert_eq!(value(&html, "count-0"), counts[0].to_string());
        assert_ne!(value(&html, "last-draw"), "none yet");
        // Reset replays the seed; a different seed gives a different stream.
        assert!(action(&mut w1, "reset-draws"));
        assert_eq!(w1.counts, vec![0, 0, 0]);
        action(&mut w1, "sample-10");
        let mut w3 = widget(r#"{"seed":42}"#);
        action(&mut w3, "sample-10");
        assert_eq!(w1.counts, w3.counts);
        // Many draws follow the probabilities roughly.
        let mut w = widget(r#"{"seed":3}"#);
        for _ in 0..100 {
            action(&mut w, "sample-10");
        }
        let share = w.counts[0] as f64 / 1000.0;
        assert!((share - 0.665).abs() < 0.05, "{share}");
        // Changing the distribution clears the tally.
        input(&mut w, "temperature", "3");
        assert_eq!(w.counts, vec![0, 0, 0]);
        assert!(!action(&mut w, "nothing"));
    }

    #[test]
    fn labels_and_params() {
        let w = widget(
            r#"{"scores":[1,3,0.5,-1],"labels":["cat","dog","the","<b>"],"temperature":0.7,"true-token":1}"#,
        );
        let html = w.render("s");
        assert!(html.contains("&lt;b&gt;") && !html.contains("<b>"));
        assert_eq!(value(&html, "argmax"), "dog");
        assert_eq!(value(&html, "temperature"), "0.70");
        let z: [f64; 4] = [1.0, 3.0, 0.5, -1.0];
        let e: Vec<f64> = z.iter().map(|v| (v / 0.7).exp()).collect();
        let s: f64 = e.iter().sum();
        assert_eq!(value(&html, "loss"), num(-(e[1] / s).ln(), 3));
        assert_eq!(
            widget(r#"{"scores":[1,2,3,4,5]}"#).labels,
            vec!["A", "B", "C", "D", "E"]
        );
    }

    #[test]
    fn bad_params_name_the_parameter() {
        for (json, param) in [
            (r#"{"scores":[1]}"#, "scores"),
            (r#"{"scores":[1,2,3,4,5,6,7,8,9]}"#, "scores"),
            (r#"{"scores":[1,20]}"#, "scores"),
            (r#"{"labels":["a","b"]}"#, "labels"),
            (r#"{"scores":[1,2],"labels":["a","b","c"]}"#, "labels"),
            (r#"{"labels":["a"," ","c"]}"#, "labels"),
            (r#"{"temperature":0}"#, "temperature"),
            (r#"{"temperature":9}"#, "temperature"),
            (r#"{"true-token":3}"#, "true-token"),
            (r#"{"seed":1.5}"#, "seed"),
            (r#"{"temp":1}"#, "temp"),
        ] {
            let e = Softmax::from_params(&Params::from_json(json).unwrap()).unwrap_err();
            assert_eq!(e.param, param, "{json}: {e}");
        }
        let e = Softmax::from_params(&Params::from_json(r#"{"labels":["a","b"]}"#).unwrap())
            .unwrap_err();
        assert!(
            e.to_string().contains("has 2 entries but `scores` has 3"),
            "{e}"
        );
    }
}
