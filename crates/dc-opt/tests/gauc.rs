//! Model (49), partial group AUC: `f = f⁺ − f⁻` against the double sum of the paper's formula,
//! convexity of each part along random segments with the subgradient inequality, finite
//! differences for the smooth (logistic) parts, typed errors, and feasibility under IDCA.

mod common;

use dc_opt::{CrossData, DcOptError, DcProblem, Idca, Part, PartialGauc, Surrogate, dc_values};
use fair_metrics::partial::PercentileInterval;
use proptest::prelude::*;
use std::sync::OnceLock;

fn data() -> &'static CrossData {
    static DATA: OnceLock<CrossData> = OnceLock::new();
    DATA.get_or_init(|| common::cross_data(47, 3, 5))
}

const DIM: usize = 2 * 3 + 2;
const SURROGATES: [Surrogate; 2] = [Surrogate::HardSigmoid, Surrogate::Logistic];

fn iv(a: f64, b: f64) -> PercentileInterval {
    PercentileInterval::new(a, b).unwrap()
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

/// The (49) left-hand side minus `½ + κ` by the plain double loop over the two bands.
fn direct(sur: Surrogate, interval: PercentileInterval, kappa: f64, x: &[f64]) -> Vec<f64> {
    let d = data();
    let s = dc_opt::cross_scores(x, &common_rows().0, &common_rows().2).unwrap();
    // cross_scores is in original order; CrossData stores rows grouped, `order` maps back.
    let band = |k: usize| {
        let rows = d.group_rows(k).unwrap();
        let mut v: Vec<f64> = rows.map(|r| s[d.order()[r]]).collect();
        v.sort_by(|a, b| b.total_cmp(a));
        let n = v.len() as f64;
        let c = |p: f64| ((p * n - 1e-9).ceil().max(0.0) as usize).min(v.len());
        v[c(interval.alpha())..c(interval.beta())].to_vec()
    };
    let mut out = Vec::new();
    for k in 0..2 {
        for kp in 0..2 {
            if k != kp {
                let (a, b) = (band(k), band(kp));
                let sum: f64 = a
                    .iter()
                    .flat_map(|&u| b.iter().map(move |&v| sur.value(u - v)))
                    .sum();
                out.push(sum / (a.len() * b.len()) as f64 - 0.5 - kappa);
            }
        }
    }
    out
}

fn common_rows() -> &'static (dc_opt::SparseRows, Vec<usize>, fair_data::Groups) {
    static RAW: OnceLock<(dc_opt::SparseRows, Vec<usize>, fair_data::Groups)> = OnceLock::new();
    RAW.get_or_init(|| common::random_data(47, 3, 5))
}

fn point() -> impl Strategy<Value = Vec<f64>> {
    prop::collection::vec(-1.5..1.5f64, DIM)
}

fn intervals() -> impl Strategy<Value = PercentileInterval> {
    prop_oneof![
        Just(iv(0.05, 0.3)),
        Just(iv(0.0, 0.4)),
        Just(iv(0.7, 1.0)),
        Just(iv(0.0, 1.0)),
        Just(iv(0.2, 0.65)),
    ]
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(32))]

    #[test]
    fn gauc_decomposition(x in point(), y in point(), lam in 0.0..1.0f64,
                          kappa in 0.0..0.5f64, interval in intervals()) {
        for sur in SURROGATES {
            let p = PartialGauc::new(data(), interval, kappa, sur).unwrap();
            let f = dc_values(&p, &x);
            let want = direct(sur, interval, kappa, &x);
            prop_assert_eq!(f.len() - 1, want.len());
            for (a, b) in f[1..].iter().zip(&want) {
                prop_assert!((a - b).abs() < 1e-10, "{sur:?} {interval:?}: {a} vs {b}");
            }
            let z: Vec<f64> = x.iter().zip(&y).map(|(a, b)| lam * a + (1.0 - lam) * b).collect();
            for part in [Part::Plus, Part::Minus] {
                let (fx, fy, fz) = (parts(&p, part, &x), parts(&p, part, &y), parts(&p, part, &z));
                for i in 0..fx.len() {
                    let chord = lam * fx[i] + (1.0 - lam) * fy[i];
                    prop_assert!(fz[i] <= chord + 1e-10, "{sur:?} {part:?} {i}: not convex");
                    let g = subgrad(&p, part, i, &x);
                    let lin = fx[i] + g.iter().zip(y.iter().zip(&x)).map(|(g, (b, a))| g * (b - a)).sum::<f64>();
                    prop_assert!(fy[i] >= lin - 1e-10, "{sur:?} {part:?} {i}: subgradient inequality");
                }
            }
        }
    }

    #[test]
    fn gauc_matches_finite_differences_away_from_ties(x in point(), interval in intervals()) {
        // The logistic parts are smooth except where the band membership changes, i.e. where
        // two scores of a group tie; random points are almost surely away from those.
        let p = PartialGauc::new(data(), interval, 0.05, Surrogate::Logistic).unwrap();
        for i in 0..=p.n_constraints() {
            for part in [Part::Plus, Part::Minus] {
                let g = subgrad(&p, part, i, &x);
                for j in 0..DIM {
                    let h = 1e-7;
                    let (mut xp, mut xm) = (x.clone(), x.clone());
                    xp[j] += h;
                    xm[j] -= h;
                    let fd = (parts(&p, part, &xp)[i] - parts(&p, part, &xm)[i]) / (2.0 * h);
                    prop_assert!((fd - g[j]).abs() < 1e-5 * (1.0 + g[j].abs()),
                        "{part:?} {i}/{j}: fd {fd} vs {}", g[j]);
                }
            }
        }
    }
}

#[test]
fn bad_inputs_are_typed_errors() {
    let d = data();
    for kappa in [-0.01, 0.6, f64::NAN] {
        assert!(matches!(
            PartialGauc::new(d, iv(0.0, 0.3), kappa, Surrogate::HardSigmoid),
            Err(DcOptError::InvalidParameter { name: "kappa", .. })
        ));
    }
    // A band narrower than one rank step of the smaller group is empty.
    assert!(matches!(
        PartialGauc::new(d, iv(0.30, 0.301), 0.1, Surrogate::HardSigmoid),
        Err(DcOptError::EmptyGroup { .. })
    ));
    // Wrong buffer lengths give NaN, not a panic.
    let p = PartialGauc::new(d, iv(0.0, 0.3), 0.1, Surrogate::HardSigmoid).unwrap();
    let mut ws = p.workspace();
    let mut out = vec![0.0; 2];
    p.prepare(&[0.0; 3], &mut ws);
    p.values(Part::Plus, &[0.0; 3], &mut ws, &mut out);
    assert!(out.iter().all(|v| v.is_nan()));
}

#[test]
fn start_is_feasible_and_idca_stays_feasible() {
    let d = data();
    let p = PartialGauc::new(d, iv(0.0, 0.4), 0.02, Surrogate::HardSigmoid).unwrap();
    let x0 = p.initial_point();
    let f0 = dc_values(&p, &x0);
    assert!(f0[1..].iter().all(|&v| v <= 1e-12), "{f0:?}");
    let eps = 1e-3;
    let fit = Idca::params()
        .outer_iters(15)
        .inner_iters(150)
        .eps(eps)
        .fit(&p, &x0)
        .unwrap();
    let f = dc_values(&p, &fit.x);
    assert!(f[1..].iter().all(|&v| v <= eps + 1e-12), "{f:?}");
    // It learned something: the loss fell below ln 2 (the loss at w = 0).
    assert!(f[0] < f0[0] - 1e-3, "{} vs {}", f[0], f0[0]);
}
