//! Render rate of the math engine, for `cargo xtask bench`.
//!
//! ```text
//! cargo run --release -p mdbook-mathcourse --example render_rate -- tests/bench/formulas.txt [--seconds 2]
//! ```
//!
//! Renders every formula of the corpus file (one TeX formula a line, `#` comments) in
//! inline and in display mode, round-robin, for `--seconds` seconds on one thread, then
//! on every thread of rayon's pool at once. Prints one JSON line:
//! `{"one_thread": renders_per_s, "all_threads": renders_per_s, "threads": n, "inputs": k}`.
//! `tests/bench/katex_rate.mjs` measures the official KaTeX the same way.

use std::hint::black_box;
use std::process::ExitCode;
use std::time::{Duration, Instant};

use mdbook_mathcourse::math::{render_raw, MathOptions};

fn main() -> ExitCode {
    match run() {
        Ok(()) => ExitCode::SUCCESS,
        Err(message) => {
            eprintln!("render_rate: {message}");
            ExitCode::FAILURE
        }
    }
}

fn run() -> Result<(), String> {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let mut corpus = None;
    let mut seconds = 2.0_f64;
    let mut it = args.iter();
    while let Some(arg) = it.next() {
        match arg.as_str() {
            "--seconds" => {
                seconds = it
                    .next()
                    .and_then(|s| s.parse().ok())
                    .filter(|s: &f64| *s > 0.0)
                    .ok_or("--seconds needs a positive number")?;
            }
            path if corpus.is_none() && !path.starts_with('-') => corpus = Some(path.to_string()),
            other => return Err(format!("unexpected argument `{other}`")),
        }
    }
    let corpus = corpus.ok_or("usage: render_rate <formulas.txt> [--seconds S]")?;
    let text = std::fs::read_to_string(&corpus)
        .map_err(|err| format!("could not read `{corpus}`: {err}"))?;
    let inputs = inputs(&text);
    if inputs.is_empty() {
        return Err(format!("`{corpus}` holds no formula"));
    }
    let options = MathOptions::default();
    let duration = Duration::from_secs_f64(seconds);

    // Every input must render; this also warms up the thread's engine context.
    for (tex, display) in &inputs {
        render_raw(tex, *display, &options)
            .map_err(|err| format!("`{tex}` (display: {display}) failed: {}", err.message))?;
    }

    // One thread: a warm-up of a quarter of the duration, then the measured run.
    render_for(&inputs, &options, Instant::now() + duration / 4);
    let start = Instant::now();
    let renders = render_for(&inputs, &options, start + duration);
    let one_thread = renders as f64 / start.elapsed().as_secs_f64();

    // All threads: every thread of the pool renders until the same deadline.
    let threads = rayon::current_num_threads();
    let warm_until = Instant::now() + duration / 4;
    rayon::broadcast(|_| render_for(&inputs, &options, warm_until));
    let start = Instant::now();
    let deadline = start + duration;
    let counts = rayon::broadcast(|_| render_for(&inputs, &options, deadline));
    let all_threads = counts.iter().sum::<u64>() as f64 / start.elapsed().as_secs_f64();

    println!(
        "{{\"one_thread\": {one_thread:.1}, \"all_threads\": {all_threads:.1}, \"threads\": {threads}, \"inputs\": {}}}",
        inputs.len()
    );
    Ok(())
}

/// Each formula of the corpus, inline then display.
fn inputs(text: &str) -> Vec<(String, bool)> {
    let formulas: Vec<&str> = text
        .lines()
        .map(str::trim)
        .filter(|l| !l.is_empty() && !l.starts_with('#'))
        .collect();
    [false, true]
        .into_iter()
        .flat_map(|display| formulas.iter().map(move |f| (f.to_string(), display)))
        .collect()
}

/// Renders the inputs round-robin until `deadline` (checked after each full pass);
/// returns the number of renders.
fn render_for(inputs: &[(String, bool)], options: &MathOptions, deadline: Instant) -> u64 {
    let mut renders = 0;
    loop {
        for (tex, display) in inputs {
            let html = render_raw(tex, *display, options);
            black_box(html.map(|h| h.len()).unwrap_or(0));
            renders += 1;
        }
        if Instant::now() >= deadline {
            return renders;
        }
    }
}
