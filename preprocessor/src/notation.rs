//! The book-wide notation: every symbol defined in a `symbols` strip, a `symbol-table`,
//! the `where` list of a `formula` card or the book's symbols file, and every labelled
//! claim. Collected in one pass over all chapters before any chapter is rendered, so
//! inspectable formulas and the generated index pages see the whole book.

use std::collections::{BTreeMap, BTreeSet, HashMap, HashSet};
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
    /// Definitions by chapter (the symbols file under the empty path), in book order.
    by_chapter: HashMap<PathBuf, Vec<usize>>,
    /// Definitions by id.
    by_id: HashMap<String, Vec<usize>>,
    /// Definitions by [`Definition::key`], then by place (chapter, or `None`: the symbols
    /// file): adding one looks at its glyph's only, and at its own place in constant time.
    by_key: HashMap<String, Vec<Place>>,
    /// Where each glyph's place is in its `by_key` list.
    place_of: HashMap<(String, Option<PathBuf>), usize>,
    /// Definitions by the key of their first letter (`z` for `z_i`).
    by_lead: HashMap<String, Vec<usize>>,
    /// Which definitions' TeX occurs in a formula ([`Notation::occurring`]), built on
    /// first use, once every definition is in.
    matcher: std::sync::OnceLock<Matcher>,
}

/// The definitions of one glyph in one place (a chapter, or the symbols file).
#[derive(Debug, Clone)]
struct Place {
    chapter: Option<PathBuf>,
    /// In book order.
    definitions: Vec<usize>,
    /// The first definition of each id.
    first_of_id: HashMap<String, usize>,
    /// Definitions that give no meaning (yet: a merge may fill it in).
    without_meaning: BTreeSet<usize>,
}

/// What resolving a formula's symbols reads, made once per build (when the first formula
/// asks, every definition being in), so that resolving one formula costs what its own
/// glyphs cost, however many definitions the book or its chapter has.
#[derive(Debug, Default)]
struct Matcher {
    /// The distinct TeX of the definitions, numbered as `glyph_of`.
    index: inspect::PatternIndex,
    /// For each TeX of `index`, its glyph ([`Definition::key`]).
    glyph_of: Vec<String>,
    /// Step 3 of [`Notation::resolve`] for each chapter (the symbols file under the empty
    /// path) and glyph: what its own definitions give.
    chapters: HashMap<PathBuf, BTreeMap<String, InChapter>>,
    /// Step 4: the first definition of each glyph in the symbols file.
    file: BTreeMap<String, usize>,
}

/// What a chapter's own definitions of one glyph give a formula that names none.
#[derive(Debug)]
enum InChapter {
    /// One meaning: this definition (the first).
    One(usize),
    /// Two or more meanings: one definition per meaning, in book order; the meanings.
    Ambiguous(Vec<usize>, HashSet<String>),
}

/// The symbols one formula uses ([`Notation::resolve`]).
#[derive(Debug, Default)]
pub struct Resolved {
    /// The chosen definition of each glyph (index into `definitions`), in book order.
    pub patterns: Vec<(usize, inspect::Pattern)>,
    /// Glyphs the formula's chapter gives two or more meanings, none chosen: the
    /// definitions of each (one per meaning).
    pub ambiguous: Vec<Vec<usize>>,
}

impl Notation {
    /// Adds one definition of `symbol`, written in `chapter` (`None`: the book's symbols
    /// file) at `at`: merged into an earlier one in the same place, else kept, with a
    /// warning (at `written`) when its id names another symbol or its TeX already means
    /// something else in another chapter.
    pub(crate) fn add(
        &mut self,
        symbol: Symbol,
        chapter: Option<&Path>,
        at: String,
        written: Option<Site>,
        demo: bool,
        diagnostics: &mut Vec<Diagnostic>,
    ) {
        self.matcher = Default::default();
        let key = inspect::key(&symbol.tex);
        if self.merge_into_same_place(&symbol, &key, chapter) {
            return;
        }
        let site = written.as_ref();
        if let Some(warning) = self.id_taken(&symbol, &key) {
            warning.report(site, diagnostics);
        }
        if let Some(warning) = self.meaning_clash(&symbol, &key, chapter) {
            warning.report(site, diagnostics);
        }
        // Same TeX and id in another chapter with the same meaning: a second definition site
        // (kept, so that chapter links to its own).
        self.insert(Definition {
            symbol,
            key,
            chapter: chapter.map(Path::to_path_buf),
            defined_at: at,
            demo,
            site: written,
        });
    }

