//! A fitted projector as canonical bytes, and back.
//!
//! Predictions need the settings, λ and the design; the design is a function of the settings
//! and the joint `P(Y, S)` of the fitting rows (C × A numbers). So the bytes hold the joint,
//! the group information's kind and names, λ, the constraint diagnostics and the fit report —
//! never the fitting rows — and [`FairProjectionValidParams::restore`] rebuilds the design from
//! them with the caller's settings. A restored projector predicts the same bits as the one
//! that was saved (the design is rebuilt by the same code from the same numbers).
//!
//! Layout (little-endian): magic `FKFP`, version `u8`, then `u64` counts, `f64` bit patterns,
//! `u8` tags and length-prefixed UTF-8 strings, in the order of [`FairProjection::to_bytes`],
//! written and read with [`fair_core::bytes`]. Decoding checks every length against the bytes that are left before allocating, so
//! truncated or hostile input is an error, never a panic or a huge allocation.

use crate::constraints::{Design, Marginals};
use crate::error::{InfoProjectionError as E, Result};
use crate::input::GroupKind;
use crate::params::{Divergence, FairProjectionValidParams, Solver};
use crate::projection::FairProjection;
use crate::report::FitReport;
use fair_core::Termination as Status;
use fair_core::bytes::{DecodeError, Reader, Writer};
use std::time::Duration;

const MAGIC: &[u8; 4] = b"FKFP";
const VERSION: u8 = 1;

impl FairProjection {
    /// The fitted projector as canonical bytes (for pickling, a file or a Spark broadcast);
    /// [`FairProjectionValidParams::restore`] with the same settings turns them back into a
    /// projector that predicts the same bits. The size is O(C·A + K), independent of the rows.
    ///
    /// # Example
    /// ```
    /// use info_projection::{Constraint, FairProjection};
    /// use fair_data::Groups;
    /// use nalgebra::DMatrix;
    /// let probs = DMatrix::from_row_slice(4, 2, &[0.9, 0.1, 0.2, 0.8, 0.6, 0.4, 0.3, 0.7]);
    /// let groups = Groups::new(vec![0, 0, 1, 1], vec!["a".into(), "b".into()])?;
    /// let params = FairProjection::params().constraint(Constraint::StatisticalParity).alpha(0.01).check()?;
    /// let fitted = params.fit(&probs, &groups)?;
    /// let restored = params.restore(&fitted.to_bytes())?;
    /// assert_eq!(restored.predict_proba(&probs, &groups)?, fitted.predict_proba(&probs, &groups)?);
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn to_bytes(&self) -> Vec<u8> {
        let mut w = Writer::with_header(MAGIC, VERSION);
        w.count(self.design.c);
        w.count(self.n_groups);
        match &self.kind {
            GroupKind::Labels(names) => {
                w.u8(0);
                w.count(names.len());
                names.iter().for_each(|name| w.str(name));
            }
            GroupKind::ProbaGivenX => w.u8(1),
            GroupKind::ProbaGivenXY => w.u8(2),
        }
        for values in [
            &self.joint,
            &self.lambda,
            &self.constraint_values,
            &self.allowances,
        ] {
            w.f64s(values);
        }
        let r = &self.report;
        w.u8(match r.status {
            Status::Converged => 0,
            Status::MaxIterations => 1,
            Status::Stalled => 2,
            // An observer's stop; the method produces no other termination.
            _ => 3,
        });
        w.u8(match r.solver {
            Solver::Dual => 0,
            Solver::Admm => 1,
        });
        w.u8(match r.divergence {
            Divergence::Kl => 0,
            Divergence::CrossEntropy => 1,
        });
        for n in [
            r.n_constraints,
            r.n_rows,
            r.iterations,
            r.data_passes,
            r.subsample_passes,
        ] {
            w.count(n);
        }
        for x in [
            r.zeta,
            r.objective,
            r.stationarity,
            r.max_violation,
            r.max_excess,
        ] {
            w.f64(x);
        }
        for x in [r.primal_residual, r.dual_residual] {
            w.bool(x.is_some());
            w.f64(x.unwrap_or(0.0));
        }
        w.bool(r.anderson_steps.is_some());
        let (acc, rej) = r.anderson_steps.unwrap_or((0, 0));
        w.count(acc);
        w.count(rej);
        w.u64(r.elapsed.as_secs());
        w.u64(u64::from(r.elapsed.subsec_nanos()));
        w.into_bytes()
    }
}

