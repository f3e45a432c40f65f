//! Widget 6 — scaled dot-product attention on a short sentence: pick the query token
//! (buttons; arrow keys move along the token row), a d_k slider (the first d_k of each
//! token's 8 query/key components are used) and a "scale by √d_k" checkbox; shows the
//! query's weights softmax(q·kⱼ/√d_k) as labelled bars, the full attention heatmap (every
//! cell's weight as text plus a shade; the selected query row outlined), and readouts:
//! the top-attended token with its weight, its raw score q·k, and the row's entropy.
//!
//! Vectors. For the default sentence "The cat sat on the mat" the 8-dimensional query and
//! key vectors are written by hand, one feature per dimension: 0 animate subject,
//! 1 verb, 2 noun, 3 determiner, 4 which half of the sentence, 5 preposition, 6 place,
//! 7 content word. A key says what a token offers, a query what it looks for, so "sat"
//! (looking for an animate subject) attends mostly to "cat", "The" to "cat", "the" to
//! "mat" (from d_k = 5, when the sentence-half feature counts). For author-given
//! `tokens`, each token i in order gets 8 query then 8 key components drawn from
//! `mathcourse_core::rng::Rng::new(seed)` as standard normals rounded to 0.1: the same
//! tokens and seed always give the same vectors, on every platform.
//!
//! Keyboard: the token buttons form a radio group with one tab stop (roving
//! `tabindex`); each carries `data-key="query"`, so ArrowLeft/ArrowUp,
//! ArrowRight/ArrowDown, Home and End on the focused token arrive as [`Event::Key`]
//! (target `query`). After patching, the loader focuses
//! `[data-key="query"][tabindex="0"]` (at the next frame). Enter/Space press the button
//! (`data-action="query-<i>"`).
//!
//! CSS classes: `mc-w-attention` (root), `mc-w-att-tokens`, `mc-w-token`,
//! `mc-w-token-selected`, `mc-w-side`, `mc-w-readouts`, `mc-w-note`,
//! `mc-w-expansion`, `mc-w-controls`, `mc-w-control`, `mc-w-control-label`,
//! `mc-w-control-value`, `mc-w-check`, `mc-w-svg`, `mc-w-att-bars-svg`, `mc-w-att-bar`,
//! `mc-w-att-bars` (group of the bars and their texts), `mc-w-att-bar-top`,
//! `mc-w-att-bar-value`, `mc-w-att-bar-label`, `mc-w-axis`, 
//! `mc-w-att-heatmap-svg`, `mc-w-heat-grid` (labels and cells: an HTML grid in a
//! `foreignObject`, with `mc-w-heat-n<n>` for n × n cells and the cells' font size
//! inline; `mc-w-heat-label` with `mc-w-heat-col` / `mc-w-heat-row` for the labels), one
//! `span` per cell with `mc-w-heat-k<k>` (its shade: the weight rounded to k/10) and
//! `mc-w-heat-value-strong` (a weight ≥ 50 %: needs the contrasting text colour),
//! `mc-w-heat-label`, `mc-w-heat-label-selected`, `mc-w-heat-selected` (outline of the
//! query row). Text sizes elsewhere are SVG `font-size` attributes.
//!
//! `data-value` names: `query`, `top`, `top-weight`, `raw-score`, `scaled-score`,
//! `entropy`, `dk`, `weight-<j>` (bar j, in %), `cell-<i>-<j>` (heatmap, in %).

use core::f64::consts::LN_2;
use crate::{put, text};

use mathcourse_core::rng::Rng;
use mathcourse_core::{attention, info, softmax};

use crate::fmt::clamp;
use crate::svg::{esc, open_label, push_label, push_slider, Anchor, LABEL_END};
use crate::{Event, ParamError, Params, Widget};

/// Components per vector (the d_k slider's top end).
pub const MAX_DK: usize = 8;
/// The default sentence.
pub const DEFAULT_TOKENS: [&str; 6] = ["The", "cat", "sat", "on", "the", "mat"];
/// Longest token accepted (characters).
const MAX_TOKEN_CHARS: usize = 12;

