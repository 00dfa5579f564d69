//! `fairkit compare`: two saved audits gap by gap (`fair_audit::compare`), written as
//! compare.json / compare.md / compare.html, with an optional gate on gaps that got worse.

use crate::audit::Verdict;
use crate::cli::CompareArgs;
use crate::error::CliError;
use fair_audit::model::AuditReport;
use std::path::{Path, PathBuf};

/// The report of `path`: its report.json (the file itself, `path/report.json` for a report
/// directory), the report of a saved state (`--state-dir`) built from its counts, or the audit
/// of a predictions file.
fn report(flag: &'static str, path: &Path, args: &CompareArgs) -> Result<AuditReport, CliError> {
    if is_predictions(path) {
        return audited(flag, path, args);
    }
    if path.is_dir() && crate::state_dir::is_state_dir(path) {
        let stats = fair_audit::Stats {
            confidence: args.confidence,
            resamples: args.resamples,
            seed: args.seed,
            ..fair_audit::Stats::default()
        };
        return crate::state_dir::report(path, stats);
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
    AuditReport::from_json(&text).map_err(|source| CliError::Report { path: file, source })
}

/// Whether `path` is a predictions file (or a folder of part files) rather than an audit: not a
/// `.json` file, not a report or state directory.
fn is_predictions(path: &Path) -> bool {
    if path.is_dir() {
        return !path.join("report.json").is_file() && !crate::state_dir::is_state_dir(path);
    }
    path.extension().is_none_or(|e| e != "json")
}

/// Audits the predictions file `path` with the flags after `--` into OUT/before or OUT/after
/// (the same pipeline as `fairkit audit`), and reads its report.json.
fn audited(flag: &'static str, path: &Path, args: &CompareArgs) -> Result<AuditReport, CliError> {
    use clap::Parser;
    if args.audit_flags.is_empty() {
        return Err(CliError::InvalidFlag {
            flag,
            value: path.display().to_string(),
            expected: "a report.json, a report or --state-dir directory, or — for a predictions file — the audit's flags after `--` (e.g. `-- --label y --pred y_hat --sensitive race`)".into(),
        });
    }
    let out = args
        .out
        .join(if flag == "BEFORE" { "before" } else { "after" });
    let mut flags = args.audit_flags.clone();
    if flag == "AFTER" {
        for (name, value) in [("--score", &args.after_score), ("--pred", &args.after_pred)] {
            if let Some(v) = value {
                replace_flag(&mut flags, name, v)?;
            }
        }
    }
    let mut argv: Vec<std::ffi::OsString> = vec!["fairkit".into(), "audit".into(), path.into()];
    argv.extend(flags.iter().map(Into::into));
    argv.extend([
        "--out".into(),
        out.clone().into_os_string(),
        "--quiet".into(),
    ]);
    let cli = crate::cli::Cli::try_parse_from(argv).map_err(|e| CliError::InvalidFlag {
        flag: "-- (audit flags)",
        value: args.audit_flags.join(" "),
        expected: format!(
            "flags of `fairkit audit` ({})",
            e.to_string()
                .lines()
                .next()
                .unwrap_or_default()
                .trim_start_matches("error: ")
        ),
    })?;
    let crate::cli::Command::Audit(audit_args) = cli.command else {
        return Err(CliError::InvalidFlag {
            flag: "-- (audit flags)",
            value: args.audit_flags.join(" "),
            expected: "flags of `fairkit audit`".into(),
        });
    };
    crate::audit::run(&audit_args)?;
    report(flag, &out.join("report.json"), args)
}

/// Replaces the value of `name` (`--score X` or `--score=X`) in the audit flags by `value`.
fn replace_flag(flags: &mut [String], name: &'static str, value: &str) -> Result<(), CliError> {
    let prefix = format!("{name}=");
    if let Some(i) = flags.iter().position(|f| f == name) {
        if let Some(v) = flags.get_mut(i + 1) {
            *v = value.to_string();
            return Ok(());
        }
    } else if let Some(f) = flags.iter_mut().find(|f| f.starts_with(&prefix)) {
        *f = format!("{prefix}{value}");
        return Ok(());
    }
    Err(CliError::InvalidFlag {
        flag: if name == "--score" {
            "--after-score"
        } else {
            "--after-pred"
        },
        value: value.to_string(),
        expected: format!(
            "{name} COLUMN among the audit flags after `--`: the AFTER audit replaces that column"
        ),
    })
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
    for (flag, value) in [
        ("--after-score", &args.after_score),
        ("--after-pred", &args.after_pred),
    ] {
        if let (Some(v), false) = (value, is_predictions(&args.after)) {
            return Err(CliError::InvalidFlag {
                flag,
                value: v.clone(),
                expected: format!(
                    "an AFTER that is a predictions file audited with the flags after `--` ({} is a saved audit)",
                    args.after.display()
                ),
            });
        }
    }
    let worse_keys = args
        .fail_if_worse
        .iter()
        .map(|k| {
            fair_audit::Key::parse(k)
                .filter(|k| !k.is_score())
                .ok_or_else(|| CliError::InvalidFlag {
                    flag: "--fail-if-worse",
                    value: k.clone(),
                    expected: format!(
                        "count-gap keys of the report: {}",
                        fair_audit::Key::COUNT.map(|k| k.as_str()).join(", ")
                    ),
                })
        })
        .collect::<Result<Vec<_>, _>>()?;
    let gates = crate::fail_if::parse_all(&args.fail_if)?;
    let before = report("BEFORE", &args.before, args)?;
    let after = report("AFTER", &args.after, args)?;
    let partial = if args.allow_partial {
        fair_audit::compare::Partial::Allow
    } else {
        fair_audit::compare::Partial::Refuse
    };
    let mut c = fair_audit::compare::compare_reports_with(
        &before,
        &after,
        (args.confidence, args.resamples, args.seed),
        partial,
    )?;
    if !worse_keys.is_empty() {
        c.gate_worse(&worse_keys);
    }
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
    let worse = c.worse(&worse_keys);
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
                        worse
                            .iter()
                            .map(|g| g.key.as_str())
                            .collect::<Vec<_>>()
                            .join(", ")
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
