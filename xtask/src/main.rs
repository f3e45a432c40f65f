//! `cargo xtask`: every build chore of the project, in Rust.
//!
//! - `cargo xtask book [--serve]`: install what is missing (the `mdbook` CLI, our
//!   preprocessor) and build the course book in `book/`.
//! - `cargo xtask test`: install what the tests need (npm packages) and run the whole
//!   test suite, including a build of the course book with the real `mdbook` CLI.
//! - `cargo xtask bench`: measure and write BENCHMARKS.md.
//! - `cargo xtask bench-widgets`: the widget bundle's size and speed in Chromium, as the
//!   "## Widgets" section of BENCHMARKS.md (see [`bench_widgets`]).
//! - `cargo xtask bench-book`: cold and warm builds of the course book, as the
//!   "## Course book" section of BENCHMARKS.md (see [`bench_book`]).
//! - `cargo xtask bench-scale`: generated books of 50, 100 and 200 chapters, cold and
//!   warm: time and peak memory per formula (see [`bench_scale`]); also run by `bench`.
//!   `--kind TEXT` measures only the input kinds whose name holds TEXT and prints them.
//! - `cargo xtask bench-cold`: cold builds of the real books of `../shared/corpus`, ours
//!   against mdbook-katex, interleaved: CPU, wall clock and peak memory (see [`bench_cold`]).
//! - `cargo xtask fuzz [--time SECONDS]`: the stable-Rust fuzzer over the scanner, the
//!   directive and option parsers, symbol tagging and whole chapters (see [`fuzz`]).
//! - `cargo xtask compat [--debug] [--vs-katex] [BOOK_DIR...]`: real mdbook-katex books
//!   built with only their header renamed, every formula compared with what mdbook-katex
//!   typesets (see [`compat`]).
//! - `cargo xtask package`: `cargo package` the four published crates, build the binary
//!   from its `.crate` alone and check that it builds the `init` book and the course book
//!   byte for byte like the repository's binary (see [`package`]).
//! - `cargo xtask wasm [--check]`: build the widget bundle into `preprocessor/theme/widgets/` (see
//!   [`wasm`]); `--check` fails when the committed bundle is stale.

mod bench;
mod bench_book;
mod bench_cold;
mod bench_scale;
mod bench_widgets;
mod compat;
mod fuzz;
mod package;
mod system;
mod util;
mod wasm;

use anyhow::{bail, Result};

use crate::util::{ensure_mdbook, ensure_npm_packages, repo_root, run_in};

fn main() -> Result<()> {
    let args: Vec<String> = std::env::args().skip(1).collect();
    match args.first().map(String::as_str) {
        Some("book") => book(args.iter().any(|a| a == "--serve")),
        Some("test") => test(),
        Some("bench") => bench::run(&args[1..]),
        Some("wasm") => wasm::run(&args[1..]),
        Some("bench-widgets") => bench_widgets::write(),
        Some("bench-book") => bench_book::run(),
        Some("bench-scale") => bench_scale::run(&args[1..]),
        Some("bench-cold") => bench_cold::run(),
        Some("fuzz") => fuzz::run(&args[1..]),
        Some("compat") => compat::run(&args[1..]),
        Some("package") => package::run(),
        _ => {
            eprintln!(
                "usage: cargo xtask <command>\n\n\
                 commands:\n  \
                 book [--serve]  install mdbook + mdbook-mathcourse, build the course book (book/book/index.html)\n  \
                 test            run the whole test suite\n  \
                 bench           run the benchmarks and write BENCHMARKS.md\n  \
                 bench-widgets   measure the widget bundle (size, events in Chromium) into BENCHMARKS.md\n  \
                 bench-book      time cold and warm builds of the course book into BENCHMARKS.md\n  \
                 bench-scale [--kind TEXT]\n                  \
                 build generated books of 50/100/200 chapters: time and memory per formula\n                  \
                 (--kind: only the input kinds whose name holds TEXT, printed, BENCHMARKS.md untouched)\n  \
                 bench-cold      cold builds of the corpus books, ours against mdbook-katex: CPU, wall, peak memory\n  \
                 fuzz [--time S] fuzz the scanner, parsers, tagging and whole chapters (release; --debug)\n  \
                 compat [--debug] [--vs-katex] [BOOK_DIR...]\n                  \
                 build real mdbook-katex books (default: ../shared/corpus) and compare every formula\n  \
                 package         cargo package the published crates, build the binary from its .crate alone,\n                  \
                 and check it builds the init and course books byte for byte like the repository's\n  \
                 wasm [--check]  build the widget bundle into preprocessor/theme/widgets/ (--check: fail if the committed one is stale)"
            );
            bail!("unknown or missing command");
        }
    }
}

/// Builds the course book with the installed CLI tools, as an author would.
fn book(serve: bool) -> Result<()> {
    let root = repo_root();
    ensure_mdbook()?;
    eprintln!("xtask: installing mdbook-mathcourse from preprocessor/ (cargo install --path)");
    run_in(
        &root,
        "cargo",
        &["install", "--locked", "--quiet", "--path", "preprocessor"],
    )?;
    if serve {
        run_in(
            &root,
            "mdbook",
            &["serve", "book", "--hostname", "127.0.0.1"],
        )?;
        return Ok(());
    }
    run_in(&root, "mdbook", &["build", "book"])?;
    eprintln!(
        "\nxtask: the course book is in {}/book/book/index.html\n       \
         serve it with live reload: mdbook serve book --open   (http://localhost:3000)",
        root.display()
    );
    Ok(())
}

/// The whole test suite: rustfmt and clippy, unit, snapshot, CLI, differential, browser,
/// and a real `mdbook build`.
fn test() -> Result<()> {
    let root = repo_root();
    // What a fresh machine lacks, before anything is built.
    system::ensure_test_tools()?;
    ensure_npm_packages()?;
    ensure_mdbook()?;
    // The protocol test (preprocessor/tests/cli.rs) builds a book with mdBook 0.4 too.
    crate::util::ensure_mdbook_04()?;
    // Formatting and lints first: they fail fastest.
    run_in(&root, "cargo", &["fmt", "--all", "--", "--check"])?;
    run_in(
        &root,
        "cargo",
        &[
            "clippy",
            "--workspace",
            "--all-targets",
            "--locked",
            "--",
            "-D",
            "warnings",
        ],
    )?;
    // The committed widget bundle must be what the sources build.
    wasm::check()?;
    run_in(&root, "cargo", &["test", "--workspace", "--locked"])?;
    // The course book must build with the real CLI and our freshly built binary, with
    // zero warnings.
    run_in(
        &root,
        "cargo",
        &["build", "--locked", "-p", "mdbook-mathcourse"],
    )?;
    util::build_book_with_debug_binary(&root)?;
    // What would be published works: packaged, built from the .crate alone, same books.
    package::run()?;
    // A short fuzz run (debug build, already compiled by the tests): no panic, abort,
    // hang or case over 5 s in any target.
    fuzz::run(&["--debug".into(), "--time".into(), "60".into()])?;
    // Real mdbook-katex books typeset every formula they had (when the corpus is there).
    compat::test()?;
    eprintln!("xtask: all tests passed");
    Ok(())
}
