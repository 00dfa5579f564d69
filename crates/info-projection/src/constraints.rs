//! The constraint rows `G(x)` in factored (sparse) form.
//!
//! Every row of every criterion is linear in the lifted per-sample vector
//!
//! ```text
//! z(x) = [ s_1(x,·)⊙p(x), …, s_A(x,·)⊙p(x), p(x) ] ∈ R^{(A+1)C}
//! ```
//! through a small fixed sparse map `L_k ∈ R^{(A+1)C × C}`: `G_k(x) = z(x)ᵀ L_k` (a row in R^C).
//! Hence `G(x)ᵀλ = M(λ)ᵀ z(x)` with `M(λ) = Σ_k λ_k L_k`, and `Σ_i G_i y_i` has entries
//! `⟨L_k, Σ_i z_i y_iᵀ⟩`: one pass over the data with O((A+1)C²) work per row (O(C²) for known
//! labels, where z has two non-zero blocks) and O(N·C) memory, whatever K is.

use crate::error::{InfoProjectionError as E, Result, invalid};
use crate::input::{GroupKind, Membership, Prepared};
use crate::params::Constraint;

/// Marginals of the fitting data used in the rows: `P(Y=c, S=a)` and its margins.
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct Marginals {
    /// `joint[c·A + a] = P(Y=c, S=a)`.
    pub joint: Vec<f64>,
    /// `P(S=a)`.
    pub group: Vec<f64>,
    /// `P(Y=c)`.
    pub class: Vec<f64>,
}

fn group_name(kind: &GroupKind, a: usize) -> String {
    match kind {
        GroupKind::Labels(names) => names.get(a).cloned().unwrap_or_else(|| a.to_string()),
        _ => format!("#{a}"),
    }
}

impl Marginals {
    /// Empirical (`labels = Some`, the authors' code) or plug-in (`P(Y=c│X) ≈ p_c(x)`)
    /// estimates on the fitting rows.
    pub fn estimate(data: &Prepared, labels: Option<&[usize]>) -> Result<Self> {
        let sums = Self::joint_sums(data, labels)?;
        Self::from_sums(sums, data.n as f64, data.c, data.a, &data.kind)
    }

    /// The unnormalised joint of [`estimate`](Self::estimate): `Σ_i s_a(x_i, y_i)` per cell with
    /// labels, else `Σ_i p_c(x_i)·s_a(x_i, c)`. Sums over disjoint row sets add.
    pub fn joint_sums(data: &Prepared, labels: Option<&[usize]>) -> Result<Vec<f64>> {
        let (n, c, a) = (data.n, data.c, data.a);
        let mut joint = vec![0.0; c * a];
        if let Some(y) = labels {
            if y.len() != n {
                return Err(E::LengthMismatch {
                    what: "labels",
                    expected: n,
                    got: y.len(),
                });
            }
            for (i, &yi) in y.iter().enumerate() {
                if yi >= c {
                    return Err(E::LabelOutOfRange {
                        row: i,
                        label: yi,
                        n_classes: c,
                    });
                }
                for g in 0..a {
                    joint[yi * a + g] += data.s(i, yi, g);
                }
            }
        } else if let Membership::Labels(codes) = &data.memb {
            // One group per row: only its column of the joint gets mass.
            for (i, &g) in codes.iter().enumerate() {
                for k in 0..c {
                    joint[k * a + g] += data.p[i * c + k];
                }
            }
        } else {
            for i in 0..n {
                for k in 0..c {
                    let pk = data.p[i * c + k];
                    for g in 0..a {
                        joint[k * a + g] += pk * data.s(i, k, g);
                    }
                }
            }
        }
        Ok(joint)
    }

    /// The marginals from [`joint_sums`](Self::joint_sums) over `n` rows; a group without mass is
    /// an error.
    pub fn from_sums(
        mut joint: Vec<f64>,
        n: f64,
        c: usize,
        a: usize,
        kind: &GroupKind,
    ) -> Result<Self> {
        for v in &mut joint {
            *v /= n;
        }
        let m = Self::from_joint(joint, c, a);
        for (g, &pg) in m.group.iter().enumerate() {
            if pg <= 0.0 {
                return Err(E::EmptyGroup {
                    group: group_name(kind, g),
                });
            }
        }
        Ok(m)
    }

    /// The margins of a joint `P(Y=c, S=a)` (`joint[c·A + a]`), summed in one fixed order, so a
    /// projector restored from its saved joint rebuilds the same design bit for bit.
    pub fn from_joint(joint: Vec<f64>, c: usize, a: usize) -> Self {
        let group: Vec<f64> = (0..a)
            .map(|g| (0..c).map(|k| joint[k * a + g]).sum())
            .collect();
        let class: Vec<f64> = (0..c)
            .map(|k| (0..a).map(|g| joint[k * a + g]).sum())
            .collect();
        Self {
            joint,
            group,
            class,
        }
    }
}

/// One sparse row map `L_k`: entries `(z index, column, coefficient)`.
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct Row {
    pub entries: Vec<(usize, usize, f64)>,
}

/// All K rows for given criteria, α and marginals.
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct Design {
    pub c: usize,
    pub a: usize,
    /// `(A+1)·C`.
    pub zdim: usize,
    pub rows: Vec<Row>,
}

