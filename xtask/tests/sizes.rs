//! The size rules of the workspace, enforced: no function outside tests longer than
//! [`MAX_FUNCTION_LINES`] lines, no source file with more than [`MAX_FILE_LINES`] lines of
//! non-test code. A function is counted from its `fn` line to its closing brace; a file's
//! non-test lines are its lines minus those of its `#[cfg(test)]` items and `#[test]`
//! functions. Files that are test modules (declared `#[cfg(test)] mod name;`) and the
//! `tests` crate are test code. Each violation is named with its file, line and count.

use std::collections::BTreeSet;
use std::path::{Path, PathBuf};

use syn::spanned::Spanned;
use syn::visit::Visit;

/// The longest a function may be.
const MAX_FUNCTION_LINES: usize = 100;
/// The most lines of non-test code a file may have.
const MAX_FILE_LINES: usize = 800;

/// The folders of source code: every crate of the workspace but `tests`.
const SOURCE_DIRS: &[&str] = &[
    "preprocessor/src",
    "preprocessor/build.rs",
    "tex/src",
    "widgets/core/src",
    "widgets/widgets/src",
    "widgets/wasm/src",
    "xtask/src",
    "fuzz/src",
];

fn workspace() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .parent()
        .expect("xtask sits in the workspace")
        .to_path_buf()
}

fn rust_files(path: &Path, out: &mut Vec<PathBuf>) {
    if path.is_file() {
        if path.extension().is_some_and(|e| e == "rs") {
            out.push(path.to_path_buf());
        }
        return;
    }
    let Ok(entries) = std::fs::read_dir(path) else {
        return;
    };
    let mut paths: Vec<PathBuf> = entries.flatten().map(|e| e.path()).collect();
    paths.sort();
    for p in paths {
        rust_files(&p, out);
    }
}

/// True for `#[test]`, `#[cfg(test)]` and `#[cfg(all(test, …))]`.
fn is_test(attrs: &[syn::Attribute]) -> bool {
    attrs.iter().any(|a| {
        if a.path().is_ident("test") {
            return true;
        }
        if !a.path().is_ident("cfg") {
            return false;
        }
        let Ok(list) = a.meta.require_list() else {
            return false;
        };
        let tokens = list.tokens.to_string();
        tokens == "test" || (tokens.starts_with("all") && tokens.contains("test"))
    })
}

/// Lines `first..=last` of an item (by the spans of its first and last tokens).
fn lines_of(start: proc_macro2::Span, end: proc_macro2::Span) -> (usize, usize) {
    (start.start().line, end.end().line)
}

#[derive(Default)]
struct Sizes {
    /// Functions over the limit: (name, first line, lines).
    long: Vec<(String, usize, usize)>,
    /// Lines in test items.
    test_lines: BTreeSet<usize>,
    /// Files declared as test modules here (`#[cfg(test)] mod name;`).
    test_modules: Vec<String>,
}

impl Sizes {
    fn function(&mut self, name: &syn::Ident, sig: &syn::Signature, block: &syn::Block) {
        let (first, last) = lines_of(sig.fn_token.span, block.brace_token.span.close());
        let lines = last + 1 - first;
        if lines > MAX_FUNCTION_LINES {
            self.long.push((name.to_string(), first, lines));
        }
    }

    fn test_item(&mut self, node: &impl Spanned) {
        let span = node.span();
        self.test_lines.extend(span.start().line..=span.end().line);
    }
}

impl<'ast> Visit<'ast> for Sizes {
    fn visit_item_mod(&mut self, m: &'ast syn::ItemMod) {
        if is_test(&m.attrs) {
            if m.content.is_none() {
                self.test_modules.push(m.ident.to_string());
            }
            self.test_item(m);
            return;
        }
        syn::visit::visit_item_mod(self, m);
    }

    fn visit_item_fn(&mut self, f: &'ast syn::ItemFn) {
        if is_test(&f.attrs) {
            self.test_item(f);
            return;
        }
        self.function(&f.sig.ident, &f.sig, &f.block);
        syn::visit::visit_item_fn(self, f);
    }

    fn visit_impl_item_fn(&mut self, f: &'ast syn::ImplItemFn) {
        if is_test(&f.attrs) {
            self.test_item(f);
            return;
        }
        self.function(&f.sig.ident, &f.sig, &f.block);
        syn::visit::visit_impl_item_fn(self, f);
    }

