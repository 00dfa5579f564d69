//! Model (49), partial group AUC, as a [`DcProblem`].
//!
//! For every ordered pair of groups `(k, k')`, with `a` the scores of group `k` and `b` those of
//! group `k'`, each sorted from the top, and `n^α = ⌈α n⌉`, `n^β = ⌈β n⌉` per group:
//!
//! ```text
//! N_{kk'}(w) / Den ≤ ½ + κ,   N = Σ_{i = n_k^α+1}^{n_k^β} Σ_{j = n_{k'}^α+1}^{n_{k'}^β} σ(a_[i] − b_[j]),
//! Den = (n_k^β − n_k^α)(n_{k'}^β − n_{k'}^α).
//! ```
//!
//! # How the band (which depends on `w`) enters the DC split
//! The bands are never frozen: the split is exact at every `w`, and the band at the current `w`
//! selects the active terms of the subgradients. It follows Example D.7's two steps: the band of
//! `k` is a top-`m` sum, the band of `k'` is handled through the inner sums `u_j` rather than the
//! scores. The paper's Example D.7 relies on ρ-weak convexity of the logistic σ; the hard
//! sigmoid is not weakly convex (it has a concave kink), so this crate uses instead a split
//! `σ = σ⁺ − σ⁻` into **convex non-decreasing** parts, which covers both surrogates:
//!
//! ```text
//! hard sigmoid: σ⁺(x) = max{x + ½, 0},          σ⁻(x) = max{x − ½, 0}
//! logistic:     σ⁺(x) = σ(x) + ln(1 + eˣ),       σ⁻(x) = ln(1 + eˣ)     ((σ + softplus)'' = 2σ'(1 − σ) ≥ 0)
//! ```
//!
//! 1. `u_j^{m,τ}(w) = Σ_{i ≤ m} σ^τ(a_[i] − b_j)`. Because σ^τ is non-decreasing, the top `m` of
//!    `a` maximise the sum over all `m`-subsets, so `u_j^{m,τ}` is a max of convex functions of
//!    `w`: convex.
//! 2. `u_j` is non-increasing in `b_j`, so the sum over the top `l` of `b` equals the sum of the
//!    `l` smallest `u_j` = `Σ_j u_j − Top_{n'−l}(u)`, with `Top_r` the (convex) sum of the `r`
//!    largest. (This is D.7's reordering "⟨j⟩ = j-th smallest G_j".)
//! 3. Inclusion–exclusion over the four corners `(m, l) ∈ {α, β}²` cancels every `Σ_j u_j`, so
//!    with `T^τ(m, l) := Top_{n' − n'^l}(u^{n^m, τ})`:
//!
//! ```text
//! f⁺ = [T⁻(β,β) + T⁻(α,α) + T⁺(α,β) + T⁺(β,α)] / Den
//! f⁻ = [T⁺(β,β) + T⁺(α,α) + T⁻(α,β) + T⁻(β,α)] / Den + ½ + κ
//! ```
//!
//! # Cost
//! Hard sigmoid: per group a sort of the scores in `prepare`, then every `u_j` by binary search
//! in the prefix sums of the sorted top band, every `Top_r` by selection, every subgradient
//! through a difference array: `O(n log n)` per evaluation, no pair is materialised. Logistic:
//! `u_j` has no closed form, so it is a direct loop over the `n_k^β · n_{k'}` pairs (no
//! allocation, but quadratic time — use it on small problems; the repro uses the hard sigmoid).

use crate::data::CrossData;
use crate::error::{DcOptError, Result};
use crate::params::{Surrogate, log1p_exp, logistic};
use crate::problem::{DcProblem, Part};
use fair_metrics::partial::PercentileInterval;
use std::ops::Range;

/// `(⌈α n⌉, ⌈β n⌉)`; the 1e-9 keeps e.g. `0.3 · 10` from rounding up to 4. Same rule as
/// `fair_metrics::partial::partial_group_auc`.
pub(crate) fn band_counts(n: usize, alpha: f64, beta: f64) -> (usize, usize) {
    let c = |p: f64| ((p * n as f64 - 1e-9).ceil().max(0.0) as usize).min(n);
    (c(alpha), c(beta))
}

/// Scratch memory of [`PartialGauc`].
#[derive(Debug, Clone)]
pub struct GaucWorkspace {
    scores: Vec<f64>,
    /// Stored rows, sorted by descending score within each group's segment.
    order: Vec<usize>,
    /// `prefix[start_k + k + i]` = sum of the `i` largest scores of group `k`.
    prefix: Vec<f64>,
    u: Vec<f64>,
    cnt: Vec<usize>,
    pos: Vec<usize>,
    diff: Vec<f64>,
    coef: Vec<f64>,
    partials: Vec<f64>,
}

