//! Passes over the data: `u_i = G_iᵀλ` from the lifted `M(λ)`, and accumulation of
//! `Σ_i z_i y_iᵀ`, in fixed chunks reduced in chunk order (deterministic whatever the number of
//! threads).

use crate::constraints::Design;
use crate::divergence::tilt;
use crate::input::{Membership, Prepared};
use crate::params::Divergence;
use rayon::prelude::*;
use std::ops::Range;

/// Rows per chunk: fixed, so the reduction order never depends on the thread count.
pub(crate) const CHUNK: usize = 4096;

/// `M(λ)` prepared for fast per-row products.
pub(crate) struct Lifted {
    /// `zdim × C` row-major.
    pub m: Vec<f64>,
    /// Known labels: `W_g = M_g + M_p` (`A × C × C`), so `u = W_gᵀ p`.
    pub w: Vec<f64>,
}

impl Lifted {
    pub fn new(design: &Design, lambda: &[f64]) -> Self {
        let m = design.lift(lambda);
        let (c, a) = (design.c, design.a);
        let mut w = vec![0.0; a * c * c];
        for g in 0..a {
            for k in 0..c {
                for col in 0..c {
                    w[(g * c + k) * c + col] = m[(g * c + k) * c + col] + m[(a * c + k) * c + col];
                }
            }
        }
        Self { m, w }
    }
}

/// Per-row access used by every pass.
pub(crate) struct Rows<'a> {
    pub data: &'a Prepared,
    pub zdim: usize,
}

impl Rows<'_> {
    /// Writes `z_i` (soft membership only; known labels never build it).
    #[inline]
    fn build_z(&self, i: usize, z: &mut [f64]) {
        let d = self.data;
        let (c, a) = (d.c, d.a);
        let p = &d.p[i * c..(i + 1) * c];
        for g in 0..a {
            for k in 0..c {
                z[g * c + k] = p[k] * d.s(i, k, g);
            }
        }
        z[a * c..(a + 1) * c].copy_from_slice(p);
    }

    /// `u = G_iᵀλ`; fills `z` for soft membership.
    #[inline]
    pub fn u(&self, lifted: &Lifted, i: usize, z: &mut [f64], u: &mut [f64]) {
        let d = self.data;
        let c = d.c;
        let p = &d.p[i * c..(i + 1) * c];
        u.fill(0.0);
        match &d.memb {
            Membership::Labels(codes) => {
                let w = &lifted.w[codes[i] * c * c..(codes[i] + 1) * c * c];
                // Fixed-size copies for the usual class counts let the compiler unroll and
                // vectorise the C × C product (the generic loop was ≈ 10 % of a 5 × 5 fit).
                match c {
                    2 => gemv_t::<2>(p, w, u),
                    3 => gemv_t::<3>(p, w, u),
                    4 => gemv_t::<4>(p, w, u),
                    5 => gemv_t::<5>(p, w, u),
                    _ => {
                        for (k, &pk) in p.iter().enumerate() {
                            let wr = &w[k * c..(k + 1) * c];
                            for (uc, &wv) in u.iter_mut().zip(wr) {
                                *uc += pk * wv;
                            }
                        }
                    }
                }
            }
            _ => {
                self.build_z(i, z);
                for (zi, &zv) in z.iter().enumerate() {
                    if zv != 0.0 {
                        let mr = &lifted.m[zi * c..(zi + 1) * c];
                        for (uc, &mv) in u.iter_mut().zip(mr) {
                            *uc += zv * mv;
                        }
                    }
                }
            }
        }
    }

    /// `S += z_i yᵀ` (known labels: only the group block; see [`Rows::finish`]).
    #[inline]
    pub fn scatter(&self, i: usize, z: &[f64], y: &[f64], s: &mut [f64]) {
        let d = self.data;
        let c = d.c;
        match &d.memb {
            Membership::Labels(codes) => {
                let p = &d.p[i * c..(i + 1) * c];
                let base = codes[i] * c;
                let blk = &mut s[base * c..(base + c) * c];
                match c {
                    2 => outer_add::<2>(p, y, blk),
                    3 => outer_add::<3>(p, y, blk),
                    4 => outer_add::<4>(p, y, blk),
                    5 => outer_add::<5>(p, y, blk),
                    _ => {
                        for (k, &pk) in p.iter().enumerate() {
                            let sr = &mut blk[k * c..(k + 1) * c];
                            for (sv, &yv) in sr.iter_mut().zip(y) {
                                *sv += pk * yv;
                            }
                        }
                    }
                }
            }
            _ => {
                for (zi, &zv) in z.iter().enumerate() {
                    if zv != 0.0 {
                        let sr = &mut s[zi * c..(zi + 1) * c];
                        for (sv, &yv) in sr.iter_mut().zip(y) {
                            *sv += zv * yv;
                        }
                    }
                }
            }
        }
    }

    /// Completes an accumulated `S` (known labels: the p block is the sum of the group blocks).
    pub fn finish(&self, s: &mut [f64]) {
        let d = self.data;
        if let Membership::Labels(_) = d.memb {
            let (c, a) = (d.c, d.a);
            for g in 0..a {
                for j in 0..c * c {
                    s[a * c * c + j] += s[g * c * c + j];
                }
            }
        }
    }
}

