//! Coverage of the audit's gap inference at small n, by simulation (issue 30): groups with known
//! selection rates are drawn many times; the bootstrap interval of the demographic parity
//! difference should cover the true difference about `confidence` of the time, and the
//! permutation p-value should fall below α about α of the time when the groups do not differ.
//! Measured figures are in docs/conventions.md ("How far to trust the intervals"); run with
//! `--nocapture` to print them.

use fair_data::Groups;
use fair_metrics::Rate;
use fair_metrics::ci::{GapKind, GapMetric, GapSettings, gap_change_inference, gap_inference};
use fair_metrics::state::ConfusionState;
use rand::{RngExt, SeedableRng};
use rand_chacha::ChaCha8Rng;

/// One simulated data set: `n` rows per group, predicted positive with the group's rate.
fn draw(rates: &[f64], n: usize, rng: &mut ChaCha8Rng) -> ConfusionState {
    let (mut y, mut p, mut g) = (Vec::new(), Vec::new(), Vec::new());
    for (k, &rate) in rates.iter().enumerate() {
        for i in 0..n {
            y.push(i % 2);
            p.push(usize::from(rng.random::<f64>() < rate));
            g.push(format!("g{k}"));
        }
    }
    let names: Vec<&str> = g.iter().map(String::as_str).collect();
    let mut s = ConfusionState::new();
    s.update(&y, &p, &Groups::from_labels(&names), None)
        .expect("valid rows");
    s
}

/// (coverage of the true difference, share of p-values below 0.05) over `sims` data sets.
fn simulate(rates: &[f64], n: usize, sims: usize, seed: u64) -> (f64, f64) {
    let truth = rates.iter().copied().fold(f64::MIN, f64::max)
        - rates.iter().copied().fold(f64::MAX, f64::min);
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let (mut covered, mut rejected) = (0usize, 0usize);
    for sim in 0..sims {
        let state = draw(rates, n, &mut rng);
        let settings = GapSettings {
            kind: GapKind::Difference,
            n_resamples: 400,
            seed: sim as u64,
            ..GapSettings::default()
        };
        let g = gap_inference(&state, GapMetric::Rate(Rate::Selection), &settings)
            .expect("two groups with rows");
        covered += usize::from(g.interval.lower <= truth && truth <= g.interval.upper);
        rejected += usize::from(g.p_value < 0.05);
    }
    (covered as f64 / sims as f64, rejected as f64 / sims as f64)
}

#[test]
fn dp_difference_intervals_cover_at_small_n() {
    // 300 data sets: the coverage estimate's standard error is about 0.013.
    let (two, two_power) = simulate(&[0.5, 0.3], 40, 300, 1);
    let (four, _) = simulate(&[0.5, 0.4, 0.35, 0.3], 50, 300, 2);
    println!(
        "coverage (nominal 0.95): 2 groups × 40 rows {two:.3} (power {two_power:.3}); 4 groups × 50 rows {four:.3}"
    );
    assert!(two >= 0.88, "2 groups × 40: coverage {two}");
    assert!(four >= 0.85, "4 groups × 50: coverage {four}");
}

#[test]
fn permutation_p_values_hold_their_level_under_no_difference() {
    let (zero_cover, size2) = simulate(&[0.4, 0.4], 40, 300, 3);
    let (_, size4) = simulate(&[0.4; 4], 30, 300, 4);
    println!(
        "share p < 0.05 with equal rates (nominal ≤ 0.05): 2 groups × 40 {size2:.3}, 4 groups × 30 {size4:.3}; the max − min interval covers 0 in {zero_cover:.3}"
    );
    assert!(size2 <= 0.08, "2 groups: {size2}");
    assert!(size4 <= 0.08, "4 groups: {size4}");
}

/// (coverage of the true change, share of p-values below 0.05) of the change of the DP
/// difference between two independent audits.
fn simulate_change(before: &[f64], after: &[f64], n: usize, sims: usize, seed: u64) -> (f64, f64) {
    let gap = |r: &[f64]| {
        r.iter().copied().fold(f64::MIN, f64::max) - r.iter().copied().fold(f64::MAX, f64::min)
    };
    let truth = gap(after) - gap(before);
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let (mut covered, mut rejected) = (0usize, 0usize);
    for sim in 0..sims {
        let (a, b) = (draw(before, n, &mut rng), draw(after, n, &mut rng));
        let settings = GapSettings {
            kind: GapKind::Difference,
            n_resamples: 300,
            seed: sim as u64,
            ..GapSettings::default()
        };
        let c = gap_change_inference(&a, &b, GapMetric::Rate(Rate::Selection), &settings)
            .expect("defined gaps");
        covered += usize::from(c.interval.lower <= truth && truth <= c.interval.upper);
        rejected += usize::from(c.p_value < 0.05);
    }
    (covered as f64 / sims as f64, rejected as f64 / sims as f64)
}

