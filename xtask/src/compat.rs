//! `cargo xtask compat [--debug] [--vs-katex] [BOOK_DIR...]`: do real books written for
//! mdbook-katex typeset every formula they had, after renaming one header?
//!
//! A corpus entry is a folder with the book in `book/` and `reference.tsv`: every formula
//! mdbook-katex 0.10.0 typesets in it (page, `I`/`D`, TeX; see the corpus README). By
//! default every entry under `../shared/corpus` (beside the repository) is checked; a
//! `BOOK_DIR` argument is one entry, or a corpus folder holding several.
//! Each book is copied to `target/compat/<name>/`, its `[preprocessor.katex]` header
//! renamed to `[preprocessor.mathcourse]` (nothing else changes), built with the real
//! `mdbook` CLI and our binary (release; `--debug`: the debug one), and every typeset
//! formula is read back from the HTML (KaTeX's MathML annotation holds the TeX; ours, `data-tex`) and
//! compared with the reference, allowing for mdbook-katex's own damage to its
//! annotations (mdBook runs Markdown over them afterwards). The table goes to stdout and
//! to the "## Compatibility with mdbook-katex" section of BENCHMARKS.md.
//!
//! `--vs-katex` also installs mdbook-katex 0.10.0 into `target/bench-tools` and times both
//! preprocessors on each book, interleaved: a cold build and a warm rebuild after
//! editing one chapter.

use std::collections::BTreeMap;
use std::fs;
use std::path::{Path, PathBuf};
use std::process::Command;

use anyhow::{bail, Context, Result};

use crate::util::{ensure_mdbook, output_of, repo_root, run_in, splice_section};

const HEADING: &str = "## Compatibility with mdbook-katex";
const KATEX_VERSION: &str = "0.10.0";
const ROUNDS: usize = 3;

/// Where the corpus lives when no folder is given: beside the repository.
pub fn default_corpus() -> PathBuf {
    repo_root().join("../shared/corpus")
}

/// Where the corpus of books written for mdBook's MathJax lives: beside the repository.
pub fn default_mathjax_corpus() -> PathBuf {
    repo_root().join("../shared/corpus-mathjax")
}

/// A MathJax corpus entry: the book itself (`book.toml`) beside `reference.tsv`, whose
/// TeX is exactly what MathJax received (compared as it is, `--exact`).
fn is_mathjax_entry(dir: &Path) -> bool {
    dir.join("book.toml").is_file() && dir.join("reference.tsv").is_file()
}

/// One formula as extracted from a built page.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord)]
struct Formula {
    page: String,
    display: bool,
    tex: String,
}

/// What one book gave.
#[derive(Debug, Default)]
struct BookResult {
    name: String,
    reference: usize,
    ours: usize,
    missing: Vec<String>,
    extra: usize,
    warnings: usize,
    seconds: f64,
    katex: Option<(f64, f64, f64, f64)>,
}

/// `cargo xtask compat`.
pub fn run(args: &[String]) -> Result<()> {
    let debug = args.iter().any(|a| a == "--debug");
    let vs_katex = args.iter().any(|a| a == "--vs-katex");
    let dirs: Vec<PathBuf> = args
        .iter()
        .filter(|a| !a.starts_with("--"))
        .map(PathBuf::from)
        .collect();
    let results = check(&dirs, debug, vs_katex)?;
    let section = table(&results, debug, vs_katex);
    print!("{section}");
    if dirs.is_empty() {
        let path = repo_root().join("BENCHMARKS.md");
        let text = fs::read_to_string(&path).unwrap_or_else(|_| "# Benchmarks\n".into());
        fs::write(&path, splice_section(&text, HEADING, &section))?;
        eprintln!(
            "xtask: wrote the compatibility section of {}",
            path.display()
        );
    }
    fail_on_missing(&results)
}

