//! `{notation-index}` and `{claims-index}`: pages generated from the whole book. An
//! author places a chapter containing just the directive in SUMMARY.md; its content is
//! rebuilt from the book's [`crate::notation::Notation`] on every build, so it stays
//! correct when chapters move, and is ordered deterministically (book order).
//!
//! ```markdown
//! # Notation
//!
//! :::{notation-index}
//! :::
//! ```

use std::collections::{HashMap, HashSet};
use std::path::PathBuf;

use serde::Serialize;

use super::status::Status;
use super::{Block, Cx, Directive};
use crate::diagnostic::Diagnostic;
use crate::notation::CLAIM_ORDER;

/// The `notation-index` directive.
pub struct NotationIndex;

/// The `claims-index` directive.
pub struct ClaimsIndex;

#[derive(Serialize)]
struct Link {
    href: String,
    title: String,
}

#[derive(Serialize)]
struct Row {
    anchor: String,
    math_html: String,
    name_html: String,
    /// How to read it aloud, when the definition gives `read` besides `name`.
    read: String,
    meaning_html: String,
    code: Option<String>,
    defined: Vec<Link>,
    book_file: bool,
    used: Vec<Link>,
}

/// What the definitions merged into one notation-index entry share.
struct EntryGroup {
    key: String,
    meaning: String,
    overloaded: bool,
    chapters: HashSet<Option<PathBuf>>,
    /// Another definition merged in: its links are put in book order at the end.
    merged: bool,
}

impl EntryGroup {
    /// Whether definition `d` (meaning `meaning`) is the same entry.
    fn takes(&self, d: &crate::notation::Definition, meaning: &str) -> bool {
        if self.key != d.key {
            return false;
        }
        // A definition without a meaning (a chip) explains nothing to disagree with.
        if self.meaning == meaning || self.meaning.trim().is_empty() || meaning.trim().is_empty() {
            return true;
        }
        !(self.overloaded || d.symbol.overloaded || self.chapters.contains(&d.chapter))
    }
}

fn no_body(block: &Block, cx: &Cx) -> Result<(), Diagnostic> {
    let body = &cx.source[block.body.clone()];
    if !body.trim().is_empty() || !block.argument.is_empty() {
        let span = if block.argument.is_empty() {
            block.body.clone()
        } else {
            block.argument_span.clone()
        };
        return Err(cx
            .report.error(span, format!("`{}` takes no argument and no body", block.name))
            .with_label("remove this")
            .with_hint("the page is generated from the whole book; write the heading and any introduction outside the directive"));
    }
    Ok(())
}

/// What one definition adds to its notation-index entry: its meaning, the link to
/// where it is defined, and the chapters that use it.
struct Found {
    meaning: String,
    defined: Option<Link>,
    used: Vec<Link>,
}

/// Merges definition `d` into the entry (`group`, `row`) of the same glyph and meaning.
fn merge(
    cx: &mut Cx,
    group: &mut EntryGroup,
    row: &mut Row,
    d: &crate::notation::Definition,
    found: Found,
    span: &std::ops::Range<usize>,
) {
    let Found {
        meaning,
        defined,
        used,
    } = found;
    if group.meaning.trim().is_empty() && !meaning.trim().is_empty() {
        row.meaning_html = cx.as_defined(d, "meaning", |cx| cx.inline(&meaning, span.clone()));
        group.meaning = meaning.clone();
    }
    if row.code.is_none() {
        row.code = d.symbol.code.clone();
    }
    group.overloaded |= d.symbol.overloaded;
    group.chapters.insert(d.chapter.clone());
    group.merged = true;
    // Repeated links are dropped and the lists put in book order once, after every
    // definition is merged (`in_book_order`): doing it per merge cost the square of
    // the definitions of one glyph.
    row.defined.extend(defined);
    row.used.extend(used);
    row.book_file |= d.chapter.is_none();
}

