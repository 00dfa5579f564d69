//! Sparse feature rows and the linear model with cross terms `h_w(ξ) = ⟨w, (1, ξ, γ, γ·ξ)⟩`.

use crate::error::{DcOptError, Result, check_finite, check_len};
use fair_data::Groups;
use nalgebra::DMatrix;
use rayon::prelude::*;
use std::ops::Range;

/// Rows below this count are processed on one thread (rayon's split overhead dominates).
const PAR_MIN_ROWS: usize = 2048;

/// Compressed sparse rows (CSR) of a feature matrix.
#[derive(Debug, Clone, PartialEq)]
pub struct SparseRows {
    ncols: usize,
    indptr: Vec<usize>,
    indices: Vec<usize>,
    values: Vec<f64>,
}

impl SparseRows {
    /// Builds CSR data: row `r` holds `indices[indptr[r]..indptr[r+1]]` (strictly increasing
    /// column indices `< ncols`) with `values` alongside.
    ///
    /// # Errors
    /// [`DcOptError::MalformedSparse`] for a bad `indptr`, unsorted or out-of-range indices, or
    /// `indices`/`values` of different lengths; [`DcOptError::NonFinite`] for NaN/∞ values.
    pub fn new(
        ncols: usize,
        indptr: Vec<usize>,
        indices: Vec<usize>,
        values: Vec<f64>,
    ) -> Result<Self> {
        let bad = |reason: &str| DcOptError::MalformedSparse {
            reason: reason.to_string(),
        };
        if indptr.first() != Some(&0) {
            return Err(bad("indptr must start with 0"));
        }
        if indptr.windows(2).any(|w| w[0] > w[1]) {
            return Err(bad("indptr must be non-decreasing"));
        }
        if indptr.last() != Some(&indices.len()) || indices.len() != values.len() {
            return Err(bad(
                "indptr must end at indices.len(), and indices and values must have equal length",
            ));
        }
        for r in 0..indptr.len() - 1 {
            let row = &indices[indptr[r]..indptr[r + 1]];
            if row.windows(2).any(|w| w[0] >= w[1]) || row.last().is_some_and(|&c| c >= ncols) {
                return Err(bad(
                    "column indices must be strictly increasing within a row and < ncols",
                ));
            }
        }
        check_finite("sparse values", &values)?;
        Ok(Self {
            ncols,
            indptr,
            indices,
            values,
        })
    }

    /// The non-zero entries of a dense matrix.
    ///
    /// # Errors
    /// [`DcOptError::NonFinite`] for NaN/∞ entries.
    pub fn from_dense(x: &DMatrix<f64>) -> Result<Self> {
        let mut indptr = Vec::with_capacity(x.nrows() + 1);
        let mut indices = Vec::new();
        let mut values = Vec::new();
        indptr.push(0);
        for r in 0..x.nrows() {
            for c in 0..x.ncols() {
                let v = x[(r, c)];
                if !v.is_finite() {
                    return Err(DcOptError::NonFinite {
                        what: "dense features",
                        index: r * x.ncols() + c,
                    });
                }
                if v != 0.0 {
                    indices.push(c);
                    values.push(v);
                }
            }
            indptr.push(indices.len());
        }
        Ok(Self {
            ncols: x.ncols(),
            indptr,
            indices,
            values,
        })
    }

    /// Number of rows.
    pub fn nrows(&self) -> usize {
        self.indptr.len() - 1
    }
    /// Number of columns `d`.
    pub fn ncols(&self) -> usize {
        self.ncols
    }
    /// Number of stored entries.
    pub fn nnz(&self) -> usize {
        self.indices.len()
    }
    /// Column indices and values of row `r`, or `None` when `r >= nrows()`.
    pub fn get_row(&self, r: usize) -> Option<(&[usize], &[f64])> {
        (r < self.nrows()).then(|| self.row(r))
    }

    #[inline]
    pub(crate) fn row(&self, r: usize) -> (&[usize], &[f64]) {
        let span = self.indptr[r]..self.indptr[r + 1];
        (&self.indices[span.clone()], &self.values[span])
    }
}

