//! The book-wide pass: before any chapter renders, every chapter is read once into a
//! [`ChapterRecord`] (its front matter located and parsed, its directive blocks walked
//! for what they contribute, with their ids), and the records give what chapters need
//! from each other: the module numbers, the equation labels and the notation (symbols,
//! claims, which chapters use which symbols). The chapter pipeline renders from the
//! record ([`crate::chapter::render_chapter`]); nothing is located or counted twice.

use std::collections::{BTreeMap, HashMap};
use std::path::{Path, PathBuf};
use std::sync::Arc;

use crate::context::{Label, Labels};
use crate::diagnostic::{self, Diagnostic};
use crate::directive::contribute::Entry;
use crate::directive::registry;
use crate::frontmatter::{self, FrontMatterBlock, Parsed};
use crate::inspect;
use crate::notation::{ClaimEntry, Notation, Site};
use crate::symbol::Symbol;

/// One chapter as every later step sees it, read once.
#[derive(Debug, Clone)]
pub struct ChapterRecord {
    /// Path inside `src/` (for links, labels and the cache).
    pub path: PathBuf,
    /// Path shown in diagnostics (`src/…`).
    pub shown: PathBuf,
    /// Title (from SUMMARY.md).
    pub title: String,
    /// Its number in SUMMARY.md (`2.1`), when it has one.
    pub number: Option<String>,
    /// The Markdown.
    pub source: Arc<str>,
    /// Where its front matter is, when it has one.
    pub front_block: Option<FrontMatterBlock>,
    /// Its front matter, parsed (the defaults when it has none).
    pub front: Parsed,
    /// Where the body starts (after the front matter).
    pub body_start: usize,
    /// Every directive block, depth first in source order, with its id and what it adds
    /// to the book.
    pub entries: Vec<Entry>,
}

impl ChapterRecord {
    /// Reads one chapter: its front matter once, its blocks once.
    pub fn read(
        path: PathBuf,
        shown: PathBuf,
        title: String,
        number: Option<String>,
        source: Arc<str>,
    ) -> ChapterRecord {
        let front_block = frontmatter::locate(&source);
        let front = front_block
            .as_ref()
            .map(|b| frontmatter::parse_keeping(&source, b))
            .unwrap_or_default();
        let body_start = front_block.as_ref().map_or(0, |b| b.body_start);
        let entries = registry::entries(&source, body_start);
        ChapterRecord {
            path,
            shown,
            title,
            number,
            source,
            front_block,
            front,
            body_start,
            entries,
        }
    }

    /// A chapter on its own (`t.md`, shown as `src/t.md`): for tests and the fuzzer.
    pub fn lone(source: &str) -> ChapterRecord {
        ChapterRecord::read(
            PathBuf::from("t.md"),
            PathBuf::from("src/t.md"),
            "Test".into(),
            None,
            Arc::from(source),
        )
    }

    /// The id of each block that has one, by the byte offset of its opening line.
    pub fn anchors(&self) -> HashMap<usize, String> {
        self.entries
            .iter()
            .filter_map(|e| Some((e.block.opener.start, e.anchor.clone()?)))
            .collect()
    }

    fn location(&self, lines: &diagnostic::LineIndex, pos: usize) -> String {
        let (line, col) = lines.line_col(&self.source, pos);
        format!("{}:{line}:{col}", self.shown.display())
    }
}

/// What the book-wide pass found.
#[derive(Debug, Default)]
pub struct BookWide {
    /// The chapter of each module number set in front matter (`module: 7`).
    pub modules: BTreeMap<u32, PathBuf>,
    /// Every equation label, numbered.
    pub labels: Labels,
    /// Symbols, claims and uses.
    pub notation: Notation,
    /// Problems found on the way, in book order: duplicate modules, then labels, then
    /// the notation's.
    pub diagnostics: Vec<Diagnostic>,
}

