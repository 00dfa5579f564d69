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
//! `u8` tags and length-prefixed UTF-8 strings, in the order of [`FairProjection::to_bytes`].
//! Decoding checks every length against the bytes that are left before allocating, so
//! truncated or hostile input is an error, never a panic or a huge allocation.

use crate::constraints::{Design, Marginals};
use crate::error::{InfoProjectionError as E, Result};
use crate::input::GroupKind;
use crate::params::{Divergence, FairProjectionValidParams, Solver};
use crate::projection::FairProjection;
use crate::report::FitReport;
use fair_core::Termination as Status;
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
        let mut w = Writer(Vec::new());
        w.0.extend_from_slice(MAGIC);
        w.0.push(VERSION);
        w.count(self.design.c);
        w.count(self.n_groups);
        match &self.kind {
            GroupKind::Labels(names) => {
                w.0.push(0);
                w.count(names.len());
                for name in names {
                    w.count(name.len());
                    w.0.extend_from_slice(name.as_bytes());
                }
            }
            GroupKind::ProbaGivenX => w.0.push(1),
            GroupKind::ProbaGivenXY => w.0.push(2),
        }
        for values in [
            &self.joint,
            &self.lambda,
            &self.constraint_values,
            &self.allowances,
        ] {
            w.floats(values);
        }
        let r = &self.report;
        w.0.push(match r.status {
            Status::Converged => 0,
            Status::MaxIterations => 1,
            Status::Stalled => 2,
            // An observer's stop; the method produces no other termination.
            _ => 3,
        });
        w.0.push(match r.solver {
            Solver::Dual => 0,
            Solver::Admm => 1,
        });
        w.0.push(match r.divergence {
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
            w.float(x);
        }
        for x in [r.primal_residual, r.dual_residual] {
            w.0.push(u8::from(x.is_some()));
            w.float(x.unwrap_or(0.0));
        }
        w.0.push(u8::from(r.anderson_steps.is_some()));
        let (acc, rej) = r.anderson_steps.unwrap_or((0, 0));
        w.count(acc);
        w.count(rej);
        w.count(r.elapsed.as_secs() as usize);
        w.count(r.elapsed.subsec_nanos() as usize);
        w.0
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
        let mut r = Reader { bytes, at: 0 };
        if r.take(4)? != MAGIC {
            return Err(decode(
                "not a saved FairProjection (the bytes do not start with FKFP)",
            ));
        }
        let version = r.byte()?;
        if version != VERSION {
            return Err(decode(&format!(
                "saved with format version {version}; this build reads version {VERSION}"
            )));
        }
        let c = r.count()?;
        let a = r.count()?;
        if c < 2 || a < 2 {
            return Err(decode(&format!(
                "{c} classes and {a} groups (at least 2 of each)"
            )));
        }
        let kind = match r.byte()? {
            0 => {
                let n = r.count()?;
                if n != a {
                    return Err(decode(&format!("{n} group names for {a} groups")));
                }
                let mut names = Vec::with_capacity(n);
                for _ in 0..n {
                    let len = r.count()?;
                    let name = std::str::from_utf8(r.take(len)?)
                        .map_err(|_| decode("a group name is not UTF-8"))?;
                    names.push(name.to_owned());
                }
                GroupKind::Labels(names)
            }
            1 => GroupKind::ProbaGivenX,
            2 => GroupKind::ProbaGivenXY,
            tag => return Err(decode(&format!("unknown group kind {tag}"))),
        };
        let joint = r.floats()?;
        if joint.len() != c.saturating_mul(a) || joint.iter().any(|p| !p.is_finite() || *p < 0.0) {
            return Err(decode("the joint P(Y, S) must be C × A finite values >= 0"));
        }
        let marginals = Marginals::from_joint(joint, c, a);
        if marginals.group.iter().any(|&pg| pg <= 0.0) {
            return Err(decode("a group has no mass in the saved joint P(Y, S)"));
        }
        let design = Design::build(&self.constraints, self.alpha, &marginals, c, a, &kind)?;
        let lambda = r.floats()?;
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
        let constraint_values = r.floats()?;
        let allowances = r.floats()?;
        if constraint_values.len() != lambda.len() || allowances.len() != lambda.len() {
            return Err(decode(
                "one constraint value and one allowance per constraint row",
            ));
        }
        let report = read_report(&mut r)?;
        if r.at != bytes.len() {
            return Err(decode("trailing bytes after the saved projector"));
        }
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
    let status = match r.byte()? {
        0 => Status::Converged,
        1 => Status::MaxIterations,
        2 => Status::Stalled,
        3 => Status::Interrupted,
        tag => return Err(decode(&format!("unknown status {tag}"))),
    };
    let solver = match r.byte()? {
        0 => Solver::Dual,
        1 => Solver::Admm,
        tag => return Err(decode(&format!("unknown solver {tag}"))),
    };
    let divergence = match r.byte()? {
        0 => Divergence::Kl,
        1 => Divergence::CrossEntropy,
        tag => return Err(decode(&format!("unknown divergence {tag}"))),
    };
    let (n_constraints, n_rows, iterations, data_passes, subsample_passes) =
        (r.count()?, r.count()?, r.count()?, r.count()?, r.count()?);
    let (zeta, objective, stationarity, max_violation, max_excess) =
        (r.float()?, r.float()?, r.float()?, r.float()?, r.float()?);
    let mut optional = || -> Result<Option<f64>> {
        let present = r.byte()? == 1;
        let x = r.float()?;
        Ok(present.then_some(x))
    };
    let (primal_residual, dual_residual) = (optional()?, optional()?);
    let has_anderson = r.byte()? == 1;
    let steps = (r.count()?, r.count()?);
    let secs = r.count()? as u64;
    let nanos = u32::try_from(r.count()?).map_err(|_| decode("elapsed nanoseconds"))?;
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
    E::Decode {
        reason: reason.to_owned(),
    }
}

