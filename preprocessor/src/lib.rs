//! mdbook-mathcourse: an mdBook preprocessor for interactive math courses.
//!
//! The library does the work; `main.rs` is a thin CLI around [`MathCourse`]. Data flows
//! one way: book config → [`config::Config`] → per-chapter [`chapter::render_chapter`]
//! (front matter → [`scan`] → [`math`] → splice) in parallel → diagnostics reported
//! once for the whole book. See ARCHITECTURE.md for the map.

// A `Diagnostic` (file, span, source line, labels, hint) is built only when an author
// made a mistake; boxing it in every `Result` would cost more code than it saves.
#![allow(clippy::result_large_err)]

pub mod assets;
pub(crate) mod book_fs;
pub mod book_pass;
pub(crate) mod cache;
pub mod chapter;
#[cfg(test)]
mod compact_js;
pub mod config;
pub(crate) mod context;
pub mod diagnostic;
pub mod directive;
pub(crate) mod frontmatter;
pub(crate) mod header;
pub(crate) mod html;
pub(crate) mod include;
pub mod init;
pub mod katex_html;
mod macro_reach;
/// Symbol tagging for inspectable formulas: the `mathcourse-tex` crate, under the name
/// its callers (notation, directives, the fuzzer) have always used.
pub use mathcourse_tex as inspect;
pub mod math;
pub mod mathjax;
pub(crate) mod notation;
pub mod page_cache;
pub mod protocol;
pub mod scan;
pub mod serve;
pub(crate) mod symbol;
pub(crate) mod templates;

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use anyhow::{bail, Result};
use mdbook_preprocessor::book::{Book, BookItem, Chapter};
use mdbook_preprocessor::{Preprocessor, PreprocessorContext};
use rayon::prelude::*;

use crate::cache::Cache;
use crate::chapter::BookContext;
use crate::config::{Config, MacrosConfig};
use crate::diagnostic::{Diagnostic, Severity};
use crate::math::MathOptions;

pub use crate::config::NAME;

/// The preprocessor. Stateless: everything comes from the [`PreprocessorContext`].
#[derive(Debug, Default, Clone, Copy)]
pub struct MathCourse;

/// Summary of one run, for tests and the benchmark.
#[derive(Debug, Default, Clone, PartialEq, Eq)]
pub struct RunStats {
    /// Chapters processed.
    pub chapters: usize,
    /// Formulas served from the cache.
    pub cache_hits: usize,
    /// Formulas rendered.
    pub cache_misses: usize,
    /// Chapters whose whole page came from the cache.
    pub pages_reused: usize,
    /// Cache files deleted because their chapter is no longer in the book.
    pub cache_files_removed: usize,
}

/// The outcome of preprocessing a book: the new book, warnings, and errors.
#[derive(Debug)]
pub struct Outcome {
    /// The processed book (meaningless when `errors` is not empty).
    pub book: Book,
    /// Every diagnostic, errors and warnings, in book order.
    pub diagnostics: Vec<Diagnostic>,
    /// Plain warnings not tied to a source location (configuration).
    pub config_warnings: Vec<String>,
    /// Counters.
    pub stats: RunStats,
}

impl Outcome {
    /// True when at least one diagnostic is an error.
    pub fn has_errors(&self) -> bool {
        self.diagnostics
            .iter()
            .any(|d| d.severity == Severity::Error)
    }
}

impl Preprocessor for MathCourse {
    fn name(&self) -> &str {
        NAME
    }

    fn run(&self, ctx: &PreprocessorContext, book: Book) -> Result<Book> {
        let outcome = process(ctx, book)?;
        let color = false;
        let quiet = warnings_said_by_the_html_run(ctx);
        for w in outcome.config_warnings.iter().filter(|_| !quiet) {
            eprintln!("warning: [preprocessor.{NAME}] {w}");
        }
        let warnings: Vec<_> = outcome
            .diagnostics
            .iter()
            .filter(|d| d.severity == Severity::Warning && !quiet)
            .cloned()
            .collect();
        if !warnings.is_empty() {
            eprint!("{}", diagnostic::render_all(&warnings, color));
        }
        let mut outcome = outcome;
        if outcome.has_errors() && serve::serving(&ctx.config) {
            eprint!("{}", diagnostic::render_all(&outcome.diagnostics, color));
            eprintln!("warning: [preprocessor.{NAME}] the errors above are shown at the top of their pages; `mdbook build` fails until they are fixed");
            serve::show_errors_in_pages(
                &mut outcome.book,
                &outcome.diagnostics,
                &ctx.config.book.src,
            );
            return Ok(outcome.book);
        }
        if outcome.has_errors() {
            let errors: Vec<_> = outcome
                .diagnostics
                .iter()
                .filter(|d| d.severity == Severity::Error)
                .cloned()
                .collect();
            bail!(
                "{}{} error{} in the book's sources",
                diagnostic::render_all(&errors, color),
                errors.len(),
                if errors.len() == 1 { "" } else { "s" }
            );
        }
        Ok(outcome.book)
    }

