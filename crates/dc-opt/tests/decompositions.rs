//! Every DC decomposition checked numerically: `f = f⁺ − f⁻` against the model's formula,
//! convexity of each part along random segments, the subgradient inequality of each part, and
//! finite differences where the parts are smooth.

mod common;

use dc_opt::{
    CrossData, DcProblem, DpVariant, Part, PartialDp, PartialSp, Surrogate, dc_values,
    percentile_grid,
};
use fair_metrics::partial::PercentileInterval;
use proptest::prelude::*;
use std::sync::OnceLock;

fn data() -> &'static CrossData {
    static DATA: OnceLock<CrossData> = OnceLock::new();
    DATA.get_or_init(|| common::cross_data(60, 3, 11))
}

fn interval() -> PercentileInterval {
    PercentileInterval::new(0.2, 0.7).unwrap()
}

fn parts<P: DcProblem>(p: &P, part: Part, x: &[f64]) -> Vec<f64> {
    let mut ws = p.workspace();
    p.prepare(x, &mut ws);
    let mut out = vec![0.0; p.n_constraints() + 1];
    p.values(part, x, &mut ws, &mut out);
    out
}

fn subgrad<P: DcProblem>(p: &P, part: Part, i: usize, x: &[f64]) -> Vec<f64> {
    let mut ws = p.workspace();
    p.prepare(x, &mut ws);
    let mut out = vec![0.0; p.dim()];
    p.subgradient(part, i, x, &mut ws, &mut out);
    out
}

/// Convexity along the segment and the subgradient inequality, for every part and component.
fn check_convex_parts<P: DcProblem>(p: &P, x: &[f64], y: &[f64], lam: f64) {
    let z: Vec<f64> = x
        .iter()
        .zip(y)
        .map(|(a, b)| lam * a + (1.0 - lam) * b)
        .collect();
    for part in [Part::Plus, Part::Minus] {
        let (fx, fy, fz) = (parts(p, part, x), parts(p, part, y), parts(p, part, &z));
        for i in 0..fx.len() {
            let chord = lam * fx[i] + (1.0 - lam) * fy[i];
            assert!(
                fz[i] <= chord + 1e-10,
                "{part:?} {i}: not convex ({} > {chord})",
                fz[i]
            );
            let g = subgrad(p, part, i, x);
            let lin: f64 = fx[i]
                + g.iter()
                    .zip(y.iter().zip(x))
                    .map(|(g, (b, a))| g * (b - a))
                    .sum::<f64>();
            assert!(
                fy[i] >= lin - 1e-10,
                "{part:?} {i}: subgradient inequality fails ({} < {lin})",
                fy[i]
            );
        }
    }
}

fn central_difference<P: DcProblem>(p: &P, part: Part, i: usize, x: &[f64], j: usize) -> f64 {
    let h = 1e-6;
    let mut xp = x.to_vec();
    let mut xm = x.to_vec();
    xp[j] += h;
    xm[j] -= h;
    (parts(p, part, &xp)[i] - parts(p, part, &xm)[i]) / (2.0 * h)
}

fn point(dim: usize) -> impl Strategy<Value = Vec<f64>> {
    prop::collection::vec(-1.5..1.5f64, dim)
}

const SP_DIM: usize = 2 * 3 + 2 + 4;
const DP_DIM: usize = 2 * 3 + 2;

fn sp(sur: Surrogate, kappa: f64) -> PartialSp<'static> {
    let grid = percentile_grid(interval(), kappa, 4).unwrap();
    PartialSp::new(data(), interval(), kappa, grid, sur).unwrap()
}

fn dp(sur: Surrogate, variant: DpVariant, kappa: f64) -> PartialDp<'static> {
    PartialDp::new(data(), interval(), kappa, 0.0, sur, variant).unwrap()
}

/// Direct evaluation of the (15) constraints.
fn sp_direct(p: &PartialSp, sur: Surrogate, kappa: f64, x: &[f64]) -> Vec<f64> {
    let d = data();
    let nw = d.dim();
    let mut ws = p.workspace();
    p.prepare(x, &mut ws);
    let s = ws.scores();
    let mut out = Vec::new();
    for (j, &pp) in p.grid().iter().enumerate() {
        for k in 0..d.n_groups() {
            let rows = d.group_rows(k).unwrap();
            let m = s[rows.clone()]
                .iter()
                .map(|&v| sur.value(v - x[nw + j]))
                .sum::<f64>()
                / rows.len() as f64;
            out.push(pp - m);
            out.push(m - pp - kappa * 0.5);
        }
    }
    out
}

