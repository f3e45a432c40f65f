//! Inspectable formulas: tags the registered symbols of a formula (see
//! [`crate::inspect`]) and renders the "where" legend and the symbol-by-symbol walk
//! that sit under it. Used by `formula` cards (by default) and `math` blocks with
//! `:inspect: true`.

use std::ops::Range;

use serde::Serialize;

use super::{Block, Cx};
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

/// Which symbols a formula names itself: its own `where:` entries and its `uses:` list,
/// each with where it is written (for the warning when the formula does not contain it).
#[derive(Debug, Default)]
pub struct Named {
    /// Ids of the formula's `where:` entries, with the span of each entry.
    pub own: Vec<(String, Range<usize>)>,
    /// Ids of its `uses:` list, with the span of each.
    pub uses: Vec<(String, Range<usize>)>,
}

/// Tags `tex` (written at `span`; `tex_offset` is where its first byte is in the source,
/// when it is a verbatim slice) and renders its legend with element ids from `id`.
pub fn inspect(
    cx: &mut Cx,
    tex: &str,
    span: Range<usize>,
    tex_offset: Option<usize>,
    id: &str,
    named: &Named,
) -> Inspected {
    inspect_with_controls(cx, tex, span, tex_offset, id, &Default::default(), named)
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
    named: &Named,
) -> Inspected {
    let unknown_use = report_unknown_uses(cx, named);
    let (tagged, patterns) = tag(cx, tex, &span, named, unknown_use);
    report_absent_entries(cx, named, &tagged);
    let at = |r: &Range<usize>| match tex_offset {
        Some(o) => o + r.start..o + r.end.max(r.start + 1),
        None => span.clone(),
    };
    report_tagging_problems(cx, &tagged, &at);
    let items = legend_items(cx, &tagged, &patterns, &span, controls);
    report_unknown_controls(cx, controls, &tagged, &span);
    let legend_html = if items.is_empty() {
        String::new()
    } else {
        let mut context = tera::Context::new();
        context.insert("id", id);
        context.insert("symbols", &items);
        match cx.template("inspect", context, Vec::new(), span.clone()) {
            Ok(html) => html,
            Err(d) => {
                cx.report.push(d);
                String::new()
            }
        }
    };
    Inspected {
        tex: tagged.tex,
        legend_html,
    }
}

/// Reports each `uses:` id no symbol of the book has; true when there is one.
fn report_unknown_uses(cx: &mut Cx, named: &Named) -> bool {
    let mut unknown_use = false;
    for (used, used_span) in &named.uses {
        if cx.book.notation.with_id(used).is_empty() {
            unknown_use = true;
            let ids: Vec<&str> = cx
                .book
                .notation
                .definitions
                .iter()
                .map(|d| d.symbol.id.as_str())
                .collect();
            let d = cx
                .report.error(used_span.clone(), format!("`uses` names `{used}`, which no symbol of the book has as its id"))
                .with_label("unknown symbol id")
                .with_hint(format!(
                    "write the `id` of a symbol defined in a `symbol-table`, a `symbols` strip, a card's `where:` list or the book's symbols file{}",
                    super::options::did_you_mean(used, &ids)
                ));
            cx.report.push(d);
        }
    }
    unknown_use
}

