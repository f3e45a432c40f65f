//! A chapter's whole output (its page, [`Page`]) kept from one build to the next: a warm
//! rebuild renders only the chapters whose inputs changed.
//!
//! A page is reused when its key is the same: BLAKE3 of the chapter (path, title,
//! number, Markdown after `{{#include}}`), of everything book-wide its rendering can read
//! ([`BookContext`]: options and macros, templates, equation labels, the notation and
//! claims, module numbers, MathJax rules; the notation's uses only for a chapter whose
//! directives ask for them), of the book's configuration and of the program itself (its
//! version, size and modification time). A chapter whose rendering reported anything
//! (a warning, an error) is not kept: every build reports it again, at its cause.

use std::collections::BTreeMap;
use std::fmt::Debug;
use std::sync::{Mutex, OnceLock};

use crate::book_pass::{chapter_uses, ChapterRecord};
use crate::cache::{Cache, Kept, Page};
use crate::chapter::{render_chapter, ChapterOutput};
use crate::context::BookContext;
use crate::diagnostic::Diagnostic;
use crate::notation::Notation;

/// The hash of everything book-wide a page is made from, computed once per build.
#[derive(Debug, Clone)]
pub struct BookDigest {
    /// After the program, the configuration and the book context.
    base: blake3::Hasher,
    /// Of the notation's uses (which chapters use each symbol).
    uses: blake3::Hash,
}

impl BookDigest {
    /// The digest of `book` built with `config` (the book's configuration, as text);
    /// `None` when the program cannot tell its own identity (no page is then reused).
    pub fn new(book: &BookContext, config: &str) -> Option<BookDigest> {
        // Every field, by name: a field added to `BookContext` does not compile here
        // until it is hashed (or said to be no input of a page).
        let BookContext {
            options,
            fingerprint,
            on_error,
            error_color,
            cache: _,
            head,
            templates,
            labels,
            notation: book_notation,
            modules,
            undefined_symbols,
            chapter_options,
            mathjax,
            dollars,
        } = book;
        let mut base = blake3::Hasher::new();
        part(&mut base, "program", program_identity()?);
        part(&mut base, "config", config);
        part(&mut base, "fingerprint", fingerprint);
        part(&mut base, "options", options);
        part(&mut base, "on-error", on_error);
        part(&mut base, "error-color", error_color);
        part(&mut base, "head", head);
        part(&mut base, "templates", templates.overrides_digest);
        // Where a label is written (`defined_at`) reaches diagnostics only: see
        // [`notation`].
        let labels: BTreeMap<_, _> = labels
            .iter()
            .map(|(name, l)| (name, (&l.chapter, &l.number)))
            .collect();
        part(&mut base, "labels", labels);
        part(&mut base, "modules", modules);
        part(&mut base, "undefined-symbols", undefined_symbols);
        let chapter_options: BTreeMap<_, _> = chapter_options
            .iter()
            .map(|(path, (_, fingerprint))| (path, fingerprint))
            .collect();
        part(&mut base, "chapter-options", chapter_options);
        part(&mut base, "mathjax", mathjax);
        part(&mut base, "dollars", dollars);
        notation(&mut base, book_notation);
        let mut uses = blake3::Hasher::new();
        part(&mut uses, "uses", &book_notation.uses);
        Some(BookDigest {
            base,
            uses: uses.finalize(),
        })
    }

    /// The key of `record`'s page (`html`: typeset for the HTML renderer).
    pub fn key(&self, record: &ChapterRecord, html: bool) -> blake3::Hash {
        let mut h = self.base.clone();
        part(&mut h, "html", html);
        if record.entries.iter().any(|e| e.contribution.wants_uses) {
            h.update(self.uses.as_bytes());
        }
        part(&mut h, "path", &record.path);
        part(&mut h, "shown", &record.shown);
        part(&mut h, "title", &record.title);
        part(&mut h, "number", &record.number);
        bytes(&mut h, "source", record.source.as_bytes());
        h.finalize()
    }
}

/// The book's configuration as pages depend on it: all of it but what says where the
/// book is built and served (the `[build]` table: `build-dir`, which `mdbook serve` and
/// `build -d` change, and watch settings; `mdbook serve`'s
/// `output.html.live-reload-endpoint`). No page reads those (what `[build]` changes in a
/// chapter, such as mdBook's own preprocessors, is in its Markdown), so switching
/// between `mdbook serve` and `mdbook build` keeps the pages.
pub fn config_text(config: &mdbook_preprocessor::config::Config) -> serde_json::Result<String> {
    let mut value = serde_json::to_value(config)?;
    if let Some(table) = value.as_object_mut() {
        table.remove("build");
        let output = table.get_mut("output").and_then(|o| o.as_object_mut());
        if let Some(output) = output {
            if let Some(html) = output.get_mut("html").and_then(|h| h.as_object_mut()) {
                html.remove("live-reload-endpoint");
                if html.is_empty() {
                    output.remove("html");
                }
            }
            if output.is_empty() {
                table.remove("output");
            }
        }
    }
    serde_json::to_string(&value)
}

