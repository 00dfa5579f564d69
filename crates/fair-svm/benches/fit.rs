//! Fit times: the linear fair SVM on 1,000 × 60 (plain, Zafar, spectral) and the kernel fair SVM
//! at n = 500, 1,000, 2,000 (the default rank cap of 100) and with the exact factor at n = 200,
//! 300, 500. Data are built outside the timed region with fixed seeds.
//!
//! Run: `cargo bench -p fair-svm --bench fit`.

use divan::Bencher;
use fair_data::{FairSvmSynthetic, GaussianMixture, Standardizer};
use fair_svm::{Groups, Kernel, KernelFairSvm, SpectralFairSvm, one_vs_rest};
use nalgebra::DMatrix;

fn main() {
    divan::main();
}

type Problem = (DMatrix<f64>, Vec<usize>, Groups);

/// 1,000 × 60 Gaussian mixture (two groups shifted, labels correlated with groups).
fn linear_problem() -> Problem {
    let ds = GaussianMixture::new(1000)
        .features(60)
        .seed(1)
        .generate()
        .expect("generator");
    let x = Standardizer::fit(ds.x())
        .and_then(|s| s.transform(ds.x()))
        .expect("scaling");
    let y = ds.y().to_vec();
    let z = one_vs_rest(ds.groups("group").expect("attribute"), &["1"]).expect("groups");
    (x, y, z)
}

/// The paper's synthetic generator with n rows in 5 dimensions.
fn kernel_problem(n: usize) -> Problem {
    let data = FairSvmSynthetic::new()
        .n(n)
        .p(5)
        .seed(2)
        .generate()
        .expect("generator")
        .data;
    let x = Standardizer::fit(data.x())
        .and_then(|s| s.transform(data.x()))
        .expect("scaling");
    let y = data.y().to_vec();
    // Groups "z=-1" (code 0) and "z=+1" (code 1).
    let z = data.groups("z").expect("attribute").clone();
    (x, y, z)
}

#[divan::bench(args = ["plain", "zafar d=0.01", "spectral d=0.01 mu=0.1"], sample_count = 5)]
fn linear_1000x60(bencher: Bencher, variant: &str) {
    let (x, y, z) = linear_problem();
    let params = match variant {
        "plain" => SpectralFairSvm::params().mu(0.0),
        "zafar d=0.01" => SpectralFairSvm::params().d(0.01).mu(0.0),
        _ => SpectralFairSvm::params().d(0.01).mu(0.1),
    };
    bencher.bench_local(|| params.fit(&x, &y, &z).expect("fit"));
}

/// The default: the rank cap of 100 (a Nyström-type approximation of K at these n).
#[divan::bench(args = [500, 1000, 2000], sample_count = 3)]
fn kernel_rbf_spectral(bencher: Bencher, n: usize) {
    kernel_bench(bencher, n, Some(100));
}

/// The exact factor (`max_rank(None)`): r ≈ n feature coordinates, solved on a working set of
/// dual variables (n = 1,000 and the capped fit's error: `examples/kernel_timing.rs`).
#[divan::bench(args = [200, 300, 500], sample_count = 3)]
fn kernel_rbf_spectral_exact(bencher: Bencher, n: usize) {
    kernel_bench(bencher, n, None);
}

fn kernel_bench(bencher: Bencher, n: usize, cap: Option<usize>) {
    let (x, y, z) = kernel_problem(n);
    let params = KernelFairSvm::params(Kernel::Rbf { gamma: 0.2 })
        .d(0.01)
        .mu(0.1)
        .max_rank(cap);
    // One untimed fit to print what is being timed: the rank, the factor's residual and the
    // convex–concave work.
    let probe = params.fit(&x, &y, &z).expect("fit");
    eprintln!(
        "n = {n}, cap {cap:?}: {:?}, rank {}, residual {:.1e}, {} CCP iterations, {} IP steps, {:.2} s",
        probe.report().status,
        probe.rank(),
        probe.factor_residual(),
        probe.report().iterations,
        probe.report().solver_iterations,
        probe.report().elapsed.as_secs_f64()
    );
    bencher.bench_local(|| params.fit(&x, &y, &z).expect("fit"));
}
