//! Embeds every file under `theme/` (KaTeX CSS and fonts, our CSS and JS, the widget
//! bundle) into the binary, so assets always match the preprocessor version; and every
//! template under `templates/` (a new directive's template is picked up by its file
//! alone). The folder
//! lives inside this crate so that the published package carries it (`include` in
//! Cargo.toml).
//!
//! Our own scripts (`theme/*.js`, not the generated bundle) are embedded without their
//! comment lines and indentation (`src/compact_js.rs`): the code itself stays as written,
//! line for line, and a reader downloads about a quarter less (gzip).

use std::fs;
use std::path::{Path, PathBuf};

#[path = "src/compact_js.rs"]
mod compact_js;
use compact_js::compact_js;

fn main() {
    let manifest = PathBuf::from(std::env::var("CARGO_MANIFEST_DIR").unwrap());
    let theme = manifest
        .join("theme")
        .canonicalize()
        .expect("theme/ folder");
    // Relative to the package: two checkouts sharing one target dir (a fresh clone built
    // with the main checkout's target) may reuse this script's last run, and an absolute
    // path would keep watching the other checkout's theme.
    println!("cargo:rerun-if-changed=theme");
    let mut files = Vec::new();
    collect(&theme, &theme, &mut files);
    files.sort();
    let out_dir = PathBuf::from(std::env::var("OUT_DIR").unwrap());
    let mut out = String::from("/// Every embedded asset: path relative to `theme/`, bytes.\npub static ASSETS: &[(&str, &[u8])] = &[\n");
    // Paths in the generated code are written from `env!` at compile time, never as this
    // run saw them: a run reused by another checkout (above) must not embed this one's
    // files.
    for (rel, abs) in files {
        let source = if rel.ends_with(".js") && !rel.contains('/') {
            let text = fs::read_to_string(&abs).unwrap();
            fs::write(out_dir.join(&rel), compact_js(&text)).unwrap();
            format!("concat!(env!(\"OUT_DIR\"), {:?})", format!("/{rel}"))
        } else {
            format!(
                "concat!(env!(\"CARGO_MANIFEST_DIR\"), {:?})",
                format!("/theme/{rel}")
            )
        };
        out.push_str(&format!("    ({rel:?}, include_bytes!({source})),\n"));
    }
    out.push_str("];\n");
    let dest = out_dir.join("assets.rs");
    fs::write(dest, out).unwrap();
    embed_templates(&manifest, &out_dir);
}

/// `templates.rs` in `OUT_DIR`: `BUILTIN`, every `templates/*.html` by name, sorted.
fn embed_templates(manifest: &Path, out_dir: &Path) {
    println!("cargo:rerun-if-changed=templates");
    let dir = manifest.join("templates");
    let mut names: Vec<String> = fs::read_dir(&dir)
        .expect("templates/ folder")
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|e| e == "html"))
        .map(|p| p.file_name().unwrap().to_string_lossy().to_string())
        .collect();
    names.sort();
    let mut out = String::from(
        "/// The built-in templates: name, text.\npub const BUILTIN: &[(&str, &str)] = &[\n",
    );
    for name in names {
        out.push_str(&format!(
            "    ({name:?}, include_str!(concat!(env!(\"CARGO_MANIFEST_DIR\"), {:?}))),\n",
            format!("/templates/{name}")
        ));
    }
    out.push_str("];\n");
    fs::write(out_dir.join("templates.rs"), out).unwrap();
}

fn collect(root: &Path, dir: &Path, files: &mut Vec<(String, PathBuf)>) {
    for entry in fs::read_dir(dir).unwrap() {
        let path = entry.unwrap().path();
        let name = path.file_name().unwrap().to_string_lossy().to_string();
        if name.starts_with('.') || name == "README.md" {
            continue;
        }
        if path.is_dir() {
            collect(root, &path, files);
        } else {
            let rel = path
                .strip_prefix(root)
                .unwrap()
                .to_string_lossy()
                .replace('\\', "/");
            files.push((rel, path));
        }
    }
}
