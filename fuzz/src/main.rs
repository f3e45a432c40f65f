//! `mathcourse-fuzz`: a fuzzer that runs on stable Rust (`cargo xtask fuzz`).
//!
//! ```text
//! mathcourse-fuzz [--time SECONDS] [--execs N] [--target NAME]... [--seed N]
//! ```
//!
//! The supervisor runs batches of inputs in a worker process (this same binary, `worker`
//! mode). A panic is caught in the worker; an abort (a stack overflow) or a hang kills
//! the worker, and the supervisor then replays that batch one input at a time, the
//! current input written to a file first, so the input that aborts is kept too. Every
//! finding (panic, abort, a case over 5 s) is written to `target/fuzz/findings/` and
//! makes the run fail. Inputs are real chapters of this repository (the course book
//! and the test fixtures) cut into pieces and mutated (see [`mutate`]).

mod mutate;
mod targets;

use std::io::{BufRead, BufReader, Write};
use std::path::{Path, PathBuf};
use std::process::{Command, ExitCode, Stdio};
use std::time::{Duration, Instant};

use targets::Target;

/// A case that takes longer than this is a finding.
const SLOW: Duration = Duration::from_secs(5);

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let result = match args.first().map(String::as_str) {
        Some("worker") => worker(&args[1..]),
        Some("file") => run_file(&args[1..]),
        _ => supervise(&args),
    };
    match result {
        Ok(true) => ExitCode::SUCCESS,
        Ok(false) => ExitCode::FAILURE,
        Err(message) => {
            eprintln!("mathcourse-fuzz: {message}");
            ExitCode::from(2)
        }
    }
}

fn repo_root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .parent()
        .unwrap()
        .to_path_buf()
}

fn corpus() -> Vec<String> {
    let root = repo_root();
    mutate::corpus(&[root.join("book/src"), root.join("tests/testsuite")])
}

fn findings_dir() -> PathBuf {
    let target = std::env::var_os("CARGO_TARGET_DIR")
        .map(PathBuf::from)
        .unwrap_or_else(|| repo_root().join("target"));
    target.join("fuzz").join("findings")
}

/// `file TARGET PATH`: runs one saved input (a finding) and prints how long it took.
fn run_file(args: &[String]) -> Result<bool, String> {
    let [target, path] = args else {
        return Err("usage: file TARGET PATH".into());
    };
    let target = Target::from_name(target).ok_or("unknown target")?;
    let input = std::fs::read_to_string(path).map_err(|e| format!("{path}: {e}"))?;
    std::thread::Builder::new()
        .stack_size(mdbook_mathcourse::RENDER_STACK_BYTES)
        .spawn(move || {
            let fixture = targets::Fixture::new();
            let start = Instant::now();
            targets::run(target, &input, &fixture, 1);
            let took = start.elapsed();
            println!("{} ms", took.as_millis());
            took <= SLOW
        })
        .map_err(|e| e.to_string())?
        .join()
        .map_err(|_| "the input panicked".to_string())
}

// Worker ------------------------------------------------------------------------------

/// `worker TARGET SEED FROM COUNT [REPLAY_FILE]`: runs inputs `FROM..FROM+COUNT`; prints
/// `panic INDEX MESSAGE` and `slow INDEX MILLIS` lines, then `done EXECS MAX_MICROS`.
fn worker(args: &[String]) -> Result<bool, String> {
    let [target, seed, from, count, rest @ ..] = args else {
        return Err("usage: worker TARGET SEED FROM COUNT [REPLAY_FILE]".into());
    };
    let target = Target::from_name(target).ok_or("unknown target")?;
    let seed: u64 = seed.parse().map_err(|_| "bad seed")?;
    let from: u64 = from.parse().map_err(|_| "bad FROM")?;
    let count: u64 = count.parse().map_err(|_| "bad COUNT")?;
    let replay = rest.first().map(PathBuf::from);
    // Like the preprocessor, render on a thread with the render stack.
    std::thread::Builder::new()
        .stack_size(mdbook_mathcourse::RENDER_STACK_BYTES)
        .spawn(move || run_batch(target, seed, from, count, replay.as_deref()))
        .map_err(|e| e.to_string())?
        .join()
        .map_err(|_| "worker thread died".to_string())
}

