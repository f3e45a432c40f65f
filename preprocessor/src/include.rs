//! `{{#include}}` and `{{#rustdoc_include}}` links that mdBook's `links` preprocessor has
//! not expanded yet.
//!
//! mdBook runs preprocessors in the order `before`/`after` ask for, and by name
//! otherwise: `links` comes before `mathcourse`, so an included file's math is normally
//! already in the chapter. When a book orders mathcourse first (`before = ["links"]`),
//! the links are still there, and the math that `links` would insert later would stay
//! TeX. So mathcourse expands those two kinds itself first, the way `links` does (a path
//! relative to the including file, `:N`, `:N:M`, `:N:`, `::M` line ranges, `:name`
//! anchors, nested links up to 10 deep; `rustdoc_include` keeps the lines outside its
//! range behind `# `). Only files inside the book's root are read; a link it cannot
//! expand is left as it is for `links`. An escaped link (`\{{#include ...}}`) is left
//! for `links` to unescape. `{{#playground}}` and `{{#title}}` are left to `links`.

use std::path::{Path, PathBuf};

/// How deep included files may include others (mdBook's own limit).
const MAX_DEPTH: usize = 10;

/// The largest file read for an include.
const MAX_FILE_BYTES: u64 = 16 * 1024 * 1024;

/// True when mdBook's `links` preprocessor runs in this build, after mathcourse: the book
/// asks for it with `before = ["links"]` under `[preprocessor.mathcourse]` or
/// `after = ["mathcourse"]` under `[preprocessor.links]` (by default, `links` runs
/// first, and an escaped link it has already unescaped must stay text).
pub fn links_run_later(config: &mdbook_preprocessor::config::Config) -> bool {
    let enabled =
        config.build.use_default_preprocessors || config.contains_key("preprocessor.links");
    let names = |key: &str| -> Vec<String> { config.get(key).ok().flatten().unwrap_or_default() };
    enabled
        && (names(&format!("preprocessor.{}.before", crate::NAME))
            .iter()
            .any(|n| n == "links")
            || names("preprocessor.links.after")
                .iter()
                .any(|n| n == crate::NAME))
}

/// Expands the include links of `content`, a file in `dir`; files are read only inside
/// `root`. Returns `None` when there is nothing to expand. `skipped` collects links left
/// as they are because they point outside the book.
pub fn expand(content: &str, dir: &Path, root: &Path, skipped: &mut Vec<String>) -> Option<String> {
    if !content.contains("{{") {
        return None;
    }
    let out = expand_depth(content, dir, root, 0, skipped);
    (out != content).then_some(out)
}

fn expand_depth(
    content: &str,
    dir: &Path,
    root: &Path,
    depth: usize,
    skipped: &mut Vec<String>,
) -> String {
    let mut out = String::with_capacity(content.len());
    let mut rest = content;
    while let Some(i) = rest.find("{{") {
        let escaped = i > 0 && rest.as_bytes()[i - 1] == b'\\';
        let Some(len) = rest[i..].find("}}") else {
            break;
        };
        let link = &rest[i..i + len + 2];
        out.push_str(&rest[..i]);
        rest = &rest[i + len + 2..];
        let expanded = (!escaped && depth < MAX_DEPTH)
            .then(|| parse(link))
            .flatten()
            .and_then(|(kind, target)| {
                let (path, selector) = target.split_once(':').unwrap_or((target, ""));
                let file = inside(root, &dir.join(path));
                if file.is_none() {
                    skipped.push(link.to_string());
                }
                let file = file?;
                let text = read_limited(&file)?;
                let text = select(&text, selector, kind == Kind::Rustdoc);
                let parent = file.parent().unwrap_or(dir).to_path_buf();
                Some(expand_depth(&text, &parent, root, depth + 1, skipped))
            });
        match expanded {
            Some(text) => out.push_str(&text),
            None => out.push_str(link),
        }
    }
    out.push_str(rest);
    out
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Kind {
    Include,
    Rustdoc,
}

/// `{{#include path:sel}}` → kind and `path:sel`; `None` for other links.
fn parse(link: &str) -> Option<(Kind, &str)> {
    let inner = link.strip_prefix("{{")?.strip_suffix("}}")?.trim_start();
    let inner = inner.strip_prefix('#')?;
    let name_end = inner.find(char::is_whitespace)?;
    let kind = match &inner[..name_end] {
        "include" => Kind::Include,
        "rustdoc_include" => Kind::Rustdoc,
        _ => return None,
    };
    let target = inner[name_end..].split_whitespace().next()?;
    Some((kind, target))
}

/// `path` normalized, when it lies inside `root` and is a file.
fn inside(root: &Path, path: &Path) -> Option<PathBuf> {
    let root = root.canonicalize().ok()?;
    let file = path.canonicalize().ok()?;
    (file.starts_with(&root) && file.is_file()).then_some(file)
}

fn read_limited(path: &Path) -> Option<String> {
    let len = std::fs::metadata(path).ok()?.len();
    (len <= MAX_FILE_BYTES)
        .then(|| std::fs::read_to_string(path).ok())
        .flatten()
}

/// The lines `selector` names (`N`, `N:M`, `N:`, `:M`, an anchor name, or all).
fn select(text: &str, selector: &str, rustdoc: bool) -> String {
    let mut parts = selector.splitn(2, ':');
    let first = parts.next().unwrap_or("");
    let second = parts.next();
    let start = match first.parse::<usize>() {
        Ok(n) => Some(n.saturating_sub(1)),
        Err(_) if first.is_empty() => None,
        Err(_) => return anchored(text, first, rustdoc),
    };
    let end = second.map(|s| s.parse::<usize>().ok());
    let (from, to) = match (start, end) {
        (Some(s), Some(Some(e))) => (s, e),
        (Some(s), Some(None)) => (s, usize::MAX),
        (Some(s), None) => (s, s + 1),
        (None, Some(Some(e))) => (0, e),
        (None, _) => (0, usize::MAX),
    };
    if rustdoc {
        let lines: Vec<String> = text
            .lines()
            .enumerate()
            .map(|(i, l)| {
                if (from..to).contains(&i) {
                    l.to_string()
                } else {
                    format!("# {l}")
                }
            })
            .collect();
        return lines.join("\n");
    }
    if from == 0 && to == usize::MAX {
        return text.to_string();
    }
    text.lines()
        .skip(from)
        .take(to.saturating_sub(from))
        .collect::<Vec<_>>()
        .join("\n")
}

/// The name of an `ANCHOR: name` / `ANCHOR_END: name` line, if it is one.
fn anchor_of<'a>(line: &'a str, tag: &str) -> Option<&'a str> {
    let at = line.find(tag)?;
    let name = line[at + tag.len()..].trim_start();
    let end = name
        .find(|c: char| !(c.is_alphanumeric() || c == '_' || c == '-'))
        .unwrap_or(name.len());
    (end > 0).then(|| &name[..end])
}

