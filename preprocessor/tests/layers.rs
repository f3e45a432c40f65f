//! The preprocessor's files are layered, and imports point one way: down. File by file.
//!
//! 1. vocabulary and data (diagnostics, options, symbols, the notation, the book context,
//!    the KaTeX pass);
//! 2. the directives, in four layers of their own: (a) the data every directive shares
//!    (`block`, `options`, `contribute`, `status`), (b) the rendering context `Cx`
//!    (`directive/mod.rs`) and its helpers, (c) the directives and the chapter header,
//!    (d) the registry, which lists them all;
//! 3. (a) the book-wide pass, which reads each chapter once into a record, then (b) the
//!    chapter pipeline, which renders from that record;
//! 4. the crate root.
//!
//! A file may use files of its own layer or below, never above; a directive never uses
//! another directive (what two share lives in layer 2a); and no files import each other
//! around a loop, apart from the loops listed in [`KNOWN_LOOPS`], which may only shrink.
//!
//! Imports are read from the sources (test code excluded): `use` trees and paths in code
//! that start with `crate::`, `super::`, `self::` or a child module's name, each resolved
//! to the file that defines the item, through `pub use` re-exports. The test names each
//! violation (file, what it imports, which layers). A new file must be placed in a layer.

use std::collections::{BTreeMap, BTreeSet};
use std::path::Path;

/// Layers, bottom first; a file's layer is that of the longest pattern matching its
/// module path (`directive/check/calc` matches `directive/check`; `directive/*` matches
/// every file under `directive/`, so a new directive needs no line here).
const LAYERS: &[(&str, &[&str])] = &[
    (
        "1 vocabulary and data",
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
            "katex_html",
            "macro_reach",
            "math",
            "mathjax",
            "notation",
            "protocol",
            "scan",
            "serve",
            "symbol",
            "templates",
        ],
    ),
    (
        "2a directive data",
        &[
            "directive/block",
            "directive/options",
            "directive/calc_scope",
            "directive/contribute",
            "directive/ids",
            "directive/report",
            "directive/status",
        ],
    ),
    (
        "2b the rendering context and its parts",
        &[
            "directive",
            "directive/inline",
            "directive/inspectable",
            "directive/math_errors",
            "directive/mathjax_math",
            "directive/symbol_list",
            "directive/typeset",
        ],
    ),
    (
        "2c the directives (and roles): every other file in `directive/`",
        &["directive/*", "header"],
    ),
    ("2d the registry", &["directive/registry"]),
    ("3a the book-wide pass", &["book_pass"]),
    ("3b the chapter pipeline", &["chapter", "page_cache"]),
    ("4 the crate root", &["lib"]),
];

/// The index of the layer named "2c the directives".
const DIRECTIVES_LAYER: usize = 3;

/// Import loops that exist today, each as its sorted files. The test fails when one of
/// them is gone (remove it here) or another appears. None is left.
const KNOWN_LOOPS: &[&[&str]] = &[];

/// Imports that point up today (importer, imported). The test fails when one is gone
/// (remove it here). None is left.
const KNOWN_UPWARD: &[(&str, &str)] = &[];

/// Module path (`directive/check/calc`, `lib` for the root) → its source without tests
/// and comments. The binary (`main.rs`) and test-only files are left out.
fn modules() -> BTreeMap<String, String> {
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    let mut out = BTreeMap::new();
    let mut stack = vec![src.clone()];
    while let Some(dir) = stack.pop() {
        for entry in std::fs::read_dir(&dir).unwrap() {
            let path = entry.unwrap().path();
            if path.is_dir() {
                stack.push(path);
                continue;
            }
            let name = path.file_name().unwrap().to_string_lossy().to_string();
            if !name.ends_with(".rs")
                || matches!(name.as_str(), "tests.rs" | "testkit.rs" | "main.rs")
            {
                continue;
            }
            let rel = path
                .strip_prefix(&src)
                .unwrap()
                .to_string_lossy()
                .replace('\\', "/");
            let rel = rel.trim_end_matches(".rs");
            let module = match rel {
                "lib" => "lib".to_string(),
                _ => rel.trim_end_matches("/mod").to_string(),
            };
            out.insert(module, code_of(&std::fs::read_to_string(&path).unwrap()));
        }
    }
    out
}

