//! Fit time on synthetic data shaped like the paper's runtime study (ENEM: 1.4M rows, 2 classes,
//! 2 groups, MEO at α = 0.01, Table 4), and a 5 × 5 multi-class multi-group variant.
//!
//! Base probabilities are a fixed smooth function of a `GaussianMixture` draw (built outside the
//! timed region): a softmax of distances to the class centres estimated from the data, so the
//! base is informative and unfair. Run: `cargo bench -p info-projection --bench fit`.

use fair_data::{GaussianMixture, Groups};
use info_projection::{Constraint, Divergence, FairProjection, Solver};
use nalgebra::DMatrix;
use std::sync::OnceLock;

fn main() {
    divan::main();
}

const SIZES: [usize; 6] = [20_000, 50_000, 100_000, 200_000, 500_000, 1_400_000];

/// Synthetic base probabilities and groups for `n` rows, `c` classes, `a` groups.
pub fn synthetic(n: usize, c: usize, a: usize) -> (DMatrix<f64>, Groups) {
    let ds = GaussianMixture::new(n)
        .classes(c)
        .groups(a)
        .features(4)
        .group_label_correlation(0.4)
        .seed(7)
        .generate()
        .expect("valid generator settings");
    let x = ds.x();
    let y = ds.y();
    let d = x.ncols();
    let mut centres = vec![vec![0.0; d]; c];
    let mut counts = vec![0.0_f64; c];
    for i in 0..n {
        counts[y[i]] += 1.0;
        for j in 0..d {
            centres[y[i]][j] += x[(i, j)];
        }
    }
    for (centre, &count) in centres.iter_mut().zip(&counts) {
        for v in centre.iter_mut() {
            *v /= count.max(1.0);
        }
    }
    let mut probs = DMatrix::zeros(n, c);
    for i in 0..n {
        let logits: Vec<f64> = (0..c)
            .map(|k| {
                -0.5 * (0..d)
                    .map(|j| (x[(i, j)] - centres[k][j]).powi(2))
                    .sum::<f64>()
            })
            .collect();
        let m = logits.iter().cloned().fold(f64::NEG_INFINITY, f64::max);
        let s: f64 = logits.iter().map(|l| (l - m).exp()).sum();
        for k in 0..c {
            probs[(i, k)] = (logits[k] - m).exp() / s;
        }
    }
    (probs, ds.groups("group").expect("attribute exists").clone())
}

type Problem = (DMatrix<f64>, Groups);
type Cache = std::sync::Mutex<Vec<(usize, usize, &'static Problem)>>;

fn cached(n: usize, c: usize) -> &'static Problem {
    static CACHE: OnceLock<Cache> = OnceLock::new();
    let cache = CACHE.get_or_init(Default::default);
    let mut v = cache.lock().expect("cache lock");
    if let Some(hit) = v.iter().find(|e| e.0 == n && e.1 == c) {
        return hit.2;
    }
    let leaked: &'static _ = Box::leak(Box::new(synthetic(n, c, c)));
    v.push((n, c, leaked));
    leaked
}

fn run(bencher: divan::Bencher, n: usize, c: usize, solver: Solver) {
    let (probs, groups) = cached(n, c);
    let params = FairProjection::params()
        .constraint(Constraint::EqualizedOdds)
        .alpha(0.01)
        .divergence(Divergence::Kl)
        .solver(solver)
        .tol(1e-7);
    bencher.bench(|| {
        let fp = params.fit(probs, groups).expect("fit");
        divan::black_box(fp.lambda()[0])
    });
}

#[divan::bench(args = SIZES, sample_count = 3, sample_size = 1)]
fn dual_2x2(bencher: divan::Bencher, n: usize) {
    run(bencher, n, 2, Solver::Dual);
}

/// ADMM (default settings: inexact Newton V-step, over-relaxation 1.6, Anderson memory 5) needs
/// 22–83 rounds of one pass each here (≈ 20 s at 1.4M × 5 × 5), so it is timed once per size.
const ADMM_SIZES: [usize; 4] = [20_000, 100_000, 200_000, 1_400_000];

#[divan::bench(args = ADMM_SIZES, sample_count = 1, sample_size = 1)]
fn admm_2x2(bencher: divan::Bencher, n: usize) {
    run(bencher, n, 2, Solver::Admm);
}

#[divan::bench(args = SIZES, sample_count = 3, sample_size = 1)]
fn dual_5x5(bencher: divan::Bencher, n: usize) {
    run(bencher, n, 5, Solver::Dual);
}

#[divan::bench(args = ADMM_SIZES, sample_count = 1, sample_size = 1)]
fn admm_5x5(bencher: divan::Bencher, n: usize) {
    run(bencher, n, 5, Solver::Admm);
}
