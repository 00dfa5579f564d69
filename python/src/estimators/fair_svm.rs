//! `fairkit._core.estimators`: the spectral fair SVM (crate `fair-svm`), linear and kernel.
//!
//! The crate takes 0/1 class codes and two groups (group code 1 is the paper's z = +1), as the
//! Python class encodes its two classes and its two groups. The fit runs with the GIL released; the crate's observer checks for
//! Ctrl-C before every convex–concave subproblem ([`SignalCheck`]), so an interrupt stops a fit
//! once the running subproblem is solved.

use crate::convert::{contiguous, i64_as_usize, parse_param, to_py};
use crate::errors::{invalid, to_py_err};
use crate::estimators::signals::SignalCheck;
use fair_svm::{
    FairSvmError, FairSvmScorer, Fairness, Groups, IterInfo, Kernel, KernelFairSvm, Observe,
    SpectralFairSvm,
};
use nalgebra::DMatrix;
use numpy::{IntoPyArray, PyArray1, PyReadonlyArray1, PyReadonlyArray2, PyUntypedArrayMethods};
use pyo3::prelude::*;
use serde::Serialize;
use std::ops::ControlFlow;

/// Adds the fair-SVM binding to `fairkit._core.estimators`.
pub fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_class::<FairSvmCore>()?;
    m.add_function(wrap_pyfunction!(fair_svm_fit, m)?)?;
    m.add_class::<FairSvmScorerCore>()?;
    m.add_function(wrap_pyfunction!(fair_svm_from_bytes, m)?)?;
    Ok(())
}

/// Settings of one fit.
#[derive(Debug, Clone, Copy)]
pub struct SvmSettings {
    /// `None`: the linear primal model; otherwise the kernel model.
    pub kernel: Option<Kernel>,
    /// Ridge weight λ.
    pub lambda: f64,
    /// Mean-gap bound d (`inf` = none).
    pub d: f64,
    /// Covariance-gap penalty μ.
    pub mu: f64,
    /// Demographic parity or equal opportunity.
    pub fairness: Fairness,
    /// Convex–concave stopping tolerance.
    pub tol: f64,
    /// Convex–concave iteration limit.
    pub max_iter: usize,
}

/// The kernel from its Python spelling (`"linear_primal"` = the linear primal model).
pub fn parse_kernel(name: &str, gamma: f64, degree: u32, coef0: f64) -> PyResult<Option<Kernel>> {
    Ok(match name {
        "linear_primal" => None,
        "linear" => Some(Kernel::Linear),
        "rbf" => Some(Kernel::Rbf { gamma }),
        "poly" => Some(Kernel::Polynomial {
            degree,
            gamma,
            coef0,
        }),
        other => {
            return Err(invalid(format!(
                "invalid parameter kernel: {other:?}; expected \"linear_primal\", \"linear\", \
                 \"rbf\" or \"poly\""
            )));
        }
    })
}

/// Either fitted model.
#[derive(Debug, Clone)]
pub enum FittedSvm {
    /// Linear primal SSVM.
    Linear(SpectralFairSvm),
    /// Kernel SSVM.
    Kernel(KernelFairSvm),
}

impl FittedSvm {
    /// Scores of new rows.
    ///
    /// # Errors
    /// The crate's (feature mismatch, non-finite input).
    pub fn decision_function(&self, x: &DMatrix<f64>) -> Result<Vec<f64>, FairSvmError> {
        Ok(match self {
            Self::Linear(m) => m.decision_function(x)?,
            Self::Kernel(m) => m.decision_function(x)?,
        }
        .as_slice()
        .to_vec())
    }
    fn report(&self) -> &fair_svm::FitReport {
        match self {
            Self::Linear(m) => m.report(),
            Self::Kernel(m) => m.report(),
        }
    }
}

