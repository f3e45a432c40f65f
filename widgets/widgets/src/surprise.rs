//! Widget 8 — cross-entropy as surprise: the probability a model gave to each token
//! that actually occurred (one slider per token), the surprise of each in bits and nats,
//! their average (the cross-entropy loss) and the perplexity 2^bits = e^nats.
//!
//! Markup: range inputs `p-k` (0-based k, 0.01 to 1 in steps of 0.005).
//!
//! `data-value` names: `p-k`, `bits-k`, `nats-k` (per token, in the table), `avg-bits`,
//! `avg-nats` (table footer), `ce-bits`, `ce-nats`, `perplexity`, `most-surprising`
//! (label) and `most-surprising-bits` (readouts).
//!
//! CSS classes used (besides the shared `mc-w-controls`, `mc-w-control`,
//! `mc-w-control-label`, `mc-w-control-value`, `mc-w-readouts`, `mc-w-note`):
//! - `mc-w-surprise` — the widget's root.
//! - `mc-w-sliders` — the group of probability sliders.
//! - `mc-w-table` — the per-token table (`<table>` with `<thead>`, `<tbody>`, `<tfoot>`);
//!   `mc-w-num` — its numeric cells (right-aligned, tabular figures).
//! - `mc-w-bar-cell` — the table cell holding a bar; `mc-w-bar-track` / `mc-w-bar` —
//!   a bar whose width (inline `style="width:…%"`) is the surprise in bits relative to
//!   the largest possible (−log₂ 0.01 ≈ 6.64 bits); the number is always written next
//!   to it.


use mathcourse_core::info;
use crate::{put, text};

use crate::svg::{esc, num, push_slider};
use crate::fmt::clamp;
use crate::{Event, ParamError, Params, Widget};

/// Smallest probability a slider allows.
const P_MIN: f64 = 0.01;
/// Step of the sliders: fine enough for 1/8 = 0.125 (3 bits), a value the book uses;
/// every probability an author gives must lie on this grid, so the slider can hold it.
const P_STEP: f64 = 0.005;
/// Most tokens.
const MAX_TOKENS: usize = 12;
/// The default tokens.
const DEFAULT_LABELS: [&str; 4] = ["The", "cat", "sat", "down"];

/// State: the probabilities given to the tokens that occurred, and their labels.
#[derive(Debug, Clone, PartialEq)]
pub struct Surprise {
    /// p of each actual token.
    pub probs: Vec<f64>,
    /// The tokens.
    pub labels: Vec<String>,
}

/// A probability as written: up to three decimals, trailing zeros trimmed.
fn prob_text(p: f64) -> String {
    let mut s = num(p, 3);
    crate::fmt::trim_zeros(&mut s);
    s
}

impl Surprise {
    fn label(&self, i: usize) -> String {
        esc(self.labels.get(i).map_or("?", String::as_str))
    }

    fn table(&self) -> String {
        let max_bits = info::surprise_bits(P_MIN).unwrap_or(1.0);
        let mut out = String::from(
            "<table class=\"mc-w-table\"><caption>Surprise at each token that occurred</caption>\
<thead><tr><th scope=\"col\">Token</th><th scope=\"col\">p</th><th scope=\"col\">bits (−log₂ p)</th>\
<th scope=\"col\">nats (−ln p)</th><th scope=\"col\"><span class=\"mc-w-note\">surprise</span></th></tr></thead><tbody>",
        );
        for (i, &p) in self.probs.iter().enumerate() {
            let bits = info::surprise_bits(p).unwrap_or(f64::NAN);
            let nats = info::surprise_nats(p).unwrap_or(f64::NAN);
            put!(out;
                "<tr><th scope=\"row\">" p(self.label(i))
                "</th><td class=\"mc-w-num\" data-value=\"p-" p(i) "\">" p(prob_text(p)) "</td>"
                "<td class=\"mc-w-num\" data-value=\"bits-" p(i) "\">" n(bits, 2)
                "</td><td class=\"mc-w-num\" data-value=\"nats-" p(i) "\">" n(nats, 2) "</td>"
                "<td class=\"mc-w-bar-cell\" aria-hidden=\"true\"><span class=\"mc-w-bar-track\"><span class=\"mc-w-bar\" style=\"width:"
                c(clamp(100.0 * bits / max_bits, 0.0, 100.0)) "%\"></span></span></td></tr>"
            );
        }
        let (ce_bits, ce_nats) = self.cross_entropy();
        put!(out;
            "</tbody><tfoot><tr><th scope=\"row\">Average</th><td></td><td class=\"mc-w-num\" data-value=\"avg-bits\">"
            n(ce_bits, 2) "</td>" "<td class=\"mc-w-num\" data-value=\"avg-nats\">" n(ce_nats, 2)
            "</td><td></td></tr></tfoot></table>"
        );
        out
    }