    fn supports_renderer(&self, renderer: &str) -> Result<bool> {
        Ok(supports(renderer))
    }
}

/// True when this run is for a renderer other than HTML in a book that HTML renders
/// too (`[output.html]` beside `[output.markdown]`, say): mdBook runs the preprocessors
/// once per renderer, and the HTML run already says every warning, so this run says
/// only errors (the same warning twice is noise).
pub fn warnings_said_by_the_html_run(ctx: &PreprocessorContext) -> bool {
    ctx.renderer != "html"
        && ctx
            .config
            .get::<serde_json::Value>("output.html")
            .ok()
            .flatten()
            .is_some()
}

/// Every renderer is supported: HTML gets typeset math; every other renderer gets
/// plain, readable Markdown (front matter removed, math left as its TeX source).
pub fn supports(_renderer: &str) -> bool {
    true
}

/// Stack size of the threads that render chapters (and of the thread that runs the
/// book-wide passes). The math engine, the template engine and nested directives are
/// recursive; limits on formula nesting ([`math::MAX_NESTING`]) and directive nesting
/// keep them shallow, and this stack keeps a wide margin beyond those limits (it is
/// reserved, not used: the memory a build touches does not grow with it).
pub const RENDER_STACK_BYTES: usize = 256 * 1024 * 1024;

/// Runs the whole pipeline and returns the outcome without printing anything.
///
/// Runs on its own thread with a [`RENDER_STACK_BYTES`] stack, and renders chapters on a
/// rayon pool whose threads have the same stack.
pub fn process(ctx: &PreprocessorContext, book: Book) -> Result<Outcome> {
    // The context holds a `RefCell`, so the thread gets its own copy.
    let ctx = ctx.clone();
    std::thread::Builder::new()
        .name("mathcourse".into())
        .stack_size(RENDER_STACK_BYTES)
        .spawn(move || process_here(&ctx, book))
        .map_err(|e| anyhow::anyhow!("could not start the render thread: {e}"))?
        .join()
        .unwrap_or_else(|panic| std::panic::resume_unwind(panic))
}

fn process_here(ctx: &PreprocessorContext, mut book: Book) -> Result<Outcome> {
    let config = Config::from_book(&ctx.config)?;
    let mut config_warnings = config.compat_warnings();
    let src_name = ctx.config.book.src.clone();
    let mut chapters = Vec::new();
    collect_chapters(&mut book.items, &mut chapters);
    if include::links_run_later(&ctx.config) {
        config_warnings.extend(expand_includes(ctx, &mut chapters));
    }
    let (records, mut diagnostics) = read_chapters(&mut chapters, &src_name);
    let file_symbols = book_symbols(&ctx.root, &config)?;
    let html = ctx.renderer == "html";
    if html && serve::serving(&ctx.config) {
        config_warnings.extend(unwatched_inputs(ctx, &config));
    }
    let mathjax = mathjax_setup(ctx, &config, html, &mut config_warnings);
    let book_ctx = book_context(ctx, &config, mathjax, html)?;
    let uses = page_cache::UsesCache::new(&book_ctx.cache, html);
    let wide = book_pass::run_with(&records, &src_name, file_symbols, &|notation, ch| {
        uses.uses(notation, ch)
    });
    diagnostics.extend(wide.diagnostics);
    diagnostics.extend(uses.warnings());
    let book_ctx = book_ctx.with_book_wide(wide.labels, wide.notation, wide.modules);
    let pool = rayon::ThreadPoolBuilder::new()
        .stack_size(RENDER_STACK_BYTES)
        .thread_name(|i| format!("mathcourse-render-{i}"))
        .build()
        .map_err(|e| anyhow::anyhow!("could not start the render threads: {e}"))?;
    // Pages are kept for the HTML renderer only: a second renderer of the same book
    // would overwrite them with its own on every build.
    let digest = if html {
        page_cache::BookDigest::new(&book_ctx, &page_cache::config_text(&ctx.config)?)
    } else {
        None
    };
    let outputs: Vec<chapter::ChapterOutput> = pool.install(|| {
        records
            .par_iter()
            .map(|record| page_cache::render(record, &book_ctx, digest.as_ref(), html))
            .collect()
    });
    drop(records);
    let mut stats = RunStats {
        chapters: outputs.len(),
        ..RunStats::default()
    };
    let mut unwritten = (0, None);
    for (ch, out) in chapters.iter_mut().zip(outputs) {
        *ch.content = out.content;
        diagnostics.extend(out.diagnostics);
        stats.cache_hits += out.cache_hits;
        stats.cache_misses += out.cache_misses;
        stats.pages_reused += usize::from(out.page_reused);
        if let Some(err) = out.cache_write_error {
            unwritten.0 += 1;
            unwritten.1.get_or_insert(err);
        }
    }
    if let (count, Some(err)) = unwritten {
        config_warnings.push(cache_write_warning(&config.cache_dir, count, &err));
    }
    // Once per build (every renderer sees the same chapters): by the HTML run, or by
    // the only run when HTML does not render the book.
    if !warnings_said_by_the_html_run(ctx) {
        stats.cache_files_removed = book_ctx.cache.remove_files_of_other_chapters(
            chapters
                .iter()
                .filter_map(|ch| ch.path.map(PathBuf::as_path)),
        );
    }
    if html {
        let widget_pages: Vec<String> = chapters
            .iter()
            .filter(|ch| assets::has_widget(ch.content))
            .filter_map(|ch| ch.path.map(|p| p.to_string_lossy().into_owned()))
            .collect();
        let block = assets::head_hbs(book_ctx.head, &widget_pages);
        config_warnings.extend(assets::install_head(&ctx.root, &theme_dir(ctx), &block)?);
    }
    diagnostic::dedup(&mut diagnostics);
    Ok(Outcome {
        book,
        diagnostics,
        config_warnings,
        stats,
    })
}