impl Design {
    pub fn build(
        constraints: &[Constraint],
        alpha: f64,
        m: &Marginals,
        c: usize,
        a: usize,
        kind: &GroupKind,
    ) -> Result<Self> {
        let zg = |g: usize, k: usize| g * c + k; // φ block of group g, class k
        let zp = |k: usize| a * c + k; // p block
        let mut rows = Vec::new();
        for con in constraints {
            let true_classes: Vec<usize> = match con {
                Constraint::EqualOpportunity | Constraint::FalsePositiveParity if c != 2 => {
                    return Err(invalid(
                        "constraints",
                        format!("{con:?} with {c} classes"),
                        "two classes for EqualOpportunity / FalsePositiveParity (EqualizedOdds \
                         or EqualizedOddsDiagonal for more)",
                    ));
                }
                Constraint::EqualOpportunity => vec![1],
                Constraint::FalsePositiveParity => vec![0],
                Constraint::EqualizedOdds | Constraint::EqualizedOddsDiagonal => (0..c).collect(),
                Constraint::StatisticalParity | Constraint::OverallAccuracy => Vec::new(),
            };
            // A conditional rate needs mass in its (class, group) cell.
            for &k in &true_classes {
                for g in 0..a {
                    if m.joint[k * a + g] <= 0.0 {
                        return Err(E::EmptyCell {
                            class: k,
                            group: group_name(kind, g),
                        });
                    }
                }
            }
            for sigma in [1.0, -1.0] {
                let offset = -(alpha + sigma);
                match con {
                    Constraint::StatisticalParity => {
                        for g in 0..a {
                            let coef = sigma / m.group[g];
                            for col in 0..c {
                                let mut e = Vec::with_capacity(2 * c);
                                for k in 0..c {
                                    e.push((zg(g, k), col, coef));
                                    // Σ_c p_c = 1 turns the constant into a p-block term.
                                    e.push((zp(k), col, offset));
                                }
                                rows.push(Row { entries: e });
                            }
                        }
                    }
                    Constraint::EqualizedOdds
                    | Constraint::EqualOpportunity
                    | Constraint::FalsePositiveParity => {
                        for g in 0..a {
                            for &k in &true_classes {
                                // P(S=a | Y=c) = P(c, a) / P(c)
                                let coef = sigma * m.class[k] / m.joint[k * a + g];
                                for col in 0..c {
                                    rows.push(Row {
                                        entries: vec![(zg(g, k), col, coef), (zp(k), col, offset)],
                                    });
                                }
                            }
                        }
                    }
                    Constraint::EqualizedOddsDiagonal => {
                        for g in 0..a {
                            for k in 0..c {
                                let coef = sigma / m.joint[k * a + g];
                                rows.push(Row {
                                    entries: vec![
                                        (zg(g, k), k, coef),
                                        (zp(k), k, offset / m.class[k]),
                                    ],
                                });
                            }
                        }
                    }
                    Constraint::OverallAccuracy => {
                        for g in 0..a {
                            let coef = sigma / m.group[g];
                            let mut e = Vec::with_capacity(2 * c);
                            for k in 0..c {
                                e.push((zg(g, k), k, coef));
                                e.push((zp(k), k, offset));
                            }
                            rows.push(Row { entries: e });
                        }
                    }
                }
            }
        }
        Ok(Self {
            c,
            a,
            zdim: (a + 1) * c,
            rows,
        })
    }

    /// Number of rows K.
    pub fn k(&self) -> usize {
        self.rows.len()
    }

    /// `M(λ) = Σ_k λ_k L_k`, row-major `zdim × C`.
    pub fn lift(&self, lambda: &[f64]) -> Vec<f64> {
        let c = self.c;
        let mut m = vec![0.0; self.zdim * c];
        for (row, &l) in self.rows.iter().zip(lambda) {
            if l != 0.0 {
                for &(z, col, coef) in &row.entries {
                    m[z * c + col] += l * coef;
                }
            }
        }
        m
    }

    /// `⟨L_k, S⟩` for every k, `S` row-major `zdim × C`.
    pub fn contract(&self, s: &[f64]) -> Vec<f64> {
        let c = self.c;
        self.rows
            .iter()
            .map(|row| {
                row.entries
                    .iter()
                    .map(|&(z, col, coef)| coef * s[z * c + col])
                    .sum()
            })
            .collect()
    }

    /// Hessian of the dual (8) in λ, `Lᵀ H_M L + ζI` (K × K, row-major), from the data part
    /// `H_M` in M-coordinates (`(zdim·C)²`, index `z·C + column`).
    pub fn hessian(&self, hm: &[f64], zeta: f64) -> Vec<f64> {
        let k = self.k();
        let mc = self.zdim * self.c;
        let c = self.c;
        let mut h = vec![0.0; k * k];
        for (r1, row1) in self.rows.iter().enumerate() {
            for r2 in r1..k {
                let mut v = 0.0;
                for &(z1, c1, a1) in &row1.entries {
                    let base = (z1 * c + c1) * mc;
                    for &(z2, c2, a2) in &self.rows[r2].entries {
                        v += a1 * a2 * hm[base + z2 * c + c2];
                    }
                }
                h[r1 * k + r2] = v;
                h[r2 * k + r1] = v;
            }
            h[r1 * k + r1] += zeta;
        }
        h
    }

    /// `Ḡ = (1/N)Σ_i G_i G_iᵀ` (K × K, row-major) from `Z̄ = (1/N)Σ_i z_i z_iᵀ` (zdim × zdim).
    pub fn gram(&self, zbar: &[f64]) -> Vec<f64> {
        let k = self.k();
        let zd = self.zdim;
        let mut g = vec![0.0; k * k];
        for (r1, row1) in self.rows.iter().enumerate() {
            for r2 in r1..k {
                let mut v = 0.0;
                for &(z1, c1, a1) in &row1.entries {
                    for &(z2, c2, a2) in &self.rows[r2].entries {
                        if c1 == c2 {
                            v += a1 * a2 * zbar[z1 * zd + z2];
                        }
                    }
                }
                g[r1 * k + r2] = v;
                g[r2 * k + r1] = v;
            }
        }
        g
    }
}
