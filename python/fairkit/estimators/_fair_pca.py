"""FairPCA: Pareto fair principal component analysis (crate ``fair-pca``)."""

from __future__ import annotations

import numbers
from typing import Any

import numpy as np

from fairkit._core import FairkitError
from fairkit._core import estimators as _core
from fairkit.estimators._groups import GroupIndex

try:
    from sklearn.base import BaseEstimator, TransformerMixin
    from sklearn.utils.validation import check_is_fitted, validate_data
except ImportError as e:  # pragma: no cover - exercised only without scikit-learn
    raise ImportError("fairkit.estimators needs scikit-learn: pip install scikit-learn") from e


class FairPCA(TransformerMixin, BaseEstimator):
    """Projection onto ``n_components`` directions that share the reconstruction loss fairly.

    Kamani, Haddadpour, Forsati & Mahdavi, "Efficient Fair Principal Component Analysis"
    (Machine Learning 2022): multi-objective gradient descent over orthonormal frames on the
    total loss and the groups' disparities (what each group loses by sharing the subspace,
    compared with its own PCA). The default (the crate's since issue 16) starts from the min–max
    solution of the multiplicative-weights baseline and descends on the total loss, every group's
    disparity and every pairwise gap at once (Riemannian gradients, Armijo steps) until it is
    Pareto-stationary, so it is never worse than that baseline on any of them. The core
    is the Rust crate ``fair-pca``; the GIL is released and Ctrl-C stops a running fit (checked
    every 20 iterations). ``sensitive_features`` is needed at fit only: ``transform`` is the
    projection ``(X - mean_) @ components_.T``, the same for everyone.

    Parameters
    ----------
    n_components : int, default=2
        Target dimension r (< number of features).
    objectives : {"per_group_and_pairwise", "pairwise", "per_group"}, default="per_group_and_pairwise"
        Penalise each group's excess loss (eq. 9) and the pairwise gaps (eq. 12) together, the
        pairwise gaps only, or each group's excess loss only.
    penalty : {"square", "abs", "neg_exp"}, default="square"
    alpha : float, default=0.0
        Regulariser of eq. (19).
    max_iter : int, default=2000
    tol : float, default=1e-5
        Stop when the multi-objective descent direction has norm <= tol (Pareto-stationary).
    random_starts : int, default=0
        Seeded random starts besides the default start (the best one is kept).
    seed : int, default=0

    Attributes
    ----------
    components_ : ndarray (n_components, n_features), orthonormal rows.
    mean_ : ndarray (n_features,), the centring mean.
    n_features_in_, groups_, report_, n_iter_ : as usual.
    """

    def __init__(
        self,
        n_components: int = 2,
        *,
        objectives: str = "per_group_and_pairwise",
        penalty: str = "square",
        alpha: float = 0.0,
        max_iter: int = 2000,
        tol: float = 1e-5,
        random_starts: int = 0,
        seed: int = 0,
    ):
        self.n_components = n_components
        self.objectives = objectives
        self.penalty = penalty
        self.alpha = alpha
        self.max_iter = max_iter
        self.tol = tol
        self.random_starts = random_starts
        self.seed = seed

    def fit(self, X: Any, y: Any = None, *, sensitive_features: Any = None):
        """Learns the fair subspace of ``X`` for the groups in ``sensitive_features``."""
        return self._fit(X, sensitive_features)

    def _fit(self, X: Any, sensitive_features: Any):
        if sensitive_features is None:
            raise FairkitError(
                "sensitive_features is missing: FairPCA.fit needs one group label per row "
                "(sensitive_features=...)"
            )
        # A subspace of dimension 1 <= r < d needs two features; disparities need two rows.
        X = validate_data(
            self, X, dtype=np.float64, order="C", ensure_min_samples=2, ensure_min_features=2
        )
        for name in ("n_components", "max_iter", "random_starts", "seed"):
            value = getattr(self, name)
            if not isinstance(value, numbers.Integral) or value < 0:
                raise FairkitError(f"invalid parameter {name} = {value!r}: expected an integer >= 0")
        index, codes = GroupIndex.fit(sensitive_features, X.shape[0])
        basis, mean, info = _core.fair_pca_fit(
            X, codes, index.names, rank=int(self.n_components), objectives=self.objectives,
            penalty=self.penalty, alpha=float(self.alpha), max_iter=int(self.max_iter),
            tol=float(self.tol), random_starts=int(self.random_starts), seed=int(self.seed),
        )
        self._basis = basis
        self.components_ = np.ascontiguousarray(basis.T)
        self.mean_ = mean
        self.groups_ = list(index.labels)
        self.report_ = dict(info)
        self.n_iter_ = int(info["iterations"])
        self._n_features_out = basis.shape[1]
        return self

    def transform(self, X: Any) -> np.ndarray:
        """``(X - mean_) @ components_.T``."""
        check_is_fitted(self, "components_")
        X = validate_data(self, X, dtype=np.float64, order="C", reset=False)
        return _core.fair_pca_transform(self._basis, self.mean_, X)

    def fit_transform(self, X: Any, y: Any = None, *, sensitive_features: Any = None):
        """``fit`` then ``transform`` on the same rows."""
        return self._fit(X, sensitive_features).transform(X)
