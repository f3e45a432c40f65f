//! `cargo xtask bench-cold`: a cold `mdbook build` of each real book of the
//! mdbook-katex corpus (`../shared/corpus`), with our release preprocessor and with
//! mdbook-katex, in interleaved rounds: CPU time, wall clock and peak memory (GNU
//! `time` around `mdbook build`), medians. The same sources with no math preprocessor
//! are built alongside (mdBook's own floor), and our process reports its own CPU time
//! and peak memory (`MDBOOK_MATHCOURSE_STATS`), so the table shows where the build's
//! time goes. Written as the "## Cold build against mdbook-katex" section of
//! BENCHMARKS.md.

use std::fmt::Write as _;
use std::fs;
use std::path::{Path, PathBuf};
use std::process::Command;

use anyhow::{bail, Context, Result};

use crate::bench::KatexTool;
use crate::util::{ensure_mdbook, output_of, repo_root, splice_section};

const ROUNDS: usize = 7;
pub const HEADING: &str = "## Cold build against mdbook-katex";

/// The goals of issue #25 for a cold build, against mdbook-katex on the same book.
pub const CPU_GOAL: f64 = 4.0;
pub const WALL_GOAL: f64 = 3.0;

/// One timed `mdbook build`.
#[derive(Debug, Clone, Copy, Default)]
pub struct Run {
    /// Wall clock, seconds.
    pub wall: f64,
    /// User + system CPU of `mdbook build` and every process it waited for, seconds.
    pub cpu: f64,
    /// Peak resident memory of the largest single process of the build, MiB.
    pub peak_mib: f64,
}

/// Our process's own numbers in one build (from `MDBOOK_MATHCOURSE_STATS`).
#[derive(Debug, Clone, Copy, Default)]
struct Own {
    cpu: f64,
    peak_mib: f64,
}

/// Medians of one book's rounds.
#[derive(Debug, Clone)]
pub struct BookCold {
    pub name: String,
    pub formulas_ours: usize,
    pub formulas_katex: usize,
    pub ours: Run,
    pub katex: Run,
    pub plain: Run,
    own_cpu: f64,
    own_peak_mib: f64,
    /// mdbook-katex's process alone, CPU seconds (through a timing wrapper).
    katex_own_cpu: f64,
    /// Per-round ratios mdbook-katex ÷ ours (CPU, wall), for the spread.
    cpu_ratios: Vec<f64>,
    wall_ratios: Vec<f64>,
}

impl BookCold {
    pub fn cpu_ratio(&self) -> f64 {
        self.katex.cpu / self.ours.cpu
    }
    pub fn wall_ratio(&self) -> f64 {
        self.katex.wall / self.ours.wall
    }
    pub fn peak_ratio(&self) -> f64 {
        self.ours.peak_mib / self.katex.peak_mib
    }
    /// The best CPU ratio a preprocessor could reach on this book: mdbook-katex's whole
    /// build over mdBook's own part of it (the build less mdbook-katex's process), that
    /// is, with a preprocessor of no cost whose output costs mdBook what
    /// mdbook-katex's does.
    pub fn cpu_ceiling(&self) -> f64 {
        self.katex.cpu / (self.katex.cpu - self.katex_own_cpu)
    }
    /// Our process's own peak memory, MiB.
    pub fn own_peak_mib(&self) -> f64 {
        self.own_peak_mib
    }
}

/// The three copies of one corpus book.
struct Copies {
    ours: PathBuf,
    katex: PathBuf,
    plain: PathBuf,
}

/// `cargo xtask bench-cold`.
pub fn run() -> Result<()> {
    let root = repo_root();
    ensure_mdbook()?;
    let bin = crate::util::release_preprocessor(&root)?;
    let target = crate::util::target_dir(&root);
    let (katex_bin, katex_version) = match crate::bench::ensure_mdbook_katex(&root, &target) {
        KatexTool::Ready { bin_dir, version } => (bin_dir, version),
        KatexTool::Failed { log, .. } => bail!("mdbook-katex could not be installed:\n{log}"),
    };
    let books = measure(&bin, &katex_bin, &target)?;
    if books.is_empty() {
        bail!(
            "no corpus of mdbook-katex books at {}",
            crate::compat::default_corpus().display()
        );
    }
    let section = section(&books, &katex_version);
    let path = root.join("BENCHMARKS.md");
    let text = fs::read_to_string(&path).unwrap_or_else(|_| "# Benchmarks\n".into());
    fs::write(&path, splice_section(&text, HEADING, &section))?;
    print!("{section}");
    eprintln!("xtask: wrote the cold-build section of {}", path.display());
    Ok(())
}

