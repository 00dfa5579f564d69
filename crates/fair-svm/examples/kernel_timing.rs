//! One kernel fair-SVM fit (RBF γ = 0.2, the paper's generator in 5-D, seed 2, d = 0.01,
//! μ = 0.1, the data of `benches/fit.rs`), timed by `FitReport::elapsed`, with the exact factor
//! or a rank cap. Prints the scores' relative deviation from a reference fit when both run.
//!
//! Run: `cargo run --release -p fair-svm --example kernel_timing -- <n> [exact|cap=<r>]...`

use fair_data::{FairSvmSynthetic, Standardizer};
use fair_svm::{Kernel, KernelFairSvm};

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let mut args = std::env::args().skip(1);
    let n: usize = args.next().unwrap_or_else(|| "500".into()).parse()?;
    let variants: Vec<String> = args.collect();
    let variants = if variants.is_empty() {
        vec!["exact".to_string()]
    } else {
        variants
    };
    let data = FairSvmSynthetic::new().n(n).p(5).seed(2).generate()?.data;
    let x = Standardizer::fit(data.x())?.transform(data.x())?;
    let (y, z) = (data.y(), data.groups("z")?); // "z=+1" is group code 1
    let mut reference: Option<nalgebra::DVector<f64>> = None;
    for v in &variants {
        let cap = match v.strip_prefix("cap=") {
            Some(r) => Some(r.parse::<usize>()?),
            None => None,
        };
        let start = std::time::Instant::now();
        let fit = KernelFairSvm::params(Kernel::Rbf { gamma: 0.2 })
            .d(0.01)
            .mu(0.1)
            .max_rank(cap)
            .fit(&x, y, z)?;
        let total = start.elapsed().as_secs_f64();
        let scores = fit.decision_function(&x)?;
        // Against the first fit: the largest score difference relative to the largest score,
        // and the share of rows given the same label.
        let dev = reference.as_ref().map(|r| {
            let same = scores
                .iter()
                .zip(r.iter())
                .filter(|(a, b)| (**a >= 0.0) == (**b >= 0.0))
                .count();
            (
                (&scores - r).amax() / r.amax(),
                same as f64 / r.len() as f64,
            )
        });
        println!(
            "n = {n}, {v}: {:?}, rank {}, residual {:.1e}, {} CCP iterations, {} IP steps, {:.2} s in the iterations, {total:.2} s whole fit, objective {:.8e}, (score deviation, label agreement) vs first {:?}, working rows per iteration {:?}",
            fit.report().status,
            fit.rank(),
            fit.factor_residual(),
            fit.report().iterations,
            fit.report().solver_iterations,
            fit.report().elapsed.as_secs_f64(),
            fit.report().objective,
            dev,
            fit.report()
                .history
                .iter()
                .map(|h| h.working_rows)
                .collect::<Vec<_>>()
        );
        if reference.is_none() {
            reference = Some(scores);
        }
    }
    Ok(())
}