/// Dimension `2d + 2` of the cross-term feature map `(1, ξ, γ, γ·ξ)` for `d` features.
pub fn cross_dim(d: usize) -> usize {
    2 * d + 2
}

/// The score `⟨w, (1, ξ, γ, γ·ξ)⟩` of one sparse row with numeric group value `gamma`.
#[inline]
pub(crate) fn cross_score(w: &[f64], d: usize, gamma: f64, cols: &[usize], vals: &[f64]) -> f64 {
    let mut s = w[0] + gamma * w[d + 1];
    for (&c, &v) in cols.iter().zip(vals) {
        s += v * (w[1 + c] + gamma * w[d + 2 + c]);
    }
    s
}

/// Scores of a linear cross-term model `w` (length `2d + 2`) on rows `x` with groups `groups`
/// (group code `k` enters as `γ = k + 1`, the paper's 1/2 coding), in the rows' order.
///
/// # Errors
/// [`DcOptError::LengthMismatch`] when `w`, `x` and `groups` disagree; [`DcOptError::NonFinite`]
/// for a non-finite `w`.
pub fn cross_scores(w: &[f64], x: &SparseRows, groups: &Groups) -> Result<Vec<f64>> {
    let d = x.ncols();
    check_len("model weights (2d + 2)", cross_dim(d), w.len())?;
    check_len("group codes", x.nrows(), groups.len())?;
    check_finite("model weights", w)?;
    let codes = groups.codes();
    let mut out = vec![0.0; x.nrows()];
    out.par_iter_mut()
        .with_min_len(PAR_MIN_ROWS)
        .enumerate()
        .for_each(|(r, o)| {
            let (cols, vals) = x.row(r);
            *o = cross_score(w, d, (codes[r] + 1) as f64, cols, vals);
        });
    Ok(out)
}

/// Training data of the linear cross-term model, reordered by (group, label) so every group and
/// every group × label cell is a contiguous block of rows; stored both by rows (scores) and by
/// columns (gradients `X̃ᵀr` without write conflicts, parallel over columns).
#[derive(Debug, Clone)]
pub struct CrossData {
    d: usize,
    /// Original row index of each stored row.
    order: Vec<usize>,
    rows: SparseRows,
    gamma: Vec<f64>,
    /// Labels as ±1.
    zeta: Vec<f64>,
    groups: Vec<Range<usize>>,
    /// `cells[k][y]`: rows of group `k` with label `y`.
    cells: Vec<[Range<usize>; 2]>,
    colptr: Vec<usize>,
    col_rows: Vec<usize>,
    col_vals: Vec<f64>,
}

