//! BENCHMARKS.md: written from a template; everything after [`MARKER`] is kept.

use std::fmt::Write as _;

use super::{BuildResult, KatexTool, Plan, RateResult, Timings};
use crate::util::{met, output_of, repo_root};

/// Sections after this line survive a rewrite (later benchmarks append there).
pub const MARKER: &str = "<!-- more benchmarks below -->";

/// Goal: our render rate per core over the official KaTeX's.
const GOAL_RATE: f64 = 2.0;
/// Goal: mdbook-katex cold build wall time over ours, in interleaved runs (issue #25).
const GOAL_COLD: f64 = 3.0;
/// Goal: our process's share of a warm rebuild (one chapter edited), at most this many
/// percent (issue #25).
const GOAL_WARM_SHARE: f64 = 10.0;
/// Goal: linear in every input (issue #25): the per-item CPU time at 8× at most this
/// many times the one at 1× (a flat cost, with room for noise).
const GOAL_GROWTH: f64 = 1.5;

/// What `cargo xtask bench` measured beyond the render rate and the generated book,
/// for the goals: the real books of the corpus and each kind of input.
pub struct Measured {
    /// Cold builds against mdbook-katex (`cargo xtask bench-cold`).
    pub cold: Vec<crate::bench_cold::BookCold>,
    /// Our share of warm builds of the corpus books (`cargo xtask bench-book`).
    pub warm: Vec<crate::bench_book::WarmShare>,
    /// Our share of warm builds of the course book, percent of the CPU time.
    pub course_share: Option<f64>,
    /// How the per-item cost grows (`cargo xtask bench-scale`).
    pub growth: Option<crate::bench_scale::Growth>,
}

/// The machine and tool versions.
pub struct Machine {
    date: String,
    nproc: String,
    cpu: String,
    rustc: String,
    mdbook: String,
    node: String,
    katex_npm: String,
    mdbook_katex: String,
    load_start: String,
}

impl Machine {
    pub fn detect(katex_tool: &KatexTool) -> Machine {
        let out = |p: &str, a: &[&str]| {
            output_of(p, a)
                .map(|s| s.trim().to_string())
                .unwrap_or_else(|| "unknown".into())
        };
        let cpu = std::fs::read_to_string("/proc/cpuinfo")
            .ok()
            .and_then(|info| {
                info.lines()
                    .find(|l| l.starts_with("model name"))
                    .and_then(|l| l.split_once(':'))
                    .map(|(_, v)| v.trim().to_string())
            })
            .unwrap_or_else(|| "unknown".into());
        let katex_npm =
            std::fs::read_to_string(repo_root().join("tests/node_modules/katex/package.json"))
                .ok()
                .and_then(|p| {
                    p.lines()
                        .find(|l| l.trim_start().starts_with("\"version\""))
                        .and_then(|l| l.split('"').nth(3).map(str::to_string))
                })
                .unwrap_or_else(|| "unknown".into());
        Machine {
            date: out("date", &["-u", "+%Y-%m-%d %H:%M UTC"]),
            load_start: load_average(),
            nproc: out("nproc", &[]),
            cpu,
            rustc: out("rustc", &["--version"]),
            mdbook: out("mdbook", &["--version"]),
            node: out("node", &["--version"]),
            katex_npm,
            mdbook_katex: match katex_tool {
                KatexTool::Ready { version, .. } => version.clone(),
                KatexTool::Failed { version, .. } => {
                    format!("mdbook-katex {version} (not installed)")
                }
            },
        }
    }
}

/// The 1-, 5- and 15-minute load averages from /proc/loadavg.
fn load_average() -> String {
    std::fs::read_to_string("/proc/loadavg")
        .map(|l| l.split_whitespace().take(3).collect::<Vec<_>>().join(" "))
        .unwrap_or_else(|_| "unknown".into())
}

fn ratio(x: f64) -> String {
    if x.is_finite() {
        format!("{x:.2}×")
    } else {
        "n/a".into()
    }
}

