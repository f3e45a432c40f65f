//! `cargo xtask wasm [--check]`: builds the widget bundle into `preprocessor/theme/widgets/`.
//!
//! 1. `cargo build -p mathcourse-widgets-wasm --target wasm32-unknown-unknown --profile
//!    wasm-release` (opt-level "z", LTO, panic abort, one codegen unit; see the root
//!    `Cargo.toml`), with the machine's paths remapped so the bytes do not depend on
//!    where the repository or `~/.cargo` live;
//! 2. wasm-bindgen, as the `wasm-bindgen-cli-support` library pinned to exactly the
//!    `wasm-bindgen` version of `widgets/wasm` (`--target web`, no TypeScript). The
//!    library defaults `omit_default_module_path` to true, unlike the CLI; we set it to
//!    false, but the loader (`preprocessor/theme/mathcourse.js`) passes the wasm URL explicitly
//!    anyway, so the bundle works wherever the book is served from;
//! 3. binaryen's `wasm-opt -Oz` from the npm package pinned in
//!    `widgets/wasm/package-lock.json` (installed with `npm ci` when missing; Debian's
//!    binaryen 108 produces modules that Chromium rejects);
//! 4. terser (pinned there too) minifies the generated JS module: 11.7 → 4.4 KB, 1.3 KB
//!    less gzip. Only generated code is minified; our own scripts ship as written.
//!
//! The two output files are committed, so `cargo install --path preprocessor` from a
//! fresh clone needs no wasm toolchain (`preprocessor/build.rs` embeds everything under
//! `preprocessor/theme/`). `--check` (run by `cargo xtask test`) rebuilds into the target folder and
//! fails when the result differs from the committed bytes.

use std::fs;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

use anyhow::{bail, Context, Result};

use crate::util::{output_of, repo_root, run_in};

/// Where the bundle is committed, relative to the repository root.
pub const OUT_DIR: &str = "preprocessor/theme/widgets";
/// The wasm-bindgen JS module.
pub const JS_FILE: &str = "mathcourse_widgets.js";
/// The optimized wasm module.
pub const WASM_FILE: &str = "mathcourse_widgets_bg.wasm";

const TARGET: &str = "wasm32-unknown-unknown";
const PACKAGE: &str = "mathcourse-widgets-wasm";
const LIB_NAME: &str = "mathcourse_widgets_wasm";
const OUT_NAME: &str = "mathcourse_widgets";

/// `cargo xtask wasm [--check]`.
pub fn run(args: &[String]) -> Result<()> {
    if args.iter().any(|a| a == "--check") {
        return check();
    }
    let root = repo_root();
    let dest = root.join(OUT_DIR);
    let built = build()?;
    fs::create_dir_all(&dest)?;
    for (name, path) in [(JS_FILE, &built.js), (WASM_FILE, &built.wasm)] {
        fs::copy(path, dest.join(name))
            .with_context(|| format!("could not write {OUT_DIR}/{name}"))?;
    }
    let js = fs::metadata(&built.js)?.len();
    let wasm = fs::metadata(&built.wasm)?.len();
    eprintln!(
        "xtask: wrote {OUT_DIR}/{JS_FILE} ({js} bytes) and {OUT_DIR}/{WASM_FILE} ({wasm} bytes); commit them"
    );
    Ok(())
}

/// Rebuilds the bundle and fails when it differs from the committed `preprocessor/theme/widgets/`.
pub fn check() -> Result<()> {
    let root = repo_root();
    let built = build()?;
    let mut stale = Vec::new();
    for (name, path) in [(JS_FILE, &built.js), (WASM_FILE, &built.wasm)] {
        let fresh = fs::read(path)?;
        let committed = fs::read(root.join(OUT_DIR).join(name)).unwrap_or_default();
        if fresh != committed {
            stale.push(format!(
                "{OUT_DIR}/{name} ({} bytes committed, {} bytes built)",
                committed.len(),
                fresh.len()
            ));
        }
    }
    if !stale.is_empty() {
        bail!(
            "the committed widget bundle is stale: {}\n       run `cargo xtask wasm` and commit preprocessor/theme/widgets/",
            stale.join(", ")
        );
    }
    eprintln!("xtask: preprocessor/theme/widgets/ matches a fresh build of the widget bundle");
    Ok(())
}

/// Paths of a freshly built bundle (inside the target folder).
pub struct Built {
    /// The JS module.
    pub js: PathBuf,
    /// The optimized wasm.
    pub wasm: PathBuf,
}

/// Builds the bundle into `<target>/wasm32-unknown-unknown/wasm-release/bundle/`.
pub fn build() -> Result<Built> {
    let root = repo_root();
    ensure_target()?;
    let raw = cargo_build(&root)?;
    let out = raw.parent().unwrap().join("bundle");
    fs::create_dir_all(&out)?;

    eprintln!(
        "xtask: wasm-bindgen {} (library, --target web)",
        wasm_bindgen_version()
    );
    let mut bindgen = wasm_bindgen_cli_support::Bindgen::new();
    bindgen
        .input_path(&raw)
        .out_name(OUT_NAME)
        .typescript(false)
        .omit_default_module_path(false)
        .remove_name_section(true)
        .remove_producers_section(true);
    bindgen.web(true)?;
    let mut output = bindgen.generate_output().context("wasm-bindgen failed")?;
    if output.snippets().values().any(|s| !s.is_empty()) || !output.local_modules().is_empty() {
        bail!("the widget bundle must be one JS file: no inline_js or local JS modules");
    }
    let bindgen_js = out.join("bindgen.js");
    fs::write(&bindgen_js, output.js())?;
    let bindgen_wasm = out.join("bindgen.wasm");
    fs::write(&bindgen_wasm, output.wasm_mut().emit_wasm())?;

    let wasm = out.join(WASM_FILE);
    wasm_opt(&bindgen_wasm, &wasm)?;
    let minified = terser(&bindgen_js)?;
    let js = format!(
        "// Generated and minified by `cargo xtask wasm` (wasm-bindgen {}); do not edit.\n{}\n",
        wasm_bindgen_version(),
        minified.trim_end()
    );
    let js_path = out.join(JS_FILE);
    fs::write(&js_path, js)?;
    Ok(Built { js: js_path, wasm })
}

