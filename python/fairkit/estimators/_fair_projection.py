"""FairProjection: fair post-processing of a probabilistic classifier by information projection."""

from __future__ import annotations

import numbers
from typing import Any

import numpy as np

from fairkit._core import FairkitError
from fairkit._core import estimators as _core
from fairkit._core import metrics as _core_metrics
from fairkit._validation import as_1d, check_no_missing
from fairkit.estimators._groups import GroupIndex

try:
    from sklearn.base import BaseEstimator, ClassifierMixin, MetaEstimatorMixin, clone
    from sklearn.exceptions import NotFittedError
    from sklearn.utils import get_tags
    from sklearn.utils.validation import check_is_fitted
except ImportError as e:  # pragma: no cover - exercised only without scikit-learn
    raise ImportError(
        "fairkit.estimators needs scikit-learn: pip install scikit-learn"
    ) from e


class FairProjection(MetaEstimatorMixin, ClassifierMixin, BaseEstimator):
    """Fair multi-class, multi-group post-processing by information projection.

    Alghamdi et al., "Beyond Adult and COMPAS: Fair Multi-Class Prediction via Information
    Projection", NeurIPS 2022. Given a base classifier's class probabilities ``p(x)`` and each
    row's group, the fitted projector returns the classifier closest to the base (in KL or
    cross-entropy) among those meeting the chosen group-fairness constraints up to a relative
    tolerance ``alpha``: ``h_c(x) = p_c(x) * phi(gamma(x) - (G(x)^T lambda)_c)``. The core is the
    Rust crate ``info-projection``; the GIL is released during the fit and every prediction.

    Two ways to supply the base probabilities:

    * ``estimator=`` a classifier with ``predict_proba`` (like fairlearn's
      ``ThresholdOptimizer``): ``X`` are its features. It is cloned and fitted on ``(X, y)``
      unless ``prefit=True``, in which case it must already be fitted and is used as is.
    * ``estimator=None``: ``X`` *is* the base probability matrix (N x C, rows summing to 1,
      columns in the order of ``classes_``), e.g. scores computed elsewhere. Then
      ``n_features_in_`` is C.

    Parameters
    ----------
    estimator : classifier with ``predict_proba`` or None, default=None
        The base model, or None to pass probabilities as ``X``.
    constraints : str or list of str, default="equalized_odds"
        ``"statistical_parity"`` (alias ``"demographic_parity"``): ``|P(Y^=c|S=a)/P(Y^=c) - 1|
        <= alpha``; ``"equalized_odds"`` (every true/predicted class pair);
        ``"equalized_odds_diagonal"`` (true = predicted class only, the authors' code);
        ``"overall_accuracy"``. A list stacks several.
    alpha : float, default=0.05
        Relative tolerance of every constraint (>= 0).
    divergence : {"kl", "cross_entropy"}, default="kl"
        ``KL(h || p)`` (softmax tilt) or ``KL(p || h)`` (FairProjection-CE).
    solver : {"dual", "admm"}, default="dual"
        Direct projected Newton/L-BFGS on the dual, or the paper's ADMM; both reach the same
        multipliers (to ``tol``).
    prefit : bool, default=False
        Use ``estimator`` as already fitted (not cloned, not refitted).
    threshold : float or None, default=None
        ``predict``: None takes the most probable class; a float (two classes only) predicts
        ``classes_[1]`` when its fair probability exceeds it.
    zeta : float or None, default=None
        Regulariser of the relaxed problem; None uses ``1/sqrt(N)``.
    tol : float, default=1e-9
        Stopping tolerance of the solver.
    max_iter : int, default=10000
        Iteration limit (reaching it is reported in ``report_["status"]``, not an error).
    floor : float, default=1e-6
        Smallest base probability kept (both divergences need ``p > 0``).
    renormalize : bool, default=False
        False: a probability row not summing to 1 (tolerance 1e-6) is an error; True: every
        row is divided by its sum.

    Attributes
    ----------
    classes_ : ndarray
        Class labels, in the order of the probability columns.
    n_features_in_ : int
        Features of ``X`` seen at fit (C when ``estimator=None``).
    estimator_ : classifier or None
        The fitted base model (None when ``estimator=None``).
    groups_ : list
        The groups seen at fit (a value, or a tuple of values for several sensitive features).
    lambda_ : ndarray
        Dual multipliers, one per constraint row.
    constraint_values_, allowances_ : ndarray
        ``E[G_k h]`` on the fitting rows and the relaxed allowance of each constraint row.
    report_ : dict
        How the solver ended (``status``, ``converged``, ``iterations``, ``max_violation``, ...).

    Examples
    --------
    >>> import numpy as np
    >>> from fairkit.estimators import FairProjection
    >>> p1 = np.array([0.8, 0.7, 0.6, 0.9, 0.3, 0.2, 0.4, 0.1])
    >>> proba = np.column_stack([1 - p1, p1])
    >>> group = ["a"] * 4 + ["b"] * 4
    >>> fp = FairProjection(constraints="statistical_parity", alpha=0.01)
    >>> fp = fp.fit(proba, sensitive_features=group)
    >>> fair = fp.predict_proba(proba, sensitive_features=group)
    >>> gap_before = p1[:4].mean() - p1[4:].mean()
    >>> gap_after = fair[:4, 1].mean() - fair[4:, 1].mean()
    >>> bool(abs(gap_after) < gap_before)
    True
    """

    def __init__(
        self,
        estimator: Any = None,
        *,
        constraints: str | list[str] = "equalized_odds",
        alpha: float = 0.05,
        divergence: str = "kl",
        solver: str = "dual",
        prefit: bool = False,
        threshold: float | None = None,
        zeta: float | None = None,
        tol: float = 1e-9,
        max_iter: int = 10_000,
        floor: float = 1e-6,
        renormalize: bool = False,
    ):
        self.estimator = estimator
        self.constraints = constraints
        self.alpha = alpha
        self.divergence = divergence
        self.solver = solver
        self.prefit = prefit
        self.threshold = threshold
        self.zeta = zeta
        self.tol = tol
        self.max_iter = max_iter
        self.floor = floor
        self.renormalize = renormalize

    # -- fitting -------------------------------------------------------------------------------

    def fit(self, X: Any, y: Any = None, *, sensitive_features: Any = None, **fit_params: Any):
        """Fits the projector (and the base estimator unless ``prefit``).

        Parameters
        ----------
        X : array-like
            Features for ``estimator``, or the N x C base probabilities when it is None.
        y : array-like or None
            True labels. Given, the class and group marginals are their empirical frequencies
            (as the authors' code); None (only with ``estimator=None`` or ``prefit=True``)
            estimates them from the probabilities (plug-in).
        sensitive_features : array-like, Series, DataFrame or dict
            One group label per row (several columns: intersectional groups, as fairlearn).
        **fit_params
            Passed to ``estimator.fit`` (when it is fitted here).

        Returns
        -------
        self
        """
        if sensitive_features is None:
            raise FairkitError(
                "sensitive_features is missing: FairProjection.fit needs one group label per "
                "row (sensitive_features=...)"
            )
        self._check_params()
        if self.estimator is None:
            if fit_params:
                raise FairkitError(
                    f"fit parameters {sorted(fit_params)} were given but there is no estimator "
                    "to pass them to (estimator=None)"
                )
            proba = _proba_matrix(X, "X (the base probabilities, estimator=None)")
            self.estimator_ = None
            self.n_features_in_ = proba.shape[1]
            if y is None:
                self.classes_, labels = np.arange(proba.shape[1]), None
            else:
                self.classes_, labels = _classes_and_codes(y, proba.shape[1], proba.shape[0])
        else:
            self.estimator_ = self._fitted_estimator(X, y, fit_params)
            proba = _proba_matrix(self.estimator_.predict_proba(X), "estimator.predict_proba(X)")
            self.classes_ = np.asarray(self.estimator_.classes_)
            n_in = getattr(self.estimator_, "n_features_in_", None)
            self.n_features_in_ = n_in if n_in is not None else _n_columns(X)
            if hasattr(self.estimator_, "feature_names_in_"):
                self.feature_names_in_ = self.estimator_.feature_names_in_
        n = proba.shape[0]
        if self.estimator_ is not None:
            labels = None if y is None else _class_codes(y, self.classes_, n)
        index, codes = GroupIndex.fit(sensitive_features, n)
        settings = self._settings()
        core = _core.fair_projection_fit(proba, codes, index.names, labels, settings)
        return self._set_fitted(core, settings, index)

    def _settings(self) -> dict:
        """The core's settings dict (kept with the fit: unpickling restores with it)."""
        return dict(
            constraints=self._constraint_list(),
            alpha=float(self.alpha),
            divergence=self.divergence,
            solver=self.solver,
            zeta=None if self.zeta is None else float(self.zeta),
            tol=float(self.tol),
            max_iter=int(self.max_iter),
            floor=float(self.floor),
            renormalize=bool(self.renormalize),
        )

    def _set_fitted(self, core: Any, settings: dict, index: GroupIndex):
        """The fitted attributes from the core's projector (local or partitioned fit)."""
        self._projection = core
        self._fit_settings = settings
        self._groups = index
        self.groups_ = list(index.labels)
        self.lambda_ = self._projection.lambda_
        self.constraint_values_ = self._projection.constraint_values
        self.allowances_ = self._projection.allowances
        self.report_ = dict(self._projection.report())
        self.n_iter_ = int(self.report_["iterations"])
        return self

    def _fitted_estimator(self, X: Any, y: Any, fit_params: dict) -> Any:
        if not hasattr(self.estimator, "predict_proba"):
            raise FairkitError(
                f"estimator {type(self.estimator).__name__} has no predict_proba: FairProjection "
                "needs class probabilities (use a probabilistic classifier, or pass the "
                "probabilities as X with estimator=None)"
            )
        if self.prefit:
            try:
                check_is_fitted(self.estimator)
            except NotFittedError as e:
                raise NotFittedError(
                    f"prefit=True but the estimator is not fitted: {e}"
                ) from e
            return self.estimator
        if y is None:
            raise FairkitError(
                "FairProjection requires y to be passed, but the target y is None: the "
                "estimator is fitted here (prefit=False) and needs labels"
            )
        _check_two_classes(_factorize_labels(y)[0])
        return clone(self.estimator).fit(X, y, **fit_params)

    def _check_params(self) -> None:
        if not isinstance(self.prefit, (bool, np.bool_)):
            raise FairkitError(f"invalid parameter prefit = {self.prefit!r}: expected True or False")
        if self.threshold is not None and not isinstance(self.threshold, numbers.Real):
            raise FairkitError(
                f"invalid parameter threshold = {self.threshold!r}: expected None or a number in "
                "[0, 1]"
            )
        for name in ("alpha", "tol", "floor"):
            value = getattr(self, name)
            if not isinstance(value, numbers.Real) or isinstance(value, bool):
                raise FairkitError(f"invalid parameter {name} = {value!r}: expected a number")
        if self.zeta is not None and not isinstance(self.zeta, numbers.Real):
            raise FairkitError(f"invalid parameter zeta = {self.zeta!r}: expected None or a number")
        if not isinstance(self.max_iter, numbers.Integral) or self.max_iter < 1:
            raise FairkitError(
                f"invalid parameter max_iter = {self.max_iter!r}: expected an integer >= 1"
            )

    def _constraint_list(self) -> list[str]:
        cs = [self.constraints] if isinstance(self.constraints, str) else list(self.constraints)
        if not all(isinstance(c, str) for c in cs):
            raise FairkitError(
                f"invalid parameter constraints = {self.constraints!r}: expected a name or a list "
                "of names"
            )
        return cs

    # -- prediction ----------------------------------------------------------------------------

    def _inputs(self, X: Any, sensitive_features: Any) -> tuple[np.ndarray, np.ndarray]:
        check_is_fitted(self, "lambda_")
        if sensitive_features is None:
            raise FairkitError(
                "sensitive_features is missing: pass one group label per row, as at fit"
            )
        if self.estimator_ is None:
            proba = _proba_matrix(X, "X (the base probabilities, estimator=None)")
        else:
            proba = _proba_matrix(self.estimator_.predict_proba(X), "estimator.predict_proba(X)")
        if proba.shape[1] != len(self.classes_):
            raise FairkitError(
                f"X has {proba.shape[1]} probability columns but the projector was fitted with "
                f"{len(self.classes_)} classes"
            )
        codes = self._groups.transform(sensitive_features, proba.shape[0])
        return proba, codes

    def predict_proba(self, X: Any, *, sensitive_features: Any = None) -> np.ndarray:
        """Fair class probabilities (N x C, columns in the order of ``classes_``)."""
        proba, codes = self._inputs(X, sensitive_features)
        return self._projection.predict_proba(proba, codes)

    def predict(self, X: Any, *, sensitive_features: Any = None) -> np.ndarray:
        """Fair hard predictions: the most probable class, or ``threshold`` on ``classes_[1]``."""
        proba, codes = self._inputs(X, sensitive_features)
        threshold = None if self.threshold is None else float(self.threshold)
        return self.classes_[self._projection.predict(proba, codes, threshold)]


    # -- pickling ------------------------------------------------------------------------------
    # The fitted projector is saved as the crate's canonical bytes (the joint P(Y, S), λ and the
    # report: classes × groups + constraints numbers, not the fitting rows) with the settings it
    # was fitted with; unpickling restores it without refitting, and it predicts the same bits.

    def __getstate__(self):
        # BaseEstimator may return the live __dict__: copy before dropping the core object.
        state = dict(super().__getstate__())
        projection = state.pop("_projection", None)
        if projection is not None:
            state["_saved_projection"] = projection.to_bytes()
        return state

    def __setstate__(self, state):
        state = dict(state)
        saved = state.pop("_saved_projection", None)
        super().__setstate__(state)
        if saved is not None:
            self._projection = _core.fair_projection_restore(
                saved, self._groups.names, self._fit_settings
            )

    def __sklearn_tags__(self):
        tags = super().__sklearn_tags__()
        if self.estimator is not None:
            # X goes to the base estimator untouched: it decides which inputs it accepts.
            inner = get_tags(self.estimator)
            tags.input_tags.sparse = inner.input_tags.sparse
            tags.input_tags.allow_nan = inner.input_tags.allow_nan
            tags.input_tags.string = inner.input_tags.string
            tags.input_tags.categorical = inner.input_tags.categorical
        return tags


