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
pub(crate) mod cache;
pub mod chapter;
pub(crate) mod collect;
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
/// Symbol tagging for inspectable formulas: the `mathcourse-tex` crate, under the name
/// its callers (notation, directives, the fuzzer) have always used.
pub use mathcourse_tex as inspect;
pub mod math;
pub mod mathjax;
pub(crate) mod notation;
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
        for w in &outcome.config_warnings {
            eprintln!("warning: [preprocessor.{NAME}] {w}");
        }
        let warnings: Vec<_> = outcome
            .diagnostics
            .iter()
            .filter(|d| d.severity == Severity::Warning)
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
    let mut chapters = Vec::new();
    collect_chapters(&mut book.items, &mut chapters);
    if include::links_run_later(&ctx.config) {
        // Included math must be typeset too: expand the links `links` would expand later.
        let src_dir = ctx.root.join(&ctx.config.book.src);
        let mut skipped = Vec::new();
        for ch in &mut chapters {
            let file = src_dir.join(ch.source_path.or(ch.path).cloned().unwrap_or_default());
            let dir = file.parent().unwrap_or(&src_dir).to_path_buf();
            if let Some(text) = include::expand(ch.content, &dir, &ctx.root, &mut skipped) {
                *ch.content = text;
            }
        }
        config_warnings.extend(skipped.into_iter().map(|link| format!(
            "`{link}` points outside the book, so mathcourse does not read it: its math stays TeX while mathcourse runs before `links` (remove `before = [\"links\"]`)"
        )));
    }
    let html = ctx.renderer == "html";
    let src_name = ctx.config.book.src.clone();
    let mut control_warnings = Vec::new();
    for ch in &mut chapters {
        let path = ch.path.cloned().unwrap_or_default();
        let shown = src_name.join(ch.source_path.unwrap_or(&path));
        control_warnings.extend(replace_control_characters(ch.content, &shown));
    }
    let (modules, mut diagnostics) = collect_modules(&chapters, &src_name);
    let (labels, label_diagnostics) = collect_labels(&chapters, &src_name, &modules);
    diagnostics.extend(label_diagnostics);
    diagnostics.splice(0..0, control_warnings);
    let file_symbols = book_symbols(&ctx.root, &config)?;
    let sources: Vec<collect::ChapterSource> = chapters
        .iter()
        .map(|ch| {
            let path = ch.path.map(PathBuf::as_path).unwrap_or(Path::new(""));
            collect::ChapterSource {
                path,
                shown: src_name.join(ch.source_path.unwrap_or(ch.path.unwrap_or(&PathBuf::new()))),
                title: ch.name.as_str(),
                source: ch.content.as_str(),
            }
        })
        .collect();
    let (notation, notation_diagnostics) = notation::Notation::collect(file_symbols, &sources);
    drop(sources);
    diagnostics.extend(notation_diagnostics);

    let mathjax_support = ctx
        .config
        .get::<bool>("output.html.mathjax-support")
        .ok()
        .flatten()
        .unwrap_or(false);
    let theme_dir = ctx
        .config
        .get::<PathBuf>("output.html.theme")
        .ok()
        .flatten()
        .unwrap_or_else(|| PathBuf::from("theme"));
    let mathjax = mathjax_rules(&config, mathjax_support, &ctx.root.join(&theme_dir));
    if mathjax_support && html {
        config_warnings.push(MATHJAX_CDN_WARNING.to_string());
    }
    if mathjax.is_some() && html {
        for file in ["index.hbs", "head.hbs"] {
            let path = ctx.root.join(&theme_dir).join(file);
            let text = std::fs::read_to_string(&path).unwrap_or_default();
            if let Some(src) = mathjax::theme::unconditional_mathjax(&text) {
                config_warnings.push(format!(
                    "{} loads MathJax on every page (`{src}`), which has nothing left to typeset now that mathcourse typesets every formula at build time: remove that script (and its `text/x-mathjax-config`, which mathcourse has read)",
                    theme_dir.join(file).display()
                ));
            }
        }
    }
    let mut macros = book_macros(&ctx.root, &config)?;
    if let Some(rules) = &mathjax {
        for (name, expansion) in &rules.macros {
            macros
                .entry(name.clone())
                .or_insert_with(|| expansion.clone());
        }
    }
    let options = MathOptions::from_config(&config, macros);
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
    let book_ctx = BookContext {
        templates: templates::Templates::load(&ctx.root)?,
        labels,
        notation,
        modules,
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
    }
    .with_chapter_macros();
    let pool = rayon::ThreadPoolBuilder::new()
        .stack_size(RENDER_STACK_BYTES)
        .thread_name(|i| format!("mathcourse-render-{i}"))
        .build()
        .map_err(|e| anyhow::anyhow!("could not start the render threads: {e}"))?;
    let results: Vec<_> = pool.install(|| {
        chapters
            .par_iter_mut()
            .map(|ch| {
                let path = ch.path.cloned().unwrap_or_default();
                let shown = src_name.join(ch.source_path.unwrap_or(&path));
                let out = chapter::render_chapter(ch.content, &path, &shown, &book_ctx, html);
                *ch.content = out.content;
                (out.diagnostics, out.cache_hits, out.cache_misses)
            })
            .collect()
    });
    if html {
        let widget_pages: Vec<String> = chapters
            .iter()
            .filter(|ch| assets::has_widget(ch.content))
            .filter_map(|ch| ch.path.map(|p| p.to_string_lossy().into_owned()))
            .collect();
        let theme = ctx
            .config
            .get::<PathBuf>("output.html.theme")
            .ok()
            .flatten()
            .unwrap_or_else(|| PathBuf::from("theme"));
        let block = assets::head_hbs(book_ctx.head, &widget_pages);
        config_warnings.extend(assets::install_head(&ctx.root, &theme, &block)?);
    }
    let mut stats = RunStats {
        chapters: results.len(),
        ..RunStats::default()
    };
    for (d, hits, misses) in results {
        diagnostics.extend(d);
        stats.cache_hits += hits;
        stats.cache_misses += misses;
    }
    diagnostic::dedup(&mut diagnostics);
    Ok(Outcome {
        book,
        diagnostics,
        config_warnings,
        stats,
    })
}