/// Hand-set query vectors for the default sentence (see the module doc for the features).
const DEFAULT_QUERIES: [[f64; MAX_DK]; 6] = [
    [0.5, 0.0, 2.0, 0.0, 1.5, 0.0, 0.0, 1.0], // The: looks for its noun (same half)
    [0.0, 1.5, 0.0, 1.0, 1.0, 0.0, 0.0, 1.0], // cat: its verb, its determiner
    [2.0, 0.0, 0.5, 0.0, 0.5, 0.0, 1.0, 1.0], // sat: who sat (animate), and where
    [0.0, 1.5, 0.5, 0.0, 0.0, 0.0, 2.0, 1.0], // on: the verb and the place
    [0.5, 0.0, 2.0, 0.0, -1.5, 0.0, 0.0, 1.0], // the: its noun (second half)
    [0.0, 0.0, 0.0, 1.0, -1.0, 2.0, 0.0, 0.0], // mat: its determiner and preposition
];

/// Hand-set key vectors for the default sentence.
const DEFAULT_KEYS: [[f64; MAX_DK]; 6] = [
    [0.0, 0.0, 0.0, 2.0, 1.0, 0.0, 0.0, -1.0], // The: a determiner, first half
    [2.0, 0.0, 1.5, 0.0, 1.0, 0.0, 0.0, 1.0],  // cat: an animate noun
    [0.0, 2.0, 0.0, 0.0, 1.0, 0.0, 0.0, 1.0],  // sat: a verb
    [0.0, 0.5, 0.0, 0.0, -1.0, 2.0, 0.0, -1.0], // on: a preposition
    [0.0, 0.0, 0.0, 2.0, -1.0, 0.0, 0.0, -1.0], // the: a determiner, second half
    [0.5, 0.0, 1.5, 0.0, -1.0, 0.0, 2.0, 1.0], // mat: a noun, a place
];

/// State: the sentence, its vectors, and the reader's choices.
#[derive(Debug, Clone, PartialEq)]
pub struct Attention {
    /// The tokens.
    pub tokens: Vec<String>,
    /// One query vector per token (8 components).
    pub queries: Vec<[f64; MAX_DK]>,
    /// One key vector per token (8 components).
    pub keys: Vec<[f64; MAX_DK]>,
    /// Index of the selected query token.
    pub query: usize,
    /// Number of components used, 1..=8.
    pub dk: usize,
    /// Divide scores by √d_k.
    pub scale: bool,
    /// True when the vectors came from the seeded generator.
    seeded: Option<u64>,
}

/// Numbers behind one render.
#[derive(Debug, Clone, PartialEq)]
pub struct Numbers {
    /// The attention matrix: row i = softmax of query i's scores.
    pub matrix: Vec<Vec<f64>>,
    /// Raw scores q·kⱼ of the selected query (unscaled).
    pub raw: Vec<f64>,
    /// Index of the top-attended token of the selected query.
    pub top: usize,
    /// Entropy of the selected row in bits.
    pub entropy_bits: f64,
}

/// Vectors for author-given tokens: 8 query then 8 key components per token, standard
/// normals from `Rng::new(seed)`, rounded to 0.1.
fn seeded_vectors(n: usize, seed: u64) -> (Vec<[f64; MAX_DK]>, Vec<[f64; MAX_DK]>) {
    let mut rng = Rng::new(seed);
    let mut draw = || {
        let mut v = [0.0; MAX_DK];
        for c in v.iter_mut() {
            *c = (rng.normal() * 10.0).round() / 10.0 + 0.0;
        }
        v
    };
    let mut queries = Vec::with_capacity(n);
    let mut keys = Vec::with_capacity(n);
    for _ in 0..n {
        queries.push(draw());
        keys.push(draw());
    }
    (queries, keys)
}

/// At most `max` characters, with "…" when cut.
fn short(text: &str, max: usize) -> String {
    if crate::fmt::char_count(text) <= max {
        text.to_string()
    } else {
        let mut s: String = text.chars().take(max.saturating_sub(1).max(1)).collect();
        s.push('…');
        s
    }
}

