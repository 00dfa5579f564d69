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
                for (k, &pk) in p.iter().enumerate() {
                    let wr = &w[k * c..(k + 1) * c];
                    for (uc, &wv) in u.iter_mut().zip(wr) {
                        *uc += pk * wv;
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
                for (k, &pk) in p.iter().enumerate() {
                    let sr = &mut s[(base + k) * c..(base + k + 1) * c];
                    for (sv, &yv) in sr.iter_mut().zip(y) {
                        *sv += pk * yv;
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
}

/// One pass: tilts every row at λ and accumulates what the dual objective and gradient need.
pub(crate) fn evaluate(
    rows: &Rows<'_>,
    lifted: &Lifted,
    div: Divergence,
    zeta: f64,
    want_h: bool,
) -> Eval {
    let d = rows.data;
    let c = d.c;
    let sd = rows.zdim * c;
    let parts = chunked(d.n, |range| {
        let mut z = vec![0.0; rows.zdim];
        let mut u = vec![0.0; c];
        let mut h = vec![0.0; c];
        let mut y = vec![0.0; c];
        let mut s = vec![0.0; sd];
        let mut s_h = if want_h { vec![0.0; sd] } else { Vec::new() };
        let (mut conj, mut usq) = (0.0, 0.0);
        for i in range {
            rows.u(lifted, i, &mut z, &mut u);
            conj += tilt(div, &d.p[i * c..(i + 1) * c], &u, &mut h);
            for k in 0..c {
                usq += u[k] * u[k];
                y[k] = zeta * u[k] - h[k];
            }
            rows.scatter(i, &z, &y, &mut s);
            if want_h {
                rows.scatter(i, &z, &h, &mut s_h);
            }
        }
        (conj, usq, s, s_h)
    });
    let mut out = Eval {
        conj: 0.0,
        usq: 0.0,
        s: vec![0.0; sd],
        s_h: want_h.then(|| vec![0.0; sd]),
    };
    for (conj, usq, s, s_h) in parts {
        out.conj += conj;
        out.usq += usq;
        add_into(&mut out.s, &s);
        if let Some(acc) = out.s_h.as_mut() {
            add_into(acc, &s_h);
        }
    }
    rows.finish(&mut out.s);
    if let Some(acc) = out.s_h.as_mut() {
        rows.finish(acc);
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
