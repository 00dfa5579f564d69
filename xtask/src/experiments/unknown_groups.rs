//! `cargo xtask repro unknown-groups` (issue 43): audits with an inferred sensitive attribute on
//! simulated populations whose truth is known, as the proxy degrades.
//!
//! Each population has 40 proxy cells; in half of them a person is in group a with probability
//! q, in the other half with probability 1 − q (q = 0.5: the proxy says nothing; q = 1: it names
//! the group). The label and the prediction depend on the group **and** on the cell, so the
//! proxy is informative of the outcome — the case where the weighted and most-likely-group
//! estimators are biased (Chen et al. 2019). The membership probabilities given to the audit
//! are the population's P(A | cell): calibrated, as the bounds assume. For each q and each
//! bounded rate (selection rate, TPR, FPR) the experiment reports, over seeded data sets, the
//! true difference a − b, the two estimators' mean and bias, the coverage of their bootstrap
//! intervals for the truth and for their own estimands (the values they converge to), the mean
//! bounds and their width, and how often the bounds (and the bounds with sampling) contain the
//! truth.

use super::Experiment;
use crate::report::{Context, Result};
use fair_metrics::Rate;
use fair_metrics::inferred::{BootstrapSettings, InferredState};
use fair_report::Table;
use serde_json::json;
use std::fmt::Write as _;

/// The experiment.
pub struct UnknownGroups;

const CELLS: usize = 40;
const QUALITIES: [f64; 5] = [0.55, 0.7, 0.85, 0.95, 1.0];
const RATES: [Rate; 3] = [Rate::Selection, Rate::TruePositive, Rate::FalsePositive];
const CONFIDENCE: f64 = 0.95;

/// A small deterministic generator (splitmix64): the data needs no dependency.
struct Mix(u64);

impl Mix {
    fn unit(&mut self) -> f64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        ((z ^ (z >> 31)) >> 11) as f64 / (1u64 << 53) as f64
    }
}

/// The population: P(A = a | cell), and the outcome model.
struct Population {
    pi: Vec<f64>,
}

impl Population {
    fn new(q: f64) -> Self {
        Self {
            pi: (0..CELLS)
                .map(|z| if z % 2 == 0 { q } else { 1.0 - q })
                .collect(),
        }
    }

    /// The cell's effect on both label and prediction (the proxy informs the outcome).
    fn cell_effect(z: usize) -> f64 {
        0.2 * ((z % 5) as f64 / 4.0) - 0.1
    }

    /// P(y = 1 | group, cell): group a (0) more often positive.
    fn p_label(a: usize, z: usize) -> f64 {
        0.35 + if a == 0 { 0.1 } else { 0.0 } + Self::cell_effect(z)
    }

    /// P(ŷ = 1 | group, label, cell): group a selected more often at the same label.
    fn p_pred(a: usize, y: usize, z: usize) -> f64 {
        0.2 + if a == 0 { 0.15 } else { 0.0 } + 0.35 * y as f64 + Self::cell_effect(z)
    }

    /// P(ŷ, y, A = g | cell) for the four confusion cells `[tn, fp, fn, tp]`.
    fn joint(&self, g: usize, z: usize) -> [f64; 4] {
        let pa = if g == 0 { self.pi[z] } else { 1.0 - self.pi[z] };
        let py = Self::p_label(g, z);
        std::array::from_fn(|c| {
            let (y, p) = (c / 2, c % 2);
            let fy = if y == 1 { py } else { 1.0 - py };
            let fp = Self::p_pred(g, y, z);
            pa * fy * if p == 1 { fp } else { 1.0 - fp }
        })
    }

    /// The rate from summed confusion masses.
    fn rate(m: [f64; 4], rate: Rate) -> f64 {
        match rate {
            Rate::Selection => (m[1] + m[3]) / m.iter().sum::<f64>(),
            Rate::TruePositive => m[3] / (m[2] + m[3]),
            Rate::FalsePositive => m[1] / (m[0] + m[1]),
            _ => f64::NAN,
        }
    }