impl Attention {
    /// Computes the matrix and the selected row's readouts with `mathcourse_core`.
    pub fn numbers(&self) -> Numbers {
        let qs: Vec<Vec<f64>> = self.queries.iter().map(|q| q[..self.dk].to_vec()).collect();
        let ks: Vec<Vec<f64>> = self.keys.iter().map(|k| k[..self.dk].to_vec()).collect();
        let n = self.tokens.len();
        let matrix = attention::attention_matrix(&qs, &ks, self.scale)
            .unwrap_or_else(|_| vec![vec![1.0 / n as f64; n]; n]);
        let raw =
            attention::scaled_scores(&qs[self.query], &ks, false).unwrap_or_else(|_| vec![0.0; n]);
        let row = &matrix[self.query];
        let top = softmax::argmax(row).unwrap_or(0);
        let entropy_bits = info::entropy_bits(row).unwrap_or(0.0);
        Numbers {
            matrix,
            raw,
            top,
            entropy_bits,
        }
    }

    fn token_row(&self, out: &mut String) {
        put!(out; "<div class=\"mc-w-att-tokens\" role=\"radiogroup\" aria-label=\"Query token\">");
        for (i, tok) in self.tokens.iter().enumerate() {
            let selected = i == self.query;
            put!(out;
                s(if selected { "<button type=\"button\" class=\"mc-w-token mc-w-token-selected\" role=\"radio\" aria-checked=\"true\" tabindex=\"0\"" } else { "<button type=\"button\" class=\"mc-w-token\" role=\"radio\" aria-checked=\"false\" tabindex=\"-1\"" })
                " data-action=\"query-" u(i) "\" data-key=\"query\">" e(tok) "</button>"
            );
        }
        put!(out; "</div>");
    }

    fn bars(&self, out: &mut String, id: &str, nums: &Numbers) {
        let n = self.tokens.len();
        let row = &nums.matrix[self.query];
        let (w, h, base, top_y, left) = (320.0, 132.0, 104.0, 18.0, 4.0);
        let col = (w - 2.0 * left) / n as f64;
        let max_chars = ((col / 6.2).floor() as usize).max(2);
        put!(out;
            "<svg class=\"mc-w-svg mc-w-att-bars-svg\" viewBox=\"0 0 " c(w) " " c(h)
            "\" role=\"img\" aria-labelledby=\"" s(id) "-bars-title\"><title id=\"" s(id)
            "-bars-title\">Attention weights of “" e(&self.tokens[self.query]) "”: "
        );
        for (j, (t, p)) in self.tokens.iter().zip(row).enumerate() {
            if j > 0 {
                put!(out; ", ");
            }
            put!(out; e(t) " " n(p * 100.0, 0) "%");
        }
        // Grouped, so the page swaps the bars in one piece when they change.
        put!(out; "</title><g class=\"mc-w-att-bars\">");
        for (j, p) in row.iter().enumerate() {
            let x = left + j as f64 * col;
            let bh = p * (base - top_y);
            let cx = x + col / 2.0;
            put!(out;
                s(if j == nums.top { "<rect class=\"mc-w-att-bar mc-w-att-bar-top\"" } else { "<rect class=\"mc-w-att-bar\"" })
                " x=\"" c(x + col * 0.15) "\" y=\"" c(base - bh) "\" width=\"" c(col * 0.7)
                "\" height=\"" c(bh) "\"/>"
            );
            let value = text!(" font-size=\"10\" data-value=\"weight-" u(j) "\"");
            open_label(out, "mc-w-att-bar-value", &value, (cx, base - bh - 4.0), Anchor::Middle);
            put!(out; n(p * 100.0, 0) "%" s(LABEL_END));
            let name = short(&self.tokens[j], max_chars);
            push_label(out, "mc-w-att-bar-label", " font-size=\"11\"", (cx, base + 16.0), Anchor::Middle, &name);
        }
        put!(out;
            "</g><line class=\"mc-w-axis\" x1=\"" c(left) "\" y1=\"" c(base) "\" x2=\"" c(w - left)
            "\" y2=\"" c(base) "\"/></svg>"
        );
    }

