//! `cargo xtask bench [--quick]`: measurements written to BENCHMARKS.md.
//!
//! The machine is small and shared, so no number stands alone: each one is set
//! against a peer measured in the same run, interleaved with it.
//!
//! 1. Render rate: `preprocessor/examples/render_rate.rs` (katex-rs) and
//!    `tests/bench/katex_rate.mjs` (the official KaTeX under Node) render the same 44
//!    inputs of `tests/bench/formulas.txt`, on one thread and on all threads,
//!    alternating rounds.
//! 2. Book build: a generated course book (see [`book`]) built with the real
//!    `mdbook build`: plain (no math preprocessor), with our release binary (cold and
//!    warm) and with mdbook-katex 0.10 (cold and warm), in interleaved rounds; then a
//!    breakdown of where a warm build of ours spends its time.
//! 3. The scaling books (`cargo xtask bench-scale`), the corpus books cold against
//!    mdbook-katex (`bench-cold`) and the course and corpus books' warm share
//!    (`bench-book`): their sections are written too, and the Goals table takes its
//!    numbers from them.
//! 4. BENCHMARKS.md is rewritten from a template; whatever follows the line
//!    `<!-- more benchmarks below -->` is kept (the sections above replace theirs).
//!
//! `--quick` runs everything once with short measurements and writes
//! `target/bench/BENCHMARKS.quick.md` instead, so a check never overwrites the real
//! numbers.

mod book;
mod breakdown;
mod rate;
mod report;

pub use rate::RateResult;

use std::fs;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use anyhow::{bail, Context, Result};

use crate::util::{ensure_mdbook, ensure_npm_packages, output_of, repo_root, run_in};

/// Chapters of the generated book.
const CHAPTERS: usize = 60;
/// The chapter edited before a warm build (0-based).
const EDITED_CHAPTER: usize = 29;
/// The mdbook-katex series we compare with.
const KATEX_SERIES: &str = "0.10";
/// A cold mdbook-katex build slower than this is repeated 3 times instead of 5.
const SLOW_BUILD: Duration = Duration::from_secs(8);

/// How much to measure.
#[derive(Debug, Clone, Copy)]
pub struct Plan {
    quick: bool,
    /// Seconds per render-rate measurement.
    rate_seconds: f64,
    /// Alternating rounds of (ours, Node) render-rate runs.
    rate_rounds: usize,
    /// Timed builds of each kind.
    build_runs: usize,
    /// Timed cold builds of mdbook-katex when one takes longer than [`SLOW_BUILD`].
    slow_build_runs: usize,
    /// Timed warm builds with the preprocessor timed on its own.
    breakdown_runs: usize,
    /// One untimed build of each kind first (binaries and files in the page cache).
    warm_up: bool,
}

impl Plan {
    fn new(quick: bool) -> Plan {
        if quick {
            Plan {
                quick,
                rate_seconds: 0.3,
                rate_rounds: 1,
                build_runs: 1,
                slow_build_runs: 1,
                breakdown_runs: 1,
                warm_up: false,
            }
        } else {
            Plan {
                quick,
                rate_seconds: 2.0,
                rate_rounds: 3,
                build_runs: 5,
                slow_build_runs: 3,
                breakdown_runs: 3,
                warm_up: true,
            }
        }
    }
}