/// For `cargo xtask test`: the corpus with the debug binary, failing on any missing
/// formula; one line and success when there is no corpus.
pub fn test() -> Result<()> {
    let corpus = default_corpus();
    if !corpus.is_dir() && !default_mathjax_corpus().is_dir() {
        eprintln!(
            "xtask: compat skipped: no corpus of mdbook-katex books at {} (it sits beside the repository as shared/corpus)",
            corpus.display()
        );
        return Ok(());
    }
    let results = check(&[], true, false)?;
    print!("{}", table(&results, true, false));
    fail_on_missing(&results)
}

fn fail_on_missing(results: &[BookResult]) -> Result<()> {
    let missing: usize = results.iter().map(|r| r.missing.len()).sum();
    if missing > 0 {
        bail!("{missing} formula(s) that mdbook-katex typesets are missing (listed above)");
    }
    Ok(())
}

/// Builds and compares every book; `dirs` empty means the whole default corpus.
fn check(dirs: &[PathBuf], debug: bool, vs_katex: bool) -> Result<Vec<BookResult>> {
    let root = repo_root();
    // A folder with `reference.tsv` is one book; any other folder is a corpus of them.
    let mut entries = Vec::new();
    if dirs.is_empty() {
        for corpus in [default_corpus(), default_mathjax_corpus()] {
            if corpus.is_dir() {
                entries.extend(corpus_entries(&corpus)?);
            }
        }
    }
    for dir in dirs {
        if dir.join("reference.tsv").is_file() {
            entries.push(dir.clone());
        } else {
            entries.extend(corpus_entries(dir)?);
        }
    }
    if entries.is_empty() {
        bail!("no corpus entries (folders with book/ and reference.tsv) found");
    }
    ensure_mdbook()?;
    let mut build = vec![
        "build",
        "--locked",
        "-p",
        "mdbook-mathcourse",
        "--bin",
        "mdbook-mathcourse",
    ];
    if !debug {
        build.push("--release");
    }
    run_in(&root, "cargo", &build)?;
    let target = std::env::var_os("CARGO_TARGET_DIR")
        .map(PathBuf::from)
        .unwrap_or_else(|| root.join("target"));
    let ours_bin = target.join(if debug { "debug" } else { "release" });
    let katex_bin = if vs_katex {
        Some(install_katex(&target)?)
    } else {
        None
    };
    let mut results = Vec::new();
    for entry in entries {
        let name = entry
            .file_name()
            .map_or("book".into(), |n| n.to_string_lossy().to_string());
        eprintln!("xtask: compat: {name}");
        let reference = read_reference(&entry.join("reference.tsv"))?;
        let work = target.join("compat").join(&name);
        let book = work.join("ours");
        let mathjax = is_mathjax_entry(&entry);
        if mathjax {
            copy_book(&entry, &book, false)?;
            let toml = fs::read_to_string(book.join("book.toml"))?;
            fs::write(
                book.join("book.toml"),
                format!("{toml}\n[preprocessor.mathcourse]\n"),
            )?;
        } else {
            copy_book(&entry.join("book"), &book, true)?;
        }
        let (seconds, stderr) = crate::util::mdbook_build(&book, &ours_bin)?;
        let ours = extract(&built_dir(&book))?;
        let cmp = compare(&reference, &ours, mathjax);
        let mut result = BookResult {
            name,
            reference: reference.len(),
            ours: ours.len(),
            missing: cmp.missing,
            extra: cmp.extra,
            warnings: stderr.matches("warning: ").count(),
            seconds,
            katex: None,
        };
        if let Some(bin) = katex_bin.as_ref().filter(|_| !mathjax) {
            result.katex = Some(race(&entry.join("book"), &work, &ours_bin, bin)?);
        }
        results.push(result);
    }
    Ok(results)
}

/// Every folder of `corpus` that holds `book/` and `reference.tsv`, sorted.
fn corpus_entries(corpus: &Path) -> Result<Vec<PathBuf>> {
    let mut out: Vec<PathBuf> = fs::read_dir(corpus)
        .with_context(|| format!("no corpus at {}", corpus.display()))?
        .flatten()
        .map(|e| e.path())
        .filter(|p| {
            (p.join("book").is_dir() && p.join("reference.tsv").is_file()) || is_mathjax_entry(p)
        })
        .collect();
    out.sort();
    Ok(out)
}

