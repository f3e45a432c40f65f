//! The release archive and the two ways it is installed, run for real on this binary:
//! `.github/release-archive.sh` (what the release workflow attaches), the install step
//! of the Pages workflow `mdbook-mathcourse init` writes (download, SHA-256 check, or
//! `cargo install` when there is no archive), and the `cargo binstall` metadata.
//! Releases are served from a `file://` folder laid out like GitHub's release URLs; a
//! stand-in `cargo` on the PATH records what it is asked to install.

use std::fs;
use std::path::{Path, PathBuf};
use std::process::{Command, Output};

const VERSION: &str = env!("CARGO_PKG_VERSION");

/// This binary without its debug information (a seventh of the size: the archives are
/// made and unpacked several times), in a folder of its own, made once.
fn bin() -> PathBuf {
    static STRIPPED: std::sync::OnceLock<PathBuf> = std::sync::OnceLock::new();
    STRIPPED
        .get_or_init(|| {
            let dir = tempfile::tempdir().unwrap().keep();
            let stripped = dir.join("mdbook-mathcourse");
            let status = Command::new("strip")
                .arg("-o")
                .arg(&stripped)
                .arg(env!("CARGO_BIN_EXE_mdbook-mathcourse"))
                .status()
                .expect("`strip` (binutils)");
            assert!(status.success());
            stripped
        })
        .clone()
}

fn repo() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .parent()
        .unwrap()
        .to_path_buf()
}

/// The machine's Linux target triple, as the workflow computes it.
fn target() -> String {
    let arch = Command::new("uname").arg("-m").output().unwrap();
    format!(
        "{}-unknown-linux-gnu",
        String::from_utf8_lossy(&arch.stdout).trim()
    )
}

/// Runs the release script: returns the archive's path.
fn make_archive(out: &Path) -> PathBuf {
    let script = repo().join(".github/release-archive.sh");
    let made = Command::new("bash")
        .arg(&script)
        .args([VERSION, &target()])
        .arg(bin().parent().unwrap())
        .arg(out)
        .output()
        .unwrap();
    assert!(
        made.status.success(),
        "{}",
        String::from_utf8_lossy(&made.stderr)
    );
    PathBuf::from(String::from_utf8(made.stdout).unwrap().trim())
}

/// The `run: |` block of the workflow step named `step`, dedented.
fn step_script(workflow: &str, step: &str) -> String {
    let start = workflow
        .find(&format!("- name: {step}\n"))
        .unwrap_or_else(|| panic!("no step {step:?}"));
    let mut lines = workflow[start..].lines();
    let run = lines
        .find(|l| l.trim_start().starts_with("run: |"))
        .expect("a run block");
    let indent = run.len() - run.trim_start().len();
    let mut script = String::new();
    for line in lines {
        let own = line.len() - line.trim_start().len();
        if !line.trim().is_empty() && own <= indent {
            break;
        }
        script.push_str(line.get(indent + 2..).unwrap_or(""));
        script.push('\n');
    }
    script
}

struct Sandbox {
    _dir: tempfile::TempDir,
    root: PathBuf,
    releases: PathBuf,
}

impl Sandbox {
    fn new() -> Sandbox {
        let dir = tempfile::tempdir().unwrap();
        let root = dir.path().to_path_buf();
        // A stand-in cargo: logs its arguments; "installs" mdbook-mathcourse by copying
        // this binary (the fallback path), mdbook by doing nothing.
        let fake = root.join("fakebin");
        fs::create_dir_all(&fake).unwrap();
        let cargo = fake.join("cargo");
        fs::write(
            &cargo,
            format!(
                "#!/bin/sh\necho \"$*\" >> \"{log}\"\ncase \"$*\" in\n  *mdbook-mathcourse*) mkdir -p \"$HOME/.book-tools/bin\" && cp \"{bin}\" \"$HOME/.book-tools/bin/\" ;;\nesac\n",
                log = root.join("cargo.log").display(),
                bin = bin().display()
            ),
        )
        .unwrap();
        Command::new("chmod")
            .arg("+x")
            .arg(&cargo)
            .status()
            .unwrap();
        let releases = root.join("releases");
        Sandbox {
            _dir: dir,
            root,
            releases,
        }
    }

    /// Runs the workflow's install step with the workflow's environment.
    fn install(&self) -> Output {
        let workflow = mdbook_mathcourse::init::workflow();
        let script = step_script(&workflow, "Install mdbook and mdbook-mathcourse");
        let home = self.root.join("home");
        fs::create_dir_all(&home).unwrap();
        let path = format!(
            "{}:{}",
            self.root.join("fakebin").display(),
            std::env::var("PATH").unwrap_or_default()
        );
        Command::new("bash")
            .arg("-c")
            .arg(&script)
            .env("HOME", &home)
            .env("PATH", path)
            .env("MDBOOK_VERSION", "0.5.4")
            .env("MATHCOURSE_VERSION", VERSION)
            .env(
                "MATHCOURSE_RELEASES",
                format!("file://{}", self.releases.display()),
            )
            .output()
            .unwrap()
    }

