//! `fairkit`: audit a predictions file for group fairness from one command.
//!
//! ```text
//! fairkit demo-data --rows 1000000 --out preds.parquet --seed 1
//! fairkit audit preds.parquet --label y --pred y_hat --score p --sensitive race,sex --out report/
//! ```
//! Exit codes: 0 = audited, 1 = a `--fail-if` expression held, 2 = bad input or flags.
//! The command is the library's [`fairkit_cli::entry::run`]; the Python wheel's `fairkit`
//! console script calls the same function.
#![forbid(unsafe_code)]

use std::process::ExitCode;

fn main() -> ExitCode {
    ExitCode::from(fairkit_cli::entry::run(std::env::args_os()))
}
