//! `cargo xtask package`: proof that what would be published to crates.io works.
//!
//! 1. The manifests: the four published crates share the workspace's version, require
//!    each other at exactly that version, and every other crate says `publish = false`.
//! 2. `cargo package` of the four crates, in publish order, each one verified by cargo
//!    (unpacked and built against the packages of the ones before it). The sizes of the
//!    `.crate` files are printed.
//! 3. The `mdbook-mathcourse` `.crate` and its siblings' are unpacked into a temporary
//!    folder outside the repository and the binary is built there from the packages
//!    alone (offline, with the packaged `Cargo.lock`; the siblings through a `[patch]` on
//!    their unpacked folders, as crates.io would serve them).
//! 4. That binary and the repository's own debug binary each run `init` and build the
//!    `init` book and the course book in `book/` with the real `mdbook` CLI; the files
//!    `init` writes and every file of both built books must be byte-identical.
//!
//! The package build has its own target folder (`target/package-check/`): cargo's
//! verification builds binaries into the target folder it is given, which must not
//! replace the repository's `target/debug/mdbook-mathcourse`.

use std::collections::BTreeMap;
use std::fs;
use std::path::{Path, PathBuf};
use std::process::Command;

use anyhow::{bail, Context, Result};
use serde_json::Value;

use crate::util::{ensure_mdbook, repo_root, run_in, target_dir};

/// The published crates, in the order they must be uploaded (each after the crates it
/// depends on).
pub const PUBLISH_ORDER: [&str; 4] = [
    "mathcourse-core",
    "mathcourse-tex",
    "mathcourse-widgets",
    "mdbook-mathcourse",
];

/// Debug info for the package builds. A packaged crate is built as its own workspace, so
/// our `[profile.dev]` does not reach it; with cargo's default (full debug info for every
/// dependency) this folder alone took 6.5 GB, and CI once ran out of disk.
const DEBUG_INFO: &str = "false";

/// `cargo xtask package`.
pub fn run() -> Result<()> {
    let root = repo_root();
    ensure_mdbook()?;
    let version = check_manifests(&root)?;
    let check_target = target_dir(&root).join("package-check");
    let crates = package(&root, &check_target, &version)?;

    // Unpack into a folder that shares nothing with the repository.
    let scratch = std::env::temp_dir().join(format!("mathcourse-package-{}", std::process::id()));
    let result = build_and_compare(&root, &check_target, &scratch, &crates, &version);
    let _ = fs::remove_dir_all(&scratch);
    result?;
    eprintln!("xtask: the packaged mdbook-mathcourse {version} builds from its .crate alone and builds both books byte for byte like the repository's binary");
    Ok(())
}

/// Checks the manifests; returns the workspace version.
fn check_manifests(root: &Path) -> Result<String> {
    let out = Command::new("cargo")
        .args(["metadata", "--format-version", "1", "--no-deps", "--locked"])
        .current_dir(root)
        .output()
        .context("could not run cargo metadata")?;
    if !out.status.success() {
        bail!(
            "cargo metadata failed:\n{}",
            String::from_utf8_lossy(&out.stderr)
        );
    }
    let meta: Value = serde_json::from_slice(&out.stdout)?;
    let packages = meta["packages"].as_array().context("no packages")?;
    let mut problems = Vec::new();
    let version = packages
        .iter()
        .find(|p| p["name"] == "mdbook-mathcourse")
        .and_then(|p| p["version"].as_str())
        .context("no mdbook-mathcourse package")?
        .to_string();
    for p in packages {
        let name = p["name"].as_str().unwrap_or_default();
        // `publish = false` is `"publish": []` in cargo's metadata.
        let unpublished = p["publish"].as_array().is_some_and(Vec::is_empty);
        if !PUBLISH_ORDER.contains(&name) {
            if !unpublished {
                problems.push(format!(
                    "{name}: not a published crate, so `publish = false`"
                ));
            }
            continue;
        }
        if unpublished {
            problems.push(format!("{name}: is published, but says `publish = false`"));
        }
        if p["version"] != version.as_str() {
            problems.push(format!(
                "{name}: version {} (mdbook-mathcourse: {version})",
                p["version"]
            ));
        }
        for field in ["description", "license", "repository", "readme"] {
            if p[field].as_str().is_none_or(str::is_empty) {
                problems.push(format!("{name}: no `{field}`"));
            }
        }
        for field in ["keywords", "categories"] {
            if p[field].as_array().is_none_or(Vec::is_empty) {
                problems.push(format!("{name}: no `{field}`"));
            }
        }
        for dep in p["dependencies"].as_array().into_iter().flatten() {
            let dep_name = dep["name"].as_str().unwrap_or_default();
            let normal = dep["kind"].is_null();
            if normal && PUBLISH_ORDER.contains(&dep_name) {
                let req = dep["req"].as_str().unwrap_or_default();
                if req != format!("={version}") {
                    problems.push(format!(
                        "{name}: requires {dep_name} `{req}`, not `={version}` (the crates are released together)"
                    ));
                }
                let position = |n: &str| PUBLISH_ORDER.iter().position(|p| *p == n);
                if position(dep_name) >= position(name) {
                    problems.push(format!("{name}: depends on {dep_name}, published after it"));
                }
            }
        }
    }
    if !problems.is_empty() {
        bail!(
            "the manifests are not ready to publish:\n  {}\n  help: see README.md, \"Releasing\"",
            problems.join("\n  ")
        );
    }
    Ok(version)
}

