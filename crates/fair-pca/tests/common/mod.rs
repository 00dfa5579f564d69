//! Shared fixtures of the integration tests.
#![allow(dead_code)]

use fair_data::Groups;
use nalgebra::DMatrix;
use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;
use rand_distr::{Distribution, StandardNormal};

/// Tolerance for invariants that hold exactly in exact arithmetic, relative to the data scale.
pub const REL_TOL: f64 = 1e-9;

/// `k` groups of `rows` rows in `d` dimensions; group `g` is stretched along its own axes, so the
/// groups' principal subspaces differ (vanilla PCA then favours the larger-variance group).
pub fn grouped_data(seed: u64, k: usize, rows: usize, d: usize) -> (DMatrix<f64>, Groups) {
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let n = k * rows;
    let mut x = DMatrix::<f64>::zeros(n, d);
    let mut codes = Vec::with_capacity(n);
    for i in 0..n {
        let g = i % k;
        codes.push(g);
        for j in 0..d {
            let z: f64 = StandardNormal.sample(&mut rng);
            let stretch = if j % k == g { 3.0 + g as f64 } else { 0.7 };
            x[(i, j)] = stretch * z + 0.5 * g as f64;
        }
    }
    (x, Groups::from_codes(&codes).expect("codes are non-empty"))
}

/// `‖X_c − X_c UUᵀ‖²` over the rows of one group (or all rows), computed directly from the
/// reconstruction (independently of fair-metrics).
pub fn direct_loss(
    x: &DMatrix<f64>,
    groups: &Groups,
    group: Option<usize>,
    p: &fair_pca::Projection,
) -> f64 {
    let rec = p.reconstruct(x).expect("valid input");
    let diff = x - rec;
    diff.row_iter()
        .zip(groups.codes())
        .filter(|(_, c)| group.is_none_or(|g| **c == g))
        .map(|(r, _)| r.norm_squared())
        .sum()
}