fn dp_direct(sur: Surrogate, variant: DpVariant, kappa: f64, x: &[f64]) -> Vec<f64> {
    let d = data();
    let p = dp(sur, variant, kappa);
    let mut ws = p.workspace();
    p.prepare(x, &mut ws);
    let s = ws.scores();
    let mean = |rows: std::ops::Range<usize>| {
        s[rows.clone()].iter().map(|&v| sur.value(v)).sum::<f64>() / rows.len() as f64
    };
    let c = |v: f64| v.min(0.7) - v.min(0.2);
    let families: Vec<Vec<std::ops::Range<usize>>> = match variant {
        DpVariant::DemographicParity => vec![(0..2).map(|k| d.group_rows(k).unwrap()).collect()],
        DpVariant::EqualOpportunity => vec![(0..2).map(|k| d.cell_rows(k, 1).unwrap()).collect()],
        DpVariant::EqualizedOdds => vec![
            (0..2).map(|k| d.cell_rows(k, 1).unwrap()).collect(),
            (0..2).map(|k| d.cell_rows(k, 0).unwrap()).collect(),
        ],
    };
    let mut out = Vec::new();
    for fam in families {
        for a in 0..2 {
            for b in 0..2 {
                if a != b {
                    out.push(c(mean(fam[a].clone())) - c(mean(fam[b].clone())) - kappa * 0.5);
                }
            }
        }
    }
    out
}

const SURROGATES: [Surrogate; 2] = [Surrogate::HardSigmoid, Surrogate::Logistic];
const VARIANTS: [DpVariant; 3] = [
    DpVariant::DemographicParity,
    DpVariant::EqualOpportunity,
    DpVariant::EqualizedOdds,
];

proptest! {
    #![proptest_config(ProptestConfig::with_cases(24))]

    #[test]
    fn surrogate_parts_are_convex_and_sum_to_sigma(x in -3.0..3.0f64, y in -3.0..3.0f64, lam in 0.0..1.0f64) {
        for s in SURROGATES {
            prop_assert!((s.plus(x) - s.minus(x) - s.value(x)).abs() < 1e-12);
            let z = lam * x + (1.0 - lam) * y;
            prop_assert!(s.plus(z) <= lam * s.plus(x) + (1.0 - lam) * s.plus(y) + 1e-12);
            prop_assert!(s.minus(z) <= lam * s.minus(x) + (1.0 - lam) * s.minus(y) + 1e-12);
            prop_assert!(s.plus(y) >= s.plus(x) + s.dplus(x) * (y - x) - 1e-12);
            prop_assert!(s.minus(y) >= s.minus(x) + s.dminus(x) * (y - x) - 1e-12);
        }
    }

    #[test]
    fn partial_sp_decomposition(x in point(SP_DIM), y in point(SP_DIM), lam in 0.0..1.0f64, kappa in 0.0..0.5f64) {
        for sur in SURROGATES {
            let p = sp(sur, kappa);
            let f = dc_values(&p, &x);
            let direct = sp_direct(&p, sur, kappa, &x);
            for (a, b) in f[1..].iter().zip(&direct) {
                prop_assert!((a - b).abs() < 1e-12, "f = f⁺ − f⁻ fails: {a} vs {b}");
            }
            check_convex_parts(&p, &x, &y, lam);
        }
    }

    #[test]
    fn partial_dp_decompositions(x in point(DP_DIM), y in point(DP_DIM), lam in 0.0..1.0f64, kappa in 0.0..0.5f64) {
        for sur in SURROGATES {
            for variant in VARIANTS {
                let p = dp(sur, variant, kappa);
                let f = dc_values(&p, &x);
                let direct = dp_direct(sur, variant, kappa, &x);
                prop_assert_eq!(f.len() - 1, direct.len());
                for (a, b) in f[1..].iter().zip(&direct) {
                    prop_assert!((a - b).abs() < 1e-12, "{variant:?}: {a} vs {b}");
                }
                check_convex_parts(&p, &x, &y, lam);
            }
        }
    }

    #[test]
    fn smooth_parts_match_finite_differences(x in point(SP_DIM)) {
        // With the logistic surrogate every part of (15) is smooth; so is the objective.
        let p = sp(Surrogate::Logistic, 0.1);
        for i in [0, 1, 2, 5, 16] {
            for part in [Part::Plus, Part::Minus] {
                let g = subgrad(&p, part, i, &x);
                for j in [0, 3, 7, 8, SP_DIM - 1] {
                    let fd = central_difference(&p, part, i, &x, j);
                    prop_assert!((fd - g[j]).abs() < 1e-6, "{part:?} {i} / {j}: {fd} vs {}", g[j]);
                }
            }
        }
    }
}

#[test]
fn objective_is_mean_logistic_loss() {
    let d = data();
    let p = dp(Surrogate::HardSigmoid, DpVariant::DemographicParity, 0.1);
    let x: Vec<f64> = (0..DP_DIM).map(|j| 0.1 * j as f64 - 0.3).collect();
    let mut ws = p.workspace();
    p.prepare(&x, &mut ws);
    let direct = ws
        .scores()
        .iter()
        .zip(d.zeta())
        .map(|(s, z)| (1.0 + (-z * s).exp()).ln())
        .sum::<f64>()
        / d.n_rows() as f64;
    assert!((dc_values(&p, &x)[0] - direct).abs() < 1e-12);
}
