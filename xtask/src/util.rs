//! Small process and installation helpers for xtask.

use std::path::{Path, PathBuf};
use std::process::Command;

use anyhow::{bail, Context, Result};

/// The mdBook version the project is built and tested with.
pub const MDBOOK_VERSION: &str = "0.5.4";

/// The repository root (the parent of `xtask/`). Read when xtask runs (`cargo run` sets
/// `CARGO_MANIFEST_DIR`), not when it was compiled: two checkouts sharing one target dir
/// reuse one xtask binary, which must work on the checkout it is run from.
pub fn repo_root() -> PathBuf {
    let manifest = std::env::var_os("CARGO_MANIFEST_DIR")
        .map_or_else(|| PathBuf::from(env!("CARGO_MANIFEST_DIR")), PathBuf::from);
    manifest.parent().unwrap_or(Path::new(".")).to_path_buf()
}

/// Every file under `dir` whose extension is `ext` (`"html"`), in no particular order;
/// a folder that cannot be read adds nothing.
pub fn files_with_extension(dir: &Path, ext: &str) -> Vec<PathBuf> {
    let mut out = Vec::new();
    let Ok(entries) = std::fs::read_dir(dir) else {
        return out;
    };
    for e in entries.flatten() {
        let p = e.path();
        if p.is_dir() {
            out.extend(files_with_extension(&p, ext));
        } else if p.extension().is_some_and(|x| x == ext) {
            out.push(p);
        }
    }
    out
}

/// A goal's status in the benchmark reports: "**met**" or "**not met**".
pub fn met(ok: bool) -> &'static str {
    if ok {
        "**met**"
    } else {
        "**not met**"
    }
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

/// The mdBook 0.4 release the protocol test builds a book with.
pub const MDBOOK_04: &str = "0.4.52";

/// Installs mdBook [`MDBOOK_04`] into `target/mdbook-<version>/` (not on the PATH: the
/// course book is built with 0.5) when it is missing.
pub fn ensure_mdbook_04() -> Result<()> {
    let root = repo_root()
        .join("target")
        .join(format!("mdbook-{MDBOOK_04}"));
    if root.join("bin/mdbook").is_file() {
        return Ok(());
    }
    eprintln!(
        "xtask: installing mdbook {MDBOOK_04} into {}",
        root.display()
    );
    let root = root.to_string_lossy().to_string();
    run(
        "cargo",
        &[
            "install",
            "mdbook",
            "--version",
            MDBOOK_04,
            "--locked",
            "--no-default-features",
            "--root",
            &root,
        ],
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

/// Marker in BENCHMARKS.md: `cargo xtask bench` rewrites everything above it, the other
/// benchmark commands own one `## ` section each below it.
pub const MORE_BENCHMARKS: &str = "<!-- more benchmarks below -->";

/// `text` with the section starting at `heading` (up to the next `## ` heading) replaced
/// by `section`, or `section` appended after the other sections when it is new.
pub fn splice_section(text: &str, heading: &str, section: &str) -> String {
    let (head, tail) = match text.find(MORE_BENCHMARKS) {
        Some(i) => (
            text[..i + MORE_BENCHMARKS.len()].to_string(),
            &text[i + MORE_BENCHMARKS.len()..],
        ),
        None => (format!("{}\n\n{MORE_BENCHMARKS}", text.trim_end()), ""),
    };
    let mut sections: Vec<String> = Vec::new();
    for part in tail.split("\n## ").map(str::trim) {
        if part.is_empty() {
            continue;
        }
        let part = if part.starts_with("## ") {
            part.to_string()
        } else {
            format!("## {part}")
        };
        sections.push(part);
    }
    let new = section.trim().to_string();
    match sections
        .iter()
        .position(|s| s.lines().next() == Some(heading))
    {
        Some(i) => sections[i] = new,
        None => sections.push(new),
    }
    format!("{head}\n\n{}\n", sections.join("\n\n"))
}

/// The target folder (`CARGO_TARGET_DIR`, relative to the repository when relative).
pub fn target_dir(root: &Path) -> PathBuf {
    std::env::var_os("CARGO_TARGET_DIR")
        .map(PathBuf::from)
        .map(|p| if p.is_absolute() { p } else { root.join(p) })
        .unwrap_or_else(|| root.join("target"))
}

/// Builds the release `mdbook-mathcourse` binary (for benchmarks); returns its folder,
/// to put first on `PATH`.
pub fn release_preprocessor(root: &Path) -> Result<PathBuf> {
    run_in(
        root,
        "cargo",
        &[
            "build",
            "--release",
            "-p",
            "mdbook-mathcourse",
            "--bin",
            "mdbook-mathcourse",
        ],
    )?;
    Ok(target_dir(root).join("release"))
}

/// One `mdbook build` with `bin` first on PATH: seconds and stderr. Fails when the build does.
pub fn mdbook_build(book: &Path, bin: &Path) -> Result<(f64, String)> {
    let path = format!(
        "{}:{}",
        bin.display(),
        std::env::var("PATH").unwrap_or_default()
    );
    let start = std::time::Instant::now();
    let out = Command::new("mdbook")
        .arg("build")
        .current_dir(book)
        .env("PATH", path)
        .output()
        .context("could not run mdbook")?;
    let seconds = start.elapsed().as_secs_f64();
    let stderr = String::from_utf8_lossy(&out.stderr).to_string();
    if !out.status.success() {
        bail!("mdbook build failed in {}:\n{stderr}", book.display());
    }
    Ok((seconds, stderr))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn splice_section_replaces_or_appends() {
        let text = "# B\n\nold\n\n<!-- more benchmarks below -->\n\n## Widgets\n\nw\n\n## Course book\n\nold c\n";
        let out = splice_section(text, "## Course book", "## Course book\n\nnew c\n");
        assert_eq!(out, "# B\n\nold\n\n<!-- more benchmarks below -->\n\n## Widgets\n\nw\n\n## Course book\n\nnew c\n");
        let out = splice_section("# B\n", "## Course book", "## Course book\n\nc\n");
        assert_eq!(
            out,
            "# B\n\n<!-- more benchmarks below -->\n\n## Course book\n\nc\n"
        );
        let out = splice_section(&out, "## Widgets", "## Widgets\n\nw\n");
        assert!(
            out.ends_with("## Course book\n\nc\n\n## Widgets\n\nw\n"),
            "{out}"
        );
    }
}