/// Copies a book (without its output and caches) to `to`; with `rename`, the
/// `[preprocessor.katex]` header (and its sub-tables) becomes `[preprocessor.mathcourse]`.
fn copy_book(from: &Path, to: &Path, rename: bool) -> Result<()> {
    if to.exists() {
        fs::remove_dir_all(to)?;
    }
    copy_dir(from, to)?;
    if rename {
        let path = to.join("book.toml");
        let toml = fs::read_to_string(&path)?;
        if !toml.contains("[preprocessor.katex") {
            bail!(
                "{} has no [preprocessor.katex]",
                from.join("book.toml").display()
            );
        }
        fs::write(
            &path,
            toml.replace("[preprocessor.katex", "[preprocessor.mathcourse"),
        )?;
    }
    Ok(())
}

fn copy_dir(from: &Path, to: &Path) -> Result<()> {
    fs::create_dir_all(to)?;
    for entry in fs::read_dir(from)? {
        let entry = entry?;
        let name = entry.file_name();
        if name == "book" || name == ".mathcourse-cache" {
            continue;
        }
        let path = entry.path();
        if path.is_dir() {
            copy_dir(&path, &to.join(&name))?;
        } else {
            fs::copy(&path, to.join(&name))?;
        }
    }
    Ok(())
}

/// The output folder of a built book (`build.build-dir`, default `book`).
fn built_dir(book: &Path) -> PathBuf {
    let toml = fs::read_to_string(book.join("book.toml")).unwrap_or_default();
    let dir = toml
        .lines()
        .find_map(|l| {
            let (k, v) = l.split_once('=')?;
            (k.trim() == "build-dir").then(|| v.trim().trim_matches('"').to_string())
        })
        .unwrap_or_else(|| "book".into());
    let out = book.join(dir);
    // With several renderers mdBook writes the HTML one into `html/`.
    if out.join("html").join("index.html").is_file() {
        out.join("html")
    } else {
        out
    }
}

fn read_reference(path: &Path) -> Result<Vec<Formula>> {
    let text =
        fs::read_to_string(path).with_context(|| format!("could not read {}", path.display()))?;
    Ok(text
        .lines()
        .filter(|l| !l.trim().is_empty())
        .filter_map(|l| {
            let mut parts = l.splitn(3, '\t');
            Some(Formula {
                page: parts.next()?.to_string(),
                display: parts.next()? == "D",
                tex: parts.next().unwrap_or("").to_string(),
            })
        })
        .collect())
}

/// Every typeset formula of a built book: KaTeX's annotation gives the TeX (`?` when
/// there is none); display when the formula sits in a `katex-display` span. Skips
/// `print.html`, `toc.html` and `404.html` (copies of the chapters, or no chapter).
fn extract(built: &Path) -> Result<Vec<Formula>> {
    let mut pages = crate::util::files_with_extension(built, "html");
    pages.sort();
    let mut out = Vec::new();
    for path in pages {
        let file = path.file_name().unwrap_or_default().to_string_lossy();
        if matches!(file.as_ref(), "print.html" | "toc.html" | "404.html") {
            continue;
        }
        let page = path
            .strip_prefix(built)
            .unwrap_or(&path)
            .to_string_lossy()
            .replace('\\', "/");
        let html = fs::read_to_string(&path).unwrap_or_default();
        let starts: Vec<usize> = html
            .match_indices("<span class=\"katex\"")
            .map(|(i, _)| i)
            .filter(|&i| matches!(html.as_bytes().get(i + 19), Some(b' ' | b'>')))
            .collect();
        for (n, &s) in starts.iter().enumerate() {
            let end = starts.get(n + 1).copied().unwrap_or(html.len());
            let seg = &html[s..end];
            // Ours carries the TeX in `data-tex` (see `math::render`), KaTeX in its
            // MathML annotation.
            let tag = &seg[..seg.find('>').unwrap_or(seg.len())];
            let open = "<annotation encoding=\"application/x-tex\">";
            let tex = tag
                .split_once(" data-tex=\"")
                .and_then(|(_, r)| r.split_once('"'))
                .map(|(t, _)| t)
                .or_else(|| {
                    let rest = &seg[seg.find(open)? + open.len()..];
                    rest.find("</annotation>").map(|e| &rest[..e])
                })
                .map_or("?".to_string(), |t| {
                    unescape_html(t)
                        .split_whitespace()
                        .collect::<Vec<_>>()
                        .join(" ")
                });
            let mut from = s.saturating_sub(40);
            while !html.is_char_boundary(from) {
                from -= 1;
            }
            let before = html[from..s].trim_end();
            out.push(Formula {
                page: page.clone(),
                display: before.ends_with("<span class=\"katex-display\">"),
                tex,
            });
        }
    }
    Ok(out)
}

