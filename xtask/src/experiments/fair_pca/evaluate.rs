//! Losses and disparities of every method on one case at one r.

use super::*;

/// One method's losses at one r, all on the per-sample scale, with `E_i` measured against each
/// group's own rank-r PCA (also for Samadi's rank r + 1 basis).
#[derive(Clone)]
pub(super) struct Eval {
    pub(super) method: Method,
    pub(super) r: usize,
    pub(super) rank: usize,
    pub(super) total: f64,
    pub(super) loss: Vec<f64>,
    pub(super) best: Vec<f64>,
    pub(super) disparity: Vec<f64>,
    pub(super) mean_disparity: f64,
    pub(super) mean_abs_pairwise: f64,
    pub(super) max_gap: f64,
    pub(super) max_disparity: f64,
    pub(super) seconds: f64,
    pub(super) status: String,
}

impl Eval {
    pub(super) fn new(
        method: Method,
        r: usize,
        l: &PcaDisparity,
        best_r: &[f64],
        seconds: f64,
        status: String,
    ) -> Self {
        let k = l.sizes.len();
        let n: usize = l.sizes.iter().sum();
        let loss: Vec<f64> = l
            .raw
            .loss
            .iter()
            .zip(&l.sizes)
            .map(|(v, &s)| v / s as f64)
            .collect();
        let best: Vec<f64> = best_r
            .iter()
            .zip(&l.sizes)
            .map(|(v, &s)| v / s as f64)
            .collect();
        let disparity: Vec<f64> = loss.iter().zip(&best).map(|(a, b)| a - b).collect();
        let mut pair_sum = 0.0;
        let mut pairs = 0;
        for i in 0..k {
            for j in i + 1..k {
                pair_sum += (disparity[i] - disparity[j]).abs();
                pairs += 1;
            }
        }
        let max = disparity.iter().copied().fold(f64::NEG_INFINITY, f64::max);
        let min = disparity.iter().copied().fold(f64::INFINITY, f64::min);
        Self {
            method,
            r,
            rank: l.rank,
            total: l.total_loss / n as f64,
            mean_disparity: disparity.iter().sum::<f64>() / k as f64,
            mean_abs_pairwise: pair_sum / pairs.max(1) as f64,
            max_gap: max - min,
            max_disparity: max,
            loss,
            best,
            disparity,
            seconds,
            status,
        }
    }
}

/// Evaluates every method on one case at one r.
pub(super) fn evaluate_r(case: &Case, r: usize, bar: &ProgressBar) -> Result<Vec<Eval>> {
    let k = case.groups.n_groups();
    let mut out = Vec::new();
    let mut best_r: Option<Vec<f64>> = None;
    for method in Method::ALL {
        if !method.applies(k) {
            continue;
        }
        bar.set_message(format!("{} r={r} {}", case.key, method.name()));
        let clock = Instant::now();
        let (proj, status) = fit(method, &case.x, &case.groups, r)?;
        let seconds = clock.elapsed().as_secs_f64();
        let l = proj.losses(&case.x, &case.groups)?;
        let best = best_r
            .get_or_insert_with(|| l.raw.best_loss.clone())
            .clone();
        out.push(Eval::new(method, r, &l, &best, seconds, status));
        bar.inc(1);
    }
    Ok(out)
}

pub(super) fn at(evals: &[Eval], method: Method, r: usize) -> Option<&Eval> {
    evals.iter().find(|e| e.method == method && e.r == r)
}

pub(super) fn rel(a: f64, b: f64) -> f64 {
    a / b - 1.0
}