/// A new entry for definition `d`, its anchor unique among `rows`.
fn new_entry(
    cx: &mut Cx,
    d: &crate::notation::Definition,
    found: Found,
    span: &std::ops::Range<usize>,
    anchors: &mut HashSet<String>,
) -> (EntryGroup, Row) {
    let Found {
        meaning,
        defined,
        used,
    } = found;
    // Typeset as in the defining chapter; problems are reported there.
    let math_html = cx.as_defined(d, "tex", |cx| {
        cx.math
            .option_math(&mut cx.report, &d.symbol.tex, false, span.clone())
    });
    let name_key = if d.symbol.name.trim().is_empty() {
        "read"
    } else {
        "name"
    };
    let name_html = cx.as_defined(d, name_key, |cx| cx.inline(d.symbol.called(), span.clone()));
    let meaning_html = cx.as_defined(d, "meaning", |cx| cx.inline(&meaning, span.clone()));
    let read = if name_key == "name" && !d.symbol.read.trim().is_empty() {
        d.symbol.read.trim().to_string()
    } else {
        String::new()
    };
    let mut anchor = format!("notation-{}", d.symbol.id);
    let mut n = 1;
    while anchors.contains(&anchor) {
        n += 1;
        anchor = format!("notation-{}-{n}", d.symbol.id);
    }
    anchors.insert(anchor.clone());
    (
        EntryGroup {
            key: d.key.clone(),
            meaning,
            overloaded: d.symbol.overloaded,
            chapters: HashSet::from([d.chapter.clone()]),
            merged: false,
        },
        Row {
            anchor,
            math_html,
            name_html,
            read,
            meaning_html,
            code: d.symbol.code.clone(),
            defined: defined.into_iter().collect(),
            book_file: d.chapter.is_none(),
            used,
        },
    )
}

/// The rows, the links of each merged entry without repeats (the first kept) and in
/// book order (stable: links into one chapter keep the order they were merged in).
fn in_book_order(cx: &Cx, rows: Vec<(EntryGroup, Row)>) -> Vec<Row> {
    let mut rank: Option<HashMap<String, usize>> = None;
    rows.into_iter()
        .map(|(group, mut row)| {
            if group.merged {
                // The place in the book of the chapter a link points into, by its path.
                let rank = rank.get_or_insert_with(|| {
                    let mut rank: HashMap<String, usize> = HashMap::new();
                    for (p, &i) in &cx.book.notation.order {
                        let at = rank
                            .entry(super::relative_html_path(cx.chapter_path, p))
                            .or_insert(i);
                        *at = (*at).min(i);
                    }
                    rank
                });
                let of = |href: &str| {
                    let page = href.split('#').next().unwrap_or_default();
                    rank.get(page).copied().unwrap_or(usize::MAX)
                };
                for list in [&mut row.defined, &mut row.used] {
                    let mut seen = HashSet::new();
                    list.retain(|l| seen.insert(l.href.clone()));
                    list.sort_by_cached_key(|l| of(&l.href));
                }
            }
            row
        })
        .collect()
}

fn chapter_link(cx: &Cx, chapter: &PathBuf, anchor: &str) -> Link {
    let title = cx
        .book
        .notation
        .titles
        .get(chapter)
        .cloned()
        .unwrap_or_else(|| chapter.display().to_string());
    let mut href = super::relative_html_path(cx.chapter_path, chapter);
    if !anchor.is_empty() {
        href.push('#');
        href.push_str(anchor);
    }
    Link { href, title }
}

