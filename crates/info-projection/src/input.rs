//! Validation of the user's probability matrices and group information, and their compact
//! row-major storage (O(N·C) for the scores, O(N) / O(N·A) / O(N·C·A) for the groups).

use crate::error::{InfoProjectionError as E, Result, invalid};
use crate::params::RowPolicy;
use fair_data::Groups;
use nalgebra::DMatrix;

/// Tolerance on row sums under [`RowPolicy::Strict`].
pub(crate) const ROW_SUM_TOL: f64 = 1e-6;

/// Group information for every row: known group labels, or group-membership probabilities.
///
/// | Variant | shape | used as `s_a(x, c)` |
/// |---|---|---|
/// | `Labels` | one code per row | `1{S = a}` (the paper's choice when S is a feature) |
/// | `ProbaGivenX` | N × A, rows in Δ_A | `P(S=a│X=x)` for every class c |
/// | `ProbaGivenXY` | C matrices N × A, rows in Δ_A | `P(S=a│X=x, Y=c)` from matrix c |
///
/// Intersectional groups are one categorical attribute with one group per combination:
/// build them with [`Groups::intersect`] (or `Dataset::intersection`).
///
/// `&Groups` converts into `GroupInfo::Labels`, so `fit(&probs, &groups)` works directly.
#[derive(Debug, Clone, Copy)]
pub enum GroupInfo<'a> {
    /// Known group labels.
    Labels(&'a Groups),
    /// `P(S│X)`: an N × A matrix whose rows are probability vectors.
    ProbaGivenX(&'a DMatrix<f64>),
    /// `P(S│X, Y=c)` for each class c: C matrices of size N × A.
    ProbaGivenXY(&'a [DMatrix<f64>]),
}

impl<'a> From<&'a Groups> for GroupInfo<'a> {
    fn from(g: &'a Groups) -> Self {
        GroupInfo::Labels(g)
    }
}

/// Which kind of group information a projector was fitted with (prediction must match).
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum GroupKind {
    Labels(Vec<String>),
    ProbaGivenX,
    ProbaGivenXY,
}

/// Group membership of every row, stored row-major.
#[derive(Debug, Clone)]
pub(crate) enum Membership {
    /// One group code per row.
    Labels(Vec<usize>),
    /// `s[i·A + a]`.
    GivenX(Vec<f64>),
    /// `s[(i·C + c)·A + a]`.
    GivenXY(Vec<f64>),
}

/// Validated data of one call: floored base scores (row-major) and membership.
#[derive(Debug, Clone)]
pub(crate) struct Prepared {
    pub n: usize,
    pub c: usize,
    pub a: usize,
    pub p: Vec<f64>,
    pub memb: Membership,
    pub kind: GroupKind,
}

impl Prepared {
    /// `s_a(x_i, c)`.
    #[inline]
    pub fn s(&self, i: usize, c: usize, a: usize) -> f64 {
        match &self.memb {
            Membership::Labels(codes) => {
                if codes[i] == a {
                    1.0
                } else {
                    0.0
                }
            }
            Membership::GivenX(s) => s[i * self.a + a],
            Membership::GivenXY(s) => s[(i * self.c + c) * self.a + a],
        }
    }
}

/// Validates an N × C probability matrix and returns it row-major, floored.
pub(crate) fn prepare_probs(
    probs: &DMatrix<f64>,
    floor: f64,
    policy: RowPolicy,
) -> Result<(usize, usize, Vec<f64>)> {
    let what = "base probabilities";
    let (n, c) = probs.shape();
    if c < 2 {
        return Err(E::TooFewClasses { n_classes: c });
    }
    if n == 0 {
        return Err(E::Empty { what });
    }
    if floor * c as f64 >= 1.0 {
        return Err(invalid(
            "floor",
            floor,
            "a floor below 1/C (C = number of classes)",
        ));
    }
    let mut out = vec![0.0; n * c];
    for i in 0..n {
        let row = &mut out[i * c..(i + 1) * c];
        let mut sum = 0.0;
        let mut low = false;
        for (j, r) in row.iter_mut().enumerate() {
            let v = probs[(i, j)];
            check_prob(what, v, i, j)?;
            low |= v < floor;
            *r = v;
            sum += v;
        }
        let renorm = match policy {
            RowPolicy::Strict => {
                if (sum - 1.0).abs() > ROW_SUM_TOL {
                    return Err(E::RowSumNotOne { what, row: i, sum });
                }
                low
            }
            RowPolicy::Renormalize => {
                if sum <= 0.0 {
                    return Err(E::RowSumNotOne { what, row: i, sum });
                }
                true
            }
        };
        if renorm {
            let mut s = 0.0;
            for r in row.iter_mut() {
                *r = r.max(floor);
                s += *r;
            }
            for r in row.iter_mut() {
                *r /= s;
            }
        }
    }
    Ok((n, c, out))
}

fn check_prob(what: &'static str, v: f64, row: usize, col: usize) -> Result<()> {
    if !v.is_finite() {
        return Err(E::NonFinite {
            what,
            row,
            col,
            value: v,
        });
    }
    if !(0.0..=1.0).contains(&v) {
        return Err(E::ProbabilityOutOfRange {
            what,
            row,
            col,
            value: v,
        });
    }
    Ok(())
}

/// Validates a membership matrix (N × A, rows in the simplex) and appends it row-major.
fn push_membership(
    what: &'static str,
    m: &DMatrix<f64>,
    n: usize,
    a: usize,
    policy: RowPolicy,
    out: &mut [f64],
    stride_rows: Option<(usize, usize)>,
) -> Result<()> {
    if m.nrows() != n {
        return Err(E::LengthMismatch {
            what,
            expected: n,
            got: m.nrows(),
        });
    }
    if m.ncols() != a {
        return Err(E::LengthMismatch {
            what: "group columns",
            expected: a,
            got: m.ncols(),
        });
    }
    for i in 0..n {
        let mut sum = 0.0;
        for j in 0..a {
            let v = m[(i, j)];
            check_prob(what, v, i, j)?;
            sum += v;
        }
        let scale = match policy {
            RowPolicy::Strict if (sum - 1.0).abs() > ROW_SUM_TOL => {
                return Err(E::RowSumNotOne { what, row: i, sum });
            }
            RowPolicy::Strict => 1.0,
            RowPolicy::Renormalize if sum <= 0.0 => {
                return Err(E::RowSumNotOne { what, row: i, sum });
            }
            RowPolicy::Renormalize => 1.0 / sum,
        };
        let base = match stride_rows {
            None => i * a,
            Some((c, cls)) => (i * c + cls) * a,
        };
        for j in 0..a {
            out[base + j] = m[(i, j)] * scale;
        }
    }
    Ok(())
}

/// Validates the group information for `n` rows and `c` classes.
pub(crate) fn prepare_groups(
    info: &GroupInfo<'_>,
    n: usize,
    c: usize,
    policy: RowPolicy,
) -> Result<(usize, Membership, GroupKind)> {
    match info {
        GroupInfo::Labels(g) => {
            if g.len() != n {
                return Err(E::LengthMismatch {
                    what: "group labels",
                    expected: n,
                    got: g.len(),
                });
            }
            if g.n_groups() < 2 {
                return Err(E::TooFewGroups {
                    n_groups: g.n_groups(),
                });
            }
            Ok((
                g.n_groups(),
                Membership::Labels(g.codes().to_vec()),
                GroupKind::Labels(g.names().to_vec()),
            ))
        }
        GroupInfo::ProbaGivenX(m) => {
            let a = m.ncols();
            if a < 2 {
                return Err(E::TooFewGroups { n_groups: a });
            }
            let mut s = vec![0.0; n * a];
            push_membership("P(S|X)", m, n, a, policy, &mut s, None)?;
            Ok((a, Membership::GivenX(s), GroupKind::ProbaGivenX))
        }
        GroupInfo::ProbaGivenXY(ms) => {
            if ms.len() != c {
                return Err(E::LengthMismatch {
                    what: "P(S|X,Y) matrices (one per class)",
                    expected: c,
                    got: ms.len(),
                });
            }
            let a = ms[0].ncols();
            if a < 2 {
                return Err(E::TooFewGroups { n_groups: a });
            }
            let mut s = vec![0.0; n * c * a];
            for (cls, m) in ms.iter().enumerate() {
                push_membership("P(S|X,Y)", m, n, a, policy, &mut s, Some((c, cls)))?;
            }
            Ok((a, Membership::GivenXY(s), GroupKind::ProbaGivenXY))
        }
    }
}

/// Validates both inputs.
pub(crate) fn prepare(
    probs: &DMatrix<f64>,
    groups: &GroupInfo<'_>,
    floor: f64,
    policy: RowPolicy,
) -> Result<Prepared> {
    let (n, c, p) = prepare_probs(probs, floor, policy)?;
    let (a, memb, kind) = prepare_groups(groups, n, c, policy)?;
    Ok(Prepared {
        n,
        c,
        a,
        p,
        memb,
        kind,
    })
}
