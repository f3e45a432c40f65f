//! The book-wide notation: every symbol defined in a `symbols` strip, a `symbol-table`,
//! the `where` list of a `formula` card or the book's symbols file, and every labelled
//! claim. Collected in one pass over all chapters before any chapter is rendered, so
//! inspectable formulas and the generated index pages see the whole book.

use std::collections::{BTreeMap, BTreeSet, HashMap};
use std::ops::Range;
use std::path::{Path, PathBuf};
use std::sync::Arc;

use crate::diagnostic::{self, Diagnostic};
use crate::directive::{block, options, Block};
use crate::frontmatter;
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

/// One chapter as the collector sees it.
pub struct ChapterSource<'a> {
    /// Path inside `src/`.
    pub path: &'a Path,
    /// Path shown in diagnostics.
    pub shown: PathBuf,
    /// Title.
    pub title: &'a str,
    /// Markdown.
    pub source: &'a str,
}

impl Notation {
    /// Collects definitions and claims of every chapter; warns about a symbol that means
    /// two things without `overloaded: true`, and about one id used for two symbols.
    pub fn collect(
        file_symbols: Vec<(Symbol, String)>,
        chapters: &[ChapterSource],
    ) -> (Notation, Vec<Diagnostic>) {
        let mut notation = Notation::default();
        let mut diagnostics = Vec::new();
        for (symbol, at) in file_symbols {
            notation.add(symbol, None, at, None, false, &mut diagnostics);
        }
        let mut want_uses = false;
        for (position, ch) in chapters.iter().enumerate() {
            notation
                .titles
                .insert(ch.path.to_path_buf(), ch.title.to_string());
            notation.order.insert(ch.path.to_path_buf(), position);
            let front = frontmatter::locate(ch.source);
            let start = front.as_ref().map_or(0, |b| b.body_start);
            if let Some(Ok(fm)) = front.map(|b| frontmatter::parse(ch.source, &b)) {
                if !fm.macros.is_empty() {
                    notation
                        .chapter_macros
                        .insert(ch.path.to_path_buf(), fm.macros);
                }
            }
            let mut shared: Option<Arc<str>> = None;
            let mut site = |at: usize, keys: BTreeMap<String, Range<usize>>| Site {
                shown: ch.shown.clone(),
                source: shared.get_or_insert_with(|| Arc::from(ch.source)).clone(),
                keys,
                at,
            };
            let mut counters = Counters::default();
            let mut found = Vec::new();
            walk_in(ch.source, start..ch.source.len(), false, &mut |b, demo| {
                found.push((b.clone(), demo))
            });
            for (b, demo) in &found {
                let demo = *demo;
                match b.name.as_str() {
                    "symbols" | "symbol-table" => {
                        if let Ok(items) = options::raw_list(ch.source, b) {
                            for (i, item) in items.iter().enumerate() {
                                if let Ok(symbol) = options::typed_item::<Symbol>(item, i, b) {
                                    let at = location(ch, item.span.start);
                                    let written =
                                        site(item.span.start, item.options.key_spans.clone());
                                    notation.add(
                                        symbol,
                                        Some(ch.path),
                                        at,
                                        Some(written),
                                        demo,
                                        &mut diagnostics,
                                    );
                                }
                            }
                        }
                    }
                    "formula" => {
                        let n = counters.next("formula");
                        let Ok(raw) = options::raw_options(ch.source, b) else {
                            continue;
                        };
                        if let Some(list) = raw.value.get("where") {
                            if let Ok(symbols) = serde_json::from_value::<Vec<Symbol>>(list.clone())
                            {
                                let pos = raw
                                    .key_spans
                                    .get("where")
                                    .map_or(b.opener.start, |r| r.start);
                                for symbol in symbols {
                                    let at = location(ch, pos);
                                    let written = site(pos, BTreeMap::new());
                                    notation.add(
                                        symbol,
                                        Some(ch.path),
                                        at,
                                        Some(written),
                                        demo,
                                        &mut diagnostics,
                                    );
                                }
                            }
                        }
                        if let Some(status) = raw
                            .value
                            .get("status")
                            .and_then(|v| v.as_str())
                            .filter(|_| !demo)
                        {
                            let anchor = raw
                                .value
                                .get("label")
                                .and_then(|v| v.as_str())
                                .map(str::to_string)
                                .unwrap_or_else(|| formula_anchor(n));
                            notation.claims.push(ClaimEntry {
                                status: status.trim().to_string(),
                                summary: b.argument.clone(),
                                source: raw.text("source").map(str::to_string),
                                chapter: ch.path.to_path_buf(),
                                anchor,
                                formula: true,
                            });
                        }
                    }
                    "claim" => {
                        let n = counters.next("claim");
                        if demo {
                            continue;
                        }
                        let source = options::raw_options(ch.source, b)
                            .ok()
                            .and_then(|raw| raw.text("source").map(str::to_string));
                        notation.claims.push(ClaimEntry {
                            status: b.argument.trim().to_string(),
                            summary: summary(&ch.source[b.body.clone()]),
                            source,
                            chapter: ch.path.to_path_buf(),
                            anchor: claim_anchor(n),
                            formula: false,
                        });
                    }
                    "notation-index" => want_uses = true,
                    _ => {}
                }
            }
        }
        if want_uses {
            notation.collect_uses(chapters);
        }
        (notation, diagnostics)
    }

