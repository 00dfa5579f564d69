//! Shared fixtures of the integration tests.
#![allow(dead_code)]

use fair_data::{FairSvmSynthetic, Standardizer};
use fair_svm::{signs_from_classes, signs_from_groups};
use nalgebra::DMatrix;

/// Tolerance for identities that hold up to floating-point round-off.
pub const ROUND_OFF: f64 = 1e-9;
/// Tolerance for quantities produced by the interior-point solver (clarabel's default
/// feasibility and gap tolerances are 1e-8).
pub const SOLVER: f64 = 1e-6;

/// The paper's synthetic generator in `p` dimensions, standardized: (x, y, z).
pub fn synthetic(p: usize, seed: u64) -> (DMatrix<f64>, Vec<f64>, Vec<f64>) {
    let data = FairSvmSynthetic::new()
        .p(p)
        .seed(seed)
        .generate()
        .unwrap()
        .data;
    let x = Standardizer::fit(data.x())
        .unwrap()
        .transform(data.x())
        .unwrap();
    let y = signs_from_classes(data.y()).unwrap();
    let z = signs_from_groups(data.groups("z").unwrap(), &["z=+1"]).unwrap();
    (x, y, z)
}

/// A valid tiny problem: 1-D, groups with different spreads (variances 9 and 1).
pub fn tiny() -> (DMatrix<f64>, Vec<f64>, Vec<f64>) {
    let x = DMatrix::from_row_slice(4, 1, &[-1.0, 1.0, -3.0, 3.0]);
    (x, vec![-1.0, 1.0, -1.0, 1.0], vec![-1.0, -1.0, 1.0, 1.0])
}
