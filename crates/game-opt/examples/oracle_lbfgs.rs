//! The best-response oracle's hand-written L-BFGS (memory 10, backtracking Armijo, `‖∇‖∞`
//! stop) against argmin's L-BFGS (memory 10, Moré–Thuente, `‖∇‖₂` stop) on the same weighted
//! logistic problems: time per response and the objective reached (docs/architecture.md,
//! "One L-BFGS").
//!
//! Run: `cargo run --release -p game-opt --example oracle_lbfgs [n] [d] [responses]`
//!
//! The problems are the oracle games': rows relabelled to a random cheaper prediction and
//! weighted by a random cost, answered in sequence, each response warm-started at the previous
//! one (as `GameOpt::play_oracle` does), at the estimator's setting (15 iterations, tolerance
//! 1e-3) and at the crate's (100, 1e-5).

use argmin::core::{CostFunction, Executor, Gradient, State};
use argmin::solver::linesearch::MoreThuenteLineSearch;
use argmin::solver::quasinewton::LBFGS;
use game_opt::{Examples, Linear, LogisticOracle, Model, Oracle};
use nalgebra::{DMatrix, DVector};
use rand::{RngExt, SeedableRng};
use rand_chacha::ChaCha8Rng;
use std::cell::RefCell;
use std::time::Instant;

/// The oracle's objective: `(1/n) Σ w̃ᵣ ln(1 + exp(−sᵣ f(xᵣ))) + (l2/2)‖w‖²`, weights rescaled to
/// mean 1, bias not penalised. Rows are stored row-major (as `Examples` does) and the last
/// evaluation is cached, so argmin's separate `cost`/`gradient` calls at one point cost one pass.
/// A point, the objective there and its gradient.
type Evaluation = (Vec<f64>, f64, Vec<f64>);

struct Problem<'a> {
    rows: &'a [f64],
    d: usize,
    sign: Vec<f64>,
    weights: Vec<f64>,
    l2: f64,
    cache: RefCell<Option<Evaluation>>,
    passes: RefCell<usize>,
}

impl Problem<'_> {
    fn loss_grad(&self, theta: &[f64]) -> (f64, Vec<f64>) {
        if let Some((at, f, g)) = self.cache.borrow().as_ref()
            && at.as_slice() == theta
        {
            return (*f, g.clone());
        }
        *self.passes.borrow_mut() += 1;
        let d = self.d;
        let n = self.sign.len();
        let mut g = vec![0.0; d + 1];
        let mut loss = 0.0;
        for (r, row) in self.rows.chunks_exact(d).enumerate() {
            let w = self.weights[r];
            if w == 0.0 {
                continue;
            }
            let f = theta[d] + row.iter().zip(theta).map(|(x, t)| x * t).sum::<f64>();
            let z = -self.sign[r] * f;
            let (l, sig) = if z > 0.0 {
                let e = (-z).exp();
                (z + e.ln_1p(), 1.0 / (1.0 + e))
            } else {
                let e = z.exp();
                (e.ln_1p(), e / (1.0 + e))
            };
            loss += w * l;
            let coef = -self.sign[r] * sig * w / n as f64;
            for (gj, x) in g.iter_mut().zip(row) {
                *gj += coef * x;
            }
            g[d] += coef;
        }
        let mut penalty = 0.0;
        for j in 0..d {
            g[j] += self.l2 * theta[j];
            penalty += theta[j] * theta[j];
        }
        let f = loss / n as f64 + 0.5 * self.l2 * penalty;
        *self.cache.borrow_mut() = Some((theta.to_vec(), f, g.clone()));
        (f, g)
    }
}

impl CostFunction for &Problem<'_> {
    type Param = DVector<f64>;
    type Output = f64;
    fn cost(&self, p: &Self::Param) -> Result<f64, argmin::core::Error> {
        Ok(self.loss_grad(p.as_slice()).0)
    }
}

impl Gradient for &Problem<'_> {
    type Param = DVector<f64>;
    type Gradient = DVector<f64>;
    fn gradient(&self, p: &Self::Param) -> Result<Self::Param, argmin::core::Error> {
        Ok(DVector::from_vec(self.loss_grad(p.as_slice()).1))
    }
}

