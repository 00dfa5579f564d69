//! Per-sample kernels: the tilt `h = ∇_v D^conj(v, p)` at `v = −u`, the conjugate value, and the
//! ADMM inner problems (Algorithms 2 and 3 of the paper, with erratum E3).

use crate::engine::scratch;
use crate::params::Divergence;

/// Largest number of Newton / fixed-point steps of a per-sample solve.
const MAX_INNER: usize = 200;

/// Writes the tilted scores into `h` and returns `D^conj(−u, p)`.
///
/// ```text
/// KL: h = softmax(log p − u),           D^conj = log Σ_c p_c e^{−u_c}
/// CE: h_c = p_c / (θ + u_c), Σ h_c = 1,  D^conj = θ − 1 − Σ_c p_c log(θ + u_c)
/// ```
#[inline]
pub(crate) fn tilt(div: Divergence, p: &[f64], u: &[f64], h: &mut [f64]) -> f64 {
    match div {
        Divergence::Kl => kl_tilt(p, u, h),
        Divergence::CrossEntropy => ce_tilt(p, u, h),
    }
}

#[inline]
fn kl_tilt(p: &[f64], u: &[f64], h: &mut [f64]) -> f64 {
    let m = u.iter().fold(f64::INFINITY, |a, &b| a.min(b)); // max of −u
    let mut s = 0.0;
    for ((hc, &pc), &uc) in h.iter_mut().zip(p).zip(u) {
        let e = pc * (m - uc).exp();
        *hc = e;
        s += e;
    }
    let inv = 1.0 / s;
    for hc in h.iter_mut() {
        *hc *= inv;
    }
    -m + s.ln()
}

/// CE normaliser by safeguarded Newton on `t = θ + min_c u_c ∈ [max_c(p_c − d_c), 1]`,
/// `d_c = u_c − min u ≥ 0`, for `ψ(t) = 1/F(t) − 1`, `F(t) = Σ_c p_c/(t + d_c)`.
///
/// `1/F` is a weighted harmonic mean of the affine `t + d_c`, hence concave and increasing, so
/// Newton from the left of the root increases monotonically and never overshoots, like Newton
/// on the convex `F − 1` used before; but `1/F` is exactly affine when one class carries the
/// tilt, so far fewer steps are needed (the root, hence the tilt, is the same).
#[inline]
fn ce_tilt(p: &[f64], u: &[f64], h: &mut [f64]) -> f64 {
    let umin = u.iter().fold(f64::INFINITY, |a, &b| a.min(b));
    let psum: f64 = p.iter().sum();
    let mut t = p
        .iter()
        .zip(u)
        .map(|(&pc, &uc)| pc - (uc - umin))
        .fold(f64::NEG_INFINITY, f64::max);
    // Second lower bound: with weights p/S (S = Σp), 1/F is S over a weighted harmonic mean of
    // t + d_c, which is at most the arithmetic mean t + Σ p_c d_c / S; so F(t*) = 1 forces
    // t* ≥ S − Σ p_c d_c / S. It is the root when all d_c are equal and close to it for small
    // tilts, where the first bound is not.
    let pd: f64 = p.iter().zip(u).map(|(&pc, &uc)| pc * (uc - umin)).sum();
    t = t.max(psum - pd / psum);
    let hi = psum.max(t);
    for _ in 0..MAX_INNER {
        let mut f = -1.0;
        let mut fp = 0.0;
        for (&pc, &uc) in p.iter().zip(u) {
            let r = 1.0 / (t + (uc - umin));
            f += pc * r;
            fp -= pc * r * r;
        }
        if f <= 0.0 {
            break;
        }
        // Newton on ψ: −ψ/ψ' = −(1/F − 1)F²/(−F') = −F·(F − 1)/F'.
        let next = (t - (f + 1.0) * f / fp).min(hi);
        if next <= t * (1.0 + 4.0 * f64::EPSILON) {
            t = next.max(t);
            break;
        }
        // Convergence is quadratic: after a step of relative size 1e-9 the error is of order
        // κ·1e-18 (κ = ψ''/2ψ' ≤ 1/min(t + d_c), at most 1e6 with the 1e-6 probability floor),
        // so the step that would only confirm it is skipped.
        let done = next - t <= 1e-9 * next;
        t = next;
        if done {
            break;
        }
    }
    let mut conj = t - umin - 1.0;
    for ((hc, &pc), &uc) in h.iter_mut().zip(p).zip(u) {
        let den = t + (uc - umin);
        *hc = pc / den;
        conj -= pc * den.ln();
    }
    // Normalise the last ulps away so outputs are probability rows.
    let s: f64 = h.iter().sum();
    for hc in h.iter_mut() {
        *hc /= s;
    }
    conj
}