/// Model (49): `min f_0(w)` (mean logistic loss) s.t. the partial group AUC of every ordered
/// group pair is at most `½ + κ`; see the module documentation of `dc_opt::gauc` for the DC split.
///
/// Constraint `1 + c` belongs to the `c`-th ordered pair `(k, k')`, `k ≠ k'`, in row-major order.
#[derive(Debug, Clone)]
pub struct PartialGauc<'a> {
    data: &'a CrossData,
    /// Per group `(n^α, n^β)`.
    bands: Vec<(usize, usize)>,
    pairs: Vec<(usize, usize)>,
    kappa: f64,
    surrogate: Surrogate,
    max_group: usize,
}

impl<'a> PartialGauc<'a> {
    /// Model (49) on `data` for the percentile interval `interval` and tolerance `kappa`.
    ///
    /// # Errors
    /// [`DcOptError::InvalidParameter`] for κ outside `[0, ½]` (the AUC is at most 1);
    /// [`DcOptError::TooFewGroups`] for fewer than two groups; [`DcOptError::EmptyGroup`] when a
    /// group's band `⌈α n_k⌉ + 1 ..= ⌈β n_k⌉` holds no row (widen `I` or merge the group).
    pub fn new(
        data: &'a CrossData,
        interval: PercentileInterval,
        kappa: f64,
        surrogate: Surrogate,
    ) -> Result<Self> {
        if !(kappa.is_finite() && (0.0..=0.5).contains(&kappa)) {
            return Err(DcOptError::InvalidParameter {
                name: "kappa",
                value: format!("{kappa}"),
                expected: "κ in [0, 0.5] (the constraint is AUC ≤ ½ + κ)",
            });
        }
        let g = data.n_groups();
        if g < 2 {
            return Err(DcOptError::TooFewGroups { got: g });
        }
        let mut bands = Vec::with_capacity(g);
        for k in 0..g {
            let (lo, hi) = band_counts(data.group(k).len(), interval.alpha(), interval.beta());
            if hi <= lo {
                return Err(DcOptError::EmptyGroup {
                    group: k,
                    what: "its percentile band ⌈αn⌉+1..=⌈βn⌉ (widen I)",
                });
            }
            bands.push((lo, hi));
        }
        let pairs = (0..g)
            .flat_map(|a| (0..g).filter(move |&b| b != a).map(move |b| (a, b)))
            .collect();
        let max_group = (0..g).map(|k| data.group(k).len()).max().unwrap_or(0);
        Ok(Self {
            data,
            bands,
            pairs,
            kappa,
            surrogate,
            max_group,
        })
    }

    /// The feasible start `w = 0`: all scores tie, every pair's AUC is `σ(0) = ½`.
    pub fn initial_point(&self) -> Vec<f64> {
        vec![0.0; self.dim()]
    }

    /// The ordered group pair of constraint `i ≥ 1`.
    pub fn pair(&self, i: usize) -> Option<(usize, usize)> {
        i.checked_sub(1).and_then(|c| self.pairs.get(c).copied())
    }

    fn fits(&self, ws: &GaucWorkspace) -> bool {
        let n = self.data.n_rows();
        ws.scores.len() == n
            && ws.order.len() == n
            && ws.prefix.len() == n + self.data.n_groups()
            && ws.u.len() == self.max_group
            && ws.coef.len() == n
            && ws.partials.len() == self.data.n_chunks()
    }

    fn buffers_ok(&self, x: &[f64], out: usize, want: usize, ws: &GaucWorkspace) -> bool {
        x.len() == self.dim() && out == want && self.fits(ws)
    }

    /// The four `(m, l, τ)` terms of one part: `τ = −` pairs `l = m` in `f⁺`, `l ≠ m` in `f⁻`.
    fn terms(part: Part) -> [(bool, bool, bool); 4] {
        // (m is β, l is β, τ is +)
        match part {
            Part::Plus => [
                (true, true, false),
                (false, false, false),
                (false, true, true),
                (true, false, true),
            ],
            Part::Minus => [
                (true, true, true),
                (false, false, true),
                (false, true, false),
                (true, false, false),
            ],
        }
    }

    fn den(&self, k: usize, kp: usize) -> f64 {
        let (a0, a1) = self.bands[k];
        let (b0, b1) = self.bands[kp];
        ((a1 - a0) * (b1 - b0)) as f64
    }