fn wasm_bindgen_version() -> &'static str {
    "0.2.130"
}

/// Adds the wasm target with rustup when it is missing.
fn ensure_target() -> Result<()> {
    let installed = output_of("rustup", &["target", "list", "--installed"]).unwrap_or_default();
    if installed.lines().any(|l| l.trim() == TARGET) {
        return Ok(());
    }
    run_in(&repo_root(), "rustup", &["target", "add", TARGET])
}

/// Builds the cdylib; returns the path of the raw `.wasm`.
fn cargo_build(root: &Path) -> Result<PathBuf> {
    let cargo_home = std::env::var_os("CARGO_HOME")
        .map(PathBuf::from)
        .or_else(|| std::env::var_os("HOME").map(|h| PathBuf::from(h).join(".cargo")))
        .unwrap_or_else(|| PathBuf::from("/nonexistent"));
    // Panic locations carry source paths: make them independent of this machine.
    let flags = [
        format!("--remap-path-prefix={}=/cargo", cargo_home.display()),
        format!("--remap-path-prefix={}=/repo", root.display()),
    ]
    .join("\x1f");
    let args = [
        "build",
        "--locked",
        "-p",
        PACKAGE,
        "--target",
        TARGET,
        "--profile",
        "wasm-release",
        "--message-format=json-render-diagnostics",
    ];
    eprintln!("xtask: $ cargo {}", args.join(" "));
    let out = Command::new(std::env::var("CARGO").unwrap_or_else(|_| "cargo".into()))
        .args(args)
        .current_dir(root)
        .env("CARGO_ENCODED_RUSTFLAGS", flags)
        .stderr(Stdio::inherit())
        .output()
        .context("could not run cargo")?;
    if !out.status.success() {
        bail!("building the widget wasm failed");
    }
    let stdout = String::from_utf8_lossy(&out.stdout);
    for line in stdout.lines() {
        let Ok(msg) = serde_json::from_str::<serde_json::Value>(line) else {
            continue;
        };
        if msg["reason"] != "compiler-artifact" || msg["target"]["name"] != LIB_NAME {
            continue;
        }
        if let Some(files) = msg["filenames"].as_array() {
            for f in files.iter().filter_map(|f| f.as_str()) {
                if f.ends_with(".wasm") {
                    return Ok(PathBuf::from(f));
                }
            }
        }
    }
    bail!("cargo built no .wasm for {PACKAGE}")
}

/// `widgets/wasm/`, with its pinned npm tools installed (`npm ci` when the lock file
/// changed since the last install).
fn npm_tools() -> Result<PathBuf> {
    let dir = repo_root().join("widgets/wasm");
    let lock = fs::read(dir.join("package-lock.json")).context("widgets/wasm/package-lock.json")?;
    let stamp = dir.join("node_modules/.xtask-lock");
    if fs::read(&stamp).ok().as_deref() != Some(&lock[..]) {
        run_in(&dir, "npm", &["ci", "--no-audit", "--no-fund"])?;
        fs::write(&stamp, &lock)?;
    }
    Ok(dir)
}

/// The ES module at `input`, minified by the pinned terser (compress + mangle; the
/// exported names stay).
fn terser(input: &Path) -> Result<String> {
    let dir = npm_tools()?;
    let tool = dir.join("node_modules/terser/bin/terser");
    let out = Command::new("node")
        .arg(&tool)
        .arg(input)
        .args(["--module", "--compress", "--mangle", "--comments", "false"])
        .current_dir(&dir)
        .stderr(Stdio::inherit())
        .output()
        .context("could not run node (terser)")?;
    if !out.status.success() {
        bail!("terser failed on {}", input.display());
    }
    String::from_utf8(out.stdout).context("terser printed non-UTF-8")
}

/// `wasm-opt -Oz` from the pinned npm package.
fn wasm_opt(input: &Path, output: &Path) -> Result<()> {
    let dir = npm_tools()?;
    let tool = dir.join("node_modules/binaryen/bin/wasm-opt");
    let args: Vec<String> = vec![
        tool.display().to_string(),
        "-Oz".into(),
        // The features rustc enables by default for wasm32-unknown-unknown.
        "--enable-bulk-memory".into(),
        "--enable-bulk-memory-opt".into(),
        "--enable-nontrapping-float-to-int".into(),
        "--enable-sign-ext".into(),
        "--enable-mutable-globals".into(),
        "--enable-multivalue".into(),
        "--enable-reference-types".into(),
        "--strip-debug".into(),
        "--strip-producers".into(),
        input.display().to_string(),
        "-o".into(),
        output.display().to_string(),
    ];
    let args: Vec<&str> = args.iter().map(String::as_str).collect();
    run_in(&dir, "node", &args)
}
