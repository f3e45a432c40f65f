//! Callouts: recognition, pitfall, worked example, history, go deeper (collapsed),
//! skeptic's corner (checklist), and MyST's standard admonitions.

use serde::Deserialize;

use super::{Block, Cx, Directive};
use crate::diagnostic::Diagnostic;
use crate::templates::Slot;

/// One kind of callout.
pub struct Kind {
    /// Directive name.
    pub name: &'static str,
    /// Label shown above the title.
    pub label: &'static str,
    /// Decorative glyph.
    pub icon: &'static str,
    /// Rendered as a closed `<details>`.
    pub collapsed: bool,
    /// Body list items get checkboxes.
    pub checklist: bool,
}

macro_rules! kind {
    ($id:ident, $name:literal, $label:literal, $icon:literal) => {
        kind!($id, $name, $label, $icon, false, false);
    };
    ($id:ident, $name:literal, $label:literal, $icon:literal, $collapsed:literal, $checklist:literal) => {
        #[doc = concat!("`{", $name, "}`")]
        pub static $id: Kind = Kind {
            name: $name,
            label: $label,
            icon: $icon,
            collapsed: $collapsed,
            checklist: $checklist,
        };
    };
}

kind!(RECOGNITION, "recognition", "You have seen this before", "↺");
kind!(PITFALL, "pitfall", "Pitfall", "⚠");
kind!(EXAMPLE, "example", "Worked example", "✎");
kind!(HISTORY, "history", "History and sources", "❝");
kind!(DEEPER, "deeper", "Go deeper", "↓", true, false);
kind!(SKEPTIC, "skeptic", "Skeptic's corner", "?", false, true);
kind!(NOTE, "note", "Note", "ℹ");
kind!(TIP, "tip", "Tip", "★");
kind!(IMPORTANT, "important", "Important", "!");
kind!(WARNING, "warning", "Warning", "⚠");
kind!(CAUTION, "caution", "Caution", "⚠");

/// A callout directive of the given kind.
pub struct Callout(pub &'static Kind);

#[derive(Deserialize)]
#[serde(deny_unknown_fields, rename_all = "kebab-case")]
struct Options {
    #[serde(default)]
    source: Option<String>,
    #[serde(default)]
    open: bool,
}

impl Directive for Callout {
    fn name(&self) -> &'static str {
        self.0.name
    }

    fn render(&self, block: &Block, cx: &mut Cx) -> Result<String, Diagnostic> {
        let options = cx.options::<Options>(block)?;
        let kind = self.0;
        let mut context = tera::Context::new();
        context.insert("kind", kind.name);
        context.insert("label", kind.label);
        context.insert("icon", kind.icon);
        context.insert("collapsed", &kind.collapsed);
        context.insert("open", &options.open);
        context.insert("checklist", &kind.checklist);
        context.insert("id", &cx.ids.fresh_id(kind.name));
        if !block.argument.is_empty() {
            let title = cx.inline(&block.argument, block.argument_span.clone());
            context.insert("title_html", &title);
        }
        if let Some(source) = &options.source {
            let html = cx.inline(source, block.opener.clone());
            context.insert("source_html", &html);
        }
        let body = cx.markdown(block.body.clone());
        cx.template(
            "callout",
            context,
            vec![Slot::new("body", body)],
            block.opener.clone(),
        )
    }
}
