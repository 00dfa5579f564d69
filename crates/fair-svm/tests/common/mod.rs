//! Shared fixtures of the integration tests.
#![allow(dead_code)]

use fair_data::{FairSvmSynthetic, Groups, Standardizer};
use nalgebra::DMatrix;

/// Tolerance for identities that hold up to floating-point round-off.
pub const ROUND_OFF: f64 = 1e-9;
/// Tolerance for quantities produced by the interior-point solver (clarabel's default
/// feasibility and gap tolerances are 1e-8).
pub const SOLVER: f64 = 1e-6;

/// The paper's synthetic generator in `p` dimensions, standardized: (x, 0/1 classes, groups
/// "z=-1" (code 0) and "z=+1" (code 1)).
pub fn synthetic(p: usize, seed: u64) -> (DMatrix<f64>, Vec<usize>, Groups) {
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
    let y = data.y().to_vec();
    let z = data.groups("z").unwrap().clone();
    (x, y, z)
}

/// Two groups from codes: 0 is `"a"` (the paper's z = −1), 1 is `"b"` (z = +1).
pub fn groups(codes: &[usize]) -> Groups {
    Groups::new(codes.to_vec(), vec!["a".into(), "b".into()]).unwrap()
}

/// The paper's ±1 of 0/1 codes (for checks written in its notation).
pub fn signs(codes: &[usize]) -> Vec<f64> {
    codes
        .iter()
        .map(|&c| if c == 1 { 1.0 } else { -1.0 })
        .collect()
}

/// A valid tiny problem: 1-D, groups with different spreads (variances 9 and 1).
pub fn tiny() -> (DMatrix<f64>, Vec<usize>, Groups) {
    let x = DMatrix::from_row_slice(4, 1, &[-1.0, 1.0, -3.0, 3.0]);
    (x, vec![0, 1, 0, 1], groups(&[0, 0, 1, 1]))
}