impl Directive for NotationIndex {
    fn name(&self) -> &'static str {
        "notation-index"
    }

    fn contribute(&self, _block: &Block, _source: &str, out: &mut super::contribute::Contribution) {
        out.wants_uses = true;
    }

    fn render(&self, block: &Block, cx: &mut Cx) -> Result<String, Diagnostic> {
        no_body(block, cx)?;
        let span = block.opener.clone();
        let defs = cx.book.notation.definitions.clone();
        // One entry per symbol and meaning. Definitions of the same glyph merge into one
        // entry (its "defined in" links grow) when they mean the same thing: the same
        // meaning, one of them without a meaning (a chip), or different chapters
        // describing it in their own words. Glyphs marked `overloaded` (σ the standard
        // deviation, σ the activation), and different meanings within one chapter, keep
        // an entry each.
        let mut rows: Vec<(EntryGroup, Row)> = Vec::new();
        let mut by_key: HashMap<String, Vec<usize>> = HashMap::new();
        let mut anchors: HashSet<String> = HashSet::new();
        for (i, d) in defs.iter().enumerate().filter(|(_, d)| !d.demo) {
            let meaning = d.symbol.meaning.clone().unwrap_or_default();
            let used: Vec<Link> = cx
                .book
                .notation
                .uses
                .get(&i)
                .map(|set| {
                    let mut chapters: Vec<&PathBuf> = set.iter().collect();
                    let order = &cx.book.notation.order;
                    chapters.sort_by_key(|c| order.get(*c).copied().unwrap_or(usize::MAX));
                    chapters.iter().map(|c| chapter_link(cx, c, "")).collect()
                })
                .unwrap_or_default();
            let defined = d.chapter.as_ref().map(|c| chapter_link(cx, c, &d.anchor()));
            let found = Found {
                meaning,
                defined,
                used,
            };
            // Only entries of the same glyph can take it (`EntryGroup::takes`).
            let same_glyph = by_key.entry(d.key.clone()).or_default();
            if let Some(&r) = same_glyph
                .iter()
                .find(|&&r| rows[r].0.takes(d, &found.meaning))
            {
                let (group, row) = &mut rows[r];
                merge(cx, group, row, d, found, &span);
                continue;
            }
            same_glyph.push(rows.len());
            let entry = new_entry(cx, d, found, &span, &mut anchors);
            rows.push(entry);
        }
        let rows: Vec<Row> = in_book_order(cx, rows);
        let mut context = tera::Context::new();
        context.insert("rows", &rows);
        cx.template("notation-index", context, Vec::new(), span)
    }

    fn degrade(&self, _block: &Block, cx: &mut Cx) -> String {
        let mut out = String::from("| Symbol | Read it as | Meaning |\n|---|---|---|\n");
        for d in &cx.book.notation.definitions {
            out.push_str(&format!(
                "| ${}$ | {} | {} |\n",
                d.symbol.tex.replace('|', "\\vert "),
                d.symbol.spoken().replace('|', "\\|"),
                d.symbol
                    .meaning
                    .as_deref()
                    .unwrap_or("")
                    .replace('|', "\\|")
            ));
        }
        out
    }
}

#[derive(Serialize)]
struct ClaimRow {
    summary_html: String,
    source_html: Option<String>,
    link: Link,
    formula: bool,
}

#[derive(Serialize)]
struct Group {
    status: &'static str,
    label: &'static str,
    icon: &'static str,
    claims: Vec<ClaimRow>,
}

impl Directive for ClaimsIndex {
    fn name(&self) -> &'static str {
        "claims-index"
    }

    fn render(&self, block: &Block, cx: &mut Cx) -> Result<String, Diagnostic> {
        no_body(block, cx)?;
        let span = block.opener.clone();
        let claims = cx.book.notation.claims.clone();
        let mut groups = Vec::new();
        for word in CLAIM_ORDER {
            let Some(status) = Status::parse(word) else {
                continue;
            };
            let mut rows = Vec::new();
            for c in claims.iter().filter(|c| c.status == word) {
                // Typeset with the macros of the chapter that states the claim.
                let (summary_html, source_html) = cx.in_chapter(&c.chapter, |cx| {
                    (
                        cx.inline(&c.summary, span.clone()),
                        c.source.as_ref().map(|s| cx.inline(s, span.clone())),
                    )
                });
                rows.push(ClaimRow {
                    summary_html,
                    source_html,
                    link: chapter_link(cx, &c.chapter, &c.anchor),
                    formula: c.formula,
                });
            }
            if !rows.is_empty() {
                groups.push(Group {
                    status: status.key(),
                    label: status.label(),
                    icon: status.icon(),
                    claims: rows,
                });
            }
        }
        let mut context = tera::Context::new();
        context.insert("groups", &groups);
        context.insert("total", &claims.len());
        cx.template("claims-index", context, Vec::new(), span)
    }

    fn degrade(&self, _block: &Block, cx: &mut Cx) -> String {
        let mut out = String::new();
        for c in &cx.book.notation.claims {
            out.push_str(&format!("- **{}**: {}\n", c.status, c.summary));
        }
        out
    }
}