    /// The true difference a − b, and the values the weighted and thresholded estimators
    /// converge to (their estimands).
    fn targets(&self, rate: Rate) -> (f64, f64, f64) {
        let (mut truth, mut weighted, mut thresholded) =
            ([[0.0; 4]; 2], [[0.0; 4]; 2], [[0.0; 4]; 2]);
        for z in 0..CELLS {
            let both: [[f64; 4]; 2] = [self.joint(0, z), self.joint(1, z)];
            let cell: [f64; 4] = std::array::from_fn(|c| both[0][c] + both[1][c]);
            // Ties (π = 0.5) go to the first group, as the audit breaks them.
            let likely = usize::from(self.pi[z] < 0.5);
            for g in 0..2 {
                let share = if g == 0 { self.pi[z] } else { 1.0 - self.pi[z] };
                for c in 0..4 {
                    truth[g][c] += both[g][c];
                    weighted[g][c] += share * cell[c];
                    if g == likely {
                        thresholded[g][c] += cell[c];
                    }
                }
            }
        }
        let d = |m: &[[f64; 4]; 2]| Self::rate(m[0], rate) - Self::rate(m[1], rate);
        (d(&truth), d(&weighted), d(&thresholded))
    }

    /// One data set of `n` rows, audited with the proxy cells.
    fn sample(&self, n: usize, rng: &mut Mix) -> Result<InferredState> {
        let (mut y, mut p, mut key) = (
            Vec::with_capacity(n),
            Vec::with_capacity(n),
            Vec::with_capacity(n),
        );
        let (mut pa, mut pb) = (Vec::with_capacity(n), Vec::with_capacity(n));
        for _ in 0..n {
            let z = ((rng.unit() * CELLS as f64) as usize).min(CELLS - 1);
            let a = usize::from(rng.unit() >= self.pi[z]);
            let label = usize::from(rng.unit() < Self::p_label(a, z));
            y.push(label);
            p.push(usize::from(rng.unit() < Self::p_pred(a, label, z)));
            key.push(format!("z{z}"));
            pa.push(self.pi[z]);
            pb.push(1.0 - self.pi[z]);
        }
        let keys: Vec<&str> = key.iter().map(String::as_str).collect();
        let mut s = InferredState::new(vec!["a".into(), "b".into()])?;
        s.update(&y, &p, &[&pa, &pb], Some(&keys), None)?;
        Ok(s)
    }
}

/// What one (q, rate) accumulates over the data sets.
#[derive(Default)]
struct Tally {
    runs: usize,
    weighted: f64,
    thresholded: f64,
    lo: f64,
    hi: f64,
    bounds_hold: usize,
    sampled_bounds_hold: usize,
    weighted_covers_truth: usize,
    weighted_covers_estimand: usize,
    thresholded_covers_truth: usize,
    thresholded_covers_estimand: usize,
}

fn inside(iv: Option<(f64, f64)>, x: f64) -> bool {
    iv.is_some_and(|(lo, hi)| lo <= x && x <= hi)
}

