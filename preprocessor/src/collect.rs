//! The book-wide pass: before any chapter renders, every chapter is read once for
//! what other chapters need: symbols (the notation), claims, and which chapters use
//! which symbols. It walks the directive blocks of each chapter; the directives then
//! render from what it collected ([`crate::context::BookContext`]).

use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::sync::Arc;

use crate::diagnostic::{self, Diagnostic};
use crate::directive::contribute::Entry;
use crate::directive::registry;
use crate::frontmatter;
use crate::inspect;
use crate::notation::{ClaimEntry, Notation, Site};
use crate::symbol::Symbol;

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
        // The formulas the blocks of each chapter show, kept for `collect_uses`.
        let mut block_formulas: Vec<Vec<String>> = Vec::with_capacity(chapters.len());
        for (position, ch) in chapters.iter().enumerate() {
            notation
                .titles
                .insert(ch.path.to_path_buf(), ch.title.to_string());
            notation.order.insert(ch.path.to_path_buf(), position);
            let front = frontmatter::locate(ch.source);
            let start = front.as_ref().map_or(0, |b| b.body_start);
            if let Some(fm) = front.map(|b| frontmatter::parse_keeping(ch.source, &b).front) {
                if !fm.macros.is_empty() {
                    notation
                        .chapter_macros
                        .insert(ch.path.to_path_buf(), fm.macros);
                }
            }
            let mut shared: Option<Arc<str>> = None;
            let mut formulas = Vec::new();
            for entry in registry::entries(ch.source, start) {
                let Entry {
                    block,
                    demo,
                    anchor,
                    contribution,
                } = entry;
                for d in contribution.symbols {
                    let site = Site {
                        shown: ch.shown.clone(),
                        source: shared.get_or_insert_with(|| Arc::from(ch.source)).clone(),
                        keys: d.keys,
                        at: d.at,
                    };
                    notation.add(
                        d.symbol,
                        Some(ch.path),
                        location(ch, d.at),
                        Some(site),
                        demo,
                        &mut diagnostics,
                    );
                }
                // The author guide's examples (`{demo}`) are not the book's claims.
                if let Some(claim) = contribution.claim.filter(|_| !demo) {
                    notation.claims.push(ClaimEntry {
                        status: claim.status,
                        summary: claim.summary,
                        source: claim.source,
                        chapter: ch.path.to_path_buf(),
                        anchor: anchor.unwrap_or_else(|| block.name.clone()),
                        formula: claim.formula,
                    });
                }
                want_uses |= contribution.wants_uses;
                formulas.extend(contribution.formulas);
            }
            block_formulas.push(formulas);
        }
        if want_uses {
            notation.collect_uses(chapters, block_formulas);
        }
        (notation, diagnostics)
    }

    /// Fills [`Notation::uses`]: every formula of every chapter (in its prose, and
    /// `block_formulas`, what its blocks show), tagged.
    fn collect_uses(&mut self, chapters: &[ChapterSource], block_formulas: Vec<Vec<String>>) {
        for (ch, from_blocks) in chapters.iter().zip(block_formulas) {
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
            formulas.extend(from_blocks);
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

fn location(ch: &ChapterSource, pos: usize) -> String {
    let (line, col) = diagnostic::line_col(ch.source, pos);
    format!("{}:{line}:{col}", ch.shown.display())
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
        let (n, d) = Notation::collect(file, &chapters);
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
        let (n, _) = Notation::collect(Vec::new(), &chapters);
        let r = n.resolve(Path::new("a.md"), &[], &[]);
        assert!(r.ambiguous.is_empty());
        assert_eq!(r.patterns.len(), 1);
    }
}