fn run_batch(target: Target, seed: u64, from: u64, count: u64, replay: Option<&Path>) -> bool {
    let corpus = corpus();
    let fixture = targets::Fixture::new();
    std::panic::set_hook(Box::new(|_| {}));
    let mut out = std::io::stdout().lock();
    let mut max = Duration::ZERO;
    let mut sink = 0usize;
    for index in from..from + count {
        let input = mutate::input(&corpus, seed, index);
        if let Some(file) = replay {
            let _ = std::fs::write(file, &input);
        }
        let start = Instant::now();
        let result = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
            targets::run(target, &input, &fixture, index)
        }));
        let took = start.elapsed();
        max = max.max(took);
        match result {
            Ok(n) => sink = sink.wrapping_add(n),
            Err(payload) => {
                let message = payload
                    .downcast_ref::<&str>()
                    .map(|s| s.to_string())
                    .or_else(|| payload.downcast_ref::<String>().cloned())
                    .unwrap_or_else(|| "unknown panic".into());
                save(target, seed, index, "panic", &input);
                let _ = writeln!(out, "panic {index} {}", message.replace('\n', " "));
            }
        }
        if took > SLOW {
            save(target, seed, index, "slow", &input);
            let _ = writeln!(out, "slow {index} {}", took.as_millis());
        }
    }
    let _ = writeln!(out, "done {count} {} {}", max.as_micros(), sink % 2);
    true
}

fn save(target: Target, seed: u64, index: u64, kind: &str, input: &str) -> PathBuf {
    let dir = findings_dir();
    let _ = std::fs::create_dir_all(&dir);
    let path = dir.join(format!("{}-{kind}-{seed}-{index}.md", target.name()));
    let _ = std::fs::write(&path, input);
    path
}

// Supervisor ----------------------------------------------------------------------------

struct Plan {
    time: Option<Duration>,
    execs: Option<u64>,
    targets: Vec<Target>,
    seed: u64,
}

fn parse(args: &[String]) -> Result<Plan, String> {
    let mut plan = Plan {
        time: None,
        execs: None,
        targets: Vec::new(),
        seed: 1,
    };
    let mut it = args.iter();
    while let Some(arg) = it.next() {
        let mut value = || it.next().ok_or(format!("{arg} needs a value"));
        match arg.as_str() {
            "--time" => {
                let s: f64 = value()?.parse().map_err(|_| "--time takes seconds")?;
                plan.time = Some(Duration::from_secs_f64(s));
            }
            "--execs" => plan.execs = Some(value()?.parse().map_err(|_| "--execs takes a number")?),
            "--seed" => plan.seed = value()?.parse().map_err(|_| "--seed takes a number")?,
            "--target" => {
                let name = value()?;
                let names: Vec<&str> = targets::ALL.iter().map(|t| t.name()).collect();
                plan.targets.push(Target::from_name(name).ok_or(format!(
                    "unknown target `{name}`; the targets are {}",
                    names.join(", ")
                ))?);
            }
            other => return Err(format!("unknown argument `{other}`")),
        }
    }
    if plan.targets.is_empty() {
        plan.targets = targets::ALL.to_vec();
    }
    if plan.time.is_none() && plan.execs.is_none() {
        plan.time = Some(Duration::from_secs(60));
    }
    Ok(plan)
}

#[derive(Default)]
struct Tally {
    execs: u64,
    max: Duration,
    findings: Vec<String>,
    elapsed: Duration,
}

fn supervise(args: &[String]) -> Result<bool, String> {
    let plan = parse(args)?;
    let exe = std::env::current_exe().map_err(|e| e.to_string())?;
    let share = plan.time.map(|t| t / plan.targets.len() as u32);
    println!(
        "mathcourse-fuzz: seed {}, {} per target, findings in {}",
        plan.seed,
        match (share, plan.execs) {
            (Some(t), None) => format!("{:.0} s", t.as_secs_f64()),
            (None, Some(n)) => format!("{n} executions"),
            (Some(t), Some(n)) => format!("{:.0} s or {n} executions", t.as_secs_f64()),
            (None, None) => unreachable!("parse sets one"),
        },
        findings_dir().display()
    );
    let mut ok = true;
    for &target in &plan.targets {
        let tally = fuzz_target(&exe, target, &plan, share)?;
        println!(
            "  {:<8} {:>9} executions in {:>6.1} s ({:>7.0}/s), slowest case {:>7.1} ms, {} finding{}",
            target.name(),
            tally.execs,
            tally.elapsed.as_secs_f64(),
            tally.execs as f64 / tally.elapsed.as_secs_f64().max(1e-9),
            tally.max.as_secs_f64() * 1e3,
            tally.findings.len(),
            if tally.findings.len() == 1 { "" } else { "s" }
        );
        for f in &tally.findings {
            println!("    {f}");
        }
        ok &= tally.findings.is_empty();
    }
    Ok(ok)
}

