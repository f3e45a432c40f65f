//! `cargo xtask bench-book`: how long the course book in `book/` takes to build with the
//! real `mdbook` CLI, cold and warm, next to the same book without the preprocessor (the
//! floor: mdBook alone, directives and TeX left as text). Written as the "## Course book"
//! section of BENCHMARKS.md.

use std::fs;
use std::path::Path;

use anyhow::{Context, Result};

use crate::util::{ensure_mdbook, output_of, repo_root, splice_section};

const ROUNDS: usize = 5;
const HEADING: &str = "## Course book";

/// Copies `book/` (without its output) to `to`.
pub(crate) fn copy_book(from: &Path, to: &Path) -> Result<()> {
    if to.exists() {
        fs::remove_dir_all(to)?;
    }
    copy_dir(
        from,
        to,
        &["book", "drafts", ".mathcourse-cache", "mathcourse-assets"],
    )
}

fn copy_dir(from: &Path, to: &Path, skip: &[&str]) -> Result<()> {
    fs::create_dir_all(to)?;
    for entry in fs::read_dir(from)? {
        let entry = entry?;
        let name = entry.file_name();
        if skip.iter().any(|s| name == *s) {
            continue;
        }
        let path = entry.path();
        if path.is_dir() {
            copy_dir(&path, &to.join(&name), skip)?;
        } else {
            fs::copy(&path, to.join(&name))?;
        }
    }
    Ok(())
}

/// One `mdbook build` of `dir` with the release preprocessor first on PATH; seconds.
fn build(dir: &Path, bin: &Path) -> Result<f64> {
    crate::util::mdbook_build(dir, bin).map(|(seconds, _)| seconds)
}

fn median(mut v: Vec<f64>) -> f64 {
    v.sort_by(|a, b| a.total_cmp(b));
    v[v.len() / 2]
}

fn list(v: &[f64]) -> String {
    v.iter()
        .map(|t| format!("{t:.2}"))
        .collect::<Vec<_>>()
        .join(", ")
}

/// `cargo xtask bench-book`.
pub fn run() -> Result<()> {
    let root = repo_root();
    ensure_mdbook()?;
    let bin = crate::util::release_preprocessor(&root)?;
    let target = crate::util::target_dir(&root);
    let work = target.join("bench/course-book");
    let ours = work.join("ours");
    let plain = work.join("plain");
    copy_book(&root.join("book"), &ours)?;
    copy_book(&root.join("book"), &plain)?;
    // The floor: the same sources, no preprocessor.
    let toml = fs::read_to_string(plain.join("book.toml"))?;
    let cut = toml
        .find("[preprocessor.mathcourse]")
        .context("book.toml has no [preprocessor.mathcourse]")?;
    let rest = &toml[cut..];
    let end = rest[1..].find("\n[").map_or(rest.len(), |i| i + 2);
    fs::write(
        plain.join("book.toml"),
        format!("{}{}", &toml[..cut], &rest[end..]),
    )?;

    let edited = ours.join("src/toolkit/vectors.md");
    let original = fs::read_to_string(&edited)?;
    let (mut cold, mut warm, mut noop, mut floor) =
        (Vec::new(), Vec::new(), Vec::new(), Vec::new());
    for round in 0..ROUNDS {
        eprintln!("xtask: course book round {}/{ROUNDS}", round + 1);
        floor.push(build(&plain, &bin)?);
        let _ = fs::remove_dir_all(ours.join(".mathcourse-cache"));
        let _ = fs::remove_dir_all(ours.join("src/mathcourse-assets"));
        fs::write(&edited, &original)?;
        cold.push(build(&ours, &bin)?);
        noop.push(build(&ours, &bin)?);
        fs::write(
            &edited,
            format!("{original}\nOne more formula, $a_{{{round}}} + b^2$, for the warm build.\n"),
        )?;
        warm.push(build(&ours, &bin)?);
    }
    let pages = walk_html(&ours.join("book"));
    let formulas: usize = pages
        .iter()
        .filter(|p| !p.ends_with("print.html"))
        .map(|p| {
            fs::read_to_string(p)
                .unwrap_or_default()
                .matches("class=\"katex\"")
                .count()
        })
        .sum();
    let load = fs::read_to_string("/proc/loadavg").unwrap_or_default();
    let mdbook = output_of("mdbook", &["--version"]).unwrap_or_default();
    let (c, w, n, f) = (
        median(cold.clone()),
        median(warm.clone()),
        median(noop.clone()),
        median(floor.clone()),
    );
    let section = format!(
        "{HEADING}\n\n\
         Command: `cargo xtask bench-book` (source: `xtask/src/bench_book.rs`). The course book in `book/` ({} chapter pages, {formulas} typeset formulas, widgets, checked examples, the generated notation and claims pages) built with the real `{}` and the release `mdbook-mathcourse`, {ROUNDS} interleaved rounds, wall-clock per `mdbook build`. *Cold*: formula cache and assets folder deleted first. *No change*: built again at once. *Warm*: one sentence with one new formula appended to one chapter. *mdBook alone*: the same sources without `[preprocessor.mathcourse]` (directives and TeX stay text), the floor. Load average at the end: {}.\n\n\
         | build | seconds (median) | vs mdBook alone | runs (s) |\n|---|---:|---:|---|\n\
         | mdBook alone | {f:.2} | 1.00× | {} |\n\
         | mdbook-mathcourse, cold | {c:.2} | {:.2}× | {} |\n\
         | mdbook-mathcourse, no change | {n:.2} | {:.2}× | {} |\n\
         | mdbook-mathcourse, warm (one formula added) | {w:.2} | {:.2}× | {} |\n",
        pages.iter().filter(|p| !p.ends_with("print.html")).count(),
        mdbook.trim(),
        load.split_whitespace().take(3).collect::<Vec<_>>().join(" "),
        list(&floor),
        c / f,
        list(&cold),
        n / f,
        list(&noop),
        w / f,
        list(&warm),
    );
    let path = root.join("BENCHMARKS.md");
    let text = fs::read_to_string(&path).unwrap_or_else(|_| "# Benchmarks\n".into());
    fs::write(&path, splice_section(&text, HEADING, &section))?;
    print!("{section}");
    eprintln!("xtask: wrote the Course book section of {}", path.display());
    Ok(())
}

fn walk_html(dir: &Path) -> Vec<std::path::PathBuf> {
    let mut out = Vec::new();
    let Ok(entries) = fs::read_dir(dir) else {
        return out;
    };
    for e in entries.flatten() {
        let p = e.path();
        if p.is_dir() {
            out.extend(walk_html(&p));
        } else if p.extension().is_some_and(|x| x == "html") {
            out.push(p);
        }
    }
    out
}