/// The chapter's output: its page from the cache when one was kept for the same inputs,
/// else rendered (and kept when nothing was reported). `digest` is `None` when pages are
/// not reused.
pub fn render(
    record: &ChapterRecord,
    book: &BookContext,
    digest: Option<&BookDigest>,
    html: bool,
) -> ChapterOutput {
    let Some(digest) = digest else {
        return render_chapter(record, book, html);
    };
    let key = digest.key(record, html);
    let skipped = match book.cache.page(&record.path, Kept::Page, &key) {
        Ok(Some(page)) => {
            return ChapterOutput {
                content: page.content,
                cache_hits: page.formulas,
                page_reused: true,
                ..ChapterOutput::default()
            }
        }
        Ok(None) => None,
        Err(what) => Some(what),
    };
    let mut out = render_chapter(record, book, html);
    if let Some(what) = skipped {
        out.diagnostics.push(
            Diagnostic::warning(&record.shown, &record.source, 0..0, "the page cache of this chapter was skipped")
                .with_label(format!("its page file in the cache folder is a {what}, not a regular file"))
                .with_hint("only regular files are read from the cache folder (option `cache-dir`), so the build never waits on a pipe or follows a link out of it; remove that entry and the next build keeps the chapter's page again"),
        );
    } else if out.diagnostics.is_empty() {
        let page = Page {
            content: out.content,
            formulas: out.cache_hits + out.cache_misses,
        };
        if let Err(err) = book.cache.save_page(&record.path, Kept::Page, &key, &page) {
            // The folder's problem, reported once for the build (not at each chapter).
            out.cache_write_error.get_or_insert(err.to_string());
        }
        out.content = page.content;
    }
    out
}

/// The symbols each chapter's formulas use (for the notation index), kept per chapter
/// ([`Kept::Uses`]) under a hash of the chapter, the notation and the program: a warm
/// rebuild tags the formulas of the chapters that changed only.
pub struct UsesCache<'a> {
    cache: &'a Cache,
    /// Of the program and the notation, once every definition is in.
    base: OnceLock<Option<blake3::Hasher>>,
    /// Entries in the cache's place that are not regular files.
    warnings: Mutex<Vec<Diagnostic>>,
}

