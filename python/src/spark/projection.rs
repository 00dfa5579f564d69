//! The Rust side of `fairkit.spark.fit`: FairProjection fitted on a Spark DataFrame through the
//! crate's partitioned fit (`info_projection::PartitionedFit`), only through bytes.
//!
//! 1. On each executor, [`fp_marginal_sums`] turns a batch into the marginal pass's sums; on the
//!    driver [`fp_merge_marginals`] adds the partitions' sums.
//! 2. [`FairProjectionPasses`] is the fit built from the merged sums. On the driver,
//!    [`FairProjectionPasses::fit`] runs the dual solver and calls a Python oracle once per data
//!    pass (one Spark job: every partition's [`FairProjectionPasses::pass_sums`] at the driver's
//!    λ, merged with [`fp_merge_passes`]). Executors rebuild the same object from the same
//!    settings, sums and names (cheap: the design is O(K·C)).

use crate::convert::i64_as_usize;
use crate::estimators::fair_projection::{
    FairProjectionCore, FitInputs, Settings, crate_error, fit_inputs, groups, probs_matrix,
};
use info_projection::{
    FairProjectionValidParams, InfoProjectionError, MarginalSums, PartitionedFit, PassRequest,
    PassSums,
};
use numpy::{PyReadonlyArray1, PyReadonlyArray2};
use pyo3::prelude::*;
use pyo3::types::PyBytes;

/// Adds the partitioned-fit functions to `fairkit._core.spark`.
pub fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_class::<FairProjectionPasses>()?;
    m.add_function(wrap_pyfunction!(fp_marginal_sums, m)?)?;
    m.add_function(wrap_pyfunction!(fp_merge_marginals, m)?)?;
    m.add_function(wrap_pyfunction!(fp_merge_passes, m)?)?;
    Ok(())
}

fn checked(settings: &Settings) -> PyResult<FairProjectionValidParams> {
    settings.params()?.check().map_err(crate_error)
}

/// The marginal pass over one batch: base probabilities (N × C float64), group codes into
/// `group_names` and optional class codes of the labels (int64 in `0..C`). Returns the sums'
/// bytes. Runs without the GIL.
#[pyfunction]
#[pyo3(signature = (proba, group_codes, group_names, labels, settings))]
fn fp_marginal_sums<'py>(
    py: Python<'py>,
    proba: PyReadonlyArray2<'_, f64>,
    group_codes: PyReadonlyArray1<'_, i64>,
    group_names: Vec<String>,
    labels: Option<PyReadonlyArray1<'_, i64>>,
    settings: Settings,
) -> PyResult<Bound<'py, PyBytes>> {
    let params = checked(&settings)?;
    let FitInputs { p, n, c, codes, y } = fit_inputs(&proba, &group_codes, &labels)?;
    let bytes = py
        .detach(|| {
            let probs = probs_matrix(p, n, c);
            let groups = groups(codes, group_names)?;
            let y = y.map(i64_as_usize);
            params
                .marginal_sums(&probs, &groups, y.as_deref())
                .map(|s| s.to_bytes())
        })
        .map_err(crate_error)?;
    Ok(PyBytes::new(py, &bytes))
}

/// Two partitions' marginal sums, added.
#[pyfunction]
fn fp_merge_marginals<'py>(
    py: Python<'py>,
    left: &[u8],
    right: &[u8],
) -> PyResult<Bound<'py, PyBytes>> {
    let mut a = MarginalSums::from_bytes(left).map_err(crate_error)?;
    a.merge(&MarginalSums::from_bytes(right).map_err(crate_error)?)
        .map_err(crate_error)?;
    Ok(PyBytes::new(py, &a.to_bytes()))
}

/// Two partitions' sums of one dual pass, added.
#[pyfunction]
fn fp_merge_passes<'py>(
    py: Python<'py>,
    left: &[u8],
    right: &[u8],
) -> PyResult<Bound<'py, PyBytes>> {
    let mut a = PassSums::from_bytes(left).map_err(crate_error)?;
    a.merge(&PassSums::from_bytes(right).map_err(crate_error)?)
        .map_err(crate_error)?;
    Ok(PyBytes::new(py, &a.to_bytes()))
}

/// A FairProjection fit built from the merged marginal sums of every row: the driver runs
/// [`fit`](Self::fit); executors answer one pass each with [`pass_sums`](Self::pass_sums).
#[pyclass(frozen, module = "fairkit._core.spark")]
pub struct FairProjectionPasses {
    fit: PartitionedFit,
    group_names: Vec<String>,
}

#[pymethods]
impl FairProjectionPasses {
    /// From the estimator's settings, the merged marginal sums' bytes and the group names.
    #[new]
    fn new(settings: Settings, marginals: &[u8], group_names: Vec<String>) -> PyResult<Self> {
        let params = checked(&settings)?;
        let sums = MarginalSums::from_bytes(marginals).map_err(crate_error)?;
        let fit = params
            .partitioned(&sums, group_names.clone())
            .map_err(crate_error)?;
        Ok(Self { fit, group_names })
    }

    /// Number of dual variables K.
    #[getter]
    fn n_constraints(&self) -> usize {
        self.fit.n_constraints()
    }

    /// One batch's sums of the pass at `lambda` (see `info_projection::PassRequest`). Runs
    /// without the GIL.
    #[pyo3(signature = (lambda_, slack, hessian, proba, group_codes))]
    fn pass_sums<'py>(
        &self,
        py: Python<'py>,
        lambda_: Vec<f64>,
        slack: bool,
        hessian: bool,
        proba: PyReadonlyArray2<'_, f64>,
        group_codes: PyReadonlyArray1<'_, i64>,
    ) -> PyResult<Bound<'py, PyBytes>> {
        let FitInputs { p, n, c, codes, .. } = fit_inputs(&proba, &group_codes, &None)?;
        let request = PassRequest {
            lambda: lambda_,
            slack,
            hessian,
        };
        let names = self.group_names.clone();
        let bytes = py
            .detach(|| {
                let probs = probs_matrix(p, n, c);
                let groups = groups(codes, names)?;
                self.fit
                    .pass(&request, &probs, &groups)
                    .map(|s| s.to_bytes())
            })
            .map_err(crate_error)?;
        Ok(PyBytes::new(py, &bytes))
    }

    /// Runs the dual solver; `oracle(lambda, slack, hessian)` must return the merged pass sums'
    /// bytes over every row (one Spark job). An exception raised by the oracle ends the fit and
    /// is re-raised as is.
    fn fit(&self, oracle: Bound<'_, PyAny>) -> PyResult<FairProjectionCore> {
        let mut failure: Option<PyErr> = None;
        let result = self.fit.fit(&mut |request| {
            let answer = oracle
                .call1((request.lambda.clone(), request.slack, request.hessian))
                .and_then(|b| b.extract::<Vec<u8>>());
            match answer {
                Ok(bytes) => PassSums::from_bytes(&bytes),
                Err(e) => {
                    failure = Some(e);
                    Err(InfoProjectionError::Partitioned {
                        reason: "the pass oracle raised an exception".into(),
                    })
                }
            }
        });
        if let Some(e) = failure {
            return Err(e);
        }
        let inner = result.map_err(crate_error)?;
        Ok(FairProjectionCore {
            inner,
            group_names: self.group_names.clone(),
        })
    }
}
