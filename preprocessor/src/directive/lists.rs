//! `{takeaways}` ("Key takeaways") and `{further-reading}` ("Further reading"): a
//! labelled section around a Markdown list (the body). An argument, if any, is shown
//! after the label.

use serde::Deserialize;

use super::{Block, Cx, Directive};
use crate::diagnostic::Diagnostic;
use crate::templates::Slot;

/// The `takeaways` directive.
pub struct Takeaways;
/// The `further-reading` directive.
pub struct FurtherReading;

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct NoOptions {}

#[allow(clippy::result_large_err)] // the crate-wide `Diagnostic` error type
fn render(
    name: &'static str,
    label: &str,
    block: &Block,
    cx: &mut Cx,
) -> Result<String, Diagnostic> {
    cx.options::<NoOptions>(block)?;
    let mut context = tera::Context::new();
    context.insert("id", &cx.ids.fresh_id(name));
    context.insert("label", label);
    if !block.argument.is_empty() {
        let title = cx.inline(&block.argument, block.argument_span.clone());
        context.insert("title_html", &title);
    }
    let body = cx.markdown(block.body.clone());
    cx.template(
        name,
        context,
        vec![Slot::new("body", body)],
        block.opener.clone(),
    )
}

fn degrade(label: &str, block: &Block, cx: &mut Cx) -> String {
    let mut out = format!("**{label}");
    if !block.argument.is_empty() {
        out.push_str(&format!(": {}", block.argument));
    }
    out.push_str("**\n\n");
    out.push_str(&cx.markdown(block.body.clone()));
    out
}

impl Directive for Takeaways {
    fn name(&self) -> &'static str {
        "takeaways"
    }

    fn render(&self, block: &Block, cx: &mut Cx) -> Result<String, Diagnostic> {
        render("takeaways", "Key takeaways", block, cx)
    }

    fn degrade(&self, block: &Block, cx: &mut Cx) -> String {
        degrade("Key takeaways", block, cx)
    }
}

impl Directive for FurtherReading {
    fn name(&self) -> &'static str {
        "further-reading"
    }

    fn render(&self, block: &Block, cx: &mut Cx) -> Result<String, Diagnostic> {
        render("further-reading", "Further reading", block, cx)
    }

    fn degrade(&self, block: &Block, cx: &mut Cx) -> String {
        degrade("Further reading", block, cx)
    }
}

#[cfg(test)]
mod tests {
    use super::super::testkit::{degrade, errors, render};

    #[test]
    fn labelled_sections_around_the_list() {
        let out = render(":::{takeaways}\n- A norm is a length: $\\sqrt{5}$.\n- Two.\n:::\n");
        assert!(out.contains("<section class=\"mc-takeaways\""), "{out}");
        assert!(out.contains(">Key takeaways</span>"), "{out}");
        assert!(
            out.contains("\n\n- A norm is a length: <span class=\"mc-nowrap\"><span class=\"katex\" data-tex="),
            "{out}"
        );
        let out = render(":::{further-reading} Papers\n- *Attention Is All You Need*\n:::\n");
        assert!(
            out.contains("<section class=\"mc-further-reading\""),
            "{out}"
        );
        assert!(out.contains(">Further reading</span>"), "{out}");
        assert!(out.contains("Papers"), "{out}");
    }

    #[test]
    fn no_options() {
        let e = errors(":::{takeaways}\n:open: true\n- x\n:::\n");
        assert!(
            e.contains("unknown option `open` for directive `takeaways`"),
            "{e}"
        );
        assert!(e.contains("src/t.md:2:2"), "{e}");
    }

    #[test]
    fn degrade_keeps_the_label() {
        assert_eq!(
            degrade(":::{further-reading}\n- A book.\n:::\n"),
            "**Further reading**\n\n- A book.\n\n"
        );
    }
}