fn secs(t: &Timings) -> String {
    if t.runs.is_empty() {
        "n/a".into()
    } else {
        format!("{:.3}", t.median())
    }
}

fn runs(t: &Timings) -> String {
    t.runs
        .iter()
        .map(|r| format!("{r:.2}"))
        .collect::<Vec<_>>()
        .join(", ")
}

fn mb(bytes: u64) -> String {
    format!("{:.1} MB", bytes as f64 / 1e6)
}

/// The three goal ratios: (render rate per core, one thread), cold, warm.
struct Ratios {
    rate_one: f64,
    rate_all: f64,
    rate_per_core: f64,
    cold: Option<f64>,
    warm_vs_plain: f64,
    warm_vs_katex: Option<f64>,
}

fn ratios(rate: &RateResult, builds: &BuildResult) -> Ratios {
    Ratios {
        rate_one: rate.ours.one_thread / rate.node.one_thread,
        rate_all: rate.ours.all_threads / rate.node.all_threads,
        rate_per_core: rate.ours.per_core() / rate.node.per_core(),
        cold: builds
            .katex
            .as_ref()
            .map(|(cold, _)| cold.median() / builds.ours_cold.median()),
        warm_vs_plain: builds.ours_warm.median() / builds.plain.median(),
        warm_vs_katex: builds
            .katex
            .as_ref()
            .map(|(_, warm)| warm.median() / builds.ours_warm.median()),
    }
}

/// A few lines for the terminal.
pub fn summary(rate: &RateResult, builds: &BuildResult) -> String {
    let r = ratios(rate, builds);
    let opt = |x: Option<f64>| x.map_or("n/a".to_string(), ratio);
    format!(
        "render rate vs Node KaTeX: {} on 1 thread, {} per core (goal ≥ {GOAL_RATE}×)\n\
         cold build, mdbook-katex over ours: {} (goal ≥ {GOAL_COLD}×)\n\
         warm rebuild, ours over plain mdBook: {}\n\
         warm rebuild, mdbook-katex over ours: {}",
        ratio(r.rate_one),
        ratio(r.rate_per_core),
        opt(r.cold),
        ratio(r.warm_vs_plain),
        opt(r.warm_vs_katex),
    )
}

/// The whole file; `existing` is the current file (its part after [`MARKER`] is kept).
pub fn render(
    m: &Machine,
    plan: &Plan,
    rate: &RateResult,
    b: &BuildResult,
    real: &Measured,
    existing: &str,
) -> String {
    let r = ratios(rate, b);
    let mut s = String::new();
    header(&mut s, m, plan, b);
    goals(&mut s, &r, b, real);
    rate_section(&mut s, m, rate, &r);
    book_section(&mut s, b, &r);
    breakdown_section(&mut s, b);
    let w = &mut s;
    let _ = writeln!(w, "## More benchmarks\n");
    let _ = writeln!(
        w,
        "Later benchmarks (e.g. widget sizes) go below this line; `cargo xtask bench` keeps \
         everything after it.\n"
    );
    with_kept_tail(s, existing)
}

/// The title, the date, the machine and the tools.
fn header(w: &mut String, m: &Machine, plan: &Plan, b: &BuildResult) {
    let _ = writeln!(w, "# Benchmarks\n");
    if plan.quick {
        let _ = writeln!(
            w,
            "> **Quick run** (`cargo xtask bench --quick`): one short measurement of each \
             kind, for checking that the benchmark works. Not for publication.\n"
        );
    }
    let _ = writeln!(
        w,
        "Written by `cargo xtask bench{}` (source: `xtask/src/bench.rs`); rerun it to \
         refresh every number in this file above the last section.\n",
        if plan.quick { " --quick" } else { "" }
    );
    let _ = writeln!(w, "- Date: {}", m.date);
    let _ = writeln!(
        w,
        "- Machine: {} cores (`nproc`), CPU `{}` (`/proc/cpuinfo`); shared and noisy, so \
         every number is set against a peer measured in the same run, interleaved with it",
        m.nproc, m.cpu
    );
    let _ = writeln!(
        w,
        "- Load average (1, 5, 15 min) when the measurements started: {}; when they ended: {} \
         (other work on the machine competes for its {} cores, which is why the \
         all-threads rates can be lower than the one-thread rates)",
        m.load_start,
        load_average(),
        m.nproc
    );
    let _ = writeln!(
        w,
        "- Tools: {}, {}, Node {} with npm `katex` {}, {}{}\n",
        m.rustc,
        m.mdbook,
        m.node,
        m.katex_npm,
        m.mdbook_katex,
        b.katex_engine
            .as_ref()
            .map_or(String::new(), |v| format!(" (bundles KaTeX {v})"))
    );
}

