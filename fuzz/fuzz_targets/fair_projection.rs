//! info-projection `FairProjection` fit + predict on small matrices (≤ 12 rows, ≤ 4 classes,
//! ≤ 3 groups; `max_iter` ≤ 30 so one execution stays fast), with fuzzed parameters (any
//! constraint set, divergence, solver, α, ζ, ρ, floor, tolerance, row policy) and group
//! information as labels or `P(S│X)`. Invariants: no panic; a fitted projector's multipliers
//! are finite and `>= 0`; predicted probability rows are finite, in [0, 1] and sum to 1;
//! predicted labels are class indices.
#![no_main]

use arbitrary::Arbitrary;
use fair_data::Groups;
use info_projection::{
    Constraint, Decision, Divergence, FairProjection, GroupInfo, RowPolicy, Solver,
};
use libfuzzer_sys::fuzz_target;
use nalgebra::DMatrix;

#[derive(Arbitrary, Debug, Clone, Copy)]
enum Num {
    Unit(u16),
    Special(u8),
    Raw(f64),
}

impl Num {
    fn value(self) -> f64 {
        match self {
            Num::Unit(v) => f64::from(v) / f64::from(u16::MAX),
            Num::Special(k) => {
                [0.0, 1.0, 1e-300, 1e300, f64::NAN, f64::INFINITY, -1.0, 0.5][k as usize % 8]
            }
            Num::Raw(v) => v,
        }
    }
}

#[derive(Arbitrary, Debug)]
struct Input {
    rows: u8,
    classes: u8,
    n_groups: u8,
    cells: Vec<u16>,
    special: Vec<(u8, Num)>,
    groups: Vec<u8>,
    soft_groups: bool,
    constraints: Vec<u8>,
    divergence: bool,
    admm: bool,
    alpha: Option<Num>,
    zeta: Option<Num>,
    rho: Option<Num>,
    floor: Option<Num>,
    tol: Option<Num>,
    max_iter: u8,
    renormalize: bool,
    threshold: Option<Num>,
    labels: Vec<u8>,
}

fuzz_target!(|input: Input| {
    let n = input.rows as usize % 12 + 1;
    let c = input.classes as usize % 3 + 2;
    let a = input.n_groups as usize % 3 + 1;
    // Probability rows from fuzzed weights (normalised), then a few raw cells overwritten.
    let mut probs = DMatrix::from_fn(n, c, |i, j| {
        f64::from(input.cells.get(i * c + j).copied().unwrap_or(1)) + 1.0
    });
    for mut row in probs.row_iter_mut() {
        let s = row.sum();
        row /= s;
    }
    for &(at, v) in input.special.iter().take(3) {
        let k = at as usize % (n * c);
        probs[(k / c, k % c)] = v.value();
    }
    let labels: Vec<String> = (0..n)
        .map(|i| {
            format!(
                "g{}",
                input.groups.get(i).copied().unwrap_or(i as u8) as usize % a
            )
        })
        .collect();
    let groups = Groups::from_labels(&labels);
    let soft = DMatrix::from_fn(n, groups.n_groups(), |i, j| {
        if groups.codes()[i] == j {
            0.9
        } else {
            0.1 / groups.n_groups().max(2) as f64
        }
    })
    .map(|v| if groups.n_groups() == 1 { 1.0 } else { v });
    let info = if input.soft_groups {
        GroupInfo::ProbaGivenX(&soft)
    } else {
        GroupInfo::Labels(&groups)
    };

    let all = [
        Constraint::StatisticalParity,
        Constraint::EqualizedOdds,
        Constraint::EqualizedOddsDiagonal,
        Constraint::OverallAccuracy,
    ];
    let cs: Vec<Constraint> = input
        .constraints
        .iter()
        .take(3)
        .map(|&k| all[k as usize % 4])
        .collect();
    let mut params = FairProjection::params()
        .constraints(&cs)
        .divergence(if input.divergence {
            Divergence::CrossEntropy
        } else {
            Divergence::Kl
        })
        .solver(if input.admm {
            Solver::Admm
        } else {
            Solver::Dual
        })
        .max_iter(input.max_iter as usize % 30 + 1)
        .row_policy(if input.renormalize {
            RowPolicy::Renormalize
        } else {
            RowPolicy::Strict
        });
    if let Some(v) = input.alpha {
        params = params.alpha(v.value());
    }
    if let Some(v) = input.zeta {
        params = params.zeta(v.value());
    }
    if let Some(v) = input.rho {
        params = params.rho(v.value());
    }
    if let Some(v) = input.floor {
        params = params.floor(v.value());
    }
    if let Some(v) = input.tol {
        params = params.tol(v.value());
    }
    let y: Vec<usize> = (0..n)
        .map(|i| input.labels.get(i).copied().unwrap_or(0) as usize % (c + 1))
        .collect();
    let fitted = if input.labels.is_empty() {
        params.fit(&probs, info)
    } else {
        params.fit_with_labels(&probs, info, &y)
    };
    let Ok(fp) = fitted else { return };
    assert!(
        fp.lambda().iter().all(|l| l.is_finite() && *l >= 0.0),
        "lambda {:?}",
        fp.lambda()
    );
    if let Ok(h) = fp.predict_proba(&probs, info) {
        assert_eq!(h.shape(), (n, c));
        for row in h.row_iter() {
            assert!(
                row.iter()
                    .all(|v| v.is_finite() && (-1e-12..=1.0 + 1e-9).contains(v)),
                "row {row}"
            );
            assert!((row.sum() - 1.0).abs() < 1e-6, "row sum {}", row.sum());
        }
    }
    let decision = input
        .threshold
        .map_or(Decision::Argmax, |t| Decision::Threshold(t.value()));
    if let Ok(pred) = fp.predict(&probs, info, decision) {
        assert_eq!(pred.len(), n);
        assert!(pred.iter().all(|&k| k < c));
    }
});