/// The formula tagged with the symbols its chapter (or `where:`/`uses:`) gives it, and
/// those symbols' patterns (by definition index). A glyph with two meanings in the
/// chapter that the formula contains and does not choose between is reported and left
/// untagged.
fn tag(
    cx: &mut Cx,
    tex: &str,
    span: &Range<usize>,
    named: &Named,
    unknown_use: bool,
) -> (inspect::Tagged, Vec<(usize, inspect::Pattern)>) {
    let own: Vec<String> = named.own.iter().map(|(i, _)| i.clone()).collect();
    let uses: Vec<String> = named.uses.iter().map(|(i, _)| i.clone()).collect();
    // Only the symbols whose TeX occurs in the formula: each formula costs what it
    // contains, however many symbols the book defines.
    let among = cx.book.notation.occurring(tex);
    let resolved = cx
        .book
        .notation
        .resolve_among(cx.chapter_path, &own, &uses, among.as_deref());
    let patterns = resolved.patterns;
    let plain: Vec<inspect::Pattern> = patterns.iter().map(|(_, p)| p.clone()).collect();
    if resolved.ambiguous.is_empty() {
        return (inspect::tag(tex, &plain), patterns);
    }
    // Tag with the ambiguous glyphs too, to learn whether the formula contains them.
    let probe: Vec<inspect::Pattern> = plain
        .iter()
        .cloned()
        .chain(
            resolved
                .ambiguous
                .iter()
                .map(|defs| cx.book.notation.pattern(defs[0])),
        )
        .collect();
    let tagged = inspect::tag(tex, &probe);
    let contained: Vec<&Vec<usize>> = resolved
        .ambiguous
        .iter()
        // A misspelt `uses:` id was meant to choose: it alone is reported.
        .filter(|_| !unknown_use)
        .filter(|defs| {
            let first = &cx.book.notation.definitions[defs[0]].symbol.id;
            tagged.symbols.contains(first)
        })
        .collect();
    for defs in &contained {
        let notation = &cx.book.notation;
        let first = &notation.definitions[defs[0]].symbol;
        let list = defs
            .iter()
            .map(|&i| {
                let d = &notation.definitions[i];
                format!(
                    "`{}` (\"{}\", {})",
                    d.symbol.id,
                    d.symbol
                        .meaning
                        .as_deref()
                        .map(crate::notation::collapse)
                        .unwrap_or_default(),
                    d.defined_at
                )
            })
            .collect::<Vec<_>>()
            .join(" and ");
        let d = cx
            .report.error(
                span.clone(),
                format!(
                    "`{}` has {} meanings in this chapter, and this formula does not say which it means",
                    first.tex,
                    defs.len()
                ),
            )
            .with_label("which meaning?")
            .with_hint(format!(
                "this chapter defines {list}; name the one this formula means with `uses: [{}]` (or give the formula its own `where:` entry)",
                first.id
            ));
        cx.report.push(d);
    }
    // Tagged for real without the glyphs no meaning was chosen for.
    (inspect::tag(tex, &plain), patterns)
}

/// Warns about each `where:` entry or `uses:` id whose symbol the formula does not show.
fn report_absent_entries(cx: &mut Cx, named: &Named, tagged: &inspect::Tagged) {
    for (name, entry_span) in named.own.iter().chain(&named.uses) {
        if !tagged.symbols.contains(name) && !cx.book.notation.with_id(name).is_empty() {
            let d = cx
                .report.warning(
                    entry_span.clone(),
                    format!("`{name}` does not occur in this formula"),
                )
                .with_label("not found in the formula's TeX")
                .with_hint("a `where:` entry or a `uses:` id explains a symbol of the formula: write its TeX as the formula writes it (`\\mathbf{x}`, `x_i`), or remove the entry");
            cx.report.push(d);
        }
    }
}

