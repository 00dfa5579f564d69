//! The registry of reproducible experiments. Each later issue adds its experiment here.
//!
//! A large experiment is a directory whose modules follow the run's roles: `spec` / `data` /
//! `load` (the paper's settings and numbers, the data), `run` / `fit` (fitting and solving),
//! `evaluate` (metrics of the fitted models, aggregation over seeds), `verdict` (hit / miss and
//! held / not-held decisions against the paper, with named tolerances and unit tests) and
//! `write` / `figures` / `sections` (markdown, JSON and SVG). `mod.rs` holds the `Experiment`
//! impl. Run modes of single experiments are flags of `cargo xtask repro`
//! ([`crate::report::RunOptions`]); summary statistics come from [`crate::stats`].

mod audit;
mod fair_pca;
mod fair_projection;
mod fair_svm;
mod idca;
mod mitigation;
mod proxy_lagrangian;
mod unknown_groups;

use crate::report::{Context, Result};

/// One reproducible experiment: writes `<name>.md`, `<name>.json` and its SVG plots.
pub trait Experiment {
    /// Registry name (`cargo xtask repro <name>`).
    fn name(&self) -> &'static str;
    /// One line for `cargo xtask list`.
    fn description(&self) -> &'static str;
    /// Runs the experiment in the context's mode and writes its reports.
    fn run(&self, ctx: &Context) -> Result<()>;
}

/// Every registered experiment, in the order `repro --all` runs them.
pub fn registry() -> Vec<Box<dyn Experiment>> {
    vec![
        Box::new(audit::Audit),
        Box::new(fair_projection::FairProjectionRepro),
        Box::new(fair_svm::FairSvmRepro),
        Box::new(fair_pca::FairPcaRepro),
        Box::new(proxy_lagrangian::ProxyLagrangianRepro),
        Box::new(idca::Idca),
        Box::new(mitigation::Mitigation),
        Box::new(unknown_groups::UnknownGroups),
    ]
}
