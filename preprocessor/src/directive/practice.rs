//! `{practice}` (an exercise) and `{solution}` (its collapsed solution sketch).

use serde::Deserialize;

use super::{Block, Cx, Directive};
use crate::diagnostic::Diagnostic;
use crate::templates::Slot;

/// The `practice` directive.
pub struct Practice;
/// The `solution` directive (normally nested in `practice`).
pub struct Solution;

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct NoOptions {}

impl Directive for Practice {
    fn name(&self) -> &'static str {
        "practice"
    }

    fn render(&self, block: &Block, cx: &mut Cx) -> Result<String, Diagnostic> {
        cx.options::<NoOptions>(block)?;
        let mut context = tera::Context::new();
        context.insert("id", &cx.ids.fresh_id("practice"));
        if !block.argument.is_empty() {
            let title = cx.inline(&block.argument, block.argument_span.clone());
            context.insert("title_html", &title);
        }
        let body = cx.markdown(block.body.clone());
        cx.template(
            "practice",
            context,
            vec![Slot::new("body", body)],
            block.opener.clone(),
        )
    }
}

impl Directive for Solution {
    fn name(&self) -> &'static str {
        "solution"
    }

    fn render(&self, block: &Block, cx: &mut Cx) -> Result<String, Diagnostic> {
        cx.options::<NoOptions>(block)?;
        let mut context = tera::Context::new();
        let summary = if block.argument.is_empty() {
            "Solution sketch".to_string()
        } else {
            block.argument.clone()
        };
        let summary = cx.inline(&summary, block.argument_span.clone());
        context.insert("summary_html", &summary);
        let body = cx.markdown(block.body.clone());
        cx.template(
            "solution",
            context,
            vec![Slot::new("body", body)],
            block.opener.clone(),
        )
    }
}