/// Every corpus book with a `book.toml`, measured.
pub fn measure(bin: &Path, katex_bin: &Path, target: &Path) -> Result<Vec<BookCold>> {
    let katex_bin = &katex_wrapper(katex_bin, target)?;
    let Ok(entries) = fs::read_dir(crate::compat::default_corpus()) else {
        return Ok(Vec::new());
    };
    let mut sources: Vec<PathBuf> = entries
        .flatten()
        .map(|e| e.path().join("book"))
        .filter(|b| b.join("book.toml").is_file())
        .collect();
    sources.sort();
    let mut out = Vec::new();
    for source in sources {
        let name = source
            .parent()
            .and_then(Path::file_name)
            .map(|n| n.to_string_lossy().into_owned())
            .unwrap_or_default();
        let copies = copies(&source, &target.join(format!("bench/cold-{name}")))?;
        out.push(measure_book(&name, &copies, bin, katex_bin, target)?);
    }
    Ok(out)
}

/// A folder holding an `mdbook-katex` that runs the real one under GNU `time`,
/// appending its CPU time to `katex-cpu.txt` beside it (the `supports` call is not
/// timed).
fn katex_wrapper(katex_bin: &Path, target: &Path) -> Result<PathBuf> {
    let dir = target.join("bench/katex-timed");
    fs::create_dir_all(&dir)?;
    let script = dir.join("mdbook-katex");
    fs::write(
        &script,
        format!(
            "#!/bin/sh\n\
             if [ \"$#\" -gt 0 ]; then exec '{bin}' \"$@\"; fi\n\
             exec /usr/bin/time -f '%U %S' -a -o '{log}' '{bin}'\n",
            bin = katex_bin.join("mdbook-katex").display(),
            log = dir.join("katex-cpu.txt").display()
        ),
    )?;
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        fs::set_permissions(&script, fs::Permissions::from_mode(0o755))?;
    }
    Ok(dir)
}

/// The CPU seconds of mdbook-katex's last timed run (see [`katex_wrapper`]).
fn last_katex_cpu(katex_bin: &Path) -> Result<f64> {
    let text = fs::read_to_string(katex_bin.join("katex-cpu.txt"))
        .context("the mdbook-katex wrapper logged no time")?;
    Ok(text
        .lines()
        .last()
        .unwrap_or("")
        .split_whitespace()
        .filter_map(|t| t.parse::<f64>().ok())
        .sum())
}

/// Copies the book three times: ours (header renamed), mdbook-katex's (as it is) and
/// plain (the `[preprocessor.katex]` table removed).
fn copies(source: &Path, work: &Path) -> Result<Copies> {
    let toml = fs::read_to_string(source.join("book.toml"))?;
    let c = Copies {
        ours: work.join("ours"),
        katex: work.join("katex"),
        plain: work.join("plain"),
    };
    for (dir, toml) in [
        (
            &c.ours,
            toml.replace("[preprocessor.katex", "[preprocessor.mathcourse"),
        ),
        (&c.katex, toml.clone()),
        (&c.plain, without_table(&toml, "[preprocessor.katex]")),
    ] {
        crate::bench_book::copy_book(source, dir)?;
        fs::write(dir.join("book.toml"), toml)?;
    }
    Ok(c)
}

/// `toml` without the table that starts at the line `header` (up to the next table).
fn without_table(toml: &str, header: &str) -> String {
    let mut out = String::new();
    let mut skipping = false;
    for line in toml.lines() {
        if line.trim_start().starts_with('[') {
            skipping = line.trim() == header;
        }
        if !skipping {
            out.push_str(line);
            out.push('\n');
        }
    }
    out
}

