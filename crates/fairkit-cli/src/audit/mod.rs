//! The audit (being written).
use crate::cli::AuditArgs;
use crate::error::CliError;

/// The fairness verdict of a run.
pub enum Verdict {
    /// No --fail-if held.
    Pass,
    /// A --fail-if expression held.
    Fail,
}

/// Runs an audit.
pub fn run(_args: &AuditArgs) -> Result<Verdict, CliError> {
    Ok(Verdict::Pass)
}
