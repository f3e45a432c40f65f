//! `{symbol-table}`: every symbol of a chapter in a table — the symbol, how to read
//! it, what it means, and how it is written in code.
//!
//! ```markdown
//! :::{symbol-table} Every symbol
//! ---
//! - {id: vec-x, tex: '\mathbf{x}', read: x (bold), meaning: A vector, code: x}
//! ---
//! :::
//! ```

use serde::Serialize;

use super::symbol_list::{self as symbol, Fields};
use super::{Block, Cx, Directive};
use crate::diagnostic::Diagnostic;

/// The `symbol-table` directive.
pub struct SymbolTable;

#[derive(Serialize)]
struct Row {
    id: String,
    anchor: Option<String>,
    math_html: String,
    read_html: String,
    meaning_html: String,
    shape_html: Option<String>,
    code: Option<String>,
}

impl Directive for SymbolTable {
    fn name(&self) -> &'static str {
        "symbol-table"
    }

    fn takes_body(&self) -> bool {
        false
    }

    fn contribute(&self, block: &Block, source: &str, out: &mut super::contribute::Contribution) {
        symbol::contribute(block, source, out);
    }

    fn render(&self, block: &Block, cx: &mut Cx) -> Result<String, Diagnostic> {
        let symbols = symbol::read_list(block, cx, Fields::Table)?;
        let mut rows = Vec::new();
        for s in &symbols {
            let math_html =
                cx.math
                    .option_math(&mut cx.report, &s.symbol.tex, false, s.span_of("tex"));
            let read_html = cx.inline(s.symbol.spoken(), s.span_of_any(&["read", "name"]));
            let meaning = s.symbol.meaning.clone().unwrap_or_default();
            let meaning_html = cx.inline(&meaning, s.span_of("meaning"));
            let shape_html = s.symbol.shape.as_ref().map(|tex| {
                cx.math
                    .option_math(&mut cx.report, tex, false, s.span_of("shape"))
            });
            rows.push(Row {
                id: s.symbol.id.clone(),
                anchor: cx.ids.first_anchor(format!("sym-{}", s.symbol.id)),
                math_html,
                read_html,
                meaning_html,
                shape_html,
                code: s.symbol.code.clone(),
            });
        }
        let caption = if block.argument.is_empty() {
            "Symbols".to_string()
        } else {
            block.argument.clone()
        };
        let caption_html = cx.inline(&caption, block.argument_span.clone());
        let mut context = tera::Context::new();
        context.insert("id", &cx.ids.fresh_id("symbol-table"));
        context.insert("caption_html", &caption_html);
        context.insert("symbols", &rows);
        cx.template("symbol-table", context, Vec::new(), block.opener.clone())
    }

    fn degrade(&self, block: &Block, cx: &mut Cx) -> String {
        let caption = if block.argument.is_empty() {
            "Symbols"
        } else {
            block.argument.as_str()
        };
        let mut out = format!("**{caption}**\n\n");
        out.push_str("| Symbol | Read it as | Meaning | In code |\n|---|---|---|---|\n");
        for s in symbol::read_list_lenient(block, cx) {
            let mut meaning = cell(s.meaning.as_deref().unwrap_or(""));
            if let Some(shape) = &s.shape {
                meaning.push_str(&format!(" Shape: ${}$", tex_cell(shape)));
            }
            let code = s
                .code
                .as_deref()
                .map(|c| format!("`{}`", c.replace('|', "\\|")))
                .unwrap_or_default();
            out.push_str(&format!(
                "| ${}$ | {} | {} | {} |\n",
                tex_cell(&s.tex),
                cell(s.spoken()),
                meaning,
                code
            ));
        }
        out
    }
}

/// Text for a Markdown table cell: one line, pipes escaped.
fn cell(text: &str) -> String {
    text.split_whitespace()
        .collect::<Vec<_>>()
        .join(" ")
        .replace('|', "\\|")
}

