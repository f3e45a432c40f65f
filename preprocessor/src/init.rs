//! `mdbook-mathcourse init [DIR]`: a new course book that `mdbook build` builds at once.
//!
//! Writes `book.toml` (with the preprocessor line), `src/SUMMARY.md`, one example chapter
//! that uses the main directives, a checked example and a widget, a `.gitignore`, and a
//! GitHub Pages workflow that installs mdbook and this preprocessor and publishes the
//! book. It never overwrites: when any of these files exists, nothing is written.
//!
//! The workflow installs exactly the version of the binary that wrote it (the release
//! archive from the crate's repository, checked against its SHA-256, or `cargo install
//! --version` from crates.io), cached under a key that carries that version.

use std::fs;
use std::path::{Path, PathBuf};

use anyhow::{bail, Context, Result};

const CHAPTER: &str = include_str!("init/chapter.md");
const WORKFLOW: &str = include_str!("init/deploy.yml");

/// The Pages workflow: `init/deploy.yml` with this binary's version and the repository
/// its releases are attached to (both from Cargo.toml).
pub fn workflow() -> String {
    WORKFLOW
        .replace("@MATHCOURSE_VERSION@", env!("CARGO_PKG_VERSION"))
        .replace("@MATHCOURSE_REPOSITORY@", env!("CARGO_PKG_REPOSITORY"))
}

/// The files `init` writes, relative to the book folder, with their contents.
pub fn files(title: &str) -> Vec<(&'static str, String)> {
    // TOML basic string: escape backslashes and quotes.
    let toml_title = title.replace('\\', "\\\\").replace('"', "\\\"");
    vec![
        (
            "book.toml",
            format!(
                "[book]\ntitle = \"{toml_title}\"\nsrc = \"src\"\n\n# Typesets the math, renders the course directives and widgets.\n[preprocessor.mathcourse]\n\n[output.html]\n# Where the book is published: the 404 page links its styles against it. The\n# workflow in .github/workflows/book.yml sets it for GitHub Pages; elsewhere, set\n# the path the site is served under (\"/\" at a domain's root, \"/my-course/\" under one).\n# site-url = \"/my-course/\"\n"
            ),
        ),
        (
            "src/SUMMARY.md",
            "# Summary\n\n- [Softmax, checked and live](softmax.md)\n".to_string(),
        ),
        ("src/softmax.md", CHAPTER.to_string()),
        (
            ".gitignore",
            "# Built by mdbook; mathcourse's cache (its assets folder ignores itself).\n/book/\n/.mathcourse-cache/\n".to_string(),
        ),
        (".github/workflows/book.yml", workflow()),
    ]
}

