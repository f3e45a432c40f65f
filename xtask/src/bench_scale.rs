//! `cargo xtask bench-scale` (also part of `cargo xtask bench`): does the build cost grow
//! linearly with the book? Generated books of 50, 100 and 200 chapters (100 formulas
//! each, up to 20,000) are built with the real `mdbook` CLI and the release
//! preprocessor, cold (no cache) and warm (nothing changed). Reported per size: the
//! preprocessor's own time and peak memory (it reports them through
//! `MDBOOK_MATHCOURSE_STATS`), the whole build's time and peak memory (GNU `time`, when
//! installed), and each per formula: flat per-formula numbers mean linear growth.
//! Written as the "## Scaling" section of BENCHMARKS.md.

use std::fmt::Write as _;
use std::fs;
use std::path::Path;
use std::process::Command;
use std::time::Instant;

use anyhow::{bail, Context, Result};

use crate::util::{ensure_mdbook, repo_root, splice_section};

const HEADING: &str = "## Scaling";
const SIZES: [usize; 3] = [50, 100, 200];
const FORMULAS_PER_CHAPTER: usize = 100;

/// One generated chapter: prose, inline and display math, a claim and a formula card;
/// every formula differs from every other chapter's (no cache sharing between chapters).
fn chapter(n: usize) -> String {
    let mut out =
        format!("# Chapter {n}\n\nThis chapter is generated for the scaling benchmark.\n\n");
    let mut count = 0;
    let mut k = 0;
    while count < FORMULAS_PER_CHAPTER {
        k += 1;
        match k % 5 {
            0 => {
                out.push_str(&format!(
                    "$$\n\\sum_{{i=1}}^{{{n}}} \\frac{{x_i^{{{k}}}}}{{\\sqrt{{{k} + i}}}} = \\int_0^{{{n}}} e^{{-t^2/{k}}}\\,dt\n$$\n\n"
                ));
                count += 1;
            }
            1 => {
                out.push_str(&format!(
                    ":::{{claim}} established\nThe value ${n} \\cdot {k} = {}$ is a product.\n:::\n\n",
                    n * k
                ));
                count += 1;
            }
            _ => {
                out.push_str(&format!(
                    "A sentence with $a_{{{k}}} + b^{{{n}}}$ and $\\mathbf{{v}}_{{{k}}} \\cdot \\mathbf{{w}}$ inline, then $\\alpha_{{{n}}}\\beta_{{{k}}}$.\n\n"
                ));
                count += 3;
            }
        }
    }
    out
}

fn write_book(dir: &Path, chapters: usize) -> Result<()> {
    if dir.exists() {
        fs::remove_dir_all(dir)?;
    }
    fs::create_dir_all(dir.join("src"))?;
    fs::write(
        dir.join("book.toml"),
        "[book]\ntitle = \"Scaling\"\n\n[preprocessor.mathcourse]\n\n[output.html]\n",
    )?;
    let mut summary = String::from("# Summary\n\n");
    for n in 1..=chapters {
        summary.push_str(&format!("- [Chapter {n}](ch{n}.md)\n"));
        fs::write(dir.join(format!("src/ch{n}.md")), chapter(n))?;
    }
    fs::write(dir.join("src/SUMMARY.md"), summary)?;
    Ok(())
}

struct Run {
    build_s: f64,
    build_peak_kb: Option<u64>,
    pre_s: f64,
    /// Our process's CPU time (all threads).
    pre_cpu_s: f64,
    pre_peak_kb: u64,
    formulas: u64,
}

/// One `mdbook build`, timed, with our stats; it must succeed.
fn build(dir: &Path, bin: &Path) -> Result<Run> {
    build_allowing(dir, bin, false)
}