/// Decodes the HTML character references KaTeX and mdBook write (`&amp;`, `&lt;`,
/// `&gt;`, `&quot;`, `&#39;`, `&#NN;`, `&#xNN;`).
fn unescape_html(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    let mut rest = text;
    while let Some(i) = rest.find('&') {
        out.push_str(&rest[..i]);
        rest = &rest[i..];
        let decoded = rest.find(';').filter(|&e| e <= 10).and_then(|e| {
            let entity = &rest[1..e];
            let c = match entity {
                "amp" => Some('&'),
                "lt" => Some('<'),
                "gt" => Some('>'),
                "quot" => Some('"'),
                "apos" => Some('\''),
                "nbsp" => Some('\u{a0}'),
                _ => entity
                    .strip_prefix("#x")
                    .or_else(|| entity.strip_prefix("#X"))
                    .and_then(|h| u32::from_str_radix(h, 16).ok())
                    .or_else(|| entity.strip_prefix('#').and_then(|d| d.parse().ok()))
                    .and_then(char::from_u32),
            };
            c.map(|c| (c, e + 1))
        });
        match decoded {
            Some((c, len)) => {
                out.push(c);
                rest = &rest[len..];
            }
            None => {
                out.push('&');
                rest = &rest[1..];
            }
        }
    }
    out.push_str(rest);
    out
}

/// Markdown's backslash escapes applied once (`\{` reads `{`), as mdBook applied them to
/// mdbook-katex's annotations.
fn markdown_unescape(tex: &str) -> String {
    let mut out = String::with_capacity(tex.len());
    let mut chars = tex.chars().peekable();
    while let Some(c) = chars.next() {
        if c == '\\' && chars.peek().is_some_and(|n| n.is_ascii_punctuation()) {
            out.push(chars.next().unwrap_or('\\'));
        } else {
            out.push(c);
        }
    }
    out
}

/// Smart punctuation undone and whitespace removed (mdBook's smart punctuation also
/// reaches mdbook-katex's annotations).
fn squash(tex: &str) -> String {
    let mut t = tex.to_string();
    for (a, b) in [
        ('…', "..."),
        ('’', "'"),
        ('‘', "'"),
        ('“', "\""),
        ('”', "\""),
        ('—', "---"),
        ('–', "--"),
    ] {
        t = t.replace(a, b);
    }
    t.split_whitespace().collect()
}

type Key = (String, bool, String);

fn counter(items: impl IntoIterator<Item = Key>) -> BTreeMap<Key, usize> {
    let mut map = BTreeMap::new();
    for k in items {
        *map.entry(k).or_insert(0) += 1;
    }
    map
}

/// The result of comparing one book.
#[derive(Debug, Default, PartialEq)]
struct Comparison {
    /// What mdbook-katex typeset and we did not: `page I|D: tex`.
    missing: Vec<String>,
    /// What we typeset beyond the reference.
    extra: usize,
}