pub(crate) struct Writer(pub(crate) Vec<u8>);

impl Writer {
    pub(crate) fn count(&mut self, n: usize) {
        self.0.extend_from_slice(&(n as u64).to_le_bytes());
    }
    pub(crate) fn float(&mut self, x: f64) {
        self.0.extend_from_slice(&x.to_bits().to_le_bytes());
    }
    pub(crate) fn floats(&mut self, xs: &[f64]) {
        self.count(xs.len());
        xs.iter().for_each(|&x| self.float(x));
    }
}

pub(crate) struct Reader<'b> {
    pub(crate) bytes: &'b [u8],
    pub(crate) at: usize,
}

impl<'b> Reader<'b> {
    pub(crate) fn take(&mut self, len: usize) -> Result<&'b [u8]> {
        let end = self
            .at
            .checked_add(len)
            .filter(|&end| end <= self.bytes.len())
            .ok_or_else(|| decode("truncated (the bytes end inside a field)"))?;
        let out = &self.bytes[self.at..end];
        self.at = end;
        Ok(out)
    }
    pub(crate) fn byte(&mut self) -> Result<u8> {
        Ok(self.take(1)?[0])
    }
    pub(crate) fn u64(&mut self) -> Result<u64> {
        let mut b = [0u8; 8];
        b.copy_from_slice(self.take(8)?);
        Ok(u64::from_le_bytes(b))
    }
    pub(crate) fn count(&mut self) -> Result<usize> {
        usize::try_from(self.u64()?).map_err(|_| decode("a count does not fit this platform"))
    }
    pub(crate) fn float(&mut self) -> Result<f64> {
        Ok(f64::from_bits(self.u64()?))
    }
    pub(crate) fn floats(&mut self) -> Result<Vec<f64>> {
        let n = self.count()?;
        // Check the length against what is left before allocating.
        let bytes = self.take(n.checked_mul(8).ok_or_else(|| decode("length overflow"))?)?;
        Ok(bytes
            .chunks_exact(8)
            .map(|b| f64::from_bits(u64::from_le_bytes(b.try_into().unwrap_or([0; 8]))))
            .collect())
    }
}