/// Which definitions of the notation a chapter's formulas use ([`chapter_uses`], or the
/// same kept from an earlier build).
pub type UsesOf<'a> = &'a (dyn Fn(&Notation, &ChapterRecord) -> Vec<usize> + 'a);

/// Runs the book-wide pass over the records, in book order. `src_name` is the book's
/// source folder as diagnostics show it (`src`); `file_symbols` come from the book's
/// symbols file, with where each is written.
pub fn run(
    records: &[ChapterRecord],
    src_name: &Path,
    file_symbols: Vec<(Symbol, String)>,
) -> BookWide {
    run_with(records, src_name, file_symbols, &chapter_uses)
}

/// [`run`], with the uses of each chapter (when the notation index asks for them)
/// found by `uses_of`.
pub fn run_with(
    records: &[ChapterRecord],
    src_name: &Path,
    file_symbols: Vec<(Symbol, String)>,
    uses_of: UsesOf,
) -> BookWide {
    let (modules, mut diagnostics) = number_modules(records, src_name);
    let (labels, label_diagnostics) = number_labels(records, src_name, &modules);
    diagnostics.extend(label_diagnostics);
    let (notation, notation_diagnostics) = collect_notation_with(file_symbols, records, uses_of);
    diagnostics.extend(notation_diagnostics);
    BookWide {
        modules,
        labels,
        notation,
        diagnostics,
    }
}

/// Replaces control characters (U+0000–U+001F except tab, line feed and carriage
/// return, and U+007F) with spaces, one warning per chapter at the first. They are
/// invisible and invalid in HTML, and U+0001 is the template engine's slot marker: left
/// in, it would cut or repeat text in the page. A space keeps every byte offset, so
/// every other diagnostic still points at the right column.
pub fn replace_control_characters(content: &mut String, shown: &Path) -> Option<Diagnostic> {
    let is_control = |b: u8| (b < 0x20 && !matches!(b, b'\t' | b'\n' | b'\r')) || b == 0x7f;
    let first = content.bytes().position(is_control)?;
    let source: Arc<str> = Arc::from(content.as_str());
    let count = content.bytes().filter(|&b| is_control(b)).count();
    let code = content.as_bytes()[first];
    // Control characters are ASCII: replacing bytes keeps the text valid UTF-8.
    *content = content
        .chars()
        .map(|c| {
            if c.is_ascii() && is_control(c as u8) {
                ' '
            } else {
                c
            }
        })
        .collect();
    Some(
        Diagnostic::warning(shown, &source, first..first + 1, format!("control character U+{code:04X} in the text"))
            .with_label("replaced by a space")
            .with_hint(format!("{count} control character{} in this chapter (invisible, and not allowed in HTML) were replaced by spaces; remove them from the source", if count == 1 { "" } else { "s" })),
    )
}

/// The module number each chapter sets in its front matter (`module: 7`), with a
/// warning when two chapters claim the same number (the first keeps it).
fn number_modules(
    records: &[ChapterRecord],
    src_name: &Path,
) -> (BTreeMap<u32, PathBuf>, Vec<Diagnostic>) {
    let mut modules: BTreeMap<u32, PathBuf> = BTreeMap::new();
    let mut diagnostics = Vec::new();
    for ch in records {
        let Some(module) = ch.front.front.module else {
            continue;
        };
        if let Some(first) = modules.get(&module) {
            let at = ch.source.find("module:").map_or(0..0, |i| i..i + 7);
            diagnostics.push(
                Diagnostic::warning(&ch.shown, &ch.source, at, format!("module {module} is also set by {}", src_name.join(first).display()))
                    .with_label("the same module number twice")
                    .with_hint("give each chapter its own `module:` number; prerequisites and equation numbers use the first chapter that has it"),
            );
            continue;
        }
        modules.insert(module, ch.path.clone());
    }
    (modules, diagnostics)
}

/// Numbers every labelled equation (`chapter.n`) and reports duplicate labels. The
/// chapter part is the chapter's `module:` number when its front matter sets one, else
/// its number in SUMMARY.md (or its position).
fn number_labels(
    records: &[ChapterRecord],
    src_name: &Path,
    modules: &BTreeMap<u32, PathBuf>,
) -> (Labels, Vec<Diagnostic>) {
    let mut labels = Labels::new();
    let mut diagnostics = Vec::new();
    // Which chapter numbers its equations with each prefix: two chapters never show the
    // same "(6.1)" (print.html shows them on one page).
    let mut prefixes: BTreeMap<String, (PathBuf, String)> = BTreeMap::new();
    let module_of: HashMap<&Path, u32> = modules.iter().map(|(n, p)| (p.as_path(), *n)).collect();
    for (index, ch) in records.iter().enumerate() {
        let chapter_labels: Vec<_> = ch
            .entries
            .iter()
            .filter_map(|e| e.contribution.label.clone())
            .collect();
        if chapter_labels.is_empty() {
            continue;
        }
        let lines = diagnostic::LineIndex::new(&ch.source);
        let module = module_of.get(ch.path.as_path()).map(u32::to_string);
        let from_module = module.is_some();
        let position = || ch.number.clone().unwrap_or_else(|| (index + 1).to_string());
        let prefix = module.unwrap_or_else(position);
        for (n, (label, span)) in chapter_labels.into_iter().enumerate() {
            let here = ch.location(&lines, span.start);
            if n == 0 {
                match prefixes.get(&prefix) {
                    Some((other, at)) if *other != ch.path => {
                        let why = if from_module {
                            format!("its front matter's `module: {prefix}`")
                        } else {
                            format!("its number {prefix} in SUMMARY.md")
                        };
                        diagnostics.push(
                            Diagnostic::error(&ch.shown, &ch.source, span.clone(), format!("this chapter's equations are numbered ({prefix}.1), (…), as are those of {}", src_name.join(other).display()))
                                .with_label("numbered again here")
                                .with_hint(format!("this chapter takes the number {prefix} from {why}, and the equation at {at} already has ({prefix}.1); give this chapter a `module:` number that no other chapter's equations use (its number in SUMMARY.md is {})", position())),
                        );
                        // Its labels still count, so `{eq}` references do not cascade.
                    }
                    Some(_) => {}
                    None => {
                        prefixes.insert(prefix.clone(), (ch.path.clone(), here.clone()));
                    }
                }
            }
            if let Some(first) = labels.get(&label) {
                diagnostics.push(
                    Diagnostic::error(&ch.shown, &ch.source, span, format!("duplicate equation label `{label}`"))
                        .with_label("used again here")
                        .with_hint(format!("it is already defined at {}; labels are book-wide, so give each equation its own", first.defined_at)),
                );
                continue;
            }
            labels.insert(
                label,
                Label {
                    chapter: ch.path.clone(),
                    number: format!("{prefix}.{}", n + 1),
                    defined_at: here,
                },
            );
        }
    }
    (labels, diagnostics)
}
/// Collects definitions and claims of every chapter; warns about a symbol that means two
/// things without `overloaded: true`, and about one id used for two symbols.
pub fn collect_notation(
    file_symbols: Vec<(Symbol, String)>,
    records: &[ChapterRecord],
) -> (Notation, Vec<Diagnostic>) {
    collect_notation_with(file_symbols, records, &chapter_uses)
}

fn collect_notation_with(
    file_symbols: Vec<(Symbol, String)>,
    records: &[ChapterRecord],
    uses_of: UsesOf,
) -> (Notation, Vec<Diagnostic>) {
    let mut notation = Notation::default();
    let mut diagnostics = Vec::new();
    for (symbol, at) in file_symbols {
        notation.add(symbol, None, at, None, false, &mut diagnostics);
    }
    let mut want_uses = false;
    for (position, ch) in records.iter().enumerate() {
        notation.titles.insert(ch.path.clone(), ch.title.clone());
        notation.order.insert(ch.path.clone(), position);
        if !ch.front.front.macros.is_empty() {
            notation
                .chapter_macros
                .insert(ch.path.clone(), ch.front.front.macros.clone());
        }
        let lines = diagnostic::LineIndex::new(&ch.source);
        for Entry {
            block,
            demo,
            anchor,
            contribution,
        } in &ch.entries
        {
            for d in &contribution.symbols {
                let site = Site {
                    shown: ch.shown.clone(),
                    source: ch.source.clone(),
                    keys: d.keys.clone(),
                    at: d.at,
                };
                notation.add(
                    d.symbol.clone(),
                    Some(ch.path.as_path()),
                    ch.location(&lines, d.at),
                    Some(site),
                    *demo,
                    &mut diagnostics,
                );
            }
            // The author guide's examples (`{demo}`) are not the book's claims.
            if let Some(claim) = contribution.claim.as_ref().filter(|_| !demo) {
                notation.claims.push(ClaimEntry {
                    status: claim.status.clone(),
                    summary: claim.summary.clone(),
                    source: claim.source.clone(),
                    chapter: ch.path.clone(),
                    anchor: anchor.clone().unwrap_or_else(|| block.name.clone()),
                    formula: claim.formula,
                });
            }
            want_uses |= contribution.wants_uses;
        }
    }
    if want_uses {
        for ch in records {
            if notation.patterns_for(&ch.path).is_empty() {
                continue;
            }
            for i in uses_of(&notation, ch) {
                notation.uses.entry(i).or_default().insert(ch.path.clone());
            }
        }
    }
    (notation, diagnostics)
}

/// The definitions (indexes into [`Notation::definitions`]) that the formulas of `ch`
/// use (in its prose, and what its blocks show, each tagged), in order, once each.
pub fn chapter_uses(notation: &Notation, ch: &ChapterRecord) -> Vec<usize> {
    let mut used = std::collections::BTreeSet::new();
    let prose = crate::scan::find_math(&ch.source, ch.body_start)
        .into_iter()
        .map(|m| m.tex);
    let blocks = ch
        .entries
        .iter()
        .flat_map(|e| e.contribution.formulas.iter().cloned());
    for tex in prose.chain(blocks) {
        // Each formula against the symbols whose TeX it contains, not all of the
        // chapter's (linear in the chapter, however many it defines).
        let among = notation.occurring(&tex);
        let patterns = notation
            .resolve_among(&ch.path, &[], &[], among.as_deref())
            .patterns;
        if patterns.is_empty() {
            continue;
        }
        let ids: HashMap<&str, usize> = patterns.iter().map(|(i, p)| (p.id.as_str(), *i)).collect();
        let plain: Vec<inspect::Pattern> = patterns.iter().map(|(_, p)| p.clone()).collect();
        let found: Vec<usize> = inspect::tag(&tex, &plain)
            .symbols
            .iter()
            .filter_map(|id| ids.get(id.as_str()).copied())
            .collect();
        used.extend(found);
    }
    used.into_iter().collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn chapter(path: &Path, source: &str) -> ChapterRecord {
        ChapterRecord::read(
            path.to_path_buf(),
            Path::new("src").join(path),
            "T".into(),
            None,
            Arc::from(source),
        )
    }

    #[test]
    fn collects_symbols_claims_and_warns_on_unmarked_overloads() {
        let a = ":::{symbol-table}\n---\n- {id: sigma, tex: '\\sigma', read: sigma, meaning: The activation}\n---\n:::\n\n:::{claim} empirical\n:source: Someone (2020)\nWords grow. More text.\n:::\n";
        let b = ":::{symbols}\n---\n- {id: sd, tex: '\\sigma', name: sd, meaning: Standard deviation}\n---\n:::\n:::{formula} Card\n:status: model\n:tex: y\n:::\n";
        let chapters = [chapter(Path::new("a.md"), a), chapter(Path::new("b.md"), b)];
        let (n, d) = collect_notation(Vec::new(), &chapters);
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
        let (_, d) = collect_notation(Vec::new(), &chapters);
        assert!(d.is_empty(), "{d:?}");
    }

    #[test]
    fn a_card_prefers_its_own_meaning_of_a_letter() {
        let a = ":::{formula} One\n---\ntex: i\nwhere:\n  - {id: pos-i, tex: i, name: i, meaning: A position}\n---\n:::\n\n:::{formula} Two\n---\ntex: i\nwhere:\n  - {id: cand-i, tex: i, name: i, meaning: A candidate}\n---\n:::\n";
        let chapters = [chapter(Path::new("a.md"), a)];
        let (n, d) = collect_notation(Vec::new(), &chapters);
        assert!(d.is_empty(), "{d:?}");
        assert_eq!(n.definitions.len(), 2, "different meanings stay apart");
        let ch = Path::new("a.md");
        let own = |id: &str| {
            n.resolve(ch, &[id.to_string()], &[]).patterns[0]
                .1
                .id
                .clone()
        };
        assert_eq!(own("pos-i"), "pos-i");
        assert_eq!(own("cand-i"), "cand-i");
        // Named by neither: two meanings in the chapter, none is taken.
        let r = n.resolve(ch, &[], &[]);
        assert!(r.patterns.is_empty(), "{:?}", r.patterns);
        assert_eq!(r.ambiguous, vec![vec![0, 1]]);
        // `uses:` chooses.
        let r = n.resolve(ch, &[], &["cand-i".into()]);
        assert_eq!(r.patterns[0].1.id, "cand-i");
        assert!(r.ambiguous.is_empty());
    }

    #[test]
    fn never_borrows_from_another_chapter_unless_named() {
        let a = ":::{symbols}\n---\n- {id: score-i, tex: 'z_i', name: z i, meaning: The score of option i}\n---\n:::\n";
        let b = "Text only.\n";
        let chapters = [chapter(Path::new("a.md"), a), chapter(Path::new("b.md"), b)];
        let file = vec![(
            Symbol {
                id: "eta".into(),
                tex: "\\eta".into(),
                name: "eta".into(),
                read: String::new(),
                meaning: Some("The learning rate".into()),
                code: None,
                shape: None,
                overloaded: false,
            },
            "symbols.yml:1:1".to_string(),
        )];
        let (n, d) = collect_notation(file, &chapters);
        assert!(d.is_empty(), "{d:?}");
        let ids = |r: crate::notation::Resolved| {
            r.patterns
                .into_iter()
                .map(|(_, p)| p.id)
                .collect::<Vec<_>>()
        };
        // The symbols file serves every chapter; another chapter's symbol does not.
        assert_eq!(ids(n.resolve(Path::new("b.md"), &[], &[])), ["eta"]);
        assert_eq!(
            ids(n.resolve(Path::new("a.md"), &[], &[])),
            ["eta", "score-i"]
        );
        // Named in `uses:`, it is borrowed.
        assert_eq!(
            ids(n.resolve(Path::new("b.md"), &[], &["score-i".into()])),
            ["eta", "score-i"]
        );
        // What a hint can point to: the letter `z` is defined in a.md.
        assert_eq!(n.elsewhere(Path::new("b.md"), "z"), [1]);
        assert!(n.elsewhere(Path::new("a.md"), "z").is_empty());
    }

    #[test]
    fn one_meaning_written_twice_is_not_ambiguous() {
        let a = ":::{symbols}\n---\n- {id: w1, tex: 'w', name: w, meaning: A weight}\n---\n:::\n\n:::{symbol-table}\n---\n- {id: w2, tex: 'w', read: w, meaning: A  weight}\n---\n:::\n";
        let chapters = [chapter(Path::new("a.md"), a)];
        let (n, _) = collect_notation(Vec::new(), &chapters);
        let r = n.resolve(Path::new("a.md"), &[], &[]);
        assert!(r.ambiguous.is_empty());
        assert_eq!(r.patterns.len(), 1);
    }
}