    fn add(
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
            crate::directive::relative_html_path(from, chapter),
            d.anchor()
        ))
    }

    /// Fills [`Notation::uses`]: every formula of every chapter, tagged.
    fn collect_uses(&mut self, chapters: &[ChapterSource]) {
        for ch in chapters {
            let patterns = self.patterns_for(ch.path);
            if patterns.is_empty() {
                continue;
            }
            let ids: HashMap<&str, usize> =
                patterns.iter().map(|(i, p)| (p.id.as_str(), *i)).collect();
            let plain: Vec<inspect::Pattern> = patterns.iter().map(|(_, p)| p.clone()).collect();
            let start = frontmatter::locate(ch.source).map_or(0, |b| b.body_start);
            let mut formulas: Vec<String> = crate::scan::find_math(ch.source, start)
                .into_iter()
                .map(|m| m.tex)
                .collect();
            walk(ch.source, start..ch.source.len(), &mut |b| {
                if b.name == "math" {
                    formulas.push(ch.source[b.body.clone()].to_string());
                } else if b.name == "formula" {
                    if let Ok(raw) = options::raw_options(ch.source, b) {
                        if let Some(tex) = raw.text("tex") {
                            formulas.push(tex.to_string());
                        }
                    }
                }
            });
            for tex in formulas {
                for id in inspect::tag(&tex, &plain).symbols {
                    if let Some(&i) = ids.get(id.as_str()) {
                        self.uses
                            .entry(i)
                            .or_default()
                            .insert(ch.path.to_path_buf());
                    }
                }
            }
        }
    }
}