/// Reports what tagging found wrong (a malformed `\sym`, …) and the letters no symbol
/// covers (as `undefined-symbols` says), each at `at` of its range in the TeX.
fn report_tagging_problems(
    cx: &mut Cx,
    tagged: &inspect::Tagged,
    at: &dyn Fn(&Range<usize>) -> Range<usize>,
) {
    for p in &tagged.problems {
        let d = cx
            .report
            .error(at(&p.range), p.message.clone())
            .with_hint(p.hint.clone());
        cx.report.push(d);
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
        // A letter another chapter defines: a formula never borrows it silently.
        let elsewhere: Vec<String> = tagged
            .undefined
            .iter()
            .flat_map(|u| cx.book.notation.elsewhere(cx.chapter_path, &u.text))
            .take(3)
            .map(|i| {
                let d = &cx.book.notation.definitions[i];
                format!(
                    "`{}` is defined at {} as `{}`",
                    d.symbol.id, d.defined_at, d.symbol.tex
                )
            })
            .collect();
        let borrow = if elsewhere.is_empty() {
            String::new()
        } else {
            format!(
                "; a formula takes its symbols from its own chapter and the book's symbols file only: {}, so to use that meaning here write `uses: [id]` in this formula's options",
                elsewhere.join(", ")
            )
        };
        let hint = format!("define each in a `symbol-table`, a `symbols` strip, the card's `where:` list or the book's symbols file; wrap a letter that needs no definition in `\\nosym{{...}}`; or set `undefined-symbols = \"allow\"` in book.toml{borrow}");
        let d = match cx.book.undefined_symbols {
            UndefinedSymbols::Error => cx.report.error(at(first), message),
            _ => cx.report.warning(at(first), message),
        }
        .with_label("no symbol of the book covers this")
        .with_hint(hint);
        cx.report.push(d);
    }
}

/// The "where" list: each symbol of the formula with its glyph, name, meaning, shape,
/// code, link and control, typeset as in the chapter that defines it.
fn legend_items(
    cx: &mut Cx,
    tagged: &inspect::Tagged,
    patterns: &[(usize, inspect::Pattern)],
    span: &Range<usize>,
    controls: &std::collections::BTreeMap<String, String>,
) -> Vec<Item> {
    let mut items = Vec::new();
    for sym in &tagged.symbols {
        let Some((index, _)) = patterns.iter().find(|(_, p)| &p.id == sym) else {
            continue;
        };
        let def = cx.book.notation.definitions[*index].clone();
        let s = &def.symbol;
        // Typeset as in the defining chapter; problems are reported at the definition.
        let math_html = cx.as_defined(&def, "tex", |cx| {
            cx.math
                .option_math(&mut cx.report, &s.tex, false, span.clone())
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
        let shape_html = s.shape.as_ref().map(|t| {
            cx.as_defined(&def, "shape", |cx| {
                cx.math.option_math(&mut cx.report, t, false, span.clone())
            })
        });
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
    items
}

/// Reports each `controls` entry that names no symbol of the formula.
fn report_unknown_controls(
    cx: &mut Cx,
    controls: &std::collections::BTreeMap<String, String>,
    tagged: &inspect::Tagged,
    span: &Range<usize>,
) {
    for sym in controls.keys() {
        if !tagged.symbols.contains(sym) {
            let d = cx
                .report.error(
                    span.clone(),
                    format!("`controls` names `{sym}`, which is not a symbol of this formula"),
                )
                .with_hint(if tagged.symbols.is_empty() {
                    "this formula uses no defined symbol: define it in the card's `where:` list, or name a definition elsewhere with `uses: [id]`".to_string()
                } else {
                    format!(
                        "the formula's symbols are: {}",
                        tagged
                            .symbols
                            .iter()
                            .map(|s| format!("`{s}`"))
                            .collect::<Vec<_>>()
                            .join(", ")
                    )
                });
            cx.report.push(d);
        }
    }
}

/// Where symbol id `id` is written after option key `key` (the key itself when it is not
/// found before the block's body).
pub fn id_span(
    cx: &Cx,
    key: std::ops::Range<usize>,
    block: &Block,
    id: &str,
) -> std::ops::Range<usize> {
    let end = block.body.start.max(key.end).min(cx.source.len());
    let window = &cx.source[key.start.min(end)..end];
    let bytes = window.as_bytes();
    let boundary = |i: usize| {
        i >= bytes.len()
            || !(bytes[i].is_ascii_alphanumeric() || bytes[i] == b'-' || bytes[i] == b'_')
    };
    let mut from = 0;
    while let Some(i) = window[from..].find(id) {
        let start = from + i;
        let before = start == 0 || boundary(start - 1);
        if before && boundary(start + id.len()) {
            let at = key.start + start;
            return at..at + id.len();
        }
        from = start + id.len().max(1);
    }
    key
}
