//! FairProjection fitted where the rows live: every data pass of the dual solver as sums over
//! disjoint parts of the rows that add up, so the rows never meet in one place.
//!
//! A fit reads the rows in two kinds of pass, both sums over rows:
//!
//! 1. the **marginal pass** ([`FairProjectionValidParams::marginal_sums`]): the unnormalised
//!    joint `Σ_i s_a(x_i, y_i)` (labels) or `Σ_i p_c(x_i)·s_a(x_i)` (plug-in) and the row count,
//!    from which the driver builds the design ([`FairProjectionValidParams::partitioned`]);
//! 2. one **dual pass** per solver evaluation ([`PartitionedFit::pass`]) at the driver's λ:
//!    `Σ_i D^conj(−u_i, p_i)`, `Σ_i ‖u_i‖²`, `Σ_i z_i(ζu_i − h_i)ᵀ`, optionally `Σ_i z_i h_iᵀ`
//!    (the constraint values) and the per-group Hessian sums.
//!
//! Each part of the rows (a Spark partition, a file, a thread) computes its sums; the sums are
//! merged in any order ([`MarginalSums::merge`], [`PassSums::merge`]) and the driver's
//! [`PartitionedFit::fit`] runs the same Newton / L-BFGS solver as
//! [`FairProjectionValidParams::fit`], asking an oracle for each pass. The driver holds only the
//! K-dimensional dual, the design and one set of sums.
//!
//! **Same λ as one machine.** The solver, the design, ζ and the objective are computed by the
//! same code from the same sums; only the summation order of the floating-point sums differs
//! (per part, then across parts), which moves λ by rounding only. Two choices the one-machine
//! fit makes by row position cannot be made without one: the partitioned fit always uses the
//! exact Hessian (every row; the one-machine fit does too for C ≤ 3 at any size, and for C ≥ 4
//! below about 20,000 (C = 4) / 10,000 (C = 5) rows per group at A = 4, subsampling above — there
//! the two fits take different Newton paths to the same optimum, both stopping at the same
//! tolerance), and it has no warm start (`warm_start_fraction` must be 1, the default).
//!
//! # Example
//! ```
//! use info_projection::{Constraint, FairProjection, PassSums};
//! use fair_data::Groups;
//! use nalgebra::DMatrix;
//!
//! let probs = DMatrix::from_row_slice(6, 2, &[0.9, 0.1, 0.2, 0.8, 0.6, 0.4, 0.3, 0.7, 0.5, 0.5, 0.8, 0.2]);
//! let names = vec!["a".to_string(), "b".to_string()];
//! let groups = Groups::new(vec![0, 0, 0, 1, 1, 1], names.clone())?;
//! let params = FairProjection::params().constraint(Constraint::StatisticalParity).alpha(0.01).check()?;
//!
//! // Two "partitions": rows 0..4 and 4..6.
//! let parts = [(0, 4), (4, 6)];
//! let part = |(lo, hi): (usize, usize)| {
//!     let p = probs.rows(lo, hi - lo).into_owned();
//!     let g = Groups::new(groups.codes()[lo..hi].to_vec(), names.clone()).unwrap();
//!     (p, g)
//! };
//! let mut sums = params.marginal_sums(&part(parts[0]).0, &part(parts[0]).1, None)?;
//! sums.merge(&params.marginal_sums(&part(parts[1]).0, &part(parts[1]).1, None)?)?;
//! let plan = params.partitioned(&sums, names.clone())?;
//! let fitted = plan.fit(&mut |request| {
//!     let mut total = PassSums::zero(&plan, request);
//!     for &range in &parts {
//!         let (p, g) = part(range);
//!         total.merge(&plan.pass(request, &p, &g)?)?;
//!     }
//!     Ok(total)
//! })?;
//! let local = params.fit(&probs, &groups)?;
//! for (a, b) in fitted.lambda().iter().zip(local.lambda()) {
//!     assert!((a - b).abs() <= 1e-9);
//! }
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```

use crate::constraints::{Design, Marginals};
use crate::engine::{Eval, HessPlan, Lifted, Rows, evaluate};
use crate::error::{InfoProjectionError as E, Result, invalid};
use crate::input::{GroupInfo, GroupKind, prepare};
use crate::params::{DualMethod, FairProjectionValidParams, Solver};
use crate::projection::{
    FairProjection, FitParts, Interrupt, LastEval, NEWTON_MAX_K, Solved, finish_fit, from_sums,
    solve_dual_with,
};
use crate::saved::decode;
use fair_core::bytes::{Reader, Writer};
use fair_data::Groups;
use nalgebra::DMatrix;
use std::time::Instant;

const SUMS_MAGIC: &[u8; 4] = b"FKMS";
const PASS_MAGIC: &[u8; 4] = b"FKPS";
const VERSION: u8 = 1;

fn mismatch(reason: String) -> E {
    E::Partitioned { reason }
}

/// The marginal pass over some rows: the unnormalised joint `P(Y, S)` and the row count.
/// Sums over disjoint rows merge exactly into the sums over their union (row counts are
/// integers; with labels the joint cells are integer counts too).
#[derive(Debug, Clone, PartialEq)]
pub struct MarginalSums {
    c: usize,
    a: usize,
    rows: u64,
    labelled: bool,
    /// `joint[c·A + a]`, unnormalised.
    joint: Vec<f64>,
}

impl MarginalSums {
    /// Rows counted.
    pub fn rows(&self) -> u64 {
        self.rows
    }

    /// Adds `other` (sums over rows disjoint from these).
    ///
    /// # Errors
    /// [`InfoProjectionError::Partitioned`](crate::InfoProjectionError::Partitioned) when the
    /// two have different class or group counts, or one used labels and the other not.
    pub fn merge(&mut self, other: &MarginalSums) -> Result<()> {
        if (self.c, self.a, self.labelled) != (other.c, other.a, other.labelled) {
            return Err(mismatch(format!(
                "marginal sums of {} classes × {} groups ({}) cannot merge with {} × {} ({})",
                self.c,
                self.a,
                labelled_word(self.labelled),
                other.c,
                other.a,
                labelled_word(other.labelled)
            )));
        }
        self.rows = self
            .rows
            .checked_add(other.rows)
            .ok_or_else(|| mismatch("the row count overflows u64".into()))?;
        for (x, y) in self.joint.iter_mut().zip(&other.joint) {
            *x += y;
        }
        Ok(())
    }

    /// Canonical bytes (for shipping between processes).
    pub fn to_bytes(&self) -> Vec<u8> {
        let mut w = Writer::with_header(SUMS_MAGIC, VERSION);
        w.count(self.c);
        w.count(self.a);
        w.u64(self.rows);
        w.bool(self.labelled);
        w.f64s(&self.joint);
        w.into_bytes()
    }

    /// Sums from [`to_bytes`](Self::to_bytes).
    ///
    /// # Errors
    /// [`InfoProjectionError::Decode`](crate::InfoProjectionError::Decode) for anything else
    /// (wrong magic or version, truncated, trailing bytes, inconsistent sizes, negative or
    /// non-finite sums).
    pub fn from_bytes(bytes: &[u8]) -> Result<Self> {
        let mut r = Reader::open(bytes, SUMS_MAGIC, VERSION, "marginal sums")?;
        let c = r.count("the class count")?;
        let a = r.count("the group count")?;
        let rows = r.u64("the row count")?;
        let labelled = r.bool("the labels flag")?;
        let joint = r.f64s("the joint sums")?;
        r.finish()?;
        if c < 2 || a < 2 || c.checked_mul(a) != Some(joint.len()) {
            return Err(decode("marginal sums with inconsistent sizes"));
        }
        if joint.iter().any(|v| !v.is_finite() || *v < 0.0) {
            return Err(decode("marginal sums with a negative or non-finite cell"));
        }
        Ok(Self {
            c,
            a,
            rows,
            labelled,
            joint,
        })
    }
}

fn labelled_word(labelled: bool) -> &'static str {
    if labelled { "labels" } else { "plug-in" }
}

/// What the driver asks of every part of the rows for one dual pass.
#[derive(Debug, Clone, PartialEq)]
pub struct PassRequest {
    /// The dual point λ (K numbers, ≥ 0).
    pub lambda: Vec<f64>,
    /// Also sum `z_i h_iᵀ` (the constraint values and allowances at λ).
    pub slack: bool,
    /// Also sum the per-group Hessian terms (Newton steps).
    pub hessian: bool,
}

/// One dual pass's sums over some rows (see the module docs); merge the parts' sums with
/// [`merge`](Self::merge) and hand the total to the driver's oracle.
#[derive(Debug, Clone, PartialEq)]
pub struct PassSums {
    rows: u64,
    conj: f64,
    usq: f64,
    s: Vec<f64>,
    s_h: Option<Vec<f64>>,
    hess: Option<Vec<f64>>,
}

impl PassSums {
    /// The sums over no rows for `request` (the identity of [`merge`](Self::merge); what an
    /// empty part returns).
    pub fn zero(fit: &PartitionedFit, request: &PassRequest) -> Self {
        let sd = fit.design.zdim * fit.c;
        let cc = fit.c * fit.c;
        Self {
            rows: 0,
            conj: 0.0,
            usq: 0.0,
            s: vec![0.0; sd],
            s_h: request.slack.then(|| vec![0.0; sd]),
            hess: request.hessian.then(|| vec![0.0; fit.a * cc * cc]),
        }
    }

    /// Rows summed.
    pub fn rows(&self) -> u64 {
        self.rows
    }

    /// Adds `other` (sums over rows disjoint from these, for the same request).
    ///
    /// # Errors
    /// [`InfoProjectionError::Partitioned`](crate::InfoProjectionError::Partitioned) when the
    /// shapes differ (sums of different designs or requests).
    pub fn merge(&mut self, other: &PassSums) -> Result<()> {
        let shape = |p: &PassSums| {
            (
                p.s.len(),
                p.s_h.as_ref().map(Vec::len),
                p.hess.as_ref().map(Vec::len),
            )
        };
        if shape(self) != shape(other) {
            return Err(mismatch(format!(
                "pass sums of shapes {:?} and {:?} cannot merge (different designs or requests)",
                shape(self),
                shape(other)
            )));
        }
        self.rows = self
            .rows
            .checked_add(other.rows)
            .ok_or_else(|| mismatch("the row count overflows u64".into()))?;
        self.conj += other.conj;
        self.usq += other.usq;
        add(&mut self.s, &other.s);
        if let (Some(x), Some(y)) = (self.s_h.as_mut(), other.s_h.as_ref()) {
            add(x, y);
        }
        if let (Some(x), Some(y)) = (self.hess.as_mut(), other.hess.as_ref()) {
            add(x, y);
        }
        Ok(())
    }

    /// Canonical bytes (for shipping between processes).
    pub fn to_bytes(&self) -> Vec<u8> {
        let mut w = Writer::with_header(PASS_MAGIC, VERSION);
        w.u64(self.rows);
        w.f64(self.conj);
        w.f64(self.usq);
        w.f64s(&self.s);
        for part in [&self.s_h, &self.hess] {
            w.bool(part.is_some());
            if let Some(v) = part {
                w.f64s(v);
            }
        }
        w.into_bytes()
    }

    /// Sums from [`to_bytes`](Self::to_bytes).
    ///
    /// # Errors
    /// [`InfoProjectionError::Decode`](crate::InfoProjectionError::Decode) for anything else
    /// (wrong magic or version, truncated or trailing bytes, a NaN sum).
    pub fn from_bytes(bytes: &[u8]) -> Result<Self> {
        let mut r = Reader::open(bytes, PASS_MAGIC, VERSION, "pass sums")?;
        let rows = r.u64("the row count")?;
        let conj = r.f64("the conjugate sum")?;
        let usq = r.f64("the squared sum")?;
        let s = r.f64s("the gradient sums")?;
        let mut optional = |field| -> Result<Option<Vec<f64>>> {
            Ok(if r.bool(field)? {
                Some(r.f64s(field)?)
            } else {
                None
            })
        };
        let s_h = optional("the Hessian-vector sums")?;
        let hess = optional("the Hessian sums")?;
        r.finish()?;
        let all = [conj, usq]
            .into_iter()
            .chain(s.iter().copied())
            .chain(s_h.iter().flatten().copied())
            .chain(hess.iter().flatten().copied());
        if all.into_iter().any(f64::is_nan) {
            return Err(decode("pass sums with a NaN"));
        }
        Ok(Self {
            rows,
            conj,
            usq,
            s,
            s_h,
            hess,
        })
    }

    fn into_eval(self) -> Eval {
        Eval {
            conj: self.conj,
            usq: self.usq,
            s: self.s,
            s_h: self.s_h,
            hess: self.hess,
        }
    }
}

fn add(a: &mut [f64], b: &[f64]) {
    for (x, y) in a.iter_mut().zip(b) {
        *x += y;
    }
}

/// A FairProjection fit whose data passes run elsewhere: the design, ζ and the solver's
/// choices, built on the driver from the merged [`MarginalSums`]. Rebuild it wherever a part
/// of the rows lives (from the same settings, sums and names: it is cheap) to answer
/// [`pass`](Self::pass) requests there.
#[derive(Debug, Clone)]
pub struct PartitionedFit {
    params: FairProjectionValidParams,
    c: usize,
    a: usize,
    rows: u64,
    names: Vec<String>,
    marginals: Marginals,
    design: Design,
    zeta: f64,
    newton: bool,
}

impl FairProjectionValidParams {
    /// The marginal pass over one part of the rows: base probabilities (N × C), one group per
    /// row (codes into the fit's full list of group names: every part must use the same
    /// names), and the true labels' class codes if the marginals are to be empirical.
    /// An empty part (N = 0) gives the zero sums.
    ///
    /// # Errors
    /// As the one-machine fit for the same rows: probabilities outside `[0, 1]`, NaN, rows not
    /// summing to 1, fewer than 2 classes or groups, mismatched lengths, labels outside `0..C`.
    pub fn marginal_sums(
        &self,
        probs: &DMatrix<f64>,
        groups: &Groups,
        labels: Option<&[usize]>,
    ) -> Result<MarginalSums> {
        let (c, a) = (probs.ncols(), groups.n_groups());
        if probs.nrows() == 0 && groups.is_empty() && labels.is_none_or(<[usize]>::is_empty) {
            if c < 2 {
                return Err(E::TooFewClasses { n_classes: c });
            }
            if a < 2 {
                return Err(E::TooFewGroups { n_groups: a });
            }
            return Ok(MarginalSums {
                c,
                a,
                rows: 0,
                labelled: labels.is_some(),
                joint: vec![0.0; c * a],
            });
        }
        let data = prepare(
            probs,
            &GroupInfo::Labels(groups),
            self.floor,
            self.row_policy,
        )?;
        let joint = Marginals::joint_sums(&data, labels)?;
        Ok(MarginalSums {
            c,
            a,
            rows: data.n as u64,
            labelled: labels.is_some(),
            joint,
        })
    }

    /// The driver's side of a partitioned fit, from the marginal sums over **all** rows and
    /// the group names their codes refer to.
    ///
    /// # Errors
    /// `InvalidParameter` for the ADMM solver (it keeps per-row state between passes) or a
    /// warm start; `Empty` when no rows were counted; `LengthMismatch` for a wrong number of
    /// names; design errors as at fitting time (a group without rows, an equalized-odds cell
    /// without mass).
    pub fn partitioned(&self, sums: &MarginalSums, names: Vec<String>) -> Result<PartitionedFit> {
        if self.solver != Solver::Dual {
            return Err(invalid(
                "solver",
                "admm",
                "the dual solver for a partitioned fit (ADMM keeps per-row state between passes)",
            ));
        }
        if self.warm_start_fraction < 1.0 {
            return Err(invalid(
                "warm_start_fraction",
                self.warm_start_fraction,
                "1 for a partitioned fit (the warm start samples rows by position)",
            ));
        }
        if names.len() != sums.a {
            return Err(E::LengthMismatch {
                what: "group names",
                expected: sums.a,
                got: names.len(),
            });
        }
        if sums.rows == 0 {
            return Err(E::Empty { what: "the rows" });
        }
        let (c, a) = (sums.c, sums.a);
        let kind = GroupKind::Labels(names.clone());
        let marginals = Marginals::from_sums(sums.joint.clone(), sums.rows as f64, c, a, &kind)?;
        let design = Design::build(&self.constraints, self.alpha, &marginals, c, a, &kind)?;
        let zeta = self.zeta.unwrap_or(1.0 / (sums.rows as f64).sqrt());
        let newton = match self.dual_method {
            DualMethod::Lbfgs => false,
            DualMethod::Newton => true,
            DualMethod::Auto => design.k() <= NEWTON_MAX_K,
        };
        Ok(PartitionedFit {
            params: self.clone(),
            c,
            a,
            rows: sums.rows,
            names,
            marginals,
            design,
            zeta,
            newton,
        })
    }
}

impl PartitionedFit {
    /// Number of dual variables K (the length of every [`PassRequest::lambda`]).
    pub fn n_constraints(&self) -> usize {
        self.design.k()
    }

    /// Rows counted by the marginal pass (every dual pass must see the same rows).
    pub fn rows(&self) -> u64 {
        self.rows
    }

    /// One part's sums for `request`: its base probabilities (N × C) and group codes into
    /// the names the fit was built with. An empty part gives [`PassSums::zero`].
    ///
    /// # Errors
    /// `InvalidParameter` for a λ of the wrong length or with a negative or non-finite entry;
    /// `Partitioned` when the part's group names differ from the fit's; invalid probabilities
    /// as at fitting time.
    pub fn pass(
        &self,
        request: &PassRequest,
        probs: &DMatrix<f64>,
        groups: &Groups,
    ) -> Result<PassSums> {
        let k = self.design.k();
        if request.lambda.len() != k {
            return Err(E::LengthMismatch {
                what: "λ of the pass request",
                expected: k,
                got: request.lambda.len(),
            });
        }
        if let Some(l) = request
            .lambda
            .iter()
            .find(|l| !(l.is_finite() && **l >= 0.0))
        {
            return Err(invalid("lambda", l, "finite and ≥ 0 entries"));
        }
        if groups.names() != self.names.as_slice() {
            return Err(mismatch(format!(
                "this part's groups are named {:?}, the fit's {:?}: code every part against the \
                 fit's names",
                groups.names(),
                self.names
            )));
        }
        if probs.ncols() != self.c {
            return Err(E::LengthMismatch {
                what: "probability columns",
                expected: self.c,
                got: probs.ncols(),
            });
        }
        if probs.nrows() == 0 && groups.is_empty() {
            return Ok(PassSums::zero(self, request));
        }
        let p = &self.params;
        let data = prepare(probs, &GroupInfo::Labels(groups), p.floor, p.row_policy)?;
        let rows = Rows {
            data: &data,
            zdim: self.design.zdim,
        };
        let lifted = Lifted::new(&self.design, &request.lambda);
        let exact = HessPlan {
            strides: vec![1; self.a],
            importance: false,
        };
        let plan = request.hessian.then_some(&exact);
        let e = evaluate(&rows, &lifted, p.divergence, self.zeta, request.slack, plan);
        Ok(PassSums {
            rows: data.n as u64,
            conj: e.conj,
            usq: e.usq,
            s: e.s,
            s_h: e.s_h,
            hess: e.hess,
        })
    }

    /// Runs the dual solver on the driver; `oracle` answers each [`PassRequest`] with the
    /// merged [`PassSums`] over all rows (for example one Spark job per call).
    ///
    /// # Errors
    /// `Partitioned` when a pass's sums do not fit the request or saw another number of rows
    /// than the marginal pass; whatever the oracle returns; numerical breakdown as at fitting
    /// time.
    pub fn fit(
        &self,
        oracle: &mut dyn FnMut(&PassRequest) -> Result<PassSums>,
    ) -> Result<FairProjection> {
        let start = Instant::now();
        let layout = Some((self.a, self.c));
        let mut pass = |lambda: &[f64], slack: bool, hessian: bool| {
            let request = PassRequest {
                lambda: lambda.to_vec(),
                slack,
                hessian,
            };
            let sums = oracle(&request)?;
            self.check(&sums, &request)?;
            let n = self.rows as f64;
            from_sums(&self.design, self.zeta, lambda, n, layout, sums.into_eval())
        };
        let mut last: Option<LastEval> = None;
        let x0 = vec![0.0; self.design.k()];
        let out = solve_dual_with(
            &mut pass,
            self.newton,
            &self.design,
            self.zeta,
            &self.params,
            x0,
            Some(&mut last),
            &mut Interrupt::never(),
        )?;
        let solved = Solved {
            lambda: out.lambda,
            status: out.status,
            iterations: out.iterations,
            passes: out.evaluations,
            subsample_passes: 0,
            residuals: None,
        };
        let parts = FitParts {
            params: &self.params,
            joint: self.marginals.joint.clone(),
            kind: GroupKind::Labels(self.names.clone()),
            n_groups: self.a,
            n_rows: usize::try_from(self.rows).unwrap_or(usize::MAX),
            design: self.design.clone(),
            zeta: self.zeta,
        };
        finish_fit(parts, solved, last, &mut pass, start)
    }

    /// The merged sums answer `request` and cover the marginal pass's rows.
    fn check(&self, sums: &PassSums, request: &PassRequest) -> Result<()> {
        let expected = PassSums::zero(self, request);
        let shape = |p: &PassSums| {
            (
                p.s.len(),
                p.s_h.as_ref().map(Vec::len),
                p.hess.as_ref().map(Vec::len),
            )
        };
        if shape(sums) != shape(&expected) {
            return Err(mismatch(format!(
                "the pass returned sums of shape {:?}, the request needs {:?}",
                shape(sums),
                shape(&expected)
            )));
        }
        if sums.rows != self.rows {
            return Err(mismatch(format!(
                "a dual pass summed {} rows but the marginal pass counted {}: the data changed \
                 between passes (cache or checkpoint it) or a part was lost or counted twice",
                sums.rows, self.rows
            )));
        }
        Ok(())
    }
}