/// `text` without its test module (last in a file by convention), `#[cfg(test)]`
/// module declarations and `//` comments.
fn code_of(text: &str) -> String {
    let test_module = text.match_indices("#[cfg(test)]\nmod ").find(|(i, _)| {
        text[*i..]
            .lines()
            .nth(1)
            .is_some_and(|l| l.trim_end().ends_with('{'))
    });
    let text = test_module.map_or(text, |(i, _)| &text[..i]);
    let mut out = String::with_capacity(text.len());
    let mut skip_next_mod = false;
    for line in text.lines() {
        let trimmed = line.trim_start();
        if trimmed.starts_with("#[cfg(test)]") {
            skip_next_mod = true;
            continue;
        }
        if skip_next_mod && trimmed.starts_with("mod ") {
            skip_next_mod = false;
            continue;
        }
        skip_next_mod = false;
        let code = match line.find("//") {
            Some(i) if !line[..i].contains('"') => &line[..i],
            _ => line,
        };
        out.push_str(code);
        out.push('\n');
    }
    out
}

/// The paths a `use` tree names: `a::{b, c::{d, e}}` → `a::b`, `a::c::d`, `a::c::e`
/// (an `as` rename kept after a space).
fn expand(tree: &str) -> Vec<String> {
    let tree = tree.trim();
    let Some(open) = tree.find('{') else {
        return vec![tree.to_string()];
    };
    let prefix = &tree[..open];
    let inner = &tree[open + 1..tree.rfind('}').unwrap_or(tree.len())];
    let mut parts = Vec::new();
    let mut depth = 0;
    let mut current = String::new();
    for c in inner.chars() {
        match c {
            '{' => depth += 1,
            '}' => depth -= 1,
            ',' if depth == 0 => {
                parts.push(std::mem::take(&mut current));
                continue;
            }
            _ => {}
        }
        current.push(c);
    }
    parts.push(current);
    parts
        .iter()
        .filter(|p| !p.trim().is_empty())
        .flat_map(|p| expand(p).into_iter().map(|e| format!("{prefix}{e}")))
        .collect()
}

/// Each `use` (and `pub use`) statement of `code`: whether it is `pub`, and its paths.
fn use_statements(code: &str) -> Vec<(bool, Vec<String>)> {
    let mut out = Vec::new();
    let mut rest = code;
    while let Some(i) = rest.find("use ") {
        let before = &rest[..i];
        let line_start = before.rfind('\n').map_or(0, |n| n + 1);
        let head = before[line_start..].trim();
        rest = &rest[i + 4..];
        if !(head.is_empty() || head.starts_with("pub")) {
            continue;
        }
        let Some(end) = rest.find(';') else { break };
        let tree: String = rest[..end].split_whitespace().collect::<Vec<_>>().join(" ");
        let tree = tree
            .replace(":: ", "::")
            .replace(" ::", "::")
            .replace("{ ", "{")
            .replace(" }", "}");
        out.push((head.starts_with("pub"), expand(&tree)));
        rest = &rest[end..];
    }
    out
}

struct Graph {
    modules: BTreeMap<String, String>,
    /// Module → name it re-exports → the path it re-exports.
    reexports: BTreeMap<String, BTreeMap<String, String>>,
}

impl Graph {
    fn new() -> Graph {
        let modules = modules();
        let mut reexports: BTreeMap<String, BTreeMap<String, String>> = BTreeMap::new();
        for (module, code) in &modules {
            for (public, paths) in use_statements(code) {
                if !public {
                    continue;
                }
                for path in paths {
                    let (path, name) = match path.split_once(" as ") {
                        Some((p, n)) => (p.to_string(), n.to_string()),
                        None => (path.clone(), path.rsplit("::").next().unwrap().to_string()),
                    };
                    reexports
                        .entry(module.clone())
                        .or_default()
                        .insert(name, path);
                }
            }
        }
        Graph { modules, reexports }
    }

    fn is_module(&self, segments: &[&str]) -> bool {
        let path = if segments.is_empty() {
            "lib".to_string()
        } else {
            segments.join("/")
        };
        self.modules.contains_key(&path)
    }

