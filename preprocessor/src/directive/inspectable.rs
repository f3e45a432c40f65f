//! Inspectable formulas: tags the registered symbols of a formula (see
//! [`crate::inspect`]) and renders the "where" legend and the symbol-by-symbol walk
//! that sit under it. Used by `formula` cards (by default) and `math` blocks with
//! `:inspect: true`.

use std::ops::Range;

use serde::Serialize;

use super::Cx;
use crate::config::UndefinedSymbols;
use crate::inspect;

/// One symbol of the legend.
#[derive(Debug, Serialize)]
struct Item {
    id: String,
    math_html: String,
    name_html: String,
    /// False when the name only repeats the symbol (`n`, read "n").
    show_name: bool,
    meaning_html: Option<String>,
    shape_html: Option<String>,
    code: Option<String>,
    link: Option<String>,
    /// Name of the control of the next widget that sets this symbol.
    control: Option<String>,
}

/// What an inspectable formula renders to.
pub struct Inspected {
    /// The TeX to typeset: the author's with every registered symbol tagged.
    pub tex: String,
    /// The legend and walk (empty when the formula has no registered symbol).
    pub legend_html: String,
}

/// Tags `tex` (written at `span`; `tex_offset` is where its first byte is in the source,
/// when it is a verbatim slice) and renders its legend with element ids from `id`.
pub fn inspect(
    cx: &mut Cx,
    tex: &str,
    span: Range<usize>,
    tex_offset: Option<usize>,
    id: &str,
) -> Inspected {
    inspect_with_controls(cx, tex, span, tex_offset, id, &Default::default(), &[])
}

/// [`inspect`], with symbols linked to controls of the next widget (`symbol id → control
/// name`); a linked symbol that is not in the formula is an error.
pub fn inspect_with_controls(
    cx: &mut Cx,
    tex: &str,
    span: Range<usize>,
    tex_offset: Option<usize>,
    id: &str,
    controls: &std::collections::BTreeMap<String, String>,
    prefer: &[String],
) -> Inspected {
    let at = |r: &Range<usize>| match tex_offset {
        Some(o) => o + r.start..o + r.end.max(r.start + 1),
        None => span.clone(),
    };
    let patterns = cx
        .book
        .notation
        .patterns_preferring(cx.chapter_path, prefer);
    let plain: Vec<inspect::Pattern> = patterns.iter().map(|(_, p)| p.clone()).collect();
    let tagged = inspect::tag(tex, &plain);
    for p in &tagged.problems {
        let d = cx
            .error(at(&p.range), p.message.clone())
            .with_hint(p.hint.clone());
        cx.diagnostics.push(d);
    }
    if !tagged.undefined.is_empty() && cx.book.undefined_symbols != UndefinedSymbols::Allow {
        let list = tagged
            .undefined
            .iter()
            .map(|u| format!("`{}`", u.text))
            .collect::<Vec<_>>()
            .join(", ");
        let first = &tagged.undefined[0].range;
        let message = format!(
            "symbol{} {list} in an inspectable formula {} not defined",
            if tagged.undefined.len() == 1 { "" } else { "s" },
            if tagged.undefined.len() == 1 {
                "is"
            } else {
                "are"
            }
        );
        let hint = "define each in a `symbol-table`, a `symbols` strip, the card's `where:` list or the book's symbols file; wrap a letter that needs no definition in `\\nosym{...}`; or set `undefined-symbols = \"allow\"` in book.toml";
        let d = match cx.book.undefined_symbols {
            UndefinedSymbols::Error => cx.error(at(first), message),
            _ => cx.warning(at(first), message),
        }
        .with_label("no symbol of the book covers this")
        .with_hint(hint);
        cx.diagnostics.push(d);
    }
    let mut items = Vec::new();
    for sym in &tagged.symbols {
        let Some((index, _)) = patterns.iter().find(|(_, p)| &p.id == sym) else {
            continue;
        };
        let def = cx.book.notation.definitions[*index].clone();
        let s = &def.symbol;
        // Typeset as in the defining chapter; problems are reported at the definition.
        let math_html = cx.as_defined(&def, "tex", |cx| {
            cx.option_math(&s.tex, false, span.clone())
        });
        // Beside the glyph the name shows; with the glyph alone, the spoken form is
        // the button's hidden text.
        let show_name = s.called().trim() != s.tex.trim();
        let (shown, key) = match (
            show_name,
            s.name.trim().is_empty(),
            s.read.trim().is_empty(),
        ) {
            (true, false, _) | (false, false, true) => (s.called(), "name"),
            _ => (s.spoken(), "read"),
        };
        let name_html = cx.as_defined(&def, key, |cx| cx.inline(shown, span.clone()));
        let meaning_html = s
            .meaning
            .as_ref()
            .map(|m| cx.as_defined(&def, "meaning", |cx| cx.inline(m, span.clone())));
        let shape_html = s
            .shape
            .as_ref()
            .map(|t| cx.as_defined(&def, "shape", |cx| cx.option_math(t, false, span.clone())));
        let link = cx.book.notation.link(*index, cx.chapter_path);
        items.push(Item {
            id: s.id.clone(),
            math_html,
            name_html,
            show_name,
            meaning_html,
            shape_html,
            code: s.code.clone(),
            link,
            control: controls.get(&s.id).cloned(),
        });
    }
    for sym in controls.keys() {
        if !tagged.symbols.contains(sym) {
            let d = cx
                .error(
                    span.clone(),
                    format!("`controls` names `{sym}`, which is not a symbol of this formula"),
                )
                .with_hint(format!(
                    "the formula's symbols are: {}",
                    tagged
                        .symbols
                        .iter()
                        .map(|s| format!("`{s}`"))
                        .collect::<Vec<_>>()
                        .join(", ")
                ));
            cx.diagnostics.push(d);
        }
    }
    let legend_html = if items.is_empty() {
        String::new()
    } else {
        let mut context = tera::Context::new();
        context.insert("id", id);
        context.insert("symbols", &items);
        match cx.template("inspect", context, Vec::new(), span.clone()) {
            Ok(html) => html,
            Err(d) => {
                cx.diagnostics.push(d);
                String::new()
            }
        }
    };
    Inspected {
        tex: tagged.tex,
        legend_html,
    }
}