impl CrossData {
    /// Builds the training data from features, 0/1 labels and groups (≥ 2 non-empty groups).
    ///
    /// # Errors
    /// [`DcOptError::Empty`], [`DcOptError::LengthMismatch`], [`DcOptError::LabelOutOfRange`],
    /// [`DcOptError::TooFewGroups`], [`DcOptError::EmptyGroup`].
    pub fn new(x: &SparseRows, labels: &[usize], groups: &Groups) -> Result<Self> {
        let n = x.nrows();
        if n == 0 {
            return Err(DcOptError::Empty {
                what: "training rows",
            });
        }
        check_len("labels", n, labels.len())?;
        check_len("group codes", n, groups.len())?;
        if let Some((index, &label)) = labels.iter().enumerate().find(|(_, y)| **y > 1) {
            return Err(DcOptError::LabelOutOfRange { label, index });
        }
        let g = groups.n_groups();
        if g < 2 {
            return Err(DcOptError::TooFewGroups { got: g });
        }
        let codes = groups.codes();
        let counts = groups.counts();
        if let Some(group) = counts.iter().position(|&c| c == 0) {
            return Err(DcOptError::EmptyGroup {
                group,
                what: "the training rows",
            });
        }
        let mut order: Vec<usize> = (0..n).collect();
        order.sort_by_key(|&i| (codes[i], labels[i], i));
        let d = x.ncols();
        let mut indptr = Vec::with_capacity(n + 1);
        let mut indices = Vec::with_capacity(x.nnz());
        let mut values = Vec::with_capacity(x.nnz());
        indptr.push(0);
        for &i in &order {
            let (c, v) = x.row(i);
            indices.extend_from_slice(c);
            values.extend_from_slice(v);
            indptr.push(indices.len());
        }
        let rows = SparseRows {
            ncols: d,
            indptr,
            indices,
            values,
        };
        let gamma: Vec<f64> = order.iter().map(|&i| (codes[i] + 1) as f64).collect();
        let zeta: Vec<f64> = order
            .iter()
            .map(|&i| if labels[i] == 1 { 1.0 } else { -1.0 })
            .collect();
        let mut groups_r = Vec::with_capacity(g);
        let mut cells = Vec::with_capacity(g);
        let mut start = 0;
        for &count in &counts {
            let end = start + count;
            let neg = order[start..end]
                .iter()
                .filter(|&&i| labels[i] == 0)
                .count();
            groups_r.push(start..end);
            cells.push([start..start + neg, start + neg..end]);
            start = end;
        }
        // Column-major copy.
        let mut colptr = vec![0usize; d + 1];
        for &c in &rows.indices {
            colptr[c + 1] += 1;
        }
        for c in 0..d {
            colptr[c + 1] += colptr[c];
        }
        let mut fill = colptr.clone();
        let mut col_rows = vec![0usize; rows.nnz()];
        let mut col_vals = vec![0.0; rows.nnz()];
        for r in 0..n {
            let (cs, vs) = rows.row(r);
            for (&c, &v) in cs.iter().zip(vs) {
                col_rows[fill[c]] = r;
                col_vals[fill[c]] = v;
                fill[c] += 1;
            }
        }
        Ok(Self {
            d,
            order,
            rows,
            gamma,
            zeta,
            groups: groups_r,
            cells,
            colptr,
            col_rows,
            col_vals,
        })
    }

    /// Number of rows `n`.
    pub fn n_rows(&self) -> usize {
        self.gamma.len()
    }
    /// Number of raw features `d`.
    pub fn n_features(&self) -> usize {
        self.d
    }
    /// Dimension `2d + 2` of the model weights.
    pub fn dim(&self) -> usize {
        cross_dim(self.d)
    }
    /// Number of groups.
    pub fn n_groups(&self) -> usize {
        self.groups.len()
    }
    /// Stored rows of group `k` (stored order); `None` for an unknown group.
    pub fn group_rows(&self, k: usize) -> Option<Range<usize>> {
        self.groups.get(k).cloned()
    }
    /// Stored rows of group `k` with label `y` (0 or 1); `None` for an unknown group or label.
    pub fn cell_rows(&self, k: usize, y: usize) -> Option<Range<usize>> {
        self.cells.get(k).and_then(|c| c.get(y)).cloned()
    }
    #[inline]
    pub(crate) fn group(&self, k: usize) -> Range<usize> {
        self.groups[k].clone()
    }
    #[inline]
    pub(crate) fn cell(&self, k: usize, y: usize) -> Range<usize> {
        self.cells[k][y].clone()
    }
    /// Original index of each stored row.
    pub fn order(&self) -> &[usize] {
        &self.order
    }
    /// Labels `ζ ∈ {−1, +1}` in stored order.
    pub fn zeta(&self) -> &[f64] {
        &self.zeta
    }

    /// The non-zeros of the cross features `x̃_r = (1, ξ, γ, γξ)` of stored row `r` into
    /// `idx`/`val` (cleared first; indices distinct).
    pub(crate) fn cross_row(&self, r: usize, idx: &mut Vec<usize>, val: &mut Vec<f64>) {
        idx.clear();
        val.clear();
        let (d, gamma) = (self.d, self.gamma[r]);
        idx.push(0);
        val.push(1.0);
        idx.push(d + 1);
        val.push(gamma);
        let (cols, vals) = self.rows.row(r);
        for (&c, &v) in cols.iter().zip(vals) {
            idx.push(1 + c);
            val.push(v);
            idx.push(d + 2 + c);
            val.push(gamma * v);
        }
    }