/// Per-chapter counters for generated ids that the collector and the renderer agree on.
#[derive(Debug, Default)]
pub struct Counters(HashMap<&'static str, usize>);

impl Counters {
    /// The next number (1, 2, ...) of `kind`.
    pub fn next(&mut self, kind: &'static str) -> usize {
        let n = self.0.entry(kind).or_insert(0);
        *n += 1;
        *n
    }
}

/// HTML id of the `n`th claim of a chapter.
pub fn claim_anchor(n: usize) -> String {
    format!("claim-{n}")
}

/// HTML id of the `n`th formula card of a chapter without a label.
pub fn formula_anchor(n: usize) -> String {
    format!("formula-{n}")
}

/// Every directive block of `region`, depth first in source order.
fn walk(source: &str, region: std::ops::Range<usize>, f: &mut dyn FnMut(&Block)) {
    walk_in(source, region, false, &mut |b, _| f(b));
}

/// Like [`walk`]; the flag says whether the block sits inside a `{demo}` (an example in
/// the author guide: its claims are not the book's claims).
fn walk_in(
    source: &str,
    region: std::ops::Range<usize>,
    in_demo: bool,
    f: &mut dyn FnMut(&Block, bool),
) {
    walk_to_depth(source, region, in_demo, 0, f);
}

/// [`walk_in`] down to the directive nesting limit (rendering reports deeper blocks).
fn walk_to_depth(
    source: &str,
    region: std::ops::Range<usize>,
    in_demo: bool,
    depth: usize,
    f: &mut dyn FnMut(&Block, bool),
) {
    if depth >= crate::directive::MAX_DIRECTIVE_NESTING {
        return;
    }
    let (blocks, _) = block::find_blocks(source, region);
    for b in blocks {
        f(&b, in_demo);
        walk_to_depth(
            source,
            b.body.clone(),
            in_demo || b.name == "demo",
            depth + 1,
            f,
        );
    }
}

fn location(ch: &ChapterSource, pos: usize) -> String {
    let (line, col) = diagnostic::line_col(ch.source, pos);
    format!("{}:{line}:{col}", ch.shown.display())
}

fn collapse(text: &str) -> String {
    text.split_whitespace().collect::<Vec<_>>().join(" ")
}

/// The first sentence of a claim's body (at most ~30 words), as one line of Markdown.
fn summary(body: &str) -> String {
    let text = collapse(body);
    let end = text.find(". ").map_or(text.len(), |i| i + 1);
    let words: Vec<&str> = text[..end].split(' ').collect();
    if words.len() > 30 {
        format!("{} …", words[..30].join(" "))
    } else {
        text[..end].to_string()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn chapter<'a>(path: &'a Path, source: &'a str) -> ChapterSource<'a> {
        ChapterSource {
            path,
            shown: Path::new("src").join(path),
            title: "T",
            source,
        }
    }

    #[test]
    fn collects_symbols_claims_and_warns_on_unmarked_overloads() {
        let a = ":::{symbol-table}\n---\n- {id: sigma, tex: '\\sigma', read: sigma, meaning: The activation}\n---\n:::\n\n:::{claim} empirical\n:source: Someone (2020)\nWords grow. More text.\n:::\n";
        let b = ":::{symbols}\n---\n- {id: sd, tex: '\\sigma', name: sd, meaning: Standard deviation}\n---\n:::\n:::{formula} Card\n:status: model\n:tex: y\n:::\n";
        let chapters = [chapter(Path::new("a.md"), a), chapter(Path::new("b.md"), b)];
        let (n, d) = Notation::collect(Vec::new(), &chapters);
        assert_eq!(n.definitions.len(), 2);
        assert_eq!(d.len(), 1, "{d:?}");
        let text = d[0].render(false);
        assert!(text.contains("already means something else"), "{text}");
        assert!(text.contains("src/a.md:3"), "{text}");
        assert_eq!(n.claims.len(), 2);
        assert_eq!(n.claims[0].summary, "Words grow.");
        assert_eq!(n.claims[0].anchor, "claim-1");
        assert_eq!(n.claims[1].anchor, "formula-1");
        assert_eq!(n.claims[1].status, "model");
        // Chapter-local definitions win.
        assert_eq!(n.patterns_for(Path::new("b.md"))[0].1.id, "sd");
        assert_eq!(n.patterns_for(Path::new("a.md"))[0].1.id, "sigma");
        assert_eq!(n.link(1, Path::new("x/y.md")).unwrap(), "../b.html#sym-sd");

        let marked = b.replace("meaning: Standard", "overloaded: true, meaning: Standard");
        let a2 = a.replace("meaning: The", "overloaded: true, meaning: The");
        let chapters = [
            chapter(Path::new("a.md"), &a2),
            chapter(Path::new("b.md"), &marked),
        ];
        let (_, d) = Notation::collect(Vec::new(), &chapters);
        assert!(d.is_empty(), "{d:?}");
    }

    #[test]
    fn a_card_prefers_its_own_meaning_of_a_letter() {
        let a = ":::{formula} One\n---\ntex: i\nwhere:\n  - {id: pos-i, tex: i, name: i, meaning: A position}\n---\n:::\n\n:::{formula} Two\n---\ntex: i\nwhere:\n  - {id: cand-i, tex: i, name: i, meaning: A candidate}\n---\n:::\n";
        let chapters = [chapter(Path::new("a.md"), a)];
        let (n, d) = Notation::collect(Vec::new(), &chapters);
        assert!(d.is_empty(), "{d:?}");
        assert_eq!(n.definitions.len(), 2, "different meanings stay apart");
        let ch = Path::new("a.md");
        assert_eq!(n.patterns_for(ch)[0].1.id, "pos-i");
        assert_eq!(
            n.patterns_preferring(ch, &["cand-i".into()])[0].1.id,
            "cand-i"
        );
    }
}
