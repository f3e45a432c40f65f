//! Reading the symbol list of a `symbols` or `symbol-table` block into located
//! [`Symbol`] records, with the checks both directives share.

use std::ops::Range;

use super::options::RawItem;
use super::{Block, Cx};
use crate::diagnostic::Diagnostic;
use crate::symbol::Symbol;

/// A symbol with where its item and keys are written.
#[derive(Debug, Clone)]
pub struct Located {
    /// The record.
    pub symbol: Symbol,
    /// Its list item (key spans for diagnostics and option math).
    pub item: RawItem,
}

impl Located {
    /// Bytes of the value's key among `keys`, the first one written (else the item).
    pub fn span_of_any(&self, keys: &[&str]) -> Range<usize> {
        keys.iter()
            .find(|k| self.item.options.key_spans.contains_key(**k))
            .map_or_else(|| self.span_of(keys[0]), |k| self.span_of(k))
    }

    /// Bytes of `key` in this item (or of the item when the key is absent).
    pub fn span_of(&self, key: &str) -> Range<usize> {
        self.item
            .options
            .key_spans
            .get(key)
            .cloned()
            .unwrap_or(self.item.span.start..self.item.span.start + 1)
    }
}

/// What a directive requires of each symbol.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Fields {
    /// `id`, `tex`, `name` (the chip strip; `read` alone also serves).
    Chip,
    /// `id`, `tex`, `read`, `meaning` (the table; `name` alone also serves).
    Table,
}

fn valid_id(id: &str) -> bool {
    !id.is_empty()
        && id
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || c == '-' || c == '_')
}

/// Reads and checks the symbol list of `block`: at least one item, valid and unique
/// ids, the keys `fields` requires.
#[allow(clippy::result_large_err)] // the crate-wide `Diagnostic` error type
pub fn read_list(block: &Block, cx: &Cx, fields: Fields) -> Result<Vec<Located>, Diagnostic> {
    let items = cx.list_options::<Symbol>(block)?;
    let example = match fields {
        Fields::Chip => "- {id: vec-x, tex: '\\mathbf{x}', name: A vector}",
        Fields::Table => "- {id: vec-x, tex: '\\mathbf{x}', read: x, meaning: A vector, code: x}",
    };
    if items.is_empty() {
        return Err(cx
            .report.error(
                block.opener.clone(),
                format!("directive `{}` needs a list of symbols", block.name),
            )
            .with_label("no symbols given")
            .with_hint(format!(
                "after the opening line write `---`, one item per symbol like `{example}`, and `---`"
            )));
    }
    let mut out: Vec<Located> = Vec::new();
    // Where each id is first written (index into `out`): one lookup per item.
    let mut first_of: std::collections::HashMap<String, usize> = Default::default();
    for (n, (symbol, item)) in items.into_iter().enumerate() {
        let located = Located { symbol, item };
        let s = &located.symbol;
        if !valid_id(&s.id) {
            return Err(cx
                .report
                .error(
                    located.span_of("id"),
                    format!("symbol id `{}` is not a valid id", s.id),
                )
                .with_label("used as the HTML id `sym-<id>`")
                .with_hint("use letters, digits, `-` and `_` only, e.g. `vec-x`"));
        }
        if let Some(first) = first_of.get(&s.id).map(|&i| &out[i]) {
            let (line, _) = crate::diagnostic::line_col(&cx.source, first.span_of("id").start);
            return Err(cx
                .report
                .error(
                    located.span_of("id"),
                    format!("symbol id `{}` is used twice in `{}`", s.id, block.name),
                )
                .with_label(format!("also item on line {line}"))
                .with_hint("give every symbol its own id"));
        }
        let name_key = match fields {
            Fields::Chip => "name",
            Fields::Table => "read",
        };
        if s.name.trim().is_empty() && s.read.trim().is_empty() {
            return Err(cx
                .report
                .error(
                    located.item.span.start..located.item.span.start + 1,
                    format!(
                        "item {} of `{}` needs the key `{name_key}`",
                        n + 1,
                        block.name
                    ),
                )
                .with_label(format!("symbol `{}`", s.id))
                .with_hint(match fields {
                    Fields::Chip => "add `name: ...`, the short name shown on the chip",
                    Fields::Table => "add `read: ...`, how to read the symbol aloud",
                }));
        }
        if fields == Fields::Table && s.meaning.as_deref().is_none_or(|m| m.trim().is_empty()) {
            return Err(cx
                .report
                .error(
                    located.item.span.start..located.item.span.start + 1,
                    format!("item {} of `{}` needs the key `meaning`", n + 1, block.name),
                )
                .with_label(format!("symbol `{}`", s.id))
                .with_hint("add `meaning: ...`, what the symbol stands for"));
        }
        first_of.insert(located.symbol.id.clone(), out.len());
        out.push(located);
    }
    Ok(out)
}

/// The symbol items of `block` without checks (for degraded output).
pub fn read_list_lenient(block: &Block, cx: &Cx) -> Vec<Symbol> {
    cx.list_options::<Symbol>(block)
        .map(|items| items.into_iter().map(|(s, _)| s).collect())
        .unwrap_or_default()
}

/// The symbols of a `symbols` or `symbol-table` block as the book-wide pass reads them
/// (items that do not parse are skipped here; rendering reports them).
pub fn contribute(block: &Block, source: &str, out: &mut super::contribute::Contribution) {
    let Ok(items) = super::options::raw_list(source, block) else {
        return;
    };
    for (i, item) in items.iter().enumerate() {
        if let Ok(symbol) = super::options::typed_item::<Symbol>(item, i, block) {
            out.symbols.push(super::contribute::Defined {
                symbol,
                at: item.span.start,
                keys: item.options.key_spans.clone(),
            });
        }
    }
}