/// Runs the benchmarks.
pub fn run(args: &[String]) -> Result<()> {
    let mut quick = false;
    for arg in args {
        match arg.as_str() {
            "--quick" => quick = true,
            "-h" | "--help" => {
                eprintln!(
                    "usage: cargo xtask bench [--quick]\n\n  \
                     --quick  one short run of everything; writes target/bench/BENCHMARKS.quick.md"
                );
                return Ok(());
            }
            other => bail!("unknown argument `{other}` (usage: cargo xtask bench [--quick])"),
        }
    }
    let plan = Plan::new(quick);
    let root = repo_root();
    let target = crate::util::target_dir(&root);

    ensure_mdbook()?;
    ensure_npm_packages()?;
    run_in(
        &root,
        "cargo",
        &[
            "build",
            "--release",
            "-p",
            "mdbook-mathcourse",
            "--example",
            "render_rate",
            "--bin",
            "mdbook-mathcourse",
        ],
    )?;
    let katex_tool = ensure_mdbook_katex(&root, &target);

    let machine = report::Machine::detect(&katex_tool);
    let rate = rate::render_rate(&root, &target, &plan)?;
    let builds = book_builds(&target, &plan, &katex_tool)?;

    let out = if quick {
        target.join("bench/BENCHMARKS.quick.md")
    } else {
        root.join("BENCHMARKS.md")
    };
    let (scaling, growth) = crate::bench_scale::measure()?;
    let (real, sections) = real_books(&root, &target, &katex_tool)?;
    let real = report::Measured {
        growth: Some(growth),
        ..real
    };
    let kept = fs::read_to_string(&out).unwrap_or_default();
    let text = report::render(&machine, &plan, &rate, &builds, &real, &kept);
    let mut text = crate::util::splice_section(&text, "## Scaling", &scaling);
    for (heading, section) in sections {
        text = crate::util::splice_section(&text, heading, &section);
    }
    fs::write(&out, text).with_context(|| format!("could not write {}", out.display()))?;
    eprintln!("\n{}", report::summary(&rate, &builds));
    eprintln!("xtask: wrote {}", out.display());
    Ok(())
}

