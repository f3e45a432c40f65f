//! `cargo xtask fuzz [--debug] [--time SECONDS] [--execs N] [--target NAME]... [--seed N]`:
//! builds the stable-Rust fuzzer (`fuzz/`, release unless `--debug`) and runs it; every
//! argument but `--debug` goes to `mathcourse-fuzz` (see `fuzz/src/main.rs`). Fails on any
//! finding: a panic, an abort, a hang or a case over 5 s.

use anyhow::{bail, Result};

use crate::util::{repo_root, run_in};

pub fn run(args: &[String]) -> Result<()> {
    let root = repo_root();
    let debug = args.iter().any(|a| a == "--debug");
    let rest: Vec<&str> = args
        .iter()
        .filter(|a| *a != "--debug")
        .map(String::as_str)
        .collect();
    let mut build = vec!["build", "--locked", "--quiet", "-p", "mathcourse-fuzz"];
    if !debug {
        build.push("--release");
    }
    run_in(&root, "cargo", &build)?;
    let target = std::env::var_os("CARGO_TARGET_DIR")
        .map(std::path::PathBuf::from)
        .unwrap_or_else(|| root.join("target"));
    let exe = target
        .join(if debug { "debug" } else { "release" })
        .join("mathcourse-fuzz");
    let status = std::process::Command::new(&exe)
        .args(&rest)
        .current_dir(&root)
        .status()?;
    if !status.success() {
        bail!("the fuzzer found problems (see above; inputs in target/fuzz/findings/)");
    }
    Ok(())
}