/// Said once per build while `[output.html] mathjax-support = true`.
const MATHJAX_CDN_WARNING: &str = "`[output.html] mathjax-support = true` still makes every page load MathJax 2.7 from a CDN (cdnjs.cloudflare.com), which typesets nothing now that mathcourse typesets every formula at build time: remove `mathjax-support = true` and add `delimiters = \"mathjax\"` under [preprocessor.mathcourse], so the math is still read the same way and the pages load no MathJax";

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

/// Replaces control characters (U+0000–U+001F except tab, line feed and carriage
/// return, and U+007F) with spaces, one warning per chapter at the first. They are
/// invisible and invalid in HTML, and U+0001 is the template engine's slot marker: left
/// in, it would cut or repeat text in the page. A space keeps every byte offset, so
/// every other diagnostic still points at the right column.
fn replace_control_characters(content: &mut String, shown: &Path) -> Option<Diagnostic> {
    let is_control = |b: u8| (b < 0x20 && !matches!(b, b'\t' | b'\n' | b'\r')) || b == 0x7f;
    let first = content.bytes().position(is_control)?;
    let source: std::sync::Arc<str> = std::sync::Arc::from(content.as_str());
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
fn collect_modules(
    chapters: &[ChapterRef],
    src_name: &Path,
) -> (BTreeMap<u32, PathBuf>, Vec<Diagnostic>) {
    let mut modules: BTreeMap<u32, PathBuf> = BTreeMap::new();
    let mut diagnostics = Vec::new();
    for ch in chapters {
        let Some(block) = frontmatter::locate(ch.content) else {
            continue;
        };
        let Some(module) = frontmatter::parse_keeping(ch.content, &block).front.module else {
            continue;
        };
        let path = ch.path.cloned().unwrap_or_default();
        if let Some(first) = modules.get(&module) {
            let source: std::sync::Arc<str> = std::sync::Arc::from(ch.content.as_str());
            let at = source.find("module:").map_or(0..0, |i| i..i + 7);
            let shown = src_name.join(ch.source_path.unwrap_or(&path));
            diagnostics.push(
                Diagnostic::warning(&shown, &source, at, format!("module {module} is also set by {}", src_name.join(first).display()))
                    .with_label("the same module number twice")
                    .with_hint("give each chapter its own `module:` number; prerequisites and equation numbers use the first chapter that has it"),
            );
            continue;
        }
        modules.insert(module, path);
    }
    (modules, diagnostics)
}

/// Numbers every labelled equation (`chapter.n`) and reports duplicate labels. The
/// chapter part is the chapter's `module:` number when its front matter sets one, else
/// its number in SUMMARY.md (or its position).
fn collect_labels(
    chapters: &[ChapterRef],
    src_name: &Path,
    modules: &BTreeMap<u32, PathBuf>,
) -> (directive::Labels, Vec<Diagnostic>) {
    let mut labels = directive::Labels::new();
    let mut diagnostics = Vec::new();
    // Which chapter numbers its equations with each prefix: two chapters never show the
    // same "(6.1)" (print.html shows them on one page).
    let mut prefixes: BTreeMap<String, (PathBuf, String)> = BTreeMap::new();
    for (index, ch) in chapters.iter().enumerate() {
        let path = ch.path.cloned().unwrap_or_default();
        let shown = src_name.join(ch.source_path.unwrap_or(&path));
        let source: std::sync::Arc<str> = std::sync::Arc::from(ch.content.as_str());
        let start = frontmatter::locate(&source).map_or(0, |b| b.body_start);
        let module = modules
            .iter()
            .find(|(_, p)| ch.path.is_some_and(|c| c == *p))
            .map(|(n, _)| n.to_string());
        let from_module = module.is_some();
        let prefix = module
            .or_else(|| ch.number.clone())
            .unwrap_or_else(|| (index + 1).to_string());
        for (n, (label, span)) in directive::registry::labels(&source, start)
            .into_iter()
            .enumerate()
        {
            let (line, col) = diagnostic::line_col(&source, span.start);
            let here = format!("{}:{line}:{col}", shown.display());
            if n == 0 {
                match prefixes.get(&prefix) {
                    Some((other, at)) if *other != path => {
                        let why = if from_module {
                            format!("its front matter's `module: {prefix}`")
                        } else {
                            format!("its number {prefix} in SUMMARY.md")
                        };
                        diagnostics.push(
                            Diagnostic::error(&shown, &source, span.clone(), format!("this chapter's equations are numbered ({prefix}.1), (…), as are those of {}", src_name.join(other).display()))
                                .with_label("numbered again here")
                                .with_hint(format!("this chapter takes the number {prefix} from {why}, and the equation at {at} already has ({prefix}.1); give this chapter a `module:` number that no other chapter's equations use (its number in SUMMARY.md is {})", ch.number.clone().unwrap_or_else(|| (index + 1).to_string()))),
                        );
                        // Its labels still count, so `{eq}` references do not cascade.
                    }
                    Some(_) => {}
                    None => {
                        prefixes.insert(prefix.clone(), (path.clone(), here.clone()));
                    }
                }
            }
            if let Some(first) = labels.get(&label) {
                diagnostics.push(
                    Diagnostic::error(&shown, &source, span, format!("duplicate equation label `{label}`"))
                        .with_label("used again here")
                        .with_hint(format!("it is already defined at {}; labels are book-wide, so give each equation its own", first.defined_at)),
                );
                continue;
            }
            labels.insert(
                label,
                directive::Label {
                    chapter: path.clone(),
                    number: format!("{prefix}.{}", n + 1),
                    defined_at: here,
                },
            );
        }
    }
    (labels, diagnostics)
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