#[test]
fn change_intervals_cover_and_hold_their_level() {
    let (cover, power) = simulate_change(&[0.5, 0.3], &[0.45, 0.35], 100, 200, 5);
    let (null_cover, size) = simulate_change(&[0.5, 0.3], &[0.5, 0.3], 100, 200, 6);
    println!(
        "change of the DP difference, 2 groups × 100 rows (nominal 0.95): true −0.1 covered {cover:.3} (power {power:.3}); no change covered {null_cover:.3}, p < 0.05 in {size:.3}"
    );
    assert!(cover >= 0.85, "coverage {cover}");
    assert!(size <= 0.10, "size {size}");
}

/// One paired data set: `n` rows per group; model A predicts positive with the group's rate in
/// `a`, and model B agrees with A except that it turns A's positives negative with probability
/// `flip[g].0` and A's negatives positive with probability `flip[g].1` (the rows the models
/// disagree on). Per group, model A's cells (tn, fp, fn, tp) where B says 0 and where B says 1.
fn draw_paired(
    a: &[f64],
    flip: &[(f64, f64)],
    n: usize,
    rng: &mut ChaCha8Rng,
) -> Vec<[[f64; 4]; 2]> {
    a.iter()
        .zip(flip)
        .map(|(&rate, &(down, up))| {
            let mut cells = [[0.0; 4]; 2];
            for i in 0..n {
                let y = i % 2;
                let pa = usize::from(rng.random::<f64>() < rate);
                let f = if pa == 1 { down } else { up };
                let pb = if rng.random::<f64>() < f { 1 - pa } else { pa };
                cells[pb][2 * y + pa] += 1.0;
            }
            cells
        })
        .collect()
}

/// (coverage of the true change, share of p-values below 0.05) of the paired change of the DP
/// difference (model B's minus model A's) on the same rows.
fn simulate_paired(a: &[f64], flip: &[(f64, f64)], n: usize, sims: usize, seed: u64) -> (f64, f64) {
    // B's selection rate in a group: a(1 − down) + (1 − a) up.
    let b: Vec<f64> = a
        .iter()
        .zip(flip)
        .map(|(&r, &(down, up))| r * (1.0 - down) + (1.0 - r) * up)
        .collect();
    let gap = |r: &[f64]| {
        r.iter().copied().fold(f64::MIN, f64::max) - r.iter().copied().fold(f64::MAX, f64::min)
    };
    let truth = gap(&b) - gap(a);
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let (mut covered, mut rejected) = (0usize, 0usize);
    for sim in 0..sims {
        let joint = draw_paired(a, flip, n, &mut rng);
        let draws = fair_metrics::ci::PairedDraws::new(&joint, 300, sim as u64).expect("valid");
        let settings = GapSettings {
            kind: GapKind::Difference,
            n_resamples: 300,
            seed: sim as u64,
            ..GapSettings::default()
        };
        let c = draws
            .change(
                GapMetric::Rate(Rate::Selection),
                &settings,
                &vec![true; a.len()],
            )
            .expect("defined gaps");
        covered += usize::from(c.interval.lower <= truth && truth <= c.interval.upper);
        rejected += usize::from(c.p_value < 0.05);
    }
    (covered as f64 / sims as f64, rejected as f64 / sims as f64)
}