fn argmin_response(problem: &Problem<'_>, start: &[f64], max_iters: u64, tol: f64) -> Vec<f64> {
    let solver = LBFGS::new(MoreThuenteLineSearch::new(), 10)
        .with_tolerance_grad(tol)
        .unwrap()
        .with_tolerance_cost(0.0)
        .unwrap();
    let res = Executor::new(problem, solver)
        .configure(|s| {
            s.param(DVector::from_column_slice(start))
                .max_iters(max_iters)
        })
        .run()
        .unwrap();
    res.state().get_best_param().unwrap().as_slice().to_vec()
}

fn main() {
    let args: Vec<usize> = std::env::args()
        .skip(1)
        .map(|a| a.parse().unwrap())
        .collect();
    let n = args.first().copied().unwrap_or(30_000);
    let d = args.get(1).copied().unwrap_or(40);
    let responses = args.get(2).copied().unwrap_or(20);
    let mut rng = ChaCha8Rng::seed_from_u64(7);
    let x = DMatrix::from_fn(n, d, |_, _| rng.random::<f64>() * 2.0 - 1.0);
    let beta: Vec<f64> = (0..d).map(|_| rng.random::<f64>() * 2.0 - 1.0).collect();
    let y: Vec<usize> = (0..n)
        .map(|r| {
            let f: f64 = (0..d).map(|j| beta[j] * x[(r, j)]).sum();
            usize::from(rng.random::<f64>() < 1.0 / (1.0 + (-f).exp()))
        })
        .collect();
    let examples = Examples::new(&x, &y).unwrap();
    // The games' problems: each row relabelled (a flip with probability 0.2) and weighted.
    let problems: Vec<(Vec<bool>, Vec<f64>)> = (0..responses)
        .map(|_| {
            let t = y
                .iter()
                .map(|&l| (l == 1) != (rng.random::<f64>() < 0.2))
                .collect();
            let w = (0..n).map(|_| rng.random::<f64>() * 2.0).collect();
            (t, w)
        })
        .collect();
    println!("n = {n}, d = {d}, {responses} warm-started responses");
    let rows: Vec<f64> = (0..n)
        .flat_map(|r| (0..d).map(move |j| (r, j)))
        .map(|(r, j)| x[(r, j)])
        .collect();
    println!(
        "| setting | solver | ms / response | passes over the rows / response | mean objective | mean ‖∇‖∞ |"
    );
    println!("|---|---|---|---|---|---|");
    for (max_iters, tol) in [(15usize, 1e-3), (100, 1e-5)] {
        let mut objective = [0.0; 2];
        let mut gradient = [0.0; 2];
        let mut millis = [0.0; 2];
        let mut passes = [0usize; 2];
        for solver in 0..2 {
            let mut theta = vec![0.0; d + 1];
            for (targets, weights) in &problems {
                let mean = weights.iter().sum::<f64>() / n as f64;
                let problem = Problem {
                    rows: &rows,
                    d,
                    sign: targets
                        .iter()
                        .map(|&t| if t { 1.0 } else { -1.0 })
                        .collect(),
                    weights: weights.iter().map(|w| w / mean).collect(),
                    l2: 1e-4,
                    cache: RefCell::new(None),
                    passes: RefCell::new(0),
                };
                let clock = Instant::now();
                theta = if solver == 0 {
                    let mut model = Linear::new(d);
                    model.parameters_mut().copy_from_slice(&theta);
                    let mut oracle = LogisticOracle::new().max_iters(max_iters).tolerance(tol);
                    oracle
                        .best_response(&examples, targets, weights, &mut model)
                        .unwrap();
                    passes[solver] += oracle.last_evaluations();
                    model.parameters().to_vec()
                } else {
                    let t = argmin_response(&problem, &theta, max_iters as u64, tol);
                    passes[solver] += *problem.passes.borrow();
                    t
                };
                millis[solver] += clock.elapsed().as_secs_f64() * 1e3;
                let (f, g) = problem.loss_grad(&theta);
                objective[solver] += f;
                gradient[solver] += g.iter().fold(0.0f64, |a, v| a.max(v.abs()));
            }
        }
        let r = responses as f64;
        for (solver, name) in ["hand-written (Armijo)", "argmin (Moré–Thuente)"]
            .iter()
            .enumerate()
        {
            println!(
                "| {max_iters} it, tol {tol:e} | {name} | {:.2} | {:.1} | {:.10} | {:.2e} |",
                millis[solver] / r,
                passes[solver] as f64 / r,
                objective[solver] / r,
                gradient[solver] / r
            );
        }
    }
}
