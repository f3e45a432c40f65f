//! `mdbook-mathcourse`: the command mdBook runs. A thin shell around the library.

use std::io::{self, IsTerminal, Write};
use std::process::ExitCode;

use clap::{Parser, Subcommand};
use mdbook_mathcourse::diagnostic::{self, Severity};
use mdbook_mathcourse::NAME;

/// `--version`: this binary's version and the mdBook versions it speaks.
const VERSION: &str = concat!(
    env!("CARGO_PKG_VERSION"),
    " (for mdBook 0.4.x and 0.5.x; built against mdBook 0.5)"
);

/// An mdBook preprocessor for interactive math courses.
///
/// mdBook runs it with no arguments and the book as JSON on standard input; it answers
/// with the processed book on standard output. Problems go to standard error.
#[derive(Parser)]
#[command(name = "mdbook-mathcourse", version = VERSION, about)]
struct Cli {
    #[command(subcommand)]
    command: Option<Command>,
}

#[derive(Subcommand)]
enum Command {
    /// Tells mdBook whether a renderer is supported (exit status 0 = yes; nothing is
    /// printed, since mdBook shows what it prints in every build).
    ///
    /// Every renderer is: `html` gets typeset math, widgets and directives; any other
    /// renderer gets plain, readable Markdown. This binary speaks mdBook 0.4.x and 0.5.x
    /// (see `--version`); a book built by another mdBook gets a warning.
    Supports {
        /// The renderer's name, e.g. `html` or `markdown`.
        renderer: String,
    },
    /// Creates a new course book in DIR (default: the current folder) that `mdbook build`
    /// builds at once: book.toml, SUMMARY.md, an example chapter, and a GitHub Pages
    /// workflow. Never overwrites a file.
    Init {
        /// The folder for the new book (created when missing).
        dir: Option<std::path::PathBuf>,
        /// The book's title.
        #[arg(long, default_value = "My math course")]
        title: String,
    },
    /// Rewrites a book written for mdBook's MathJax with single backslashes: every
    /// formula gets the TeX MathJax received, between `\(` `\)` or `$$`; then set
    /// `delimiters = "mdbook-katex"`. Shows what would change unless --write is given.
    ConvertMathjax {
        /// The book's folder (holding book.toml).
        dir: std::path::PathBuf,
        /// Write the converted chapters (otherwise only count).
        #[arg(long)]
        write: bool,
    },
    /// Lists the widgets and their parameters (what `:::{widget} NAME` accepts).
    Widgets {
        /// One widget's name; all widgets when left out.
        name: Option<String>,
    },
}

fn main() -> ExitCode {
    let cli = Cli::parse();
    match cli.command {
        Some(Command::Supports { renderer }) => {
            if mdbook_mathcourse::supports(&renderer) {
                ExitCode::SUCCESS
            } else {
                ExitCode::FAILURE
            }
        }
        Some(Command::Widgets { name }) => widgets(name.as_deref()),
        Some(Command::ConvertMathjax { dir, write }) => convert_mathjax(&dir, write),
        Some(Command::Init { dir, title }) => {
            let dir = dir.unwrap_or_else(|| std::path::PathBuf::from("."));
            match mdbook_mathcourse::init::init(&dir, &title) {
                Ok(written) => {
                    for path in written {
                        println!("created {}", path.display());
                    }
                    println!(
                        "\nBuild it:  mdbook build {0}\nServe it:  mdbook serve {0} --open",
                        dir.display()
                    );
                    ExitCode::SUCCESS
                }
                Err(err) => {
                    eprintln!("error: {err:#}");
                    ExitCode::FAILURE
                }
            }
        }
        None => preprocess(),
    }
}

