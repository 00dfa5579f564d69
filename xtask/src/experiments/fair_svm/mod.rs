//! `fair-svm`: Olfat & Aswani's spectral fair SVM against the plain SVM (LSVM) and Zafar et
//! al.'s mean-constrained SVM (ZSVM): Δ-vs-AUC trade-off curves over the d grid, ROC panels,
//! score densities (paper §6, Figures 2–4).

use crate::experiments::Experiment;
use crate::report::{Context, Result};
use crate::stats::{mean, sd};
use fair_data::{Dataset, FairSvmSynthetic, Groups, Splitter, Standardizer, recipes};
use fair_metrics::ks::{equal_opportunity_ks, ks_statistic};
use fair_metrics::roc::{roc_auc, roc_curve, roc_curve_by_group};
use fair_report::Table;
use fair_report::palette::{BLACK, BLUE, GREEN, GREY, ORANGE, RED, blue_shade};
use fair_report::panels::{Dots, Line, Panel, density, padded_range, panel_grid};
use fair_svm::{
    Fairness, LambdaSearch, PAPER_D_GRID, SpectralFairSvm, SpectralFairSvmParams, Termination,
    one_vs_rest,
};
use indicatif::{ProgressBar, ProgressStyle};
use nalgebra::{DMatrix, DVector};
use serde_json::{Value, json};
use std::fmt::Write as _;

mod data;
mod figures;
mod hypotheses;
mod run;
mod verdict;
mod write;

use data::*;
use figures::*;
use run::*;
use verdict::*;
use write::*;

pub struct FairSvmRepro;

const TEST_FRACTION: f64 = 0.3;
/// Seed of the stratified 1,500-row subsample of Adult (the Wine stand-in).
const SUBSAMPLE_SEED: u64 = 2024;
const SUBSAMPLE_ROWS: f64 = 1500.0;
/// Splits for the stand-in in full mode (all 5 since the working-set speed-up).
const STAND_IN_SPLITS: u64 = 5;
/// Paper's synthetic setting (Figure 2): d = 0.075 and μ = 10 with the summed hinge over
/// n = 200 points; with this crate's averaged hinge the same trade-off is μ = 10 / 200.
const FIG2_D: f64 = 0.075;
const FIG2_MU_PAPER: f64 = 10.0;
/// (d, μ) shown in the ROC and density panels.
const PANEL_D: f64 = 0.01;
const PANEL_MU: f64 = 0.1;

impl Experiment for FairSvmRepro {
    fn name(&self) -> &'static str {
        "fair-svm"
    }

    fn description(&self) -> &'static str {
        "spectral fair SVM vs plain and Zafar SVMs: Δ-AUC trade-offs, ROC panels, densities (Olfat & Aswani)"
    }

    fn run(&self, ctx: &Context) -> Result<()> {
        let cfg = Config::new(ctx.quick);
        let mut md = header(ctx, &cfg);
        let mut json_sets = Vec::new();
        let mut claim_rows = Vec::new();
        md.push_str(&figure2(ctx)?);
        for name in &cfg.datasets {
            let src = load(name)?;
            let res = run_dataset(ctx, &cfg, &src)?;
            claim_rows.extend(claims(src.name, &cfg, &res.cells));
            md.push_str(&res.markdown);
            json_sets.push(res.json);
        }
        let mut claims_md = String::from(
            "\n## The paper's claims beside the measurements\n\nThe paper reports no numbers (figures only), so each \
             qualitative claim (§6.2, Figures 3–4) is checked against the test-set means over the splits.\n\n",
        );
        let mut t = Table::new(&["dataset", "claim", "measured", "held?"]);
        for r in &claim_rows {
            t.row(r.clone());
        }
        claims_md.push_str(&t.markdown());
        let (hyp_md, hyp_json) = hypotheses::section(ctx.quick, cfg.splits)?;
        claims_md.push_str(&hyp_md);
        // Put the claims table right after the setup section.
        let insert_at = md.find("\n## Figure 2").unwrap_or(md.len());
        md.insert_str(insert_at, &claims_md);
        ctx.write("fair-svm.md", &md)?;
        let json = json!({
            "experiment": "fair-svm",
            "quick": ctx.quick,
            "protocol": {
                "splits": cfg.splits, "test_fraction": TEST_FRACTION, "stratified_on": "label",
                "lambda_grid": cfg.lambda_grid, "d_grid": cfg.d_grid, "mu_grid": cfg.mu_grid,
                "lambda_selection": "5-fold CV of LSVM maximising mean AUC, reused for ZSVM and SSVM",
                "metrics": "test-set exact KS Δ (DP) w.r.t. z and ROC AUC of the score x'w",
            },
            "claims": claim_rows.iter().map(|r| json!({"dataset": r[0], "claim": r[1], "measured": r[2], "held": r[3]})).collect::<Vec<_>>(),
            "datasets": json_sets,
            "synthetic_hypotheses": hyp_json,
        });
        ctx.write(
            "fair-svm.json",
            &serde_json::to_string_pretty(&json).unwrap_or_default(),
        )?;
        Ok(())
    }
}