/// The one warning of a build whose cache folder could not be written (read-only, full,
/// a file in its place): its cause is the folder, so it is reported once, not at each of
/// the `chapters` whose formulas or page were not kept (`err`: the first failure).
pub fn cache_write_warning(cache_dir: &Path, chapters: usize, err: &str) -> String {
    format!(
        "could not write the cache folder `{}` ({err}): the formulas and pages of {chapters} chapter{} were not kept, so the next build renders them again; check that the folder (option `cache-dir`) is writable. The book itself is built as usual",
        cache_dir.display(),
        if chapters == 1 { "" } else { "s" }
    )
}

/// Expands the `{{#include}}` links in every chapter, as `links` would later: included
/// math must be typeset too. A warning for each link that points outside the book.
fn expand_includes(ctx: &PreprocessorContext, chapters: &mut [ChapterRef]) -> Vec<String> {
    let src_dir = ctx.root.join(&ctx.config.book.src);
    let mut skipped = Vec::new();
    for ch in chapters {
        let file = src_dir.join(ch.source_path.or(ch.path).cloned().unwrap_or_default());
        let dir = file.parent().unwrap_or(&src_dir).to_path_buf();
        if let Some(text) = include::expand(ch.content, &dir, &ctx.root, &mut skipped) {
            *ch.content = text;
        }
    }
    skipped.into_iter().map(|link| format!(
        "`{link}` points outside the book, so mathcourse does not read it: its math stays TeX while mathcourse runs before `links` (remove `before = [\"links\"]`)"
    )).collect()
}

/// Reads every chapter once into its record (its text moves into the record; the
/// rendered page is written back), with a warning for each chapter whose control
/// characters were replaced.
fn read_chapters(
    chapters: &mut [ChapterRef],
    src_name: &Path,
) -> (Vec<book_pass::ChapterRecord>, Vec<Diagnostic>) {
    let mut warnings = Vec::new();
    let records = chapters
        .iter_mut()
        .map(|ch| {
            let path = ch.path.cloned().unwrap_or_default();
            let shown = src_name.join(ch.source_path.unwrap_or(&path));
            warnings.extend(book_pass::replace_control_characters(ch.content, &shown));
            let source = std::sync::Arc::from(std::mem::take(ch.content));
            book_pass::ChapterRecord::read(path, shown, ch.name.clone(), ch.number.clone(), source)
        })
        .collect();
    (records, warnings)
}

/// Under `mdbook serve`: a warning naming the files the build reads (macros file,
/// symbols file, template overrides) that `serve` does not watch ([`serve::unwatched_warning`]).
fn unwatched_inputs(ctx: &PreprocessorContext, config: &Config) -> Option<String> {
    let mut inputs = Vec::new();
    if let Some(MacrosConfig::File(path)) = &config.macros {
        inputs.push(path.clone());
    }
    inputs.extend(config.symbols.clone());
    inputs.push(PathBuf::from(templates::OVERRIDE_DIR));
    let mut watched = vec![ctx.config.book.src.clone(), theme_dir(ctx)];
    watched.extend(ctx.config.build.extra_watch_dirs.iter().cloned());
    serve::unwatched_warning(&ctx.root, &inputs, &watched)
}

