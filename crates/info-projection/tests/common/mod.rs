//! Shared fixtures and an independent brute-force solver of the dual (8): dense `G_i` matrices
//! built from the formulas of the notes (§1.3), the conjugates from §1.4 (the CE normaliser by
//! plain bisection), and accelerated projected gradient run to convergence.
#![allow(dead_code)]
// Index loops mirror the notes' formulas term by term (this is the reference implementation).
#![allow(clippy::needless_range_loop)]

use fair_data::Groups;
use info_projection::{Constraint, Divergence};
use nalgebra::DMatrix;

/// Largest absolute difference of two equally long vectors.
pub fn max_diff(a: &[f64], b: &[f64]) -> f64 {
    assert_eq!(a.len(), b.len());
    a.iter()
        .zip(b)
        .map(|(x, y)| (x - y).abs())
        .fold(0.0, f64::max)
}

/// A small instance: probabilities (softmax of logits), group codes covering every group.
pub struct Instance {
    pub probs: DMatrix<f64>,
    pub groups: Groups,
    pub n: usize,
    pub c: usize,
    pub a: usize,
}

pub fn instance(n: usize, c: usize, a: usize, logits: &[f64], codes: &[usize]) -> Instance {
    let mut probs = DMatrix::zeros(n, c);
    for i in 0..n {
        let row = &logits[i * c..(i + 1) * c];
        let m = row.iter().cloned().fold(f64::NEG_INFINITY, f64::max);
        let s: f64 = row.iter().map(|v| (v - m).exp()).sum();
        for k in 0..c {
            probs[(i, k)] = (row[k] - m).exp() / s;
        }
    }
    // The first a rows cover every group, so none is empty.
    let codes: Vec<usize> = (0..n)
        .map(|i| if i < a { i } else { codes[i] % a })
        .collect();
    let groups = Groups::from_codes(&codes).unwrap();
    Instance {
        probs,
        groups,
        n,
        c,
        a,
    }
}

/// A deterministic instance from a simple LCG (no RNG crate needed).
pub fn lcg_instance(n: usize, c: usize, a: usize, seed: u64) -> Instance {
    let mut state = seed
        .wrapping_mul(6364136223846793005)
        .wrapping_add(1442695040888963407);
    let mut next = || {
        state = state
            .wrapping_mul(6364136223846793005)
            .wrapping_add(1442695040888963407);
        ((state >> 11) as f64) / ((1u64 << 53) as f64)
    };
    let mut codes = Vec::with_capacity(n);
    let mut logits = Vec::with_capacity(n * c);
    for _ in 0..n {
        let g = (next() * a as f64) as usize % a;
        codes.push(g);
        for k in 0..c {
            // Group-dependent skew so the constraints bind.
            let skew = if k == g % c { 1.2 } else { 0.0 };
            logits.push(3.0 * (next() - 0.5) + skew);
        }
    }
    instance(n, c, a, &logits, &codes)
}

/// Dense `G_i` (K × C, row-major per sample) from the notes' formulas, plug-in marginals
/// `P(Y=c, S=a) = (1/N) Σ_i p_ic 1{S_i = a}`.
pub fn dense_g(inst: &Instance, constraints: &[Constraint], alpha: f64) -> (usize, Vec<Vec<f64>>) {
    let (n, c, a) = (inst.n, inst.c, inst.a);
    let codes = inst.groups.codes();
    let mut joint = vec![vec![0.0; a]; c];
    for i in 0..n {
        for k in 0..c {
            joint[k][codes[i]] += inst.probs[(i, k)] / n as f64;
        }
    }
    let ps: Vec<f64> = (0..a).map(|g| (0..c).map(|k| joint[k][g]).sum()).collect();
    let py: Vec<f64> = (0..c).map(|k| joint[k].iter().sum()).collect();
    let mut gs = Vec::with_capacity(n);
    let mut kk = 0;
    for i in 0..n {
        let p: Vec<f64> = (0..c).map(|k| inst.probs[(i, k)]).collect();
        let s = |g: usize| if codes[i] == g { 1.0 } else { 0.0 };
        let mut rows: Vec<Vec<f64>> = Vec::new();
        for con in constraints {
            for delta in 0..2 {
                let sg = if delta == 0 { 1.0 } else { -1.0 };
                match con {
                    Constraint::StatisticalParity => {
                        for g in 0..a {
                            let m_a: f64 = (0..c).map(|k| s(g) * p[k]).sum();
                            for col in 0..c {
                                let mut r = vec![0.0; c];
                                r[col] = sg * m_a / ps[g] - (alpha + sg);
                                rows.push(r);
                            }
                        }
                    }
                    Constraint::EqualizedOdds
                    | Constraint::EqualOpportunity
                    | Constraint::FalsePositiveParity => {
                        let true_classes: Vec<usize> = match con {
                            Constraint::EqualOpportunity => vec![1],
                            Constraint::FalsePositiveParity => vec![0],
                            _ => (0..c).collect(),
                        };
                        for g in 0..a {
                            for &k in &true_classes {
                                let psy = joint[k][g] / py[k];
                                for col in 0..c {
                                    let mut r = vec![0.0; c];
                                    r[col] = sg * s(g) * p[k] / psy - (alpha + sg) * p[k];
                                    rows.push(r);
                                }
                            }
                        }
                    }
                    Constraint::EqualizedOddsDiagonal => {
                        for g in 0..a {
                            for k in 0..c {
                                let mut r = vec![0.0; c];
                                r[k] = sg * p[k] * s(g) / joint[k][g] - (alpha + sg) * p[k] / py[k];
                                rows.push(r);
                            }
                        }
                    }
                    Constraint::OverallAccuracy => {
                        for g in 0..a {
                            let r = (0..c)
                                .map(|k| sg * s(g) * p[k] / ps[g] - (alpha + sg) * p[k])
                                .collect();
                            rows.push(r);
                        }
                    }
                }
            }
        }
        kk = rows.len();
        gs.push(rows.concat());
    }
    (kk, gs)
}

