//! `cargo xtask bench-widgets`: the widget bundle's size and speed, written as the
//! "## Widgets" section of BENCHMARKS.md (after the `<!-- more benchmarks below -->`
//! marker, replacing an earlier Widgets section).
//!
//! 1. Size: the committed bundle (`preprocessor/theme/widgets/`) and the loader, raw and gzip
//!    (level 9), against the budget of 68 KB gzip for all widgets together (raised from 40 KB when the ninth widget, `plot`, came in; issue #16).
//! 2. Speed, in headless Chromium (the ignored test `browser::widgets_benchmark` of the
//!    tests crate, which writes `target/bench/widgets.json`): the time to handle one
//!    slider `input` event and one pointer `pointermove` of a drag, including the wasm
//!    call, the re-render, the DOM morph and a forced style/layout, measured with
//!    `performance.now()` over 200 events dispatched from a script injected through
//!    WebDriver; and the time from navigation start to every visible widget live.

use std::fs;
use std::io::Write;
use std::path::Path;

use anyhow::{bail, Context, Result};
use flate2::write::GzEncoder;
use flate2::Compression;
use serde_json::Value;

use crate::util::{repo_root, run_in, target_dir};

/// The budget for wasm + JS, gzip.
const BUDGET_GZIP: usize = 68 * 1024;
/// The budget for one event, median.
const BUDGET_EVENT_MS: f64 = 2.0;
use crate::util::MORE_BENCHMARKS as MARKER;

fn gzip_len(bytes: &[u8]) -> Result<usize> {
    let mut enc = GzEncoder::new(Vec::new(), Compression::new(9));
    enc.write_all(bytes)?;
    Ok(enc.finish()?.len())
}

fn kb(n: usize) -> String {
    format!("{:.1} KB", n as f64 / 1024.0)
}

/// The assets folder of a book built by the debug binary: the scripts as a reader gets
/// them (`preprocessor/build.rs` removes comment lines and indentation).
fn shipped_assets(root: &Path) -> Result<std::path::PathBuf> {
    run_in(
        root,
        "cargo",
        &[
            "build",
            "--locked",
            "-p",
            "mdbook-mathcourse",
            "--bin",
            "mdbook-mathcourse",
        ],
    )?;
    let bin = target_dir(root).join("debug");
    let book = target_dir(root).join("bench").join("shipped-assets-book");
    let _ = fs::remove_dir_all(&book);
    let out = std::process::Command::new(bin.join("mdbook-mathcourse"))
        .arg("init")
        .arg(&book)
        .output()
        .context("could not run mdbook-mathcourse init")?;
    if !out.status.success() {
        bail!(
            "mdbook-mathcourse init failed: {}",
            String::from_utf8_lossy(&out.stderr)
        );
    }
    crate::util::mdbook_build(&book, &bin)?;
    let assets = book.join("src/mathcourse-assets");
    for entry in fs::read_dir(&assets)? {
        let path = entry?.path();
        if path.join("mathcourse.js").is_file() {
            return Ok(path);
        }
    }
    bail!(
        "no assets folder with mathcourse.js in {}",
        assets.display()
    )
}

/// Measures and returns the Markdown section.
pub fn run() -> Result<String> {
    let root = repo_root();
    let mut out = String::from("## Widgets\n\n");
    out.push_str(
        "Command: `cargo xtask bench-widgets` (sizes of the committed bundle; timings in \
         headless Chromium through chromedriver, from the ignored test \
         `browser::widgets_benchmark` of the tests crate). Budgets: wasm + JS ≤ 68 KB \
         gzip for all widgets together; ≤ 2 ms median per drag or slider event.\n\n",
    );

    // 1. Size.
    out.push_str("### Size\n\n| file | raw | gzip -9 |\n|---|---:|---:|\n");
    // (file, counted in the budget, shipped through compact_js like preprocessor/build.rs)
    let files = [
        (
            "preprocessor/theme/widgets/mathcourse_widgets_bg.wasm",
            true,
            false,
        ),
        (
            "preprocessor/theme/widgets/mathcourse_widgets.js",
            true,
            false,
        ),
        ("preprocessor/theme/mathcourse.js", true, true),
        ("preprocessor/theme/widgets.css", false, false),
    ];
    let (mut raw_total, mut gz_total) = (0, 0);
    let shipped = shipped_assets(&root)?;
    for (file, counted, compact) in files {
        let bytes = if compact {
            let name = Path::new(file).file_name().context("a file name")?;
            fs::read(shipped.join(name)).with_context(|| format!("reading the shipped {file}"))?
        } else {
            fs::read(root.join(file)).with_context(|| format!("reading {file}"))?
        };
        let gz = gzip_len(&bytes)?;
        if counted {
            raw_total += bytes.len();
            gz_total += gz;
        }
        out.push_str(&format!(
            "| `{file}`{}{} | {} | {} |\n",
            if compact {
                " (as shipped: comment lines and indentation removed)"
            } else {
                ""
            },
            if counted { "" } else { " (not counted)" },
            kb(bytes.len()),
            kb(gz)
        ));
    }
    let verdict = if gz_total <= BUDGET_GZIP {
        "within"
    } else {
        "**over**"
    };
    out.push_str(&format!(
        "| **wasm + JS** | **{}** | **{}** ({verdict} the 68 KB budget) |\n\n",
        kb(raw_total),
        kb(gz_total)
    ));

    // 2. Speed, in Chromium.
    let json_path = root.join("target/bench/widgets.json");
    let _ = fs::remove_file(&json_path);
    run_in(
        &root,
        "cargo",
        &[
            "test",
            "--locked",
            "-p",
            "mathcourse-tests",
            "--test",
            "testsuite",
            "browser::widgets_benchmark",
            "--",
            "--ignored",
            "--exact",
            "--nocapture",
        ],
    )?;
    let data: Value = serde_json::from_str(
        &fs::read_to_string(&json_path)
            .with_context(|| format!("reading {}", json_path.display()))?,
    )?;
    out.push_str(&speed_section(&data)?);
    Ok(out)
}

