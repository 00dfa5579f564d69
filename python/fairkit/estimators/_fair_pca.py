"""FairPCA: Pareto fair principal component analysis (crate ``fair-pca``)."""

from __future__ import annotations

import numbers
from typing import Any

import numpy as np

from fairkit._core import FairkitError
from fairkit._core import estimators as _core
from fairkit.estimators._groups import GroupIndex
from fairkit.estimators._params import DEPRECATED, renamed

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
    random_state : int, default=0
        Seed of the random starts: same seed, same bits.
    seed : int
        Deprecated name of ``random_state`` (FutureWarning; removed in fairkit 0.3).

    Attributes
    ----------
    components_ : ndarray (n_components, n_features), orthonormal rows.
    mean_ : ndarray (n_features,), the centring mean.
    n_features_in_, groups_, report_, n_iter_ : as usual.

    Pickling stores the crate's versioned bytes of the projection (``U`` and ``mean_``: d·(r+1)
    numbers, never the fitting rows); unpickling checks and restores them, and ``transform``
    gives the same bits.

    Examples
    --------
    >>> import numpy as np, pickle
    >>> from fairkit.estimators import FairPCA
    >>> rng = np.random.default_rng(0)
    >>> X = rng.normal(size=(40, 4))
    >>> group = ["a"] * 20 + ["b"] * 20
    >>> pca = FairPCA(n_components=2, max_iter=50, random_state=0).fit(X, sensitive_features=group)
    >>> pca.transform(X).shape
    (40, 2)
    >>> again = pickle.loads(pickle.dumps(pca))
    >>> bool((again.transform(X) == pca.transform(X)).all())
    True
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
        random_state: int = 0,
        seed: Any = DEPRECATED,
    ):
        self.n_components = n_components
        self.objectives = objectives
        self.penalty = penalty
        self.alpha = alpha
        self.max_iter = max_iter
        self.tol = tol
        self.random_starts = random_starts
        self.random_state = random_state
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
        random_state = renamed(self, "seed", "random_state", 0)
        values = dict(
            n_components=self.n_components, max_iter=self.max_iter,
            random_starts=self.random_starts, random_state=random_state,
        )
        for name, value in values.items():
            if not isinstance(value, numbers.Integral) or isinstance(value, bool) or value < 0:
                raise FairkitError(f"invalid parameter {name} = {value!r}: expected an integer >= 0")
        index, codes = GroupIndex.fit(sensitive_features, X.shape[0])
        basis, mean, info = _core.fair_pca_fit(
            X, codes, index.names, rank=int(self.n_components), objectives=self.objectives,
            penalty=self.penalty, alpha=float(self.alpha), max_iter=int(self.max_iter),
            tol=float(self.tol), random_starts=int(self.random_starts), seed=int(random_state),
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

    # -- pickling: the crate's versioned bytes of the projection (fair_pca::Projection) --------

    def __getstate__(self):
        state = dict(super().__getstate__())
        basis = state.pop("_basis", None)
        if basis is not None:
            state["_saved_projection"] = _core.fair_pca_to_bytes(basis, state.pop("mean_"))
            state.pop("components_", None)
        return state

    def __setstate__(self, state):
        state = dict(state)
        saved = state.pop("_saved_projection", None)
        if saved is not None:
            basis, mean = _core.fair_pca_from_bytes(saved)
            state["_basis"] = basis
            state["components_"] = np.ascontiguousarray(basis.T)
            state["mean_"] = mean
        super().__setstate__(state)