/// TeX for a Markdown table cell: `|` would end the cell even inside math, so use
/// `\vert`/`\Vert`.
fn tex_cell(tex: &str) -> String {
    cell(&tex.replace("\\|", "\\Vert ").replace('|', "\\vert "))
}

#[cfg(test)]
mod tests {
    use super::super::testkit::{degrade, errors, render};

    const OK: &str = ":::{symbol-table} Every *symbol*\n---\n- {id: norm, tex: '\\|x\\|', read: norm of x, meaning: Length of $x$, code: 'np.linalg.norm(x)'}\n- {id: mat-w, tex: W, read: W, meaning: A weight matrix, shape: '(n, k)'}\n---\n:::\n";

    #[test]
    fn renders_an_accessible_table() {
        let out = render(OK);
        assert!(out.contains("<table class=\"mc-symbol-table\""), "{out}");
        assert!(out.contains("<caption id=\""), "{out}");
        assert!(out.contains("Every <em>symbol</em></caption>"), "{out}");
        for h in ["Symbol", "Read it as", "Meaning", "In code"] {
            assert!(
                out.contains(&format!("<th scope=\"col\">{h}</th>")),
                "{out}"
            );
        }
        assert!(out.contains("<th scope=\"row\""), "{out}");
        assert!(out.contains("<code>np.linalg.norm(x)</code>"), "{out}");
        assert!(out.contains("Shape:"), "{out}");
        assert_eq!(out.matches("class=\"katex\"").count(), 4, "{out}");
    }

    #[test]
    fn name_and_read_are_two_fields() {
        // Both keys together are fine, and each goes where it belongs: the table's
        // "Read it as" column reads `read`, never the descriptive `name`.
        let out = render(":::{symbol-table}\n---\n- {id: x-in, tex: '\\mathbf{x}', name: Input vector, read: bold x, meaning: The input}\n---\n:::\n");
        assert!(out.contains("bold x"), "{out}");
        assert!(!out.contains("Input vector"), "{out}");
        // `name` alone still serves as the reading.
        let out = render(
            ":::{symbol-table}\n---\n- {id: a, tex: a, name: alpha one, meaning: m}\n---\n:::\n",
        );
        assert!(out.contains("alpha one"), "{out}");
        // A wrong type names the key written.
        let e = errors(":::{symbol-table}\n---\n- {id: a, tex: a, name: ok, read: [1], meaning: m}\n---\n:::\n");
        assert!(e.contains("key `read`"), "{e}");
        assert!(!e.contains("duplicate field"), "{e}");
    }

    #[test]
    fn option_errors() {
        let e = errors(":::{symbol-table}\n---\n- {id: a, tex: x, read: a, meanin: m}\n---\n:::\n");
        assert!(e.contains("unknown key `meanin`"), "{e}");
        assert!(e.contains("did you mean `meaning`?"), "{e}");
        let e = errors(":::{symbol-table}\n---\n- {id: a, tex: x, read: a}\n---\n:::\n");
        assert!(
            e.contains("item 1 of `symbol-table` needs the key `meaning`"),
            "{e}"
        );
        assert!(e.contains("src/t.md:3:3"), "{e}");
        let e = errors(":::{symbol-table}\n---\n- {id: a, tex: x, meaning: m}\n---\n:::\n");
        assert!(e.contains("needs the key `read`"), "{e}");
        let e = errors(":::{symbol-table}\n---\n- {id: a, tex: x, read: a, meaning: m, code: {a: 1}}\n---\n:::\n");
        assert!(e.contains("key `code`: invalid type"), "{e}");
    }

    #[test]
    fn degrades_to_a_markdown_table() {
        assert_eq!(
            degrade(OK),
            "**Every *symbol***\n\n| Symbol | Read it as | Meaning | In code |\n|---|---|---|---|\n\
             | $\\Vert x\\Vert$ | norm of x | Length of $x$ | `np.linalg.norm(x)` |\n\
             | $W$ | W | A weight matrix Shape: $(n, k)$ |  |\n\n"
        );
    }
}
