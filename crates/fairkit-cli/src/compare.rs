//! `fairkit compare`: two saved audits gap by gap (`fair_audit::compare`), written as
//! compare.json / compare.md / compare.html, with an optional gate on gaps that got worse.

use crate::audit::Verdict;
use crate::cli::CompareArgs;
use crate::error::CliError;
use std::path::{Path, PathBuf};

/// The report.json of `path`: the file itself, `path/report.json` for a report directory, or
/// the report of a saved state (`--state-dir`) built from its counts.
fn report_json(
    flag: &'static str,
    path: &Path,
    args: &CompareArgs,
) -> Result<serde_json::Value, CliError> {
    if path.is_dir() && crate::state_dir::is_state_dir(path) {
        let stats = fair_audit::Stats {
            confidence: args.confidence,
            resamples: args.resamples,
            seed: args.seed,
            ..fair_audit::Stats::default()
        };
        return crate::state_dir::report_json(path, stats);
    }
    let file: PathBuf = if path.is_dir() {
        path.join("report.json")
    } else {
        path.to_path_buf()
    };
    let bad = |expected: String| CliError::InvalidFlag {
        flag,
        value: file.display().to_string(),
        expected,
    };
    let text = std::fs::read_to_string(&file).map_err(|e| {
        bad(format!(
            "a report.json of `fairkit audit`, the directory holding it, or a --state-dir directory ({e})"
        ))
    })?;
    serde_json::from_str(&text).map_err(|e| bad(format!("a report.json (JSON: {e})")))
}

fn write(path: &Path, text: &str) -> Result<(), CliError> {
    std::fs::write(path, text).map_err(|source| CliError::Write {
        path: path.to_path_buf(),
        source,
    })
}

/// Runs the comparison, writes it, prints the summary and applies `--fail-if-worse`.
///
/// # Errors
/// [`CliError::InvalidFlag`] for an unreadable report, a bad setting or an unknown gap key;
/// [`CliError::Audit`] when the reports cannot be compared; [`CliError::Write`] for the output.
pub fn run(args: &CompareArgs) -> Result<Verdict, CliError> {
    let keys: Vec<&str> = fair_audit::compute::GAPS.iter().map(|g| g.0).collect();
    if let Some(k) = args
        .fail_if_worse
        .iter()
        .find(|k| !keys.contains(&k.as_str()))
    {
        return Err(CliError::InvalidFlag {
            flag: "--fail-if-worse",
            value: k.clone(),
            expected: format!("count-gap keys of the report: {}", keys.join(", ")),
        });
    }
    let gates = crate::fail_if::parse_all(&args.fail_if)?;
    let before = report_json("BEFORE", &args.before, args)?;
    let after = report_json("AFTER", &args.after, args)?;
    let mut c = fair_audit::compare::compare_reports(
        &before,
        &after,
        args.confidence,
        args.resamples,
        args.seed,
    )?;
    fair_audit::compare::gate(&mut c, &after, &gates)?;
    std::fs::create_dir_all(&args.out).map_err(|source| CliError::Write {
        path: args.out.clone(),
        source,
    })?;
    let json = serde_json::to_string_pretty(&c)
        .map_err(|e| CliError::Audit(fair_audit::AuditError::Json(e.to_string())))?;
    let (md, html, figures) = fair_audit::compare::render_comparison(&c)?;
    write(&args.out.join("compare.json"), &json)?;
    write(&args.out.join("compare.md"), &md)?;
    write(&args.out.join("compare.html"), &html)?;
    if !figures.is_empty() {
        let dir = args.out.join("figures");
        std::fs::create_dir_all(&dir).map_err(|source| CliError::Write { path: dir, source })?;
    }
    for (file, svg) in &figures {
        write(&args.out.join(file), svg)?;
    }
    let worse = c.worse(&args.fail_if_worse);
    if !args.quiet {
        eprintln!("fairkit compare: {} → {}", c.before.file, c.after.file);
        for s in &c.summary {
            eprintln!("  • {s}");
        }
        if !args.fail_if_worse.is_empty() {
            eprintln!(
                "  --fail-if-worse {}: {}",
                args.fail_if_worse.join(","),
                if worse.is_empty() {
                    "passed".to_string()
                } else {
                    format!(
                        "FAILED (exit code 1): {} got worse",
                        worse.iter().map(|g| g.key).collect::<Vec<_>>().join(", ")
                    )
                }
            );
        }
        crate::report::print_gates(&c.fail_if);
        eprintln!("  report: {}", args.out.join("compare.html").display());
    }
    Ok(if worse.is_empty() && !c.fail_if.iter().any(|f| f.failed) {
        Verdict::Pass
    } else {
        Verdict::Fail
    })
}
