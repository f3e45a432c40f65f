//! Small process and installation helpers for xtask.

use std::path::{Path, PathBuf};
use std::process::Command;

use anyhow::{bail, Context, Result};

/// The mdBook version the project is built and tested with.
pub const MDBOOK_VERSION: &str = "0.5.4";

/// The repository root (the parent of `xtask/`).
pub fn repo_root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .parent()
        .unwrap()
        .to_path_buf()
}

/// Runs a command in the current folder, failing on a non-zero exit.
pub fn run(program: &str, args: &[&str]) -> Result<()> {
    run_in(&std::env::current_dir()?, program, args)
}

/// Runs a command in `dir`, failing on a non-zero exit.
pub fn run_in(dir: &Path, program: &str, args: &[&str]) -> Result<()> {
    eprintln!("xtask: $ {program} {}", args.join(" "));
    let status = Command::new(program)
        .args(args)
        .current_dir(dir)
        .status()
        .with_context(|| format!("could not start `{program}` (is it installed?)"))?;
    if !status.success() {
        bail!("`{program} {}` failed with {status}", args.join(" "));
    }
    Ok(())
}

/// Output of a command, or `None` when it cannot run.
pub fn output_of(program: &str, args: &[&str]) -> Option<String> {
    let out = Command::new(program).args(args).output().ok()?;
    out.status
        .success()
        .then(|| String::from_utf8_lossy(&out.stdout).to_string())
}

/// Installs the `mdbook` CLI at the pinned version when it is missing or different.
pub fn ensure_mdbook() -> Result<()> {
    let have = output_of("mdbook", &["--version"]).unwrap_or_default();
    if have.trim() == format!("mdbook v{MDBOOK_VERSION}") {
        return Ok(());
    }
    eprintln!(
        "xtask: installing mdbook {MDBOOK_VERSION} (found: {:?})",
        have.trim()
    );
    run(
        "cargo",
        &["install", "mdbook", "--version", MDBOOK_VERSION, "--locked"],
    )
}

/// Installs the tests' npm packages (official KaTeX, ...) from `tests/package-lock.json`.
pub fn ensure_npm_packages() -> Result<()> {
    let tests = repo_root().join("tests");
    let lock = std::fs::read(tests.join("package-lock.json")).unwrap_or_default();
    let stamp = tests.join("node_modules/.xtask-lock");
    if std::fs::read(&stamp).ok().as_deref() == Some(&lock[..]) {
        return Ok(());
    }
    run_in(&tests, "npm", &["ci", "--no-audit", "--no-fund"])?;
    std::fs::write(stamp, lock)?;
    Ok(())
}

/// Builds `book/` with the real `mdbook` CLI and the debug preprocessor binary first on
/// PATH; fails on any warning or error in the output.
pub fn build_book_with_debug_binary(root: &Path) -> Result<()> {
    let bin_dir = root.join("target/debug");
    let path = format!(
        "{}:{}",
        bin_dir.display(),
        std::env::var("PATH").unwrap_or_default()
    );
    eprintln!("xtask: $ mdbook build book   (with target/debug/mdbook-mathcourse)");
    let out = Command::new("mdbook")
        .args(["build", "book"])
        .current_dir(root)
        .env("PATH", path)
        .output()
        .context("could not run mdbook")?;
    let stderr = String::from_utf8_lossy(&out.stderr);
    eprint!("{stderr}");
    if !out.status.success() {
        bail!("the course book failed to build");
    }
    let noisy: Vec<&str> = stderr
        .lines()
        .filter(|l| l.contains("WARN") || l.contains("warning") || l.contains("ERROR"))
        .collect();
    if !noisy.is_empty() {
        bail!("the course book built with warnings:\n{}", noisy.join("\n"));
    }
    Ok(())
}