fn measure_book(
    name: &str,
    c: &Copies,
    bin: &Path,
    katex_bin: &Path,
    target: &Path,
) -> Result<BookCold> {
    let stats = target.join(format!("bench/cold-{name}/stats.jsonl"));
    let (mut ours, mut katex, mut plain, mut own) =
        (Vec::new(), Vec::new(), Vec::new(), Vec::new());
    let mut katex_own = Vec::new();
    eprintln!("xtask: cold builds of {name}: untimed warm-up");
    timed_build(&c.katex, katex_bin, None)?;
    timed_build(&c.plain, bin, None)?;
    clear_ours(&c.ours)?;
    timed_build(&c.ours, bin, Some(&stats))?;
    for round in 0..ROUNDS {
        eprintln!("xtask: cold builds of {name}, round {}/{ROUNDS}", round + 1);
        // Interleaved, the order turned each round so neither always goes first.
        let mut kinds = ["ours", "katex", "plain"];
        kinds.rotate_left(round % 3);
        for kind in kinds {
            match kind {
                "ours" => {
                    clear_ours(&c.ours)?;
                    ours.push(timed_build(&c.ours, bin, Some(&stats))?);
                    own.push(last_stats(&stats)?);
                }
                "katex" => {
                    katex.push(timed_build(&c.katex, katex_bin, None)?);
                    katex_own.push(last_katex_cpu(katex_bin)?);
                }
                _ => plain.push(timed_build(&c.plain, bin, None)?),
            }
        }
    }
    let ratios = |f: fn(&Run) -> f64| -> Vec<f64> {
        katex.iter().zip(&ours).map(|(k, o)| f(k) / f(o)).collect()
    };
    Ok(BookCold {
        name: name.to_string(),
        formulas_ours: typeset(&c.ours.join("book")),
        formulas_katex: typeset(&c.katex.join("book")),
        cpu_ratios: ratios(|r| r.cpu),
        wall_ratios: ratios(|r| r.wall),
        ours: median_run(&ours),
        katex: median_run(&katex),
        plain: median_run(&plain),
        own_cpu: median(own.iter().map(|o| o.cpu).collect()),
        katex_own_cpu: median(katex_own),
        own_peak_mib: median(own.iter().map(|o| o.peak_mib).collect()),
    })
}

/// Deletes our cache, generated assets and output (a cold build follows).
fn clear_ours(book: &Path) -> Result<()> {
    for d in [".mathcourse-cache", "src/mathcourse-assets", "book"] {
        let p = book.join(d);
        if p.exists() {
            fs::remove_dir_all(&p)?;
        }
    }
    Ok(())
}

/// One `mdbook build` of `book` under GNU `time`, with `tools` first on PATH and its
/// output folder deleted first.
fn timed_build(book: &Path, tools: &Path, stats: Option<&Path>) -> Result<Run> {
    let out_dir = book.join("book");
    if out_dir.exists() {
        fs::remove_dir_all(&out_dir)?;
    }
    let report = book.join("../time.txt");
    let path = format!(
        "{}:{}",
        tools.display(),
        std::env::var("PATH").unwrap_or_default()
    );
    let mut cmd = Command::new("/usr/bin/time");
    cmd.args(["-f", "%e %U %S %M", "-o"])
        .arg(&report)
        .args(["mdbook", "build"])
        .current_dir(book)
        .env("PATH", path);
    if let Some(stats) = stats {
        let _ = fs::remove_file(stats);
        cmd.env("MDBOOK_MATHCOURSE_STATS", stats);
    }
    let out = cmd
        .output()
        .context("could not run /usr/bin/time mdbook build (GNU time is needed)")?;
    if !out.status.success() {
        bail!(
            "mdbook build failed in {}:\n{}",
            book.display(),
            String::from_utf8_lossy(&out.stderr)
        );
    }
    let text = fs::read_to_string(&report)?;
    let v: Vec<f64> = text
        .lines()
        .last()
        .unwrap_or("")
        .split_whitespace()
        .filter_map(|t| t.parse().ok())
        .collect();
    let [wall, user, system, peak_kb] = v[..] else {
        bail!("unexpected output of GNU time: {text}");
    };
    Ok(Run {
        wall,
        cpu: user + system,
        peak_mib: peak_kb / 1024.0,
    })
}

/// Our process's CPU time and peak memory in the build that just ran.
fn last_stats(stats: &Path) -> Result<Own> {
    let line = fs::read_to_string(stats).context("the preprocessor wrote no stats")?;
    let v: serde_json::Value = serde_json::from_str(line.lines().last().unwrap_or("{}"))?;
    Ok(Own {
        cpu: v["cpu_seconds"].as_f64().unwrap_or(f64::NAN),
        peak_mib: v["peak_kb"].as_f64().unwrap_or(f64::NAN) / 1024.0,
    })
}

/// Formulas typeset in the chapter pages of a built book (`print.html` left out).
fn typeset(out: &Path) -> usize {
    let mut n = 0;
    let mut stack = vec![out.to_path_buf()];
    while let Some(dir) = stack.pop() {
        for e in fs::read_dir(&dir).into_iter().flatten().flatten() {
            let p = e.path();
            if p.is_dir() {
                stack.push(p);
            } else if p.extension().is_some_and(|x| x == "html") && !p.ends_with("print.html") {
                n += fs::read_to_string(&p)
                    .unwrap_or_default()
                    .matches("class=\"katex\"")
                    .count();
            }
        }
    }
    n
}

