//! `{symbols}`: the strip of symbol chips at the top of a chapter — each chip shows
//! the rendered symbol and its short name.
//!
//! ```markdown
//! :::{symbols}
//! ---
//! - {id: vec-x, tex: '\mathbf{x}', name: A vector}
//! - {id: norm, tex: '\norm{\mathbf{x}}', name: Norm (length)}
//! ---
//! :::
//! ```

use serde::Serialize;

use super::symbol_list::{self as symbol, Fields};
use super::{Block, Cx, Directive};
use crate::diagnostic::Diagnostic;

/// The `symbols` directive.
pub struct Symbols;

#[derive(Serialize)]
struct Chip {
    id: String,
    anchor: Option<String>,
    math_html: String,
    name_html: String,
}

impl Directive for Symbols {
    fn name(&self) -> &'static str {
        "symbols"
    }

    fn takes_argument(&self) -> bool {
        false
    }

    fn takes_body(&self) -> bool {
        false
    }

    fn contribute(&self, block: &Block, source: &str, out: &mut super::contribute::Contribution) {
        symbol::contribute(block, source, out);
    }

    fn render(&self, block: &Block, cx: &mut Cx) -> Result<String, Diagnostic> {
        let symbols = symbol::read_list(block, cx, Fields::Chip)?;
        if !block.argument.is_empty() {
            return Err(cx
                .report.error(
                    block.argument_span.clone(),
                    "`symbols` takes no argument".to_string(),
                )
                .with_label("remove this text")
                .with_hint("the strip is always labelled \"Symbols in this chapter\"; use `symbol-table` for a captioned table"));
        }
        let mut chips = Vec::new();
        for s in &symbols {
            let math_html =
                cx.math
                    .option_math(&mut cx.report, &s.symbol.tex, false, s.span_of("tex"));
            let name_html = cx.inline(s.symbol.called(), s.span_of_any(&["name", "read"]));
            chips.push(Chip {
                id: s.symbol.id.clone(),
                anchor: cx.ids.first_anchor(format!("sym-{}", s.symbol.id)),
                math_html,
                name_html,
            });
        }
        let mut context = tera::Context::new();
        context.insert("symbols", &chips);
        cx.template("symbols", context, Vec::new(), block.opener.clone())
    }

    fn degrade(&self, block: &Block, cx: &mut Cx) -> String {
        let mut out = String::from("**Symbols in this chapter**\n\n");
        for s in symbol::read_list_lenient(block, cx) {
            out.push_str(&format!("- ${}$: {}\n", s.tex.trim(), s.called().trim()));
        }
        out
    }
}

#[cfg(test)]
mod tests {
    use super::super::testkit::{degrade, errors, render};

    const OK: &str = ":::{symbols}\n---\n- {id: vec-x, tex: '\\mathbf{x}', name: A *vector*}\n- id: dim-d\n  tex: d\n  name: Dimension\n---\n:::\n";

    #[test]
    fn renders_chips_with_math_and_name() {
        let out = render(OK);
        assert!(
            out.contains("<ul class=\"mc-symbols\" aria-label=\"Symbols in this chapter\">"),
            "{out}"
        );
        assert!(
            out.contains("<li class=\"mc-chip\" id=\"sym-vec-x\">"),
            "{out}"
        );
        assert!(
            out.contains("<li class=\"mc-chip\" id=\"sym-dim-d\">"),
            "{out}"
        );
        assert!(out.contains("class=\"katex\""), "{out}");
        assert!(out.contains("A <em>vector</em>"), "{out}");
        assert!(out.contains("Dimension"), "{out}");
    }

    #[test]
    fn the_chip_shows_the_name_not_the_reading() {
        let out = render(":::{symbols}\n---\n- {id: x-in, tex: x, name: Input vector, read: x}\n- {id: t, tex: t, read: tee}\n---\n:::\n");
        assert!(
            out.contains("<span class=\"mc-chip-name\">Input vector</span>"),
            "{out}"
        );
        // With `read` only, it serves as the name.
        assert!(
            out.contains("<span class=\"mc-chip-name\">tee</span>"),
            "{out}"
        );
    }

    #[test]
    fn unknown_key_points_at_it_with_suggestion() {
        let e = errors(":::{symbols}\n---\n- {id: a, tex: x, nme: A}\n---\n:::\n");
        assert!(
            e.contains("unknown key `nme` in item 1 of `symbols`"),
            "{e}"
        );
        assert!(e.contains("did you mean `name`?"), "{e}");
        assert!(e.contains("src/t.md:3:19"), "{e}");
    }

    #[test]
    fn missing_key_wrong_type_and_bad_shape() {
        let e =
            errors(":::{symbols}\n---\n- {id: a, tex: x, name: A}\n- {id: b, name: B}\n---\n:::\n");
        assert!(e.contains("item 2 of `symbols` needs the key `tex`"), "{e}");
        assert!(e.contains("src/t.md:4:3"), "{e}");
        let e = errors(":::{symbols}\n---\n- {id: a, tex: [x], name: A}\n---\n:::\n");
        assert!(e.contains("item 1 of `symbols`, key `tex`"), "{e}");
        assert!(e.contains("src/t.md:3:11"), "{e}");
        let e = errors(":::{symbols}\n---\n- {id: a, tex: x}\n---\n:::\n");
        assert!(e.contains("needs the key `name`"), "{e}");
        let e = errors(":::{symbols}\n---\nid: a\n---\n:::\n");
        assert!(e.contains("must be a YAML list"), "{e}");
        let e = errors(":::{symbols}\n:id: a\n:::\n");
        assert!(
            e.contains("are a YAML list, not `:key: value` lines"),
            "{e}"
        );
        let e = errors(":::{symbols}\n:::\n");
        assert!(e.contains("needs a list of symbols"), "{e}");
    }

    #[test]
    fn ids_are_checked() {
        let e = errors(
            ":::{symbols}\n---\n- {id: a, tex: x, name: A}\n- {id: a, tex: y, name: B}\n---\n:::\n",
        );
        assert!(e.contains("symbol id `a` is used twice"), "{e}");
        let e = errors(":::{symbols}\n---\n- {id: 'a b', tex: x, name: A}\n---\n:::\n");
        assert!(e.contains("not a valid id"), "{e}");
    }

    #[test]
    fn yaml_1_1_booleans_stay_letters() {
        let out = render(":::{symbols}\n---\n- {id: y, tex: y, name: n}\n---\n:::\n");
        assert!(out.contains("id=\"sym-y\""), "{out}");
        assert!(
            out.contains("<span class=\"mc-chip-name\">n</span>"),
            "{out}"
        );
    }

    #[test]
    fn bad_tex_is_a_located_latex_error() {
        let e = errors(":::{symbols}\n---\n- {id: a, tex: '\\nope', name: A}\n---\n:::\n");
        assert!(e.contains("LaTeX error"), "{e}");
        assert!(e.contains("src/t.md:3:11"), "{e}");
    }

    #[test]
    fn degrades_to_a_list() {
        assert_eq!(
            degrade(OK),
            "**Symbols in this chapter**\n\n- $\\mathbf{x}$: A *vector*\n- $d$: Dimension\n\n"
        );
    }
}