/// One `mdbook build`, timed, with our stats; with `may_fail`, a build the book's
/// errors stop counts too (the preprocessor writes its stats before it fails).
fn build_allowing(dir: &Path, bin: &Path, may_fail: bool) -> Result<Run> {
    let stats = dir.join("stats.jsonl");
    let _ = fs::remove_file(&stats);
    let path = format!(
        "{}:{}",
        bin.display(),
        std::env::var("PATH").unwrap_or_default()
    );
    let gnu_time = Path::new("/usr/bin/time").exists();
    let report = dir.join("time.txt");
    let mut cmd = if gnu_time {
        let mut c = Command::new("/usr/bin/time");
        c.arg("-f").arg("%M").arg("-o").arg(&report).arg("mdbook");
        c
    } else {
        Command::new("mdbook")
    };
    let start = Instant::now();
    let out = cmd
        .arg("build")
        .current_dir(dir)
        .env("PATH", path)
        .env("MDBOOK_MATHCOURSE_STATS", &stats)
        .output()
        .context("could not run mdbook")?;
    let build_s = start.elapsed().as_secs_f64();
    if !out.status.success() && !may_fail {
        bail!(
            "mdbook build failed:\n{}",
            String::from_utf8_lossy(&out.stderr)
        );
    }
    let line = fs::read_to_string(&stats).context("the preprocessor wrote no stats")?;
    let v: serde_json::Value = serde_json::from_str(line.lines().last().unwrap_or("{}"))?;
    Ok(Run {
        build_s,
        build_peak_kb: fs::read_to_string(&report)
            .ok()
            .and_then(|t| t.trim().lines().last()?.trim().parse().ok()),
        pre_s: v["seconds"].as_f64().unwrap_or(0.0),
        pre_cpu_s: v["cpu_seconds"].as_f64().unwrap_or(f64::NAN),
        pre_peak_kb: v["peak_kb"].as_u64().unwrap_or(0),
        formulas: v["formulas"].as_u64().unwrap_or(0),
    })
}

/// How the per-item cost grows from 1× to 8×: the largest ratio over the kinds of
/// input (the preprocessor's CPU time per item at 8× ÷ at 1×).
#[derive(Debug, Clone)]
pub struct Growth {
    pub worst: f64,
    /// The kind of input with that ratio.
    pub kind: String,
}

/// Builds and measures every size; returns the Markdown section and how the per-item
/// cost of each kind of input grows.
pub fn measure() -> Result<(String, Growth)> {
    let root = repo_root();
    ensure_mdbook()?;
    let bin = crate::util::release_preprocessor(&root)?;
    let target = crate::util::target_dir(&root);
    let mut rows = String::new();
    for chapters in SIZES {
        let dir = target.join(format!("bench/scale-{chapters}"));
        write_book(&dir, chapters)?;
        eprintln!("xtask: scaling, {chapters} chapters: cold build");
        let cold = build(&dir, &bin)?;
        eprintln!("xtask: scaling, {chapters} chapters: warm build");
        let warm = build(&dir, &bin)?;
        for (kind, run) in [("cold", &cold), ("warm", &warm)] {
            let f = run.formulas.max(1) as f64;
            let whole_peak = run
                .build_peak_kb
                .map_or("n/a".to_string(), |kb| format!("{:.0}", kb as f64 / 1024.0));
            let whole_per = run
                .build_peak_kb
                .map_or("n/a".to_string(), |kb| format!("{:.1}", kb as f64 / f));
            writeln!(
                rows,
                "| {chapters} | {} | {kind} | {:.2} | {:.1} | {:.0} | {:.1} | {:.2} | {:.1} | {whole_peak} | {whole_per} |",
                run.formulas,
                run.pre_s,
                run.pre_s * 1e6 / f,
                run.pre_peak_kb as f64 / 1024.0,
                run.pre_peak_kb as f64 / f,
                run.build_s,
                run.build_s * 1e6 / f,
            )?;
        }
    }
    let (kinds, growth) = measure_kinds(&bin, &target, "")?;
    let load = fs::read_to_string("/proc/loadavg").unwrap_or_default();
    let section = format!(
        "{HEADING}\n\n`cargo xtask bench-scale` (also run by `cargo xtask bench`): generated books of \
         50, 100 and 200 chapters, {FORMULAS_PER_CHAPTER} formulas each (inline, display, in claims), \
         built with `mdbook build` and the release preprocessor, cold (no cache) and warm (nothing \
         changed). \"Preprocessor\" is our process alone (its own clock, from reading the book to writing it back, and `VmHWM`; before issue #25 the clock left out reading and writing); \"build\" is the \
         whole `mdbook build` (wall clock; peak RSS from GNU `time`, the larger of mdBook and us). Flat \
         per-formula columns mean the cost grows linearly with the book. Load average at the end: {}.\n\n\
         | chapters | formulas | build | preprocessor s | µs/formula | preprocessor peak MB | KB/formula | build s | µs/formula | build peak MB | KB/formula |\n\
         |---:|---:|---|---:|---:|---:|---:|---:|---:|---:|---:|\n{rows}\n{kinds}",
        load.split_whitespace().take(3).collect::<Vec<_>>().join(" ")
    );
    Ok((section, growth))
}