    fn visit_trait_item_fn(&mut self, f: &'ast syn::TraitItemFn) {
        if let Some(block) = &f.default {
            if !is_test(&f.attrs) {
                self.function(&f.sig.ident, &f.sig, block);
            }
        }
        syn::visit::visit_trait_item_fn(self, f);
    }

    fn visit_item_impl(&mut self, i: &'ast syn::ItemImpl) {
        if is_test(&i.attrs) {
            self.test_item(i);
            return;
        }
        syn::visit::visit_item_impl(self, i);
    }

    fn visit_item_use(&mut self, u: &'ast syn::ItemUse) {
        if is_test(&u.attrs) {
            self.test_item(u);
        }
    }

    fn visit_item_struct(&mut self, s: &'ast syn::ItemStruct) {
        if is_test(&s.attrs) {
            self.test_item(s);
        }
    }
}

/// Where the module `name` declared in `file` lives: `dir/name.rs` or `dir/name/mod.rs`,
/// `dir` being the folder of `file` for `lib.rs`, `main.rs` and `mod.rs`, else the folder
/// named after `file`.
fn module_file(file: &Path, name: &str) -> Vec<PathBuf> {
    let dir = file.parent().unwrap_or(Path::new(""));
    let stem = file.file_stem().and_then(|s| s.to_str()).unwrap_or("");
    let base = if matches!(stem, "lib" | "main" | "mod") {
        dir.to_path_buf()
    } else {
        dir.join(stem)
    };
    vec![
        base.join(format!("{name}.rs")),
        base.join(name).join("mod.rs"),
    ]
}

#[test]
fn no_function_over_100_lines_and_no_file_over_800_lines_of_non_test_code() {
    let root = workspace();
    let mut files = Vec::new();
    for dir in SOURCE_DIRS {
        rust_files(&root.join(dir), &mut files);
    }
    assert!(files.len() > 100, "found only {} files", files.len());
    let mut test_files: BTreeSet<PathBuf> = BTreeSet::new();
    let mut problems = Vec::new();
    let mut parsed = Vec::new();
    for file in &files {
        let text = std::fs::read_to_string(file).expect("readable source");
        let syntax = syn::parse_file(&text)
            .unwrap_or_else(|e| panic!("{}: not Rust syntax syn reads: {e}", file.display()));
        let mut sizes = Sizes::default();
        sizes.visit_file(&syntax);
        for name in &sizes.test_modules {
            test_files.extend(module_file(file, name));
        }
        parsed.push((file.clone(), text.lines().count(), sizes));
    }
    for (file, total, sizes) in parsed {
        if test_files.contains(&file) {
            continue;
        }
        let shown = file
            .strip_prefix(&root)
            .unwrap_or(&file)
            .display()
            .to_string();
        for (name, line, lines) in &sizes.long {
            problems.push(format!(
                "{shown}:{line}: `{name}` is {lines} lines long (at most {MAX_FUNCTION_LINES}): split it into steps with names that say what they do"
            ));
        }
        let code = total - sizes.test_lines.len();
        if code > MAX_FILE_LINES {
            problems.push(format!(
                "{shown}: {code} lines of non-test code (at most {MAX_FILE_LINES}): move a part with one job into a module of its own"
            ));
        }
    }
    assert!(problems.is_empty(), "{}", problems.join("\n"));
}

#[test]
fn the_rule_sees_a_long_function_and_skips_tests() {
    let body: String = (0..120).map(|i| format!("    let x{i} = {i};\n")).collect();
    let text = format!(
        "fn long() {{\n{body}}}\n\n#[cfg(test)]\nmod tests {{\n    #[test]\n    fn long_test() {{\n{body}    }}\n}}\n\nimpl S {{\n    fn method() {{\n{body}    }}\n}}\n"
    );
    let syntax = syn::parse_file(&text).unwrap();
    let mut sizes = Sizes::default();
    sizes.visit_file(&syntax);
    let names: Vec<&str> = sizes.long.iter().map(|(n, _, _)| n.as_str()).collect();
    assert_eq!(names, ["long", "method"]);
    assert_eq!(sizes.long[0].2, 122);
    // `#[cfg(test)]`, `mod tests {`, `#[test]`, `fn long_test() {`, 120 lines, two `}`.
    assert_eq!(sizes.test_lines.len(), 126);
}