    /// The same symbol again in the same place (a chip and a table row): merged, filling
    /// in what the first left out; the first keeps its id (and anchor). True when merged.
    fn merge_into_same_place(
        &mut self,
        symbol: &Symbol,
        key: &str,
        chapter: Option<&Path>,
    ) -> bool {
        // The first definition here with the same id, or giving no meaning; any first
        // one when `symbol` gives none.
        let Some(&at) = self
            .place_of
            .get(&(key.to_string(), chapter.map(Path::to_path_buf)))
        else {
            return false;
        };
        let Some(place) = self
            .by_key
            .get_mut(key)
            .and_then(|places| places.get_mut(at))
        else {
            return false;
        };
        let found = if symbol.meaning.is_none() {
            place.definitions.first().copied()
        } else {
            let by_id = place.first_of_id.get(&symbol.id).copied();
            let without = place.without_meaning.first().copied();
            by_id.into_iter().chain(without).min()
        };
        let Some(i) = found else {
            return false;
        };
        if symbol.meaning.is_some() {
            place.without_meaning.remove(&i);
        }
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
        true
    }

    /// The warning when `symbol`'s id already names a symbol of other TeX.
    fn id_taken(&self, symbol: &Symbol, key: &str) -> Option<Warning> {
        let other = self
            .with_id(&symbol.id)
            .iter()
            .map(|&i| &self.definitions[i])
            .find(|d| d.key != key)?;
        Some(Warning {
            message: format!("symbol id `{}` already names another symbol", symbol.id),
            hint: format!(
                "`{}` is `{}` at {}; give this symbol its own id",
                symbol.id, other.symbol.tex, other.defined_at
            ),
        })
    }

    /// The warning when `symbol`'s TeX has another meaning in another chapter and not
    /// both definitions say `overloaded`.
    fn meaning_clash(&self, symbol: &Symbol, key: &str, chapter: Option<&Path>) -> Option<Warning> {
        let m = meaning(symbol)?;
        // The first (in book order) in another place: the first of each place, then the
        // earliest of those; the place being added to is skipped whole.
        let mut first: Option<usize> = None;
        for place in self.by_key.get(key).map_or(&[][..], Vec::as_slice) {
            // Places are in the book order of their first definitions.
            if first.is_some_and(|f| place.definitions.first().is_some_and(|&p| p > f)) {
                break;
            }
            if place.chapter.as_deref() == chapter {
                continue;
            }
            for &i in &place.definitions {
                if first.is_some_and(|f| i > f) {
                    break;
                }
                let d = &self.definitions[i];
                if meaning(&d.symbol).is_some_and(|dm| dm != m)
                    && !(d.symbol.overloaded && symbol.overloaded)
                {
                    first = Some(i);
                    break;
                }
            }
        }
        let other = &self.definitions[first?];
        Some(Warning {
            message: format!("`{}` already means something else", symbol.tex),
            hint: format!(
                "at {} it means \"{}\"; if the symbol really has two meanings in this book, add `overloaded: true` to both definitions, otherwise use the same meaning",
                other.defined_at,
                meaning(&other.symbol).unwrap_or_default()
            ),
        })
    }