/// The goals measured on real books: cold builds against mdbook-katex and our share
/// of warm builds (the corpus books, when the corpus is there; the course book); and
/// the sections of `bench-cold` and `bench-book` with the same numbers.
fn real_books(
    root: &Path,
    target: &Path,
    katex_tool: &KatexTool,
) -> Result<(report::Measured, Vec<(&'static str, String)>)> {
    let bin = target.join("release");
    let mut sections = Vec::new();
    let cold = match katex_tool {
        KatexTool::Ready { bin_dir, version } => {
            let cold = crate::bench_cold::measure(&bin, bin_dir, target)?;
            if !cold.is_empty() {
                sections.push((
                    crate::bench_cold::HEADING,
                    crate::bench_cold::section(&cold, version),
                ));
            }
            cold
        }
        KatexTool::Failed { .. } => Vec::new(),
    };
    let (section, course, warm) = crate::bench_book::measure(root, &bin, target)?;
    sections.push((crate::bench_book::HEADING, section));
    let measured = report::Measured {
        cold,
        warm,
        course_share: Some(course),
        growth: None,
    };
    Ok((measured, sections))
}

// ---------------------------------------------------------------------------------
// mdbook-katex

/// mdbook-katex as installed for the benchmark, or why it is not.
#[derive(Debug, Clone)]
pub enum KatexTool {
    /// Installed; the folder holding the binary and its `--version`.
    Ready { bin_dir: PathBuf, version: String },
    /// The installation failed; the tail of its log.
    Failed { version: String, log: String },
}

/// Installs the latest mdbook-katex 0.10.x into `target/bench-tools` once.
pub(crate) fn ensure_mdbook_katex(root: &Path, target: &Path) -> KatexTool {
    let tools = target.join("bench-tools");
    let bin_dir = tools.join("bin");
    let bin = bin_dir.join("mdbook-katex");
    let installed = |bin: &Path| {
        output_of(bin.to_str()?, &["--version"])
            .map(|v| v.trim().to_string())
            .filter(|v| v.contains(&format!(" {KATEX_SERIES}.")))
    };
    if let Some(version) = installed(&bin) {
        eprintln!("xtask: using {version} from {}", bin_dir.display());
        return KatexTool::Ready { bin_dir, version };
    }
    // `cargo info name@0.10` shows the newest 0.10.x.
    let version = output_of("cargo", &["info", &format!("mdbook-katex@{KATEX_SERIES}")])
        .and_then(|info| {
            info.lines()
                .find_map(|l| l.strip_prefix("version:"))
                .map(|v| v.trim().to_string())
        })
        .filter(|v| v.starts_with(&format!("{KATEX_SERIES}.")))
        .unwrap_or_else(|| format!("~{KATEX_SERIES}"));
    eprintln!(
        "xtask: installing mdbook-katex {version} into {} (once; several minutes on a small machine)",
        tools.display()
    );
    let _ = fs::create_dir_all(&tools);
    let log_path = tools.join("install.log");
    let status = fs::File::create(&log_path).and_then(|log| {
        let log2 = log.try_clone()?;
        Command::new("cargo")
            .args(["install", "mdbook-katex", "--locked", "--version", &version])
            .arg("--root")
            .arg(&tools)
            .current_dir(root)
            .stdout(log)
            .stderr(log2)
            .status()
    });
    let log = fs::read_to_string(&log_path).unwrap_or_default();
    match (status, installed(&bin)) {
        (Ok(s), Some(version)) if s.success() => {
            eprintln!("xtask: installed {version}");
            KatexTool::Ready { bin_dir, version }
        }
        (status, _) => {
            let mut lines: Vec<&str> = log.lines().collect();
            lines = lines.split_off(lines.len().saturating_sub(40));
            let mut text = lines.join("\n");
            if let Err(err) = status {
                text.push_str(&format!("\ncould not run cargo: {err}"));
            }
            eprintln!(
                "xtask: installing mdbook-katex failed; the benchmark goes on without it:\n{text}"
            );
            KatexTool::Failed { version, log: text }
        }
    }
}

fn median(mut v: Vec<f64>) -> f64 {
    v.sort_by(f64::total_cmp);
    match v.len() {
        0 => f64::NAN,
        n if n % 2 == 1 => v[n / 2],
        n => (v[n / 2 - 1] + v[n / 2]) / 2.0,
    }
}

// ---------------------------------------------------------------------------------
// Book builds

/// Timed builds of one kind.
#[derive(Debug, Clone, Default)]
pub struct Timings {
    /// Wall-clock seconds of each timed `mdbook build`.
    pub runs: Vec<f64>,
}

impl Timings {
    /// Median seconds (NaN when nothing ran).
    pub fn median(&self) -> f64 {
        median(self.runs.clone())
    }
}

/// Everything the book-build part measured.
#[derive(Debug, Clone)]
pub struct BuildResult {
    pub chapters: usize,
    pub inline: usize,
    pub display: usize,
    pub markdown_bytes: usize,
    pub plain: Timings,
    pub ours_cold: Timings,
    pub ours_warm: Timings,
    /// `None` when mdbook-katex could not be installed or failed to build the book.
    pub katex: Option<(Timings, Timings)>,
    /// Why mdbook-katex has no numbers.
    pub katex_problem: Option<String>,
    /// Warnings mdbook-katex printed (it still built the book).
    pub katex_warnings: Vec<String>,
    /// Formulas found typeset (`class="katex"`) in the chapter pages of a warm build
    /// of ours and of mdbook-katex.
    pub ours_typeset: usize,
    pub katex_typeset: Option<usize>,
    /// The KaTeX version mdbook-katex links the stylesheet of (the one it bundles).
    pub katex_engine: Option<String>,
    /// Bytes of the chapter pages plus the search index after a build.
    pub html_bytes: Sizes,
    pub breakdown: Breakdown,
}

/// Output sizes in bytes: (chapter pages, search index).
#[derive(Debug, Clone, Default)]
pub struct Sizes {
    pub plain: (u64, u64),
    pub ours: (u64, u64),
    pub katex: Option<(u64, u64)>,
}

/// Where a warm build of ours spends its time.
#[derive(Debug, Clone, Default)]
pub struct Breakdown {
    /// Wall-clock seconds of the whole warm `mdbook build` (preprocessor timed).
    pub build: Vec<f64>,
    /// Seconds the `mdbook-mathcourse` process ran (start to exit).
    pub preprocessor: Vec<f64>,
    /// The same warm build with mdBook's search index turned off.
    pub build_no_search: Vec<f64>,
    /// The plain book, measured alongside.
    pub plain: Vec<f64>,
    /// The plain book with mdBook's search index turned off.
    pub plain_no_search: Vec<f64>,
    /// Timed builds of each kind.
    pub runs: usize,
}

/// One of the three bench books.
struct BenchBook {
    dir: PathBuf,
    /// Fail on any warning in mdBook's output (not for mdbook-katex, which warns that
    /// it was built against mdBook 0.5.3).
    strict: bool,
    /// Folder put first on PATH, so mdBook runs this preprocessor binary.
    path_first: Option<PathBuf>,
    name: &'static str,
}

impl BenchBook {
    fn new(
        target: &Path,
        name: &'static str,
        path_first: Option<PathBuf>,
        toml: &str,
        book: &book::Book,
    ) -> Result<BenchBook> {
        let dir = target.join(format!("bench/book-{name}"));
        book.write(&dir, toml)?;
        Ok(BenchBook {
            dir,
            strict: name != "katex",
            path_first,
            name,
        })
    }

    /// Puts the edited chapter back to its generated text, or appends edit `n`.
    fn set_edit(&self, book: &book::Book, edit: Option<usize>) -> Result<()> {
        let ch = &book.chapters[EDITED_CHAPTER];
        let mut text = ch.content.clone();
        if let Some(n) = edit {
            text.push_str(&book::edit_sentence(n));
        }
        fs::write(self.dir.join("src").join(&ch.file), text)?;
        Ok(())
    }

    /// Deletes our cache and generated assets (a cold build of ours follows).
    fn clear_ours(&self) -> Result<()> {
        for d in [".mathcourse-cache", "src/mathcourse-assets"] {
            let p = self.dir.join(d);
            if p.exists() {
                fs::remove_dir_all(&p)?;
            }
        }
        Ok(())
    }

    /// Runs `mdbook build` and returns its wall-clock time and the warnings it printed
    /// (an error when strict), or the failure text.
    fn build(&self) -> Result<(Duration, Vec<String>), String> {
        let mut cmd = Command::new("mdbook");
        cmd.arg("build")
            .current_dir(&self.dir)
            .stdin(Stdio::null())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped());
        if let Some(first) = &self.path_first {
            let path = std::env::var_os("PATH").unwrap_or_default();
            let mut dirs = vec![first.clone()];
            dirs.extend(std::env::split_paths(&path));
            cmd.env(
                "PATH",
                std::env::join_paths(dirs).map_err(|e| e.to_string())?,
            );
        }
        let start = Instant::now();
        let out = cmd
            .output()
            .map_err(|e| format!("could not run mdbook: {e}"))?;
        let elapsed = start.elapsed();
        let stderr = String::from_utf8_lossy(&out.stderr);
        if !out.status.success() {
            let tail: Vec<&str> = stderr.lines().rev().take(30).collect();
            let tail: Vec<&str> = tail.into_iter().rev().collect();
            return Err(format!(
                "`mdbook build` of {} failed ({}):\n{}",
                self.dir.display(),
                out.status,
                tail.join("\n")
            ));
        }
        let noisy: Vec<String> = stderr
            .lines()
            .filter(|l| l.contains("WARN") || l.contains("ERROR") || l.contains("warning"))
            .take(10)
            .map(strip_ansi)
            .collect();
        if self.strict && !noisy.is_empty() {
            return Err(format!(
                "`mdbook build` of {} printed warnings:\n{}",
                self.dir.display(),
                noisy.join("\n")
            ));
        }
        Ok((elapsed, noisy))
    }

    /// Formulas typeset in the chapter pages, and the bytes of (chapter pages, search index).
    fn inspect(&self, book: &book::Book) -> Result<(usize, (u64, u64))> {
        let out = self.dir.join("book");
        let mut typeset = 0;
        let mut pages = 0;
        for ch in &book.chapters {
            let page = out.join(ch.file.replace(".md", ".html"));
            let html = fs::read_to_string(&page)
                .with_context(|| format!("missing output page {}", page.display()))?;
            typeset += html.matches("class=\"katex\"").count();
            pages += html.len() as u64;
        }
        let mut index = 0;
        for entry in fs::read_dir(&out)? {
            let entry = entry?;
            let name = entry.file_name();
            if name.to_string_lossy().starts_with("searchindex") {
                index += entry.metadata()?.len();
            }
        }
        Ok((typeset, (pages, index)))
    }
}