/// The machine's load while measuring (other processes slow every number down).
fn load_note() -> String {
    let cores = std::thread::available_parallelism().map_or(0, |n| n.get());
    match fs::read_to_string("/proc/loadavg") {
        Ok(l) => format!(
            "Machine: {cores} cores, load average {} when the run ended.",
            l.split_whitespace().next().unwrap_or("?")
        ),
        Err(_) => format!("Machine: {cores} cores."),
    }
}

fn ms(v: &Value) -> String {
    v.as_f64().map_or("–".into(), |x| format!("{x:.2} ms"))
}

fn speed_section(data: &Value) -> Result<String> {
    let mut out = String::from("### Speed (headless Chromium)\n\n");
    out.push_str(&format!(
        "{}; {} events per row. *Event → DOM*: from dispatching the event to the updated \
         DOM (the wasm update, the re-render, parsing it, the morph into the page); the \
         budget applies to this. *+ layout*: the same plus a forced style and layout of the \
         page, work the browser would otherwise do at the next frame. \
         `performance.now()` is coarsened to 0.1 ms. {}\n\n",
        data["browser"].as_str().unwrap_or("Chromium"),
        data["events"].as_u64().unwrap_or(0),
        load_note()
    ));
    out.push_str(
        "| widget | event | event → DOM, median | p90 | max | of it: wasm render | HTML parse | DOM morph | + layout, median | p90 |\n\
         |---|---|---:|---:|---:|---:|---:|---:|---:|---:|\n",
    );
    let Some(rows) = data["events_by_widget"].as_array() else {
        bail!("no event timings in the benchmark output");
    };
    let mut worst: f64 = 0.0;
    for row in rows {
        worst = worst.max(row["median_ms"].as_f64().unwrap_or(0.0));
        out.push_str(&format!(
            "| {} | {} | {} | {} | {} | {} | {} | {} | {} | {} |\n",
            row["widget"].as_str().unwrap_or("?"),
            row["event"].as_str().unwrap_or("?"),
            ms(&row["median_ms"]),
            ms(&row["p90_ms"]),
            ms(&row["max_ms"]),
            ms(&row["render_ms"]),
            ms(&row["parse_ms"]),
            ms(&row["morph_ms"]),
            ms(&row["with_layout_median_ms"]),
            ms(&row["with_layout_p90_ms"])
        ));
    }
    let verdict = if worst <= BUDGET_EVENT_MS {
        "within"
    } else {
        "**over**"
    };
    out.push_str(&format!(
        "\nSlowest median: {worst:.2} ms ({verdict} the 2 ms budget).\n\n"
    ));
    if let Some(loads) = data["load_to_live_ms"].as_array() {
        let mut v: Vec<f64> = loads.iter().filter_map(Value::as_f64).collect();
        v.sort_by(f64::total_cmp);
        if !v.is_empty() {
            out.push_str(&format!(
                "Page load to every visible widget live (vectors page, navigation start to \
                 the last `data-live`, {} loads, no HTTP cache): median {:.0} ms, min {:.0} ms, \
                 max {:.0} ms (of which DOMContentLoaded: median {:.0} ms).\n",
                v.len(),
                v[v.len() / 2],
                v[0],
                v[v.len() - 1],
                data["dom_content_loaded_ms"].as_f64().unwrap_or(f64::NAN)
            ));
        }
    }
    Ok(out)
}

/// `cargo xtask bench-widgets`.
pub fn write() -> Result<()> {
    let section = run()?;
    let path = repo_root().join("BENCHMARKS.md");
    let text = fs::read_to_string(&path).unwrap_or_else(|_| format!("# Benchmarks\n\n{MARKER}\n"));
    fs::write(
        &path,
        crate::util::splice_section(&text, "## Widgets", &section),
    )?;
    eprintln!("xtask: wrote the Widgets section of {}", display(&path));
    print!("{section}");
    Ok(())
}

fn display(p: &Path) -> String {
    p.display().to_string()
}

#[cfg(test)]
mod tests {
    #[test]
    fn splice_replaces_only_the_widgets_section() {
        let splice = |t: &str, sec: &str| crate::util::splice_section(t, "## Widgets", sec);
        let text = "# B\n\nold\n\n<!-- more benchmarks below -->\n\n## Other\n\nx\n\n## Widgets\n\nold w\n";
        let out = splice(text, "## Widgets\n\nnew w\n");
        assert_eq!(out, "# B\n\nold\n\n<!-- more benchmarks below -->\n\n## Other\n\nx\n\n## Widgets\n\nnew w\n");
        let again = splice(&out, "## Widgets\n\nnewer\n");
        assert!(
            again.contains("## Other\n\nx") && again.contains("newer") && !again.contains("new w")
        );
        let fresh = splice("# B\n", "## Widgets\n\nw\n");
        assert_eq!(
            fresh,
            "# B\n\n<!-- more benchmarks below -->\n\n## Widgets\n\nw\n"
        );
    }
}