    /// Keeps `definition`, indexed by chapter, id, key and lead letter.
    fn insert(&mut self, definition: Definition) {
        let i = self.definitions.len();
        self.by_chapter
            .entry(definition.chapter.clone().unwrap_or_default())
            .or_default()
            .push(i);
        self.by_id
            .entry(definition.symbol.id.clone())
            .or_default()
            .push(i);
        let places = self.by_key.entry(definition.key.clone()).or_default();
        let at = *self
            .place_of
            .entry((definition.key.clone(), definition.chapter.clone()))
            .or_insert_with(|| {
                places.push(Place {
                    chapter: definition.chapter.clone(),
                    definitions: Vec::new(),
                    first_of_id: HashMap::new(),
                    without_meaning: BTreeSet::new(),
                });
                places.len() - 1
            });
        let place = &mut places[at];
        place.definitions.push(i);
        place
            .first_of_id
            .entry(definition.symbol.id.clone())
            .or_insert(i);
        if definition.symbol.meaning.is_none() {
            place.without_meaning.insert(i);
        }
        if let Some(lead) = lead_letter(&definition.symbol.tex) {
            self.by_lead.entry(inspect::key(lead)).or_default().push(i);
        }
        self.definitions.push(definition);
    }

    /// The symbols every formula of `chapter` may use, for the "used in" lists of the
    /// notation index: [`Notation::resolve`] with no `where:` list and no `uses:`.
    pub fn patterns_for(&self, chapter: &Path) -> Vec<(usize, inspect::Pattern)> {
        self.resolve(chapter, &[], &[]).patterns
    }

    /// The symbols an inspectable formula of `chapter` uses, by the book's resolution
    /// rule (the author guide's "Which meaning a symbol takes"), one per distinct TeX:
    ///
    /// 1. the formula's own `where:` entries (`own`: ids defined in this chapter);
    /// 2. the definitions the formula names in `uses:` (any chapter, or the symbols file);
    /// 3. the definitions of its own chapter, when the chapter gives that TeX one
    ///    meaning; with two or more meanings none is taken, and the glyph is returned in
    ///    [`Resolved::ambiguous`] (the caller reports it when the formula contains it);
    /// 4. the book's symbols file.
    ///
    /// A definition in another chapter is never taken unless named in `uses:`.
    pub fn resolve(&self, chapter: &Path, own: &[String], uses: &[String]) -> Resolved {
        self.resolve_among(chapter, own, uses, None)
    }

    /// [`Notation::resolve`] for one formula, looking only at the glyphs `among`
    /// (sorted; from [`Notation::occurring`] for that formula), or at all of them when
    /// `None`. A glyph the formula does not contain cannot be tagged in it, so the
    /// outcome of tagging is the same, and the cost grows with the formula, not with the
    /// book's notation or the number of definitions of one glyph.
    pub fn resolve_among(
        &self,
        chapter: &Path,
        own: &[String],
        uses: &[String],
        among: Option<&[&str]>,
    ) -> Resolved {
        let m = self.matcher();
        let occurs = |key: &str| among.is_none_or(|among| among.binary_search(&key).is_ok());
        let mut chosen: BTreeMap<&str, usize> = BTreeMap::new();
        // 1: the formula's own `where:` entries (the first definition of each glyph).
        for id in own {
            for &i in self.with_id(id) {
                let d = &self.definitions[i];
                if d.chapter.as_deref().unwrap_or(Path::new("")) == chapter && occurs(&d.key) {
                    chosen
                        .entry(d.key.as_str())
                        .and_modify(|j| *j = (*j).min(i))
                        .or_insert(i);
                }
            }
        }
        // 2: what it names in `uses:`.
        for id in uses {
            for &i in self.with_id(id) {
                let key = self.definitions[i].key.as_str();
                if occurs(key) {
                    chosen.entry(key).or_insert(i);
                }
            }
        }
        // 3: the chapter's own definitions, one meaning per glyph.
        let mut ambiguous: BTreeMap<&str, Vec<usize>> = BTreeMap::new();
        if let Some(glyphs) = m.chapters.get(chapter) {
            for (key, glyph) in among_of(glyphs, among) {
                if chosen.contains_key(key) {
                    continue;
                }
                match glyph {
                    InChapter::One(i) => {
                        chosen.insert(key, *i);
                    }
                    InChapter::Ambiguous(list, _) => {
                        ambiguous.insert(key, list.clone());
                    }
                }
            }
        }
        // 4: the book's symbols file.
        for (key, &i) in among_of(&m.file, among) {
            if !ambiguous.contains_key(key) {
                chosen.entry(key).or_insert(i);
            }
        }
        let mut patterns: Vec<(usize, inspect::Pattern)> =
            chosen.into_values().map(|i| (i, self.pattern(i))).collect();
        patterns.sort_by_key(|(i, _)| *i);
        Resolved {
            patterns,
            ambiguous: ambiguous.into_values().collect(),
        }
    }

