//! The whole command as a function: parse the arguments, run, print, return the exit code.
//!
//! The binary (`src/main.rs`) calls [`run`] with its own arguments; the Python package calls it
//! through its extension module (`fairkit._core.run_cli`), so `fairkit` installed from the wheel
//! is this code, not a copy of it.

use crate::cli::{Cli, Command};
use crate::{audit, compare, demo, error, ll144, progress};
use clap::Parser;
use std::ffi::OsString;
use std::io::Write;

/// Runs the `fairkit` command on `args` (the program name first, as in `std::env::args_os`) and
/// returns its exit code: 0 = done, 1 = a `--fail-if` expression held, 2 = bad input or flags
/// (clap's usage errors included). `--help` and `--version` print and return 0.
///
/// Everything the command prints goes to the process's stdout and stderr, flushed before
/// returning, so a caller that is not a Rust `main` (the Python console script) sees the same
/// output as the binary.
///
/// ```
/// let code = fairkit_cli::entry::run(["fairkit", "audit", "--no-such-flag"]);
/// assert_eq!(code, 2);
/// assert_eq!(fairkit_cli::entry::run(["fairkit", "--version"]), 0);
/// ```
pub fn run<I, T>(args: I) -> u8
where
    I: IntoIterator<Item = T>,
    T: Into<OsString> + Clone,
{
    let code = match Cli::try_parse_from(args) {
        Ok(cli) => run_command(cli.command),
        Err(e) => {
            // What `Cli::parse` does, without ending the process: help and version go to
            // stdout with 0, usage errors to stderr with clap's 2.
            let _ = e.print();
            u8::try_from(e.exit_code()).unwrap_or(2)
        }
    };
    let _ = std::io::stdout().flush();
    let _ = std::io::stderr().flush();
    code
}

fn run_command(command: Command) -> u8 {
    let result = match command {
        Command::Audit(args) => audit::run(&args),
        Command::DemoData(args) => {
            let bar = progress::Bar::new(args.rows, "rows", args.quiet);
            let r = demo::write_demo(&args, &mut |done| bar.set(done));
            bar.finish();
            r.map(|()| audit::Verdict::Pass)
        }
        Command::Compare(args) => compare::run(&args),
        Command::Ll144(args) => ll144::run(&args).map(|()| audit::Verdict::Pass),
        Command::ValidateReport { file } => validate_report(&file),
    };
    match result {
        Ok(audit::Verdict::Pass) => 0,
        Ok(audit::Verdict::Fail) => 1,
        Err(e) => {
            eprintln!("error: {e}");
            e.exit_code()
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