impl FairProjectionValidParams {
    /// A projector from [`FairProjection::to_bytes`], with these settings (they must be the
    /// settings it was fitted with: the constraints and α decide the design).
    ///
    /// # Errors
    /// [`InfoProjectionError::Decode`](crate::InfoProjectionError::Decode) for bytes that are
    /// not a saved projector (wrong magic or version, truncated, trailing bytes, invalid
    /// values), or when these settings give a different number of constraint rows than the
    /// saved λ has; design errors as at fitting time.
    pub fn restore(&self, bytes: &[u8]) -> Result<FairProjection> {
        let mut r = Reader::open(bytes, MAGIC, VERSION, "FairProjection")?;
        let c = r.count("the class count")?;
        let a = r.count("the group count")?;
        if c < 2 || a < 2 {
            return Err(decode(&format!(
                "{c} classes and {a} groups (at least 2 of each)"
            )));
        }
        let kind = match r.u8("the group kind")? {
            0 => {
                let n = r.count("the group name count")?;
                if n != a {
                    return Err(decode(&format!("{n} group names for {a} groups")));
                }
                GroupKind::Labels(r.strings(n, "a group name")?)
            }
            1 => GroupKind::ProbaGivenX,
            2 => GroupKind::ProbaGivenXY,
            tag => return Err(unknown("group kind", tag)),
        };
        let joint = r.f64s("the joint P(Y, S)")?;
        if joint.len() != c.saturating_mul(a) || joint.iter().any(|p| !p.is_finite() || *p < 0.0) {
            return Err(decode("the joint P(Y, S) must be C × A finite values >= 0"));
        }
        let marginals = Marginals::from_joint(joint, c, a);
        if marginals.group.iter().any(|&pg| pg <= 0.0) {
            return Err(decode("a group has no mass in the saved joint P(Y, S)"));
        }
        let design = Design::build(&self.constraints, self.alpha, &marginals, c, a, &kind)?;
        let lambda = r.f64s("λ")?;
        if lambda.len() != design.k() {
            return Err(decode(&format!(
                "the saved projector has {} constraint rows, these settings give {}: restore \
                 with the settings it was fitted with",
                lambda.len(),
                design.k()
            )));
        }
        if lambda.iter().any(|l| !l.is_finite() || *l < 0.0) {
            return Err(decode("λ must be finite and >= 0"));
        }
        let constraint_values = r.f64s("the constraint values")?;
        let allowances = r.f64s("the allowances")?;
        if constraint_values.len() != lambda.len() || allowances.len() != lambda.len() {
            return Err(decode(
                "one constraint value and one allowance per constraint row",
            ));
        }
        let report = read_report(&mut r)?;
        r.finish()?;
        Ok(FairProjection {
            params: self.clone(),
            joint: marginals.joint,
            design,
            lambda,
            kind,
            n_groups: a,
            constraint_values,
            allowances,
            report,
        })
    }
}

fn read_report(r: &mut Reader<'_>) -> Result<FitReport> {
    let status = match r.u8("the status")? {
        0 => Status::Converged,
        1 => Status::MaxIterations,
        2 => Status::Stalled,
        3 => Status::Interrupted,
        tag => return Err(unknown("status", tag)),
    };
    let solver = match r.u8("the solver")? {
        0 => Solver::Dual,
        1 => Solver::Admm,
        tag => return Err(unknown("solver", tag)),
    };
    let divergence = match r.u8("the divergence")? {
        0 => Divergence::Kl,
        1 => Divergence::CrossEntropy,
        tag => return Err(unknown("divergence", tag)),
    };
    let n_constraints = r.count("the report's constraint count")?;
    let n_rows = r.count("the report's row count")?;
    let iterations = r.count("the report's iterations")?;
    let data_passes = r.count("the report's data passes")?;
    let subsample_passes = r.count("the report's subsample passes")?;
    let zeta = r.f64("the report's zeta")?;
    let objective = r.f64("the report's objective")?;
    let stationarity = r.f64("the report's stationarity")?;
    let max_violation = r.f64("the report's largest violation")?;
    let max_excess = r.f64("the report's largest excess")?;
    // Presence bytes: 1 is present, anything else absent (as the first reader decoded them).
    let mut optional = |field| -> Result<Option<f64>> {
        let present = r.u8(field)? == 1;
        let x = r.f64(field)?;
        Ok(present.then_some(x))
    };
    let primal_residual = optional("the report's primal residual")?;
    let dual_residual = optional("the report's dual residual")?;
    let has_anderson = r.u8("the report's Anderson flag")? == 1;
    let steps = (
        r.count("the report's Anderson steps")?,
        r.count("the report's Anderson steps")?,
    );
    let secs = r.u64("the elapsed seconds")?;
    let nanos = u32::try_from(r.u64("the elapsed nanoseconds")?)
        .map_err(|_| decode("elapsed nanoseconds must be below 10⁹"))?;
    if nanos >= 1_000_000_000 {
        return Err(decode("elapsed nanoseconds must be below 10⁹"));
    }
    Ok(FitReport {
        status,
        solver,
        divergence,
        n_constraints,
        n_rows,
        zeta,
        iterations,
        data_passes,
        subsample_passes,
        objective,
        stationarity,
        primal_residual,
        dual_residual,
        anderson_steps: has_anderson.then_some(steps),
        max_violation,
        max_excess,
        elapsed: Duration::new(secs, nanos),
    })
}

pub(crate) fn decode(reason: &str) -> E {
    DecodeError::Invalid(reason.to_owned()).into()
}

fn unknown(field: &'static str, tag: u8) -> E {
    DecodeError::UnknownTag { field, tag }.into()
}

impl From<DecodeError> for E {
    fn from(e: DecodeError) -> Self {
        E::Decode {
            reason: e.to_string(),
        }
    }
}