    /// The index and per-chapter outcomes behind [`Notation::occurring`] and
    /// [`Notation::resolve_among`], built on first use.
    fn matcher(&self) -> &Matcher {
        self.matcher.get_or_init(|| {
            let mut texs: Vec<&str> = Vec::new();
            let mut glyph_of = Vec::new();
            let mut seen = HashSet::new();
            let mut chapters: HashMap<PathBuf, BTreeMap<String, InChapter>> = HashMap::new();
            let mut file = BTreeMap::new();
            for (i, d) in self.definitions.iter().enumerate() {
                if seen.insert(d.symbol.tex.as_str()) {
                    texs.push(&d.symbol.tex);
                    glyph_of.push(d.key.clone());
                }
                if d.chapter.is_none() {
                    file.entry(d.key.clone()).or_insert(i);
                }
                let glyphs = chapters
                    .entry(d.chapter.clone().unwrap_or_default())
                    .or_default();
                let Some(glyph) = glyphs.get_mut(&d.key) else {
                    glyphs.insert(d.key.clone(), InChapter::One(i));
                    continue;
                };
                // A definition without a meaning says the same as any other.
                let Some(mi) = meaning(&d.symbol) else {
                    continue;
                };
                match glyph {
                    InChapter::One(j) => {
                        if let Some(mj) = meaning(&self.definitions[*j].symbol) {
                            if mj != mi {
                                *glyph = InChapter::Ambiguous(vec![*j, i], HashSet::from([mj, mi]));
                            }
                        }
                    }
                    InChapter::Ambiguous(list, meanings) => {
                        if meanings.insert(mi) {
                            list.push(i);
                        }
                    }
                }
            }
            Matcher {
                index: inspect::PatternIndex::new(texs),
                glyph_of,
                chapters,
                file,
            }
        })
    }

    /// The matching pattern of `definitions[i]`.
    pub fn pattern(&self, i: usize) -> inspect::Pattern {
        let d = &self.definitions[i];
        inspect::Pattern {
            id: d.symbol.id.clone(),
            tex: d.symbol.tex.clone(),
        }
    }

    /// The glyphs ([`Definition::key`]) whose TeX occurs in `tex`, and those of the
    /// definitions a `\sym{id}` in it names, sorted, each once: the only ones tagging
    /// `tex` can find. `None` when a `\sym` names an id no definition has (tagging with
    /// the whole notation then lists every id in its hint).
    pub fn occurring(&self, tex: &str) -> Option<Vec<&str>> {
        let m = self.matcher();
        let mut keys: Vec<&str> = m
            .index
            .occurring(tex)
            .into_iter()
            .map(|t| m.glyph_of[t].as_str())
            .collect();
        for id in sym_ids(tex)? {
            let named = self.with_id(&id);
            if named.is_empty() {
                return None;
            }
            keys.extend(named.iter().map(|&i| self.definitions[i].key.as_str()));
        }
        keys.sort_unstable();
        keys.dedup();
        Some(keys)
    }