    fn heatmap(&self, out: &mut String, id: &str, nums: &Numbers) {
        let n = self.tokens.len();
        let (w, label_w, head_h) = (320.0, 60.0, 22.0);
        let cell = (w - label_w - 4.0) / n as f64;
        let h = head_h + cell * n as f64 + 4.0;
        let font = clamp(cell * 0.36, 8.0, 12.0);
        let col_chars = ((cell / 6.2).floor() as usize).max(2);
        put!(out;
            "<svg class=\"mc-w-svg mc-w-att-heatmap-svg\" viewBox=\"0 0 " c(w) " " c(h)
            "\" role=\"img\" aria-labelledby=\"" s(id) "-heat-title\"><title id=\"" s(id)
            "-heat-title\">Attention heatmap: row i is query token i, column j key token j, each cell the weight in percent (darker = more); each row sums to 100. The selected row, “"
            e(&self.tokens[self.query]) "”, is outlined.</title>"
        );
        // Labels and cells: one HTML grid in a foreignObject (a corner, the column labels,
        // then per row its label and one span per cell with its value and a shade class for
        // the weight rounded to 10 %, `mc-w-heat-k0` … `k10`). Their text is in `data-mc-t`
        // (drawn by CSS), out of mdBook's search index, as every picture label's
        // (`svg::open_label`). HTML elements are several
        // times cheaper for the page to parse than SVG texts, and the loader swaps the
        // whole grid in one step.
        put!(out;
            "<foreignObject x=\"0\" y=\"0\" width=\"" c(label_w + cell * n as f64) "\" height=\""
            c(head_h + cell * n as f64) "\"><div class=\"mc-w-heat-grid mc-w-heat-n" u(n)
            "\" style=\"font-size:" c(font) "px\"><span></span>"
        );
        for tok in &self.tokens {
            put!(out;
                "<span class=\"mc-w-heat-label mc-w-heat-col\" data-mc-t=\"" e(&short(tok, col_chars)) "\"></span>"
            );
        }
        for (i, row) in nums.matrix.iter().enumerate() {
            put!(out;
                s(if i == self.query { "<span class=\"mc-w-heat-label mc-w-heat-row mc-w-heat-label-selected\" data-mc-t=\"▸ " } else { "<span class=\"mc-w-heat-label mc-w-heat-row\" data-mc-t=\"" })
                e(&short(&self.tokens[i], 8)) "\"></span>"
            );
            for (j, &p) in row.iter().enumerate() {
                let k = (clamp(p, 0.0, 1.0) * SHADES).round() as usize;
                put!(out;
                    "<span class=\"mc-w-heat-k" u(k)
                    s(if p >= 0.5 { " mc-w-heat-value-strong\" data-value=\"cell-" } else { "\" data-value=\"cell-" })
                    u(i) "-" u(j) "\" data-mc-t=\"" n(p * 100.0, 0) "\"></span>"
                );
            }
        }
        put!(out; "</div></foreignObject>");
        put!(out;
            "<rect class=\"mc-w-heat-selected\" fill=\"none\" x=\"" c(label_w) "\" y=\""
            c(head_h + self.query as f64 * cell) "\" width=\"" c(cell * n as f64) "\" height=\""
            c(cell) "\"/></svg>"
        );
    }

    fn readouts(&self, out: &mut String, id: &str, nums: &Numbers) {
        let row = &nums.matrix[self.query];
        let raw = nums.raw[nums.top];
        put!(out;
            "<dl class=\"mc-w-readouts\" id=\"" s(id)
            "-readouts\" aria-live=\"polite\"><div><dt>top attention</dt><dd>“<span data-value=\"query\">"
            e(&self.tokens[self.query])
        );
        // All weights equal as shown (0.1 %): no token is "the most".
        let tied = row.iter().all(|w| (w - row[nums.top]).abs() < 5e-4);
        if tied {
            put!(out;
                "</span>” attends equally to all " u(self.tokens.len())
                " tokens (their scores are tied)"
            );
        } else {
            put!(out;
                "</span>” attends most to “<strong data-value=\"top\">" e(&self.tokens[nums.top])
                "</strong>”"
            );
        }
        put!(out;
            " · <strong data-value=\"top-weight\">" n(row[nums.top] * 100.0, 1)
            "%</strong></dd></div><div><dt>raw score q·k</dt><dd><span data-value=\"raw-score\">"
            n(raw, 2) "</span>"
        );
        if self.scale {
            put!(out;
                " <span class=\"mc-w-expansion\">÷ √" u(self.dk)
                " = <span data-value=\"scaled-score\">" n(raw / (self.dk as f64).sqrt(), 2)
                "</span></span>"
            );
        } else {
            put!(out;
                " <span class=\"mc-w-expansion\">(unscaled: <span data-value=\"scaled-score\">"
                n(raw, 2) "</span>)</span>"
            );
        }
        put!(out;
            "</dd></div><div><dt>row entropy</dt><dd><span data-value=\"entropy\">"
            n(nums.entropy_bits, 2) "</span> bits <span class=\"mc-w-note\">(uniform over "
            u(self.tokens.len()) " tokens: " n((self.tokens.len() as f64).ln() / LN_2, 2)
            " bits)</span></dd></div></dl>"
        );
    }
}

