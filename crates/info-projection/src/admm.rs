//! The paper's ADMM (Algorithm 1, App. A.2) with the corrected updates of the notes:
//!
//! ```text
//! a_i = w_i + ρ G_iᵀλ
//! v_i = argmin_v D^conj(v, p_i) + ((ρ+ζ)/2)‖v‖² + a_iᵀv           (39), per sample (Alg. 2 / 3, E3)
//! q   = (1/N) Σ_i G_i (w_i + ρ v_i)                                 (44), erratum E2
//! λ   = argmin_{λ≥0} λᵀQλ + qᵀλ,  Q = (ζ/2)I + (ρ/(2N)) Σ_i G_i G_iᵀ  (40), (43)
//! w_i = w_i + ρ (v_i + G_iᵀλ)                                        (41)
//! ```
//! With over-relaxation α (Boyd et al. 2011, §3.4.3) the λ- and w-updates use
//! `v̂_i = α v_i − (1 − α) G_iᵀλ_old` in place of `v_i` (α = 1: the updates above); the fixed
//! point and the residuals are unchanged, α ≈ 1.6 cut the rounds ≈ 1.5–2× on the benchmarks.
//!
//! Start: λ = 0, v_i = 0, w_i = −∇D^conj(0, p_i) = −p_i (the exact multipliers of λ = 0, so an
//! inactive problem stops at once). Stop when the RMS primal residual
//! `sqrt((1/N)Σ‖v_i + G_iᵀλ‖²)` and the dual residual `ρ sqrt(Δλᵀ Ḡ Δλ)` are both ≤ tol.
//!
//! One round is one pass over the data. It is written as a fixed-point map `y ↦ T(y)` on
//! `y_i = w_i + ρ v̂_i` (the vector the λ-step sums, so λ = λ(y) is the QP of `q = (1/N)Σ G_i y_i`):
//! from `y`, `u_i = G_iᵀλ(y)`, `w_i = y_i + ρ u_i`, the V-step at `a_i = w_i + ρ u_i`, and
//! `T(y)_i = w_i + ρ v̂_i`; the round's residuals are those of the plain ADMM round from `y`
//! (`v` against the next λ, λ(T(y)) − λ(y)). Without acceleration the iterates are the plain
//! ADMM's, round for round.
//!
//! Anderson acceleration (type II, memory m; Walker & Ni 2011, with the safeguard of Zhang,
//! O'Donoghue & Boyd 2020 and of "Anderson accelerated Douglas–Rachford", Fu, Zhang & Boyd
//! 2019): after an accepted round k, the next point is
//! `y = T(y_k) − ΔG γ`, `γ = argmin ‖f_k − ΔF γ‖` over the last m differences of
//! `f = T(y) − y` and `g = T(y)`; λ(y) follows from the same combination of the q's (q is linear
//! in y). The point is evaluated by an ordinary round; it is accepted only if its fixed-point
//! residual `‖f‖` (RMS) is not larger than that of round k, otherwise the history is cleared and
//! the plain point `T(y_k)` (kept) is evaluated instead. The fixed point, hence λ, and the
//! stopping rule are the plain ADMM's; only the sequence of points differs.
//!
//! ρ is adapted by residual balancing (Boyd et al. 2011, §3.4.1): every [`ADAPT_EVERY`] rounds,
//! while fewer than [`ADAPT_UNTIL`] rounds have run, ρ is doubled when the primal residual
//! exceeds ten times the dual one and halved in the opposite case. The multipliers `w_i` are
//! unscaled, so they carry over unchanged; the new ρ takes effect from a round's V-step on (the
//! w-update that closes the previous round keeps the old ρ: `w_i = y_i + ρ_old u_i`), `H` is
//! rebuilt and the Anderson history is cleared (a new ρ is a new map). Residual balancing does
//! not find a good ρ here: from the paper's ρ = 2, 100k rows needed 1,424 (2 × 2) and 2,505
//! (5 × 5) relaxed rounds, against 66–145 from ρ = 0.03–0.1 (docs/benchmarks.md), hence the
//! default start [`initial_rho`]. The KL V-step is solved by Newton (see `divergence::kl_inner`), not by
//! Algorithm 2's fixed point, so ρ has no lower bound.

use crate::constraints::Design;
use crate::divergence::inner_solve;
use crate::engine::{CHUNK, Lifted, Rows, add_into, chunked, scratch};
use crate::error::{InfoProjectionError as E, Result};
use crate::params::{Divergence, QpSolver};
use crate::qp;
use crate::report::AdmmRound;
use fair_core::Termination as Status;
use nalgebra::{DMatrix, DVector};
use rayon::prelude::*;