/// ADMM V-step for one sample: `v = argmin_v D^conj(v, p) + ξ‖v‖² + aᵀv`, warm-started at `v`.
/// `logp` is `log p` (KL only). KL: `scratch` has at least C entries; with C + 1 it carries
/// the softmax and log-sum-exp at `v` from one call to the next (a non-finite entry C marks it
/// empty). `gtol` loosens the KL stopping test to `max|∇F| ≤ gtol` (0: round-off; see
/// [`kl_inner`]); CE is always solved to round-off. Returns the number of inner steps.
#[allow(clippy::too_many_arguments)]
#[inline(always)]
pub(crate) fn inner_solve(
    div: Divergence,
    p: &[f64],
    logp: &[f64],
    a: &[f64],
    xi: f64,
    v: &mut [f64],
    scratch: &mut [f64],
    gtol: f64,
) -> usize {
    match div {
        Divergence::Kl => kl_inner(p.len(), logp, a, xi, v, scratch, gtol),
        Divergence::CrossEntropy => ce_inner(p, a, xi, v),
    }
}

/// The KL V-step `min_v F(v) = log Σ_c p_c e^{v_c} + ξ‖v‖² + aᵀv` by damped Newton.
///
/// Algorithm 2 of the paper solves the same problem by the fixed point
/// `z ← −(σ(z) + b)/(2ξ)` (`z = v + log p`), a contraction only when `4ξ > 1`, with factor
/// `1/(4ξ)`: at the smallest admissible ρ it needed ≈ 20 steps per sample at 5 × 5 and was 93 % of
/// the ADMM's time, and it forbade ρ + ζ ≤ 1/2. Newton needs no contraction: with
/// `s = softmax(log p + v)`, the gradient is `s + 2ξv + a` and the Hessian
/// `diag(s) − ssᵀ + 2ξI`, solved in O(C) by Sherman–Morrison; from the previous round's `v` it
/// takes one to three steps. The minimiser, hence the ADMM iterate, is the same.
///
/// `gtol > 0` stops as soon as `max|∇F| ≤ gtol` (the ADMM's inexact V-step, see
/// [`VStep::Inexact`](crate::VStep::Inexact)); the gradient at a new point is free (its softmax
/// was formed by the line search), so a warm start that already meets the test costs no
/// exponential at all.
#[allow(clippy::too_many_arguments)]
#[inline(always)]
fn kl_inner(
    c: usize,
    logp: &[f64],
    a: &[f64],
    xi: f64,
    v: &mut [f64],
    sm: &mut [f64],
    gtol: f64,
) -> usize {
    let two_xi = 2.0 * xi;
    // log Σ p e^v and the softmax at v (into `sm`); F adds the quadratic part.
    let lse_at = |v: &[f64], sm: &mut [f64]| -> f64 {
        let mut m = f64::NEG_INFINITY;
        for k in 0..c {
            m = m.max(v[k] + logp[k]);
        }
        let mut s = 0.0;
        for k in 0..c {
            let e = (v[k] + logp[k] - m).exp();
            sm[k] = e;
            s += e;
        }
        let inv = 1.0 / s;
        for x in sm[..c].iter_mut() {
            *x *= inv;
        }
        m + s.ln()
    };
    let quad = |v: &[f64]| -> f64 { (0..c).map(|k| v[k] * (xi * v[k] + a[k])).sum() };
    // Neither the softmax nor the log-sum-exp depends on a or ξ: the values the previous round
    // left for this v are reused, which saves one of the ≈ 2.5 exponential sweeps per sample.
    let cached = sm.len() > c && sm[c].is_finite();
    let mut lse = if cached { sm[c] } else { lse_at(v, sm) };
    let mut f = lse + quad(v);
    let mut steps = 0;
    let (mut stack, mut heap) = ([0.0; 5 * INNER_STACK], Vec::new());
    let work = scratch(&mut stack, &mut heap, 5 * c);
    let (d, work) = work.split_at_mut(c);
    let (trial, work) = work.split_at_mut(c);
    let (sm_trial, work) = work.split_at_mut(c);
    let (inv, grad) = work.split_at_mut(c);
    for it in 0..MAX_INNER {
        steps = it + 1;
        // Gradient g = s + 2ξv + a; Newton direction d = −(D − ssᵀ)⁻¹g with D = diag(s + 2ξ).
        let mut gmax: f64 = 0.0;
        let mut vmax: f64 = 0.0;
        let mut amax: f64 = 0.0;
        for k in 0..c {
            let g = sm[k] + two_xi * v[k] + a[k];
            gmax = gmax.max(g.abs());
            vmax = vmax.max(v[k].abs());
            amax = amax.max(a[k].abs());
            grad[k] = g;
        }
        // Same scale as Algorithm 2's test on the step of z (a fixed-point step is g / (2ξ)),
        // but never below the round-off of g itself.
        let floor = 8.0 * f64::EPSILON * (1.0 + amax + two_xi * vmax);
        if gmax <= (1e-13 * two_xi * (1.0 + vmax)).max(floor).max(gtol) {
            break;
        }
        // Only now the divisions: most solves end at this test.
        let (mut sdg, mut sds) = (0.0, 0.0);
        for k in 0..c {
            let dk = 1.0 / (sm[k] + two_xi);
            inv[k] = dk;
            d[k] = grad[k] * dk;
            sdg += sm[k] * d[k];
            sds += sm[k] * sm[k] * dk;
        }
        let coef = sdg / (1.0 - sds).max(f64::MIN_POSITIVE);
        let mut slope = 0.0;
        for k in 0..c {
            let dk = -(d[k] + sm[k] * coef * inv[k]);
            slope += dk * grad[k];
            d[k] = dk;
        }
        if slope >= 0.0 {
            break; // round-off: no descent direction left
        }
        // Armijo backtracking; the full step is accepted near the solution (F is within
        // 1/2 of a quadratic in curvature), the slack absorbs round-off in F itself.
        let dmax = d.iter().fold(0.0_f64, |x, &y| x.max(y.abs()));
        let mut t = 1.0;
        let mut accepted = false;
        let mut halvings = 0;
        for _ in 0..60 {
            for k in 0..c {
                trial[k] = v[k] + t * d[k];
            }
            let lt = lse_at(trial, sm_trial);
            let ft = lt + quad(trial);
            if ft <= f + 1e-4 * t * slope + 4.0 * f64::EPSILON * f.abs().max(1.0) {
                v[..c].copy_from_slice(trial);
                sm[..c].copy_from_slice(sm_trial);
                lse = lt;
                f = ft;
                accepted = true;
                break;
            }
            t *= 0.5;
            halvings += 1;
        }
        // A full step this small is at round-off: Newton has converged quadratically.
        if !accepted || (halvings == 0 && dmax <= 1e-15 * (1.0 + vmax)) {
            break;
        }
    }
    if sm.len() > c {
        sm[c] = lse;
    }
    steps
}