impl Experiment for UnknownGroups {
    fn name(&self) -> &'static str {
        "unknown-groups"
    }

    fn description(&self) -> &'static str {
        "audits with an inferred group (membership probabilities): bias of the weighted and most-likely-group estimators, interval coverage and bound width as the proxy degrades"
    }

    fn run(&self, ctx: &Context) -> Result<()> {
        let (datasets, rows, resamples) = if ctx.quick {
            (40, 1000, 100)
        } else {
            (300, 2000, 400)
        };
        let mut tallies: Vec<Vec<Tally>> = Vec::new();
        let mut targets = Vec::new();
        for (qi, &q) in QUALITIES.iter().enumerate() {
            let pop = Population::new(q);
            targets.push(RATES.map(|r| pop.targets(r)));
            let mut t: Vec<Tally> = RATES.iter().map(|_| Tally::default()).collect();
            for d in 0..datasets {
                let mut rng = Mix(1_000_003 * qi as u64 + d as u64);
                let s = pop.sample(rows, &mut rng)?;
                let settings = BootstrapSettings {
                    resamples,
                    confidence: CONFIDENCE,
                    seed: d as u64,
                };
                let boot = s.bootstrap(&RATES, &[(0, 1)], &settings)?;
                for (ri, &rate) in RATES.iter().enumerate() {
                    let (truth, w_target, t_target) = targets[qi][ri];
                    let Some(b) = s.disparity_bounds(rate, 0, 1)? else {
                        continue;
                    };
                    let (Some(w), Some(th)) = (b.weighted, b.thresholded) else {
                        continue;
                    };
                    let pair = &boot[ri].pairs[0];
                    let x = &mut t[ri];
                    x.runs += 1;
                    x.weighted += w;
                    x.thresholded += th;
                    x.lo += b.lo;
                    x.hi += b.hi;
                    x.bounds_hold += usize::from(b.lo <= truth && truth <= b.hi);
                    x.sampled_bounds_hold += usize::from(inside(pair.bounds, truth));
                    x.weighted_covers_truth += usize::from(inside(pair.weighted, truth));
                    x.weighted_covers_estimand += usize::from(inside(pair.weighted, w_target));
                    x.thresholded_covers_truth += usize::from(inside(pair.thresholded, truth));
                    x.thresholded_covers_estimand +=
                        usize::from(inside(pair.thresholded, t_target));
                }
            }
            tallies.push(t);
        }
        let mut md =
            String::from("# Audits with an inferred group: estimators, intervals and bounds\n\n");
        let _ = writeln!(
            md,
            "Produced by `cargo xtask repro unknown-groups{}` ({datasets} data sets of {rows} rows per proxy quality, {resamples} Poisson-bootstrap resamples, {:.0} % intervals). Two groups a and b; {CELLS} proxy cells, in half of which a person is in a with probability q and in the other half with 1 − q; the label and the prediction depend on the group and on the cell, so the proxy informs the outcome. The audit is given the population's P(a | cell) (calibrated) and the cells (`--proxy`). Differences are a − b. Bias = mean estimate − truth. Coverage: share of data sets whose interval holds the value named. The estimators' estimand is the value they converge to (not the truth). \"Bounds hold\": the sample's bounds contain the truth; \"with sampling\": the bootstrap's outer interval of the bounds does.\n",
            if ctx.quick { " --quick" } else { "" },
            CONFIDENCE * 100.0
        );
        let mut json_rows = Vec::new();
        for (ri, rate) in RATES.iter().enumerate() {
            let _ = writeln!(md, "## {}\n", rate.as_str());
            let mut table = Table::new(&[
                "q",
                "truth",
                "weighted (bias)",
                "most likely group (bias)",
                "weighted covers truth / estimand",
                "most likely covers truth / estimand",
                "mean bounds",
                "width",
                "bounds hold / with sampling",
            ]);
            for (qi, &q) in QUALITIES.iter().enumerate() {
                let x = &tallies[qi][ri];
                let (truth, _, _) = targets[qi][ri];
                let n = x.runs.max(1) as f64;
                let (w, th, lo, hi) = (x.weighted / n, x.thresholded / n, x.lo / n, x.hi / n);
                let share = |k: usize| k as f64 / n;
                table.row(vec![
                    format!("{q}"),
                    format!("{truth:.4}"),
                    format!("{w:.4} ({:+.4})", w - truth),
                    format!("{th:.4} ({:+.4})", th - truth),
                    format!(
                        "{:.3} / {:.3}",
                        share(x.weighted_covers_truth),
                        share(x.weighted_covers_estimand)
                    ),
                    format!(
                        "{:.3} / {:.3}",
                        share(x.thresholded_covers_truth),
                        share(x.thresholded_covers_estimand)
                    ),
                    format!("[{lo:.4}, {hi:.4}]"),
                    format!("{:.4}", hi - lo),
                    format!(
                        "{:.3} / {:.3}",
                        share(x.bounds_hold),
                        share(x.sampled_bounds_hold)
                    ),
                ]);
                json_rows.push(json!({
                    "rate": rate.as_str(), "q": q, "datasets": x.runs, "truth": truth,
                    "weighted_mean": w, "weighted_bias": w - truth,
                    "thresholded_mean": th, "thresholded_bias": th - truth,
                    "weighted_coverage_truth": share(x.weighted_covers_truth),
                    "weighted_coverage_estimand": share(x.weighted_covers_estimand),
                    "thresholded_coverage_truth": share(x.thresholded_covers_truth),
                    "thresholded_coverage_estimand": share(x.thresholded_covers_estimand),
                    "bounds_mean": [lo, hi], "bounds_width": hi - lo,
                    "bounds_hold": share(x.bounds_hold),
                    "bounds_with_sampling_hold": share(x.sampled_bounds_hold),
                }));
            }
            md.push_str(&table.markdown());
            md.push('\n');
        }
        md.push_str(&reading(&tallies, &targets));
        ctx.write("unknown-groups.md", &md)?;
        let json = json!({
            "experiment": "unknown-groups",
            "quick": ctx.quick,
            "datasets": datasets, "rows": rows, "resamples": resamples, "confidence": CONFIDENCE,
            "cells": CELLS,
            "results": json_rows,
        });
        ctx.write(
            "unknown-groups.json",
            &serde_json::to_string_pretty(&json).unwrap_or_default(),
        )?;
        Ok(())
    }
}

