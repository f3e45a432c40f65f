//! `{connection}`: a link from the math to another discipline, rated by how deep the
//! link goes (1 analogy, 2 shared math, 3 same mechanism); the body is the summary.
//!
//! ```markdown
//! :::{connection}
//! ---
//! discipline: Information theory
//! level: 3
//! title: Prediction is compression
//! why: Arithmetic coding turns the model's probabilities into a code.
//! ---
//! A language model and a compressor are the same machine.
//! :::
//! ```

use serde::Deserialize;

use super::{Block, Cx, Directive};
use crate::diagnostic::Diagnostic;
use crate::templates::Slot;

/// The `connection` directive.
pub struct Connection;

/// The levels, by number: what the reader sees.
pub const LEVELS: [(u8, &str); 3] = [(1, "Analogy"), (2, "Shared math"), (3, "Same mechanism")];

fn levels_text() -> String {
    LEVELS
        .iter()
        .map(|(n, l)| format!("`{n}` ({l})"))
        .collect::<Vec<_>>()
        .join(", ")
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields, rename_all = "kebab-case")]
struct Options {
    discipline: String,
    level: serde_json::Value,
    title: String,
    #[serde(default)]
    why: Option<String>,
}

fn level_of(value: &serde_json::Value) -> Option<(u8, &'static str)> {
    let n = value.as_u64()?;
    LEVELS.iter().copied().find(|(l, _)| u64::from(*l) == n)
}

impl Directive for Connection {
    fn name(&self) -> &'static str {
        "connection"
    }

    fn takes_argument(&self) -> bool {
        false
    }

    fn render(&self, block: &Block, cx: &mut Cx) -> Result<String, Diagnostic> {
        let options = cx.options::<Options>(block)?;
        let span_of = |key: &str| options.span(key);
        let (level, level_label) = level_of(&options.level).ok_or_else(|| {
            let shown = options.level.to_string();
            cx.report
                .error(
                    span_of("level"),
                    format!("`level` must be 1, 2 or 3, not `{shown}`"),
                )
                .with_label("not a connection level")
                .with_hint(format!("the levels are {}", levels_text()))
        })?;
        let mut context = tera::Context::new();
        let id = cx.ids.fresh_id("connection");
        context.insert("id", &id);
        context.insert("level", &level);
        context.insert("level_label", level_label);
        let dots: String = (1..=3)
            .map(|i| if i <= level { '●' } else { '○' })
            .collect();
        context.insert("level_dots", &dots);
        context.insert(
            "discipline_html",
            &cx.inline(&options.discipline, span_of("discipline")),
        );
        context.insert("title_html", &cx.inline(&options.title, span_of("title")));
        if let Some(why) = &options.why {
            context.insert("why_html", &cx.inline(why, span_of("why")));
        }
        let body = cx.markdown(block.body.clone());
        cx.template(
            "connection",
            context,
            vec![Slot::new("body", body)],
            block.opener.clone(),
        )
    }

    fn degrade(&self, block: &Block, cx: &mut Cx) -> String {
        let raw = super::options::raw_options(&cx.source, block).unwrap_or_default();
        let get = |k: &str| raw.text(k).map(|s| s.trim().to_string());
        let mut out = String::from("**Connection");
        if let Some(d) = get("discipline") {
            out.push_str(&format!(" ({d})"));
        }
        out.push_str(":**");
        if let Some(t) = get("title") {
            out.push_str(&format!(" {t}"));
        }
        if let Some((n, label)) = raw.value.get("level").and_then(level_of) {
            out.push_str(&format!(" — Level {n} · {label}"));
        }
        out.push_str("\n\n");
        let body = cx.markdown(block.body.clone());
        if !body.trim().is_empty() {
            out.push_str(body.trim());
            out.push_str("\n\n");
        }
        if let Some(why) = get("why") {
            out.push_str(&format!("*Why this level:* {why}"));
        }
        format!("{}\n", out.trim_end())
    }
}

#[cfg(test)]
mod tests {
    use super::super::testkit::{degrade, errors, render};

    const OK: &str = ":::{connection}\n---\ndiscipline: Information theory\nlevel: 2\ntitle: Surprise is $-\\log p$\nwhy: Same *formula*.\n---\nA summary with $p$.\n:::\n";

    #[test]
    fn renders_badge_with_text() {
        let out = render(OK);
        assert!(
            out.contains("<aside class=\"mc-connection mc-level-2\""),
            "{out}"
        );
        assert!(out.contains("Level 2 · Shared math"), "{out}");
        assert!(out.contains("Information theory"), "{out}");
        assert!(out.contains("Why this level:"), "{out}");
        assert!(out.contains("Same <em>formula</em>"), "{out}");
        assert!(
            out.contains(
                "A summary with <span class=\"mc-nowrap\"><span class=\"katex\" data-tex="
            ),
            "{out}"
        );
    }

    #[test]
    fn level_must_be_one_two_or_three() {
        for bad in ["4", "0", "two", "'2'", "1.5", "[1]"] {
            let e = errors(&OK.replace("level: 2", &format!("level: {bad}")));
            assert!(e.contains("`level` must be 1, 2 or 3"), "{bad}: {e}");
            assert!(
                e.contains("`1` (Analogy), `2` (Shared math), `3` (Same mechanism)"),
                "{e}"
            );
            assert!(e.contains("src/t.md:4:1"), "{e}");
        }
        // `:level: 3` fields work too.
        let out =
            render(":::{connection}\n:discipline: Physics\n:level: 3\n:title: T\nBody.\n:::\n");
        assert!(out.contains("Level 3 · Same mechanism"), "{out}");
    }

    #[test]
    fn option_errors() {
        let e = errors(&OK.replace("discipline:", "disciplne:"));
        assert!(e.contains("unknown option `disciplne`"), "{e}");
        assert!(e.contains("did you mean `discipline`?"), "{e}");
        let e = errors(&OK.replace("title: Surprise is $-\\log p$\n", ""));
        assert!(
            e.contains("directive `connection` needs the option `title`"),
            "{e}"
        );
        let e = errors(&OK.replace("why: Same *formula*.", "why: [a, b]"));
        assert!(e.contains("option `why`: invalid type"), "{e}");
    }

    #[test]
    fn degrade_keeps_every_field() {
        assert_eq!(
            degrade(OK),
            "**Connection (Information theory):** Surprise is $-\\log p$ — Level 2 · Shared math\n\nA summary with $p$.\n\n*Why this level:* Same *formula*.\n\n"
        );
    }
}