/// The goals, each with what this run measured, its status and its own command.
fn goals(w: &mut String, r: &Ratios, b: &BuildResult, real: &Measured) {
    let _ = writeln!(w, "## Goals\n");
    let _ = writeln!(
        w,
        "The render rate, and the goals of issue #25 measured by benchmarks (its other two, \
         budgets checked before an option map or list is parsed and only regular files read \
         from the cache, are rules checked by tests). Every number is from this run; the last \
         column names the command that measures it on its own.\n"
    );
    let _ = writeln!(
        w,
        "| goal | measured | status | command |\n|---|---|---|---|"
    );
    let rate_ok = r.rate_one >= GOAL_RATE && r.rate_per_core >= GOAL_RATE;
    let _ = writeln!(
        w,
        "| render rate ≥ {GOAL_RATE}× the official KaTeX (Node) per core, on one thread and on all threads | {} (1 thread), {} (per core, all threads) | {} | `cargo xtask bench` |",
        ratio(r.rate_one),
        ratio(r.rate_per_core),
        met(rate_ok)
    );
    if let Some(g) = &real.growth {
        let _ = writeln!(
            w,
            "| linear in every input: our CPU time per item flat from 1× to 8× for every kind of input (\"Per input kind\") | largest per-item cost at 8× ÷ at 1×: {:.2} ({}) | {} (≤ {GOAL_GROWTH}) | `cargo xtask bench-scale` |",
            g.worst,
            g.kind,
            met(g.worst <= GOAL_GROWTH)
        );
    }
    warm_goal(w, real);
    cold_goals(w, r, b, real);
    let _ = writeln!(w);
}

/// The warm-share row.
fn warm_goal(w: &mut String, real: &Measured) {
    let mut shown: Vec<String> = real
        .warm
        .iter()
        .map(|s| format!("{} {:.1}%", s.name, s.cpu_share))
        .collect();
    if let Some(c) = real.course_share {
        shown.push(format!("the course book {c:.1}%"));
    }
    let books_ok =
        !real.warm.is_empty() && real.warm.iter().all(|s| s.cpu_share <= GOAL_WARM_SHARE);
    let course_ok = real.course_share.is_none_or(|c| c <= GOAL_WARM_SHARE);
    let over: Vec<String> = real
        .warm
        .iter()
        .filter(|s| s.cpu_share > GOAL_WARM_SHARE)
        .map(|s| {
            format!(
                "{} (ours {:.3} s of the build's {:.2} s)",
                s.name, s.ours_cpu, s.whole_cpu
            )
        })
        .collect();
    let course_why = "the pages of unchanged chapters are reused (the page cache), but every build still reads every chapter's directives for the book-wide pass (their YAML options), compiles the templates the edited chapter uses and writes the whole book back, while mdBook itself spends only about 0.2 s on it (\"Issue #25\" below)";
    let status = match (books_ok, course_ok) {
        (true, true) => met(true).to_string(),
        (true, false) => format!("**met** on the real books; **not met** on the course book: {course_why}"),
        (false, _) if !over.is_empty() => format!(
            "**not met** on {}: on a small book mdBook's own work is short and our fixed costs (start, reading every pack, writing the book back) stay (\"Issue #25\" below){}",
            over.join(", "),
            if course_ok { String::new() } else { format!("; nor on the course book: {course_why}") }
        ),
        _ => met(false).to_string(),
    };
    let _ = writeln!(
        w,
        "| a warm rebuild (one chapter edited) of a real book spends ≤ {GOAL_WARM_SHARE:.0}% of its CPU time in our process | {} | {status} | `cargo xtask bench-book` |",
        if shown.is_empty() { "n/a (no corpus)".to_string() } else { shown.join(", ") }
    );
}

