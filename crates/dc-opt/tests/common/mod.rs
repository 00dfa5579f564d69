//! Shared fixtures: small random data sets for the models.
#![allow(dead_code)]

use dc_opt::{CrossData, SparseRows};
use fair_data::Groups;
use nalgebra::DMatrix;
use rand::{RngExt, SeedableRng};
use rand_chacha::ChaCha8Rng;

/// `n` rows, `d` features (about half zero), two groups with shifted features, labels from a
/// noisy linear rule.
pub fn random_data(n: usize, d: usize, seed: u64) -> (SparseRows, Vec<usize>, Groups) {
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let mut x = DMatrix::zeros(n, d);
    let mut y = Vec::with_capacity(n);
    let mut g = Vec::with_capacity(n);
    for r in 0..n {
        let grp = usize::from(rng.random::<f64>() < 0.4);
        let mut lin = 0.3 * grp as f64 - 0.2;
        for c in 0..d {
            if rng.random::<f64>() < 0.6 {
                let v = rng.random::<f64>() * 2.0 - 1.0 + 0.5 * grp as f64;
                x[(r, c)] = v;
                lin += v * if c % 2 == 0 { 1.0 } else { -0.5 };
            }
        }
        let noise = rng.random::<f64>() - 0.5;
        y.push(usize::from(lin + noise > 0.0));
        g.push(grp);
    }
    // Make sure every group × label cell is non-empty.
    for (i, (grp, lab)) in [(0, 0), (0, 1), (1, 0), (1, 1)].into_iter().enumerate() {
        g[i] = grp;
        y[i] = lab;
    }
    let groups = Groups::new(g, vec!["a".into(), "b".into()]).unwrap();
    (SparseRows::from_dense(&x).unwrap(), y, groups)
}

pub fn cross_data(n: usize, d: usize, seed: u64) -> CrossData {
    let (x, y, g) = random_data(n, d, seed);
    CrossData::new(&x, &y, &g).unwrap()
}
