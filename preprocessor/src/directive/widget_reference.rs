//! `{widget-reference}`: the author guide's table of every widget and its parameters,
//! generated from the widget crate's own catalog so it can never go stale.

use serde::Deserialize;

use super::{Block, Cx, Directive};
use crate::diagnostic::Diagnostic;
use crate::html::escape;

/// The `widget-reference` directive.
pub struct WidgetReference;

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct NoOptions {}

impl Directive for WidgetReference {
    fn name(&self) -> &'static str {
        "widget-reference"
    }

    fn takes_argument(&self) -> bool {
        false
    }

    fn takes_body(&self) -> bool {
        false
    }

    fn render(&self, block: &Block, cx: &mut Cx) -> Result<String, Diagnostic> {
        cx.options::<NoOptions>(block)?;
        let mut out = String::from("\n<div class=\"mc-widget-reference\">\n");
        for (name, summary, params) in mathcourse_widgets::CATALOG {
            out.push_str(&format!(
                "<section class=\"mc-widget-ref\" id=\"widget-{0}\" aria-label=\"Widget {0}\"><p class=\"mc-widget-ref-head\"><code>:::{{widget}} {0}</code> — {1}</p>",
                escape(name),
                escape(summary)
            ));
            out.push_str("<table class=\"mc-widget-ref-params\"><thead><tr><th scope=\"col\">parameter</th><th scope=\"col\">type and default</th><th scope=\"col\">meaning</th></tr></thead><tbody>");
            for (param, kind, meaning) in params.iter() {
                out.push_str(&format!(
                    "<tr><td><code>{}</code></td><td>{}</td><td>{}</td></tr>",
                    escape(param),
                    escape(kind),
                    escape(meaning)
                ));
            }
            out.push_str("</tbody></table></section>\n");
        }
        out.push_str("</div>\n");
        Ok(out)
    }

    fn degrade(&self, _block: &Block, _cx: &mut Cx) -> String {
        let mut out = String::new();
        for (name, summary, params) in mathcourse_widgets::CATALOG {
            out.push_str(&format!("**`{name}`**: {summary}\n\n| parameter | type and default | meaning |\n|---|---|---|\n"));
            for (p, k, m) in params.iter() {
                out.push_str(&format!("| `{p}` | {k} | {m} |\n"));
            }
            out.push('\n');
        }
        out
    }
}