/// An input kind that must cost the same per item at any size (issue #25): a
/// generated one-chapter book with `n` items, and the item's name.
struct Kind {
    name: &'static str,
    /// Items at 1×.
    base: usize,
    /// The book fails on purpose (errors).
    fails: bool,
    /// More keys of `[preprocessor.mathcourse]` (lines of TOML).
    toml: &'static str,
    chapter: fn(usize) -> String,
    /// A book of several chapters instead (file name, text), when the items are chapters.
    book: Option<fn(usize) -> Vec<Page>>,
}

/// A chapter of a generated book: its file name and text.
type Page = (String, String);

const KINDS: [Kind; 17] = [
    Kind {
        name: "`$\\nope$` lines (errors)",
        base: 2000,
        fails: true,
        toml: "",
        book: None,
        chapter: |n| (0..n).map(|i| format!("Line {i} $\\nope$\n\n")).collect(),
    },
    Kind {
        name: "`{calc}` errors",
        base: 1000,
        fails: true,
        toml: "",
        book: None,
        chapter: |n| {
            (0..n)
                .map(|i| format!("Line {i} {{calc}}`1 + 1 = 3`\n\n"))
                .collect()
        },
    },
    Kind {
        name: "`{eq}` references to no label (errors)",
        base: 1000,
        fails: true,
        toml: "",
        book: None,
        chapter: |n| {
            (0..n)
                .map(|i| format!("Line {i} {{eq}}`none-{i}`\n\n"))
                .collect()
        },
    },
    Kind {
        name: "unknown directives (errors)",
        base: 1000,
        fails: true,
        toml: "",
        book: None,
        chapter: |n| {
            (0..n)
                .map(|_| ":::{nodirective}\nx\n:::\n\n".to_string())
                .collect()
        },
    },
    Kind {
        name: "labelled `math` blocks plus as many `{eq}` references",
        base: 2000,
        fails: false,
        toml: "",
        book: None,
        chapter: |n| {
            let blocks =
                (0..n).map(|i| format!(":::{{math}}\n:label: eq-{i}\nx_{{{i}}} = {i}\n:::\n\n"));
            let refs = (0..n).map(|i| format!("See {{eq}}`eq-{i}`.\n\n"));
            blocks.chain(refs).collect()
        },
    },
    Kind {
        name: "formula cards, each defining one symbol",
        base: 500,
        fails: false,
        toml: "",
        book: None,
        chapter: |n| {
            (0..n)
                .map(|i| format!(":::{{formula}} Card {i}\n---\ntex: a_{{{i}}} = {i}\nwhere:\n  - {{id: s{i}, tex: 'a_{{{i}}}', name: a {i}, meaning: Value {i}}}\n---\nText.\n:::\n\n"))
                .collect()
        },
    },
    Kind {
        name: "`inspect: true` blocks plus as many symbol-table rows",
        base: 500,
        fails: false,
        toml: "",
        book: None,
        chapter: |n| {
            let inspected =
                (0..n).map(|i| format!(":::{{math}}\n:inspect: true\na_{{{i}}} = 1\n:::\n\n"));
            symbol_table(n) + &inspected.collect::<String>()
        },
    },
    Kind {
        name: "symbol-table rows",
        base: 2000,
        fails: false,
        toml: "",
        book: None,
        chapter: symbol_table,
    },
    Kind {
        name: "`params` entries of one plot (refused: at most 12)",
        base: 1250,
        fails: true,
        toml: "",
        book: None,
        chapter: |n| {
            let params: String = (0..n)
                .map(|i| format!("  p{i}: {{value: 1, range: [-3, 3], step: 0.1}}\n"))
                .collect();
            format!(":::{{widget}} plot\n---\nx: [-4, 4]\nparams:\n{params}curves:\n  - x\n---\nA plot.\n:::\n")
        },
    },
    Kind {
        name: "front-matter macros, each used by one formula",
        base: 1000,
        fails: false,
        toml: "",
        // Front matter opens the chapter: no `# C` line before it.
        book: Some(|n| {
            let (names, defs) = numbered_macros(n);
            let uses: String = names
                .iter()
                .enumerate()
                .map(|(i, m)| format!("Use ${m} + {i}$.\n\n"))
                .collect();
            vec![(
                "ch.md".into(),
                format!("---\nmacros:\n{defs}---\n# C\n\n{uses}"),
            )]
        }),
        chapter: |_| String::new(),
    },
    Kind {
        name: "symbol-table rows plus a notation index",
        base: 1000,
        fails: false,
        toml: "",
        book: Some(|n| {
            vec![
                ("ch.md".into(), format!("# C\n\n{}", symbol_table(n))),
                ("notation.md".into(), NOTATION_PAGE.into()),
            ]
        }),
        chapter: |_| String::new(),
    },
    Kind {
        name: "chapters giving one glyph another meaning each, plus a notation index",
        base: 100,
        fails: false,
        toml: "",
        book: Some(|n| {
            let mut pages: Vec<(String, String)> = (0..n)
                .map(|i| {
                    (
                        format!("ch{i}.md"),
                        format!("# C{i}\n\n:::{{symbol-table}} S\n---\n- {{id: s{i}, tex: '\\sigma', read: sigma, meaning: Meaning {i}}}\n---\n:::\n\n:::{{math}}\n:inspect: true\n\\sigma\n:::\n"),
                    )
                })
                .collect();
            pages.push(("notation.md".into(), NOTATION_PAGE.into()));
            pages
        }),
        chapter: |_| String::new(),
    },
    Kind {
        name: "chapters with a header (module number, prerequisites)",
        base: 100,
        fails: false,
        toml: "",
        book: Some(|n| {
            (0..n)
                .map(|i| {
                    (
                        format!("ch{i}.md"),
                        format!("---\nmodule: {}\ntitle: Chapter {i}\ntime: 1 hour\nprerequisites: [{}]\n---\nText $x_{{{i}}}$.\n", i + 1, i.max(1)),
                    )
                })
                .collect()
        }),
        chapter: |_| String::new(),
    },
    Kind {
        name: "book macros, each used after a `\\newcommand` on a MathJax page",
        base: 500,
        fails: false,
        toml: "delimiters = \"mathjax\"\n",
        book: Some(|n| {
            // The book's macros in front matter (the same options as a macros file).
            let (names, defs) = numbered_macros(n);
            let uses: String = names
                .iter()
                .enumerate()
                .map(|(i, m)| format!("Use \\\\({m} + \\pg + {i}\\\\).\n\n"))
                .collect();
            vec![(
                "ch.md".into(),
                format!("---\nmacros:\n{defs}---\n# C\n\nDefine \\\\(\\newcommand{{\\pg}}{{p}}\\pg\\\\).\n\n{uses}"),
            )]
        }),
        chapter: |_| String::new(),
    },
    Kind {
        name: "objectives and prerequisites of one chapter header",
        base: 1000,
        fails: false,
        toml: "",
        book: Some(|n| {
            let items = |word: &str, letter: char| -> String {
                (0..n)
                    .map(|i| format!("  - {word} {i} ${letter}_{{{i}}}$\n"))
                    .collect()
            };
            vec![(
                "ch.md".into(),
                format!(
                    "---\ntitle: T\nmodule: 1\nprerequisites:\n{}objectives:\n{}---\nText.\n",
                    items("Item", 'p'),
                    items("Do", 'o')
                ),
            )]
        }),
        chapter: |_| String::new(),
    },
    Kind {
        name: "symbol-table rows giving one glyph n meanings, plus a notation index",
        base: 500,
        fails: false,
        toml: "",
        book: Some(|n| {
            let rows: String = (0..n)
                .map(|i| format!("- {{id: s{i}, tex: '\\sigma', read: sigma, meaning: Meaning {i}, overloaded: true}}\n"))
                .collect();
            vec![
                (
                    "ch.md".into(),
                    format!("# C\n\n:::{{symbol-table}} All\n---\n{rows}---\n:::\n"),
                ),
                ("notation.md".into(), NOTATION_PAGE.into()),
            ]
        }),
        chapter: |_| String::new(),
    },
    Kind {
        name: "formula cards, each defining the same glyph",
        base: 300,
        fails: false,
        toml: "",
        book: None,
        chapter: |n| {
            (0..n)
                .map(|i| format!(":::{{formula}} F{i}\n---\ntex: \\theta + {i}\nwhere:\n  - {{id: th{i}, tex: '\\theta', name: theta, meaning: The angle}}\n---\nT.\n:::\n\n"))
                .collect()
        },
    },
];