/// The three cold-build rows: CPU, wall clock, peak memory against mdbook-katex.
fn cold_goals(w: &mut String, r: &Ratios, b: &BuildResult, real: &Measured) {
    use crate::bench_cold::{CPU_GOAL, WALL_GOAL};
    if real.cold.is_empty() {
        let _ = writeln!(
            w,
            "| a cold build uses ≥ {CPU_GOAL}× less CPU than mdbook-katex on the same real book, ≥ {WALL_GOAL}× less wall time, and at most its peak memory | n/a: no corpus of real books, or mdbook-katex not installed; the generated book of {} formulas, wall clock: {} | not measured | `cargo xtask bench-cold` |",
            b.inline + b.display,
            r.cold.map_or("n/a".to_string(), ratio),
        );
        return;
    }
    let each = |f: &dyn Fn(&crate::bench_cold::BookCold) -> String| -> String {
        real.cold.iter().map(f).collect::<Vec<_>>().join(", ")
    };
    let all = |f: &dyn Fn(&crate::bench_cold::BookCold) -> bool| -> bool {
        !real.cold.is_empty() && real.cold.iter().all(f)
    };
    let cpu_ok = all(&|c| c.cpu_ratio() >= CPU_GOAL);
    let cpu_status = if cpu_ok {
        met(true).to_string()
    } else {
        format!(
            "**not met**; ceiling: mdBook's own part of mdbook-katex's build (its work on mdbook-katex's output, without the preprocessor) limits any preprocessor to {} on these books; ours also hands mdBook KaTeX's MathML for screen readers, which mdbook-katex leaves out, and mdBook's part grows with it (\"Cold build against mdbook-katex\")",
            each(&|c| format!("{} {:.2}×", c.name, c.cpu_ceiling()))
        )
    };
    let _ = writeln!(
        w,
        "| a cold build uses ≥ {CPU_GOAL}× less CPU than mdbook-katex on the same real book | {} | {cpu_status} | `cargo xtask bench-cold` |",
        each(&|c| format!("{} {:.2}×", c.name, c.cpu_ratio()))
    );
    let wall_ok = all(&|c| c.wall_ratio() >= WALL_GOAL);
    let _ = writeln!(
        w,
        "| a cold build ≥ {WALL_GOAL}× faster than mdbook-katex (wall clock, interleaved runs) | {}; the generated book of {} formulas: {} | {} | `cargo xtask bench-cold`, `cargo xtask bench` |",
        each(&|c| format!("{} {:.2}×", c.name, c.wall_ratio())),
        b.inline + b.display,
        r.cold.map_or("n/a".to_string(), ratio),
        if wall_ok { met(true).to_string() } else { "**not met**: as for the CPU, mdBook's own work sets a ceiling on small books".to_string() }
    );
    let peak_ok = all(&|c| c.peak_ratio() <= 1.0);
    let _ = writeln!(
        w,
        "| a cold build's peak memory at most mdbook-katex's | ours ÷ theirs: {} | {} | `cargo xtask bench-cold` |",
        each(&|c| format!("{} {:.2}", c.name, c.peak_ratio())),
        if peak_ok {
            met(true).to_string()
        } else {
            format!(
                "**not met**; floor: the peak is mdBook's, not ours (our process peaks at {}): mdBook holds and renders our output, which carries the MathML for screen readers that mdbook-katex leaves out (\"Issue #25\" below)",
                each(&|c| format!("{:.0} MiB on {}", c.own_peak_mib(), c.name))
            )
        }
    );
}