/// `mdbook-mathcourse convert-mathjax DIR [--write]`.
fn convert_mathjax(dir: &std::path::Path, write: bool) -> ExitCode {
    let run = || -> anyhow::Result<()> {
        let rules = mdbook_mathcourse::theme_mathjax_rules(dir)?;
        let config = mdbook_preprocessor::config::Config::from_disk(dir.join("book.toml"))?;
        let src = dir.join(&config.book.src);
        let mut files = Vec::new();
        let mut stack = vec![src.clone()];
        while let Some(d) = stack.pop() {
            for entry in std::fs::read_dir(&d)? {
                let path = entry?.path();
                if path.is_dir() {
                    stack.push(path);
                } else if path.extension().is_some_and(|e| e == "md") {
                    files.push(path);
                }
            }
        }
        files.sort();
        let (mut formulas, mut changed) = (0, 0);
        for path in &files {
            let text = std::fs::read_to_string(path)?;
            let out = mdbook_mathcourse::mathjax::convert::chapter(&text, &rules);
            formulas += out.formulas;
            // Lines counted on from the last kept formula (`kept` is in source order), not
            // from the start of the chapter for each.
            let (mut counted, mut newlines) = (0, 0);
            for r in &out.kept {
                newlines += text[counted..r.start].matches('\n').count();
                counted = r.start;
                let line = newlines + 1;
                println!(
                    "{}:{line}: kept as written (its TeX holds a `$`)",
                    path.display()
                );
            }
            if out.text != text {
                changed += 1;
                if write {
                    std::fs::write(path, &out.text)?;
                }
            }
        }
        println!(
            "{formulas} formulas in {changed} of {} Markdown files {}",
            files.len(),
            if write {
                "rewritten"
            } else {
                "would be rewritten (run again with --write)"
            }
        );
        if write {
            println!("now, in book.toml: remove `mathjax-support = true` and set `delimiters = \"mdbook-katex\"` under [preprocessor.mathcourse]; a `\\newcommand` in a formula holds only in that formula from now on: move such definitions to the book's `macros`");
        }
        Ok(())
    };
    match run() {
        Ok(()) => ExitCode::SUCCESS,
        Err(err) => {
            eprintln!("error: {err:#}");
            ExitCode::FAILURE
        }
    }
}

/// `mdbook-mathcourse widgets [NAME]`: the widget catalog as text.
fn widgets(name: Option<&str>) -> ExitCode {
    let catalog = mathcourse_widgets::CATALOG;
    let chosen: Vec<_> = catalog
        .iter()
        .filter(|(n, _, _)| name.is_none_or(|want| *n == want))
        .collect();
    if chosen.is_empty() {
        let names: Vec<&str> = catalog.iter().map(|(n, _, _)| *n).collect();
        eprintln!(
            "error: no widget is called `{}`\n  help: the widgets are: {}",
            name.unwrap_or_default(),
            names.join(", ")
        );
        return ExitCode::FAILURE;
    }
    let mut out = String::new();
    for (widget, summary, params) in chosen {
        out.push_str(&format!(":::{{widget}} {widget}\n  {summary}\n"));
        let width = params.iter().map(|(p, _, _)| p.len()).max().unwrap_or(0);
        for (param, kind, meaning) in params.iter() {
            out.push_str(&format!("    {param:<width$}  {kind}: {meaning}\n"));
        }
        out.push('\n');
    }
    out.push_str("Options go after the opening line as `:key: value` lines or YAML between two `---` lines; the body is the caption.\n");
    print!("{out}");
    ExitCode::SUCCESS
}

fn preprocess() -> ExitCode {
    // For the benchmarks' stats: the whole run, from reading the book to writing it.
    let started = std::time::Instant::now();
    keep_freed_memory();
    let color = io::stderr().is_terminal();
    let mut input = String::new();
    if let Err(err) = io::Read::read_to_string(&mut io::stdin(), &mut input) {
        eprintln!("error: {NAME}: could not read the book from standard input: {err}");
        return ExitCode::FAILURE;
    }
    let (ctx, book, protocol) = match mdbook_mathcourse::protocol::read(&input) {
        Ok(input) => input,
        Err(err) => {
            eprintln!("error: {NAME}: {err:#}\n  help: this command is run by `mdbook build` (mdBook 0.4 or 0.5); it reads a book as JSON on standard input");
            return ExitCode::FAILURE;
        }
    };
    drop(input);
    if !mdbook_mathcourse::protocol::speaks(&ctx.mdbook_version, protocol) {
        eprintln!(
            "warning: {NAME} {} speaks {}, but this book is built by mdBook {}; the build may fail or lose content\n  help: use an mdBook of those versions, or a {NAME} release made for yours",
            env!("CARGO_PKG_VERSION"),
            mdbook_mathcourse::protocol::SPEAKS,
            ctx.mdbook_version
        );
    }
    let mut outcome = match mdbook_mathcourse::process(&ctx, book) {
        Ok(outcome) => outcome,
        Err(err) => {
            eprintln!("error: {NAME}: {err:#}");
            return ExitCode::FAILURE;
        }
    };
    // With a second renderer, the HTML run says the warnings; this one only errors.
    let quiet = mdbook_mathcourse::warnings_said_by_the_html_run(&ctx);
    for w in outcome.config_warnings.iter().filter(|_| !quiet) {
        eprintln!("warning: [preprocessor.{NAME}] {w}");
    }
    let errors = outcome
        .diagnostics
        .iter()
        .filter(|d| d.severity == Severity::Error)
        .count();
    let said: Vec<_> = outcome
        .diagnostics
        .iter()
        .filter(|d| d.severity == Severity::Error || !quiet)
        .cloned()
        .collect();
    if !said.is_empty() {
        eprint!("{}", diagnostic::render_all(&said, color));
    }
    if errors > 0 && mdbook_mathcourse::serve::serving(&ctx.config) {
        eprintln!("warning: {NAME}: the errors above are shown at the top of their pages; `mdbook build` fails until they are fixed");
        mdbook_mathcourse::serve::show_errors_in_pages(
            &mut outcome.book,
            &outcome.diagnostics,
            &ctx.config.book.src,
        );
    } else if errors > 0 {
        eprintln!(
            "error: {NAME}: {errors} error{} in the book's sources; the book was not built",
            if errors == 1 { "" } else { "s" }
        );
        write_stats(&outcome.stats, started.elapsed());
        return ExitCode::FAILURE;
    }
    // Buffered in large blocks, straight to the file descriptor: stdout alone is a
    // `LineWriter`, which scans every chunk for newlines and writes often.
    let raw: Box<dyn Write> = stdout_file().unwrap_or_else(|| Box::new(io::stdout().lock()));
    let mut out = io::BufWriter::with_capacity(1 << 20, raw);
    if let Err(err) = mdbook_mathcourse::protocol::write_to(&outcome.book, protocol, &mut out)
        .map_err(io::Error::other)
        .and_then(|_| out.flush())
    {
        eprintln!("error: {NAME}: could not write the book to standard output: {err}");
        return ExitCode::FAILURE;
    }
    drop(out);
    write_stats(&outcome.stats, started.elapsed());
    ExitCode::SUCCESS
}

