//! Property tests: invariances, ranges, and agreement with brute-force definitions.

use fair_data::Groups;
use fair_metrics::multiclass::MulticlassConfusion;
use fair_metrics::partial::{
    PercentileInterval, partial_demographic_parity, partial_statistical_parity,
};
use fair_metrics::pca_losses::pca_disparity;
use fair_metrics::roc::{auc_by_group, cross_group_auc, roc_curve};
use fair_metrics::{GroupConfusion, MetricError, Rate, ZeroDivision, ks};
use nalgebra::DMatrix;
use proptest::collection::vec;
use proptest::prelude::*;

const TOL: f64 = 1e-12;

#[derive(Debug, Clone)]
struct Rows {
    y: Vec<usize>,
    p: Vec<usize>,
    s: Vec<f64>,
    w: Vec<f64>,
    codes: Vec<usize>,
    /// Random keys; sorting rows by them gives a random permutation.
    perm: Vec<u32>,
    /// Three-class labels and predictions.
    my: Vec<usize>,
    mp: Vec<usize>,
}

impl Rows {
    fn groups(&self) -> Groups {
        Groups::from_codes(&self.codes).unwrap().compact()
    }
    fn n(&self) -> usize {
        self.y.len()
    }
    /// The rows reordered by `order`.
    fn reorder(&self, order: &[usize]) -> Rows {
        let pick_u = |v: &[usize]| order.iter().map(|&i| v[i]).collect();
        let pick_f = |v: &[f64]| order.iter().map(|&i| v[i]).collect();
        Rows {
            y: pick_u(&self.y),
            p: pick_u(&self.p),
            s: pick_f(&self.s),
            w: pick_f(&self.w),
            codes: pick_u(&self.codes),
            perm: order.iter().map(|&i| self.perm[i]).collect(),
            my: pick_u(&self.my),
            mp: pick_u(&self.mp),
        }
    }
    fn permuted(&self) -> Rows {
        let mut order: Vec<usize> = (0..self.n()).collect();
        order.sort_by_key(|&i| (self.perm[i], i));
        self.reorder(&order)
    }
    fn duplicated(&self) -> Rows {
        let order: Vec<usize> = (0..self.n()).chain(0..self.n()).collect();
        self.reorder(&order)
    }
}

/// Scores from a coarse grid (many ties, within and across groups) or continuous.
fn score() -> impl Strategy<Value = f64> {
    prop_oneof![(-8i32..8).prop_map(|k| f64::from(k) / 4.0), -3.0f64..3.0]
}

fn weight() -> impl Strategy<Value = f64> {
    prop_oneof![(1u32..4).prop_map(f64::from), 0.05f64..5.0]
}

fn rows() -> impl Strategy<Value = Rows> {
    (1usize..40, 1usize..5).prop_flat_map(|(n, g)| {
        (
            vec(0..2usize, n),
            vec(0..2usize, n),
            vec(score(), n),
            vec(weight(), n),
            vec(0..g, n),
            vec(any::<u32>(), n),
            vec(0..3usize, n),
            vec(0..3usize, n),
        )
            .prop_map(|(y, p, s, w, codes, perm, my, mp)| Rows {
                y,
                p,
                s,
                w,
                codes,
                perm,
                my,
                mp,
            })
    })
}

/// Every number the crate computes from the rows, flattened, for invariance checks.
fn fingerprint(r: &Rows, weighted: bool) -> Vec<f64> {
    let g = r.groups();
    let w = weighted.then_some(r.w.as_slice());
    let mut out = Vec::new();
    let gc = GroupConfusion::new(&r.y, &r.p, &g, w).unwrap();
    for rate in Rate::ALL {
        let s = gc.summary(rate, ZeroDivision::Zero).unwrap();
        out.extend(s.by_group.iter().map(|v| v.unwrap()));
        out.extend([
            s.overall,
            s.difference,
            s.ratio,
            s.difference_to_overall,
            s.ratio_to_overall,
        ]);
    }
    out.extend(ks::ks_statistic(&r.s, &g, w).unwrap().matrix.iter());
    let i = PercentileInterval::new(0.2, 0.7).unwrap();
    out.extend(
        partial_statistical_parity(&r.s, &g, w, i)
            .unwrap()
            .matrix
            .iter(),
    );
    out.extend(
        partial_demographic_parity(&r.s, &g, w, i, 0.0)
            .unwrap()
            .matrix
            .iter(),
    );
    out.extend(cross_group_auc(&r.s, &g, w).unwrap().matrix.iter());
    if let Ok(roc) = roc_curve(&r.y, &r.s, w) {
        out.push(roc.auc);
    }
    let mc = MulticlassConfusion::new(&r.my, &r.mp, 3, &g, w).unwrap();
    out.push(mc.equalized_odds(ZeroDivision::Zero).unwrap().value);
    out.push(mc.statistical_parity().unwrap().value);
    out.extend(mc.accuracy().unwrap().by_group.iter().map(|v| v.unwrap()));
    out
}