/// `text` without terminal colour codes.
fn strip_ansi(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    let mut chars = text.chars();
    while let Some(c) = chars.next() {
        if c == '\u{1b}' {
            for c in chars.by_ref() {
                if c.is_ascii_alphabetic() {
                    break;
                }
            }
        } else {
            out.push(c);
        }
    }
    out
}

fn book_toml(preprocessor: &str) -> String {
    format!(
        "[book]\ntitle = \"Benchmark course\"\nauthors = [\"cargo xtask bench\"]\n\
         language = \"en\"\nsrc = \"src\"\n{preprocessor}"
    )
}

fn timed(book: &BenchBook, what: &str) -> Result<f64> {
    let t = book.build().map_err(anyhow::Error::msg)?.0.as_secs_f64();
    eprintln!(
        "xtask:   {:<28} {t:>7.3} s",
        format!("{} {what}", book.name)
    );
    Ok(t)
}

/// The three bench books and what is known of mdbook-katex so far.
struct Books {
    generated: book::Book,
    plain: BenchBook,
    ours: BenchBook,
    /// `None` once mdbook-katex is out of the race (not installed, or failed).
    katex: Option<BenchBook>,
    katex_problem: Option<String>,
    katex_warnings: Vec<String>,
}

impl Books {
    fn new(target: &Path, katex_tool: &KatexTool) -> Result<Books> {
        let generated = book::generate(CHAPTERS);
        if generated.formulas() < 4000 || generated.chapters.len() < 50 {
            bail!("the generated book is too small");
        }
        eprintln!(
            "xtask: bench book: {} chapters, {} formulas ({} inline, {} display), {} KB of Markdown",
            generated.chapters.len(),
            generated.formulas(),
            generated.inline,
            generated.display,
            generated.markdown_bytes() / 1024
        );
        let plain = BenchBook::new(target, "plain", None, &book_toml(""), &generated)?;
        let ours = BenchBook::new(
            target,
            "ours",
            Some(target.join("release")),
            &book_toml("\n[preprocessor.mathcourse]\n"),
            &generated,
        )?;
        let (katex, katex_problem) = match katex_tool {
            KatexTool::Ready { bin_dir, .. } => (
                Some(BenchBook::new(
                    target,
                    "katex",
                    Some(bin_dir.clone()),
                    &book_toml("\n[preprocessor.katex]\nafter = [\"links\"]\n"),
                    &generated,
                )?),
                None,
            ),
            KatexTool::Failed { log, .. } => {
                (None, Some(format!("the installation failed:\n{log}")))
            }
        };
        Ok(Books {
            generated,
            plain,
            ours,
            katex,
            katex_problem,
            katex_warnings: Vec::new(),
        })
    }