/// The render rate against the official KaTeX.
fn rate_section(w: &mut String, m: &Machine, rate: &RateResult, r: &Ratios) {
    let rate_ok = r.rate_one >= GOAL_RATE && r.rate_per_core >= GOAL_RATE;
    let _ = writeln!(w, "## Render rate\n");
    let _ = writeln!(
        w,
        "Formulas rendered per second (HTML + MathML, KaTeX's default output) by \
         `preprocessor/examples/render_rate.rs` (katex-rs 0.3.0 through \
         `mdbook_mathcourse::math::render_raw`) and by `tests/bench/katex_rate.mjs` \
         (the official KaTeX {} under Node {}). Both render the same {} inputs: the {} \
         formulas of `tests/bench/formulas.txt` (softmax, attention, gradient step, \
         cross-entropy, norms, sums, `pmatrix`, `aligned`, `cases`, fractions, `\\mathbb`, \
         `\\mathcal`, expectation, variance, ...) in inline and in display mode, round-robin, \
         for {} s after a warm-up of a quarter of that; first on one thread, then on \
         every thread at once (rayon for ours, one `worker_threads` worker per core for \
         Node). Median of {} alternating round{} (ours, Node, ours, Node, ...).\n",
        m.katex_npm,
        m.node,
        rate.inputs,
        rate.inputs / 2,
        rate.seconds,
        rate.rounds,
        if rate.rounds == 1 { "" } else { "s" }
    );
    let _ = writeln!(
        w,
        "| renders per second | mdbook-mathcourse (katex-rs) | official KaTeX (Node) | ratio |\n|---|---:|---:|---:|"
    );
    let _ = writeln!(
        w,
        "| 1 thread | {:.0} | {:.0} | {} |",
        rate.ours.one_thread,
        rate.node.one_thread,
        ratio(r.rate_one)
    );
    let _ = writeln!(
        w,
        "| all threads ({} / {}) | {:.0} | {:.0} | {} |",
        rate.ours.threads,
        rate.node.threads,
        rate.ours.all_threads,
        rate.node.all_threads,
        ratio(r.rate_all)
    );
    let _ = writeln!(
        w,
        "| per core (all threads ÷ threads) | {:.0} | {:.0} | {} |\n",
        rate.ours.per_core(),
        rate.node.per_core(),
        ratio(r.rate_per_core)
    );
    let _ = writeln!(
        w,
        "Goal: ≥ {GOAL_RATE}× the official KaTeX per core, on one thread and on all threads: {}.\n",
        met(rate_ok)
    );
}

/// The generated book built with each preprocessor.
fn book_section(w: &mut String, b: &BuildResult, r: &Ratios) {
    let _ = writeln!(w, "## Book build\n");
    let _ = writeln!(
        w,
        "A generated course book (`xtask/src/bench/book.rs`, deterministic, in \
         `target/bench/book-*`): {} chapters, {} formulas ({} inline, {} display), {} KB \
         of Markdown with prose, lists, tables and code blocks. Each build is the real \
         `mdbook build`, timed wall-clock around the process; the table gives the median \
         (all runs in the last column). The kinds of build are interleaved round by round.\n",
        b.chapters,
        b.inline + b.display,
        b.inline,
        b.display,
        b.markdown_bytes / 1024
    );
    let _ = writeln!(
        w,
        "- **plain**: no math preprocessor, the floor (the `$` signs stay text).\n\
         - **ours**: `[preprocessor.mathcourse]` with defaults, the release binary first on \
         PATH. *Cold*: the cache (`.mathcourse-cache/`) and the generated \
         `src/mathcourse-assets/` deleted first. *Warm*: right after a cold build, one \
         sentence with one new formula appended to one chapter.\n\
         - **mdbook-katex**: `[preprocessor.katex]` with `after = [\"links\"]`, defaults \
         otherwise (pre-rendering with KaTeX in QuickJS), installed into \
         `target/bench-tools`. Cold and warm as for ours (it has no cache, so both render \
         everything). Its default output is KaTeX's HTML only, without the MathML that \
         ours adds for screen readers, so it renders and emits less per formula.\n"
    );
    let plain = b.plain.median();
    let vs_plain = |t: &Timings| ratio(t.median() / plain);
    let _ = writeln!(
        w,
        "| build | seconds (median) | vs plain | runs (s) |\n|---|---:|---:|---|"
    );
    let _ = writeln!(
        w,
        "| plain mdBook (no math) | {} | 1.00× | {} |",
        secs(&b.plain),
        runs(&b.plain)
    );
    let _ = writeln!(
        w,
        "| mdbook-mathcourse, cold | {} | {} | {} |",
        secs(&b.ours_cold),
        vs_plain(&b.ours_cold),
        runs(&b.ours_cold)
    );
    let _ = writeln!(
        w,
        "| mdbook-mathcourse, warm | {} | {} | {} |",
        secs(&b.ours_warm),
        vs_plain(&b.ours_warm),
        runs(&b.ours_warm)
    );
    if let Some((cold, warm)) = &b.katex {
        let _ = writeln!(
            w,
            "| mdbook-katex, cold | {} | {} | {} |",
            secs(cold),
            vs_plain(cold),
            runs(cold)
        );
        let _ = writeln!(
            w,
            "| mdbook-katex, warm | {} | {} | {} |",
            secs(warm),
            vs_plain(warm),
            runs(warm)
        );
    } else {
        let _ = writeln!(
            w,
            "| mdbook-katex, cold | n/a | | |\n| mdbook-katex, warm | n/a | | |"
        );
    }
    let _ = writeln!(w);
    book_comparison(w, b, r);
}