    /// `u_j^{m,τ}` for every row `j` of group `kp` into `ws.u` (and the active counts into
    /// `ws.cnt` for the hard sigmoid).
    fn fill_u(&self, ws: &mut GaucWorkspace, k: usize, kp: usize, m: usize, plus: bool) {
        let rk = self.data.group(k);
        let rkp = self.data.group(kp);
        let top = &ws.order[rk.start..rk.start + m];
        let pre = &ws.prefix[rk.start + k..rk.start + k + m + 1];
        for (jj, r) in rkp.enumerate() {
            let b = ws.scores[r];
            match self.surrogate {
                Surrogate::HardSigmoid => {
                    let thr = if plus { b - 0.5 } else { b + 0.5 };
                    let c = top.partition_point(|&i| ws.scores[i] > thr);
                    ws.cnt[jj] = c;
                    ws.u[jj] = pre[c] - c as f64 * thr;
                }
                Surrogate::Logistic => {
                    ws.u[jj] = top
                        .iter()
                        .map(|&i| mono_value(ws.scores[i] - b, plus))
                        .sum();
                }
            }
        }
    }

    /// Positions (within `kp`'s segment) of the `r` largest `u` into `ws.pos[..r]`; returns
    /// their sum.
    fn top_r(ws: &mut GaucWorkspace, len: usize, r: usize) -> f64 {
        if r == 0 {
            return 0.0;
        }
        let (u, pos) = (&ws.u, &mut ws.pos[..len]);
        for (j, p) in pos.iter_mut().enumerate() {
            *p = j;
        }
        if r < len {
            pos.select_nth_unstable_by(r - 1, |&x, &y| u[y].total_cmp(&u[x]));
        }
        pos[..r].iter().map(|&j| u[j]).sum()
    }

    /// Value of one part of constraint `(k, kp)`, and with `grad = Some(s)` adds `s ·` its
    /// subgradient's per-row coefficients into `ws.coef`.
    fn part_value(
        &self,
        ws: &mut GaucWorkspace,
        part: Part,
        k: usize,
        kp: usize,
        grad: Option<f64>,
    ) -> f64 {
        let (na, nb) = self.bands[k];
        let (npa, npb) = self.bands[kp];
        let rk = self.data.group(k);
        let rkp = self.data.group(kp);
        let np = rkp.len();
        let mut total = 0.0;
        for (m_beta, l_beta, plus) in Self::terms(part) {
            let m = if m_beta { nb } else { na };
            let r = np - if l_beta { npb } else { npa };
            if m == 0 || r == 0 {
                continue;
            }
            self.fill_u(ws, k, kp, m, plus);
            total += Self::top_r(ws, np, r);
            if let Some(s) = grad {
                self.add_term_coef(ws, &rk, &rkp, m, r, plus, s);
            }
        }
        total
    }

    /// `s · ∇T` as per-row coefficients for the term whose `u`/`pos` are in `ws`.
    #[allow(clippy::too_many_arguments)]
    fn add_term_coef(
        &self,
        ws: &mut GaucWorkspace,
        rk: &Range<usize>,
        rkp: &Range<usize>,
        m: usize,
        r: usize,
        plus: bool,
        s: f64,
    ) {
        match self.surrogate {
            Surrogate::HardSigmoid => {
                let diff = &mut ws.diff[..=m];
                diff.fill(0.0);
                for &jj in &ws.pos[..r] {
                    let c = ws.cnt[jj];
                    diff[0] += s;
                    diff[c] -= s;
                    ws.coef[rkp.start + jj] -= s * c as f64;
                }
                let mut run = 0.0;
                for (i, d) in diff[..m].iter().enumerate() {
                    run += d;
                    ws.coef[ws.order[rk.start + i]] += run;
                }
            }
            Surrogate::Logistic => {
                for q in 0..r {
                    let jj = ws.pos[q];
                    let row_j = rkp.start + jj;
                    let b = ws.scores[row_j];
                    for t in 0..m {
                        let i = ws.order[rk.start + t];
                        let d = s * mono_deriv(ws.scores[i] - b, plus);
                        ws.coef[i] += d;
                        ws.coef[row_j] -= d;
                    }
                }
            }
        }
    }

