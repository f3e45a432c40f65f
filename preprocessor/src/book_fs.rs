//! Files the book names in `book.toml` (`macros`, `symbols`, `cache-dir`) and template
//! overrides: resolved inside the book root, never through a link out of it, and read
//! with a size limit.
//!
//! A book is often someone else's (a clone, a contribution, CI): its settings must not
//! make a build read `/etc/passwd` into an error message, write a `.gitignore` into
//! the book root, or hang on `/dev/zero`.

use std::fs;
use std::io::Read;
use std::path::{Component, Path, PathBuf};

use anyhow::{bail, Context, Result};

/// The most a macros file, symbols file or template override may hold.
pub const MAX_FILE_BYTES: u64 = 4 * 1024 * 1024;

/// `root/rel`, after checking that `rel` stays inside `root`: relative, no `..` that
/// leaves the book, and (for the part that exists) no link that points out of it.
/// `option` names the setting in messages (``option `macros` ``).
pub fn resolve(root: &Path, rel: &Path, option: &str) -> Result<PathBuf> {
    let shown = rel.display();
    if rel.is_absolute() || rel.has_root() {
        bail!("{option}: `{shown}` is an absolute path; paths in book.toml are relative to the book root and stay inside it\n  help: move the file into the book and write its path from the book root");
    }
    let mut depth = 0usize;
    for part in rel.components() {
        match part {
            Component::Normal(_) => depth += 1,
            Component::CurDir => {}
            Component::ParentDir if depth > 0 => depth -= 1,
            _ => bail!("{option}: `{shown}` leaves the book folder; paths in book.toml stay inside the book root\n  help: move the file into the book and write its path from the book root"),
        }
    }
    let full = root.join(rel);
    // The longest part that exists must resolve (following links) inside the book.
    let real_root = fs::canonicalize(root)
        .with_context(|| format!("could not read the book root {}", root.display()))?;
    let mut existing = full.as_path();
    while fs::symlink_metadata(existing).is_err() {
        match existing.parent() {
            Some(parent) => existing = parent,
            None => break,
        }
    }
    if let Ok(real) = fs::canonicalize(existing) {
        if !real.starts_with(&real_root) {
            bail!("{option}: `{shown}` is (or passes through) a link to `{}`, outside the book\n  help: copy the file into the book instead of linking to it", real.display());
        }
    }
    Ok(full)
}

/// Reads the text file `root/rel` named by `option`, inside the book and at most
/// [`MAX_FILE_BYTES`] long.
pub fn read_text(root: &Path, rel: &Path, option: &str) -> Result<String> {
    let full = resolve(root, rel, option)?;
    read_limited(&full, &rel.display().to_string(), option)
}

/// Reads a regular file of at most [`MAX_FILE_BYTES`] (a device or pipe is refused
/// before reading, so `/dev/zero` cannot hang the build).
pub fn read_limited(full: &Path, shown: &str, what: &str) -> Result<String> {
    let meta = fs::metadata(full).with_context(|| format!("{what}: could not read `{shown}`"))?;
    if !meta.is_file() {
        bail!("{what}: `{shown}` is not a regular file");
    }
    let mut bytes = Vec::new();
    fs::File::open(full)
        .and_then(|f| f.take(MAX_FILE_BYTES + 1).read_to_end(&mut bytes))
        .with_context(|| format!("{what}: could not read `{shown}`"))?;
    if bytes.len() as u64 > MAX_FILE_BYTES {
        bail!(
            "{what}: `{shown}` is larger than {} MiB, the most mathcourse reads from one file",
            MAX_FILE_BYTES / (1024 * 1024)
        );
    }
    String::from_utf8(bytes).map_err(|_| anyhow::anyhow!("{what}: `{shown}` is not UTF-8 text"))
}

/// The cache folder `cache-dir`, checked: inside the book, not the book root or its
/// `src/` (whose files are published), and either ours or new.
pub fn cache_dir(root: &Path, src: &Path, rel: &Path) -> Result<PathBuf> {
    let option = "option `cache-dir`";
    let full = resolve(root, rel, option)?;
    let normal = normalize(rel);
    if normal.as_os_str().is_empty() {
        bail!("{option}: `{}` is the book root; the cache writes a `.gitignore` that ignores everything in its folder\n  help: use a folder of its own, e.g. `cache-dir = \".mathcourse-cache\"` (the default)", rel.display());
    }
    let src = normalize(src);
    if src.as_os_str().is_empty() {
        // `src = "."`: the chapters sit in the book root, and mdBook publishes every file
        // of the source folder, so no cache folder of the book stays out of the site.
        bail!("{option}: the book's source folder is the book root (`src = \".\"` in book.toml), and mdBook publishes every file in it, so the cache folder `{}` would be published with the site\n  help: set `cache = false` under [preprocessor.mathcourse] to build without a cache, or move the chapters into a folder of their own (`src = \"src\"`, mdBook's default) to keep it", rel.display());
    }
    if normal.starts_with(&src) || src.starts_with(&normal) {
        bail!("{option}: `{}` is inside (or holds) the book's source folder `{}`, whose files are published with the site\n  help: use a folder outside `{}`, e.g. `cache-dir = \".mathcourse-cache\"` (the default)", rel.display(), src.display(), src.display());
    }
    if let Ok(entries) = fs::read_dir(&full) {
        let ours = crate::cache::is_cache_dir(&full);
        let empty = entries.count() == 0;
        if ours {
            // A copy that skipped dotfiles lost the `.gitignore`: put it back.
            crate::cache::ensure_cache_dir(&full)?;
        }
        if !ours && !empty {
            bail!("{option}: `{}` already holds files that are not mathcourse's cache; the cache would mix with them and hide them from git\n  help: choose a new folder name, e.g. `cache-dir = \".mathcourse-cache\"` (the default)", rel.display());
        }
    }
    Ok(full)
}