    /// Cross-entropy (mean surprise) in bits and in nats.
    pub fn cross_entropy(&self) -> (f64, f64) {
        (
            info::cross_entropy_bits(&self.probs).unwrap_or(f64::NAN),
            info::cross_entropy_nats(&self.probs).unwrap_or(f64::NAN),
        )
    }

    fn readouts(&self, id: &str) -> String {
        let (ce_bits, ce_nats) = self.cross_entropy();
        let ppl = info::perplexity(&self.probs).unwrap_or(f64::NAN);
        let mut out =
            text!("<dl class=\"mc-w-readouts\" id=\"" p(id) "-readouts\" aria-live=\"polite\">");
        put!(out;
            "<div><dt>Cross-entropy (average surprise)</dt><dd><strong data-value=\"ce-bits\">"
            n(ce_bits, 2) "</strong> bits = " "<strong data-value=\"ce-nats\">" n(ce_nats, 2)
            "</strong> nats per token</dd></div>" "<div><dt>Perplexity</dt><dd>2<sup>" n(ce_bits, 2)
            "</sup> = e<sup>" n(ce_nats, 2) "</sup> = <strong data-value=\"perplexity\">" n(ppl, 2)
            "</strong> " "<span class=\"mc-w-note\">(as unsure as choosing uniformly among about "
            n(ppl, 1) " options)</span></dd></div>"
        );
        // Most surprising token: the smallest probability (the first on ties).
        let worst =
            self.probs
                .iter()
                .enumerate()
                .fold(None, |best: Option<(usize, f64)>, (i, &p)| match best {
                    Some((_, b)) if p >= b => best,
                    _ => Some((i, p)),
                });
        if let Some((i, p)) = worst {
            put!(out;
                "<div><dt>Most surprising</dt><dd><strong data-value=\"most-surprising\">"
                p(self.label(i)) "</strong> " "(p = " p(prob_text(p))
                ", <span data-value=\"most-surprising-bits\">"
                n(info::surprise_bits(p).unwrap_or(f64::NAN), 2) "</span> bits)</dd></div>"
            );
        }
        out.push_str("</dl>");
        out
    }
}