/// The ratios of the generated book's builds, the formula checks and what mdbook-katex
/// printed.
fn book_comparison(w: &mut String, b: &BuildResult, r: &Ratios) {
    let opt = |x: Option<f64>| x.map_or("n/a".to_string(), ratio);
    let _ = writeln!(
        w,
        "| comparison | ratio | goal | status |\n|---|---:|---|---|"
    );
    let _ = writeln!(
        w,
        "| mdbook-katex cold ÷ ours cold | {} | ≥ {GOAL_COLD}× | {} |",
        opt(r.cold),
        r.cold.map_or("not measured", |c| met(c >= GOAL_COLD))
    );
    let _ = writeln!(
        w,
        "| ours warm ÷ plain mdBook | {} | (none; the goal is our process's share, below) | |",
        ratio(r.warm_vs_plain),
    );
    let _ = writeln!(
        w,
        "| mdbook-katex warm ÷ ours warm | {} | (none) | |\n",
        opt(r.warm_vs_katex)
    );
    let _ = writeln!(
        w,
        "Every build of ours was checked: `mdbook build` succeeded without warnings and \
         the chapter pages hold {} `class=\"katex\"` formulas after a warm build (all {} \
         formulas plus the one added by the edit){}.\n",
        b.ours_typeset,
        b.inline + b.display,
        match b.katex_typeset {
            Some(n) => format!("; mdbook-katex's pages hold {n}"),
            None => String::new(),
        }
    );
    if !b.katex_warnings.is_empty() {
        let _ = writeln!(
            w,
            "mdbook-katex built the book but printed:\n\n```text\n{}\n```\n",
            b.katex_warnings.join("\n")
        );
    }
    if let Some(problem) = &b.katex_problem {
        let _ = writeln!(
            w,
            "**mdbook-katex has no numbers in this run**: {}\n\n```text\n{}\n```\n",
            problem.lines().next().unwrap_or_default(),
            problem
                .lines()
                .skip(1)
                .collect::<Vec<_>>()
                .join("\n")
                .trim()
        );
    }
}

