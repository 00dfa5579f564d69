//! `fairkit`: audit a predictions file for group fairness from one command.
//!
//! ```text
//! fairkit demo-data --rows 1000000 --out preds.parquet --seed 1
//! fairkit audit preds.parquet --label y --pred y_hat --score p --sensitive race,sex --out report/
//! ```
//! Exit codes: 0 = audited, 1 = a `--fail-if` expression held, 2 = bad input or flags.
#![forbid(unsafe_code)]
// See the library: errors are returned once and end the run.
#![allow(clippy::result_large_err)]

use clap::Parser;
use fairkit_cli::cli::{Cli, Command};
use fairkit_cli::{audit, demo, error, progress};
use std::process::ExitCode;

fn main() -> ExitCode {
    let cli = Cli::parse();
    let result = match cli.command {
        Command::Audit(args) => audit::run(&args),
        Command::DemoData(args) => {
            let bar = progress::Bar::new(args.rows, "rows", args.quiet);
            let r = demo::write_demo(&args, &mut |done| bar.set(done));
            bar.finish();
            r.map(|()| audit::Verdict::Pass)
        }
        Command::Compare(args) => fairkit_cli::compare::run(&args),
        Command::ValidateReport { file } => validate_report(&file),
    };
    match result {
        Ok(audit::Verdict::Pass) => ExitCode::SUCCESS,
        Ok(audit::Verdict::Fail) => ExitCode::from(1),
        Err(e) => {
            eprintln!("error: {e}");
            ExitCode::from(e.exit_code())
        }
    }
}

fn validate_report(file: &std::path::Path) -> Result<audit::Verdict, error::CliError> {
    let bad = |expected: String| error::CliError::InvalidFlag {
        flag: "validate-report FILE",
        value: file.display().to_string(),
        expected,
    };
    let text = std::fs::read_to_string(file).map_err(|e| bad(format!("a readable file ({e})")))?;
    let instance: serde_json::Value =
        serde_json::from_str(&text).map_err(|e| bad(format!("JSON ({e})")))?;
    let schema: serde_json::Value = serde_json::from_str(fair_audit::schema::AUDIT_SCHEMA_V1)
        .map_err(|e| bad(format!("the embedded schema to parse ({e})")))?;
    let errors = fair_audit::schema::validate(&schema, &instance).map_err(bad)?;
    if errors.is_empty() {
        // Valid by the schema, and readable as the typed report every reader uses.
        fair_audit::model::AuditReport::from_json(&text)
            .map_err(|e| bad(format!("a fairkit-audit v1 report: {e}")))?;
        println!("{}: valid fairkit-audit v1 report", file.display());
        Ok(audit::Verdict::Pass)
    } else {
        Err(bad(format!(
            "a fairkit-audit v1 report; {} violation(s):\n  {}",
            errors.len(),
            errors.join("\n  ")
        )))
    }
}
