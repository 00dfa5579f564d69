//! Writing the reports the library renders (`fair_audit::render`): report.json, report.md with
//! figures/*.svg beside it, and report.html; and the summary on stderr.

use crate::cli::ReportFormat;
use crate::error::CliError;
use fair_audit::ChartData;
use fair_audit::model::AuditReport;
use std::path::Path;

fn write(path: &Path, text: &str) -> Result<(), CliError> {
    std::fs::write(path, text).map_err(|source| CliError::Write {
        path: path.to_path_buf(),
        source,
    })
}

fn mkdir(p: &Path) -> Result<(), CliError> {
    std::fs::create_dir_all(p).map_err(|source| CliError::Write {
        path: p.to_path_buf(),
        source,
    })
}

/// Writes the requested formats into `out` (created if missing).
///
/// # Errors
/// [`CliError::Write`] when the directory or a file cannot be written, [`CliError::Audit`] when
/// a chart cannot be drawn.
pub fn write_all(
    r: &AuditReport,
    charts: &ChartData,
    out: &Path,
    formats: &[ReportFormat],
) -> Result<(), CliError> {
    mkdir(out)?;
    let views = ReportFormat::views(formats);
    let text = fair_audit::render(r, charts, views)?;
    if let Some(json) = &text.json {
        write(&out.join("report.json"), json)?;
    }
    if let Some(html) = &text.html {
        write(&out.join("report.html"), html)?;
    }
    if let Some(md) = &text.markdown {
        write(&out.join("report.md"), md)?;
        mkdir(&out.join("figures"))?;
        for (file, svg) in &text.figures {
            write(&out.join(file), svg)?;
        }
    }
    Ok(())
}

/// Prints the summary and the report location on stderr.
pub fn print_to_stderr(r: &AuditReport, out: &Path) {
    eprintln!("fairkit audit: {} rows of {}", r.input.rows, r.input.file);
    for s in &r.summary {
        eprintln!("  • {s}");
    }
    print_gates(&r.fail_if);
    eprintln!("report written to {}", out.display());
}

/// Prints each `--fail-if` verdict, with the values of a failed one.
pub fn print_gates(gates: &[fair_audit::model::FailIfOutcome]) {
    for f in gates {
        eprintln!(
            "  --fail-if \"{}\": {}",
            f.expression,
            if f.failed {
                "FAILED (exit code 1)"
            } else {
                "passed"
            }
        );
        if f.failed {
            for c in f.comparisons.iter().filter(|c| c.holds) {
                eprintln!("      {} (value {})", c.comparison, c.actual);
            }
        }
    }
}