/// Where a warm build of ours spends its time.
fn breakdown_section(w: &mut String, b: &BuildResult) {
    let bd = &b.breakdown;
    let med = |v: &Vec<f64>| super::median(v.clone());
    let (build, pre, build_ns) = (
        med(&bd.build),
        med(&bd.preprocessor),
        med(&bd.build_no_search),
    );
    let (p_all, p_ns) = (med(&bd.plain), med(&bd.plain_no_search));
    let (search, p_search) = (build - build_ns, p_all - p_ns);
    let (other, p_other) = (build_ns - pre, p_ns);
    let _ = writeln!(w, "### Where a warm build of ours spends its time\n");
    let _ = writeln!(
        w,
        "{} more round{} of: a warm build of ours (one new formula) with the preprocessor \
         run through a wrapper script that times the `mdbook-mathcourse` process from start \
         to exit (reading the book as JSON, cache lookups, one render, writing the book \
         back); the same with mdBook's search index off (`[output.html.search] enable = \
         false`); the plain book with and without the search index. Medians, seconds:\n",
        bd.runs,
        if bd.runs == 1 { "" } else { "s" }
    );
    let _ = writeln!(
        w,
        "| part of the build | ours, warm | plain | ours ÷ plain |\n|---|---:|---:|---:|\n\
         | whole `mdbook build` | {build:.3} | {p_all:.3} | {} |\n\
         | `mdbook-mathcourse` process | {pre:.3} ({:.0}%) | | |\n\
         | mdBook: search index (build with it − build without) | {search:.3} | {p_search:.3} | {} |\n\
         | mdBook: everything else (load, Markdown → HTML, templates, print page, files) | {other:.3} | {p_other:.3} | {} |\n",
        ratio(build / p_all),
        100.0 * pre / build,
        ratio(search / p_search),
        ratio(other / p_other),
    );
    let sizes = &b.html_bytes;
    let _ = writeln!(
        w,
        "Output after a build (chapter pages only, without `print.html`, which repeats them; \
         search index):\n\n\
         | book | chapter pages | search index |\n|---|---:|---:|\n\
         | plain | {} | {} |\n| ours | {} | {} |",
        mb(sizes.plain.0),
        mb(sizes.plain.1),
        mb(sizes.ours.0),
        mb(sizes.ours.1)
    );
    if let Some(k) = sizes.katex {
        let _ = writeln!(w, "| mdbook-katex | {} | {} |", mb(k.0), mb(k.1));
    }
    let _ = writeln!(w);
    let mdbook_share = 100.0 * (build - pre) / build;
    let _ = writeln!(
        w,
        "In this run the preprocessor process is {:.0}% of a warm build and mdBook's own \
         work {mdbook_share:.0}%. mdBook's work on our output takes {} as long as on the \
         plain book: it receives {} of chapter HTML instead of {} (each typeset formula is \
         KaTeX's nested spans plus MathML for screen readers) and parses, renders, indexes \
         and writes all of it (twice, counting `print.html`) on every build, whether or not \
         a formula changed.{}\n",
        100.0 * pre / build,
        ratio((build - pre) / p_all),
        mb(sizes.ours.0),
        mb(sizes.plain.0),
        if mdbook_share >= 50.0 {
            " A warm rebuild is therefore dominated by mdBook's own rendering of the KaTeX \
             markup, not by the preprocessor."
        } else {
            ""
        }
    );
}

/// `head`, then [`MARKER`] on its own line, then whatever followed the marker in
/// `existing` (nothing when it has no marker).
fn with_kept_tail(mut head: String, existing: &str) -> String {
    head.push_str(MARKER);
    head.push('\n');
    if let Some(i) = existing.find(MARKER) {
        let tail = &existing[i + MARKER.len()..];
        head.push_str(tail.strip_prefix('\n').unwrap_or(tail));
    }
    head
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_part_after_the_marker_is_kept() {
        let old = format!("# Old\n\nold numbers\n\n{MARKER}\n## Widget sizes\n\n| a | 1 |\n");
        let new = with_kept_tail("# New\n\n".into(), &old);
        assert_eq!(
            new,
            format!("# New\n\n{MARKER}\n## Widget sizes\n\n| a | 1 |\n")
        );
        // Rewriting again changes nothing after the marker.
        assert_eq!(with_kept_tail("# New\n\n".into(), &new), new);
        // No file, or no marker: the marker alone.
        assert_eq!(
            with_kept_tail("# New\n".into(), ""),
            format!("# New\n{MARKER}\n")
        );
        assert_eq!(
            with_kept_tail("# New\n".into(), "# Hand-written\n"),
            format!("# New\n{MARKER}\n")
        );
    }
}
