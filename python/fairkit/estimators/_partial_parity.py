"""PartialParityClassifier: fairness on an interval of percentiles (crate ``dc-opt``)."""

from __future__ import annotations

import numbers
from typing import Any

import numpy as np

from fairkit._core import FairkitError
from fairkit._core import estimators as _core
from fairkit.estimators._binary import binary_fit_inputs
from fairkit.estimators._groups import GroupIndex

try:
    from sklearn.base import BaseEstimator, ClassifierMixin
    from sklearn.utils.validation import check_is_fitted, validate_data
except ImportError as e:  # pragma: no cover - exercised only without scikit-learn
    raise ImportError("fairkit.estimators needs scikit-learn: pip install scikit-learn") from e


class PartialParityClassifier(ClassifierMixin, BaseEstimator):
    """Linear classifier with fair predicted scores on an interval of percentiles.

    He, Huang, Yao & Lin, "Enforcing Fair Predicted Scores on Intervals of Percentiles by
    Difference-of-Convex Constraints" (arXiv:2505.12530). The model is the paper's linear
    scorer with group cross terms, ``h_w(x, s) = <w, (1, x, g, g x)>`` (``g`` = group index + 1),
    trained with the logistic loss under a difference-of-convex fairness constraint on the
    scores whose percentiles lie in ``interval``, by the inexact DCA (IDCA). The core is the
    Rust crate ``dc-opt``; the GIL is released and Ctrl-C stops a running fit (checked after
    every outer iteration). The scores depend on the group, so ``sensitive_features`` is needed
    at fit and at prediction.

    Parameters
    ----------
    constraint : {"statistical_parity", "demographic_parity", "equal_opportunity",
        "equalized_odds"}, default="statistical_parity"
        Partial statistical parity (model (15), on a grid of percentiles) or partial demographic
        parity on the interval (model (21)) and its equal-opportunity / equalized-odds variants.
    interval : (float, float), default=(0.0, 0.5)
        Percentile interval ``[alpha, beta)`` of the scores where parity is enforced.
    kappa : float, default=0.05
        Tolerance of the constraint, in [0, 1].
    grid_size : int, default=10
        Grid points in the interval (statistical parity).
    threshold : float, default=0.0
        Score threshold of the demographic-parity models (the paper uses 0).
    surrogate : {"hard_sigmoid", "logistic"}, default="hard_sigmoid"
    outer_iters, inner_iters : int, default=40, 100
        IDCA outer iterations and inner switching-subgradient iterations.
    eps : float, default=1e-3
        Constraint tolerance of the inner solver.

    Attributes
    ----------
    classes_, n_features_in_, groups_ : as usual; ``classes_[1]`` is the positive class.
    coef_ : ndarray of length ``2 * n_features_in_ + 2``, the weights ``w``.
    report_ : dict, the solver's report (``summary``, ``objective``, ``max_violation``).
    n_iter_ : int, outer iterations run.
    """

    def __init__(
        self,
        constraint: str = "statistical_parity",
        *,
        interval: tuple = (0.0, 0.5),
        kappa: float = 0.05,
        grid_size: int = 10,
        threshold: float = 0.0,
        surrogate: str = "hard_sigmoid",
        outer_iters: int = 40,
        inner_iters: int = 100,
        eps: float = 1e-3,
    ):
        self.constraint = constraint
        self.interval = interval
        self.kappa = kappa
        self.grid_size = grid_size
        self.threshold = threshold
        self.surrogate = surrogate
        self.outer_iters = outer_iters
        self.inner_iters = inner_iters
        self.eps = eps

    def fit(self, X: Any, y: Any, *, sensitive_features: Any = None):
        """Trains on ``(X, y)`` with one group label per row in ``sensitive_features``."""
        X, y, classes, codes = binary_fit_inputs(self, X, y, sensitive_features)
        try:
            lo, hi = (float(v) for v in self.interval)
        except (TypeError, ValueError) as e:
            raise FairkitError(
                f"invalid parameter interval = {self.interval!r}: expected (alpha, beta)"
            ) from e
        for name in ("grid_size", "outer_iters", "inner_iters"):
            value = getattr(self, name)
            if not isinstance(value, numbers.Integral) or value < 1:
                raise FairkitError(f"invalid parameter {name} = {value!r}: expected an integer >= 1")
        index, group_codes = GroupIndex.fit(sensitive_features, X.shape[0])
        w, info = _core.partial_parity_fit(
            X, codes, group_codes, index.names,
            constraint=self.constraint, interval=(lo, hi), kappa=float(self.kappa),
            grid_size=int(self.grid_size), threshold=float(self.threshold),
            surrogate=self.surrogate, outer_iters=int(self.outer_iters),
            inner_iters=int(self.inner_iters), eps=float(self.eps),
        )
        self.classes_ = classes
        self._groups = index
        self.groups_ = list(index.labels)
        self.coef_ = w
        self.report_ = dict(info)
        self.n_iter_ = int(info["iterations"])
        return self

    def decision_function(self, X: Any, *, sensitive_features: Any = None) -> np.ndarray:
        """Scores ``<w, (1, x, g, g x)>``; positive favours ``classes_[1]``."""
        return self._scores(X, sensitive_features)

    def _scores(self, X: Any, sensitive_features: Any) -> np.ndarray:
        check_is_fitted(self, "coef_")
        X = validate_data(self, X, dtype=np.float64, order="C", reset=False)
        if sensitive_features is None:
            raise FairkitError(
                "sensitive_features is missing: the scores depend on the group; pass one group "
                "label per row, as at fit"
            )
        codes = self._groups.transform(sensitive_features, X.shape[0])
        return _core.partial_parity_scores(self.coef_, X, codes, self._groups.names)

    def predict_proba(self, X: Any, *, sensitive_features: Any = None) -> np.ndarray:
        """Logistic link of the scores (the training loss is the logistic loss)."""
        s = self._scores(X, sensitive_features)
        p1 = 1.0 / (1.0 + np.exp(-s))
        return np.column_stack([1.0 - p1, p1])

    def predict(self, X: Any, *, sensitive_features: Any = None) -> np.ndarray:
        """``classes_[1]`` where the score is positive, else ``classes_[0]``."""
        s = self._scores(X, sensitive_features)
        return self.classes_[(s > 0).astype(np.int64)]

    def __sklearn_tags__(self):
        tags = super().__sklearn_tags__()
        tags.classifier_tags.multi_class = False  # binary scores
        return tags