    /// The file that defines what `path`, written in module `from`, names; `None` for
    /// another crate.
    fn resolve(&self, from: &str, path: &str, depth: usize) -> Option<String> {
        let mut segments: Vec<&str> = path.split("::").collect();
        let from_segments: Vec<&str> = if from == "lib" {
            Vec::new()
        } else {
            from.split('/').collect()
        };
        let mut base: Vec<&str> = match segments[0] {
            "crate" => {
                segments.remove(0);
                Vec::new()
            }
            "self" => {
                segments.remove(0);
                from_segments.clone()
            }
            "super" => {
                let mut base = from_segments.clone();
                while segments.first() == Some(&"super") {
                    segments.remove(0);
                    base.pop();
                }
                base
            }
            first => {
                let mut child = from_segments.clone();
                child.push(first);
                if !self.is_module(&child) {
                    return None;
                }
                from_segments.clone()
            }
        };
        let mut i = 0;
        while i < segments.len() {
            let mut next = base.clone();
            next.push(segments[i]);
            if !self.is_module(&next) {
                break;
            }
            base = next;
            i += 1;
        }
        let module = if base.is_empty() {
            "lib".to_string()
        } else {
            base.join("/")
        };
        if let Some(item) = segments.get(i).filter(|s| **s != "*" && **s != "self") {
            if let Some(target) = self.reexports.get(&module).and_then(|r| r.get(*item)) {
                if depth < 8 {
                    return self.resolve(&module, target, depth + 1);
                }
            }
        }
        Some(module)
    }

    /// Module → the modules it imports (itself left out).
    fn imports(&self) -> BTreeMap<String, BTreeSet<String>> {
        let mut out: BTreeMap<String, BTreeSet<String>> = BTreeMap::new();
        for (module, code) in &self.modules {
            let entry = out.entry(module.clone()).or_default();
            let mut add = |path: &str| {
                let path = path.split(" as ").next().unwrap();
                if let Some(target) = self.resolve(module, path, 0) {
                    if &target != module {
                        entry.insert(target);
                    }
                }
            };
            for (_, paths) in use_statements(code) {
                for path in paths {
                    add(&path);
                }
            }
            // Paths in code: `a::b` where `a` is `crate`, `super`, `self` or a child.
            let bytes = code.as_bytes();
            let mut i = 0;
            while i < bytes.len() {
                let starts = (bytes[i].is_ascii_lowercase() || bytes[i] == b'_')
                    && (i == 0
                        || !(bytes[i - 1].is_ascii_alphanumeric()
                            || bytes[i - 1] == b'_'
                            || bytes[i - 1] == b':'));
                if !starts {
                    i += 1;
                    continue;
                }
                let len = code[i..]
                    .find(|c: char| !(c.is_ascii_alphanumeric() || c == '_' || c == ':'))
                    .unwrap_or(code.len() - i);
                let path = code[i..i + len].trim_end_matches(':');
                if path.contains("::") {
                    add(path);
                }
                i += len.max(1);
            }
        }
        out
    }
}

fn layer_of(module: &str) -> Option<usize> {
    let mut best: Option<(usize, usize)> = None;
    for (n, (_, patterns)) in LAYERS.iter().enumerate() {
        for p in *patterns {
            let matches = match p.strip_suffix('*') {
                Some(prefix) => module.starts_with(prefix),
                None => module == *p || module.starts_with(&format!("{p}/")),
            };
            if matches && best.is_none_or(|(len, _)| p.len() > len) {
                best = Some((p.len(), n));
            }
        }
    }
    best.map(|(_, n)| n)
}

/// The directive a file belongs to (`directive/check/calc` → `directive/check`).
fn directive_of(module: &str) -> Option<&str> {
    let rest = module.strip_prefix("directive/")?;
    let first = rest.split('/').next()?;
    Some(&module[.."directive/".len() + first.len()])
}

#[test]
fn imports_point_down_the_layers() {
    let imports = Graph::new().imports();
    let mut wrong = Vec::new();
    for (module, used) in &imports {
        let Some(from) = layer_of(module) else {
            wrong.push(format!(
                "`{module}` is in no layer: add it to LAYERS in tests/layers.rs"
            ));
            continue;
        };
        for u in used {
            if KNOWN_UPWARD.contains(&(module.as_str(), u.as_str())) {
                continue;
            }
            match layer_of(u) {
                Some(to) if to > from => wrong.push(format!(
                    "`{module}` (layer {}) imports `{u}` (layer {}), above it",
                    LAYERS[from].0, LAYERS[to].0
                )),
                Some(to) if from == DIRECTIVES_LAYER
                    && to == DIRECTIVES_LAYER
                    && directive_of(module) != directive_of(u) =>
                {
                    wrong.push(format!(
                        "the directive `{module}` imports the directive `{u}`: move what they share to a module of layer 2a"
                    ))
                }
                Some(_) => {}
                None => wrong.push(format!("`{module}` imports `{u}`, which is in no layer")),
            }
        }
    }
    for (module, u) in KNOWN_UPWARD {
        if !imports.get(*module).is_some_and(|used| used.contains(*u)) {
            wrong.push(format!(
                "`{module}` no longer imports `{u}`: remove it from KNOWN_UPWARD in tests/layers.rs"
            ));
        }
    }
    assert!(wrong.is_empty(), "{}", wrong.join("\n"));
}

