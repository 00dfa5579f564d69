//! `cargo xtask repro`: reproduces the papers' experiments and writes their reports.
//!
//! ```text
//! cargo xtask repro --quick            # every registered experiment, quick mode
//! cargo xtask repro audit              # one experiment, full mode, into docs/results/
//! cargo xtask repro --all --out DIR    # everything, full mode, into DIR
//! cargo xtask repro idca --idca-only table4   # one section of one experiment
//! cargo xtask list                     # the registry
//! cargo xtask test                     # every test: cargo test --workspace + pytest
//! cargo xtask dist --smoke             # the wheel + sdist, checked in a venv without Rust
//! ```
#![forbid(unsafe_code)]
#![warn(missing_docs)]
#![deny(clippy::float_cmp)]

mod dist;
mod experiments;
mod models;
mod report;
mod stats;
mod test_cmd;

use clap::{Parser, Subcommand};
use std::path::PathBuf;
use std::process::ExitCode;

#[derive(Parser)]
#[command(name = "xtask", about = "fairkit task runner")]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand)]
enum Command {
    /// Run experiments and write docs/results/<name>.{md,json,svg}.
    Repro {
        /// Experiments to run (see `list`); none means all.
        names: Vec<String>,
        /// Run every registered experiment.
        #[arg(long)]
        all: bool,
        /// Small, fast settings (CI); writes to target/repro-quick unless --out is given.
        #[arg(long)]
        quick: bool,
        /// Output directory (default: docs/results, or target/repro-quick with --quick).
        #[arg(long)]
        out: Option<PathBuf>,
        #[command(flatten)]
        options: report::RunOptions,
    },
    /// List the registered experiments.
    List,
    /// Run every test: `cargo test --workspace`, then the Python package's pytest suite.
    Test(test_cmd::TestArgs),
    /// Build the Python wheel (with the `fairkit` command) and sdist into <target>/dist;
    /// `--smoke` installs the wheel into a fresh venv without Rust and runs the smoke suite.
    Dist(dist::DistArgs),
}

fn workspace_root() -> PathBuf {
    let manifest = PathBuf::from(env!("CARGO_MANIFEST_DIR"));
    manifest.parent().map_or(manifest.clone(), PathBuf::from)
}

fn main() -> ExitCode {
    let cli = Cli::parse();
    match cli.command {
        Command::Test(args) => test_cmd::run(&workspace_root(), &args),
        Command::Dist(args) => dist::run(&workspace_root(), &args),
        Command::List => {
            for e in experiments::registry() {
                println!("{:<20} {}", e.name(), e.description());
            }
            ExitCode::SUCCESS
        }
        Command::Repro {
            names,
            all,
            quick,
            out,
            options,
        } => {
            let out = out.unwrap_or_else(|| {
                let root = workspace_root();
                if quick {
                    root.join("target/repro-quick")
                } else {
                    root.join("docs/results")
                }
            });
            let registry = experiments::registry();
            let selected: Vec<_> = if all || names.is_empty() {
                registry.iter().collect()
            } else {
                let mut v = Vec::new();
                for n in &names {
                    match registry.iter().find(|e| e.name() == n) {
                        Some(e) => v.push(e),
                        None => {
                            eprintln!(
                                "unknown experiment {n:?}; `cargo xtask list` shows the registry"
                            );
                            return ExitCode::FAILURE;
                        }
                    }
                }
                v
            };
            let ctx = report::Context::new(out, quick, options);
            let mut failed = false;
            for e in selected {
                println!(
                    "== {} ({} mode) ==",
                    e.name(),
                    if quick { "quick" } else { "full" }
                );
                let start = std::time::Instant::now();
                match e.run(&ctx) {
                    Ok(()) => println!(
                        "== {} done in {:.1} s ==\n",
                        e.name(),
                        start.elapsed().as_secs_f64()
                    ),
                    Err(err) => {
                        eprintln!("== {} FAILED: {err} ==", e.name());
                        failed = true;
                    }
                }
            }
            if failed {
                ExitCode::FAILURE
            } else {
                ExitCode::SUCCESS
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use clap::CommandFactory;

    #[test]
    fn cli_is_consistent() {
        Cli::command().debug_assert();
    }

    #[test]
    fn run_modes_are_repro_flags() {
        let cli = Cli::try_parse_from([
            "xtask",
            "repro",
            "idca",
            "--idca-only",
            "table4",
            "--idca-tune",
        ])
        .expect("valid flags");
        let Command::Repro { names, options, .. } = cli.command else {
            panic!("not repro");
        };
        assert_eq!(names, ["idca"]);
        assert_eq!(options.idca_only, Some(report::IdcaOnly::Table4));
        assert!(options.idca_tune);
        assert!(options.mitigation_raw.is_none() && !options.mitigation_no_build);

        let cli = Cli::try_parse_from([
            "xtask",
            "repro",
            "mitigation",
            "--mitigation-raw",
            "raw.json",
            "--mitigation-no-build",
        ])
        .expect("valid flags");
        let Command::Repro { options, .. } = cli.command else {
            panic!("not repro");
        };
        assert_eq!(options.mitigation_raw, Some(PathBuf::from("raw.json")));
        assert!(options.mitigation_no_build && options.idca_only.is_none());
    }

    #[test]
    fn an_unknown_section_is_rejected() {
        assert!(Cli::try_parse_from(["xtask", "repro", "--idca-only", "table3"]).is_err());
    }
}
