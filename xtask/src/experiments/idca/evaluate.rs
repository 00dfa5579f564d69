//! Metrics of fitted weights on held-out rows, and their aggregation over seeds.

use super::*;

/// One measured point of a frontier.
#[derive(Clone)]
pub(super) struct Point {
    pub(super) dataset: &'static str,
    pub(super) method: String,
    pub(super) param: f64,
    pub(super) seed: u64,
    pub(super) accuracy: f64,
    pub(super) psp: f64,
    pub(super) pdp: f64,
    /// Full-range SP fairness `1 − KS` of the same model (hypothesis check; NaN if not computed).
    pub(super) ks_full: f64,
    /// Partial group-AUC fairness `1 − max gap` on I (NaN if not computed).
    pub(super) pgauc: f64,
    /// Exact pSP fairness on the training rows (IDCA points only; NaN otherwise).
    pub(super) train_psp: f64,
    pub(super) outer_k: usize,
    pub(super) train_violation: f64,
    pub(super) seconds: f64,
    /// How the solver ended (IDCA) and after how many outer iterations.
    pub(super) status: String,
}

impl Point {
    pub(super) fn json(&self) -> Value {
        json!({
            "dataset": self.dataset, "method": self.method, "param": self.param,
            "seed": self.seed, "accuracy": self.accuracy, "psp_fairness": self.psp,
            "pdp_fairness": self.pdp, "full_range_sp_fairness": self.ks_full,
            "pgauc_fairness": self.pgauc, "train_psp_fairness": self.train_psp,
            "outer_k": self.outer_k,
            "train_max_violation": self.train_violation, "seconds": self.seconds,
            "status": self.status,
        })
    }
}

/// Gaussian kernel density of `v` on `points` equally spaced points between the 0.5 % and
/// 99.5 % quantiles, padded by 5 % of that range (`fair_report::panels::padded_range`): the
/// workspace's one KDE, `fair_report::panels::density` (Silverman's bandwidth `1.06 σ n^(−1/5)`;
/// the paper's figures use MATLAB's `ksdensity`).
///
/// Until issue 27 this module had its own KDE with the sample standard deviation (n − 1) and the
/// grid padded by one bandwidth; `panels::density` uses the population one (n). The n − 1 form
/// is the textbook one (R's `bw.nrd0`, scipy's `gaussian_kde`), but the bandwidths differ by a
/// factor √(n / (n − 1)) ≈ 1 + 1/(2n) (0.1 % at n = 500 scores per group): the plotted curves
/// move invisibly and no reported number depends on them.
pub(super) fn kde(v: &[f64], points: usize) -> Vec<(f64, f64)> {
    if v.len() < 2 || points < 2 {
        return Vec::new();
    }
    let mut s = v.to_vec();
    s.sort_by(f64::total_cmp);
    let n = s.len() as f64;
    let q = |p: f64| s[((p * (n - 1.0)).round() as usize).min(s.len() - 1)];
    let (lo, hi) = padded_range([q(0.005), q(0.995)].into_iter());
    let grid: Vec<f64> = (0..points)
        .map(|i| lo + (hi - lo) * i as f64 / (points - 1) as f64)
        .collect();
    density(v, &grid)
}

pub(super) fn accuracy(scores: &[f64], y: &[usize]) -> f64 {
    let hits = scores
        .iter()
        .zip(y)
        .filter(|&(&s, &c)| (s > 0.0) == (c == 1))
        .count();
    hits as f64 / y.len() as f64
}

/// (accuracy, pSP fairness, pDP fairness) of weights `w` on `e`.
/// Full-range SP fairness `1 − KS` (pSP with I = [0, 1]) of weights `w` on `e`.
pub(super) fn full_ks(w: &[f64], e: &Eval) -> Result<f64> {
    let s = cross_scores(w, &e.x, &e.g)?;
    Ok(1.0 - partial_statistical_parity(&s, &e.g, None, PercentileInterval::FULL)?.max)
}

pub(super) fn evaluate(
    w: &[f64],
    e: &Eval,
    interval: PercentileInterval,
) -> Result<(f64, f64, f64)> {
    let s = cross_scores(w, &e.x, &e.g)?;
    let psp = partial_statistical_parity(&s, &e.g, None, interval)?.max;
    let pdp = partial_demographic_parity(&s, &e.g, None, interval, 0.0)?.max;
    Ok((accuracy(&s, &e.y), 1.0 - psp, 1.0 - pdp))
}

/// Partial group-AUC fairness `1 − max_{k,k'} GAUC^I_{k,k'}` of weights `w` on `e`.
pub(super) fn pgauc_fairness(w: &[f64], e: &Eval, interval: PercentileInterval) -> Result<f64> {
    let s = cross_scores(w, &e.x, &e.g)?;
    Ok(1.0 - partial_group_auc(&s, &e.g, interval)?.max)
}

pub(super) fn rank_curve(w: &[f64], e: &Eval) -> Result<Vec<(f64, f64)>> {
    let s = cross_scores(w, &e.x, &e.g)?;
    let mut by: [Vec<f64>; 2] = [Vec::new(), Vec::new()];
    for (&v, &c) in s.iter().zip(e.g.codes()) {
        by[c.min(1)].push(v);
    }
    for b in &mut by {
        b.sort_by(f64::total_cmp);
    }
    let mut all = s.clone();
    all.sort_by(f64::total_cmp);
    let ccdf =
        |v: &[f64], t: f64| (v.len() - v.partition_point(|&x| x <= t)) as f64 / v.len() as f64;
    let step = (all.len() / 400).max(1);
    let mut pts: Vec<(f64, f64)> = vec![(0.0, 0.0)];
    for t in all.iter().rev().step_by(step) {
        pts.push((ccdf(&by[0], *t), ccdf(&by[1], *t)));
    }
    pts.push((1.0, 1.0));
    Ok(pts)
}

pub(super) fn agg(points: &[&Point], f: impl Fn(&Point) -> f64) -> (f64, f64) {
    mean_ci95(&points.iter().map(|p| f(p)).collect::<Vec<_>>())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn kde_is_a_density_on_the_trimmed_range() {
        let v: Vec<f64> = (0..400).map(|i| ((i * 37) % 101) as f64 / 100.0).collect();
        let d = kde(&v, 200);
        assert_eq!(d.len(), 200);
        // Grid from below the 0.5 % to above the 99.5 % quantile, increasing.
        assert!(d[0].0 < 0.01 && d[199].0 > 0.99);
        assert!(d.windows(2).all(|w| w[1].0 > w[0].0));
        // Trapezoid integral of a density on (nearly) its whole support.
        let area: f64 = d
            .windows(2)
            .map(|w| (w[1].0 - w[0].0) * (w[0].1 + w[1].1) / 2.0)
            .sum();
        assert!((area - 1.0).abs() < 0.05, "{area}");
    }

    #[test]
    fn kde_needs_two_values_and_two_points() {
        assert!(kde(&[0.5], 200).is_empty());
        assert!(kde(&[0.1, 0.5], 1).is_empty());
    }
}