impl<'a> UsesCache<'a> {
    /// Uses kept in `cache` (none when `keep` is false: every chapter is tagged).
    pub fn new(cache: &'a Cache, keep: bool) -> UsesCache<'a> {
        let base = OnceLock::new();
        if !keep {
            let _ = base.set(None);
        }
        UsesCache {
            cache,
            base,
            warnings: Mutex::default(),
        }
    }

    /// The definitions `ch`'s formulas use ([`chapter_uses`]), kept from an earlier
    /// build when the chapter and the notation are the same.
    pub fn uses(&self, notation: &Notation, ch: &ChapterRecord) -> Vec<usize> {
        let base = self.base.get_or_init(|| {
            let mut h = blake3::Hasher::new();
            part(&mut h, "program", program_identity()?);
            crate::page_cache::notation(&mut h, notation);
            Some(h)
        });
        let Some(mut h) = base.clone() else {
            return chapter_uses(notation, ch);
        };
        part(&mut h, "path", &ch.path);
        bytes(&mut h, "source", ch.source.as_bytes());
        let key = h.finalize();
        match self.cache.page(&ch.path, Kept::Uses, &key) {
            Ok(Some(kept)) => {
                let found: Option<Vec<usize>> = kept
                    .content
                    .split_terminator(',')
                    .map(|n| n.parse().ok())
                    .collect();
                if let Some(found) =
                    found.filter(|f| f.iter().all(|&i| i < notation.definitions.len()))
                {
                    return found;
                }
            }
            Ok(None) => {}
            Err(what) => {
                self.warnings.lock().unwrap_or_else(|e| e.into_inner()).push(
                    Diagnostic::warning(&ch.shown, &ch.source, 0..0, "the symbol uses kept for this chapter were skipped")
                        .with_label(format!("its uses file in the cache folder is a {what}, not a regular file"))
                        .with_hint("only regular files are read from the cache folder (option `cache-dir`), so the build never waits on a pipe or follows a link out of it; remove that entry and the next build keeps the chapter's uses again"),
                );
                return chapter_uses(notation, ch);
            }
        }
        let found = chapter_uses(notation, ch);
        let content = found.iter().map(|i| format!("{i},")).collect();
        // A uses file that cannot be written is found again next build.
        let _ = self.cache.save_page(
            &ch.path,
            Kept::Uses,
            &key,
            &Page {
                content,
                formulas: 0,
            },
        );
        found
    }

    /// The warnings found on the way.
    pub fn warnings(self) -> Vec<Diagnostic> {
        self.warnings
            .into_inner()
            .unwrap_or_else(|e| e.into_inner())
    }
}

/// What identifies the running program (version, size, modification time, path): a page
/// kept by another version or another build of it is not reused (its rendering may
/// differ).
fn program_identity() -> Option<String> {
    static IDENTITY: OnceLock<Option<String>> = OnceLock::new();
    IDENTITY.get_or_init(read_program_identity).clone()
}

fn read_program_identity() -> Option<String> {
    let exe = std::env::current_exe().ok()?;
    let meta = std::fs::metadata(&exe).ok()?;
    let modified = meta
        .modified()
        .ok()?
        .duration_since(std::time::UNIX_EPOCH)
        .ok()?;
    // The path too: builds that set every modification time alike (Nix, reproducible
    // builds) install each build at a path of its own.
    Some(format!(
        "{} {} {} {}",
        env!("CARGO_PKG_VERSION"),
        meta.len(),
        modified.as_nanos(),
        exe.display()
    ))
}

/// The notation as pages read it: definitions, claims, chapter titles, order and
/// macros. Not where each definition is written (file:line:col, the source line): that
/// reaches diagnostics only, and a chapter that reports anything is never kept, so a
/// line added above a definition or a label re-renders its own chapter, not the book.
/// The uses are hashed on their own ([`BookDigest::uses`]).
fn notation(h: &mut blake3::Hasher, notation: &Notation) {
    for d in &notation.definitions {
        part(h, "symbol", &d.symbol);
        part(h, "key", &d.key);
        part(h, "chapter", &d.chapter);
        part(h, "demo", d.demo);
    }
    part(h, "claims", &notation.claims);
    part(
        h,
        "titles",
        notation.titles.iter().collect::<BTreeMap<_, _>>(),
    );
    part(
        h,
        "order",
        notation.order.iter().collect::<BTreeMap<_, _>>(),
    );
    let macros: BTreeMap<_, _> = notation.chapter_macros.iter().collect();
    part(h, "chapter-macros", macros);
}

/// Feeds `value`'s debug text to `h`, named and length-prefixed (no two different
/// sequences of parts feed the same bytes). Every value hashed has a deterministic debug
/// text: maps are ordered first.
fn part(h: &mut blake3::Hasher, name: &str, value: impl Debug) {
    bytes(h, name, format!("{value:?}").as_bytes());
}

/// Feeds `data` to `h`, named and length-prefixed.
fn bytes(h: &mut blake3::Hasher, name: &str, data: &[u8]) {
    h.update(name.as_bytes());
    h.update(&(data.len() as u64).to_le_bytes());
    h.update(data);
}

#[cfg(test)]
mod tests {
    use std::str::FromStr;

    use mdbook_preprocessor::config::Config;

    /// Where the book is built and served is no input of a page; everything else is.
    #[test]
    fn the_config_text_leaves_out_where_the_book_goes_only() {
        let text = |toml: &str| super::config_text(&Config::from_str(toml).unwrap()).unwrap();
        let book = "[book]\ntitle = \"T\"\n";
        let plain = text(book);
        for elsewhere in [
            "[build]\nbuild-dir = \"out\"\n",
            "[output.html]\nlive-reload-endpoint = \"__livereload\"\n",
            "[build]\nbuild-dir = \"/tmp/x\"\n[output.html]\nlive-reload-endpoint = \"x\"\n",
        ] {
            assert_eq!(text(&format!("{book}{elsewhere}")), plain, "{elsewhere}");
        }
        for changed in [
            "[output.html]\nsite-url = \"/x/\"\n",
            "[preprocessor.mathcourse]\nfleqn = true\n",
        ] {
            assert_ne!(text(&format!("{book}{changed}")), plain, "{changed}");
        }
        assert_ne!(text("[book]\ntitle = \"U\"\n"), plain);
    }
}