    /// mdbook-katex failed: the race goes on without it.
    fn drop_katex(&mut self, err: String) {
        eprintln!("xtask: mdbook-katex failed; going on without it:\n{err}");
        self.katex_problem = Some(err);
        self.katex = None;
    }

    /// One untimed build of each kind (binaries and files in the page cache).
    fn warm_up(&mut self) -> Result<()> {
        eprintln!("xtask: untimed warm-up builds");
        self.plain.build().map_err(anyhow::Error::msg)?;
        self.ours.clear_ours()?;
        self.ours.build().map_err(anyhow::Error::msg)?;
        if let Some(Err(err)) = self.katex.as_ref().map(BenchBook::build) {
            self.drop_katex(err);
        }
        Ok(())
    }

    /// A cold build of ours, then a warm one after edit `edit`; each checked for every
    /// formula. Returns (cold, warm) seconds and the formulas typeset after the warm one.
    fn ours_round(&self, edit: usize) -> Result<(f64, f64, usize)> {
        let (ours, generated) = (&self.ours, &self.generated);
        ours.set_edit(generated, None)?;
        ours.clear_ours()?;
        let cold = timed(ours, "cold")?;
        let (n, _) = ours.inspect(generated)?;
        if n != generated.formulas() {
            bail!(
                "our cold build typeset {n} formulas, expected {}",
                generated.formulas()
            );
        }
        ours.set_edit(generated, Some(edit))?;
        let warm = timed(ours, "warm (1 chapter edited)")?;
        let (n, _) = ours.inspect(generated)?;
        if n != generated.formulas() + 1 {
            bail!(
                "our warm build typeset {n} formulas, expected {}",
                generated.formulas() + 1
            );
        }
        Ok((cold, warm, n))
    }

    /// One build of mdbook-katex (its warnings collected once each); seconds.
    fn katex_build(&mut self, what: &str) -> Result<f64, String> {
        let Some(k) = &self.katex else {
            return Err("mdbook-katex is out of the race".into());
        };
        let (t, warnings) = k.build()?;
        for w in warnings {
            // Drop the timestamp so a repeated warning is listed once.
            let w = match w.find("WARN") {
                Some(i) => w[i..].to_string(),
                None => w,
            };
            if !self.katex_warnings.contains(&w) {
                self.katex_warnings.push(w);
            }
        }
        let t = t.as_secs_f64();
        eprintln!("xtask:   {:<28} {t:>7.3} s", format!("katex {what}"));
        Ok(t)
    }