/// A generated notation page.
const NOTATION_PAGE: &str = "# Notation\n\n:::{notation-index}\n:::\n";

/// `n` macro names (`\ma`, `\mb`, …) and their front-matter `macros:` entries, each
/// `x_{i}`.
fn numbered_macros(n: usize) -> (Vec<String>, String) {
    let names: Vec<String> = (0..n).map(|i| format!("\\m{}", letters(i))).collect();
    let defs = names
        .iter()
        .enumerate()
        .map(|(i, m)| format!("  '{m}': 'x_{{{i}}}'\n"))
        .collect();
    (names, defs)
}

/// `i` in base 26, as letters (`a`, `b`, …, `ba`, …): a macro name per item.
fn letters(mut i: usize) -> String {
    let mut s = String::new();
    loop {
        s.push((b'a' + (i % 26) as u8) as char);
        i /= 26;
        if i == 0 {
            return s;
        }
    }
}

/// A symbol table of `n` rows.
fn symbol_table(n: usize) -> String {
    let rows: String = (0..n)
        .map(|i| format!("- {{id: s{i}, tex: 'a_{{{i}}}', read: a {i}, meaning: Value {i}}}\n"))
        .collect();
    format!(":::{{symbol-table}} All\n---\n{rows}---\n:::\n\n")
}