/// Inexact KL V-step (`VStep::Inexact`): each sample's Newton solve stops once its gradient
/// is at most `η·2ξ·r`, `r` the last round's RMS primal residual, so its error in `v` is at most
/// `η·r` and shrinks with the residual (a relative-error inexact ADMM in the sense of Eckstein &
/// Bertsekas 1992: the errors are summable and the fixed point is the exact one). Measured, 5 × 5
/// (rounds, CPU time against exact V-steps): 100k 44–46 rounds as exact with η = 0.01–0.1, 0.76×
/// the CPU; 400k 62–64 rounds as exact; η = 1 stalls (758 and 1,077 rounds); stopping after one
/// Newton step regardless of the residual cost 67 rounds at 100k against 44.
pub(crate) const V_STEP_ETA: f64 = 0.03;

/// Rounds between two ρ adaptations.
pub(crate) const ADAPT_EVERY: usize = 10;
/// ρ is frozen after this many rounds, so the usual fixed-ρ convergence guarantee applies.
pub(crate) const ADAPT_UNTIL: usize = 1000;
/// Residual ratio that triggers an adaptation, and the factor applied.
const BALANCE: f64 = 10.0;
const FACTOR: f64 = 2.0;

/// What one round evaluated, and the verdict of the safeguard.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Step {
    /// `T` of the last accepted round (or the start).
    Plain,
    /// An Anderson point, kept.
    AndersonAccepted,
    /// An Anderson point whose residual exceeded the last accepted one: discarded.
    AndersonRejected,
}

/// One round of the trace (kept for the safeguard's tests only).
#[cfg(test)]
#[derive(Debug, Clone, Copy)]
pub(crate) struct RoundInfo {
    pub step: Step,
    /// RMS fixed-point residual `sqrt((1/N)Σ‖T(y)_i − y_i‖²)` at the evaluated point.
    pub residual: f64,
    /// The same at the last accepted point before this round (∞ at the start).
    pub base: f64,
}

pub(crate) struct AdmmOutcome {
    pub lambda: Vec<f64>,
    pub status: Status,
    pub iterations: usize,
    pub passes: usize,
    pub primal_residual: f64,
    pub dual_residual: f64,
    pub anderson_accepted: usize,
    pub anderson_rejected: usize,
    #[cfg(test)]
    pub trace: Vec<RoundInfo>,
}

pub(crate) struct AdmmSettings {
    pub div: Divergence,
    pub zeta: f64,
    pub rho: f64,
    pub relaxation: f64,
    /// Anderson memory; 0 = plain (relaxed) ADMM.
    pub anderson: usize,
    pub tol: f64,
    pub max_iter: usize,
    pub qp: QpSolver,
    /// Solve every KL V-step to round-off (the paper's iteration) instead of to the relative
    /// tolerance of [`V_STEP_ETA`]; tests compare the two.
    pub exact_v_step: bool,
}

/// Storage of the Anderson differences. Single precision halves the memory traffic of a round
/// (the history is `2·m·C` numbers per row against `C` for the state); it only steers where the
/// next point is evaluated — the map itself, its residual and the safeguard are exact — and the
/// differences shrink with the residual, so their rounding error does too.
type History = f32;

/// Class counts up to this size keep a round's per-row work vectors on the stack.
const WORK_STACK: usize = 16;

/// Per-chunk views of the state buffers.
struct Part<'a> {
    start: usize,
    v: &'a mut [f64],
    g_cur: &'a [f64],
    g_new: &'a mut [f64],
    f_cur: &'a [f64],
    f_new: &'a mut [f64],
    /// Anderson history, sample-major: `[sample][slot][class]`, in single precision (see
    /// [`History`]).
    df: &'a mut [History],
    dg: &'a mut [History],
    /// KL: softmax and log-sum-exp at `v`, `[sample][C + 1]`.
    cache: &'a mut [f64],
}

/// Per-chunk sums of a round.
struct Sums {
    r2: f64,
    f2: f64,
    s: Vec<f64>,
    dd: Vec<f64>,
    fd: Vec<f64>,
}

/// What every chunk of a round reads.
struct RoundCtx<'a> {
    rows: &'a Rows<'a>,
    lifted: &'a Lifted,
    div: Divergence,
    logp: &'a [f64],
    gamma: Option<&'a [f64]>,
    count: usize,
    m: usize,
    head: usize,
    record: bool,
    rho: f64,
    rho_prev: f64,
    alpha: f64,
    xi: f64,
    /// Gradient tolerance of this round's KL V-steps (0: round-off).
    gtol: f64,
}