impl Widget for Surprise {
    const NAME: &'static str = "surprise";
    const SUMMARY: &'static str =
        "Cross-entropy as surprise: the probability given to each actual token, its surprise in bits and nats, the average and the perplexity.";
    const PARAMS: &'static [(&'static str, &'static str, &'static str)] = &[
        ("probs", "list of 1 to 12 numbers, default [0.5, 0.25, 0.9, 0.1]", "probability the model gave to each token that occurred; each between 0.01 and 1, a multiple of 0.005 (the sliders' step)"),
        ("labels", "list of texts, default [The, cat, sat, down]", "the tokens, one per probability (default “token 1”, … when probs has other than 4 entries)"),
    ];

    fn from_params(params: &Params) -> Result<Self, ParamError> {
        params.only(&["probs", "labels"])?;
        let probs = params.nums(
            "probs",
            &[0.5, 0.25, 0.9, 0.1],
            (1, MAX_TOKENS),
            (P_MIN, 1.0),
        )?;
        if probs.iter().any(|p| ((p / P_STEP).round() * P_STEP - p).abs() > 1e-9) {
            return Err(ParamError::new(
                "probs",
                "each probability must be a multiple of 0.005, the sliders' step (0.125 is, 0.123 is not), so that a slider can hold it",
            ));
        }
        let n = probs.len();
        let labels = match params.labels_for("labels", (n, "probs", "probability"), (1, MAX_TOKENS))? {
            Some(labels) => labels,
            None if n == DEFAULT_LABELS.len() => DEFAULT_LABELS.iter().map(|s| s.to_string()).collect(),
            None => (1..=n).map(|i| {
                text!("token " p(i))
            }).collect(),
        };
        Ok(Surprise { probs, labels })
    }

    fn render(&self, id: &str) -> String {
        let id = esc(id);
        let mut out = String::from("<div class=\"mc-w-surprise\">");
        out.push_str("<fieldset class=\"mc-w-controls mc-w-sliders\"><legend>Probability the model gave to each token that occurred</legend>");
        for (i, &p) in self.probs.iter().enumerate() {
            push_slider(
                &mut out,
                &id,
                &text!("p-" p(i)),
                &text!("p(" p(self.label(i)) ")"),
                (p, P_MIN, 1.0, P_STEP),
                &prob_text(p),
            );
        }
        out.push_str("</fieldset>");
        out.push_str(&self.table());
        out.push_str(&self.readouts(&id));
        out.push_str("</div>");
        out
    }

    fn update(&mut self, event: &Event) -> bool {
        let Event::Input { control, value } = *event else {
            return false;
        };
        let Some(k) = control
            .strip_prefix("p-")
            .and_then(crate::fmt::parse_index)
        else {
            return false;
        };
        let Some(x) = crate::fmt::input_num(value) else {
            return false;
        };
        if !x.is_finite() {
            return false;
        }
        let Some(p) = self.probs.get_mut(k) else {
            return false;
        };
        // Snap to the slider's grid (avoids 0.30000000000000004) and keep it in range.
        let snapped = ((x / P_STEP).round() * P_STEP * 1000.0).round() / 1000.0;
        let snapped = clamp(snapped, P_MIN, 1.0);
        if *p == snapped {
            return false;
        }
        *p = snapped;
        true
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::testkit::{input, action};
    use crate::testkit::value;
    #[allow(unused_imports)]
    use crate::svg::num;

    fn widget(json: &str) -> Surprise {
        crate::testkit::widget(json)
    }


    #[test]
    fn default_readouts_match_hand_calculation() {
        let html = widget("{}").render("x");
        // −log₂ of 1/2, 1/4, 0.9, 1/10 = 1, 2, 0.152, 3.322 bits.
        for (i, want) in ["1.00", "2.00", "0.15", "3.32"].iter().enumerate() {
            assert_eq!(value(&html, &format!("bits-{i}")), *want);
        }
        // −ln: 0.693, 1.386, 0.105, 2.303 nats.
        for (i, want) in ["0.69", "1.39", "0.11", "2.30"].iter().enumerate() {
            assert_eq!(value(&html, &format!("nats-{i}")), *want);
        }
        // Mean bits (1 + 2 + 0.152 + 3.322)/4 = 1.618; nats = bits·ln 2 = 1.122; e^1.122 = 3.07.
        assert_eq!(value(&html, "avg-bits"), "1.62");
        assert_eq!(value(&html, "avg-nats"), "1.12");
        assert_eq!(value(&html, "ce-bits"), "1.62");
        assert_eq!(value(&html, "ce-nats"), "1.12");
        let independent = (0.5f64 * 0.25 * 0.9 * 0.1).powf(-0.25);
        assert_eq!(value(&html, "perplexity"), num(independent, 2));
        assert_eq!(value(&html, "perplexity"), "3.07");
        assert_eq!(value(&html, "most-surprising"), "down");
        assert_eq!(value(&html, "most-surprising-bits"), "3.32");
        assert!(html.contains("<th scope=\"row\">cat</th>"));
        assert_eq!(html.matches("type=\"range\"").count(), 4);
    }

    #[test]
    fn seed_example_three_tokens() {
        // Probabilities 0.5, 0.125, 0.25: surprises 1, 3, 2 bits, average 2 bits, perplexity 4.
        let html = widget(r#"{"probs":[0.5,0.125,0.25],"labels":["a","b","c"]}"#).render("x");
        assert_eq!(value(&html, "p-1"), "0.125");
        assert_eq!(value(&html, "bits-1"), "3.00");
        assert_eq!(value(&html, "nats-1"), "2.08");
        assert_eq!(value(&html, "avg-bits"), "2.00");
        assert_eq!(value(&html, "avg-nats"), "1.39");
        assert_eq!(value(&html, "perplexity"), "4.00");
    }

    #[test]
    fn sliders_change_probabilities() {
        let mut w = widget("{}");
        assert!(input(&mut w, "p-3", "1"));
        let html = w.render("x");
        assert_eq!(value(&html, "bits-3"), "0.00");
        assert_eq!(value(&html, "most-surprising"), "cat");
        // (1 + 2 + 0.152 + 0)/4 = 0.788 bits.
        assert_eq!(value(&html, "ce-bits"), "0.79");
        assert!(input(&mut w, "p-0", "0.3"));
        assert_eq!(w.probs[0], 0.3);
        assert!(
            input(&mut w, "p-0", "0"),
            "clamped to 0.01"
        );
        assert_eq!(w.probs[0], 0.01);
        assert_eq!(value(&w.render("x"), "bits-0"), "6.64");
        assert!(!input(&mut w, "p-0", "0.01"));
        assert!(input(&mut w, "p-0", "0.3049"));
        assert_eq!(w.probs[0], 0.305, "snapped to the 0.005 grid");
        assert!(!input(&mut w, "p-9", "0.5"));
        assert!(!input(&mut w, "p-1", "x"));
        assert!(!action(&mut w, "reset"));
        assert!(!w.update(&Event::Hover { target: None }));
    }

    /// 1/8 (3 bits) lies on the sliders' grid: the slider holds what the table shows.
    #[test]
    fn an_eighth_is_on_the_slider_grid() {
        let html = widget(r#"{"probs":[0.5,0.125,0.25]}"#).render("x");
        assert!(html.contains("name=\"p-1\" min=\"0.01\" max=\"1\" step=\"0.005\" value=\"0.125\""), "{html}");
        assert_eq!(value(&html, "p-1"), "0.125");
        assert_eq!(value(&html, "bits-1"), "3.00");
    }

    #[test]
    fn labels_default_and_escape() {
        assert_eq!(
            widget(r#"{"probs":[0.5,0.5]}"#).labels,
            vec!["token 1", "token 2"]
        );
        let html = widget(r#"{"probs":[0.5],"labels":["<i>"]}"#).render("x");
        assert!(html.contains("&lt;i&gt;") && !html.contains("<i>"));
    }

    #[test]
    fn bad_params_name_the_parameter() {
        for (json, param) in [
            (r#"{"probs":[0.5,0]}"#, "probs"),
            (r#"{"probs":[1.5]}"#, "probs"),
            (r#"{"probs":[]}"#, "probs"),
            (r#"{"probs":"0.5"}"#, "probs"),
            (r#"{"labels":["a","b"]}"#, "labels"),
            (r#"{"labels":["a","","c","d"]}"#, "labels"),
            (r#"{"p":[0.5]}"#, "p"),
            (r#"{"probs":[0.5,0.123]}"#, "probs"),
        ] {
            let e = Surprise::from_params(&Params::from_json(json).unwrap()).unwrap_err();
            assert_eq!(e.param, param, "{json}: {e}");
        }
    }
}
