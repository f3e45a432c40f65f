//! `cargo xtask bench`: measurements written to BENCHMARKS.md.

use anyhow::{bail, Result};

/// Runs the benchmarks.
pub fn run(_args: &[String]) -> Result<()> {
    bail!("the benchmark is not written yet")
}