/// Fits on dense rows (N × d row-major) with 0/1 class codes `y` and the codes and names of
/// two sensitive groups (code 1 is the paper's z = +1).
///
/// `observer` sees every iterate (its `Break` ends the fit with the last iterate).
///
/// # Errors
/// The crate's (invalid settings or data — labels not 0/1, not two groups —, solver failure).
pub fn fit_buffers(
    x: &[f64],
    d: usize,
    y: &[i64],
    group_codes: &[i64],
    group_names: Vec<String>,
    s: &SvmSettings,
    observer: &mut dyn Observe<IterInfo>,
) -> Result<FittedSvm, FairSvmError> {
    let n = x.len().checked_div(d).unwrap_or(0);
    let xm = DMatrix::from_row_slice(n, d, x);
    let y = i64_as_usize(y);
    let z = Groups::new(i64_as_usize(group_codes).into_owned(), group_names)?;
    Ok(match s.kernel {
        None => FittedSvm::Linear(
            SpectralFairSvm::params()
                .lambda(s.lambda)
                .d(s.d)
                .mu(s.mu)
                .fairness(s.fairness)
                .tol(s.tol)
                .max_iter(s.max_iter)
                .check()?
                .fit_with_observer(&xm, &y, &z, observer)?,
        ),
        Some(kernel) => FittedSvm::Kernel(
            KernelFairSvm::params(kernel)
                .lambda(s.lambda)
                .d(s.d)
                .mu(s.mu)
                .fairness(s.fairness)
                .tol(s.tol)
                .max_iter(s.max_iter)
                .check()?
                .fit_with_observer(&xm, &y, &z, observer)?,
        ),
    })
}

/// Checks for Ctrl-C after the warm start and every convex–concave iteration (each takes
/// milliseconds to seconds).
#[derive(Default)]
struct SignalObserver(SignalCheck);

impl Observe<IterInfo> for SignalObserver {
    fn observe(&mut self, _info: &IterInfo) -> ControlFlow<()> {
        self.0.poll()
    }
}

fn matrix<'a>(x: &'a PyReadonlyArray2<'_, f64>) -> PyResult<(&'a [f64], usize, usize)> {
    let shape = x.shape();
    Ok((contiguous(x.as_slice(), "X")?, shape[0], shape[1]))
}

/// Fits the fair SVM; `y` holds 0/1 class codes, `group_codes` the codes of the two groups named
/// `group_names` (code 1 is the paper's z = +1).
#[pyfunction]
#[pyo3(signature = (
    x, y, group_codes, group_names, *, kernel, gamma, degree, coef0, lambda_, d, mu, fairness,
    tol, max_iter
))]
#[allow(clippy::too_many_arguments)]
fn fair_svm_fit(
    py: Python<'_>,
    x: PyReadonlyArray2<'_, f64>,
    y: PyReadonlyArray1<'_, i64>,
    group_codes: PyReadonlyArray1<'_, i64>,
    group_names: Vec<String>,
    kernel: &str,
    gamma: f64,
    degree: u32,
    coef0: f64,
    lambda_: f64,
    d: f64,
    mu: f64,
    fairness: &str,
    tol: f64,
    max_iter: usize,
) -> PyResult<FairSvmCore> {
    let fairness: Fairness = parse_param("fairness", fairness)?;
    let settings = SvmSettings {
        kernel: parse_kernel(kernel, gamma, degree, coef0)?,
        lambda: lambda_,
        d,
        mu,
        fairness,
        tol,
        max_iter,
    };
    let (xs, n, dim) = matrix(&x)?;
    let ys = contiguous(y.as_slice(), "y")?;
    let zs = contiguous(group_codes.as_slice(), "sensitive_features")?;
    for (len, what) in [(ys.len(), "y"), (zs.len(), "sensitive_features")] {
        if len != n {
            return Err(invalid(format!(
                "length mismatch for {what}: expected {n} rows (as X), got {len}"
            )));
        }
    }
    let mut observer = SignalObserver::default();
    let result = py.detach(|| fit_buffers(xs, dim, ys, zs, group_names, &settings, &mut observer));
    let inner = observer.0.or(result)?.map_err(to_py_err)?;
    Ok(FairSvmCore { inner })
}