/// `cargo package` of the published crates (verified by cargo); returns the `.crate`
/// files by crate name.
fn package(root: &Path, check_target: &Path, version: &str) -> Result<BTreeMap<String, PathBuf>> {
    // `--allow-dirty`: what is tested is the working tree, committed or not.
    let mut args = vec!["package", "--locked", "--allow-dirty"];
    for name in PUBLISH_ORDER {
        args.extend(["-p", name]);
    }
    eprintln!(
        "xtask: $ cargo {}   (target folder {})",
        args.join(" "),
        check_target.display()
    );
    let status = Command::new("cargo")
        .args(&args)
        .current_dir(root)
        .env("CARGO_TARGET_DIR", check_target)
        .env("CARGO_PROFILE_DEV_DEBUG", DEBUG_INFO)
        .status()
        .context("could not run cargo package")?;
    if !status.success() {
        bail!("`cargo {}` failed", args.join(" "));
    }
    let mut crates = BTreeMap::new();
    eprintln!("xtask: package sizes (publish order):");
    for name in PUBLISH_ORDER {
        let file = check_target
            .join("package")
            .join(format!("{name}-{version}.crate"));
        let size = fs::metadata(&file)
            .with_context(|| format!("{} is missing", file.display()))?
            .len();
        eprintln!(
            "xtask:   {name:<20} {:>8.1} KiB compressed",
            size as f64 / 1024.0
        );
        crates.insert(name.to_string(), file);
    }
    Ok(crates)
}

/// The two books one binary built: `init`'s book and a copy of the course book.
struct Books {
    init: PathBuf,
    course: PathBuf,
}

/// Unpacks the `.crate` files into `scratch`, builds the packaged binary there, and
/// checks that it and the repository's binary write the same books.
fn build_and_compare(
    root: &Path,
    check_target: &Path,
    scratch: &Path,
    crates: &BTreeMap<String, PathBuf>,
    version: &str,
) -> Result<()> {
    unpack(crates, scratch)?;
    let packaged = build_packaged(
        check_target,
        &scratch.join(format!("mdbook-mathcourse-{version}")),
        version,
    )?;
    let ours = build_repository_binary(root)?;
    // The same `init`, the same books.
    let packaged_books = build_books(root, scratch, "packaged", &packaged)?;
    let our_books = build_books(root, scratch, "repository", &ours)?;
    compare_books(&packaged_books, &our_books)
}

/// Each `.crate` file unpacked into a fresh `scratch` folder.
fn unpack(crates: &BTreeMap<String, PathBuf>, scratch: &Path) -> Result<()> {
    let _ = fs::remove_dir_all(scratch);
    fs::create_dir_all(scratch)?;
    for file in crates.values() {
        let status = Command::new("tar")
            .arg("-xzf")
            .arg(file)
            .current_dir(scratch)
            .status()
            .context("could not run tar")?;
        if !status.success() {
            bail!("could not unpack {}", file.display());
        }
    }
    Ok(())
}