/// One round over one chunk: the V-step of every row, the sums of the λ-step and the
/// residuals, and the Anderson history (see the module doc).
#[inline(always)]
fn round_chunk(ctx: &RoundCtx<'_>, c: usize, part: Part<'_>) -> Sums {
    let RoundCtx {
        rows,
        lifted,
        div,
        logp,
        gamma: gamma_ref,
        count,
        m,
        head,
        record,
        rho,
        rho_prev,
        alpha,
        xi,
        gtol,
    } = *ctx;
    let d = rows.data;
    let cw = c + 1;
    let sd = rows.zdim * c;
    let mut z = vec![0.0; rows.zdim];
    let (mut stack, mut heap) = ([0.0; 7 * WORK_STACK], Vec::new());
    let work = scratch(&mut stack, &mut heap, 7 * c);
    let (u, work) = work.split_at_mut(c);
    let (y, work) = work.split_at_mut(c);
    let (a, work) = work.split_at_mut(c);
    let (g, work) = work.split_at_mut(c);
    let (r, work) = work.split_at_mut(c);
    let (dfn, v_scratch) = work.split_at_mut(c);
    let mut out = Sums {
        r2: 0.0,
        f2: 0.0,
        s: vec![0.0; sd],
        dd: vec![0.0; m],
        fd: vec![0.0; m],
    };
    // The Gram sums live on the stack during the loop (row-to-row accumulation through the
    // heap vectors was ≈ 6 % of a round); the memory is at most a few tens in practice.
    let (mut acc_stack, mut acc_heap) = ([0.0; 2 * WORK_STACK], Vec::new());
    let (dd, fd) = scratch(&mut acc_stack, &mut acc_heap, 2 * m).split_at_mut(m);
    let (mut r2, mut f2) = (0.0, 0.0);
    for j in 0..part.v.len() / c {
        let i = part.start + j;
        let cs = j * c..(j + 1) * c;
        let hist = j * m * c;
        y.copy_from_slice(&part.g_cur[cs.clone()]);
        if let Some(gm) = gamma_ref {
            for (slot, &gs) in gm.iter().enumerate().take(count) {
                let col = &part.dg[hist + slot * c..hist + (slot + 1) * c];
                for kk in 0..c {
                    y[kk] -= gs * f64::from(col[kk]);
                }
            }
        }
        rows.u(lifted, i, &mut z, u);
        for kk in 0..c {
            let w = y[kk] + rho_prev * u[kk];
            a[kk] = w + rho * u[kk];
            g[kk] = w;
        }
        let lp = if logp.is_empty() {
            &[][..]
        } else {
            &logp[i * c..(i + 1) * c]
        };
        let vi = &mut part.v[cs.clone()];
        let sc = if part.cache.is_empty() {
            &mut v_scratch[..c]
        } else {
            &mut part.cache[j * cw..(j + 1) * cw]
        };
        inner_solve(div, &d.p[i * c..(i + 1) * c], lp, a, xi, vi, sc, gtol);
        for kk in 0..c {
            r[kk] = vi[kk] + u[kk];
            r2 += r[kk] * r[kk];
            g[kk] += rho * (alpha * vi[kk] - (1.0 - alpha) * u[kk]);
            let f = g[kk] - y[kk];
            f2 += f * f;
            part.f_new[j * c + kk] = f;
            part.g_new[j * c + kk] = g[kk];
        }
        rows.scatter(i, &z, vi, &mut out.s);
        if record {
            let fnew = &part.f_new[cs.clone()];
            for kk in 0..c {
                // Rounded as it is stored, so the Gram matrix is that of the stored vectors.
                dfn[kk] = f64::from((fnew[kk] - part.f_cur[j * c + kk]) as History);
            }
            for slot in 0..count.min(m) {
                if slot == head {
                    continue;
                }
                let col = &part.df[hist + slot * c..hist + (slot + 1) * c];
                for kk in 0..c {
                    let x = f64::from(col[kk]);
                    dd[slot] += dfn[kk] * x;
                    fd[slot] += x * fnew[kk];
                }
            }
            for kk in 0..c {
                dd[head] += dfn[kk] * dfn[kk];
                fd[head] += dfn[kk] * fnew[kk];
            }
            let dfs = &mut part.df[hist + head * c..hist + (head + 1) * c];
            for kk in 0..c {
                dfs[kk] = dfn[kk] as History;
            }
            let gcur = &part.g_cur[cs];
            let dgs = &mut part.dg[hist + head * c..hist + (head + 1) * c];
            for kk in 0..c {
                dgs[kk] = (g[kk] - gcur[kk]) as History;
            }
        }
    }
    out.dd.copy_from_slice(dd);
    out.fd.copy_from_slice(fd);
    out.r2 = r2;
    out.f2 = f2;
    out
}

fn chunks_mut_or_empty<T>(buf: &mut [T], per: usize, count: usize) -> Vec<&mut [T]> {
    if buf.is_empty() {
        (0..count).map(|_| &mut [][..]).collect()
    } else {
        buf.chunks_mut(per).collect()
    }
}

