//! The element ids of one chapter: the ids of blocks other pages link to (counted once,
//! by the book-wide pass), fresh ids for elements of this page, and the symbol anchors
//! already handed out. The part of the rendering context that hands out ids (`cx.ids`).

use std::collections::{HashMap, HashSet};

use super::block::Block;

/// The ids of one chapter.
#[derive(Debug, Default)]
pub struct Ids {
    /// Counter for generated ids.
    next: usize,
    /// The id of each block that has one, by the offset of its opening line.
    by_block: HashMap<usize, String>,
    /// Ids handed out by [`Ids::first_anchor`].
    handed_out: HashSet<String>,
}

impl Ids {
    /// The ids of a chapter whose blocks have the ids `by_block` (by the offset of their
    /// opening line: `book_pass::ChapterRecord::anchors`).
    pub fn new(by_block: HashMap<usize, String>) -> Ids {
        Ids {
            by_block,
            ..Ids::default()
        }
    }

    /// The id of `block`'s element (`claim-2`), as the book-wide pass numbered it.
    pub fn block_anchor(&mut self, block: &Block) -> String {
        match self.by_block.get(&block.opener.start) {
            Some(id) => id.clone(),
            None => self.fresh_id(&block.name),
        }
    }

    /// A fresh id for an element of this chapter (`mc-claim-3`).
    pub fn fresh_id(&mut self, prefix: &str) -> String {
        self.next += 1;
        format!("mc-{prefix}-{}", self.next)
    }

    /// `id` the first time it is asked for in this chapter, `None` afterwards (the first
    /// element defining a symbol carries its anchor; later ones must not repeat the id).
    pub fn first_anchor(&mut self, id: String) -> Option<String> {
        self.handed_out.insert(id.clone()).then_some(id)
    }
}
