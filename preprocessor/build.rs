//! Embeds every file under `../theme` (KaTeX CSS and fonts, our CSS and JS, the widget
//! bundle) into the binary, so assets always match the preprocessor version.

use std::fs;
use std::path::{Path, PathBuf};

fn main() {
    let manifest = PathBuf::from(std::env::var("CARGO_MANIFEST_DIR").unwrap());
    let theme = manifest
        .join("../theme")
        .canonicalize()
        .expect("theme/ folder");
    println!("cargo:rerun-if-changed={}", theme.display());
    let mut files = Vec::new();
    collect(&theme, &theme, &mut files);
    files.sort();
    let mut out = String::from("/// Every embedded asset: path relative to `theme/`, bytes.\npub static ASSETS: &[(&str, &[u8])] = &[\n");
    for (rel, abs) in files {
        out.push_str(&format!(
            "    ({rel:?}, include_bytes!({:?})),\n",
            abs.display().to_string()
        ));
    }
    out.push_str("];\n");
    let dest = PathBuf::from(std::env::var("OUT_DIR").unwrap()).join("assets.rs");
    fs::write(dest, out).unwrap();
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