fn solve_qp(kind: QpSolver, h: &[f64], q: &[f64], lambda: &mut Vec<f64>) -> Result<()> {
    match kind {
        QpSolver::ActiveSet => {
            qp::active_set(h, q, lambda)?;
        }
        QpSolver::Clarabel => *lambda = qp::clarabel(h, q)?,
    }
    Ok(())
}

/// `Ḡx` for a row-major `K × K` Ḡ.
fn mat_vec(gbar: &[f64], x: &[f64]) -> Vec<f64> {
    let k = x.len();
    (0..k)
        .map(|r| (0..k).map(|col| gbar[r * k + col] * x[col]).sum())
        .collect()
}

/// `q = (1/N) Σ_i G_i y_i` at the start point `y_i = −p_i`.
fn start_q(rows: &Rows<'_>, design: &Design) -> Vec<f64> {
    let d = rows.data;
    let c = d.c;
    let lifted = Lifted::new(design, &vec![0.0; design.k()]);
    let sums = chunked(d.n, |range| {
        let mut z = vec![0.0; rows.zdim];
        let mut u = vec![0.0; c];
        let mut y = vec![0.0; c];
        let mut s = vec![0.0; rows.zdim * c];
        for i in range {
            // Builds z for soft membership (u itself is zero at λ = 0).
            rows.u(&lifted, i, &mut z, &mut u);
            for (yc, &pc) in y.iter_mut().zip(&d.p[i * c..(i + 1) * c]) {
                *yc = -pc;
            }
            rows.scatter(i, &z, &y, &mut s);
        }
        s
    });
    let mut s = vec![0.0; rows.zdim * c];
    for part in sums {
        add_into(&mut s, &part);
    }
    rows.finish(&mut s);
    design.contract(&s).iter().map(|x| x / d.n as f64).collect()
}

/// `xᵀ Ḡ x`.
fn quad_form(gbar: &[f64], x: &[f64]) -> f64 {
    let k = x.len();
    let mut quad = 0.0;
    for r in 0..k {
        if x[r] != 0.0 {
            quad += x[r] * (0..k).map(|col| gbar[r * k + col] * x[col]).sum::<f64>();
        }
    }
    quad
}

/// Anderson coefficients from the Gram matrix of the stored residual differences (slots
/// `0..count`, `m × m` row-major) and their products with the newest residual: a small
/// Tikhonov term keeps the solve defined when differences are nearly dependent. `None` when
/// the system is not positive definite or the coefficients are not finite.
fn anderson_gamma(gram: &[f64], fd: &[f64], m: usize, count: usize) -> Option<Vec<f64>> {
    let trace: f64 = (0..count).map(|j| gram[j * m + j]).sum();
    if !(trace > 0.0 && trace.is_finite()) {
        return None;
    }
    let reg = 1e-10 * trace / count as f64;
    let a = DMatrix::from_fn(count, count, |r, c| {
        gram[r * m + c] + if r == c { reg } else { 0.0 }
    });
    let b = DVector::from_fn(count, |r, _| fd[r]);
    let gamma = a.cholesky()?.solve(&b);
    if gamma.iter().all(|x| x.is_finite()) {
        let mut out = vec![0.0; m];
        out[..count].copy_from_slice(gamma.as_slice());
        Some(out)
    } else {
        None
    }
}

/// Default initial ρ: `sqrt(ζ / λ_max(Ḡ))`, the geometric mean of the curvature of the λ-step's
/// regulariser and of its penalty term per unit ρ. Measured (Anderson on, KL, EO, α = 0.01):
/// the best fixed ρ was 0.02 at 100k × 5 × 5 and 0.01–0.02 at 200k × 5 × 5 where this gives
/// 0.027 and 0.021, and the 2 × 2 round counts vary within ≈ 30 % over ρ = 0.02–0.2.
/// Thirty power steps suffice: ρ is adapted anyway and only its order of magnitude matters.
pub(crate) fn initial_rho(gbar: &[f64], k: usize, zeta: f64) -> f64 {
    let mut x = vec![1.0 / (k.max(1) as f64).sqrt(); k];
    let mut lmax = 0.0;
    for _ in 0..30 {
        let y: Vec<f64> = (0..k)
            .map(|r| (0..k).map(|c| gbar[r * k + c] * x[c]).sum())
            .collect();
        lmax = y.iter().map(|a| a * a).sum::<f64>().sqrt();
        if !(lmax > 0.0 && lmax.is_finite()) {
            break;
        }
        x = y.iter().map(|a| a / lmax).collect();
    }
    let rho = (zeta / lmax).sqrt();
    if rho.is_finite() && rho > 0.0 {
        rho
    } else {
        FALLBACK_RHO
    }
}

/// ρ when Ḡ gives no scale (all constraint rows vanish on the data).
const FALLBACK_RHO: f64 = 0.05;