fn assert_close(a: &[f64], b: &[f64]) -> Result<(), TestCaseError> {
    prop_assert_eq!(a.len(), b.len());
    for (k, (x, y)) in a.iter().zip(b).enumerate() {
        prop_assert!((x - y).abs() <= TOL, "entry {}: {} vs {}", k, x, y);
    }
    Ok(())
}

// ------------------------------------------------------------------ brute-force definitions

/// Weighted fraction of `group`'s rows (optionally with `label`) scoring strictly above `t`.
fn ccdf(r: &Rows, w: &[f64], group: usize, label: Option<usize>, t: f64) -> f64 {
    let g = r.groups();
    let (mut above, mut total) = (0.0, 0.0);
    for (i, &wi) in w.iter().enumerate() {
        if g.codes()[i] == group && label.is_none_or(|l| r.y[i] == l) {
            total += wi;
            if r.s[i] > t {
                above += wi;
            }
        }
    }
    above / total
}

/// `max_θ |T(F̄_a(θ)) − T(F̄_b(θ))|` over θ in every observed score and −∞ — O(n²).
fn brute_ccdf_gap(
    r: &Rows,
    w: &[f64],
    a: usize,
    b: usize,
    label: Option<usize>,
    t: impl Fn(f64) -> f64,
) -> f64 {
    r.s.iter()
        .map(|&theta| (t(ccdf(r, w, a, label, theta)) - t(ccdf(r, w, b, label, theta))).abs())
        .chain([(t(ccdf(r, w, a, label, f64::NEG_INFINITY))
            - t(ccdf(r, w, b, label, f64::NEG_INFINITY)))
        .abs()])
        .fold(0.0, f64::max)
}

/// `P(s_x > s_y) + ½ P(s_x = s_y)` by explicit pairs.
fn brute_prob_greater(xs: &[(f64, f64)], ys: &[(f64, f64)]) -> f64 {
    let (mut acc, mut tot) = (0.0, 0.0);
    for &(sx, wx) in xs {
        for &(sy, wy) in ys {
            tot += wx * wy;
            acc += wx
                * wy
                * if sx > sy {
                    1.0
                } else if sx < sy {
                    0.0
                } else {
                    0.5
                };
        }
    }
    acc / tot
}