    /// mdbook-katex's round: a cold build (when `cold`), then a warm one after edit
    /// `edit`. Returns (cold seconds if built, warm seconds, formulas typeset).
    fn katex_round(
        &mut self,
        cold: bool,
        edit: usize,
    ) -> Result<(Option<f64>, f64, usize), String> {
        let set = |books: &Books, edit: Option<usize>| -> Result<(), String> {
            match &books.katex {
                Some(k) => k
                    .set_edit(&books.generated, edit)
                    .map_err(|e| e.to_string()),
                None => Ok(()),
            }
        };
        let cold_s = if cold {
            set(self, None)?;
            Some(self.katex_build("cold")?)
        } else {
            None
        };
        set(self, Some(edit))?;
        let warm_s = self.katex_build("warm (1 chapter edited)")?;
        let k = self
            .katex
            .as_ref()
            .ok_or("mdbook-katex is out of the race")?;
        let (n, _) = k.inspect(&self.generated).map_err(|e| e.to_string())?;
        Ok((cold_s, warm_s, n))
    }
}

/// The interleaved rounds' timings, in the order the report shows them.
#[derive(Default)]
struct Rounds {
    plain: Timings,
    cold: Timings,
    warm: Timings,
    katex_cold: Timings,
    katex_warm: Timings,
    ours_typeset: usize,
    katex_typeset: Option<usize>,
}

fn book_builds(target: &Path, plan: &Plan, katex_tool: &KatexTool) -> Result<BuildResult> {
    let mut books = Books::new(target, katex_tool)?;
    if plan.warm_up {
        books.warm_up()?;
    }
    let mut t = Rounds::default();
    let mut katex_cold_runs = plan.build_runs;
    let mut edit = 0;
    for round in 0..plan.build_runs {
        eprintln!(
            "xtask: book builds, round {}/{}",
            round + 1,
            plan.build_runs
        );
        t.plain.runs.push(timed(&books.plain, "(no math)")?);
        edit += 1;
        let (cold, warm, n) = books.ours_round(edit)?;
        t.cold.runs.push(cold);
        t.warm.runs.push(warm);
        t.ours_typeset = n;
        if books.katex.is_none() {
            continue;
        }
        match books.katex_round(round < katex_cold_runs, edit) {
            Ok((cold, warm, n)) => {
                if let Some(cold) = cold {
                    t.katex_cold.runs.push(cold);
                    if round == 0 && Duration::from_secs_f64(cold) > SLOW_BUILD {
                        katex_cold_runs = plan.slow_build_runs;
                    }
                }
                t.katex_warm.runs.push(warm);
                t.katex_typeset = Some(n);
            }
            Err(err) => books.drop_katex(err),
        }
    }
    let breakdown = breakdown::breakdown(
        target,
        &books.plain,
        &books.ours,
        &books.generated,
        plan,
        &mut edit,
    );
    finish(books, t, breakdown?)
}

/// The result, with the output sizes of each book's last build.
fn finish(books: Books, t: Rounds, breakdown: Breakdown) -> Result<BuildResult> {
    let generated = &books.generated;
    let (_, plain_sizes) = books.plain.inspect(generated)?;
    let (_, ours_sizes) = books.ours.inspect(generated)?;
    let katex_sizes = match &books.katex {
        Some(k) => Some(k.inspect(generated)?.1),
        None => None,
    };
    let katex_engine = books.katex.as_ref().and_then(|k| {
        let page = fs::read_to_string(k.dir.join("book/ch01.html")).ok()?;
        let at = page.find("katex@")? + "katex@".len();
        let version: String = page[at..]
            .chars()
            .take_while(|c| c.is_ascii_digit() || *c == '.')
            .collect();
        Some(version)
    });
    Ok(BuildResult {
        chapters: generated.chapters.len(),
        inline: generated.inline,
        display: generated.display,
        markdown_bytes: generated.markdown_bytes(),
        plain: t.plain,
        ours_cold: t.cold,
        ours_warm: t.warm,
        katex: books.katex.as_ref().map(|_| (t.katex_cold, t.katex_warm)),
        katex_problem: books.katex_problem,
        katex_warnings: books.katex_warnings,
        ours_typeset: t.ours_typeset,
        katex_typeset: t.katex_typeset,
        katex_engine,
        html_bytes: Sizes {
            plain: plain_sizes,
            ours: ours_sizes,
            katex: katex_sizes,
        },
        breakdown,
    })
}