/// A fitted fair SVM.
#[pyclass(frozen, module = "fairkit._core.estimators")]
pub struct FairSvmCore {
    inner: FittedSvm,
}

#[pymethods]
impl FairSvmCore {
    /// Scores `s(x) + b` of new rows.
    fn decision_function<'py>(
        &self,
        py: Python<'py>,
        x: PyReadonlyArray2<'_, f64>,
    ) -> PyResult<Bound<'py, PyArray1<f64>>> {
        let (xs, n, d) = matrix(&x)?;
        let out = py
            .detach(|| {
                self.inner
                    .decision_function(&DMatrix::from_row_slice(n, d, xs))
            })
            .map_err(to_py_err)?;
        Ok(out.into_pyarray(py))
    }

    /// The crate's versioned bytes of the fitted score function (`fair_svm::FairSvmScorer`:
    /// linear weights, or the kernel's support vectors and coefficients), for pickling.
    fn to_bytes<'py>(&self, py: Python<'py>) -> Bound<'py, pyo3::types::PyBytes> {
        let scorer = match &self.inner {
            FittedSvm::Linear(m) => FairSvmScorer::from(m),
            FittedSvm::Kernel(m) => FairSvmScorer::from(m),
        };
        pyo3::types::PyBytes::new(py, &scorer.to_bytes())
    }

    /// The fit report as a dict.
    fn report<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
        let r = self.inner.report();
        to_py(
            py,
            &SvmReport {
                summary: r.to_string(),
                status: format!("{:?}", r.status),
                iterations: r.iterations,
                objective: r.objective,
                mean_gap: r.mean_gap,
                covariance_gap: r.covariance_gap,
            },
        )
    }
}

/// A fitted fair SVM's score function restored from [`FairSvmCore::to_bytes`].
#[pyclass(frozen, module = "fairkit._core.estimators")]
pub struct FairSvmScorerCore {
    inner: FairSvmScorer,
}

#[pymethods]
impl FairSvmScorerCore {
    /// Scores `s(x) + b` of new rows.
    fn decision_function<'py>(
        &self,
        py: Python<'py>,
        x: PyReadonlyArray2<'_, f64>,
    ) -> PyResult<Bound<'py, PyArray1<f64>>> {
        let (xs, n, d) = matrix(&x)?;
        let out = py
            .detach(|| {
                self.inner
                    .decision_function(&DMatrix::from_row_slice(n, d, xs))
            })
            .map_err(to_py_err)?;
        Ok(out.as_slice().to_vec().into_pyarray(py))
    }

    /// The versioned bytes (as [`FairSvmCore::to_bytes`]).
    fn to_bytes<'py>(&self, py: Python<'py>) -> Bound<'py, pyo3::types::PyBytes> {
        pyo3::types::PyBytes::new(py, &self.inner.to_bytes())
    }

    /// Support vectors kept (0 for the linear model).
    #[getter]
    fn n_support_vectors(&self) -> usize {
        self.inner.n_support_vectors()
    }
}

/// Restores a fitted fair SVM's score function; bad bytes raise `FairkitError`.
#[pyfunction]
fn fair_svm_from_bytes(data: &[u8]) -> PyResult<FairSvmScorerCore> {
    let inner = FairSvmScorer::from_bytes(data).map_err(to_py_err)?;
    Ok(FairSvmScorerCore { inner })
}

/// `FairSvmCore.report()` as Python sees it (keys in this order), converted by
/// [`to_py`](crate::convert::to_py).
#[derive(Serialize)]
struct SvmReport {
    summary: String,
    status: String,
    iterations: usize,
    objective: f64,
    mean_gap: f64,
    covariance_gap: f64,
}
