//! The swap-regret λ-player: stationary distributions and Lemma 9's regret bound.

use game_opt::{SwapRegretPlayer, stationary_distribution};
use nalgebra::DMatrix;
use rand::{RngExt, SeedableRng};
use rand_chacha::ChaCha8Rng;

fn random_stochastic(k: usize, rng: &mut ChaCha8Rng) -> DMatrix<f64> {
    let mut m = DMatrix::from_fn(k, k, |_, _| rng.random_range(1e-6..1.0));
    for mut c in m.column_iter_mut() {
        let s: f64 = c.sum();
        c /= s;
    }
    m
}

#[test]
fn stationary_residual_below_1e_8() {
    let mut rng = ChaCha8Rng::seed_from_u64(11);
    for k in 1..12 {
        let m = random_stochastic(k, &mut rng);
        let l = stationary_distribution(&m).unwrap();
        let v = nalgebra::DVector::from_column_slice(&l);
        let res = (&m * &v - &v).amax();
        assert!(res < 1e-8, "k = {k}: residual {res}");
        assert!(l.iter().all(|x| *x >= 0.0));
        assert!((l.iter().sum::<f64>() - 1.0).abs() < 1e-12);
    }
}

#[test]
fn stationary_of_nearly_degenerate_matrix() {
    // Column entries spanning 1e-300..1: still a valid distribution with tiny residual.
    let m = DMatrix::from_row_slice(
        3,
        3,
        &[1.0 - 2e-300, 0.5, 0.2, 1e-300, 0.5, 0.3, 1e-300, 0.0, 0.5],
    );
    let l = stationary_distribution(&m).unwrap();
    let v = nalgebra::DVector::from_column_slice(&l);
    assert!((&m * &v - &v).amax() < 1e-8);
}

/// Swap regret of a played sequence against linear gains `f_t(λ) = ⟨g_t, λ⟩`:
/// `max_{M*} (1/T) Σ_t ⟨g_t, M* λ_t⟩ − (1/T) Σ_t ⟨g_t, λ_t⟩`, where the max over
/// column-stochastic `M*` separates per column: `Σ_i max_j Σ_t g_tj λ_ti`.
fn swap_regret(gains: &[Vec<f64>], played: &[Vec<f64>]) -> f64 {
    let k = gains[0].len();
    let t = gains.len() as f64;
    let mut best = 0.0;
    for i in 0..k {
        let mut col_best = f64::NEG_INFINITY;
        for j in 0..k {
            let s: f64 = gains.iter().zip(played).map(|(g, l)| g[j] * l[i]).sum();
            col_best = col_best.max(s);
        }
        best += col_best;
    }
    let got: f64 = gains
        .iter()
        .zip(played)
        .map(|(g, l)| g.iter().zip(l).map(|(a, b)| a * b).sum::<f64>())
        .sum();
    (best - got) / t
}

#[test]
fn swap_regret_within_lemma_9_bound() {
    for (k, seed) in [(2usize, 1u64), (3, 2), (5, 3)] {
        let t = 3000;
        let bound_b = 1.0;
        let kf = k as f64;
        let eta = (kf * kf.ln() / (t as f64 * bound_b * bound_b)).sqrt();
        let mut player = SwapRegretPlayer::new(k, eta).unwrap();
        let mut rng = ChaCha8Rng::seed_from_u64(seed);
        let (mut gains, mut played) = (Vec::new(), Vec::new());
        for step in 0..t {
            let l = player.distribution().unwrap();
            // Drifting, bounded gains: a slowly rotating favourite plus noise (|g| ≤ 1).
            let g: Vec<f64> = (0..k)
                .map(|j| {
                    let fav: f64 = if (step / 500) % k == j { 0.6 } else { 0.0 };
                    (fav + rng.random_range(-0.4..0.4)).clamp(-1.0, 1.0)
                })
                .collect();
            player.update(&g, &l).unwrap();
            gains.push(g);
            played.push(l);
        }
        let regret = swap_regret(&gains, &played);
        let bound = 2.0 * bound_b * (kf * kf.ln() / t as f64).sqrt();
        assert!(
            regret <= bound,
            "k = {k}: swap regret {regret} > bound {bound}"
        );
    }
}