/// Weighted P(ŷ = class | cond, group) — `None` when the condition has no weight.
fn cond_rate(
    r: &Rows,
    w: &[f64],
    group: usize,
    class: usize,
    cond: impl Fn(usize) -> bool,
) -> Option<f64> {
    let g = r.groups();
    let (mut num, mut den) = (0.0, 0.0);
    for (i, &wi) in w.iter().enumerate() {
        if g.codes()[i] == group && cond(i) {
            den += wi;
            if r.mp[i] == class {
                num += wi;
            }
        }
    }
    (den > 0.0).then(|| num / den)
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(96))]

    #[test]
    fn rates_in_unit_interval_and_gaps_ordered(r in rows(), weighted in any::<bool>()) {
        let g = r.groups();
        let w = weighted.then_some(r.w.as_slice());
        let gc = GroupConfusion::new(&r.y, &r.p, &g, w).unwrap();
        let unit = |v: f64| (0.0..=1.0).contains(&v);
        for rate in Rate::ALL {
            for policy in [ZeroDivision::Zero, ZeroDivision::Skip] {
                let Ok(s) = gc.summary(rate, policy) else { continue };
                prop_assert!(unit(s.overall));
                prop_assert!(s.by_group.iter().flatten().all(|&v| unit(v)));
                prop_assert!(unit(s.difference) && unit(s.difference_to_overall));
                prop_assert!(unit(s.ratio) && unit(s.ratio_to_overall));
                prop_assert!(s.group_min <= s.group_max);
            }
        }
        let i = PercentileInterval::new(0.1, 0.6).unwrap();
        for m in [
            ks::ks_statistic(&r.s, &g, w).unwrap(),
            partial_statistical_parity(&r.s, &g, w, i).unwrap(),
            partial_demographic_parity(&r.s, &g, w, i, 0.0).unwrap(),
            cross_group_auc(&r.s, &g, w).unwrap(),
        ] {
            prop_assert!(m.matrix.iter().all(|&v| unit(v)));
            prop_assert!(unit(m.max));
            prop_assert!((m.matrix[(m.worst_pair.first, m.worst_pair.second)] - m.max).abs() <= 0.0);
        }
        let mc = MulticlassConfusion::new(&r.my, &r.mp, 3, &g, w).unwrap();
        prop_assert!(unit(mc.equalized_odds(ZeroDivision::Zero).unwrap().value));
        prop_assert!(unit(mc.statistical_parity().unwrap().value));
    }

    #[test]
    fn permutation_invariance(r in rows(), weighted in any::<bool>()) {
        assert_close(&fingerprint(&r, weighted), &fingerprint(&r.permuted(), weighted))?;
    }

    #[test]
    fn duplicating_rows_changes_nothing(r in rows(), weighted in any::<bool>()) {
        assert_close(&fingerprint(&r, weighted), &fingerprint(&r.duplicated(), weighted))?;
    }

    #[test]
    fn scaling_weights_changes_nothing(r in rows(), c in 0.01f64..100.0) {
        let mut scaled = r.clone();
        scaled.w.iter_mut().for_each(|w| *w *= c);
        assert_close(&fingerprint(&r, true), &fingerprint(&scaled, true))?;
    }

    #[test]
    fn no_weights_equal_unit_weights(r in rows()) {
        let mut unit = r.clone();
        unit.w.fill(1.0);
        assert_close(&fingerprint(&r, false), &fingerprint(&unit, true))?;
    }

    #[test]
    fn psp_on_full_interval_is_ks(r in rows(), weighted in any::<bool>()) {
        let g = r.groups();
        let w = weighted.then_some(r.w.as_slice());
        let ks = ks::ks_statistic(&r.s, &g, w).unwrap();
        let psp = partial_statistical_parity(&r.s, &g, w, PercentileInterval::FULL).unwrap();
        prop_assert_eq!(ks.matrix.len(), psp.matrix.len());
        for (a, b) in ks.matrix.iter().zip(psp.matrix.iter()) {
            prop_assert_eq!(a.to_bits(), b.to_bits());
        }
    }

    #[test]
    fn ks_is_symmetric_in_its_groups(r in rows(), weighted in any::<bool>()) {
        let g = r.groups();
        let k = g.n_groups();
        let w = weighted.then_some(r.w.as_slice());
        let ks = ks::ks_statistic(&r.s, &g, w).unwrap();
        prop_assert!((ks.matrix.clone() - ks.matrix.transpose()).iter().all(|v| v.abs() <= 0.0));
        // Reverse the group codes: the pair (a, b) is now merged as (k−1−a, k−1−b).
        let rev: Vec<usize> = g.codes().iter().map(|&c| k - 1 - c).collect();
        let ks_rev = ks::ks_statistic(&r.s, &Groups::from_codes(&rev).unwrap(), w).unwrap();
        for a in 0..k {
            for b in 0..k {
                prop_assert!((ks.matrix[(a, b)] - ks_rev.matrix[(k - 1 - b, k - 1 - a)]).abs() <= TOL);
            }
        }
    }

    #[test]
    fn ks_matches_brute_force(r in rows(), weighted in any::<bool>()) {
        let g = r.groups();
        let ones = vec![1.0; r.n()];
        let (w, wv) = if weighted { (Some(r.w.as_slice()), r.w.as_slice()) } else { (None, ones.as_slice()) };
        let ks = ks::ks_statistic(&r.s, &g, w).unwrap();
        for a in 0..g.n_groups() {
            for b in 0..g.n_groups() {
                let want = brute_ccdf_gap(&r, wv, a, b, None, |x| x);
                prop_assert!((ks.matrix[(a, b)] - want).abs() <= TOL, "({}, {}): {} vs {}", a, b, ks.matrix[(a, b)], want);
            }
        }
        match ks::equal_opportunity_ks(&r.y, &r.s, &g, w) {
            Ok(eo) => {
                for a in 0..g.n_groups() {
                    for b in 0..g.n_groups() {
                        let want = brute_ccdf_gap(&r, wv, a, b, Some(1), |x| x);
                        prop_assert!((eo.matrix[(a, b)] - want).abs() <= TOL);
                    }
                }
            }
            Err(e) => prop_assert!(matches!(e, MetricError::UndefinedRate { .. }), "{:?}", e),
        }
    }

    #[test]
    fn partial_parity_matches_brute_force(r in rows(), weighted in any::<bool>(), a in 0.0f64..1.0, len in 0.01f64..1.0, theta in score()) {
        let beta = (a + len).min(1.0);
        prop_assume!(a < beta);
        let i = PercentileInterval::new(a, beta).unwrap();
        let g = r.groups();
        let ones = vec![1.0; r.n()];
        let (w, wv) = if weighted { (Some(r.w.as_slice()), r.w.as_slice()) } else { (None, ones.as_slice()) };
        let c = |x: f64| (x.clamp(a, beta) - a) / (beta - a);
        let psp = partial_statistical_parity(&r.s, &g, w, i).unwrap();
        let pdp = partial_demographic_parity(&r.s, &g, w, i, theta).unwrap();
        for x in 0..g.n_groups() {
            for y in 0..g.n_groups() {
                let want = brute_ccdf_gap(&r, wv, x, y, None, c);
                prop_assert!((psp.matrix[(x, y)] - want).abs() <= TOL);
                let want = (c(ccdf(&r, wv, x, None, theta)) - c(ccdf(&r, wv, y, None, theta))).abs();
                prop_assert!((pdp.matrix[(x, y)] - want).abs() <= TOL);
            }
        }
    }

    #[test]
    fn auc_matches_brute_force(r in rows(), weighted in any::<bool>()) {
        let g = r.groups();
        let ones = vec![1.0; r.n()];
        let (w, wv) = if weighted { (Some(r.w.as_slice()), r.w.as_slice()) } else { (None, ones.as_slice()) };
        let pick = |f: &dyn Fn(usize) -> bool| -> Vec<(f64, f64)> {
            (0..r.n()).filter(|&i| f(i)).map(|i| (r.s[i], wv[i])).collect()
        };
        match roc_curve(&r.y, &r.s, w) {
            Ok(roc) => {
                let want = brute_prob_greater(&pick(&|i| r.y[i] == 1), &pick(&|i| r.y[i] == 0));
                prop_assert!((roc.auc - want).abs() <= TOL);
                // The trapezoidal area of the exact curve is the same number.
                let fpr = &roc.false_positive_rate;
                let tpr = &roc.true_positive_rate;
                let area: f64 = (1..fpr.len()).map(|k| (fpr[k] - fpr[k - 1]) * (tpr[k] + tpr[k - 1]) / 2.0).sum();
                prop_assert!((area - want).abs() <= 1e-9);
                prop_assert!((fpr[fpr.len() - 1] - 1.0).abs() <= TOL && (tpr[tpr.len() - 1] - 1.0).abs() <= TOL);
            }
            Err(e) => prop_assert!(matches!(e, MetricError::UndefinedRate { .. }), "{:?}", e),
        }
        if let Ok(s) = auc_by_group(&r.y, &r.s, &g, w, ZeroDivision::Skip) {
            for (k, v) in s.by_group.iter().enumerate() {
                if let Some(v) = v {
                    let want = brute_prob_greater(
                        &pick(&|i| g.codes()[i] == k && r.y[i] == 1),
                        &pick(&|i| g.codes()[i] == k && r.y[i] == 0),
                    );
                    prop_assert!((v - want).abs() <= TOL);
                }
            }
        }
        let cross = cross_group_auc(&r.s, &g, w).unwrap();
        for a in 0..g.n_groups() {
            for b in 0..g.n_groups() {
                let want = (brute_prob_greater(&pick(&|i| g.codes()[i] == a), &pick(&|i| g.codes()[i] == b)) - 0.5).abs();
                prop_assert!((cross.matrix[(a, b)] - want).abs() <= TOL);
            }
        }
    }

    #[test]
    fn meo_and_sp_match_brute_force(r in rows(), weighted in any::<bool>(), skip in any::<bool>()) {
        let g = r.groups();
        let k = g.n_groups();
        let ones = vec![1.0; r.n()];
        let (w, wv) = if weighted { (Some(r.w.as_slice()), r.w.as_slice()) } else { (None, ones.as_slice()) };
        let policy = if skip { ZeroDivision::Skip } else { ZeroDivision::Zero };
        let mc = MulticlassConfusion::new(&r.my, &r.mp, 3, &g, w).unwrap();
        // Brute force (117): per pair, per class, straight from the rows.
        let mut best: Option<f64> = None;
        let mut sp: f64 = 0.0;
        for class in 0..3 {
            for a in 0..k {
                for b in a + 1..k {
                    let tpr = |s| cond_rate(&r, wv, s, class, |i| r.my[i] == class);
                    let fpr = |s| cond_rate(&r, wv, s, class, |i| r.my[i] != class);
                    let rates = [tpr(a), tpr(b), fpr(a), fpr(b)];
                    let term = if rates.iter().all(Option::is_some) || !skip {
                        let [ta, tb, fa, fb] = rates.map(|v| v.unwrap_or(0.0));
                        Some(0.5 * ((ta - tb).abs() + (fa - fb).abs()))
                    } else {
                        None
                    };
                    if let Some(t) = term {
                        best = Some(best.map_or(t, |m: f64| m.max(t)));
                    }
                    let all = |s| cond_rate(&r, wv, s, class, |_| true).unwrap();
                    sp = sp.max((all(a) - all(b)).abs());
                }
            }
        }
        match (mc.equalized_odds(policy), best) {
            (Ok(got), Some(want)) => prop_assert!((got.value - want).abs() <= TOL, "{} vs {}", got.value, want),
            (Ok(got), None) => prop_assert!(k == 1 && got.value.abs() <= 0.0),
            (Err(e), None) => prop_assert!(matches!(e, MetricError::UndefinedMetric { .. }), "{:?}", e),
            (Err(e), Some(_)) => prop_assert!(false, "unexpected error {:?}", e),
        }
        prop_assert!((mc.statistical_parity().unwrap().value - sp).abs() <= TOL);
    }

    #[test]
    fn pca_disparity_is_nonnegative(
        (n, d, r) in (2usize..20, 1usize..6).prop_flat_map(|(n, d)| (Just(n), Just(d), 0..=d)),
        seed in vec(-10.0f64..10.0, 20 * 6 + 6 * 6),
        codes in vec(0usize..3, 20),
    ) {
        let x = DMatrix::from_fn(n, d, |i, j| seed[i * 6 + j]);
        let groups = Groups::from_codes(&codes[..n]).unwrap().compact();
        // A random orthonormal basis: Q of the QR decomposition of a random d × r matrix.
        let m = DMatrix::from_fn(d, r, |i, j| seed[120 + i * 6 + j] + if i == j { 25.0 } else { 0.0 });
        let u = m.qr().q().columns(0, r).into_owned();
        let res = pca_disparity(&x, &groups, &u, 1e-9).unwrap();
        for losses in [&res.raw, &res.per_sample] {
            prop_assert!(losses.disparity.iter().all(|&e| e >= -1e-9), "{:?}", losses.disparity);
            prop_assert!(losses.best_loss.iter().all(|&b| b >= 0.0));
        }
        prop_assert!((res.total_loss - res.raw.loss.iter().sum::<f64>()).abs() <= 1e-9);
    }
}