/// The theme folder (`output.html.theme`, `theme` by default).
fn theme_dir(ctx: &PreprocessorContext) -> PathBuf {
    ctx.config
        .get::<PathBuf>("output.html.theme")
        .ok()
        .flatten()
        .unwrap_or_else(|| PathBuf::from("theme"))
}

/// MathJax's reading rules when the book's math is read as MathJax reads it, with a
/// warning for each script that would still load MathJax in the browser.
fn mathjax_setup(
    ctx: &PreprocessorContext,
    config: &Config,
    html: bool,
    warnings: &mut Vec<String>,
) -> Option<mathjax::Tex2jax> {
    let mathjax_support = ctx
        .config
        .get::<bool>("output.html.mathjax-support")
        .ok()
        .flatten()
        .unwrap_or(false);
    let theme_dir = theme_dir(ctx);
    let mathjax = mathjax_rules(config, mathjax_support, &ctx.root.join(&theme_dir));
    if mathjax_support && html {
        warnings.push(mathjax::theme::cdn_warning(config.delimiters));
    }
    if html {
        for file in ["index.hbs", "head.hbs"] {
            let path = ctx.root.join(&theme_dir).join(file);
            let text = std::fs::read_to_string(&path).unwrap_or_default();
            if let Some(src) = mathjax::theme::unconditional_mathjax(&text) {
                warnings.push(mathjax::theme::script_warning(
                    &theme_dir.join(file),
                    &src,
                    &text,
                    mathjax.is_some(),
                    config.delimiters,
                ));
            }
        }
    }
    mathjax
}

/// The settings every chapter shares (before the book-wide pass's findings are added):
/// macros and math options, templates, the cache, the assets installed.
fn book_context(
    ctx: &PreprocessorContext,
    config: &Config,
    mathjax: Option<mathjax::Tex2jax>,
    html: bool,
) -> Result<BookContext> {
    let mut macros = book_macros(&ctx.root, config)?;
    if let Some(rules) = &mathjax {
        for (name, expansion) in &rules.macros {
            macros
                .entry(name.clone())
                .or_insert_with(|| expansion.clone());
        }
    }
    let options = MathOptions::from_config(config, macros);
    if html {
        assets::install(&ctx.root.join(&ctx.config.book.src))?;
    }
    let cache_dir = if config.cache {
        Some(book_fs::cache_dir(
            &ctx.root,
            &ctx.config.book.src,
            &config.cache_dir,
        )?)
    } else {
        None
    };
    if let Some(dir) = &cache_dir {
        Cache::new(Some(dir.clone())).remove_stale_temp_files();
    }
    Ok(BookContext {
        templates: templates::Templates::load(&ctx.root)?,
        labels: Default::default(),
        notation: Default::default(),
        modules: Default::default(),
        undefined_symbols: config.undefined_symbols,
        chapter_options: Default::default(),
        fingerprint: if mathjax.is_some() {
            format!("{};mathjax-compat", options.fingerprint())
        } else {
            options.fingerprint()
        },
        options,
        mathjax,
        dollars: if config.delimiters == Some(config::Delimiters::Github) {
            scan::Dollars::Github
        } else {
            scan::Dollars::MdbookKatex
        },
        on_error: config.error_policy(),
        error_color: config.error_color.clone(),
        cache: Cache::new(cache_dir),
        head: assets::Head {
            katex_css: !config.no_css,
            reading_progress: config.reading_progress,
        },
    })
}

/// MathJax's reading rules for this book, or `None` when its math is read another way:
/// `delimiters = "mathjax"`, or mdBook's `mathjax-support` without a `delimiters`
/// option. A `text/x-mathjax-config` script in the theme's `index.hbs` or `head.hbs`
/// sets the delimiters, escapes and macros, as it does in the browser.
fn mathjax_rules(config: &Config, mathjax_support: bool, theme: &Path) -> Option<mathjax::Tex2jax> {
    let on = match config.delimiters {
        Some(d) => d == config::Delimiters::Mathjax,
        None => mathjax_support,
    };
    if !on {
        return None;
    }
    let mut rules = mathjax::Tex2jax::default();
    for file in ["index.hbs", "head.hbs"] {
        let path = theme.join(file);
        let small = std::fs::metadata(&path).is_ok_and(|m| m.is_file() && m.len() <= 4 << 20);
        if let Some(text) = small.then(|| std::fs::read_to_string(&path).ok()).flatten() {
            mathjax::theme::apply_config(&text, &mut rules);
        }
    }
    Some(rules)
}

