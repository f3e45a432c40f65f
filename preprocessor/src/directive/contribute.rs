//! What each block adds to the whole book, read by the book-wide pass before any
//! chapter renders: the symbols it defines, the claim it makes, the equation label it
//! sets, and the id other pages link to. Each directive states its own part
//! ([`Directive::contribute`], [`Directive::anchor`]); this module only walks a
//! chapter's blocks and asks them. The ids are counted here and nowhere else: the
//! renderer looks a block's id up by its position ([`anchors`]).

use std::collections::{BTreeMap, HashMap};
use std::ops::Range;

use super::{block, registry, Block, MAX_DIRECTIVE_NESTING};
use crate::symbol::Symbol;

/// A symbol a block defines, with where it is written.
#[derive(Debug, Clone)]
pub struct Defined {
    /// The record.
    pub symbol: Symbol,
    /// Where its item (or the card's `where` key) starts.
    pub at: usize,
    /// Bytes of each of its keys (empty when not known one by one).
    pub keys: BTreeMap<String, Range<usize>>,
}

/// A claim a block makes (a `claim`, or a formula card with a `status`).
#[derive(Debug, Clone)]
pub struct Claimed {
    /// Status word as written.
    pub status: String,
    /// Its first words, or the card's title.
    pub summary: String,
    /// Its `source`, if any.
    pub source: Option<String>,
    /// A formula card (not a `claim` block).
    pub formula: bool,
}

/// What one block adds to the book.
#[derive(Debug, Clone, Default)]
pub struct Contribution {
    /// Symbols it defines.
    pub symbols: Vec<Defined>,
    /// The claim it makes.
    pub claim: Option<Claimed>,
    /// The equation label it sets, and where.
    pub label: Option<(String, Range<usize>)>,
    /// The formulas it shows (TeX), for finding which chapters use each symbol.
    pub formulas: Vec<String>,
    /// It lists which chapters use each symbol (the notation index), so the book-wide
    /// pass must find the uses.
    pub wants_uses: bool,
}

/// One block of a chapter as the book-wide pass sees it.
#[derive(Debug, Clone)]
pub struct Entry {
    /// The block.
    pub block: Block,
    /// Inside a `{demo}` (an author-guide example, not the book's own content).
    pub demo: bool,
    /// The id of its element, when other pages link to it.
    pub anchor: Option<String>,
    /// What it adds.
    pub contribution: Contribution,
}

/// Every block of the chapter `source` (from `start`, after the front matter), depth
/// first in source order, with its id and its contribution.
pub fn entries(source: &str, start: usize) -> Vec<Entry> {
    let mut out = Vec::new();
    let mut counts: HashMap<String, usize> = HashMap::new();
    walk(source, start..source.len(), false, 0, &mut |b, demo| {
        let n = counts.entry(b.name.clone()).or_default();
        *n += 1;
        let mut contribution = Contribution::default();
        let anchor = registry::find(&b.name).and_then(|d| {
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

/// The id of each block that has one, by the byte offset of its opening line.
pub fn anchors(source: &str, start: usize) -> HashMap<usize, String> {
    let mut out = HashMap::new();
    let mut counts: HashMap<String, usize> = HashMap::new();
    walk(source, start..source.len(), false, 0, &mut |b, _| {
        let n = counts.entry(b.name.clone()).or_default();
        *n += 1;
        if let Some(id) = registry::find(&b.name).and_then(|d| d.anchor(b, source, *n)) {
            out.insert(b.opener.start, id);
        }
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