/// The lines between `ANCHOR: name` and `ANCHOR_END: name` (other anchor lines dropped);
/// for `rustdoc_include`, every other line too, behind `# `.
fn anchored(text: &str, name: &str, rustdoc: bool) -> String {
    let mut out: Vec<String> = Vec::new();
    let mut within = false;
    for line in text.lines() {
        let start = anchor_of(line, "ANCHOR:");
        let end = anchor_of(line, "ANCHOR_END:");
        if within {
            if end == Some(name) {
                within = false;
                if !rustdoc {
                    break;
                }
            } else if start.is_none() && end.is_none() {
                out.push(line.to_string());
            }
        } else if start == Some(name) {
            within = true;
        } else if rustdoc && start.is_none() && end.is_none() {
            out.push(format!("# {line}"));
        }
    }
    out.join("\n")
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A temporary folder holding `book/` (the root) and `outside.md` beside it.
    fn book() -> (tempfile::TempDir, PathBuf) {
        let dir = tempfile::tempdir().unwrap();
        let root = dir.path().join("book");
        let src = root.join("src");
        std::fs::create_dir_all(src.join("parts")).unwrap();
        std::fs::write(src.join("parts/a.md"), "one $a$\ntwo $b$\nthree $c$\n").unwrap();
        std::fs::write(
            src.join("parts/anchors.md"),
            "x\n<!-- ANCHOR: mid -->\n$m$\n<!-- ANCHOR_END: mid -->\ny\n",
        )
        .unwrap();
        std::fs::write(src.join("parts/nested.md"), "{{#include a.md:2}}\n").unwrap();
        std::fs::write(dir.path().join("outside.md"), "$o$").unwrap();
        (dir, root)
    }

    fn run(content: &str, root: &Path) -> (Option<String>, Vec<String>) {
        let mut skipped = Vec::new();
        let out = expand(content, &root.join("src"), root, &mut skipped);
        (out, skipped)
    }

    #[test]
    fn includes_ranges_anchors_and_nesting() {
        let (_dir, root) = book();
        let root = root.as_path();
        let (out, _) = run("A {{#include parts/a.md}} B", root);
        assert_eq!(out.unwrap(), "A one $a$\ntwo $b$\nthree $c$\n B");
        let (out, _) = run("{{#include parts/a.md:2:3}}", root);
        assert_eq!(out.unwrap(), "two $b$\nthree $c$");
        let (out, _) = run(
            "{{#include parts/a.md::1}}|{{#include parts/a.md:3:}}",
            root,
        );
        assert_eq!(out.unwrap(), "one $a$|three $c$");
        let (out, _) = run("{{#include parts/anchors.md:mid}}", root);
        assert_eq!(out.unwrap(), "$m$");
        let (out, _) = run("{{#include parts/nested.md}}", root);
        assert_eq!(out.unwrap(), "two $b$\n");
        let (out, _) = run("{{#rustdoc_include parts/a.md:2}}", root);
        assert_eq!(out.unwrap(), "# one $a$\ntwo $b$\n# three $c$");
    }

    #[test]
    fn escaped_missing_outside_and_other_links_are_left_alone() {
        let (_dir, root) = book();
        let root = root.as_path();
        assert_eq!(run("\\{{#include parts/a.md}}", root).0, None);
        assert_eq!(run("{{#include parts/none.md}}", root).0, None);
        assert_eq!(run("{{#playground parts/a.md}} {{#title T}}", root).0, None);
        let (out, skipped) = run("{{#include ../../outside.md}}", root);
        assert_eq!(out, None);
        assert_eq!(skipped.len(), 1);
    }

    #[test]
    fn a_file_that_includes_itself_stops() {
        let (_dir, root) = book();
        let root = root.as_path();
        std::fs::write(root.join("src/loop.md"), "x {{#include loop.md}}").unwrap();
        let (out, _) = run("{{#include loop.md}}", root);
        assert_eq!(out.unwrap().matches('x').count(), MAX_DEPTH);
    }
}
