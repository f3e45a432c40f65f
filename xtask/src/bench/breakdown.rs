//! Where a warm build of ours spends its time: our process timed on its own through a
//! wrapper script, mdBook's search index on and off, next to the plain book.

use std::fs;
use std::path::Path;

use anyhow::{Context, Result};

use super::{book, book_toml, timed, BenchBook, Breakdown, Plan};

/// Warm builds of ours through a wrapper script that records how long the
/// `mdbook-mathcourse` process itself runs (the rest of the build is mdBook's), with
/// and without mdBook's search index; and the plain book without the search index.
pub(super) fn breakdown(
    target: &Path,
    plain: &BenchBook,
    ours: &BenchBook,
    generated: &book::Book,
    plan: &Plan,
    edit: &mut usize,
) -> Result<Breakdown> {
    let bench = target.join("bench");
    let wrapper = bench.join("timed-mathcourse.sh");
    let log = bench.join("timed-mathcourse.log");
    let binary = target.join("release/mdbook-mathcourse");
    fs::write(
        &wrapper,
        format!(
            "#!/bin/sh\n\
             # Runs mdbook-mathcourse and appends its run time in nanoseconds to the log.\n\
             if [ \"$#\" -gt 0 ]; then exec '{bin}' \"$@\"; fi\n\
             start=$(date +%s%N)\n\
             '{bin}'\n\
             status=$?\n\
             end=$(date +%s%N)\n\
             echo $((end - start)) >> '{log}'\n\
             exit $status\n",
            bin = binary.display(),
            log = log.display()
        ),
    )?;
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        fs::set_permissions(&wrapper, fs::Permissions::from_mode(0o755))?;
    }
    const NO_SEARCH: &str = "\n[output.html.search]\nenable = false\n";
    let timed_ours = format!(
        "\n[preprocessor.mathcourse]\ncommand = \"{}\"\n",
        wrapper.display()
    );
    let ours_toml = ours.dir.join("book.toml");
    let plain_toml = plain.dir.join("book.toml");
    let ours_normal = fs::read_to_string(&ours_toml)?;
    let plain_normal = fs::read_to_string(&plain_toml)?;
    let _ = fs::remove_file(&log);
    let last_logged = || -> Result<f64> {
        let text = fs::read_to_string(&log)?;
        let ns = text
            .lines()
            .filter_map(|l| l.trim().parse::<f64>().ok())
            .next_back()
            .context("the wrapper logged no time")?;
        Ok(ns / 1e9)
    };
    let mut result = Breakdown::default();
    eprintln!("xtask: where a warm build spends its time");
    let outcome = (|| -> Result<()> {
        for _ in 0..plan.breakdown_runs {
            fs::write(&ours_toml, book_toml(&timed_ours))?;
            *edit += 1;
            ours.set_edit(generated, Some(*edit))?;
            result.build.push(timed(ours, "warm, preprocessor timed")?);
            result.preprocessor.push(last_logged()?);

            fs::write(&ours_toml, book_toml(&format!("{timed_ours}{NO_SEARCH}")))?;
            *edit += 1;
            ours.set_edit(generated, Some(*edit))?;
            result
                .build_no_search
                .push(timed(ours, "warm, no search index")?);

            result.plain.push(timed(plain, "(no math)")?);
            fs::write(&plain_toml, book_toml(NO_SEARCH))?;
            result
                .plain_no_search
                .push(timed(plain, "(no math), no search index")?);
            fs::write(&plain_toml, &plain_normal)?;
        }
        Ok(())
    })();
    fs::write(&ours_toml, ours_normal)?;
    fs::write(&plain_toml, plain_normal)?;
    outcome?;
    result.runs = plan.breakdown_runs;
    Ok(result)
}