/// Each [`KINDS`] at 1×, 2×, 4× and 8×: the preprocessor's time per item (flat means
/// linear), and the whole build's. A Markdown table.
fn measure_kinds(bin: &Path, target: &Path, only: &str) -> Result<(String, Growth)> {
    let mut rows = String::new();
    let mut growth = Growth {
        worst: 0.0,
        kind: String::new(),
    };
    for (k, kind) in KINDS.iter().enumerate() {
        if !kind.name.contains(only) {
            continue;
        }
        let mut cells = Vec::new();
        let mut builds = Vec::new();
        let mut per_item = Vec::new();
        for factor in [1, 2, 4, 8] {
            let n = kind.base * factor;
            let dir = target.join(format!("bench/kind-{k}-{factor}"));
            if dir.exists() {
                fs::remove_dir_all(&dir)?;
            }
            fs::create_dir_all(dir.join("src"))?;
            fs::write(
                dir.join("book.toml"),
                format!(
                    "[book]\ntitle = \"Kinds\"\n\n[preprocessor.mathcourse]\n{}\n[output.html]\n",
                    kind.toml
                ),
            )?;
            let pages = match kind.book {
                Some(book) => book(n),
                None => vec![("ch.md".to_string(), format!("# C\n\n{}", (kind.chapter)(n)))],
            };
            let mut summary = String::from("# Summary\n\n");
            for (file, text) in &pages {
                summary.push_str(&format!("- [{file}]({file})\n"));
                fs::write(dir.join("src").join(file), text)?;
            }
            fs::write(dir.join("src/SUMMARY.md"), summary)?;
            eprintln!("xtask: scaling by kind: {} × {n}", kind.name);
            let run = build_allowing(&dir, bin, kind.fails)?;
            per_item.push(run.pre_cpu_s / n as f64);
            cells.push(format!(
                "{:.2} s, **{:.0} µs**",
                run.pre_cpu_s,
                run.pre_cpu_s * 1e6 / n as f64
            ));
            builds.push(format!(
                "{:.0}/{:.0}",
                run.pre_s * 1e6 / n as f64,
                run.build_s * 1e6 / n as f64
            ));
        }
        let ratio = per_item[per_item.len() - 1] / per_item[0];
        if ratio > growth.worst {
            growth = Growth {
                worst: ratio,
                kind: kind.name.to_string(),
            };
        }
        writeln!(
            rows,
            "| {} | {} | {} | {} |",
            kind.name,
            kind.base,
            cells.join(" | "),
            builds.join(", ")
        )?;
    }
    let text = format!(
        "### Per input kind\n\nOne chapter holding n items of one kind (a book of n chapters where the items are chapters), at 1×, 2×, 4× and 8× (n = the base times that), built cold with `mdbook build` (books the items make fail still count: the preprocessor writes its stats before it stops). Each cell: the preprocessor's CPU time (all threads, user + system, from `getrusage` at exit: reading the book, processing it, printing its diagnostics, writing it back) and, in bold, that time per item; a flat per-item cost means linear growth. CPU time is shown because the wall clock of this shared machine moves with other work (and with `fsync` of the cache). Last column: wall-clock µs per item of our process / of the whole build, at 1×, 2×, 4× and 8×.\n\n\
         | input | base | 1× | 2× | 4× | 8× | wall µs/item, ours/build (1×, 2×, 4×, 8×) |\n|---|---:|---:|---:|---:|---:|---|\n{rows}"
    );
    Ok((text, growth))
}

/// `cargo xtask bench-scale`: measure and write the section into BENCHMARKS.md. With
/// `--kind TEXT`: only the input kinds whose name holds TEXT, printed (BENCHMARKS.md is
/// left as it is).
pub fn run(args: &[String]) -> Result<()> {
    if let Some(at) = args.iter().position(|a| a == "--kind") {
        let Some(only) = args.get(at + 1) else {
            bail!("--kind needs a text (part of an input kind's name)");
        };
        let root = repo_root();
        ensure_mdbook()?;
        let bin = crate::util::release_preprocessor(&root)?;
        let (rows, _) = measure_kinds(&bin, &crate::util::target_dir(&root), only)?;
        println!("{rows}");
        return Ok(());
    }
    let (section, _) = measure()?;
    println!("{section}");
    let path = repo_root().join("BENCHMARKS.md");
    let text = fs::read_to_string(&path).unwrap_or_default();
    fs::write(&path, splice_section(&text, HEADING, &section))?;
    Ok(())
}