fn fuzz_target(
    exe: &Path,
    target: Target,
    plan: &Plan,
    share: Option<Duration>,
) -> Result<Tally, String> {
    let start = Instant::now();
    let mut tally = Tally::default();
    let mut batch = 50u64;
    let mut next = 0u64;
    loop {
        let left_execs = plan.execs.map(|n| n.saturating_sub(tally.execs));
        if left_execs == Some(0) || share.is_some_and(|t| start.elapsed() >= t) {
            break;
        }
        let count = left_execs.map_or(batch, |n| n.min(batch));
        let batch_start = Instant::now();
        let outcome = run_worker(
            exe,
            target,
            plan.seed,
            next,
            count,
            None,
            SLOW * 4 + Duration::from_secs(30),
        )?;
        match outcome {
            WorkerOutcome::Done { max, lines } => {
                tally.max = tally.max.max(max);
                tally.findings.extend(lines);
            }
            WorkerOutcome::Died(why) => {
                // Replay one input at a time to keep the one that kills the worker.
                let file = findings_dir().join(format!("{}-current.md", target.name()));
                std::fs::create_dir_all(findings_dir()).map_err(|e| e.to_string())?;
                let again = run_worker(
                    exe,
                    target,
                    plan.seed,
                    next,
                    count,
                    Some(&file),
                    SLOW * 4 + Duration::from_secs(30),
                )?;
                let kept = save(
                    target,
                    plan.seed,
                    next,
                    "abort",
                    &std::fs::read_to_string(&file).unwrap_or_default(),
                );
                tally.findings.push(match again {
                    WorkerOutcome::Died(why) => format!("{why}: input kept in {}", kept.display()),
                    WorkerOutcome::Done { .. } => format!(
                        "{why} in batch {next}..{} (not reproduced one at a time)",
                        next + count
                    ),
                });
                let _ = why;
            }
        }
        tally.execs += count;
        next += count;
        // Batches of about two seconds.
        let took = batch_start.elapsed().as_secs_f64().max(1e-3);
        batch = ((batch as f64) * (2.0 / took)).clamp(10.0, 100_000.0) as u64;
    }
    tally.elapsed = start.elapsed();
    Ok(tally)
}

enum WorkerOutcome {
    Done { max: Duration, lines: Vec<String> },
    Died(String),
}

#[allow(clippy::too_many_arguments)]
fn run_worker(
    exe: &Path,
    target: Target,
    seed: u64,
    from: u64,
    count: u64,
    replay: Option<&Path>,
    limit: Duration,
) -> Result<WorkerOutcome, String> {
    let mut cmd = Command::new(exe);
    cmd.args([
        "worker",
        target.name(),
        &seed.to_string(),
        &from.to_string(),
        &count.to_string(),
    ]);
    if let Some(file) = replay {
        cmd.arg(file);
    }
    let mut child = cmd
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .map_err(|e| format!("could not start the worker: {e}"))?;
    let stdout = child.stdout.take().expect("piped");
    let reader = std::thread::spawn(move || {
        BufReader::new(stdout)
            .lines()
            .map_while(Result::ok)
            .collect::<Vec<_>>()
    });
    // The worker must finish within `limit` per input in replay mode, per batch otherwise.
    let deadline = Instant::now()
        + if replay.is_some() {
            limit * count as u32
        } else {
            limit.max(Duration::from_secs(120))
        };
    let status = loop {
        if let Some(status) = child.try_wait().map_err(|e| e.to_string())? {
            break Some(status);
        }
        if Instant::now() > deadline {
            let _ = child.kill();
            let _ = child.wait();
            break None;
        }
        std::thread::sleep(Duration::from_millis(20));
    };
    let lines = reader.join().unwrap_or_default();
    let Some(status) = status else {
        return Ok(WorkerOutcome::Died("hang (killed by the watchdog)".into()));
    };
    let done = lines.iter().find_map(|l| l.strip_prefix("done "));
    match (status.success(), done) {
        (true, Some(done)) => {
            let micros: u64 = done
                .split(' ')
                .nth(1)
                .and_then(|m| m.parse().ok())
                .unwrap_or(0);
            let findings = lines
                .iter()
                .filter(|l| l.starts_with("panic ") || l.starts_with("slow "))
                .map(|l| {
                    format!(
                        "{}: {l} (input in {})",
                        target.name(),
                        findings_dir().display()
                    )
                })
                .collect();
            Ok(WorkerOutcome::Done {
                max: Duration::from_micros(micros),
                lines: findings,
            })
        }
        _ => Ok(WorkerOutcome::Died(format!("worker died ({status})"))),
    }
}