pub(crate) fn solve(
    rows: &Rows<'_>,
    design: &Design,
    gbar: &[f64],
    set: &AdmmSettings,
    before_round: &mut dyn FnMut(Option<AdmmRound>) -> bool,
) -> Result<AdmmOutcome> {
    let d = rows.data;
    let (n, c, k) = (d.n, d.c, design.k());
    let nf = n as f64;
    let zeta = set.zeta;
    let alpha = set.relaxation;
    let m = set.anderson;
    let mut rho = set.rho;
    // H = 2Q = ζI + ρḠ.
    let hessian = |rho: f64| {
        let mut h = vec![0.0; k * k];
        for r in 0..k {
            for col in 0..k {
                h[r * k + col] = rho * gbar[r * k + col];
            }
            h[r * k + r] += zeta;
        }
        h
    };
    let mut h = hessian(rho);
    let logp: Vec<f64> = match set.div {
        Divergence::Kl => d.p.iter().map(|x| x.ln()).collect(),
        Divergence::CrossEntropy => Vec::new(),
    };
    let sd = rows.zdim * c;
    let n_chunks = n.div_ceil(CHUNK);
    let mut v = vec![0.0; n * c];
    // The start y = w = −p with λ = 0 forced (not λ(y)), so that u = 0 in the first round.
    let mut g_cur: Vec<f64> = d.p.iter().map(|x| -x).collect();
    let mut g_new = vec![0.0; n * c];
    let mut f_cur = vec![0.0; n * c];
    let mut f_new = vec![0.0; n * c];
    let mut df: Vec<History> = vec![0.0; n * m * c];
    let mut dg: Vec<History> = vec![0.0; n * m * c];
    let mut dq = vec![0.0; m * k];
    let cw = c + 1;
    let mut cache = match set.div {
        Divergence::Kl => vec![f64::NAN; n * cw],
        Divergence::CrossEntropy => Vec::new(),
    };
    let mut gram = vec![0.0; m * m];
    let (mut count, mut head) = (0_usize, 0_usize);
    // f_cur / g_cur hold the residual and image of an accepted round of the current map.
    let mut have_prev = false;
    let mut q_cur = vec![0.0; k];
    let mut lam_cur = vec![0.0; k];
    let mut lam_y = vec![0.0; k];
    // q of the point y the next round starts from (the start y = −p: one light pass).
    let mut q_y = start_q(rows, design);
    let mut gamma: Option<Vec<f64>> = None;
    let mut rho_prev = rho;
    let mut base = f64::INFINITY;
    let mut first = true;
    let (mut accepted, mut rejected) = (0, 0);
    #[cfg(test)]
    let mut trace = Vec::new();
    let mut status = Status::MaxIterations;
    let mut iterations: usize = 0;
    let (mut primal, mut dual) = (f64::INFINITY, f64::INFINITY);
    let mut lambda = vec![0.0; k];
    let mut last_round = None;
    while iterations < set.max_iter {
        if before_round(last_round.take()) {
            status = Status::Interrupted;
            break;
        }
        iterations += 1;
        let xi = (rho + zeta) / 2.0;
        let lifted = Lifted::new(design, &lam_y);
        let record = have_prev && m > 0;
        let parts: Vec<Part<'_>> = v
            .chunks_mut(CHUNK * c)
            .zip(g_cur.chunks(CHUNK * c))
            .zip(g_new.chunks_mut(CHUNK * c))
            .zip(f_cur.chunks(CHUNK * c))
            .zip(f_new.chunks_mut(CHUNK * c))
            .zip(chunks_mut_or_empty(&mut df, CHUNK * m * c, n_chunks))
            .zip(chunks_mut_or_empty(&mut dg, CHUNK * m * c, n_chunks))
            .zip(chunks_mut_or_empty(&mut cache, CHUNK * cw, n_chunks))
            .enumerate()
            .map(
                |(chunk, (((((((v, g_cur), g_new), f_cur), f_new), df), dg), cache))| Part {
                    start: chunk * CHUNK,
                    v,
                    g_cur,
                    g_new,
                    f_cur,
                    f_new,
                    df,
                    dg,
                    cache,
                },
            )
            .collect();
        let ctx = RoundCtx {
            rows,
            lifted: &lifted,
            div: set.div,
            logp: &logp,
            gamma: gamma.as_deref(),
            count,
            m,
            head,
            record,
            rho,
            rho_prev,
            alpha,
            xi,
            // Inexact V-step: a gradient error g moves v by at most g/(2ξ), kept at a fraction
            // of the last primal residual; the first round (no residual yet) is exact.
            gtol: if set.exact_v_step || !primal.is_finite() {
                0.0
            } else {
                V_STEP_ETA * 2.0 * xi * primal
            },
        };
        // The class count is a constant inside each arm, so the per-row loops (V-step, history,
        // scatter) are unrolled and kept in registers for the usual C ≤ 5.
        let sums: Vec<Sums> = parts
            .into_par_iter()
            .map(|part| match c {
                2 => round_chunk(&ctx, 2, part),
                3 => round_chunk(&ctx, 3, part),
                4 => round_chunk(&ctx, 4, part),
                5 => round_chunk(&ctx, 5, part),
                _ => round_chunk(&ctx, c, part),
            })
            .collect();
        let (mut r2, mut f2) = (0.0, 0.0);
        let mut s = vec![0.0; sd];
        let mut dd = vec![0.0; m];
        let mut fd = vec![0.0; m];
        for part in sums {
            r2 += part.r2;
            f2 += part.f2;
            add_into(&mut s, &part.s);
            add_into(&mut dd, &part.dd);
            add_into(&mut fd, &part.fd);
        }
        rows.finish(&mut s);
        // One scatter per row suffices: with g_i = y_i + (ρ_prev − ρ(1 − α))u_i + ρα v_i and
        // u_i = G_iᵀλ(y), q(T(y)) = q_y + (ρ_prev − ρ(1 − α))Ḡλ(y) + ρα q_v, where q_y is the
        // q of the point y (kept from the previous round) and q_v = (1/N)Σ G_i v_i is summed here.
        let q_v: Vec<f64> = design.contract(&s).iter().map(|x| x / nf).collect();
        let g_lam = mat_vec(gbar, &lam_y);
        let coef_u = rho_prev - rho * (1.0 - alpha);
        let q_new: Vec<f64> = (0..k)
            .map(|r| q_y[r] + coef_u * g_lam[r] + rho * alpha * q_v[r])
            .collect();
        let mut lam_new = lam_y.clone();
        solve_qp(set.qp, &h, &q_new, &mut lam_new)?;
        // Residuals of the plain round from y: ‖v + Gᵀλ_new‖² = ‖r‖² + 2Δλᵀ Σ G_i r_i + N ΔλᵀḠΔλ
        // with r = v + Gᵀλ(y) (‖r‖² summed in this pass, Σ G_i r_i = N(q_v + Ḡλ(y))).
        let dl: Vec<f64> = lam_new.iter().zip(&lam_y).map(|(a, b)| a - b).collect();
        let quad = quad_form(gbar, &dl).max(0.0);
        let cross: f64 = nf * (0..k).map(|r| (q_v[r] + g_lam[r]) * dl[r]).sum::<f64>();
        primal = ((r2 + 2.0 * cross + nf * quad).max(0.0) / nf).sqrt();
        dual = rho * quad.sqrt();
        let residual = (f2 / nf).sqrt();
        if !primal.is_finite() || !residual.is_finite() {
            return Err(E::Numerical {
                stage: "ADMM",
                reason: "the primal residual is not finite".into(),
            });
        }
        let step = match gamma {
            None => Step::Plain,
            Some(_) if residual <= base => Step::AndersonAccepted,
            Some(_) => Step::AndersonRejected,
        };
        #[cfg(test)]
        trace.push(RoundInfo {
            step,
            residual,
            base,
        });
        last_round = Some(AdmmRound {
            round: iterations,
            rho,
            primal_residual: primal,
            dual_residual: dual,
            fixed_point_residual: residual,
            anderson_accepted: match step {
                Step::Plain => None,
                Step::AndersonAccepted => Some(true),
                Step::AndersonRejected => Some(false),
            },
        });
        lambda.clone_from(&lam_new);
        if primal <= set.tol && dual <= set.tol {
            status = Status::Converged;
            break;
        }
        if step == Step::AndersonRejected {
            // Back to the plain point T(y_k), kept in g_cur with its λ; the history is dropped.
            rejected += 1;
            count = 0;
            head = 0;
            gamma = None;
            lam_y.clone_from(&lam_cur);
            q_y.clone_from(&q_cur);
            continue;
        }
        if step == Step::AndersonAccepted {
            accepted += 1;
        }
        if record {
            for slot in 0..count.min(m) {
                gram[head * m + slot] = dd[slot];
                gram[slot * m + head] = dd[slot];
            }
            gram[head * m + head] = dd[head];
            for (x, (a, b)) in dq[head * k..(head + 1) * k]
                .iter_mut()
                .zip(q_new.iter().zip(&q_cur))
            {
                *x = a - b;
            }
            count = (count + 1).min(m);
            head = (head + 1) % m.max(1);
        }
        std::mem::swap(&mut g_cur, &mut g_new);
        std::mem::swap(&mut f_cur, &mut f_new);
        q_cur.clone_from(&q_new);
        lam_cur.clone_from(&lam_new);
        base = residual;
        have_prev = !first;
        first = false;
        rho_prev = rho;
        if iterations.is_multiple_of(ADAPT_EVERY) && iterations < ADAPT_UNTIL {
            let changed = if primal > BALANCE * dual {
                rho *= FACTOR;
                true
            } else if dual > BALANCE * primal {
                rho /= FACTOR;
                true
            } else {
                false
            };
            if changed {
                // A new ρ is a new map: the differences of the old one no longer apply. λ(y)
                // of the kept point was computed with the old H, as in the plain ADMM.
                h = hessian(rho);
                count = 0;
                head = 0;
                have_prev = false;
            }
        }
        // The next point.
        gamma = if count > 0 {
            // fd holds ⟨ΔF_slot, f⟩ for the newest f in every live slot.
            anderson_gamma(&gram, &fd, m, count)
        } else {
            None
        };
        #[cfg(test)]
        let gamma_scale = tests::GAMMA_SCALE.with(std::cell::Cell::get);
        #[cfg(test)]
        if let Some(gm) = gamma.as_mut() {
            gm.iter_mut().for_each(|x| *x *= gamma_scale);
        }
        q_y.clone_from(&q_cur);
        match &gamma {
            Some(gm) => {
                for (slot, &gs) in gm.iter().enumerate().take(count) {
                    for (qv, &dv) in q_y.iter_mut().zip(&dq[slot * k..(slot + 1) * k]) {
                        *qv -= gs * dv;
                    }
                }
                lam_y.clone_from(&lam_cur);
                solve_qp(set.qp, &h, &q_y, &mut lam_y)?;
            }
            None => lam_y.clone_from(&lam_cur),
        }
    }
    Ok(AdmmOutcome {
        lambda,
        status,
        iterations,
        passes: iterations,
        primal_residual: primal,
        dual_residual: dual,
        anderson_accepted: accepted,
        anderson_rejected: rejected,
        #[cfg(test)]
        trace,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::constraints::Marginals;
    use crate::engine::second_moment;
    use crate::input::{GroupInfo, prepare};
    use crate::params::{Constraint, RowPolicy};
    use fair_data::Groups;
    use nalgebra::DMatrix;
    use std::cell::Cell;

    thread_local! {
        /// Multiplies the Anderson coefficients, to make bad extrapolations on purpose.
        pub(super) static GAMMA_SCALE: Cell<f64> = const { Cell::new(1.0) };
    }

    /// A binding 3-class, 3-group instance (deterministic, no RNG).
    fn instance(n: usize) -> (DMatrix<f64>, Groups) {
        let probs = DMatrix::from_fn(n, 3, |i, k| {
            let w = |k: usize| (((i * 31 + k * 17) % 23) as f64 / 7.0 + (i % 3 * k) as f64).exp();
            w(k) / (0..3).map(w).sum::<f64>()
        });
        let codes: Vec<usize> = (0..n).map(|i| (i * 7 + i / 3) % 3).collect();
        (probs, Groups::from_codes(&codes).unwrap())
    }

    /// `anderson == 0 && relaxation == 1` is the paper's iteration, with exact V-steps; the
    /// accelerated settings use the default one-Newton-step V-step.
    fn run(div: Divergence, anderson: usize, relaxation: f64, rho: f64) -> AdmmOutcome {
        let exact_v_step = anderson == 0 && (relaxation - 1.0).abs() < f64::EPSILON;
        run_with(div, anderson, relaxation, rho, exact_v_step)
    }

    fn run_with(
        div: Divergence,
        anderson: usize,
        relaxation: f64,
        rho: f64,
        exact_v_step: bool,
    ) -> AdmmOutcome {
        let (probs, groups) = instance(600);
        let data = prepare(&probs, &GroupInfo::Labels(&groups), 1e-6, RowPolicy::Strict).unwrap();
        let m = Marginals::estimate(&data, None).unwrap();
        let cons = [Constraint::EqualizedOdds];
        let design = Design::build(&cons, 0.01, &m, data.c, data.a, &data.kind).unwrap();
        let rows = Rows {
            data: &data,
            zdim: design.zdim,
        };
        let gbar = design.gram(&second_moment(&rows));
        let set = AdmmSettings {
            div,
            zeta: 1.0 / (data.n as f64).sqrt(),
            rho,
            relaxation,
            anderson,
            tol: 1e-10,
            max_iter: 20_000,
            qp: QpSolver::ActiveSet,
            exact_v_step,
        };
        solve(&rows, &design, &gbar, &set, &mut |_| false).unwrap()
    }

    fn max_abs_diff(a: &[f64], b: &[f64]) -> f64 {
        a.iter()
            .zip(b)
            .map(|(x, y)| (x - y).abs())
            .fold(0.0, f64::max)
    }

    /// Every kept extrapolation lowered the residual; every rejected one did not and was
    /// followed by the plain point from the same base (the last round may stop on the
    /// residuals before the verdict matters).
    fn assert_safeguarded(trace: &[RoundInfo]) {
        for (t, r) in trace.iter().enumerate() {
            match r.step {
                Step::AndersonAccepted => assert!(r.residual <= r.base),
                Step::AndersonRejected => {
                    assert!(r.residual > r.base);
                    if let Some(next) = trace.get(t + 1) {
                        assert_eq!(next.step, Step::Plain);
                        assert_eq!(next.base.to_bits(), r.base.to_bits());
                    }
                }
                Step::Plain => {}
            }
        }
    }

    /// The safeguard: an extrapolated point is kept only when its fixed-point residual is not
    /// above the last accepted one, and a rejected point is always followed by the plain point.
    /// Anderson, relaxation and the paper's plain ADMM reach the same λ.
    #[test]
    fn safeguard_never_keeps_a_worse_point_and_the_fixed_point_is_unchanged() {
        for div in [Divergence::Kl, Divergence::CrossEntropy] {
            let plain = run(div, 0, 1.0, 2.0);
            assert_eq!(plain.status, Status::Converged);
            assert!(
                plain.lambda.iter().any(|&l| l > 0.0),
                "{div:?}: nothing binds"
            );
            assert!(plain.trace.iter().all(|r| r.step == Step::Plain));
            for (m, alpha, rho) in [
                (5, 1.6, 0.05),
                (10, 1.0, 0.05),
                (2, 1.8, 2.0),
                (20, 1.9, 10.0),
            ] {
                let out = run(div, m, alpha, rho);
                assert_eq!(out.status, Status::Converged, "{div:?} m={m}");
                assert!(out.anderson_accepted > 0, "{div:?} m={m}: no Anderson step");
                assert_safeguarded(&out.trace);
                let rejected = out
                    .trace
                    .iter()
                    .filter(|r| r.step == Step::AndersonRejected)
                    .count();
                assert_eq!(rejected, out.anderson_rejected);
                let diff = max_abs_diff(&out.lambda, &plain.lambda);
                assert!(diff < 1e-6, "{div:?} m={m} α={alpha}: |Δλ| = {diff:e}");
                assert!(
                    out.iterations < plain.iterations,
                    "{div:?} m={m}: {} rounds against {} plain",
                    out.iterations,
                    plain.iterations
                );
            }
        }
    }

    /// `sqrt(ζ / λ_max(Ḡ))` on a hand-computed Ḡ (eigenvalues 5 and 1), and the fallback when
    /// Ḡ vanishes.
    #[test]
    fn initial_rho_hand_computed() {
        let gbar = [3.0, 2.0, 2.0, 3.0];
        let rho = initial_rho(&gbar, 2, 0.05);
        assert!((rho - 0.1).abs() < 1e-12, "{rho}");
        assert_eq!(
            initial_rho(&[0.0; 4], 2, 0.05).to_bits(),
            FALLBACK_RHO.to_bits()
        );
    }

    /// Inexact V-steps (the default) and exact ones reach the same λ, with and without
    /// acceleration, in at most a quarter more rounds.
    #[test]
    fn inexact_v_step_reaches_the_exact_iterations_lambda() {
        for (m, alpha, rho) in [(0, 1.0, 2.0), (0, 1.6, 0.05), (5, 1.6, 0.05)] {
            let exact = run_with(Divergence::Kl, m, alpha, rho, true);
            let inexact = run_with(Divergence::Kl, m, alpha, rho, false);
            assert_eq!(exact.status, Status::Converged);
            assert_eq!(inexact.status, Status::Converged);
            let diff = max_abs_diff(&exact.lambda, &inexact.lambda);
            assert!(diff < 1e-7, "m={m} α={alpha} ρ={rho}: |Δλ| = {diff:e}");
            assert!(
                inexact.iterations <= exact.iterations + exact.iterations / 4,
                "m={m}: {} inexact rounds against {} exact",
                inexact.iterations,
                exact.iterations
            );
        }
    }

    /// Deliberately bad extrapolations (coefficients × 50) are all rejected by the safeguard,
    /// each followed by the plain point from the same base, and the fit still reaches the λ of
    /// the plain ADMM.
    #[test]
    fn safeguard_rejects_bad_extrapolations() {
        for div in [Divergence::Kl, Divergence::CrossEntropy] {
            let plain = run(div, 0, 1.0, 2.0);
            GAMMA_SCALE.with(|c| c.set(50.0));
            let out = run(div, 5, 1.6, 0.05);
            GAMMA_SCALE.with(|c| c.set(1.0));
            assert_eq!(out.status, Status::Converged, "{div:?}");
            assert!(out.anderson_rejected > 0, "{div:?}: nothing rejected");
            assert_safeguarded(&out.trace);
            let diff = max_abs_diff(&out.lambda, &plain.lambda);
            assert!(diff < 1e-6, "{div:?}: |Δλ| = {diff:e}");
        }
    }
}