/// Compares the reference with ours (the rules of the corpus's `compare.py`): ours is
/// Markdown-unescaped once, both are squashed; reference entries mangled by mdBook
/// (`?`, or holding `<em>`) are matched by page count only; a missing reference formula
/// that is a prefix of an unmatched one of ours on the same page (emphasis cut it short)
/// matches it; so does one that differs only by block-quote markers (`>`) mdbook-katex
/// left inside a multi-line formula. With `exact` (a MathJax reference, whose TeX is what
/// MathJax received after Markdown), ours is compared as it is, not unescaped.
fn compare(reference: &[Formula], ours: &[Formula], exact: bool) -> Comparison {
    let mut mangled: BTreeMap<String, usize> = BTreeMap::new();
    let mut known = Vec::new();
    for f in reference {
        if f.tex == "?" || f.tex.contains("<em>") || f.tex.contains("</em>") {
            *mangled.entry(f.page.clone()).or_insert(0) += 1;
        } else {
            known.push((f.page.clone(), f.display, squash(&f.tex)));
        }
    }
    let known = counter(known);
    let ours = counter(ours.iter().map(|f| {
        (
            f.page.clone(),
            f.display,
            if exact {
                squash(&f.tex)
            } else {
                squash(&markdown_unescape(&f.tex))
            },
        )
    }));
    let mut missing: BTreeMap<Key, usize> = BTreeMap::new();
    let mut extra: BTreeMap<Key, usize> = BTreeMap::new();
    for (k, &n) in &known {
        let have = ours.get(k).copied().unwrap_or(0);
        if n > have {
            missing.insert(k.clone(), n - have);
        }
    }
    for (k, &n) in &ours {
        let want = known.get(k).copied().unwrap_or(0);
        if n > want {
            extra.insert(k.clone(), n - want);
        }
    }
    let missing_keys: Vec<Key> = missing.keys().cloned().collect();
    let extra_keys: Vec<Key> = extra.keys().cloned().collect();
    for key in &missing_keys {
        for cand in &extra_keys {
            while missing[key] > 0
                && extra[cand] > 0
                && cand.0 == key.0
                && cand.2.starts_with(&key.2)
            {
                *missing.get_mut(key).unwrap() -= 1;
                *extra.get_mut(cand).unwrap() -= 1;
            }
        }
    }
    // mdbook-katex keeps a block quote's `>` markers inside a multi-line formula (and
    // KaTeX draws them); ours drops them: equal without any `>`, on the same page.
    let unquoted = |t: &str| t.replace('>', "");
    for key in &missing_keys {
        for cand in &extra_keys {
            while missing[key] > 0
                && extra[cand] > 0
                && cand.0 == key.0
                && key.2.contains('>')
                && unquoted(&cand.2) == unquoted(&key.2)
            {
                *missing.get_mut(key).unwrap() -= 1;
                *extra.get_mut(cand).unwrap() -= 1;
            }
        }
    }
    let mut extra_pages: BTreeMap<&str, usize> = BTreeMap::new();
    for (k, &n) in &extra {
        *extra_pages.entry(k.0.as_str()).or_insert(0) += n;
    }
    let mut lines = Vec::new();
    for ((page, display, tex), n) in &missing {
        for _ in 0..*n {
            let short: String = tex.chars().take(160).collect();
            lines.push(format!(
                "{page} {}: {short}",
                if *display { "D" } else { "I" }
            ));
        }
    }
    for (page, &n) in &mangled {
        let have = extra_pages.get(page.as_str()).copied().unwrap_or(0);
        for _ in n.min(have)..n {
            lines.push(format!(
                "{page}: one formula mdBook's Markdown mangled in the reference"
            ));
        }
    }
    let extra_total: usize = extra.values().sum();
    let mangled_matched: usize = mangled
        .iter()
        .map(|(p, &n)| n.min(extra_pages.get(p.as_str()).copied().unwrap_or(0)))
        .sum();
    Comparison {
        missing: lines,
        extra: extra_total - mangled_matched,
    }
}

