//! The book-wide notation: every symbol defined in a `symbols` strip, a `symbol-table`,
//! the `where` list of a `formula` card or the book's symbols file, and every labelled
//! claim. Collected in one pass over all chapters before any chapter is rendered, so
//! inspectable formulas and the generated index pages see the whole book.

use std::collections::{BTreeMap, BTreeSet, HashMap};
use std::ops::Range;
use std::path::{Path, PathBuf};
use std::sync::Arc;

use crate::diagnostic::Diagnostic;
use crate::inspect;
use crate::symbol::Symbol;

/// One definition of a symbol.
#[derive(Debug, Clone)]
pub struct Definition {
    /// The record as written.
    pub symbol: Symbol,
    /// [`inspect::key`] of its TeX.
    pub key: String,
    /// The defining chapter (`None`: the book's symbols file).
    pub chapter: Option<PathBuf>,
    /// `file:line:col` of the definition.
    pub defined_at: String,
    /// Defined inside a `{demo}` (an author-guide example): usable in formulas, not
    /// listed in the notation index.
    pub demo: bool,
    /// Where it is written, for problems found when it is shown elsewhere (a legend,
    /// the index): they are reported here, where the author fixes them.
    pub site: Option<Site>,
}

/// The text a definition is written in, and where.
#[derive(Debug, Clone)]
pub struct Site {
    /// Path shown in diagnostics.
    pub shown: PathBuf,
    /// The chapter source.
    pub source: Arc<str>,
    /// Bytes of each key of its list item (empty for a formula card's `where` item).
    pub keys: BTreeMap<String, Range<usize>>,
    /// Where the item (or the card's `where` key) starts.
    pub at: usize,
}

impl Site {
    /// Bytes of `key`, else of the item's first character.
    pub fn span(&self, key: &str) -> Range<usize> {
        self.keys
            .get(key)
            .cloned()
            .unwrap_or(self.at..(self.at + 1).min(self.source.len()))
    }
}

impl Definition {
    /// The HTML id of the definition in its chapter (the first element defining it).
    pub fn anchor(&self) -> String {
        format!("sym-{}", self.symbol.id)
    }
}

/// The status words of claims, in the order the claims index shows them.
pub const CLAIM_ORDER: [&str; 4] = ["established", "empirical", "model", "speculative"];

/// One labelled claim (a `claim` block, or a `formula` card with a `status`).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ClaimEntry {
    /// Status word (`established`, ...).
    pub status: String,
    /// The claim's first words (Markdown), or the formula card's title.
    pub summary: String,
    /// Its `source`, if any (Markdown).
    pub source: Option<String>,
    /// Chapter path inside `src/`.
    pub chapter: PathBuf,
    /// HTML id of the claim in its chapter.
    pub anchor: String,
    /// True for a formula card.
    pub formula: bool,
}

/// Everything the notation and claims indexes and the inspectable formulas need.
#[derive(Debug, Default)]
pub struct Notation {
    /// Definitions in book order (the symbols file first).
    pub definitions: Vec<Definition>,
    /// Chapters whose formulas use each definition (index into `definitions`).
    pub uses: BTreeMap<usize, BTreeSet<PathBuf>>,
    /// Claims in book order.
    pub claims: Vec<ClaimEntry>,
    /// Chapter titles by path (for index links).
    pub titles: HashMap<PathBuf, String>,
    /// Position of each chapter in the book (lists of chapters follow book order).
    pub order: HashMap<PathBuf, usize>,
    /// The macros of each chapter's front matter (chapters that have some): a symbol
    /// shown outside its chapter is typeset with them.
    pub chapter_macros: HashMap<PathBuf, BTreeMap<String, String>>,
}