/// Strongly connected groups of two or more files (Tarjan), each sorted.
fn loops(imports: &BTreeMap<String, BTreeSet<String>>) -> Vec<Vec<String>> {
    struct State<'a> {
        imports: &'a BTreeMap<String, BTreeSet<String>>,
        index: BTreeMap<&'a str, usize>,
        low: BTreeMap<&'a str, usize>,
        stack: Vec<&'a str>,
        on_stack: BTreeSet<&'a str>,
        out: Vec<Vec<String>>,
    }
    fn visit<'a>(s: &mut State<'a>, v: &'a str) {
        let n = s.index.len();
        s.index.insert(v, n);
        s.low.insert(v, n);
        s.stack.push(v);
        s.on_stack.insert(v);
        for w in s.imports.get(v).into_iter().flatten() {
            let w = w.as_str();
            if !s.index.contains_key(w) {
                visit(s, w);
                let low = s.low[v].min(s.low[w]);
                s.low.insert(v, low);
            } else if s.on_stack.contains(w) {
                let low = s.low[v].min(s.index[w]);
                s.low.insert(v, low);
            }
        }
        if s.low[v] == s.index[v] {
            let mut group = Vec::new();
            while let Some(w) = s.stack.pop() {
                s.on_stack.remove(w);
                group.push(w.to_string());
                if w == v {
                    break;
                }
            }
            if group.len() > 1 {
                group.sort();
                s.out.push(group);
            }
        }
    }
    let mut state = State {
        imports,
        index: BTreeMap::new(),
        low: BTreeMap::new(),
        stack: Vec::new(),
        on_stack: BTreeSet::new(),
        out: Vec::new(),
    };
    for v in imports.keys() {
        if !state.index.contains_key(v.as_str()) {
            visit(&mut state, v);
        }
    }
    state.out.sort();
    state.out
}

#[test]
fn no_new_import_loops() {
    let found = loops(&Graph::new().imports());
    let known: Vec<Vec<String>> = KNOWN_LOOPS
        .iter()
        .map(|l| l.iter().map(|s| s.to_string()).collect())
        .collect();
    let new: Vec<String> = found
        .iter()
        .filter(|l| !known.contains(l))
        .map(|l| l.join(" ⇄ "))
        .collect();
    let gone: Vec<String> = known
        .iter()
        .filter(|l| !found.contains(l))
        .map(|l| l.join(", "))
        .collect();
    assert!(
        new.is_empty(),
        "files that import each other around a loop:\n{}",
        new.join("\n")
    );
    assert!(
        gone.is_empty(),
        "a known loop is gone or changed: update KNOWN_LOOPS in tests/layers.rs:\n{}",
        gone.join("\n")
    );
}

/// The test reads what it should: the circle the registry once closed through
/// `contribute` (registry → a directive → contribute → registry) would be found.
#[test]
fn the_reader_resolves_super_children_and_reexports() {
    let graph = Graph::new();
    assert_eq!(
        graph
            .resolve("directive/formula", "super::Cx", 0)
            .as_deref(),
        Some("directive")
    );
    assert_eq!(
        graph
            .resolve("directive/formula", "super::status::Status", 0)
            .as_deref(),
        Some("directive/status")
    );
    // `directive/mod.rs` re-exports `Label` from `context`.
    assert_eq!(
        graph
            .resolve("directive/claim", "super::Label", 0)
            .as_deref(),
        Some("context")
    );
    // A child module named without a prefix.
    assert_eq!(
        graph
            .resolve("directive", "math_errors::splice", 0)
            .as_deref(),
        Some("directive/math_errors")
    );
    // Another crate is no edge.
    assert_eq!(graph.resolve("lib", "crate::inspect::tag", 0), None);
    let mut imports = graph.imports();
    imports
        .get_mut("directive/contribute")
        .unwrap()
        .insert("directive/registry".into());
    let found = loops(&imports);
    assert!(
        found
            .iter()
            .any(|l| l.contains(&"directive/registry".to_string())
                && l.contains(&"directive/contribute".to_string())),
        "{found:?}"
    );
}
