//! The render rate: `preprocessor/examples/render_rate.rs` (katex-rs) and
//! `tests/bench/katex_rate.mjs` (the official KaTeX under Node) on the same inputs, on
//! one thread and on all threads, in alternating rounds.

use std::path::Path;
use std::process::Command;

use anyhow::{bail, Context, Result};

use super::{median, Plan};

/// One engine's render rate.
#[derive(Debug, Clone, Copy, Default)]
pub struct Rate {
    /// Renders per second on one thread.
    pub one_thread: f64,
    /// Renders per second on all threads.
    pub all_threads: f64,
    /// Threads used for `all_threads`.
    pub threads: f64,
}

impl Rate {
    /// Renders per second per thread when all threads run.
    pub fn per_core(&self) -> f64 {
        self.all_threads / self.threads
    }
}

/// Both engines' render rates (medians over the rounds).
#[derive(Debug, Clone)]
pub struct RateResult {
    pub ours: Rate,
    pub node: Rate,
    pub inputs: usize,
    pub rounds: usize,
    pub seconds: f64,
}

pub(super) fn render_rate(root: &Path, target: &Path, plan: &Plan) -> Result<RateResult> {
    let corpus = root.join("tests/bench/formulas.txt");
    let example = target.join("release/examples/render_rate");
    let script = root.join("tests/bench/katex_rate.mjs");
    let seconds = plan.rate_seconds.to_string();
    let mut ours = Vec::new();
    let mut node = Vec::new();
    let mut inputs = 0;
    for round in 1..=plan.rate_rounds {
        eprintln!(
            "xtask: render rate, round {round}/{}: katex-rs, then Node KaTeX",
            plan.rate_rounds
        );
        let mut cmd = Command::new(&example);
        cmd.arg(&corpus).args(["--seconds", &seconds]);
        let (rate, n) = run_rate(cmd, "render_rate example")?;
        ours.push(rate);
        inputs = n;
        let mut cmd = Command::new("node");
        cmd.arg(&script).arg(&corpus).args(["--seconds", &seconds]);
        let (rate, n) = run_rate(cmd, "tests/bench/katex_rate.mjs")?;
        if n != inputs {
            bail!("the two engines rendered different corpora ({inputs} and {n} inputs)");
        }
        node.push(rate);
    }
    let median_rate = |rates: &[Rate]| Rate {
        one_thread: median(rates.iter().map(|r| r.one_thread).collect()),
        all_threads: median(rates.iter().map(|r| r.all_threads).collect()),
        threads: median(rates.iter().map(|r| r.threads).collect()),
    };
    Ok(RateResult {
        ours: median_rate(&ours),
        node: median_rate(&node),
        inputs,
        rounds: plan.rate_rounds,
        seconds: plan.rate_seconds,
    })
}

/// Runs a render-rate program and reads its JSON line.
fn run_rate(mut cmd: Command, what: &str) -> Result<(Rate, usize)> {
    let out = cmd
        .output()
        .with_context(|| format!("could not run the {what}"))?;
    let stdout = String::from_utf8_lossy(&out.stdout);
    if !out.status.success() {
        bail!(
            "the {what} failed ({}):\n{}{}",
            out.status,
            stdout,
            String::from_utf8_lossy(&out.stderr)
        );
    }
    let field = |key: &str| {
        json_number(&stdout, key)
            .with_context(|| format!("no `{key}` in the output of the {what}: {stdout}"))
    };
    let rate = Rate {
        one_thread: field("one_thread")?,
        all_threads: field("all_threads")?,
        threads: field("threads")?,
    };
    eprintln!(
        "xtask:   {what}: {:.0}/s on 1 thread, {:.0}/s on {} threads",
        rate.one_thread, rate.all_threads, rate.threads
    );
    Ok((rate, field("inputs")? as usize))
}

/// The number after `"key":` in a flat JSON object.
fn json_number(json: &str, key: &str) -> Option<f64> {
    let quoted = format!("\"{key}\"");
    let rest = &json[json.find(&quoted)? + quoted.len()..];
    let rest = rest.trim_start().strip_prefix(':')?.trim_start();
    let end = rest
        .find(|c: char| !(c.is_ascii_digit() || matches!(c, '.' | '-' | '+' | 'e' | 'E')))
        .unwrap_or(rest.len());
    rest[..end].parse().ok()
}
