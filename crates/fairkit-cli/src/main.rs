//! `fairkit`: audit a predictions file for group fairness from one command.
//!
//! ```text
//! fairkit demo-data --rows 1000000 --out preds.parquet --seed 1
//! fairkit audit preds.parquet --label y --pred y_hat --score p --sensitive race,sex --out report/
//! ```
//! Exit codes: 0 = audited, 1 = a `--fail-if` expression held, 2 = bad input or flags.
#![forbid(unsafe_code)]

mod audit;
mod cli;
mod demo;
mod error;
mod fail_if;
mod input;
mod progress;
mod report;

use clap::Parser;
use cli::{Cli, Command};
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
