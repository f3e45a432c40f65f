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
//! 3. BENCHMARKS.md is rewritten from a template; whatever follows the line
//!    `<!-- more benchmarks below -->` is kept.
//!
//! `--quick` runs everything once with short measurements and writes
//! `target/bench/BENCHMARKS.quick.md` instead, so a check never overwrites the real
//! numbers.

mod book;
mod report;

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
    let rate = render_rate(&root, &target, &plan)?;
    let builds = book_builds(&target, &plan, &katex_tool)?;

    let out = if quick {
        target.join("bench/BENCHMARKS.quick.md")
    } else {
        root.join("BENCHMARKS.md")
    };
    let scaling = crate::bench_scale::measure()?;
    let kept = fs::read_to_string(&out).unwrap_or_default();
    let text = report::render(&machine, &plan, &rate, &builds, &kept);
    let text = crate::util::splice_section(&text, "## Scaling", &scaling);
    fs::write(&out, text).with_context(|| format!("could not write {}", out.display()))?;
    eprintln!("\n{}", report::summary(&rate, &builds));
    eprintln!("xtask: wrote {}", out.display());
    Ok(())
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

// ---------------------------------------------------------------------------------
// Render rate

/// One engine's render rate.
#[derive(Debug, Clone, Copy, Default)]
pub struct Rate {
    /// Renders per second on one thread.
    pub one_thread: f64,
    /// Renders per second on all threads.
    pub all_threads: f64,
    /// Threads used for `all_threads`.
    pub threads: f64,
}

impl Rate {
    /// Renders per second per thread when all threads run.
    pub fn per_core(&self) -> f64 {
        self.all_threads / self.threads
    }
}

/// Both engines' render rates (medians over the rounds).
#[derive(Debug, Clone)]
pub struct RateResult {
    pub ours: Rate,
    pub node: Rate,
    pub inputs: usize,
    pub rounds: usize,
    pub seconds: f64,
}

fn render_rate(root: &Path, target: &Path, plan: &Plan) -> Result<RateResult> {
    let corpus = root.join("tests/bench/formulas.txt");
    let example = target.join("release/examples/render_rate");
    let script = root.join("tests/bench/katex_rate.mjs");
    let seconds = plan.rate_seconds.to_string();
    let mut ours = Vec::new();
    let mut node = Vec::new();
    let mut inputs = 0;
    for round in 1..=plan.rate_rounds {
        eprintln!(
            "xtask: render rate, round {round}/{}: katex-rs, then Node KaTeX",
            plan.rate_rounds
        );
        let mut cmd = Command::new(&example);
        cmd.arg(&corpus).args(["--seconds", &seconds]);
        let (rate, n) = run_rate(cmd, "render_rate example")?;
        ours.push(rate);
        inputs = n;
        let mut cmd = Command::new("node");
        cmd.arg(&script).arg(&corpus).args(["--seconds", &seconds]);
        let (rate, n) = run_rate(cmd, "tests/bench/katex_rate.mjs")?;
        if n != inputs {
            bail!("the two engines rendered different corpora ({inputs} and {n} inputs)");
        }
        node.push(rate);
    }
    let median_rate = |rates: &[Rate]| Rate {
        one_thread: median(rates.iter().map(|r| r.one_thread).collect()),
        all_threads: median(rates.iter().map(|r| r.all_threads).collect()),
        threads: median(rates.iter().map(|r| r.threads).collect()),
    };
    Ok(RateResult {
        ours: median_rate(&ours),
        node: median_rate(&node),
        inputs,
        rounds: plan.rate_rounds,
        seconds: plan.rate_seconds,
    })
}

/// Runs a render-rate program and reads its JSON line.
fn run_rate(mut cmd: Command, what: &str) -> Result<(Rate, usize)> {
    let out = cmd
        .output()
        .with_context(|| format!("could not run the {what}"))?;
    let stdout = String::from_utf8_lossy(&out.stdout);
    if !out.status.success() {
        bail!(
            "the {what} failed ({}):\n{}{}",
            out.status,
            stdout,
            String::from_utf8_lossy(&out.stderr)
        );
    }
    let field = |key: &str| {
        json_number(&stdout, key)
            .with_context(|| format!("no `{key}` in the output of the {what}: {stdout}"))
    };
    let rate = Rate {
        one_thread: field("one_thread")?,
        all_threads: field("all_threads")?,
        threads: field("threads")?,
    };
    eprintln!(
        "xtask:   {what}: {:.0}/s on 1 thread, {:.0}/s on {} threads",
        rate.one_thread, rate.all_threads, rate.threads
    );
    Ok((rate, field("inputs")? as usize))
}

