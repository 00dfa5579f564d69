//! The convex sanity run of the notes §9.2: on a convex problem (linear model, hinge objective,
//! hinge proxies, projected SGD with Lemma 5's step sizes, full batches), the λ₁-weighted
//! proxy-Lagrangian mixture's 0-1 violation and hinge suboptimality shrink with T.

use game_opt::{
    Algorithm, Examples, GameOptParams, Linear, Optimizer, Problem, Rate, SolutionType, Subset,
};
use nalgebra::DMatrix;

const N: usize = 200;
const RADIUS: f64 = 3.0;

fn problem() -> Problem {
    // x on a grid in [−1, 1]; label noise from a fixed pattern; 30 % positives.
    let x = DMatrix::from_fn(N, 1, |i, _| 2.0 * i as f64 / (N - 1) as f64 - 1.0);
    let y: Vec<usize> = (0..N)
        .map(|i| {
            let flip = (i * 7) % 11 == 0;
            usize::from((i as f64 / N as f64 > 0.7) != flip)
        })
        .collect();
    let coverage = Rate::PositivePrediction(Subset::all()).expr().le(0.2);
    Problem::new(Examples::new(&x, &y).unwrap(), vec![coverage]).unwrap()
}

fn hinge_objective(p: &Problem, m: &Linear) -> f64 {
    let ex = p.examples();
    let scores = ex.scores(m).unwrap();
    scores
        .iter()
        .zip(ex.labels())
        .map(|(f, &y)| (1.0 - if y { *f } else { -*f }).max(0.0))
        .sum::<f64>()
        / N as f64
}

/// inf of the hinge objective over the ball ∩ {proxy constraint ≤ 0}, by grid search.
fn reference(p: &Problem) -> f64 {
    let mut best = f64::INFINITY;
    let steps = 150;
    for i in 0..=steps {
        for j in 0..=steps {
            let w = -RADIUS + 2.0 * RADIUS * i as f64 / steps as f64;
            let b = -RADIUS + 2.0 * RADIUS * j as f64 / steps as f64;
            if w * w + b * b > RADIUS * RADIUS {
                continue;
            }
            let m = Linear::from_parts(&[w], b).unwrap();
            let scores = p.examples().scores(&m).unwrap();
            if p.proxy_constraints(&scores, 1.0).unwrap()[0] <= 0.0 {
                best = best.min(hinge_objective(p, &m));
            }
        }
    }
    best
}

/// (hinge objective, 0-1 violation, proxy violation) of the λ₁-weighted mixture after T steps.
fn run(p: &Problem, alg: Algorithm, t: usize) -> (f64, f64, f64) {
    let (m, b_delta, b_grad) = (1.0_f64, 1.0_f64, 4.0_f64);
    let k = m + 1.0;
    let fit = GameOptParams::new()
        .algorithm(alg)
        .multiplier_radius(Some(10.0))
        .optimizer(Optimizer::Sgd)
        .iterations(t)
        .batch_size(N)
        .snapshot_every(1)
        .theta_radius(Some(RADIUS))
        .lr_theta(RADIUS / (b_grad * (2.0 * t as f64).sqrt()))
        .lr_lambda(if alg == Algorithm::ProxyLagrangian {
            (k * k.ln() / (t as f64 * b_delta * b_delta)).sqrt()
        } else {
            10.0 / (b_delta * (2.0 * t as f64).sqrt())
        })
        .fit(p, Linear::new(1))
        .unwrap();
    let sol = fit.solution(SolutionType::TStochLambda1).unwrap();
    let (mut obj, mut vio, mut proxy) = (0.0, 0.0, 0.0);
    for &(i, w) in &sol.weights {
        let s = &fit.snapshots()[i];
        obj += w * hinge_objective(p, &s.model);
        vio += w * s.train.constraints[0];
        let scores = p.examples().scores(&s.model).unwrap();
        proxy += w * p.proxy_constraints(&scores, 1.0).unwrap()[0];
    }
    (obj, vio, proxy)
}

#[test]
fn proxy_lagrangian_violation_and_suboptimality_shrink_with_t() {
    let p = problem();
    let r = reference(&p);
    assert!(r.is_finite(), "the proxy-feasible set must be non-empty");
    // Theorem 2: suboptimality against the proxy-feasible optimum, 0-1 violation.
    let gaps: Vec<(usize, f64, f64)> = [100, 400, 1600, 6400]
        .iter()
        .map(|&t| {
            let (obj, vio, _) = run(&p, Algorithm::ProxyLagrangian, t);
            (t, (obj - r).max(0.0), vio.max(0.0))
        })
        .collect();
    let total = |g: &(usize, f64, f64)| g.1 + g.2;
    assert!(
        total(&gaps[0]) > 0.0,
        "T = 100 should still be off: {gaps:?}"
    );
    assert!(
        total(&gaps[3]) < 0.5 * total(&gaps[0]),
        "{gaps:?} (reference {r})"
    );
    assert!(total(&gaps[3]) <= total(&gaps[1]) + 1e-3, "{gaps:?}");
    assert!(total(&gaps[3]) < 0.05, "{gaps:?}");
}

#[test]
fn hinge_lagrangian_converges_to_proxy_optimum() {
    // Algorithm 5 is a convex zero-sum game: |E g₀ − OPT| and the proxy violation shrink.
    let p = problem();
    let r = reference(&p);
    let gaps: Vec<(usize, f64, f64)> = [100, 1600, 6400]
        .iter()
        .map(|&t| {
            let (obj, _, proxy) = run(&p, Algorithm::Hinge, t);
            (t, (obj - r).abs(), proxy.max(0.0))
        })
        .collect();
    let total = |g: &(usize, f64, f64)| g.1 + g.2;
    assert!(
        total(&gaps[2]) < 0.5 * total(&gaps[0]),
        "{gaps:?} (reference {r})"
    );
    assert!(total(&gaps[2]) < 0.1, "{gaps:?}");
}
