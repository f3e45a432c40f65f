//! The preprocessor's modules are layered, and imports point one way: down.
//!
//! 1. vocabulary and data (diagnostics, options, symbols, the notation, the book context);
//! 2. the directives (and the chapter header, rendered with the same context);
//! 3. the chapter pipeline;
//! 4. the book-wide pass and the crate root.
//!
//! A module may use modules of its own layer or below, never above, and no two
//! top-level modules may import each other (directly or around a loop). This test reads
//! the sources (test code excluded) and fails with the offending import, so the rule
//! holds by tool, not by review. A new top-level module must be placed in a layer here.

use std::collections::{BTreeMap, BTreeSet};
use std::path::Path;

const LAYERS: &[&[&str]] = &[
    &[
        "assets",
        "book_fs",
        "cache",
        "compact_js",
        "config",
        "context",
        "diagnostic",
        "frontmatter",
        "html",
        "include",
        "init",
        "inspect",
        "katex_html",
        "math",
        "mathjax",
        "notation",
        "protocol",
        "scan",
        "serve",
        "symbol",
        "templates",
    ],
    &["directive", "header"],
    &["chapter"],
    &["collect", "lib", "main"],
];

fn layer_of(module: &str) -> Option<usize> {
    LAYERS.iter().position(|l| l.contains(&module))
}

/// Top-level module → the top-level modules it names as `crate::<module>`.
fn imports() -> BTreeMap<String, BTreeSet<String>> {
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    let mut out: BTreeMap<String, BTreeSet<String>> = BTreeMap::new();
    let mut stack = vec![src.clone()];
    while let Some(dir) = stack.pop() {
        for entry in std::fs::read_dir(&dir).unwrap() {
            let path = entry.unwrap().path();
            if path.is_dir() {
                stack.push(path);
                continue;
            }
            let name = path.file_name().unwrap().to_string_lossy().to_string();
            if !name.ends_with(".rs") || name == "tests.rs" || name == "testkit.rs" {
                continue;
            }
            let rel = path.strip_prefix(&src).unwrap();
            let top = rel
                .components()
                .next()
                .unwrap()
                .as_os_str()
                .to_string_lossy()
                .trim_end_matches(".rs")
                .to_string();
            let text = std::fs::read_to_string(&path).unwrap();
            // Test modules come last in a file by convention; they may use anything.
            let code = match text.find("#[cfg(test)]\nmod tests {") {
                Some(i) => &text[..i],
                None => &text,
            };
            let entry = out.entry(top.clone()).or_default();
            for line in code.lines() {
                let line = line.trim_start();
                if line.starts_with("//") {
                    continue;
                }
                let mut rest = line;
                while let Some(i) = rest.find("crate::") {
                    rest = &rest[i + "crate::".len()..];
                    let module: String = rest
                        .chars()
                        .take_while(|c| c.is_ascii_alphanumeric() || *c == '_')
                        .collect();
                    // `crate::NAME` is an item of the crate root (a constant), not a module.
                    let is_module = module.starts_with(|c: char| c.is_ascii_lowercase());
                    if is_module && module != top {
                        entry.insert(module);
                    }
                }
            }
        }
    }
    out
}

#[test]
fn imports_point_down_the_layers() {
    let imports = imports();
    let mut wrong = Vec::new();
    for (module, used) in &imports {
        let Some(from) = layer_of(module) else {
            wrong.push(format!(
                "module `{module}` is in no layer: add it to LAYERS in tests/layers.rs"
            ));
            continue;
        };
        for u in used {
            match layer_of(u) {
                Some(to) if to > from => wrong.push(format!(
                    "`{module}` (layer {}) imports `{u}` (layer {}), above it",
                    from + 1,
                    to + 1
                )),
                Some(_) => {}
                None => wrong.push(format!("`{module}` imports `{u}`, which is in no layer")),
            }
        }
    }
    assert!(wrong.is_empty(), "{}", wrong.join("\n"));
}

#[test]
fn no_two_modules_import_each_other() {
    let imports = imports();
    // Depth-first search for a loop, reporting its path.
    fn visit(
        m: &str,
        imports: &BTreeMap<String, BTreeSet<String>>,
        path: &mut Vec<String>,
        done: &mut BTreeSet<String>,
    ) -> Option<Vec<String>> {
        if let Some(i) = path.iter().position(|p| p == m) {
            let mut cycle = path[i..].to_vec();
            cycle.push(m.to_string());
            return Some(cycle);
        }
        if done.contains(m) {
            return None;
        }
        path.push(m.to_string());
        for u in imports.get(m).into_iter().flatten() {
            if let Some(c) = visit(u, imports, path, done) {
                return Some(c);
            }
        }
        path.pop();
        done.insert(m.to_string());
        None
    }
    let mut done = BTreeSet::new();
    for m in imports.keys() {
        if let Some(cycle) = visit(m, &imports, &mut Vec::new(), &mut done) {
            panic!("import cycle: {}", cycle.join(" → "));
        }
    }
}