/// Installs mdbook-katex at the pinned version into `target/bench-tools` (once).
fn install_katex(target: &Path) -> Result<PathBuf> {
    let root = target.join("bench-tools");
    let bin = root.join("bin");
    let have = output_of(
        bin.join("mdbook-katex").to_str().unwrap_or("mdbook-katex"),
        &["--version"],
    )
    .unwrap_or_default();
    if !have.contains(KATEX_VERSION) {
        let build_dir = target.join("bench-tools-build");
        eprintln!(
            "xtask: installing mdbook-katex {KATEX_VERSION} into {}",
            root.display()
        );
        let status = Command::new("cargo")
            .args([
                "install",
                "mdbook-katex",
                "--version",
                KATEX_VERSION,
                "--locked",
            ])
            .arg("--root")
            .arg(&root)
            .env("CARGO_TARGET_DIR", build_dir)
            .status()
            .context("could not run cargo install")?;
        if !status.success() {
            bail!("installing mdbook-katex {KATEX_VERSION} failed");
        }
    }
    Ok(bin)
}

/// Cold and warm builds of one book with each preprocessor, interleaved, `ROUNDS` times:
/// medians (ours cold, ours warm, mdbook-katex cold, mdbook-katex warm), seconds.
fn race(
    source: &Path,
    work: &Path,
    ours_bin: &Path,
    katex_bin: &Path,
) -> Result<(f64, f64, f64, f64)> {
    let mut times: [Vec<f64>; 4] = Default::default();
    for round in 0..ROUNDS {
        eprintln!("xtask: compat --vs-katex round {}/{ROUNDS}", round + 1);
        for (i, (rename, bin)) in [(true, ours_bin), (false, katex_bin)]
            .into_iter()
            .enumerate()
        {
            let book = work.join(if rename { "race-ours" } else { "race-katex" });
            copy_book(source, &book, rename)?;
            times[2 * i].push(crate::util::mdbook_build(&book, bin)?.0);
            let chapter = first_chapter(&book)?;
            let text = fs::read_to_string(&chapter)?;
            fs::write(
                &chapter,
                format!("{text}\nOne more formula, $a_{round} + b^2$.\n"),
            )?;
            times[2 * i + 1].push(crate::util::mdbook_build(&book, bin)?.0);
        }
    }
    let [a, b, c, d] = times.map(median);
    Ok((a, b, c, d))
}

/// The first chapter file named in `src/SUMMARY.md`.
fn first_chapter(book: &Path) -> Result<PathBuf> {
    let summary = fs::read_to_string(book.join("src/SUMMARY.md"))?;
    summary
        .split("](")
        .skip(1)
        .filter_map(|s| s.split(')').next())
        .map(|p| book.join("src").join(p))
        .find(|p| p.is_file())
        .context("no chapter in SUMMARY.md")
}

fn median(mut v: Vec<f64>) -> f64 {
    v.sort_by(|a, b| a.total_cmp(b));
    v.get(v.len() / 2).copied().unwrap_or(0.0)
}

