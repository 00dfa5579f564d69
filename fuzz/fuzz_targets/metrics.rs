//! fair-metrics on arbitrary rows: group confusion (every rate, every parity gap), KS (DP-Δ and
//! EO-Δ), AUC (overall, per group, cross-group), partial SP and partial group AUC. Invariants: no
//! panic, and every `Ok` value is finite and inside its range ([0, 1] for rates, gaps, ratios,
//! KS distances and AUCs).
#![no_main]

use arbitrary::Arbitrary;
use fair_data::Groups;
use fair_metrics::parity::{Aggregation, ParityOptions, parity_gaps};
use fair_metrics::partial::{
    PercentileInterval, partial_group_auc, partial_statistical_parity,
    partial_statistical_parity_given_label,
};
use fair_metrics::{GroupConfusion, PairwiseSummary, ParityMethod, Rate, ZeroDivision, ks, roc};
use libfuzzer_sys::fuzz_target;

/// A float drawn mostly from the corners: extremes, zeros, subnormals, non-finite values.
#[derive(Arbitrary, Debug, Clone, Copy)]
enum Num {
    Unit(u16),
    Big(u8),
    Tiny(u8),
    Special(u8),
    Raw(f64),
}

impl Num {
    fn value(self) -> f64 {
        match self {
            Num::Unit(v) => f64::from(v) / f64::from(u16::MAX),
            Num::Big(e) => 10f64.powi(i32::from(e % 40) + 270),
            Num::Tiny(e) => f64::MIN_POSITIVE / f64::from(u32::from(e) + 1),
            Num::Special(k) => {
                [0.0, -0.0, 1.0, f64::MAX, f64::NAN, f64::INFINITY, -1.0, 0.5][k as usize % 8]
            }
            Num::Raw(v) => v,
        }
    }
}

#[derive(Arbitrary, Debug)]
struct Row {
    label: u8,
    pred: u8,
    group: u8,
    score: Num,
    weight: Num,
}

#[derive(Arbitrary, Debug)]
struct Input {
    rows: Vec<Row>,
    weighted: bool,
    n_groups: u8,
    zero_division: u8,
    method: bool,
    mean: bool,
    alpha: Num,
    beta: Num,
}

const EPS: f64 = 1e-9;

fn unit(v: f64, what: &str) {
    assert!(
        v.is_finite() && (-EPS..=1.0 + EPS).contains(&v),
        "{what} = {v}"
    );
}

fn pairwise(p: &PairwiseSummary) {
    unit(p.max, p.metric);
    for v in p.matrix.iter() {
        unit(*v, p.metric);
    }
}

fuzz_target!(|input: Input| {
    let k = (input.n_groups % 4) as usize + 1;
    // A label outside {0, 1} now and then (labels 2..) to reach the label checks.
    let y: Vec<usize> = input
        .rows
        .iter()
        .map(|r| {
            if r.label == 255 {
                2
            } else {
                (r.label & 1) as usize
            }
        })
        .collect();
    let p: Vec<usize> = input
        .rows
        .iter()
        .map(|r| {
            if r.pred == 255 {
                2
            } else {
                (r.pred & 1) as usize
            }
        })
        .collect();
    let labels: Vec<String> = input
        .rows
        .iter()
        .map(|r| format!("g{}", r.group as usize % k))
        .collect();
    let groups = Groups::from_labels(&labels);
    let scores: Vec<f64> = input.rows.iter().map(|r| r.score.value()).collect();
    let w: Vec<f64> = input.rows.iter().map(|r| r.weight.value()).collect();
    let weights = input.weighted.then_some(w.as_slice());
    let zd = [ZeroDivision::Error, ZeroDivision::Skip, ZeroDivision::Zero]
        [input.zero_division as usize % 3];

    if let Ok(gc) = GroupConfusion::new(&y, &p, &groups, weights) {
        for rate in Rate::ALL {
            if let Ok(s) = gc.summary(rate, zd) {
                unit(s.overall, "overall");
                for v in s.by_group.iter().flatten() {
                    unit(*v, "group rate");
                }
                for v in [
                    s.group_min,
                    s.group_max,
                    s.difference,
                    s.ratio,
                    s.difference_to_overall,
                    s.ratio_to_overall,
                ] {
                    unit(v, "summary");
                }
            }
        }
        let options = ParityOptions {
            method: if input.method {
                ParityMethod::ToOverall
            } else {
                ParityMethod::BetweenGroups
            },
            aggregation: if input.mean {
                Aggregation::Mean
            } else {
                Aggregation::WorstCase
            },
            zero_division: zd,
        };
        if let Ok(g) = parity_gaps(&gc, &options) {
            for v in [
                g.demographic_parity_difference,
                g.demographic_parity_ratio,
                g.equal_opportunity_difference,
                g.equal_opportunity_ratio,
                g.equalized_odds_difference,
                g.equalized_odds_ratio,
                g.accuracy_difference,
                g.accuracy_ratio,
            ] {
                unit(v, "parity gap");
            }
        }
    }
    if let Ok(s) = ks::ks_statistic(&scores, &groups, weights) {
        pairwise(&s);
    }
    if let Ok(s) = ks::equal_opportunity_ks(&y, &scores, &groups, weights) {
        pairwise(&s);
    }
    if let Ok(a) = roc::roc_auc(&y, &scores, weights) {
        unit(a, "AUC");
    }
    if let Ok(s) = roc::auc_by_group(&y, &scores, &groups, weights, zd) {
        unit(s.overall, "pooled AUC");
        for v in s.by_group.iter().flatten() {
            unit(*v, "group AUC");
        }
    }
    if let Ok(s) = roc::cross_group_auc(&scores, &groups, weights) {
        pairwise(&s);
    }
    let interval = PercentileInterval::new(input.alpha.value(), input.beta.value())
        .unwrap_or(PercentileInterval::FULL);
    if let Ok(s) = partial_statistical_parity(&scores, &groups, weights, interval) {
        pairwise(&s);
    }
    if let Ok(s) =
        partial_statistical_parity_given_label(&y, &scores, &groups, weights, interval, 1)
    {
        pairwise(&s);
    }
    if let Ok(s) = partial_group_auc(&scores, &groups, interval) {
        pairwise(&s);
    }
});
