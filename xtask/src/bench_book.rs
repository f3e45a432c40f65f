//! `cargo xtask bench-book`: how long the course book in `book/` takes to build with the
//! real `mdbook` CLI, cold and warm, next to the same book without the preprocessor (the
//! floor: mdBook alone, directives and TeX left as text). Written as the "## Course book"
//! section of BENCHMARKS.md.

use std::fmt::Write as _;
use std::fs;
use std::path::Path;

use anyhow::{Context, Result};

use crate::util::{ensure_mdbook, files_with_extension, met, output_of, repo_root, splice_section};

const ROUNDS: usize = 5;
pub const HEADING: &str = "## Course book";

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

/// Our process's part of one `mdbook build` of `dir` (as [`build`]).
struct Share {
    /// The whole build, wall clock.
    whole_s: f64,
    /// The whole build's CPU time, mdBook and every preprocessor (GNU `time`).
    whole_cpu_s: f64,
    /// Our process, wall clock (its own, from reading the book to writing it back).
    ours_s: f64,
    /// Our process's CPU time, all threads (`getrusage`).
    ours_cpu_s: f64,
}

/// One `mdbook build` of `dir` with the release preprocessor first on PATH, timed by
/// GNU `time` (wall and CPU), with our process's own times from
/// `MDBOOK_MATHCOURSE_STATS`.
fn build_with_share(dir: &Path, bin: &Path) -> Result<Share> {
    let stats = dir.join("stats.jsonl");
    let report = dir.join("time.txt");
    let _ = fs::remove_file(&stats);
    let path = format!(
        "{}:{}",
        bin.display(),
        std::env::var("PATH").unwrap_or_default()
    );
    let start = std::time::Instant::now();
    let out = std::process::Command::new("/usr/bin/time")
        .args(["-f", "%U %S", "-o"])
        .arg(&report)
        .args(["mdbook", "build"])
        .current_dir(dir)
        .env("PATH", path)
        .env("MDBOOK_MATHCOURSE_STATS", &stats)
        .output()
        .context("could not run /usr/bin/time mdbook build (GNU time is needed)")?;
    let whole_s = start.elapsed().as_secs_f64();
    anyhow::ensure!(
        out.status.success(),
        "mdbook build failed:\n{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let times = fs::read_to_string(&report)?;
    let whole_cpu_s = times
        .lines()
        .last()
        .unwrap_or("")
        .split_whitespace()
        .filter_map(|t| t.parse::<f64>().ok())
        .sum();
    let line = fs::read_to_string(&stats).context("the preprocessor wrote no stats")?;
    let v: serde_json::Value = serde_json::from_str(line.lines().last().unwrap_or("{}"))?;
    Ok(Share {
        whole_s,
        whole_cpu_s,
        ours_s: v["seconds"].as_f64().unwrap_or(f64::NAN),
        ours_cpu_s: v["cpu_seconds"].as_f64().unwrap_or(f64::NAN),
    })
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

/// The course book's rounds: seconds of each build, our share of each warm one.
struct CourseRuns {
    cold: Vec<f64>,
    warm: Vec<f64>,
    noop: Vec<f64>,
    floor: Vec<f64>,
    warm_ours: Vec<Share>,
}

/// Copies `book/` twice (ours, and the floor without `[preprocessor.mathcourse]`) and
/// builds them in [`ROUNDS`] interleaved rounds.
fn measure_course_book(root: &Path, bin: &Path, work: &Path) -> Result<CourseRuns> {
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
    let mut runs = CourseRuns {
        cold: Vec::new(),
        warm: Vec::new(),
        noop: Vec::new(),
        floor: Vec::new(),
        warm_ours: Vec::new(),
    };
    for round in 0..ROUNDS {
        eprintln!("xtask: course book round {}/{ROUNDS}", round + 1);
        runs.floor.push(build(&plain, bin)?);
        let _ = fs::remove_dir_all(ours.join(".mathcourse-cache"));
        let _ = fs::remove_dir_all(ours.join("src/mathcourse-assets"));
        fs::write(&edited, &original)?;
        runs.cold.push(build(&ours, bin)?);
        runs.noop.push(build(&ours, bin)?);
        fs::write(
            &edited,
            format!("{original}\nOne more formula, $a_{{{round}}} + b^2$, for the warm build.\n"),
        )?;
        let share = build_with_share(&ours, bin)?;
        runs.warm.push(share.whole_s);
        runs.warm_ours.push(share);
    }
    Ok(runs)
}

/// The course book and the corpus books measured: the section, our median share of
/// the CPU time of the course book's warm builds (percent), the corpus books' shares.
pub fn measure(root: &Path, bin: &Path, target: &Path) -> Result<(String, f64, Vec<WarmShare>)> {
    let work = target.join("bench/course-book");
    let runs = measure_course_book(root, bin, &work)?;
    let course_share = median(
        runs.warm_ours
            .iter()
            .map(|s| 100.0 * s.ours_cpu_s / s.whole_cpu_s)
            .collect(),
    );
    let shares = corpus_warm_shares(bin, target)?;
    let section = course_section(&runs, &work.join("ours/book")) + &corpus_table(&shares);
    Ok((section, course_share, shares))
}

/// `cargo xtask bench-book`.
pub fn run() -> Result<()> {
    let root = repo_root();
    ensure_mdbook()?;
    let bin = crate::util::release_preprocessor(&root)?;
    let target = crate::util::target_dir(&root);
    let (section, _, _) = measure(&root, &bin, &target)?;
    let path = root.join("BENCHMARKS.md");
    let text = fs::read_to_string(&path).unwrap_or_else(|_| "# Benchmarks\n".into());
    fs::write(&path, splice_section(&text, HEADING, &section))?;
    print!("{section}");
    eprintln!("xtask: wrote the Course book section of {}", path.display());
    Ok(())
}

fn percents(v: &[f64]) -> String {
    v.iter()
        .map(|p| format!("{p:.1}%"))
        .collect::<Vec<_>>()
        .join(", ")
}

/// The section on the course book (`out`: its last build's output).
fn course_section(runs: &CourseRuns, out: &Path) -> String {
    let pct = |f: &dyn Fn(&Share) -> f64| -> Vec<f64> { runs.warm_ours.iter().map(f).collect() };
    let wall_shares = pct(&|s| 100.0 * s.ours_s / s.whole_s);
    let cpu_shares = pct(&|s| 100.0 * s.ours_cpu_s / s.whole_cpu_s);
    let pages = files_with_extension(out, "html");
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
        median(runs.cold.clone()),
        median(runs.warm.clone()),
        median(runs.noop.clone()),
        median(runs.floor.clone()),
    );
    format!(
        "{HEADING}\n\n\
         Command: `cargo xtask bench-book` (source: `xtask/src/bench_book.rs`). The course book in `book/` ({} chapter pages, {formulas} typeset formulas, widgets, checked examples, the generated notation and claims pages) built with the real `{}` and the release `mdbook-mathcourse`, {ROUNDS} interleaved rounds, wall-clock per `mdbook build`. *Cold*: formula cache and assets folder deleted first. *No change*: built again at once. *Warm*: one sentence with one new formula appended to one chapter. *mdBook alone*: the same sources without `[preprocessor.mathcourse]` (directives and TeX stay text), the floor. Load average at the end: {}.\n\n\
         | build | seconds (median) | vs mdBook alone | runs (s) |\n|---|---:|---:|---|\n\
         | mdBook alone | {f:.2} | 1.00× | {} |\n\
         | mdbook-mathcourse, cold | {c:.2} | {:.2}× | {} |\n\
         | mdbook-mathcourse, no change | {n:.2} | {:.2}× | {} |\n\
         | mdbook-mathcourse, warm (one formula added) | {w:.2} | {:.2}× | {} |\n\n\
         Our process in the warm builds (goal: at most 10% of the build), medians of the rounds: **{:.1}% of the CPU time** of the whole build (ours {:.3} s of {:.2} s; `getrusage` in our process, GNU `time` around `mdbook build`; rounds: {}): {}. Wall clock: {:.1}% (ours {:.3} s by its own clock, from reading the book to writing it back; rounds: {}); on this shared machine the wall clock of our many threads includes waiting for a core, so the CPU share is the measure.\n",
        pages.iter().filter(|p| !p.ends_with("print.html")).count(),
        mdbook.trim(),
        load.split_whitespace().take(3).collect::<Vec<_>>().join(" "),
        list(&runs.floor),
        c / f,
        list(&runs.cold),
        n / f,
        list(&runs.noop),
        w / f,
        list(&runs.warm),
        median(cpu_shares.clone()),
        median(pct(&|s| s.ours_cpu_s)),
        median(pct(&|s| s.whole_cpu_s)),
        percents(&cpu_shares),
        met(median(cpu_shares.clone()) <= 10.0),
        median(wall_shares.clone()),
        median(pct(&|s| s.ours_s)),
        percents(&wall_shares),
    )
}

/// Our share of warm builds of one real book (medians of [`ROUNDS`]).
#[derive(Debug, Clone)]
pub struct WarmShare {
    pub name: String,
    /// The whole build, wall clock, seconds.
    pub wall: f64,
    /// Our process's CPU time, seconds.
    pub ours_cpu: f64,
    /// The whole build's CPU time, seconds.
    pub whole_cpu: f64,
    /// Our share of the CPU time, percent.
    pub cpu_share: f64,
    /// Our share of the wall clock, percent.
    pub wall_share: f64,
}

/// Copies a corpus book to `to` with its `[preprocessor.katex]` header renamed; its
/// first chapter (the one edited), if it has one.
fn corpus_copy(book: &Path, to: &Path) -> Result<Option<std::path::PathBuf>> {
    if to.exists() {
        fs::remove_dir_all(to)?;
    }
    copy_dir(book, to, &["book", ".mathcourse-cache"])?;
    let toml = fs::read_to_string(to.join("book.toml"))?;
    fs::write(
        to.join("book.toml"),
        toml.replace("[preprocessor.katex", "[preprocessor.mathcourse"),
    )?;
    let mut chapters: Vec<std::path::PathBuf> = files_with_extension(&to.join("src"), "md")
        .into_iter()
        .filter(|p| !p.ends_with("SUMMARY.md"))
        .collect();
    chapters.sort();
    Ok(chapters.first().cloned())
}

/// The warm share on real books: every book of the mdbook-katex corpus beside the
/// repository (`../shared/corpus/*/book`), its `[preprocessor.katex]` header renamed,
/// built cold once, then [`ROUNDS`] warm builds, each after one formula is appended to
/// its first chapter (empty without a corpus).
pub fn corpus_warm_shares(bin: &Path, target: &Path) -> Result<Vec<WarmShare>> {
    let Ok(entries) = fs::read_dir(crate::compat::default_corpus()) else {
        return Ok(Vec::new());
    };
    let mut books: Vec<std::path::PathBuf> = entries
        .flatten()
        .map(|e| e.path().join("book"))
        .filter(|b| b.join("book.toml").is_file())
        .collect();
    books.sort();
    let mut out = Vec::new();
    for book in books {
        let name = book
            .parent()
            .and_then(Path::file_name)
            .map(|n| n.to_string_lossy().into_owned())
            .unwrap_or_default();
        let to = target.join(format!("bench/warm-{name}"));
        let Some(edited) = corpus_copy(&book, &to)? else {
            continue;
        };
        eprintln!("xtask: warm share on {name}");
        build(&to, bin)?;
        let original = fs::read_to_string(&edited)?;
        let mut shares = Vec::new();
        for round in 0..ROUNDS {
            fs::write(
                &edited,
                format!(
                    "{original}\n\nOne more formula, $a_{{{round}}} + b^2$, for the warm build.\n"
                ),
            )?;
            shares.push(build_with_share(&to, bin)?);
        }
        let med = |f: &dyn Fn(&Share) -> f64| median(shares.iter().map(f).collect());
        out.push(WarmShare {
            name,
            wall: med(&|s| s.whole_s),
            ours_cpu: med(&|s| s.ours_cpu_s),
            whole_cpu: med(&|s| s.whole_cpu_s),
            cpu_share: med(&|s| 100.0 * s.ours_cpu_s / s.whole_cpu_s),
            wall_share: med(&|s| 100.0 * s.ours_s / s.whole_s),
        });
    }
    Ok(out)
}

/// The Markdown table of [`corpus_warm_shares`] (empty without a corpus).
pub fn corpus_table(shares: &[WarmShare]) -> String {
    let mut rows = String::new();
    for s in shares {
        let _ = writeln!(
            rows,
            "| {} | {:.2} | {:.3} | {:.2} | **{:.1}%** | {:.1}% | {} |",
            s.name,
            s.wall,
            s.ours_cpu,
            s.whole_cpu,
            s.cpu_share,
            s.wall_share,
            met(s.cpu_share <= 10.0)
        );
    }
    if rows.is_empty() {
        return String::new();
    }
    format!(
        "\nThe same warm share on the real books of the mdbook-katex corpus (`../shared/corpus`, each with its `[preprocessor.katex]` header renamed to `[preprocessor.mathcourse]`; built cold once, then {ROUNDS} warm builds, each after one formula is appended to its first chapter; medians):\n\n\
         | book | warm build, wall (s) | our CPU (s) | whole build's CPU (s) | our share of the CPU | our share of the wall clock | goal ≤ 10% |\n|---|---:|---:|---:|---:|---:|---|\n{rows}"
    )
}
