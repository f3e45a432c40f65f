//! `{demo}`: shows a piece of Markdown twice — as its source and as the rendered
//! result — for the author guide. Wrap it in a longer fence than the directives inside.

use serde::Deserialize;

use super::{Block, Cx, Directive};
use crate::diagnostic::Diagnostic;
use crate::templates::Slot;

/// The `demo` directive.
pub struct Demo;

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct NoOptions {}

impl Directive for Demo {
    fn name(&self) -> &'static str {
        "demo"
    }

    fn render(&self, block: &Block, cx: &mut Cx) -> Result<String, Diagnostic> {
        cx.options::<NoOptions>(block)?;
        let raw = cx.source[block.body.clone()].to_string();
        let source = source_block(&raw);
        let result = cx.markdown(block.body.clone());
        let mut context = tera::Context::new();
        if !block.argument.is_empty() {
            let title = cx.inline(&block.argument, block.argument_span.clone());
            context.insert("title_html", &title);
        }
        cx.template(
            "demo",
            context,
            vec![Slot::new("source", source), Slot::new("result", result)],
            block.opener.clone(),
        )
    }

    fn degrade(&self, block: &Block, cx: &mut Cx) -> String {
        let raw = cx.source[block.body.clone()].to_string();
        format!(
            "{}\n\n{}",
            source_block(&raw),
            cx.markdown(block.body.clone())
        )
    }
}

/// A plain-text code block holding `raw`, fenced with more backticks than it contains.
fn source_block(raw: &str) -> String {
    let longest = raw.split(|c| c != '`').map(str::len).max().unwrap_or(0);
    let fence = "`".repeat(longest.max(2) + 1);
    format!("{fence}text\n{}\n{fence}", raw.trim_end_matches('\n'))
}