/// The Markdown table (and the missing formulas, if any).
fn table(results: &[BookResult], debug: bool, vs_katex: bool) -> String {
    let mdbook = output_of("mdbook", &["--version"]).unwrap_or_default();
    let mut s = format!(
        "{HEADING}\n\n\
         Command: `cargo xtask compat` (source: `xtask/src/compat.rs`). Real books built with \
         mdbook-katex {KATEX_VERSION}, each with only its `[preprocessor.katex]` header renamed to \
         `[preprocessor.mathcourse]`, built with `{}` and the {} `mdbook-mathcourse`. *Reference*: \
         the formulas mdbook-katex typesets in it; *missing*: typeset by mdbook-katex, not by us; \
         *extra*: typeset by us only (math mdbook-katex skips, e.g. after an unmatched backtick, \
         or brought in by `{{{{#include}}}}` after it ran); *warnings*: ours, each a located \
         `$...$` kept as text. Books written for mdBook's MathJax (`../shared/corpus-mathjax`: \
         games102, tari) get `[preprocessor.mathcourse]` added and nothing else changed; their \
         reference is what MathJax 2.7's `tex2jax` typesets in the page mdBook built, compared \
         exactly (the TeX MathJax received, after Markdown); their warnings are located \
         notes (a backslash Markdown removed, a command defined nowhere), not failures. \
         With `--vs-katex`: medians of {ROUNDS} interleaved rounds, \
         *cold* a fresh copy, *warm* the same after appending one formula to one chapter. \
         Load average at the end: {}.\n\n",
        mdbook.trim(),
        if debug { "debug" } else { "release" },
        fs::read_to_string("/proc/loadavg")
            .unwrap_or_default()
            .split_whitespace()
            .take(3)
            .collect::<Vec<_>>()
            .join(" ")
    );
    if vs_katex {
        s.push_str("| book | reference | ours | missing | extra | warnings | our build (s) | cold: ours / mdbook-katex (s) | warm: ours / mdbook-katex (s) |\n|---|---:|---:|---:|---:|---:|---:|---:|---:|\n");
    } else {
        s.push_str("| book | reference | ours | missing | extra | warnings | our build (s) |\n|---|---:|---:|---:|---:|---:|---:|\n");
    }
    for r in results {
        s.push_str(&format!(
            "| {} | {} | {} | {} | {} | {} | {:.2} |",
            r.name,
            r.reference,
            r.ours,
            r.missing.len(),
            r.extra,
            r.warnings,
            r.seconds
        ));
        if let Some((oc, ow, kc, kw)) = r.katex {
            s.push_str(&format!(" {oc:.2} / {kc:.2} | {ow:.2} / {kw:.2} |"));
        }
        s.push('\n');
    }
    for r in results {
        for m in &r.missing {
            s.push_str(&format!("\nMISSING {}: {m}", r.name));
        }
    }
    if results.iter().any(|r| !r.missing.is_empty()) {
        s.push('\n');
    }
    s
}

#[cfg(test)]
mod tests {
    use super::*;

    fn f(page: &str, display: bool, tex: &str) -> Formula {
        Formula {
            page: page.into(),
            display,
            tex: tex.into(),
        }
    }

    #[test]
    fn compare_allows_for_mdbook_katex_damage() {
        let reference = vec![
            // mdBook unescaped `\{` in mdbook-katex's annotation.
            f("a.html", false, "{0,1}"),
            // Emphasis mangled this one: matched by page count.
            f("a.html", false, "x<em>1</em>"),
            f("a.html", true, "y = 1"),
            f("b.html", false, "z"),
            // A display in a block quote: mdbook-katex kept the markers.
            f("b.html", true, "> k = 2 >"),
        ];
        let ours = vec![
            f("a.html", false, "\\{0,1\\}"),
            f("a.html", false, "x_1_"),
            f("a.html", true, "y  =  1"),
            f("b.html", true, "k = 2"),
        ];
        let cmp = compare(&reference, &ours, false);
        assert_eq!(cmp.missing, vec!["b.html I: z".to_string()]);
        assert_eq!(cmp.extra, 0);
        // Exact: a MathJax reference holds the TeX after Markdown; ours is not unescaped.
        let exact = compare(
            &[f("c.html", false, "\\{x\\}")],
            &[f("c.html", false, "\\{x\\}")],
            true,
        );
        assert!(exact.missing.is_empty(), "{exact:?}");
        let unescaped = compare(
            &[f("c.html", false, "\\{x\\}")],
            &[f("c.html", false, "\\{x\\}")],
            false,
        );
        assert_eq!(unescaped.missing.len(), 1);
    }

    #[test]
    fn html_references_are_decoded() {
        assert_eq!(
            unescape_html("a&lt;b &amp;&#92;&#x7b;&bogus c"),
            "a<b &\\{&bogus c"
        );
    }
}