impl Notation {
    pub(crate) fn add(
        &mut self,
        symbol: Symbol,
        chapter: Option<&Path>,
        at: String,
        written: Option<Site>,
        demo: bool,
        diagnostics: &mut Vec<Diagnostic>,
    ) {
        let key = inspect::key(&symbol.tex);
        let meaning = |s: &Symbol| s.meaning.as_deref().map(collapse).filter(|m| !m.is_empty());
        let warn = |message: String, hint: String, diagnostics: &mut Vec<Diagnostic>| {
            if let Some(site) = &written {
                let end = (site.at + 1).min(site.source.len()).max(site.at);
                diagnostics.push(
                    Diagnostic::warning(&site.shown, &site.source, site.at..end, message)
                        .with_hint(hint),
                );
            }
        };
        // The same symbol again in the same place (a chip and a table row): merge, filling
        // in what the first left out; the first keeps its id (and anchor).
        if let Some(i) = self.definitions.iter().position(|d| {
            d.key == key
                && d.chapter.as_deref() == chapter
                && (d.symbol.id == symbol.id
                    || d.symbol.meaning.is_none()
                    || symbol.meaning.is_none())
        }) {
            let d = &mut self.definitions[i].symbol;
            if d.meaning.is_none() {
                d.meaning = symbol.meaning.clone();
            }
            if d.code.is_none() {
                d.code = symbol.code.clone();
            }
            if d.shape.is_none() {
                d.shape = symbol.shape.clone();
            }
            if d.name.trim().is_empty() {
                d.name = symbol.name.clone();
            }
            if d.read.trim().is_empty() {
                d.read = symbol.read.clone();
            }
            d.overloaded |= symbol.overloaded;
            return;
        }
        if let Some(other) = self
            .definitions
            .iter()
            .find(|d| d.symbol.id == symbol.id && d.key != key)
        {
            warn(
                format!("symbol id `{}` already names another symbol", symbol.id),
                format!(
                    "`{}` is `{}` at {}; give this symbol its own id",
                    symbol.id, other.symbol.tex, other.defined_at
                ),
                diagnostics,
            );
        }
        if let Some(m) = meaning(&symbol) {
            let clash = self.definitions.iter().find(|d| {
                d.key == key
                    && d.chapter.as_deref() != chapter
                    && meaning(&d.symbol).is_some_and(|dm| dm != m)
                    && !(d.symbol.overloaded && symbol.overloaded)
            });
            if let Some(other) = clash {
                warn(
                    format!("`{}` already means something else", symbol.tex),
                    format!(
                        "at {} it means \"{}\"; if the symbol really has two meanings in this book, add `overloaded: true` to both definitions, otherwise use the same meaning",
                        other.defined_at,
                        meaning(&other.symbol).unwrap_or_default()
                    ),
                    diagnostics,
                );
            }
        }
        // Same TeX and id in another chapter with the same meaning: a second definition site
        // (kept, so that chapter links to its own).
        self.definitions.push(Definition {
            symbol,
            key,
            chapter: chapter.map(Path::to_path_buf),
            defined_at: at,
            demo,
            site: written,
        });
    }

    /// The symbols an inspectable formula of `chapter` can use: one per distinct TeX,
    /// the chapter's own definition first, else the first in the book.
    pub fn patterns_for(&self, chapter: &Path) -> Vec<(usize, inspect::Pattern)> {
        self.patterns_preferring(chapter, &[])
    }

    /// [`Notation::patterns_for`], where a definition of this chapter whose id is in
    /// `prefer` (a formula card's own `where` list) wins over any other of the same TeX.
    pub fn patterns_preferring(
        &self,
        chapter: &Path,
        prefer: &[String],
    ) -> Vec<(usize, inspect::Pattern)> {
        let mut chosen: BTreeMap<&str, usize> = BTreeMap::new();
        for (i, d) in self.definitions.iter().enumerate() {
            if d.chapter.as_deref() == Some(chapter) && prefer.contains(&d.symbol.id) {
                chosen.insert(&d.key, i);
                continue;
            }
            if chosen
                .get(d.key.as_str())
                .is_some_and(|&j| prefer.contains(&self.definitions[j].symbol.id))
            {
                continue;
            }
            match chosen.get(d.key.as_str()) {
                None => {
                    chosen.insert(&d.key, i);
                }
                Some(&j) => {
                    let here = d.chapter.as_deref() == Some(chapter);
                    let there = self.definitions[j].chapter.as_deref() == Some(chapter);
                    if here && !there {
                        chosen.insert(&d.key, i);
                    }
                }
            }
        }
        let mut out: Vec<(usize, inspect::Pattern)> = chosen
            .into_values()
            .map(|i| {
                let d = &self.definitions[i];
                (
                    i,
                    inspect::Pattern {
                        id: d.symbol.id.clone(),
                        tex: d.symbol.tex.clone(),
                    },
                )
            })
            .collect();
        out.sort_by_key(|(i, _)| *i);
        out
    }

    /// Where `definitions[i]` is defined, as a link from chapter `from` (`None` for the
    /// symbols file).
    pub fn link(&self, i: usize, from: &Path) -> Option<String> {
        let d = &self.definitions[i];
        let chapter = d.chapter.as_deref()?;
        Some(format!(
            "{}#{}",
            crate::html::relative_html_path(from, chapter),
            d.anchor()
        ))
    }
}

pub(crate) fn collapse(text: &str) -> String {
    text.split_whitespace().collect::<Vec<_>>().join(" ")
}