/// Builds the binary of the unpacked package in `dir` (offline, the siblings patched to
/// their unpacked folders) into `check_target`; returns the folder holding it.
fn build_packaged(check_target: &Path, dir: &Path, version: &str) -> Result<PathBuf> {
    // Not `--locked`: the [patch] moves the siblings from crates.io to their folders,
    // which the lock file records. Every other line of the packaged lock must stay.
    let packaged_lock = fs::read_to_string(dir.join("Cargo.lock"))?;
    let mut args: Vec<String> = ["build", "--offline", "--bin", "mdbook-mathcourse"]
        .map(String::from)
        .to_vec();
    for sibling in &PUBLISH_ORDER[..3] {
        args.push("--config".into());
        args.push(format!(
            "patch.crates-io.{sibling}.path=\"../{sibling}-{version}\""
        ));
    }
    eprintln!("xtask: $ cargo {}   (in {})", args.join(" "), dir.display());
    let status = Command::new("cargo")
        .args(&args)
        .current_dir(dir)
        .env("CARGO_TARGET_DIR", check_target)
        .env("CARGO_PROFILE_DEV_DEBUG", DEBUG_INFO)
        .env_remove("CARGO_MANIFEST_DIR")
        .env_remove("CARGO_WORKSPACE_DIR")
        .status()
        .context("could not run cargo build")?;
    if !status.success() {
        bail!("the packaged mdbook-mathcourse does not build from its .crate");
    }
    let used_lock = fs::read_to_string(dir.join("Cargo.lock"))?;
    if siblings_from_paths(&packaged_lock) != used_lock {
        bail!(
            "building the package changed its Cargo.lock beyond the patched siblings:\n--- packaged\n{packaged_lock}\n--- used\n{used_lock}"
        );
    }
    Ok(check_target.join("debug"))
}

/// Builds the repository's own debug binary; returns the folder holding it.
fn build_repository_binary(root: &Path) -> Result<PathBuf> {
    run_in(
        root,
        "cargo",
        &[
            "build",
            "--locked",
            "-p",
            "mdbook-mathcourse",
            "--bin",
            "mdbook-mathcourse",
        ],
    )?;
    Ok(target_dir(root).join("debug"))
}

/// Runs `init` with the binary in `bin` and builds its book and a copy of the course
/// book with it, in `scratch` (folders named after `label`); a warning fails.
fn build_books(root: &Path, scratch: &Path, label: &str, bin: &Path) -> Result<Books> {
    let init = scratch.join(format!("init-{label}"));
    run_bin(bin, &["init".as_ref(), init.as_os_str()])?;
    let course = scratch.join(format!("course-{label}"));
    crate::bench_book::copy_book(&root.join("book"), &course)?;
    for book in [&init, &course] {
        let (_, stderr) = crate::util::mdbook_build(book, bin)?;
        if stderr.contains("WARN") || stderr.contains("ERROR") {
            bail!(
                "{} built with warnings by the {label} binary:\n{stderr}",
                book.display()
            );
        }
    }
    Ok(Books { init, course })
}

/// Fails unless the two binaries wrote the same files (at most 12 differences are
/// listed for each book).
fn compare_books(packaged: &Books, ours: &Books) -> Result<()> {
    let mut differences = Vec::new();
    for ((a, b), what) in [
        (
            (&packaged.init, &ours.init),
            "the init book (sources and output)",
        ),
        ((&packaged.course, &ours.course), "the course book (output)"),
    ] {
        let mut diff = compare_trees(a, b)?;
        if diff.len() > 12 {
            let more = diff.len() - 12;
            diff.truncate(12);
            diff.push(format!("... and {more} more"));
        }
        if !diff.is_empty() {
            differences.push(format!("{what}:\n    {}", diff.join("\n    ")));
        }
    }
    if !differences.is_empty() {
        bail!(
            "the packaged binary's books differ from the repository binary's:\n  {}",
            differences.join("\n  ")
        );
    }
    let files = list_files(&packaged.course.join("book"))?.len();
    eprintln!("xtask: both binaries wrote the same init book and the same course book ({files} output files)");
    Ok(())
}

/// A packaged `Cargo.lock` as it reads once the sibling crates come from path
/// dependencies: their `source` and `checksum` lines go, nothing else changes.
fn siblings_from_paths(lock: &str) -> String {
    let mut out = String::new();
    let mut sibling = false;
    for line in lock.split_inclusive('\n') {
        if line.trim_end() == "[[package]]" {
            sibling = false;
        }
        if let Some(name) = line.strip_prefix("name = ") {
            sibling = PUBLISH_ORDER[..3].contains(&name.trim().trim_matches('"'));
        }
        if sibling && (line.starts_with("source = ") || line.starts_with("checksum = ")) {
            continue;
        }
        out.push_str(line);
    }
    out
}