/// The number after `"key":` in a flat JSON object.
fn json_number(json: &str, key: &str) -> Option<f64> {
    let quoted = format!("\"{key}\"");
    let rest = &json[json.find(&quoted)? + quoted.len()..];
    let rest = rest.trim_start().strip_prefix(':')?.trim_start();
    let end = rest
        .find(|c: char| !(c.is_ascii_digit() || matches!(c, '.' | '-' | '+' | 'e' | 'E')))
        .unwrap_or(rest.len());
    rest[..end].parse().ok()
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

fn book_builds(target: &Path, plan: &Plan, katex_tool: &KatexTool) -> Result<BuildResult> {
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
    let mut katex_problem = None;
    let mut katex = match katex_tool {
        KatexTool::Ready { bin_dir, .. } => Some(BenchBook::new(
            target,
            "katex",
            Some(bin_dir.clone()),
            &book_toml("\n[preprocessor.katex]\nafter = [\"links\"]\n"),
            &generated,
        )?),
        KatexTool::Failed { log, .. } => {
            katex_problem = Some(format!("the installation failed:\n{log}"));
            None
        }
    };
    let mut katex_warnings: Vec<String> = Vec::new();

    if plan.warm_up {
        eprintln!("xtask: untimed warm-up builds");
        plain.build().map_err(anyhow::Error::msg)?;
        ours.clear_ours()?;
        ours.build().map_err(anyhow::Error::msg)?;
        if let Some(k) = &katex {
            if let Err(err) = k.build() {
                eprintln!("xtask: mdbook-katex failed; going on without it:\n{err}");
                katex_problem = Some(err);
                katex = None;
            }
        }
    }

    let mut t_plain = Timings::default();
    let mut t_cold = Timings::default();
    let mut t_warm = Timings::default();
    let mut t_kcold = Timings::default();
    let mut t_kwarm = Timings::default();
    let mut ours_typeset = 0;
    let mut katex_typeset = None;
    let mut katex_cold_runs = plan.build_runs;
    let mut edit = 0;
    for round in 0..plan.build_runs {
        eprintln!(
            "xtask: book builds, round {}/{}",
            round + 1,
            plan.build_runs
        );
        t_plain.runs.push(timed(&plain, "(no math)")?);

        ours.set_edit(&generated, None)?;
        ours.clear_ours()?;
        t_cold.runs.push(timed(&ours, "cold")?);
        let (n, _) = ours.inspect(&generated)?;
        if n != generated.formulas() {
            bail!(
                "our cold build typeset {n} formulas, expected {}",
                generated.formulas()
            );
        }
        edit += 1;
        ours.set_edit(&generated, Some(edit))?;
        t_warm.runs.push(timed(&ours, "warm (1 chapter edited)")?);
        let (n, _) = ours.inspect(&generated)?;
        if n != generated.formulas() + 1 {
            bail!(
                "our warm build typeset {n} formulas, expected {}",
                generated.formulas() + 1
            );
        }
        ours_typeset = n;

        if let Some(k) = &katex {
            let mut build = |what: &str| -> Result<f64, String> {
                let (t, warnings) = k.build()?;
                for w in warnings {
                    // Drop the timestamp so a repeated warning is listed once.
                    let w = match w.find("WARN") {
                        Some(i) => w[i..].to_string(),
                        None => w,
                    };
                    if !katex_warnings.contains(&w) {
                        katex_warnings.push(w);
                    }
                }
                let t = t.as_secs_f64();
                eprintln!("xtask:   {:<28} {t:>7.3} s", format!("katex {what}"));
                Ok(t)
            };
            let mut result = Ok(());
            if round < katex_cold_runs {
                result = k
                    .set_edit(&generated, None)
                    .map_err(|e| e.to_string())
                    .and_then(|()| build("cold"))
                    .map(|t| {
                        t_kcold.runs.push(t);
                        if round == 0 && Duration::from_secs_f64(t) > SLOW_BUILD {
                            katex_cold_runs = plan.slow_build_runs;
                        }
                    });
            }
            let result = result
                .and_then(|()| {
                    k.set_edit(&generated, Some(edit))
                        .map_err(|e| e.to_string())
                })
                .and_then(|()| build("warm (1 chapter edited)"))
                .map(|t| t_kwarm.runs.push(t))
                .and_then(|()| k.inspect(&generated).map_err(|e| e.to_string()));
            match result {
                Ok((n, _)) => katex_typeset = Some(n),
                Err(err) => {
                    eprintln!("xtask: mdbook-katex failed; going on without it:\n{err}");
                    katex_problem = Some(err);
                    katex = None;
                }
            }
        }
    }

    // Sizes of the outputs (each book's last build).
    let (_, plain_sizes) = plain.inspect(&generated)?;
    let (_, ours_sizes) = ours.inspect(&generated)?;
    let katex_sizes = match &katex {
        Some(k) => Some(k.inspect(&generated)?.1),
        None => None,
    };

    let breakdown = breakdown(target, &plain, &ours, &generated, plan, &mut edit)?;

    Ok(BuildResult {
        chapters: generated.chapters.len(),
        inline: generated.inline,
        display: generated.display,
        markdown_bytes: generated.markdown_bytes(),
        plain: t_plain,
        ours_cold: t_cold,
        ours_warm: t_warm,
        katex: katex.as_ref().map(|_| (t_kcold, t_kwarm)),
        katex_problem,
        katex_warnings,
        ours_typeset,
        katex_typeset,
        katex_engine: katex.as_ref().and_then(|k| {
            let page = fs::read_to_string(k.dir.join("book/ch01.html")).ok()?;
            let at = page.find("katex@")? + "katex@".len();
            let version: String = page[at..]
                .chars()
                .take_while(|c| c.is_ascii_digit() || *c == '.')
                .collect();
            Some(version)
        }),
        html_bytes: Sizes {
            plain: plain_sizes,
            ours: ours_sizes,
            katex: katex_sizes,
        },
        breakdown,
    })
}

/// Warm builds of ours through a wrapper script that records how long the
/// `mdbook-mathcourse` process itself runs (the rest of the build is mdBook's), with
/// and without mdBook's search index; and the plain book without the search index.
fn breakdown(
    target: &Path,
    plain: &BenchBook,
    ours: &BenchBook,
    generated: &book::Book,
    plan: &Plan,
    edit: &mut usize,
) -> Result<Breakdown> {
    let bench = target.join("bench");
    let wrapper = bench.join("timed-mathcourse.sh");
    let log = bench.join("timed-mathcourse.log");
    let binary = target.join("release/mdbook-mathcourse");
    fs::write(
        &wrapper,
        format!(
            "#!/bin/sh\n\
             # Runs mdbook-mathcourse and appends its run time in nanoseconds to the log.\n\
             if [ \"$#\" -gt 0 ]; then exec '{bin}' \"$@\"; fi\n\
             start=$(date +%s%N)\n\
             '{bin}'\n\
             status=$?\n\
             end=$(date +%s%N)\n\
             echo $((end - start)) >> '{log}'\n\
             exit $status\n",
            bin = binary.display(),
            log = log.display()
        ),
    )?;
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        fs::set_permissions(&wrapper, fs::Permissions::from_mode(0o755))?;
    }
    const NO_SEARCH: &str = "\n[output.html.search]\nenable = false\n";
    let timed_ours = format!(
        "\n[preprocessor.mathcourse]\ncommand = \"{}\"\n",
        wrapper.display()
    );
    let ours_toml = ours.dir.join("book.toml");
    let plain_toml = plain.dir.join("book.toml");
    let ours_normal = fs::read_to_string(&ours_toml)?;
    let plain_normal = fs::read_to_string(&plain_toml)?;
    let _ = fs::remove_file(&log);
    let last_logged = || -> Result<f64> {
        let text = fs::read_to_string(&log)?;
        let ns = text
            .lines()
            .filter_map(|l| l.trim().parse::<f64>().ok())
            .next_back()
            .context("the wrapper logged no time")?;
        Ok(ns / 1e9)
    };
    let mut result = Breakdown::default();
    eprintln!("xtask: where a warm build spends its time");
    let outcome = (|| -> Result<()> {
        for _ in 0..plan.breakdown_runs {
            fs::write(&ours_toml, book_toml(&timed_ours))?;
            *edit += 1;
            ours.set_edit(generated, Some(*edit))?;
            result.build.push(timed(ours, "warm, preprocessor timed")?);
            result.preprocessor.push(last_logged()?);

            fs::write(&ours_toml, book_toml(&format!("{timed_ours}{NO_SEARCH}")))?;
            *edit += 1;
            ours.set_edit(generated, Some(*edit))?;
            result
                .build_no_search
                .push(timed(ours, "warm, no search index")?);

            result.plain.push(timed(plain, "(no math)")?);
            fs::write(&plain_toml, book_toml(NO_SEARCH))?;
            result
                .plain_no_search
                .push(timed(plain, "(no math), no search index")?);
            fs::write(&plain_toml, &plain_normal)?;
        }
        Ok(())
    })();
    fs::write(&ours_toml, ours_normal)?;
    fs::write(&plain_toml, plain_normal)?;
    outcome?;
    result.runs = plan.breakdown_runs;
    Ok(result)
}
