//! `{steps}`: a numbered walk through a computation — a title, a legend of the
//! symbols it uses, and the steps (the body, a Markdown ordered list whose items
//! usually start with a bold label).
//!
//! ```markdown
//! :::{steps} One training step
//! ---
//! legend:
//!   - {tex: '\theta', meaning: the parameters}
//! ---
//! 1. **Forward.** Compute the prediction.
//! 2. **Loss.** Compare it with the truth.
//! :::
//! ```

use serde::{Deserialize, Serialize};

use super::{Block, Cx, Directive};
use crate::diagnostic::Diagnostic;
use crate::templates::Slot;

/// The `steps` directive.
pub struct Steps;

#[derive(Deserialize)]
#[serde(deny_unknown_fields, rename_all = "kebab-case")]
struct Options {
    #[serde(default)]
    legend: Vec<LegendEntry>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct LegendEntry {
    tex: String,
    meaning: String,
}

#[derive(Serialize)]
struct LegendHtml {
    math_html: String,
    meaning_html: String,
}

impl Directive for Steps {
    fn name(&self) -> &'static str {
        "steps"
    }

    fn render(&self, block: &Block, cx: &mut Cx) -> Result<String, Diagnostic> {
        let options = cx.options::<Options>(block)?;
        let legend_span = options.span("legend");
        let mut legend = Vec::new();
        for entry in &options.legend {
            legend.push(LegendHtml {
                math_html: cx.math.option_math(
                    &mut cx.report,
                    &entry.tex,
                    false,
                    legend_span.clone(),
                ),
                meaning_html: cx.inline(&entry.meaning, legend_span.clone()),
            });
        }
        let mut context = tera::Context::new();
        context.insert("id", &cx.ids.fresh_id("steps"));
        if !block.argument.is_empty() {
            let title = cx.inline(&block.argument, block.argument_span.clone());
            context.insert("title_html", &title);
        }
        context.insert("legend", &legend);
        let body = cx.markdown(block.body.clone());
        cx.template(
            "steps",
            context,
            vec![Slot::new("body", body)],
            block.opener.clone(),
        )
    }

    fn degrade(&self, block: &Block, cx: &mut Cx) -> String {
        let title = if block.argument.is_empty() {
            "Step by step"
        } else {
            block.argument.as_str()
        };
        let mut out = format!("**{title}**\n\n");
        let legend = super::options::raw_options(&cx.source, block)
            .ok()
            .and_then(|raw| super::options::typed::<Options>(raw, block).ok())
            .map(|o| o.into_inner().legend)
            .unwrap_or_default();
        for entry in &legend {
            out.push_str(&format!(
                "- ${}$: {}\n",
                entry.tex.trim(),
                entry.meaning.trim()
            ));
        }
        if !legend.is_empty() {
            out.push('\n');
        }
        out.push_str(&cx.markdown(block.body.clone()));
        out
    }
}

#[cfg(test)]
mod tests {
    use super::super::testkit::{degrade, errors, render};

    const OK: &str = ":::{steps} One step of $\\theta$\n---\nlegend:\n  - {tex: '\\eta', meaning: the learning rate}\n  - {tex: L, meaning: the *loss*}\n---\n1. **Forward.** Compute $\\hat y$.\n2. **Backward.** Compute $\\nabla L$.\n:::\n";

    #[test]
    fn renders_title_legend_and_ordered_list() {
        let out = render(OK);
        assert!(out.contains("<section class=\"mc-steps\""), "{out}");
        assert!(out.contains("<dl class=\"mc-steps-legend\""), "{out}");
        assert_eq!(out.matches("<dt>").count(), 2, "{out}");
        assert!(out.contains("<dd>the <em>loss</em></dd>"), "{out}");
        assert!(
            out.contains("\n\n1. **Forward.** Compute <span class=\"mc-nowrap\"><span class=\"katex\" data-tex="),
            "{out}"
        );
        assert!(out.contains("</section>"), "{out}");
    }

    #[test]
    fn option_errors() {
        let e = errors(":::{steps} S\n---\nlegnd: []\n---\n1. x\n:::\n");
        assert!(
            e.contains("unknown option `legnd` for directive `steps`"),
            "{e}"
        );
        assert!(e.contains("did you mean `legend`?"), "{e}");
        assert!(e.contains("src/t.md:3:1"), "{e}");
        let e = errors(":::{steps} S\n---\nlegend:\n  - {tex: x}\n---\n1. x\n:::\n");
        assert!(
            e.contains("option `legend[0]`: missing field `meaning`"),
            "{e}"
        );
        let e = errors(":::{steps} S\n---\nlegend: x\n---\n1. x\n:::\n");
        assert!(e.contains("option `legend`: invalid type"), "{e}");
    }

    #[test]
    fn degrade_keeps_the_legend() {
        let out = degrade(OK);
        assert!(out.starts_with("**One step of $\\theta$**\n\n- $\\eta$: the learning rate\n- $L$: the *loss*\n\n1. **Forward.**"), "{out}");
    }
}