def _n_columns(X: Any) -> int:
    shape = getattr(X, "shape", None)
    if shape is not None and len(shape) == 2:
        return int(shape[1])
    return int(np.asarray(X).shape[1])


def _proba_matrix(values: Any, what: str) -> np.ndarray:
    """An N x C C-contiguous float64 matrix (no copy when it already is one)."""
    if hasattr(values, "to_numpy"):
        values = values.to_numpy()
    try:
        arr = np.asarray(values)
    except (TypeError, ValueError) as e:
        raise FairkitError(f"{what} could not be read as a matrix: {e}") from e
    if arr.dtype.kind not in "fiub":
        raise FairkitError(f"{what} must be numeric probabilities, got dtype {arr.dtype}")
    if arr.ndim != 2:
        raise FairkitError(
            f"{what} must be 2-D (one row per sample, one column per class), got shape {arr.shape}"
        )
    return np.ascontiguousarray(arr, dtype=np.float64)


def _factorize_labels(y: Any) -> tuple[np.ndarray, np.ndarray]:
    """Sorted distinct labels of ``y`` and each row's index into them (int64).

    Integer and bool labels take the core's table-based factorization (one pass, no sort);
    other labels go through ``np.unique``.
    """
    arr = as_1d(y, "y")
    if arr.dtype.kind in "bi" or (arr.dtype.kind == "u" and arr.dtype.itemsize < 8):
        ints = np.ascontiguousarray(arr, dtype=np.int64)
        uniques, codes = _core_metrics.factorize_int(ints)
        return uniques.astype(arr.dtype), ints if codes is None else codes
    check_no_missing(arr, "y")
    try:
        uniques, codes = np.unique(arr, return_inverse=True)
    except TypeError as e:
        raise FairkitError(f"y mixes label types that cannot be compared: {e}") from e
    return uniques, np.ascontiguousarray(codes.reshape(-1), dtype=np.int64)