/// MathJax's reading rules for the book at `root` as its theme configures them (for
/// `mdbook-mathcourse convert-mathjax`).
pub fn theme_mathjax_rules(root: &Path) -> Result<mathjax::Tex2jax> {
    let config = mdbook_preprocessor::config::Config::from_disk(root.join("book.toml"))?;
    let theme = config
        .get::<PathBuf>("output.html.theme")
        .ok()
        .flatten()
        .unwrap_or_else(|| PathBuf::from("theme"));
    let forced = Config {
        delimiters: Some(config::Delimiters::Mathjax),
        ..Config::default()
    };
    Ok(mathjax_rules(&forced, true, &root.join(theme)).unwrap_or_default())
}

/// A chapter's fields the pipeline needs, borrowed so chapters can be processed in parallel.
struct ChapterRef<'a> {
    name: &'a String,
    content: &'a mut String,
    path: Option<&'a PathBuf>,
    source_path: Option<&'a PathBuf>,
    number: Option<String>,
}

/// All chapters with content (drafts have no path and are skipped), in book order.
fn collect_chapters<'a>(items: &'a mut [BookItem], out: &mut Vec<ChapterRef<'a>>) {
    for item in items {
        if let BookItem::Chapter(Chapter {
            name,
            content,
            path,
            source_path,
            sub_items,
            number,
            ..
        }) = item
        {
            if path.is_some() {
                out.push(ChapterRef {
                    name,
                    content,
                    path: path.as_ref(),
                    source_path: source_path.as_ref(),
                    number: number
                        .as_ref()
                        .map(|n| n.to_string().trim_end_matches('.').to_string())
                        .filter(|n| !n.is_empty()),
                });
            }
            collect_chapters(sub_items, out);
        }
    }
}

/// The book's symbols file (`symbols = "symbols.yml"`): a YAML list of symbols, each with
/// where it is written (`file item N`).
fn book_symbols(root: &Path, config: &Config) -> Result<Vec<(symbol::Symbol, String)>> {
    let Some(path) = &config.symbols else {
        return Ok(Vec::new());
    };
    let text: String = book_fs::read_text(root, path, "option `symbols`")?
        .chars()
        .map(|c| {
            if c.is_control() && !matches!(c, '\t' | '\n' | '\r') {
                ' '
            } else {
                c
            }
        })
        .collect();
    let symbols: Vec<symbol::Symbol> = serde_saphyr::from_str(&text).map_err(|e| {
        anyhow::anyhow!(
            "{}: {e}\n  help: the symbols file is a YAML list, one item per symbol: `- {{id: vec-x, tex: '\\mathbf{{x}}', name: x, meaning: A vector}}`",
            path.display()
        )
    })?;
    Ok(symbols
        .into_iter()
        .enumerate()
        .map(|(i, s)| (s, format!("{} item {}", path.display(), i + 1)))
        .collect())
}

/// Book-wide macros from `macros = "file"` or a `[preprocessor.mathcourse.macros]` table.
fn book_macros(root: &Path, config: &Config) -> Result<BTreeMap<String, String>> {
    let macros = book_macros_unchecked(root, config)?;
    if let Some((name, problem)) = math::broken_macros(&macros).into_iter().next() {
        let place = match &config.macros {
            Some(MacrosConfig::File(path)) => path.display().to_string(),
            _ => format!("[preprocessor.{NAME}.macros]"),
        };
        bail!("{place}: macro `{name}` does not typeset: {problem}\n  help: every `{{` in a macro needs its `}}`");
    }
    Ok(macros)
}

fn book_macros_unchecked(root: &Path, config: &Config) -> Result<BTreeMap<String, String>> {
    match &config.macros {
        None => Ok(BTreeMap::new()),
        Some(MacrosConfig::Table(table)) => {
            for name in table.keys() {
                if !name.starts_with('\\') {
                    bail!("macro names in [preprocessor.{NAME}.macros] start with a backslash: write \"\\\\{name}\" instead of \"{name}\"");
                }
            }
            Ok(table.clone())
        }
        Some(MacrosConfig::File(path)) => {
            let text = book_fs::read_text(root, path, "option `macros`")?;
            math::parse_macros_file(&text).map_err(|(line, content)| {
                anyhow::anyhow!(
                    "{}:{line}: expected `\\name:expansion`, found `{content}`\n  help: one macro per line, e.g. `\\R:\\mathbb{{R}}`; lines that do not start with a backslash are ignored",
                    path.display()
                )
            })
        }
    }
}