/// The measured facts the tables show, in words (computed, so they follow the numbers).
fn reading(tallies: &[Vec<Tally>], targets: &[[(f64, f64, f64); 3]]) -> String {
    let share = |k: usize, t: &Tally| k as f64 / t.runs.max(1) as f64;
    let all = || tallies.iter().flatten();
    let min_of = |f: &dyn Fn(&Tally) -> f64| all().map(f).fold(f64::INFINITY, f64::min);
    let w_est = min_of(&|t| share(t.weighted_covers_estimand, t));
    let t_est = min_of(&|t| share(t.thresholded_covers_estimand, t));
    let sampled = min_of(&|t| share(t.sampled_bounds_hold, t));
    // The bounds of the sample at an imperfect proxy (q < 1).
    let imperfect = tallies[..tallies.len() - 1].iter().flatten();
    let hold = imperfect
        .map(|t| share(t.bounds_hold, t))
        .fold(f64::INFINITY, f64::min);
    let worst_bias = |pick: &dyn Fn(&Tally) -> f64| {
        tallies
            .iter()
            .zip(targets)
            .flat_map(|(ts, tg)| {
                ts.iter()
                    .zip(tg)
                    .map(|(t, g)| pick(t) / t.runs.max(1) as f64 - g.0)
            })
            .fold(0.0_f64, |a, b| if b.abs() > a.abs() { b } else { a })
    };
    format!(
        "Measured: the estimators' intervals cover their own estimands in at least {w_est:.3} (weighted) and {t_est:.3} (most likely group) of the data sets in every row, but not the truth once the proxy is imperfect: the largest bias is {:+.4} (weighted) and {:+.4} (most likely group), both toward no disparity here. At every q < 1 the sample's bounds contain the truth in at least {hold:.3} of the data sets; the bounds with sampling in at least {sampled:.3} in every row, q = 1 included (where the sample's bounds are a point, the sample's own difference, and the truth differs from it by sampling noise). The bounds narrow as the proxy improves and are a point at q = 1. In this design every cell's P(a | cell) is q or 1 − q, so the weighted difference is close to (2q − 1) times the most-likely-group difference, and their intervals cover their estimands in nearly the same data sets.\n",
        worst_bias(&|t| t.weighted),
        worst_bias(&|t| t.thresholded)
    )
}