fn run_bin(bin_dir: &Path, args: &[&std::ffi::OsStr]) -> Result<()> {
    let bin = bin_dir.join("mdbook-mathcourse");
    let out = Command::new(&bin)
        .args(args)
        .output()
        .with_context(|| format!("could not run {}", bin.display()))?;
    if !out.status.success() {
        bail!(
            "{} {:?} failed:\n{}",
            bin.display(),
            args,
            String::from_utf8_lossy(&out.stderr)
        );
    }
    Ok(())
}

/// Every file under `dir`, relative, sorted (the formula cache left out: it is keyed by
/// content and not part of what a reader gets).
fn list_files(dir: &Path) -> Result<Vec<PathBuf>> {
    fn walk(root: &Path, dir: &Path, out: &mut Vec<PathBuf>) -> Result<()> {
        for entry in fs::read_dir(dir).with_context(|| format!("reading {}", dir.display()))? {
            let path = entry?.path();
            if path.file_name().is_some_and(|n| n == ".mathcourse-cache") {
                continue;
            }
            if path.is_dir() {
                walk(root, &path, out)?;
            } else {
                out.push(path.strip_prefix(root)?.to_path_buf());
            }
        }
        Ok(())
    }
    let mut out = Vec::new();
    walk(dir, dir, &mut out)?;
    out.sort();
    Ok(out)
}

/// The differences between two folders: files only in one, files whose bytes differ.
fn compare_trees(a: &Path, b: &Path) -> Result<Vec<String>> {
    let (left, right) = (list_files(a)?, list_files(b)?);
    let mut diff = Vec::new();
    for file in &left {
        if !right.contains(file) {
            diff.push(format!("only from the packaged binary: {}", file.display()));
        } else if fs::read(a.join(file))? != fs::read(b.join(file))? {
            diff.push(format!("differs: {}", file.display()));
        }
    }
    for file in &right {
        if !left.contains(file) {
            diff.push(format!(
                "only from the repository's binary: {}",
                file.display()
            ));
        }
    }
    Ok(diff)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn only_the_siblings_lose_their_source_and_checksum() {
        let lock = "version = 4\n\n[[package]]\nname = \"mathcourse-core\"\nversion = \"0.1.0\"\nsource = \"registry+https://github.com/rust-lang/crates.io-index\"\nchecksum = \"aa\"\n\n[[package]]\nname = \"memchr\"\nversion = \"2.8.3\"\nsource = \"registry+https://github.com/rust-lang/crates.io-index\"\nchecksum = \"bb\"\n\n[[package]]\nname = \"mdbook-mathcourse\"\nversion = \"0.1.0\"\ndependencies = [\n \"mathcourse-core\",\n]\n";
        assert_eq!(
            siblings_from_paths(lock),
            "version = 4\n\n[[package]]\nname = \"mathcourse-core\"\nversion = \"0.1.0\"\n\n[[package]]\nname = \"memchr\"\nversion = \"2.8.3\"\nsource = \"registry+https://github.com/rust-lang/crates.io-index\"\nchecksum = \"bb\"\n\n[[package]]\nname = \"mdbook-mathcourse\"\nversion = \"0.1.0\"\ndependencies = [\n \"mathcourse-core\",\n]\n"
        );
    }

    #[test]
    fn trees_compare_by_name_and_bytes() {
        let dir = std::env::temp_dir().join(format!("xtask-trees-{}", std::process::id()));
        let (a, b) = (dir.join("a"), dir.join("b"));
        for d in [&a, &b] {
            fs::create_dir_all(d.join("sub/.mathcourse-cache")).unwrap();
            fs::write(d.join("same.txt"), "x").unwrap();
            fs::write(
                d.join("sub/.mathcourse-cache/pack"),
                d.to_string_lossy().as_bytes(),
            )
            .unwrap();
        }
        assert!(
            compare_trees(&a, &b).unwrap().is_empty(),
            "the cache is left out"
        );
        fs::write(a.join("sub/page.html"), "1").unwrap();
        fs::write(b.join("sub/page.html"), "2").unwrap();
        fs::write(b.join("extra.js"), "").unwrap();
        let diff = compare_trees(&a, &b).unwrap();
        fs::remove_dir_all(&dir).unwrap();
        assert_eq!(
            diff,
            [
                "differs: sub/page.html",
                "only from the repository's binary: extra.js"
            ]
        );
    }
}