    /// Definitions whose id is `id`.
    pub fn with_id(&self, id: &str) -> &[usize] {
        self.by_id.get(id).map_or(&[][..], Vec::as_slice)
    }

    /// Definitions in chapters other than `chapter` whose TeX starts with `text` (a
    /// letter a formula of `chapter` leaves undefined): what the hint can point to.
    pub fn elsewhere(&self, chapter: &Path, text: &str) -> Vec<usize> {
        let key = inspect::key(text);
        self.by_lead
            .get(&key)
            .map_or(&[][..], Vec::as_slice)
            .iter()
            .copied()
            .filter(|&i| {
                self.definitions[i]
                    .chapter
                    .as_deref()
                    .is_some_and(|c| c != chapter)
            })
            .collect()
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

/// The first letter or command of a symbol's TeX, past styling wrappers
/// (`\mathbf{x}` → `x`, `z_i` → `z`, `\theta_t` → `\theta`).
fn lead_letter(tex: &str) -> Option<&str> {
    let mut rest = tex.trim_start();
    loop {
        rest = rest.trim_start_matches(|c: char| c == '{' || c.is_whitespace());
        if let Some(after) = rest.strip_prefix('\\') {
            let len = after
                .find(|c: char| !c.is_ascii_alphabetic())
                .unwrap_or(after.len());
            let name = &after[..len];
            if name.starts_with("math") || matches!(name, "boldsymbol" | "bm" | "operatorname") {
                rest = &after[len..];
                continue;
            }
            return (len > 0).then(|| &rest[..len + 1]);
        }
        return rest
            .chars()
            .next()
            .filter(|c| c.is_alphabetic())
            .map(|c| &rest[..c.len_utf8()]);
    }
}

pub(crate) fn collapse(text: &str) -> String {
    text.split_whitespace().collect::<Vec<_>>().join(" ")
}

/// A symbol's meaning as compared between definitions (spaces collapsed), if it has one.
/// The entries of `map` whose glyph is in `among` (sorted), or all of them when `None`.
fn among_of<'m, V>(map: &'m BTreeMap<String, V>, among: Option<&[&str]>) -> Vec<(&'m str, &'m V)> {
    match among {
        None => map.iter().map(|(k, v)| (k.as_str(), v)).collect(),
        Some(among) => among
            .iter()
            .filter_map(|k| map.get_key_value(*k))
            .map(|(k, v)| (k.as_str(), v))
            .collect(),
    }
}

fn meaning(symbol: &Symbol) -> Option<String> {
    symbol
        .meaning
        .as_deref()
        .map(collapse)
        .filter(|m| !m.is_empty())
}

/// A problem with a definition, reported where it is written.
struct Warning {
    message: String,
    hint: String,
}

impl Warning {
    /// Reported at the start of `site`; dropped when the definition has no site (one of
    /// the book's symbols file, added before any chapter's).
    fn report(self, site: Option<&Site>, diagnostics: &mut Vec<Diagnostic>) {
        if let Some(site) = site {
            let end = (site.at + 1).min(site.source.len()).max(site.at);
            diagnostics.push(
                Diagnostic::warning(&site.shown, &site.source, site.at..end, self.message)
                    .with_hint(self.hint),
            );
        }
    }
}
/// The ids `\sym{id}{...}` names in `tex`, or `None` when one is not written as a
/// plain braced id.
fn sym_ids(tex: &str) -> Option<Vec<String>> {
    let mut out = Vec::new();
    for (at, _) in tex.match_indices("\\sym") {
        let rest = &tex[at + 4..];
        if rest.starts_with(|c: char| c.is_ascii_alphabetic()) {
            continue; // `\symbol`, another command
        }
        let inner = rest.trim_start().strip_prefix('{')?;
        let id: String = inner[..inner.find('}')?]
            .chars()
            .filter(|c| !c.is_whitespace())
            .collect();
        out.push(id);
    }
    Some(out)
}