    /// Scores `⟨w, x̃_i⟩` of every stored row into `out` (parallel over rows, no allocation).
    pub(crate) fn scores_into(&self, w: &[f64], out: &mut [f64]) {
        let d = self.d;
        out.par_iter_mut()
            .with_min_len(PAR_MIN_ROWS)
            .enumerate()
            .for_each(|(r, o)| {
                let (cols, vals) = self.rows.row(r);
                *o = cross_score(w, d, self.gamma[r], cols, vals);
            });
    }

    /// `out += Σ_{i ∈ rows} coef[i] · x̃_i` (`out.len() == 2d + 2`), parallel over columns.
    pub(crate) fn add_xt_mul(&self, coef: &[f64], rows: Range<usize>, out: &mut [f64]) {
        let d = self.d;
        let (s1, sg) = rows.clone().fold((0.0, 0.0), |(a, b), r| {
            (a + coef[r], b + coef[r] * self.gamma[r])
        });
        out[0] += s1;
        out[d + 1] += sg;
        let (head, tail) = out.split_at_mut(d + 1);
        let plain = &mut head[1..];
        let crossed = &mut tail[1..];
        plain
            .par_iter_mut()
            .zip(crossed.par_iter_mut())
            .enumerate()
            .with_min_len(8)
            .for_each(|(c, (p, q))| {
                let span = self.colptr[c]..self.colptr[c + 1];
                let rs = &self.col_rows[span.clone()];
                let vs = &self.col_vals[span.clone()];
                let lo = rs.partition_point(|&r| r < rows.start);
                let hi = rs.partition_point(|&r| r < rows.end);
                let (mut a, mut b) = (0.0, 0.0);
                for (&r, &v) in rs[lo..hi].iter().zip(&vs[lo..hi]) {
                    let t = coef[r] * v;
                    a += t;
                    b += t * self.gamma[r];
                }
                *p += a;
                *q += b;
            });
    }

    /// Number of fixed row chunks of the deterministic parallel sums (the length of the
    /// `partials` buffer of [`CrossData::logistic_loss`]).
    pub(crate) fn n_chunks(&self) -> usize {
        self.n_rows().div_ceil(PAR_MIN_ROWS)
    }

    /// Mean logistic loss `(1/n) Σ ln(1 + exp(−ζ_i s_i))` of scores `s`. The sum runs over fixed
    /// chunks (partial sums in `partials`, length [`CrossData::n_chunks`]) added in order, so the
    /// result is bit-identical whatever the thread count or scheduling.
    pub(crate) fn logistic_loss(&self, scores: &[f64], partials: &mut [f64]) -> f64 {
        let n = scores.len() as f64;
        partials
            .par_iter_mut()
            .zip(scores.par_chunks(PAR_MIN_ROWS))
            .zip(self.zeta.par_chunks(PAR_MIN_ROWS))
            .for_each(|((p, s), z)| {
                *p = s
                    .iter()
                    .zip(z)
                    .map(|(&s, &z)| crate::params::log1p_exp(-z * s))
                    .sum::<f64>();
            });
        partials.iter().sum::<f64>() / n
    }

    /// Writes the per-row coefficients of the logistic-loss gradient into `coef`
    /// (`∇ = Σ coef_i x̃_i`).
    pub(crate) fn logistic_coef(&self, scores: &[f64], coef: &mut [f64]) {
        let n = scores.len() as f64;
        coef.par_iter_mut()
            .with_min_len(PAR_MIN_ROWS)
            .zip(scores.par_iter())
            .zip(self.zeta.par_iter())
            .for_each(|((c, &s), &z)| *c = -z * crate::params::logistic(-z * s) / n);
    }
}