/// `u += Wᵀp` for a row-major `C × C` block `W` (`u` zeroed by the caller).
#[inline(always)]
fn gemv_t<const C: usize>(p: &[f64], w: &[f64], u: &mut [f64]) {
    let p: &[f64; C] = p.try_into().expect("row of C entries");
    let u: &mut [f64; C] = u.try_into().expect("C entries");
    let mut acc = [0.0; C];
    for k in 0..C {
        let wr: &[f64; C] = w[k * C..(k + 1) * C].try_into().expect("C entries");
        for j in 0..C {
            acc[j] += p[k] * wr[j];
        }
    }
    *u = acc;
}

/// `S += p yᵀ` for a row-major `C × C` block.
#[inline(always)]
fn outer_add<const C: usize>(p: &[f64], y: &[f64], s: &mut [f64]) {
    let p: &[f64; C] = p.try_into().expect("row of C entries");
    let y: &[f64; C] = y.try_into().expect("C entries");
    for k in 0..C {
        let sr: &mut [f64; C] = (&mut s[k * C..(k + 1) * C]).try_into().expect("C entries");
        for j in 0..C {
            sr[j] += p[k] * y[j];
        }
    }
}

/// `len` floats of scratch: the first `len` of the caller's stack array when they fit (the
/// usual class counts and Anderson memories), else `heap`, filled with zeros. The per-row
/// kernels then keep their work vectors out of the allocator.
#[inline(always)]
pub(crate) fn scratch<'a, const N: usize>(
    stack: &'a mut [f64; N],
    heap: &'a mut Vec<f64>,
    len: usize,
) -> &'a mut [f64] {
    if len <= N {
        &mut stack[..len]
    } else {
        *heap = vec![0.0; len];
        heap
    }
}

/// Runs `f` on fixed chunks in parallel and returns the results in chunk order.
pub(crate) fn chunked<T: Send>(n: usize, f: impl Fn(Range<usize>) -> T + Sync) -> Vec<T> {
    let chunks = n.div_ceil(CHUNK);
    (0..chunks)
        .into_par_iter()
        .map(|k| f(k * CHUNK..((k + 1) * CHUNK).min(n)))
        .collect()
}

/// Adds `b` into `a` element-wise.
pub(crate) fn add_into(a: &mut [f64], b: &[f64]) {
    for (x, y) in a.iter_mut().zip(b) {
        *x += y;
    }
}

/// Which rows feed the Hessian of a pass, and how they are reweighted.
///
/// The Hessian only steers the Newton direction (the gradient and objective are always exact),
/// so it is accumulated on a deterministic pseudo-random subsample when the full sum would
/// cost more than the rest of the pass. A group (one slot for soft membership) with
/// `strides[g] ≤ 1` uses every row; otherwise about `n_g / strides[g]` of its rows are drawn by
/// importance (Poisson) sampling: row `i` is kept with probability
/// `q_i = min(1, w_i / τ_g)`, `w_i` the trace of its Hessian term and `τ_g = Σ_g w / target`,
/// decided by a hash of `i`, and its term is weighted by `1/q_i` (unbiased).
///
/// Why not uniform: the CE per-row Hessian `diag(r) − r rᵀ/R` with `r_c = h_c²/p_c` is
/// unbounded (a class with a tiny `p_c` and a sizeable tilt `h_c`), so a few rows carry much of
/// the curvature. A uniform 1-in-56 sample (5 000 rows per group at 1.4M × 5 × 5) missed them,
/// underestimated the curvature along the Newton step (accepted steps at t ≈ 0.02–0.4 in the
/// final phase) and took 28 Newton iterations / 49 passes against 14 / 18 with every row.
#[derive(Debug, Clone)]
pub(crate) struct HessPlan {
    /// Per-group strides (known labels) or a single stride (soft membership); 1 keeps every row.
    pub strides: Vec<u64>,
    /// Importance sampling (CE); otherwise a uniform 1-in-stride hash sample whose group sum is
    /// scaled by (rows in the group) / (rows kept), which is enough for KL's bounded per-row
    /// Hessian (importance sampling measured one Newton step more there at 1.4M × 5 × 5).
    pub importance: bool,
}