fn median(mut v: Vec<f64>) -> f64 {
    v.sort_by(f64::total_cmp);
    v.get(v.len() / 2).copied().unwrap_or(f64::NAN)
}

fn median_run(runs: &[Run]) -> Run {
    Run {
        wall: median(runs.iter().map(|r| r.wall).collect()),
        cpu: median(runs.iter().map(|r| r.cpu).collect()),
        peak_mib: median(runs.iter().map(|r| r.peak_mib).collect()),
    }
}

fn status(met: bool) -> &'static str {
    if met {
        "**met**"
    } else {
        "**not met**"
    }
}

fn spread(v: &[f64]) -> String {
    let lo = v.iter().copied().fold(f64::INFINITY, f64::min);
    let hi = v.iter().copied().fold(f64::NEG_INFINITY, f64::max);
    format!("{lo:.2}–{hi:.2}×")
}

/// The BENCHMARKS.md section.
pub fn section(books: &[BookCold], katex_version: &str) -> String {
    let mdbook = output_of("mdbook", &["--version"]).unwrap_or_default();
    let load = fs::read_to_string("/proc/loadavg").unwrap_or_default();
    let mut s = format!(
        "{HEADING}\n\n\
         Command: `cargo xtask bench-cold` (source: `xtask/src/bench_cold.rs`). Each real book of the mdbook-katex corpus (`../shared/corpus`) built cold with `{}` (`mdbook build`): *ours* with its `[preprocessor.katex]` header renamed to `[preprocessor.mathcourse]` and the release binary, cache, generated assets and output deleted first; *mdbook-katex* ({katex_version}) as the book is published; *mdBook alone* without the `[preprocessor.katex]` table (the `$` signs stay text), mdBook's own floor. {ROUNDS} interleaved rounds (the order turned each round), medians. CPU: user + system of `mdbook build` and every process it ran (GNU `time`); peak memory: the largest single process of the build (GNU `time`'s maximum resident set: mdBook or the preprocessor). Load average at the end: {}.\n\n\
         | book | formulas (ours / mdbook-katex) | CPU s: ours / mdbook-katex | CPU: less (goal ≥ {CPU_GOAL}×) | wall s: ours / mdbook-katex | faster (goal ≥ {WALL_GOAL}×) | peak MiB: ours / mdbook-katex | ours ÷ theirs (goal ≤ 1) |\n\
         |---|---:|---:|---:|---:|---:|---:|---:|\n",
        mdbook.trim(),
        load.split_whitespace().take(3).collect::<Vec<_>>().join(" "),
    );
    for b in books {
        let _ = writeln!(
            s,
            "| {} | {} / {} | {:.2} / {:.2} | **{:.2}×** ({}; rounds {}) | {:.2} / {:.2} | **{:.2}×** ({}; rounds {}) | {:.1} / {:.1} | **{:.2}** ({}) |",
            b.name,
            b.formulas_ours,
            b.formulas_katex,
            b.ours.cpu,
            b.katex.cpu,
            b.cpu_ratio(),
            status(b.cpu_ratio() >= CPU_GOAL),
            spread(&b.cpu_ratios),
            b.ours.wall,
            b.katex.wall,
            b.wall_ratio(),
            status(b.wall_ratio() >= WALL_GOAL),
            spread(&b.wall_ratios),
            b.ours.peak_mib,
            b.katex.peak_mib,
            b.peak_ratio(),
            status(b.peak_ratio() <= 1.0),
        );
    }
    s.push_str(
        "\nWhere the CPU time of a cold build goes (medians, seconds). *mdBook on our output*: the whole build less our process; *on mdbook-katex's*: mdbook-katex's whole build less its process (timed by a wrapper); the *ceiling* is mdbook-katex's whole build over mdBook's part of it: the most any preprocessor could gain on this book, at no cost of its own and with output that costs mdBook what mdbook-katex's does.\n\n\
         | book | mdBook alone | our process | mdBook on our output | mdbook-katex's process | mdBook on mdbook-katex's output | CPU ceiling | our process's peak MiB | mdBook alone, peak MiB |\n\
         |---|---:|---:|---:|---:|---:|---:|---:|---:|\n",
    );
    for b in books {
        let _ = writeln!(
            s,
            "| {} | {:.2} | {:.3} | {:.2} | {:.2} | {:.2} | {:.2}× | {:.1} | {:.1} |",
            b.name,
            b.plain.cpu,
            b.own_cpu,
            b.ours.cpu - b.own_cpu,
            b.katex_own_cpu,
            b.katex.cpu - b.katex_own_cpu,
            b.cpu_ceiling(),
            b.own_peak_mib,
            b.plain.peak_mib,
        );
    }
    s
}