/// Writes a new book into `dir` (created when missing). Refuses, writing nothing, when
/// any file it would write is already there. Returns the files written.
pub fn init(dir: &Path, title: &str) -> Result<Vec<PathBuf>> {
    // A line break or another control character in the title would write a `book.toml`
    // that the next build rejects (a TOML basic string holds none of them).
    if let Some(c) = title.chars().find(|c| c.is_control()) {
        bail!(
            "the title contains a control character ({}); nothing was written\n  help: give a title on one line, e.g. `mdbook-mathcourse init --title \"My course\"`",
            c.escape_default()
        );
    }
    let files = files(title);
    let existing: Vec<String> = files
        .iter()
        .filter(|(rel, _)| fs::symlink_metadata(dir.join(rel)).is_ok())
        .map(|(rel, _)| format!("`{rel}`"))
        .collect();
    if !existing.is_empty() {
        bail!(
            "{} already has {}; nothing was written\n  help: run `mdbook-mathcourse init` in an empty folder, or name a new one: `mdbook-mathcourse init my-course`",
            dir.display(),
            existing.join(", ")
        );
    }
    // Every folder a file goes in must be a folder (or not exist yet): checked before
    // anything is written, so a failure leaves nothing behind.
    for (rel, _) in &files {
        let mut folder = Path::new(rel).parent();
        while let Some(f) = folder.filter(|f| !f.as_os_str().is_empty()) {
            let full = dir.join(f);
            if full.exists() && !full.is_dir() {
                bail!(
                    "{} is a file, where the book's folder `{}` goes; nothing was written\n  help: run `mdbook-mathcourse init` in an empty folder, or name a new one: `mdbook-mathcourse init my-course`",
                    full.display(),
                    f.display()
                );
            }
            folder = f.parent();
        }
    }
    if dir.exists() && !dir.is_dir() {
        bail!(
            "{} is a file; nothing was written\n  help: name a new folder: `mdbook-mathcourse init my-course`",
            dir.display()
        );
    }
    let mut written = Vec::new();
    for (rel, text) in files {
        let path = dir.join(rel);
        if let Some(parent) = path.parent() {
            fs::create_dir_all(parent)
                .with_context(|| format!("could not create {}", parent.display()))?;
        }
        // `create_new`: never replace a file that appeared meanwhile.
        fs::OpenOptions::new()
            .write(true)
            .create_new(true)
            .open(&path)
            .and_then(|mut f| std::io::Write::write_all(&mut f, text.as_bytes()))
            .with_context(|| format!("could not write {}", path.display()))?;
        written.push(path);
    }
    Ok(written)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_file_where_a_folder_goes_is_refused_before_anything_is_written() {
        let dir = tempfile::tempdir().unwrap();
        let book = dir.path().join("b");
        fs::create_dir_all(&book).unwrap();
        fs::write(book.join("src"), "mine").unwrap();
        let err = init(&book, "T").unwrap_err().to_string();
        assert!(
            err.contains("is a file, where the book's folder `src` goes"),
            "{err}"
        );
        let left: Vec<_> = fs::read_dir(&book).unwrap().collect();
        assert_eq!(left.len(), 1, "nothing written");
        // Once the file is moved away, init works.
        fs::remove_file(book.join("src")).unwrap();
        assert!(init(&book, "T").is_ok());
    }

    #[test]
    fn the_workflow_installs_this_version_and_caches_it_under_it() {
        let text = workflow();
        assert!(
            !text.contains("@MATHCOURSE"),
            "a placeholder is left: {text}"
        );
        let version = env!("CARGO_PKG_VERSION");
        assert!(
            text.contains(&format!("MATHCOURSE_VERSION: \"{version}\"\n")),
            "{text}"
        );
        assert!(text.contains(&format!(
            "MATHCOURSE_RELEASES: \"{}/releases/download\"",
            env!("CARGO_PKG_REPOSITORY")
        )));
        let key = text
            .lines()
            .find(|l| l.trim_start().starts_with("key: "))
            .expect("a cache key");
        assert!(
            key.contains("${{ env.MATHCOURSE_VERSION }}")
                && key.contains("${{ env.MDBOOK_VERSION }}"),
            "{key}"
        );
        assert!(text.contains("sha256sum --check"));
        assert!(text.contains(
            "cargo install --locked mdbook-mathcourse --version \"$MATHCOURSE_VERSION\""
        ));
        assert!(!text.contains("--git"), "no source to edit by hand");
    }

    #[test]
    fn a_title_with_a_control_character_is_refused() {
        let dir = tempfile::tempdir().unwrap();
        for title in ["Two\nlines", "Tab\there", "Bell\u{7}"] {
            let err = init(dir.path(), title).unwrap_err().to_string();
            assert!(err.contains("control character"), "{err}");
            assert!(!dir.path().join("book.toml").exists());
        }
        init(dir.path(), "Fine: \"quoted\" \\ title").unwrap();
    }

    #[test]
    fn writes_a_book_and_refuses_to_overwrite() {
        let dir = tempfile::tempdir().unwrap();
        let book = dir.path().join("course");
        let written = init(&book, "A \"quoted\" course").unwrap();
        assert_eq!(written.len(), 5);
        let toml = fs::read_to_string(book.join("book.toml")).unwrap();
        assert!(
            toml.contains("title = \"A \\\"quoted\\\" course\""),
            "{toml}"
        );
        assert!(toml.contains("[preprocessor.mathcourse]"));
        fs::write(book.join("src/softmax.md"), "mine").unwrap();
        fs::remove_file(book.join("book.toml")).unwrap();
        let err = init(&book, "x").unwrap_err().to_string();
        assert!(
            err.contains("`src/softmax.md`") && err.contains("nothing was written"),
            "{err}"
        );
        assert!(
            !book.join("book.toml").exists(),
            "nothing written when refusing"
        );
        assert_eq!(
            fs::read_to_string(book.join("src/softmax.md")).unwrap(),
            "mine"
        );
    }
}