/// splitmix64 finaliser: spreads consecutive row indices so that a stride picks an unbiased
/// subsample whatever the row order.
#[inline]
pub(crate) fn mix(i: usize) -> u64 {
    let mut x = (i as u64).wrapping_add(0x9E37_79B9_7F4A_7C15);
    x = (x ^ (x >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    x = (x ^ (x >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    x ^ (x >> 31)
}

impl HessPlan {
    /// Every row of this slot enters the Hessian.
    #[inline]
    fn exact(&self, slot: usize) -> bool {
        self.strides[slot] <= 1
    }

    /// Uniform sampling keeps row `i` of `slot` in the pass itself.
    #[inline]
    fn keeps(&self, i: usize, slot: usize) -> bool {
        let s = self.strides[slot];
        s <= 1 || mix(i).is_multiple_of(s)
    }
}

/// A uniform draw in `[0, 1)` from the row index (53 bits of the hash).
#[inline]
fn uniform(i: usize) -> f64 {
    (mix(i) >> 11) as f64 * (1.0 / 9_007_199_254_740_992.0)
}

/// The per-row Hessian weights of [`hess_rank`]: `r` (into `r`) and `Σ r` (returned).
#[inline]
fn hess_weights(div: Divergence, p: &[f64], h: &[f64], r: &mut [f64]) -> f64 {
    match div {
        Divergence::Kl => {
            r.copy_from_slice(h);
            1.0
        }
        Divergence::CrossEntropy => {
            let mut t = 0.0;
            for k in 0..p.len() {
                r[k] = h[k] * h[k] / p[k];
                t += r[k];
            }
            t
        }
    }
}

/// Trace of the per-row term `(x xᵀ) ⊗ (diag(r) − r rᵀ/R + ζI)`: the sampling weight.
#[inline]
fn hess_trace(x: &[f64], r: &[f64], rsum: f64, zeta: f64) -> f64 {
    let xx: f64 = x.iter().map(|v| v * v).sum();
    let rr: f64 = r.iter().map(|v| v * v).sum();
    xx * (rsum - rr / rsum + zeta * r.len() as f64)
}

/// `out += (x xᵀ) ⊗ (diag(r + ζ) − r rᵀ/R)`, `out` row-major `(m·C) × (m·C)` with index
/// `j·C + c` (`m = x.len()`, `C = r.len()`): the per-row Hessian of
/// `D^conj(−u, p) + (ζ/2)‖u‖²` in `u` is `diag(r) − r rᵀ/R + ζI`, with `r = h` (KL, `R = 1`)
/// or `r_c = h_c²/p_c` (CE), and `u = Mᵀx` is linear in M.
#[inline]
fn hess_rank(x: &[f64], r: &[f64], inv_r: f64, zeta: f64, v: &mut [f64], out: &mut [f64]) {
    let c = r.len();
    let mc = x.len() * c;
    for (j, &xj) in x.iter().enumerate() {
        for (cl, &rc) in r.iter().enumerate() {
            v[j * c + cl] = xj * rc;
        }
    }
    for a in 0..mc {
        let va = v[a] * inv_r;
        if va != 0.0 {
            let row = &mut out[a * mc..(a + 1) * mc];
            for (o, &vb) in row.iter_mut().zip(&v[..mc]) {
                *o -= va * vb;
            }
        }
    }
    for (j, &xj) in x.iter().enumerate() {
        if xj == 0.0 {
            continue;
        }
        for (j2, &xj2) in x.iter().enumerate() {
            let xx = xj * xj2;
            for (cl, &rc) in r.iter().enumerate() {
                out[(j * c + cl) * mc + j2 * c + cl] += xx * (rc + zeta);
            }
        }
    }
}

/// Result of one evaluation pass at λ.
pub(crate) struct Eval {
    /// `Σ_i D^conj(−u_i, p_i)`.
    pub conj: f64,
    /// `Σ_i ‖u_i‖²`.
    pub usq: f64,
    /// `Σ_i z_i (ζu_i − h_i)ᵀ`.
    pub s: Vec<f64>,
    /// `Σ_i z_i h_iᵀ` (only when requested).
    pub s_h: Option<Vec<f64>>,
    /// `Σ_i (z_i z_iᵀ) ⊗ B_i` (only with a plan), raw: per-group `C² × C²` blocks for known
    /// labels, one `(zdim·C)²` block otherwise; [`finish_hessian`] scales and lifts it. Raw sums
    /// add across partitions, which is what a partitioned pass ships.
    pub hess: Option<Vec<f64>>,
}

/// Per-chunk partial sums of a pass.
struct Part {
    conj: f64,
    usq: f64,
    s: Vec<f64>,
    s_h: Vec<f64>,
    /// Labels: `A` blocks of `C⁴`; soft: one `(zdim·C)²` block.
    hess: Vec<f64>,
    /// Sampling weights of the chunk's rows in sampled slots, in row order.
    w: Vec<f64>,
    /// Per-slot sums of `w`.
    wsum: Vec<f64>,
    /// Uniform sampling: rows kept and seen per slot.
    kept: Vec<f64>,
    seen: Vec<f64>,
}

/// One pass: tilts every row at λ and accumulates what the dual objective and gradient (and,
/// with a plan, the Hessian) need.
pub(crate) fn evaluate(
    rows: &Rows<'_>,
    lifted: &Lifted,
    div: Divergence,
    zeta: f64,
    want_h: bool,
    plan: Option<&HessPlan>,
) -> Eval {
    let d = rows.data;
    let c = d.c;
    let sd = rows.zdim * c;
    let labels = matches!(d.memb, Membership::Labels(_));
    // Hessian block layout: per group C²×C² for labels, one (zdim·C)² block otherwise.
    let (blocks, bdim) = if labels { (d.a, c * c) } else { (1, sd) };
    let parts = chunked(d.n, |range| {
        let mut z = vec![0.0; rows.zdim];
        let mut u = vec![0.0; c];
        let mut h = vec![0.0; c];
        let mut y = vec![0.0; c];
        let mut r = vec![0.0; c];
        let mut v = vec![0.0; if plan.is_some() { bdim } else { 0 }];
        let mut part = Part {
            conj: 0.0,
            usq: 0.0,
            s: vec![0.0; sd],
            s_h: if want_h { vec![0.0; sd] } else { Vec::new() },
            hess: if plan.is_some() {
                vec![0.0; blocks * bdim * bdim]
            } else {
                Vec::new()
            },
            w: Vec::new(),
            wsum: vec![0.0; blocks],
            kept: vec![0.0; blocks],
            seen: vec![0.0; blocks],
        };
        for i in range {
            let p = &d.p[i * c..(i + 1) * c];
            rows.u(lifted, i, &mut z, &mut u);
            part.conj += tilt(div, p, &u, &mut h);
            for k in 0..c {
                part.usq += u[k] * u[k];
                y[k] = zeta * u[k] - h[k];
            }
            rows.scatter(i, &z, &y, &mut part.s);
            if want_h {
                rows.scatter(i, &z, &h, &mut part.s_h);
            }
            if let Some(plan) = plan {
                let slot = match &d.memb {
                    Membership::Labels(codes) => codes[i],
                    _ => 0,
                };
                let x = if labels { p } else { &z[..] };
                if plan.importance && !plan.exact(slot) {
                    let rsum = hess_weights(div, p, &h, &mut r);
                    let w = hess_trace(x, &r, rsum, zeta);
                    part.wsum[slot] += w;
                    part.w.push(w);
                } else {
                    part.seen[slot] += 1.0;
                    if plan.keeps(i, slot) {
                        part.kept[slot] += 1.0;
                        let rsum = hess_weights(div, p, &h, &mut r);
                        let blk = &mut part.hess[slot * bdim * bdim..(slot + 1) * bdim * bdim];
                        hess_rank(x, &r, 1.0 / rsum, zeta, &mut v, blk);
                    }
                }
            }
        }
        part
    });
    let mut out = Eval {
        conj: 0.0,
        usq: 0.0,
        s: vec![0.0; sd],
        s_h: want_h.then(|| vec![0.0; sd]),
        hess: None,
    };
    let mut hsum = vec![
        0.0;
        if plan.is_some() {
            blocks * bdim * bdim
        } else {
            0
        }
    ];
    let mut wsum = vec![0.0; blocks];
    let (mut kept, mut seen) = (vec![0.0; blocks], vec![0.0; blocks]);
    let mut weights: Vec<Vec<f64>> = Vec::new();
    for part in parts {
        out.conj += part.conj;
        out.usq += part.usq;
        add_into(&mut out.s, &part.s);
        if let Some(acc) = out.s_h.as_mut() {
            add_into(acc, &part.s_h);
        }
        if plan.is_some() {
            add_into(&mut hsum, &part.hess);
            add_into(&mut wsum, &part.wsum);
            add_into(&mut kept, &part.kept);
            add_into(&mut seen, &part.seen);
            weights.push(part.w);
        }
    }
    rows.finish(&mut out.s);
    if let Some(acc) = out.s_h.as_mut() {
        rows.finish(acc);
    }
    if let Some(plan) = plan {
        // Uniformly sampled (or exact) slots: scale to the group's row count.
        for (b, blk) in hsum.chunks_mut(bdim * bdim).enumerate() {
            let w = if kept[b] > 0.0 {
                seen[b] / kept[b]
            } else {
                0.0
            };
            for x in blk.iter_mut() {
                *x *= w;
            }
        }
        if weights.iter().any(|w| !w.is_empty()) {
            let sampled = sample_hessian(rows, lifted, div, zeta, plan, &weights, &wsum);
            add_into(&mut hsum, &sampled);
        }
        out.hess = Some(hsum);
    }
    out
}

/// The data part of the Hessian in M-coordinates from a pass's raw sums ([`Eval::hess`]):
/// scaled by `1/n` (`n` rows in all, over every partition) and, for known labels
/// (`groups = Some((A, C))`), lifted from the per-group blocks.
pub(crate) fn finish_hessian(
    mut raw: Vec<f64>,
    n: f64,
    groups: Option<(usize, usize)>,
) -> Vec<f64> {
    let inv_n = 1.0 / n;
    for x in raw.iter_mut() {
        *x *= inv_n;
    }
    match groups {
        Some((a, c)) => lift_group_hessians(&raw, a, c),
        None => raw,
    }
}

/// The importance-sampled part of the Hessian sum (see [`HessPlan`]): `weights[k]` are the
/// sampling weights of chunk k's rows in sampled slots (row order), `wsum` their per-slot
/// totals. Only the kept rows are tilted again, so this costs a hash per row plus a full
/// per-row Hessian for about `n_g / strides[g]` rows per slot.
fn sample_hessian(
    rows: &Rows<'_>,
    lifted: &Lifted,
    div: Divergence,
    zeta: f64,
    plan: &HessPlan,
    weights: &[Vec<f64>],
    wsum: &[f64],
) -> Vec<f64> {
    let d = rows.data;
    let c = d.c;
    let labels = matches!(d.memb, Membership::Labels(_));
    let (blocks, bdim) = if labels {
        (d.a, c * c)
    } else {
        (1, rows.zdim * c)
    };
    let slot_of = |i: usize| match &d.memb {
        Membership::Labels(codes) => codes[i],
        _ => 0,
    };
    // τ per slot so that Σ_i w_i/τ = n_g / stride (rows with w_i ≥ τ are always kept).
    let mut counts = vec![0usize; blocks];
    for i in 0..d.n {
        counts[slot_of(i)] += 1;
    }
    let tau: Vec<f64> = (0..blocks)
        .map(|g| {
            let target = (counts[g] as f64 / plan.strides[g].max(1) as f64).max(1.0);
            wsum[g] / target
        })
        .collect();
    let parts = chunked(d.n, |range| {
        let mut acc = vec![0.0; blocks * bdim * bdim];
        let mut z = vec![0.0; rows.zdim];
        let (mut u, mut h, mut r) = (vec![0.0; c], vec![0.0; c], vec![0.0; c]);
        let mut x = vec![0.0; if labels { c } else { rows.zdim }];
        let mut v = vec![0.0; bdim];
        let w = &weights[range.start / CHUNK];
        let mut next = 0;
        for i in range {
            let slot = slot_of(i);
            if !plan.importance || plan.exact(slot) {
                continue;
            }
            let wi = w[next];
            next += 1;
            let q = if tau[slot] > 0.0 {
                (wi / tau[slot]).min(1.0)
            } else {
                1.0
            };
            if q.is_nan() || q <= 0.0 || uniform(i) >= q {
                continue;
            }
            let p = &d.p[i * c..(i + 1) * c];
            rows.u(lifted, i, &mut z, &mut u);
            tilt(div, p, &u, &mut h);
            let rsum = hess_weights(div, p, &h, &mut r);
            // (s·x)(s·x)ᵀ = s²·x xᵀ: scaling x by 1/√q weights the term by 1/q.
            let s = q.sqrt().recip();
            let src = if labels { p } else { &z[..] };
            for (xv, &sv) in x.iter_mut().zip(src) {
                *xv = sv * s;
            }
            let blk = &mut acc[slot * bdim * bdim..(slot + 1) * bdim * bdim];
            hess_rank(&x, &r, 1.0 / rsum, zeta, &mut v, blk);
        }
        acc
    });
    let mut out = vec![0.0; blocks * bdim * bdim];
    for p in parts {
        add_into(&mut out, &p);
    }
    out
}

/// Known labels: `z = [e_g ⊗ p; p]`, so the M-space Hessian has the group block `T_g` at
/// (g, g), (g, p), (p, g) and `Σ_g T_g` at (p, p).
fn lift_group_hessians(t: &[f64], a: usize, c: usize) -> Vec<f64> {
    let cc = c * c;
    let mc = (a + 1) * cc;
    let mut out = vec![0.0; mc * mc];
    for g in 0..a {
        let tg = &t[g * cc * cc..(g + 1) * cc * cc];
        let (og, op) = (g * cc, a * cc);
        for r in 0..cc {
            for col in 0..cc {
                let v = tg[r * cc + col];
                out[(og + r) * mc + og + col] += v;
                out[(og + r) * mc + op + col] += v;
                out[(op + r) * mc + og + col] += v;
                out[(op + r) * mc + op + col] += v;
            }
        }
    }
    out
}

/// `Z̄ = (1/N) Σ_i z_i z_iᵀ` (zdim × zdim), for `Ḡ = (1/N)Σ G_i G_iᵀ`.
pub(crate) fn second_moment(rows: &Rows<'_>) -> Vec<f64> {
    let d = rows.data;
    let zd = rows.zdim;
    let c = d.c;
    let parts = chunked(d.n, |range| {
        let mut z = vec![0.0; zd];
        let mut acc = vec![0.0; zd * zd];
        for i in range {
            match &d.memb {
                Membership::Labels(codes) => {
                    // z has the group block and the p block, both equal to p.
                    z.fill(0.0);
                    let p = &d.p[i * c..(i + 1) * c];
                    z[codes[i] * c..(codes[i] + 1) * c].copy_from_slice(p);
                    z[d.a * c..(d.a + 1) * c].copy_from_slice(p);
                }
                _ => rows.build_z(i, &mut z),
            }
            for (r, &zr) in z.iter().enumerate() {
                if zr != 0.0 {
                    let ar = &mut acc[r * zd..(r + 1) * zd];
                    for (av, &zc) in ar.iter_mut().zip(&z) {
                        *av += zr * zc;
                    }
                }
            }
        }
        acc
    });
    let mut out = vec![0.0; zd * zd];
    for p in parts {
        add_into(&mut out, &p);
    }
    let inv = 1.0 / d.n as f64;
    for v in &mut out {
        *v *= inv;
    }
    out
}

/// Fair probabilities of every row at λ, row-major.
pub(crate) fn project(rows: &Rows<'_>, lifted: &Lifted, div: Divergence) -> Vec<f64> {
    let d = rows.data;
    let c = d.c;
    let parts = chunked(d.n, |range| {
        let mut z = vec![0.0; rows.zdim];
        let mut u = vec![0.0; c];
        let mut out = vec![0.0; range.len() * c];
        for (j, i) in range.enumerate() {
            rows.u(lifted, i, &mut z, &mut u);
            tilt(
                div,
                &d.p[i * c..(i + 1) * c],
                &u,
                &mut out[j * c..(j + 1) * c],
            );
        }
        out
    });
    parts.concat()
}