/// Class counts up to this size keep the Newton work vectors on the stack.
const INNER_STACK: usize = 16;

/// `sqrt(y² + k) − y` without cancellation.
#[inline]
fn root_term(y: f64, k: f64) -> (f64, f64) {
    let r = (y * y + k).sqrt();
    let t = if y > 0.0 { k / (r + y) } else { r - y };
    (t, r)
}

/// Algorithm 3 with the corrected derivative (erratum E3):
/// `g(z) = −1 + Σ_c [sqrt((z + a_c/2)² + 2p_cξ) − (z + a_c/2)]`,
/// `g'(z) = −Σ_c term_c / sqrt((z + a_c/2)² + 2p_cξ)`; g is convex and decreasing, so Newton from a
/// point with `g ≥ 0` climbs monotonically to the root. Output `v_c = −(q_c + a_c)/(2ξ)`.
fn ce_inner(p: &[f64], a: &[f64], xi: f64, v: &mut [f64]) -> usize {
    // term_c ≥ 1 (so g ≥ 0) as soon as z + a_c/2 ≤ (2p_cξ − 1)/2 for one c.
    let mut z = p
        .iter()
        .zip(a)
        .map(|(&pc, &ac)| (2.0 * pc * xi - 1.0) / 2.0 - ac / 2.0)
        .fold(f64::NEG_INFINITY, f64::max);
    let mut steps = 0;
    for it in 0..MAX_INNER {
        steps = it + 1;
        let mut g = -1.0;
        let mut gp = 0.0;
        for (&pc, &ac) in p.iter().zip(a) {
            let (t, r) = root_term(z + ac / 2.0, 2.0 * pc * xi);
            g += t;
            gp -= t / r;
        }
        if g <= 0.0 {
            break;
        }
        let step = -g / gp;
        z += step;
        if step <= 1e-15 * (1.0 + z.abs()) {
            break;
        }
    }
    for ((vc, &pc), &ac) in v.iter_mut().zip(p).zip(a) {
        let (q, _) = root_term(z + ac / 2.0, 2.0 * pc * xi);
        *vc = -(q + ac) / (2.0 * xi);
    }
    steps
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Hand-computed: p = (1/2, 1/2), u = (ln 2, 0): KL tilt ∝ (1/4, 1/2) → (1/3, 2/3),
    /// conj = ln(1/4 + 1/2) = ln(3/4).
    #[test]
    fn kl_tilt_hand_computed() {
        let mut h = [0.0; 2];
        let conj = tilt(Divergence::Kl, &[0.5, 0.5], &[2f64.ln(), 0.0], &mut h);
        assert!((h[0] - 1.0 / 3.0).abs() < 1e-15);
        assert!((h[1] - 2.0 / 3.0).abs() < 1e-15);
        assert!((conj - 0.75f64.ln()).abs() < 1e-15);
    }

    /// Hand-computed: p = (1/2, 1/2), u = (1, 0): θ solves 1/(2(θ+1)) + 1/(2θ) = 1, i.e.
    /// 2θ² − 1 = 0 → θ = 1/√2, h = (1/(2(1/√2 + 1)), 1/√2).
    #[test]
    fn ce_tilt_hand_computed() {
        let mut h = [0.0; 2];
        let conj = tilt(Divergence::CrossEntropy, &[0.5, 0.5], &[1.0, 0.0], &mut h);
        let th = 0.5f64.sqrt();
        assert!((h[1] - 0.5 / th).abs() < 1e-14, "{h:?}");
        assert!((h[0] - 0.5 / (th + 1.0)).abs() < 1e-14);
        let expect = th - 1.0 - 0.5 * (th + 1.0).ln() - 0.5 * th.ln();
        assert!((conj - expect).abs() < 1e-14);
    }

    /// The CE normaliser agrees with a bisection root of `Σ p_c/(θ + u_c) = 1` (to 1e-12,
    /// relative) for small and large tilts and for classes at the 1e-6 floor, where the early
    /// stop of the Newton iteration is least accurate.
    #[test]
    fn ce_tilt_matches_bisection() {
        let ps: [&[f64]; 3] = [
            &[0.2, 0.3, 0.5],
            &[1e-6, 1e-6, 1.0 - 2e-6],
            &[0.999_998, 1e-6, 1e-6],
        ];
        let us: [&[f64]; 4] = [
            &[1e-4, 0.0, -2e-4],
            &[3.0, -1.0, 0.5],
            &[-40.0, 2.0, 7.0],
            &[0.0, 0.0, 0.0],
        ];
        for p in ps {
            for u in us {
                let mut h = [0.0; 3];
                tilt(Divergence::CrossEntropy, p, u, &mut h);
                // Bisection in t = θ + min u (θ itself would lose the digits of t + d_c).
                let umin = u.iter().fold(f64::INFINITY, |a, &b| a.min(b));
                let f = |t: f64| {
                    p.iter()
                        .zip(u)
                        .map(|(&pc, &uc)| pc / (t + (uc - umin)))
                        .sum::<f64>()
                };
                let (mut lo, mut hi) = (0.0, 1.0);
                for _ in 0..2000 {
                    let mid = 0.5 * (lo + hi);
                    if f(mid) > 1.0 { lo = mid } else { hi = mid }
                }
                let t = 0.5 * (lo + hi);
                for k in 0..3 {
                    let exact = p[k] / (t + (u[k] - umin));
                    assert!(
                        (h[k] - exact).abs() <= 1e-12 * exact.max(1e-300) + 1e-15,
                        "p={p:?} u={u:?} k={k}: {} vs {exact}",
                        h[k]
                    );
                }
            }
        }
    }

    #[test]
    fn zero_tilt_is_identity() {
        for div in [Divergence::Kl, Divergence::CrossEntropy] {
            let p = [0.2, 0.3, 0.5];
            let mut h = [0.0; 3];
            let conj = tilt(div, &p, &[0.0; 3], &mut h);
            assert!(conj.abs() < 1e-15);
            for k in 0..3 {
                assert!((h[k] - p[k]).abs() < 1e-15);
            }
        }
    }

    /// The inner solutions satisfy the stationarity condition `h(v) + 2ξv + a = 0`, where
    /// `h(v) = ∇D^conj(v, p)` is the tilt at `u = −v`.
    #[test]
    fn inner_solutions_are_stationary() {
        let p = [0.1, 0.6, 0.3];
        let logp: Vec<f64> = p.iter().map(|x: &f64| x.ln()).collect();
        for div in [Divergence::Kl, Divergence::CrossEntropy] {
            for a in [[0.3, -2.0, 1.0], [10.0, 0.0, -5.0], [-0.1, -0.2, -0.3]] {
                // ξ ≤ 1/4 is where Algorithm 2's fixed point would not contract.
                for xi in [1.1, 0.2, 0.01] {
                    let mut v = [0.0; 3];
                    let mut sc = [f64::NAN; 4];
                    // The second solve starts from the first one's v and cached softmax, as in
                    // consecutive ADMM rounds, with another a and ξ.
                    let a2 = [a[2], 0.5 * a[0], -a[1]];
                    for (a, xi) in [(a, xi), (a2, 2.0 * xi)] {
                        let steps = inner_solve(div, &p, &logp, &a, xi, &mut v, &mut sc, 0.0);
                        assert!(steps < 60, "{div:?} a={a:?} ξ={xi}: {steps} steps");
                        let u = [-v[0], -v[1], -v[2]];
                        let mut h = [0.0; 3];
                        tilt(div, &p, &u, &mut h);
                        for k in 0..3 {
                            let r = h[k] + 2.0 * xi * v[k] + a[k];
                            assert!(r.abs() < 1e-10, "{div:?} a={a:?} ξ={xi} k={k} r={r}");
                        }
                    }
                }
            }
        }
    }
}