/// For `cargo xtask bench-scale` and `bench-book`: with `MDBOOK_MATHCOURSE_STATS=<file>`
/// set, appends one JSON line with this run's time (reading the book, processing it,
/// writing it back), peak memory (Linux `VmHWM`) and counts to that file.
fn write_stats(stats: &mdbook_mathcourse::RunStats, took: std::time::Duration) {
    let Some(path) = std::env::var_os("MDBOOK_MATHCOURSE_STATS") else {
        return;
    };
    let peak_kb = std::fs::read_to_string("/proc/self/status")
        .ok()
        .and_then(|s| {
            s.lines()
                .find_map(|l| l.strip_prefix("VmHWM:"))
                .and_then(|v| v.trim().trim_end_matches("kB").trim().parse::<u64>().ok())
        })
        .unwrap_or(0);
    let cpu = cpu_seconds();
    let line = format!(
        "{{\"seconds\":{},\"cpu_seconds\":{cpu},\"peak_kb\":{peak_kb},\"chapters\":{},\"formulas\":{}}}\n",
        took.as_secs_f64(),
        stats.chapters,
        stats.cache_hits + stats.cache_misses
    );
    let _ = std::fs::OpenOptions::new()
        .create(true)
        .append(true)
        .open(path)
        .and_then(|mut f| f.write_all(line.as_bytes()));
}

/// CPU time of every thread of this process so far (user + system; `getrusage`, in
/// microseconds): unlike the wall clock, barely moved by other work on the machine.
fn cpu_seconds() -> f64 {
    #[cfg(unix)]
    {
        // SAFETY: `getrusage` only writes the `rusage` it is given, which lives here.
        let mut usage: libc::rusage = unsafe { std::mem::zeroed() };
        if unsafe { libc::getrusage(libc::RUSAGE_SELF, &mut usage) } == 0 {
            let secs = |t: libc::timeval| t.tv_sec as f64 + t.tv_usec as f64 / 1e6;
            return secs(usage.ru_utime) + secs(usage.ru_stime);
        }
    }
    f64::NAN
}

/// A run is short and allocates its largest blocks (the book read, packs, chapters
/// written back) in every thread: glibc would hand each block over 128 KiB to `mmap`
/// and give freed memory back to the system, so the next block faults in fresh pages
/// again. Keep such blocks in the heap and freed memory in the process instead: about
/// a tenth of a warm run was page faults. (The process ends right after; its peak
/// memory barely moves.)
fn keep_freed_memory() {
    #[cfg(all(target_os = "linux", target_env = "gnu"))]
    {
        const LARGE: libc::c_int = 256 << 20;
        // SAFETY: `mallopt` only sets allocator parameters; it is called before any
        // other thread exists.
        unsafe {
            libc::mallopt(libc::M_MMAP_THRESHOLD, LARGE);
            libc::mallopt(libc::M_TRIM_THRESHOLD, LARGE);
        }
    }
}

/// Standard output as a plain file (a duplicate of its descriptor), without the line
/// buffering of `io::stdout()`.
fn stdout_file() -> Option<Box<dyn Write>> {
    #[cfg(unix)]
    {
        use std::os::fd::AsFd;
        let fd = io::stdout().as_fd().try_clone_to_owned().ok()?;
        Some(Box::new(std::fs::File::from(fd)))
    }
    #[cfg(not(unix))]
    None
}
