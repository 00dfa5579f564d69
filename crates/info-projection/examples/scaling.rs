//! Prints one fit report per solver and size (quick look at iteration counts and timings).
//! `cargo run --release -p info-projection --example scaling -- 1400000 5`

use fair_data::GaussianMixture;
use info_projection::{Constraint, FairProjection, InfoProjectionError, Solver, VStep};
use nalgebra::DMatrix;

fn main() -> Result<(), InfoProjectionError> {
    let args: Vec<usize> = std::env::args()
        .skip(1)
        .filter_map(|a| a.parse().ok())
        .collect();
    let n = args.first().copied().unwrap_or(100_000);
    let c = args.get(1).copied().unwrap_or(2);
    let ds = GaussianMixture::new(n)
        .classes(c)
        .groups(c)
        .features(4)
        .group_label_correlation(0.4)
        .seed(7)
        .generate()?;
    let (x, y) = (ds.x(), ds.y());
    let mut centres = vec![vec![0.0; 4]; c];
    let mut counts = vec![0.0; c];
    for i in 0..n {
        counts[y[i]] += 1.0;
        for j in 0..4 {
            centres[y[i]][j] += x[(i, j)];
        }
    }
    let probs = DMatrix::from_fn(n, c, |i, k| {
        let l = |k: usize| {
            -0.5 * (0..4)
                .map(|j| (x[(i, j)] - centres[k][j] / counts[k]).powi(2))
                .sum::<f64>()
        };
        let m = (0..c).map(l).fold(f64::NEG_INFINITY, f64::max);
        (l(k) - m).exp() / (0..c).map(|kk| (l(kk) - m).exp()).sum::<f64>()
    });
    let groups = ds.groups("group")?;
    let solvers = match args.get(2) {
        Some(0) => vec![Solver::Dual],
        Some(_) => vec![Solver::Admm],
        None => vec![Solver::Dual, Solver::Admm],
    };
    // RHO overrides the ADMM penalty (for exploring its effect on the round count).
    let rho: Option<f64> = std::env::var("RHO").ok().and_then(|v| v.parse().ok());
    // RELAX overrides the ADMM over-relaxation factor.
    let relax: f64 = std::env::var("RELAX")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(FairProjection::params().check()?.relaxation());
    // EXACT solves every ADMM V-step to round-off (VStep::Exact).
    // AA overrides the ADMM Anderson memory (0 = off).
    let aa: usize = std::env::var("AA")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(FairProjection::params().check()?.anderson_memory());
    // TOL overrides the stopping tolerance (default 1e-7, the benchmarks' setting).
    let tol: f64 = std::env::var("TOL")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(1e-7);
    // WARM sets the warm-start fraction (default 1 = cold start; 0.0625 was measured).
    let warm: f64 = std::env::var("WARM")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(1.0);
    for solver in solvers {
        let div = if std::env::var("CE").is_ok() {
            info_projection::Divergence::CrossEntropy
        } else {
            info_projection::Divergence::Kl
        };
        let mut params = FairProjection::params();
        if let Some(rho) = rho {
            params = params.rho(rho);
        }
        let fp = params
            .relaxation(relax)
            .anderson_memory(aa)
            .v_step(if std::env::var("EXACT").is_ok() {
                VStep::Exact
            } else {
                VStep::Inexact
            })
            .warm_start_fraction(warm)
            .divergence(div)
            .constraint(Constraint::EqualizedOdds)
            .alpha(0.01)
            .solver(solver)
            .tol(tol)
            .fit(&probs, groups)?;
        println!("{}", fp.report());
    }
    Ok(())
}
