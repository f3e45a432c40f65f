//! What each block adds to the whole book, read by the book-wide pass before any
//! chapter renders: the symbols it defines, the claim it makes, the equation label it
//! sets, and the id other pages link to. Each directive states its own part
//! (`Directive::contribute`, `Directive::anchor`); this module holds only the data
//! types. The registry walks a chapter's blocks and asks them (`registry::entries`,
//! where the ids are counted, once); the renderer looks a block's id up by its position
//! (`book_pass::ChapterRecord::anchors`, through `cx.ids`).

use std::collections::BTreeMap;
use std::ops::Range;

use super::block::Block;
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