/// `rel` without `.` and with `a/..` folded (it is known not to leave the root).
fn normalize(rel: &Path) -> PathBuf {
    let mut out = PathBuf::new();
    for part in rel.components() {
        match part {
            Component::Normal(p) => out.push(p),
            Component::ParentDir => {
                out.pop();
            }
            _ => {}
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn paths_that_leave_the_book_are_refused() {
        let book = tempfile::tempdir().unwrap();
        for bad in [
            "/etc/passwd",
            "../outside.txt",
            "a/../../x",
            "/proc/self/environ",
        ] {
            let err = resolve(book.path(), Path::new(bad), "option `macros`").unwrap_err();
            let msg = format!("{err:#}");
            assert!(msg.starts_with("option `macros`: `"), "{bad}: {msg}");
            assert!(!msg.contains("root:x:"), "{msg}");
        }
        assert!(resolve(book.path(), Path::new("a/../macros.txt"), "m").is_ok());
        assert!(resolve(book.path(), Path::new("./sub/m.txt"), "m").is_ok());
    }

    #[cfg(unix)]
    #[test]
    fn a_link_out_of_the_book_is_refused() {
        let outside = tempfile::tempdir().unwrap();
        fs::write(outside.path().join("secret"), "token=1").unwrap();
        let book = tempfile::tempdir().unwrap();
        std::os::unix::fs::symlink(outside.path().join("secret"), book.path().join("m.txt"))
            .unwrap();
        std::os::unix::fs::symlink(outside.path(), book.path().join("dir")).unwrap();
        for rel in ["m.txt", "dir/secret", "dir/new-cache"] {
            let err = format!(
                "{:#}",
                read_text(book.path(), Path::new(rel), "m").unwrap_err()
            );
            assert!(
                err.contains("outside the book") && !err.contains("token"),
                "{rel}: {err}"
            );
        }
        // A link that stays inside the book is fine.
        fs::write(book.path().join("real.txt"), "ok").unwrap();
        std::os::unix::fs::symlink(book.path().join("real.txt"), book.path().join("l.txt"))
            .unwrap();
        assert_eq!(
            read_text(book.path(), Path::new("l.txt"), "m").unwrap(),
            "ok"
        );
    }

    #[cfg(unix)]
    #[test]
    fn devices_and_huge_files_are_not_read() {
        let book = tempfile::tempdir().unwrap();
        std::os::unix::fs::symlink("/dev/zero", book.path().join("zero")).unwrap();
        assert!(read_text(book.path(), Path::new("zero"), "m").is_err());
        let err = read_limited(Path::new("/dev/zero"), "/dev/zero", "m").unwrap_err();
        assert!(err.to_string().contains("not a regular file"), "{err}");
        let big = book.path().join("big.txt");
        fs::write(&big, vec![b'%'; MAX_FILE_BYTES as usize + 1]).unwrap();
        let err = read_text(book.path(), Path::new("big.txt"), "m").unwrap_err();
        assert!(err.to_string().contains("larger than 4 MiB"), "{err}");
    }

    #[test]
    fn cache_dir_rules() {
        let book = tempfile::tempdir().unwrap();
        let src = Path::new("src");
        for bad in [".", "./", "sub/..", "src", "src/cache", "/tmp/c", "../c"] {
            assert!(
                cache_dir(book.path(), src, Path::new(bad)).is_err(),
                "{bad}"
            );
        }
        assert!(cache_dir(book.path(), src, Path::new(".mathcourse-cache")).is_ok());
        fs::create_dir_all(book.path().join("notes")).unwrap();
        fs::write(book.path().join("notes/todo.md"), "mine").unwrap();
        let err = cache_dir(book.path(), src, Path::new("notes")).unwrap_err();
        assert!(err.to_string().contains("not mathcourse's cache"), "{err}");
        fs::create_dir_all(book.path().join("empty")).unwrap();
        assert!(cache_dir(book.path(), src, Path::new("empty")).is_ok());
    }

    /// `src = "."` (a real book layout): every folder of the book is published, so the
    /// default cache folder is refused with a message that says why and how to build
    /// (it named an empty source folder and suggested the default it had just refused).
    #[test]
    fn a_book_whose_source_folder_is_its_root_is_told_how_to_build() {
        let book = tempfile::tempdir().unwrap();
        for src in [".", "./", ""] {
            let err = cache_dir(book.path(), Path::new(src), Path::new(".mathcourse-cache"))
                .unwrap_err()
                .to_string();
            assert!(err.contains("source folder is the book root"), "{err}");
            assert!(err.contains("set `cache = false`"), "{err}");
            assert!(!err.contains("``"), "{err}");
        }
    }
}