/// Shade levels of the heatmap cells (weights rounded to 1/SHADES).
const SHADES: f64 = 10.0;

impl Widget for Attention {
    const NAME: &'static str = "attention";
    const SUMMARY: &'static str =
        "Scaled dot-product attention on a short sentence: pick a query token, vary d_k and the √d_k scaling; weights as bars, the full heatmap, top token, raw score and row entropy.";
    const PARAMS: &'static [(&'static str, &'static str, &'static str)] = &[
        (
            "tokens",
            "list of 2 to 10 texts, default [The, cat, sat, on, the, mat]",
            "the sentence (each token at most 12 characters); the default has hand-set vectors, other sentences get seeded random ones",
        ),
        ("query", "whole number, default 2", "index (from 0) of the query token selected at first"),
        ("dk", "whole number, default 4", "key dimension d_k from 1 to 8: how many of each vector's 8 components are used"),
        ("scale", "true/false, default true", "divide the scores by √d_k"),
        ("seed", "whole number, default 3", "seed of the random query/key vectors for author-given tokens (ignored for the default sentence)"),
    ];

    fn from_params(params: &Params) -> Result<Self, ParamError> {
        params.only(&["tokens", "query", "dk", "scale", "seed"])?;
        let tokens = params.texts("tokens", &DEFAULT_TOKENS, (2, 10))?;
        for (i, t) in tokens.iter().enumerate() {
            if crate::fmt::trim(t).is_empty() {
                return Err(ParamError::new(
                    "tokens",
                    text!("entry " p(i + 1) " is empty"),
                ));
            }
            if crate::fmt::char_count(t) > MAX_TOKEN_CHARS {
                return Err(ParamError::new(
                    "tokens",
                    text!(
                        "entry " p(i + 1) " (“" p(t) "”) is longer than " p(MAX_TOKEN_CHARS)
                        " characters"
                    ),
                ));
            }
        }
        let n = tokens.len();
        let query = params.int("query", 2.min(n as i64 - 1), 0, n as i64 - 1)? as usize;
        let dk = params.int("dk", 4, 1, MAX_DK as i64)? as usize;
        let scale = params.bool("scale", true)?;
        let seed = params.int("seed", 3, 0, u32::MAX as i64)? as u64;
        let is_default = tokens.len() == DEFAULT_TOKENS.len()
            && tokens.iter().zip(DEFAULT_TOKENS).all(|(t, d)| t == d);
        let (queries, keys, seeded) = if is_default {
            (DEFAULT_QUERIES.to_vec(), DEFAULT_KEYS.to_vec(), None)
        } else {
            let (q, k) = seeded_vectors(n, seed);
            (q, k, Some(seed))
        };
        Ok(Attention {
            tokens,
            queries,
            keys,
            query,
            dk,
            scale,
            seeded,
        })
    }

    fn render(&self, id: &str) -> String {
        let id = esc(id);
        let nums = self.numbers();
        let mut out = String::with_capacity(12288);
        put!(out;
            "<div class=\"mc-w-attention\"><p class=\"mc-w-note\" id=\"" s(&id)
            "-pick\">Choose a query token (arrow keys move along the row):</p>"
        );
        self.token_row(&mut out);
        self.bars(&mut out, &id, &nums);
        put!(out; "<div class=\"mc-w-side\">");
        self.readouts(&mut out, &id, &nums);
        put!(out; "<fieldset class=\"mc-w-controls\"><legend>Attention settings</legend>");
        let mut dk_shown = String::new();
        put!(dk_shown; u(self.dk));
        push_slider(
            &mut out,
            &id,
            "dk",
            "key dimension d<sub>k</sub>",
            (self.dk as f64, 1.0, MAX_DK as f64, 1.0),
            &dk_shown,
        );
        put!(out;
            "<label class=\"mc-w-control mc-w-check\" for=\"" s(&id)
            "-scale\"><input type=\"checkbox\" id=\"" s(&id) "-scale\" name=\"scale\""
            s(if self.scale { " checked" } else { "" })
            "> <span class=\"mc-w-control-label\">scale by √d<sub>k</sub></span></label></fieldset></div>"
        );
        self.heatmap(&mut out, &id, &nums);
        put!(out;
            "<p class=\"mc-w-note\">Each row is softmax(q·k<sub>j</sub>"
            s(if self.scale { " / √d<sub>k</sub>" } else { "" })
            ") over the keys, using the first <span data-value=\"dk\">" u(self.dk)
            "</span> components. "
        );
        match self.seeded {
            None => put!(out;
                "These 8-component query and key vectors were set by hand (features such as "
                "“animate subject”, “verb”, “noun”); trained models learn their own."
            ),
            Some(seed) => put!(out;
                "Query and key vectors drawn at random (seed " u(seed as usize)
                "), so the pattern has no linguistic meaning."
            ),
        }
        put!(out; "</p></div>");
        out
    }

    fn update(&mut self, event: &Event) -> bool {
        let before = (self.query, self.dk, self.scale);
        let n = self.tokens.len();
        match *event {
            Event::Input {
                control: "dk",
                value,
            } => {
                if let Some(v) = crate::fmt::input_num(value) {
                    if v.is_finite() {
                        self.dk = clamp(v.round(), 1.0, MAX_DK as f64) as usize;
                    }
                }
            }
            Event::Input {
                control: "scale",
                value,
            } => match crate::fmt::trim(value) {
                "true" | "on" | "1" => self.scale = true,
                "false" | "off" | "0" => self.scale = false,
                _ => {}
            },
            Event::Action { action } => {
                if let Some(i) = action
                    .strip_prefix("query-")
                    .and_then(crate::fmt::parse_index)
                {
                    if i < n {
                        self.query = i;
                    }
                }
            }
            Event::Key {
                target: "query",
                key,
                ..
            } => match key {
                "ArrowLeft" | "ArrowUp" => self.query = self.query.saturating_sub(1),
                "ArrowRight" | "ArrowDown" => self.query = (self.query + 1).min(n - 1),
                "Home" => self.query = 0,
                "End" => self.query = n - 1,
                _ => {}
            },
            _ => {}
        }
        (self.query, self.dk, self.scale) != before
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::testkit::{input, action};
    use crate::testkit::value as value_of;
    use crate::svg::num;

    fn widget(json: &str) -> Attention {
        crate::testkit::widget(json)
    }


    /// softmax written out: e^{sᵢ} / Σ e^{sⱼ}.
    fn softmax_by_hand(s: &[f64]) -> Vec<f64> {
        let e: Vec<f64> = s.iter().map(|v| v.exp()).collect();
        let total: f64 = e.iter().sum();
        e.iter().map(|v| v / total).collect()
    }

    #[test]
    fn tied_scores_are_called_tied() {
        // With d_k = 1 some queries score every key the same: no token is "the most".
        let mut tied = 0;
        for q in 0..6 {
            let html = widget(&format!(r#"{{"dk":1,"query":{q}}}"#)).render("a");
            let weights: Vec<String> = (0..6)
                .map(|j| value_of(&html, &format!("weight-{j}")).to_string())
                .collect();
            if weights.iter().all(|w| *w == weights[0]) {
                tied += 1;
                assert!(html.contains("attends equally to all 6 tokens (their scores are tied)"), "{html}");
                assert!(!html.contains("attends most"), "{html}");
            } else {
                assert!(html.contains("attends most to"), "{html}");
            }
        }
        assert!(tied > 0, "some query is tied at d_k = 1");
    }

    #[test]
    fn initial_readouts_for_defaults() {
        let w = widget("{}");
        let html = w.render("a");
        // "sat" with d_k = 4 uses components 0..3: q = (2, 0, 0.5, 0). Scores q·k:
        // The 0, cat 2·2 + 0.5·1.5 = 4.75, sat 0, on 0, the 0, mat 2·0.5 + 0.5·1.5 = 1.75;
        // scaled by √4 = 2.
        let raw = [0.0, 4.75, 0.0, 0.0, 0.0, 1.75];
        let scaled: Vec<f64> = raw.iter().map(|s| s / 2.0).collect();
        let p = softmax_by_hand(&scaled);
        assert_eq!(value_of(&html, "query"), "sat");
        assert_eq!(value_of(&html, "top"), "cat");
        assert_eq!(
            value_of(&html, "top-weight"),
            format!("{}%", num(p[1] * 100.0, 1))
        );
        assert_eq!(value_of(&html, "raw-score"), "4.75");
        assert_eq!(value_of(&html, "scaled-score"), "2.38");
        let h: f64 = p.iter().map(|v| -v * v.log2()).sum();
        assert_eq!(value_of(&html, "entropy"), num(h, 2));
        for (j, pj) in p.iter().enumerate() {
            assert_eq!(
                value_of(&html, &format!("weight-{j}")),
                format!("{}%", num(pj * 100.0, 0))
            );
            assert_eq!(value_of(&html, &format!("cell-2-{j}")), num(pj * 100.0, 0));
        }
        assert!(p[1] > 0.5, "sat attends mostly to cat: {p:?}");
        assert!(html.contains("aria-live=\"polite\""));
        assert!(html.contains("aria-checked=\"true\" tabindex=\"0\" data-action=\"query-2\""));
        assert!(html.contains("name=\"dk\"") && html.contains("name=\"scale\" checked"));
        assert!(html.contains("mc-w-heat-selected"));
        assert!(!html.contains("NaN"));
    }

    #[test]
    fn every_row_sums_to_one() {
        for json in [
            "{}",
            r#"{"dk":8,"scale":false}"#,
            r#"{"tokens":["a","b","c","d","e","f","g","h","i","j"],"dk":1}"#,
        ] {
            let w = widget(json);
            let nums = w.numbers();
            assert_eq!(nums.matrix.len(), w.tokens.len());
            for row in &nums.matrix {
                assert!((row.iter().sum::<f64>() - 1.0).abs() < 1e-12);
                assert!(row.iter().all(|p| *p > 0.0));
            }
        }
    }

    #[test]
    fn scaling_toggle_follows_softmax_of_scores_over_root_dk() {
        let mut w = widget(r#"{"dk":8}"#);
        let q = DEFAULT_QUERIES[2];
        let raw: Vec<f64> = DEFAULT_KEYS
            .iter()
            .map(|k| q.iter().zip(k).map(|(a, b)| a * b).sum())
            .collect();
        let scaled = softmax_by_hand(&raw.iter().map(|s| s / 8f64.sqrt()).collect::<Vec<_>>());
        let plain = softmax_by_hand(&raw);
        for (a, b) in w.numbers().matrix[2].iter().zip(&scaled) {
            assert!((a - b).abs() < 1e-12);
        }
        assert!(input(&mut w, "scale", "false"));
        assert!(!w.scale);
        let nums = w.numbers();
        for (a, b) in nums.matrix[2].iter().zip(&plain) {
            assert!((a - b).abs() < 1e-12);
        }
        // Without the scaling the row is sharper: the top weight grows, the entropy falls.
        assert!(plain[1] > scaled[1]);
        let h = |p: &[f64]| -> f64 { p.iter().map(|v| -v * v.log2()).sum() };
        assert!((nums.entropy_bits - h(&plain)).abs() < 1e-12);
        assert!(h(&plain) < h(&scaled));
        let html = w.render("a");
        assert!(!html.contains("÷ √"));
        assert!(html.contains("name=\"scale\">"));
        assert!(!input(&mut w, "scale", "false"));
        assert!(input(&mut w, "scale", "true"));
    }

    #[test]
    fn dk_uses_the_first_components() {
        let mut w = widget("{}");
        assert!(input(&mut w, "dk", "1"));
        // d_k = 1: scores 2·kⱼ₀ / 1 = (0, 4, 0, 0, 0, 1).
        let p = softmax_by_hand(&[0.0, 4.0, 0.0, 0.0, 0.0, 1.0]);
        for (a, b) in w.numbers().matrix[2].iter().zip(&p) {
            assert!((a - b).abs() < 1e-12);
        }
        assert!(input(&mut w, "dk", "12"));
        assert_eq!(w.dk, 8);
        assert!(!input(&mut w, "dk", "x"));
        assert_eq!(value_of(&w.render("a"), "dk"), "8");
    }

    #[test]
    fn query_by_buttons_and_keys() {
        let mut w = widget("{}");
        assert!(action(&mut w, "query-5"));
        assert_eq!(w.query, 5);
        assert!(!w.update(&Event::Key {
            target: "query",
            key: "ArrowRight",
            shift: false
        }));
        assert!(w.update(&Event::Key {
            target: "query",
            key: "ArrowLeft",
            shift: false
        }));
        assert_eq!(w.query, 4);
        assert!(w.update(&Event::Key {
            target: "query",
            key: "Home",
            shift: false
        }));
        assert_eq!(w.query, 0);
        assert!(!w.update(&Event::Key {
            target: "query",
            key: "ArrowUp",
            shift: false
        }));
        assert!(w.update(&Event::Key {
            target: "query",
            key: "End",
            shift: false
        }));
        assert_eq!(w.query, 5);
        assert!(!action(&mut w, "query-9"));
        let html = w.render("a");
        assert_eq!(value_of(&html, "query"), "mat");
        assert!(html.contains("▸ mat"));
        // "the" looks for its noun: with all 8 components it attends most to "mat".
        action(&mut w, "query-4");
        input(&mut w, "dk", "8");
        assert_eq!(value_of(&w.render("a"), "top"), "mat");
    }

    #[test]
    fn author_tokens_get_seeded_vectors() {
        let a = widget(r#"{"tokens":["it","was","<tired>"],"query":0}"#);
        let b = widget(r#"{"tokens":["it","was","<tired>"],"query":0}"#);
        let c = widget(r#"{"tokens":["it","was","<tired>"],"query":0,"seed":4}"#);
        assert_eq!(a.queries, b.queries);
        assert_ne!(a.queries, c.queries);
        assert_eq!(a.render("x"), b.render("x"));
        // Components are rounded to 0.1.
        assert!(a
            .keys
            .iter()
            .flatten()
            .all(|v| ((v * 10.0).round() - v * 10.0).abs() < 1e-9));
        let html = a.render("x");
        assert!(html.contains("&lt;tired&gt;") && !html.contains("<tired>"));
        assert!(html.contains("seed 3"));
    }

    #[test]
    fn markup_fits_ten_tokens() {
        let w = widget(
            r#"{"tokens":["one","two","three","four","five","six","seven","eight","nine","extraordinar"],"query":9}"#,
        );
        let html = w.render("x");
        assert!(html.len() < 30_000, "{}", html.len());
        // One square per cell, grouped in at most 11 shade paths.
        let grid = &html[html.find("mc-w-heat-grid mc-w-heat-n10").unwrap()..];
        let grid = &grid[..grid.find("</div>").unwrap()];
        assert_eq!(grid.matches("<span class=\"mc-w-heat-k").count(), 100);
        assert_eq!(html.matches("data-value=\"cell-").count(), 100);
        assert!(
            html.contains("ext…"),
            "long labels are shortened in the SVG"
        );
    }

    #[test]
    fn bad_params_name_the_parameter() {
        let err =
            |json: &str| Attention::from_params(&Params::from_json(json).unwrap()).unwrap_err();
        assert_eq!(err(r#"{"tokens":["solo"]}"#).param, "tokens");
        assert_eq!(err(r#"{"tokens":["a",""]}"#).param, "tokens");
        assert_eq!(
            err(r#"{"tokens":["a","abcdefghijklmnop"]}"#).param,
            "tokens"
        );
        assert_eq!(err(r#"{"tokens":["a","b"],"query":2}"#).param, "query");
        assert_eq!(err(r#"{"dk":9}"#).param, "dk");
        assert_eq!(err(r#"{"dk":2.5}"#).param, "dk");
        assert_eq!(err(r#"{"scale":"yes"}"#).param, "scale");
        assert_eq!(err(r#"{"seed":-1}"#).param, "seed");
        let e = err(r#"{"heads":2}"#);
        assert_eq!(e.param, "heads");
        assert_eq!(e.valid, vec!["tokens", "query", "dk", "scale", "seed"]);
    }
}