    fn fill(&self, part: Part, x: &[f64], ws: &mut GaucWorkspace, out: &mut [f64], obj: bool) {
        if !self.buffers_ok(x, out.len(), self.n_constraints() + 1, ws) {
            out.fill(f64::NAN);
            return;
        }
        if obj {
            out[0] = match part {
                Part::Plus => self.data.logistic_loss(&ws.scores, &mut ws.partials),
                Part::Minus => 0.0,
            };
        }
        for (c, &(k, kp)) in self.pairs.iter().enumerate() {
            let v = self.part_value(ws, part, k, kp, None) / self.den(k, kp);
            out[1 + c] = match part {
                Part::Plus => v,
                Part::Minus => v + 0.5 + self.kappa,
            };
        }
    }
}

/// The logistic split's convex non-decreasing parts: `σ + softplus` and `softplus`.
fn mono_value(x: f64, plus: bool) -> f64 {
    let sp = log1p_exp(x);
    if plus { logistic(x) + sp } else { sp }
}

fn mono_deriv(x: f64, plus: bool) -> f64 {
    let s = logistic(x);
    if plus { s * (1.0 - s) + s } else { s }
}

impl DcProblem for PartialGauc<'_> {
    type Workspace = GaucWorkspace;

    fn dim(&self) -> usize {
        self.data.dim()
    }
    fn n_constraints(&self) -> usize {
        self.pairs.len()
    }
    fn workspace(&self) -> GaucWorkspace {
        let n = self.data.n_rows();
        let mg = self.max_group;
        GaucWorkspace {
            scores: vec![0.0; n],
            order: (0..n).collect(),
            prefix: vec![0.0; n + self.data.n_groups()],
            u: vec![0.0; mg],
            cnt: vec![0; mg],
            pos: vec![0; mg],
            diff: vec![0.0; mg + 1],
            coef: vec![0.0; n],
            partials: vec![0.0; self.data.n_chunks()],
        }
    }
    fn prepare(&self, x: &[f64], ws: &mut GaucWorkspace) {
        if !self.fits(ws) {
            *ws = self.workspace();
        }
        if x.len() != self.dim() {
            ws.scores.fill(f64::NAN);
            return;
        }
        self.data.scores_into(x, &mut ws.scores);
        for k in 0..self.data.n_groups() {
            let rows = self.data.group(k);
            let seg = &mut ws.order[rows.clone()];
            for (o, r) in seg.iter_mut().zip(rows.clone()) {
                *o = r;
            }
            let s = &ws.scores;
            seg.sort_unstable_by(|&a, &b| s[b].total_cmp(&s[a]));
            let base = rows.start + k;
            ws.prefix[base] = 0.0;
            for (t, &r) in ws.order[rows.clone()].iter().enumerate() {
                ws.prefix[base + t + 1] = ws.prefix[base + t] + s[r];
            }
        }
    }
    fn values(&self, part: Part, x: &[f64], ws: &mut GaucWorkspace, out: &mut [f64]) {
        self.fill(part, x, ws, out, true);
    }
    fn constraint_values(&self, part: Part, x: &[f64], ws: &mut GaucWorkspace, out: &mut [f64]) {
        self.fill(part, x, ws, out, false);
    }
    fn objective_value(
        &self,
        part: Part,
        x: &[f64],
        ws: &mut GaucWorkspace,
        scratch: &mut [f64],
    ) -> f64 {
        if !self.buffers_ok(x, scratch.len(), self.n_constraints() + 1, ws) {
            return f64::NAN;
        }
        match part {
            Part::Plus => self.data.logistic_loss(&ws.scores, &mut ws.partials),
            Part::Minus => 0.0,
        }
    }
    fn subgradient(
        &self,
        part: Part,
        i: usize,
        x: &[f64],
        ws: &mut GaucWorkspace,
        out: &mut [f64],
    ) {
        if !self.buffers_ok(x, out.len(), self.dim(), ws) || i > self.n_constraints() {
            out.fill(f64::NAN);
            return;
        }
        out.fill(0.0);
        let all = 0..self.data.n_rows();
        if i == 0 {
            if part == Part::Plus {
                self.data.logistic_coef(&ws.scores, &mut ws.coef);
                self.data.add_xt_mul(&ws.coef, all, out);
            }
            return;
        }
        let (k, kp) = self.pairs[i - 1];
        let (rk, rkp) = (self.data.group(k), self.data.group(kp));
        ws.coef[rk.clone()].fill(0.0);
        ws.coef[rkp.clone()].fill(0.0);
        let s = 1.0 / self.den(k, kp);
        self.part_value(ws, part, k, kp, Some(s));
        self.data.add_xt_mul(&ws.coef, rk, out);
        self.data.add_xt_mul(&ws.coef, rkp, out);
    }
}