/// `D^conj(−u, p)` and its gradient in v (the tilt), computed independently.
fn conj(div: Divergence, p: &[f64], u: &[f64]) -> (f64, Vec<f64>) {
    match div {
        Divergence::Kl => {
            let m = u.iter().map(|x| -x).fold(f64::NEG_INFINITY, f64::max);
            let s: f64 = p.iter().zip(u).map(|(pc, uc)| pc * (-uc - m).exp()).sum();
            let h = p
                .iter()
                .zip(u)
                .map(|(pc, uc)| pc * (-uc - m).exp() / s)
                .collect();
            (m + s.ln(), h)
        }
        Divergence::CrossEntropy => {
            let umin = u.iter().cloned().fold(f64::INFINITY, f64::min);
            let (mut lo, mut hi) = (-umin, -umin + 2.0);
            let f = |t: f64| p.iter().zip(u).map(|(pc, uc)| pc / (t + uc)).sum::<f64>() - 1.0;
            while f(hi) > 0.0 {
                hi += 2.0 * (hi - lo);
            }
            for _ in 0..200 {
                let mid = 0.5 * (lo + hi);
                if f(mid) > 0.0 {
                    lo = mid;
                } else {
                    hi = mid;
                }
            }
            let th = 0.5 * (lo + hi);
            let val = th
                - 1.0
                - p.iter()
                    .zip(u)
                    .map(|(pc, uc)| pc * (th + uc).ln())
                    .sum::<f64>();
            let h = p.iter().zip(u).map(|(pc, uc)| pc / (th + uc)).collect();
            (val, h)
        }
    }
}

/// Objective and gradient of (8) with dense matrices.
pub fn dense_dual(
    inst: &Instance,
    gs: &[Vec<f64>],
    k: usize,
    div: Divergence,
    zeta: f64,
    lambda: &[f64],
) -> (f64, Vec<f64>) {
    let (n, c) = (inst.n, inst.c);
    let mut f = 0.5 * zeta * lambda.iter().map(|l| l * l).sum::<f64>();
    let mut g: Vec<f64> = lambda.iter().map(|l| zeta * l).collect();
    for i in 0..n {
        let gi = &gs[i];
        let p: Vec<f64> = (0..c).map(|kk| inst.probs[(i, kk)]).collect();
        let u: Vec<f64> = (0..c)
            .map(|col| (0..k).map(|r| gi[r * c + col] * lambda[r]).sum())
            .collect();
        let (val, h) = conj(div, &p, &u);
        f += (val + 0.5 * zeta * u.iter().map(|x| x * x).sum::<f64>()) / n as f64;
        for r in 0..k {
            let mut acc = 0.0;
            for col in 0..c {
                acc += gi[r * c + col] * (zeta * u[col] - h[col]);
            }
            g[r] += acc / n as f64;
        }
    }
    (f, g)
}

/// FISTA with backtracking and adaptive restart on λ ≥ 0, until `‖λ − P(λ − ∇)‖∞ ≤ tol`.
pub fn brute_force(
    inst: &Instance,
    constraints: &[Constraint],
    alpha: f64,
    div: Divergence,
    tol: f64,
) -> Vec<f64> {
    let (k, gs) = dense_g(inst, constraints, alpha);
    let zeta = 1.0 / (inst.n as f64).sqrt();
    let eval = |l: &[f64]| dense_dual(inst, &gs, k, div, zeta, l);
    let mut x = vec![0.0; k];
    let mut y = x.clone();
    let mut t: f64 = 1.0;
    let mut lip = 1.0;
    let (mut fx, _) = eval(&x);
    for _ in 0..200_000 {
        let (fy, gy) = eval(&y);
        let xn = loop {
            let cand: Vec<f64> = y
                .iter()
                .zip(&gy)
                .map(|(yi, gi)| (yi - gi / lip).max(0.0))
                .collect();
            let (fc, _) = eval(&cand);
            let d: Vec<f64> = cand.iter().zip(&y).map(|(a, b)| a - b).collect();
            let model = fy
                + d.iter().zip(&gy).map(|(a, b)| a * b).sum::<f64>()
                + 0.5 * lip * d.iter().map(|v| v * v).sum::<f64>();
            if fc <= model + 1e-15 * (1.0 + fy.abs()) {
                break cand;
            }
            lip *= 2.0;
        };
        let (fxn, gxn) = eval(&xn);
        let pg = xn
            .iter()
            .zip(&gxn)
            .map(|(a, b)| (a - (a - b).max(0.0)).abs())
            .fold(0.0, f64::max);
        if pg <= tol {
            return xn;
        }
        // Gradient-based restart (O'Donoghue & Candès): drop the momentum when f went up.
        let (tn, restart) = if fxn > fx {
            (1.0, true)
        } else {
            ((1.0 + (1.0 + 4.0 * t * t).sqrt()) / 2.0, false)
        };
        y = if restart {
            xn.clone()
        } else {
            xn.iter()
                .zip(&x)
                .map(|(a, b)| (a + (t - 1.0) / tn * (a - b)).max(0.0))
                .collect()
        };
        x = xn;
        fx = fxn;
        t = tn;
        lip *= 0.9;
    }
    panic!("brute force did not converge");
}