def _check_two_classes(uniques: np.ndarray) -> None:
    if len(uniques) < 2:
        raise FairkitError(
            f"y has one class only ({', '.join(repr(_py(c)) for c in uniques)}): FairProjection "
            "needs at least 2 classes"
        )


def _classes_and_codes(y: Any, n_columns: int, n: int) -> tuple[np.ndarray, np.ndarray]:
    """``estimator=None``: the classes are the sorted labels of ``y``, one per column."""
    classes, codes = _factorize_labels(y)
    _check_length(codes, n)
    _check_two_classes(classes)
    if len(classes) != n_columns:
        raise FairkitError(
            f"y has {len(classes)} distinct labels but the probability matrix has {n_columns} "
            "columns: the columns must be the classes in sorted label order"
        )
    return classes, codes


def _class_codes(y: Any, classes: np.ndarray, n: int) -> np.ndarray:
    """``y`` as int64 indices into ``classes``; an unknown label raises naming its row."""
    uniques, codes = _factorize_labels(y)
    _check_length(codes, n)
    where = {_py(c): i for i, c in enumerate(classes)}
    index = np.array([where.get(_py(u), -1) for u in uniques], dtype=np.int64)
    if (index < 0).any():
        bad = uniques[int(np.argmax(index < 0))]
        row = int(np.argmax(codes == int(np.argmax(index < 0))))
        raise FairkitError(
            f"y has label {_py(bad)!r} at row {row}, which is not one of the classes "
            f"({', '.join(repr(_py(c)) for c in classes)})"
        )
    if np.array_equal(index, np.arange(len(index))):
        return codes
    return np.ascontiguousarray(index[codes])


def _check_length(codes: np.ndarray, n: int) -> None:
    if len(codes) != n:
        raise FairkitError(f"length mismatch for y: expected {n} rows (as X), got {len(codes)}")


def _py(v: Any) -> Any:
    return v.item() if isinstance(v, np.generic) else v