#[test]
fn paired_change_intervals_cover_and_hold_their_level() {
    // Model B turns 20 % of group f's positives negative and 20 % of group m's negatives
    // positive: rates 0.6/0.4 → 0.48/0.52, a true change of the DP difference of −0.16.
    let (cover, power) = simulate_paired(&[0.6, 0.4], &[(0.2, 0.0), (0.0, 0.2)], 100, 200, 7);
    // Model B disagrees with A on about 10 % of the rows but keeps each group's rate
    // (0.6/0.4): no change, while the two columns differ row by row.
    let keep = |r: f64| (0.1, 0.1 * r / (1.0 - r));
    let (null_cover, size) = simulate_paired(&[0.6, 0.4], &[keep(0.6), keep(0.4)], 100, 200, 8);
    println!(
        "paired change of the DP difference, 2 groups × 100 rows (nominal 0.95): true −0.16 covered {cover:.3} (power {power:.3}); no change (rows differ, rates kept) covered {null_cover:.3}, p < 0.05 in {size:.3}"
    );
    assert!(cover >= 0.85, "coverage {cover}");
    assert!(size <= 0.10, "size {size}");
}

/// Coverage of the score gaps' change (KS DP-Δ, [`score_gap_change`]): two groups of `n` rows,
/// scores N(0, 1) in one and N(δ, 1) in the other, whose true KS distance is 2Φ(δ/2) − 1. Before
/// and after are two independent samples, or (`paired`) two score columns of the same rows
/// (after = the same noise with the other shift), where the audits are strongly dependent.
fn simulate_score_change(
    shifts: (f64, f64),
    n: usize,
    sims: usize,
    paired: bool,
    seed: u64,
) -> (f64, f64) {
    use fair_metrics::ci::{ks_inference_of_max, score_gap_change};
    use rand_distr::{Distribution, StandardNormal};
    use statrs::distribution::{ContinuousCDF, Normal};
    let ks_true = |d: f64| 2.0 * Normal::standard().cdf(d / 2.0) - 1.0;
    let truth = ks_true(shifts.1) - ks_true(shifts.0);
    let labels: Vec<&str> = (0..2 * n).map(|i| if i < n { "a" } else { "b" }).collect();
    let groups = Groups::from_labels(&labels);
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let noise = |rng: &mut ChaCha8Rng| -> Vec<f64> {
        (0..2 * n).map(|_| StandardNormal.sample(rng)).collect()
    };
    let shifted = |x: &[f64], d: f64| -> Vec<f64> {
        x.iter()
            .enumerate()
            .map(|(i, v)| v + if i < n { 0.0 } else { d })
            .collect()
    };
    let (mut covered, mut rejected) = (0usize, 0usize);
    for _ in 0..sims {
        let x = noise(&mut rng);
        let y = if paired { x.clone() } else { noise(&mut rng) };
        let ks = |s: &[f64]| {
            fair_metrics::ks::ks_statistic(s, &groups, None)
                .unwrap()
                .max
        };
        let (d0, d1) = (ks(&shifted(&x, shifts.0)), ks(&shifted(&y, shifts.1)));
        let side = |d: f64| move |c: f64| ks_inference_of_max(d, &[n as f64; 2], 1.0, c).map(Some);
        let c = score_gap_change(side(d0), side(d1), 0.95).unwrap().unwrap();
        covered += usize::from(c.interval.lower <= truth && truth <= c.interval.upper);
        rejected += usize::from(c.p_value < 0.05);
    }
    (covered as f64 / sims as f64, rejected as f64 / sims as f64)
}

#[test]
fn score_change_intervals_cover_two_sample_and_paired() {
    for paired in [false, true] {
        let (cover, power) = simulate_score_change((1.2, 0.2), 200, 200, paired, 7);
        let (null_cover, size) = simulate_score_change((0.6, 0.6), 200, 200, paired, 8);
        let (_, power_2000) = simulate_score_change((1.2, 0.2), 2000, 100, paired, 9);
        println!(
            "change of KS DP-Δ, 2 groups × 200 rows, {} (nominal 0.95, conservative by construction): true {:+.3} covered {cover:.3} (power {power:.3}; {power_2000:.3} at 2,000 rows per group); no change covered {null_cover:.3}, p < 0.05 in {size:.3}",
            if paired {
                "paired (two score columns of the same rows)"
            } else {
                "two samples"
            },
            {
                let k = |d: f64| {
                    2.0 * statrs::distribution::ContinuousCDF::cdf(
                        &statrs::distribution::Normal::standard(),
                        d / 2.0,
                    ) - 1.0
                };
                k(0.2) - k(1.2)
            }
        );
        assert!(cover >= 0.95, "coverage {cover}");
        assert!(null_cover >= 0.95 && size <= 0.05, "{null_cover} {size}");
        assert!(
            power_2000 >= 0.9,
            "power {power_2000} at 2,000 rows per group"
        );
    }
}
