//! `{math}`: a display equation, numbered per chapter when it has a `:label:`, which
//! the `{eq}` role references from any chapter. As in MyST, text after `{math}` on the
//! opening line is the equation's first line.

use serde::Deserialize;

use super::{Block, Cx, Directive};
use crate::diagnostic::Diagnostic;

/// The `math` directive.
pub struct MathBlock;

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct Options {
    #[serde(default)]
    label: Option<String>,
    /// Tag the formula's symbols and show the "where" legend.
    #[serde(default)]
    inspect: bool,
    /// Ids of symbols defined elsewhere that this formula means (with `inspect`).
    #[serde(default)]
    uses: Vec<String>,
}

impl Directive for MathBlock {
    fn name(&self) -> &'static str {
        "math"
    }

    fn contribute(&self, block: &Block, source: &str, out: &mut super::contribute::Contribution) {
        out.label = super::label_of(block, source);
        out.formulas.push(source[block.body.clone()].to_string());
    }

    fn render(&self, block: &Block, cx: &mut Cx) -> Result<String, Diagnostic> {
        let options = cx.options::<Options>(block)?;
        let (tex, span, offset) = equation(block, cx);
        if tex.trim().is_empty() {
            return Err(cx
                .report
                .error(block.opener.clone(), "empty `math` block")
                .with_hint("put the TeX of the equation between the opening and closing lines"));
        }
        let mut context = tera::Context::new();
        let id = match &options.label {
            Some(label) => {
                let number = cx.book.labels.get(label).map(|l| l.number.clone());
                context.insert("number", &number);
                label.clone()
            }
            None => cx.ids.fresh_id("eq"),
        };
        context.insert("id", &id);
        let author_tex = tex.clone();
        let (tex, legend_html) = if options.inspect {
            let inspected = super::inspectable::inspect(
                cx,
                &tex,
                span.clone(),
                offset,
                &id,
                &super::inspectable::Named {
                    own: Vec::new(),
                    uses: options
                        .uses
                        .iter()
                        .map(|u| {
                            let at =
                                super::inspectable::id_span(cx, options.span("uses"), block, u);
                            (u.clone(), at)
                        })
                        .collect(),
                },
            );
            (inspected.tex, inspected.legend_html)
        } else {
            (tex, String::new())
        };
        let math = cx
            .math
            .tagged_math(&mut cx.report, &tex, &author_tex, true, span, offset);
        // The annotation keeps the author's TeX, not the tagged one.
        let math = crate::math::with_annotation(&math, &author_tex);
        context.insert("math_html", &math);
        context.insert("legend_html", &legend_html);
        cx.template("math", context, Vec::new(), block.opener.clone())
    }

    fn degrade(&self, block: &Block, cx: &mut Cx) -> String {
        format!("$$\n{}\n$$", equation(block, cx).0.trim_end())
    }
}

/// The equation's TeX: as in MyST, the argument (text after `{math}`) is its first line
/// and the body the rest. Also the bytes to point errors at, and the TeX's offset in
/// the source when it is one verbatim slice of it.
fn equation(block: &Block, cx: &Cx) -> (String, std::ops::Range<usize>, Option<usize>) {
    let body = &cx.source[block.body.clone()];
    if block.argument.is_empty() {
        return (body.to_string(), block.body.clone(), Some(block.body.start));
    }
    let tex = format!("{}\n{body}", block.argument);
    let end = block.body.end.max(block.argument_span.end);
    (tex, block.argument_span.start..end, None)
}
