//! `mitigation`: the practitioner's benchmark (issue 24). fairlearn's mitigations (and AIF360's
//! when it installs) against fairkit's estimators on the same splits, scaling, base model and
//! measuring stick, with a Pareto verdict per dataset × constraint.
//!
//! Three phases:
//! 1. export the embedded datasets and 5 seeded splits as `.npy` under
//!    `<target>/mitigation-data/` ([`export`]);
//! 2. prepare the project's Python environment (`test_cmd::prepare_venv`: venv, pinned
//!    requirements, `maturin develop --release`) and run `python/bench/mitigation.py`, which
//!    fits and measures every method and writes one raw JSON of every measurement;
//! 3. aggregate (mean ± sd over splits) and write `mitigation.md`, `mitigation.json` and one
//!    frontier SVG per dataset × constraint ([`report`]).
//!
//! `cargo xtask repro mitigation --mitigation-raw <file>` skips phases 1–2 and reports from an
//! existing raw JSON; `--mitigation-no-build` uses the existing venv without the pip / maturin
//! step.

mod export;
mod report;

use crate::experiments::Experiment;
use crate::report::{Context, Result, XtaskError};
use crate::test_cmd;
use indicatif::{ProgressBar, ProgressStyle};
use std::io::BufRead;
use std::path::Path;
use std::process::Stdio;
use std::time::Instant;

pub struct Mitigation;

impl Experiment for Mitigation {
    fn name(&self) -> &'static str {
        "mitigation"
    }

    fn description(&self) -> &'static str {
        "fairlearn (and AIF360) vs fairkit mitigations on Adult, COMPAS, German, Law School: accuracy, DP/EO gaps, fit time, Pareto verdicts"
    }

    fn run(&self, ctx: &Context) -> Result<()> {
        let root = crate::workspace_root();
        let target = test_cmd::target_dir(&root);
        let data_dir = target.join("mitigation-data");
        let raw = match &ctx.options.mitigation_raw {
            Some(p) => {
                println!("--mitigation-raw: reporting from {}", p.display());
                p.clone()
            }
            None => {
                let start = Instant::now();
                let (manifest, _) = export::export_all(&data_dir)?;
                println!(
                    "exported the datasets and splits to {} in {:.1} s ({})",
                    data_dir.display(),
                    start.elapsed().as_secs_f64(),
                    manifest.display()
                );
                let raw = data_dir.join(if ctx.quick {
                    "results-quick.json"
                } else {
                    "results-full.json"
                });
                run_script(&root, &data_dir, &raw, ctx)?;
                raw
            }
        };
        let text = std::fs::read_to_string(&raw).map_err(|source| XtaskError::Io {
            path: raw.clone(),
            source,
        })?;
        let value: serde_json::Value =
            serde_json::from_str(&text).map_err(|e| XtaskError::Training {
                model: "mitigation raw JSON",
                reason: format!("{}: {e}", raw.display()),
            })?;
        report::write_reports(ctx, &value)
    }
}

fn python_err(reason: String) -> XtaskError {
    XtaskError::Training {
        model: "python/bench/mitigation.py",
        reason,
    }
}

/// Prepares the venv and runs the benchmark script, drawing its `@@progress i n label` lines as
/// a progress bar and echoing everything else.
fn run_script(root: &Path, data_dir: &Path, raw: &Path, ctx: &Context) -> Result<()> {
    let quick = ctx.quick;
    let venv = if ctx.options.mitigation_no_build {
        test_cmd::target_dir(root).join("py-venv")
    } else {
        test_cmd::prepare_venv(root).map_err(python_err)?
    };
    let mut cmd = test_cmd::venv_command(&venv, "python");
    cmd.arg("-u")
        .arg(root.join("python/bench/mitigation.py"))
        .arg("--data")
        .arg(data_dir)
        .arg("--out")
        .arg(raw)
        .current_dir(root)
        .stdout(Stdio::piped())
        .stderr(Stdio::inherit());
    if quick {
        cmd.arg("--quick");
    }
    println!(
        "== python/bench/mitigation.py{} ==",
        if quick { " --quick" } else { "" }
    );
    let start = Instant::now();
    let mut child = cmd
        .spawn()
        .map_err(|e| python_err(format!("cannot start {:?}: {e}", cmd.get_program())))?;
    let bar = ProgressBar::new(1).with_style(
        ProgressStyle::with_template("{bar:30} {pos}/{len} [{elapsed_precise}, eta {eta}] {msg}")
            .unwrap_or_else(|_| ProgressStyle::default_bar()),
    );
    if let Some(out) = child.stdout.take() {
        for line in std::io::BufReader::new(out)
            .lines()
            .map_while(std::io::Result::ok)
        {
            if let Some(rest) = line.strip_prefix("@@progress ") {
                let mut parts = rest.splitn(3, ' ');
                let pos = parts.next().and_then(|s| s.parse::<u64>().ok());
                let len = parts.next().and_then(|s| s.parse::<u64>().ok());
                if let (Some(pos), Some(len)) = (pos, len) {
                    bar.set_length(len);
                    bar.set_position(pos);
                    bar.set_message(parts.next().unwrap_or("").to_string());
                }
            } else {
                // Printed even when the bar is hidden (no terminal, e.g. CI).
                bar.suspend(|| println!("{line}"));
            }
        }
    }
    let status = child
        .wait()
        .map_err(|e| python_err(format!("waiting for the script: {e}")))?;
    bar.finish_and_clear();
    if !status.success() {
        return Err(python_err(format!("exited with {status}")));
    }
    println!(
        "== python/bench/mitigation.py: ok in {:.1} s, raw results {} ==",
        start.elapsed().as_secs_f64(),
        raw.display()
    );
    Ok(())
}
