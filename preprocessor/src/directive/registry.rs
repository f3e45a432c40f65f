//! The one list of directives, above them all: adding a directive means writing a module
//! next to this file implementing [`Directive`], adding its template to `templates.rs`,
//! and listing it here. Also the walks that ask every block of a chapter what it
//! contributes (its id, its labels, its symbols), for the book-wide pass.

use super::callout::{self, Callout};
use super::check::Check;
use super::claim::Claim;
use super::connection::Connection;
use super::contribute::{Contribution, Entry};
use super::demo::Demo;
use super::formula::Formula;
use super::indexes::{ClaimsIndex, NotationIndex};
use super::lists::{FurtherReading, Takeaways};
use super::math_block::MathBlock;
use super::practice::{Practice, Solution};
use super::steps::Steps;
use super::symbol_table::SymbolTable;
use super::symbols::Symbols;
use super::watch::Watch;
/// After a chapter: the `controls:` links no later widget took (an error each).
pub(crate) use super::widget::controls_without_widget;
use super::widget::Widget;
use super::widget_reference::WidgetReference;
use super::{block, check, equation_ref, Block, Directive, Role, MAX_DIRECTIVE_NESTING};
use std::collections::HashMap;
use std::ops::Range;

/// Every directive, by name.
pub static DIRECTIVES: &[&dyn Directive] = &[
    &Demo,
    &Claim,
    &Check,
    &Formula,
    &MathBlock,
    &Practice,
    &Solution,
    &Callout(&callout::RECOGNITION),
    &Callout(&callout::PITFALL),
    &Callout(&callout::EXAMPLE),
    &Callout(&callout::HISTORY),
    &Callout(&callout::DEEPER),
    &Callout(&callout::SKEPTIC),
    &Callout(&callout::NOTE),
    &Callout(&callout::TIP),
    &Callout(&callout::IMPORTANT),
    &Callout(&callout::WARNING),
    &Callout(&callout::CAUTION),
    &Symbols,
    &SymbolTable,
    &Steps,
    &Connection,
    &Watch,
    &Takeaways,
    &FurtherReading,
    &Widget,
    &WidgetReference,
    &NotationIndex,
    &ClaimsIndex,
];

/// Every role, by name: `` {eq}`label` `` and `` {calc}`expr ≈ value` ``.
pub static ROLES: &[&Role] = &[&equation_ref::EQ, &check::calc::role::ROLE];

/// The directive called `name`.
pub fn find(name: &str) -> Option<&'static dyn Directive> {
    DIRECTIVES.iter().copied().find(|d| d.name() == name)
}

/// All directive names, in registry order.
pub fn names() -> Vec<&'static str> {
    DIRECTIVES.iter().map(|d| d.name()).collect()
}

#[cfg(test)]
thread_local! {
    /// How many times [`entries`] ran on this thread (once per chapter and build; a test
    /// counts).
    pub(crate) static WALKED: std::cell::Cell<usize> = const { std::cell::Cell::new(0) };
}

/// Every block of the chapter `source` (from `start`, after the front matter), depth
/// first in source order, with its id and its contribution.
pub fn entries(source: &str, start: usize) -> Vec<Entry> {
    #[cfg(test)]
    WALKED.with(|n| n.set(n.get() + 1));
    let mut out = Vec::new();
    let mut counts: HashMap<String, usize> = HashMap::new();
    walk(source, start..source.len(), false, 0, &mut |b, demo| {
        let n = counts.entry(b.name.clone()).or_default();
        *n += 1;
        let mut contribution = Contribution::default();
        let anchor = find(&b.name).and_then(|d| {
            d.contribute(b, source, &mut contribution);
            d.anchor(b, source, *n)
        });
        out.push(Entry {
            block: b.clone(),
            demo,
            anchor,
            contribution,
        });
    });
    out
}

/// Every block of `region` down to the nesting limit (rendering reports deeper blocks);
/// the flag says whether the block sits inside a `{demo}`.
fn walk(
    source: &str,
    region: Range<usize>,
    in_demo: bool,
    depth: usize,
    f: &mut dyn FnMut(&Block, bool),
) {
    if depth >= MAX_DIRECTIVE_NESTING {
        return;
    }
    let (blocks, _) = block::find_blocks(source, region);
    for b in blocks {
        f(&b, in_demo);
        walk(
            source,
            b.body.clone(),
            in_demo || b.name == "demo",
            depth + 1,
            f,
        );
    }
}