    fn cargo_log(&self) -> String {
        fs::read_to_string(self.root.join("cargo.log")).unwrap_or_default()
    }

    fn installed(&self) -> PathBuf {
        self.root.join("home/.book-tools/bin/mdbook-mathcourse")
    }
}

#[test]
fn the_pages_workflow_installs_the_release_archive_after_checking_its_checksum() {
    let sandbox = Sandbox::new();
    let archive = make_archive(&sandbox.releases.join(format!("v{VERSION}")));
    let out = sandbox.install();
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(out.status.success(), "{stderr}");
    assert_eq!(
        fs::read(sandbox.installed()).unwrap(),
        fs::read(bin()).unwrap(),
        "the archive's binary is installed"
    );
    assert_eq!(
        sandbox.cargo_log(),
        format!(
            "install --locked mdbook --version 0.5.4 --root {}/home/.book-tools\n",
            sandbox.root.display()
        ),
        "cargo compiled nothing but mdbook"
    );

    // A checksum that does not match fails the step; it never falls back to compiling.
    let sandbox = Sandbox::new();
    let dir = sandbox.releases.join(format!("v{VERSION}"));
    let archive_name = archive.file_name().unwrap().to_string_lossy().to_string();
    make_archive(&dir);
    let sum = dir.join(format!("{archive_name}.sha256"));
    let text = fs::read_to_string(&sum).unwrap();
    let flipped = if text.starts_with('0') { "1" } else { "0" };
    fs::write(&sum, format!("{flipped}{}", &text[1..])).unwrap();
    let out = sandbox.install();
    assert!(!out.status.success(), "a bad checksum must fail");
    assert!(
        String::from_utf8_lossy(&out.stdout).contains("FAILED")
            || String::from_utf8_lossy(&out.stderr).contains("FAILED"),
        "sha256sum says so"
    );
    assert!(!sandbox.installed().exists());
    assert_eq!(sandbox.cargo_log(), "", "nothing compiled instead");
}

#[test]
fn the_pages_workflow_compiles_the_same_version_when_there_is_no_archive() {
    let sandbox = Sandbox::new();
    let out = sandbox.install();
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(out.status.success(), "{stderr}");
    let root = format!("{}/home/.book-tools", sandbox.root.display());
    assert_eq!(
        sandbox.cargo_log(),
        format!(
            "install --locked mdbook-mathcourse --version {VERSION} --root {root}\ninstall --locked mdbook --version 0.5.4 --root {root}\n"
        )
    );
    assert!(String::from_utf8_lossy(&out.stdout).contains("compiling mdbook-mathcourse"));
}

/// `cargo binstall` finds the archive the release attaches, and the binary inside it.
#[test]
fn binstall_metadata_names_the_release_archive() {
    let manifest = fs::read_to_string(repo().join("preprocessor/Cargo.toml")).unwrap();
    let value = |key: &str| {
        let line = manifest
            .lines()
            .find(|l| l.starts_with(&format!("{key} = ")))
            .unwrap_or_else(|| panic!("no {key} in [package.metadata.binstall]"));
        line[key.len() + 3..].trim_matches('"').to_string()
    };
    let target = target();
    let fill = |template: String| {
        template
            .replace("{ repo }", "REPO")
            .replace("{ version }", VERSION)
            .replace("{ name }", "mdbook-mathcourse")
            .replace("{ target }", &target)
            .replace("{ archive-suffix }", ".tar.gz")
            .replace("{ bin }", "mdbook-mathcourse")
            .replace("{ binary-ext }", "")
    };
    let dir = tempfile::tempdir().unwrap();
    let archive = make_archive(dir.path());
    assert_eq!(
        fill(value("pkg-url")),
        format!(
            "REPO/releases/download/v{VERSION}/{}",
            archive.file_name().unwrap().to_string_lossy()
        )
    );
    assert_eq!(value("pkg-fmt"), "tgz");
    let unpacked = Command::new("tar")
        .arg("-xzf")
        .arg(&archive)
        .current_dir(dir.path())
        .status()
        .unwrap();
    assert!(unpacked.success());
    let inside = dir.path().join(fill(value("bin-dir")));
    assert_eq!(fs::read(&inside).unwrap(), fs::read(bin()).unwrap());
    let sums = Command::new("sha256sum")
        .arg("--check")
        .arg(format!(
            "{}.sha256",
            archive.file_name().unwrap().to_string_lossy()
        ))
        .current_dir(dir.path())
        .output()
        .unwrap();
    assert!(sums.status.success(), "the .sha256 file checks");
}
