"""Fair regression by post-processing to the Wasserstein barycenter (crate ``fair-regression``)."""

from __future__ import annotations

from typing import Any

import numpy as np

from fairkit._core import FairkitError
from fairkit._core import estimators as _core
from fairkit._validation import _feature_columns
from fairkit.estimators._groups import GroupIndex

try:
    from sklearn.base import BaseEstimator, MetaEstimatorMixin, RegressorMixin, clone
    from sklearn.utils.validation import check_is_fitted
except ImportError as e:  # pragma: no cover - exercised only without scikit-learn
    raise ImportError("fairkit.estimators needs scikit-learn: pip install scikit-learn") from e


def _alphas(alpha: Any) -> list[float]:
    """One level or one per attribute, as floats (ranges are checked in Rust)."""
    if np.ndim(alpha) == 0:
        return [float(alpha)]
    return [float(a) for a in alpha]


def _predictions(y_pred: Any) -> np.ndarray:
    y = np.asarray(y_pred, dtype=np.float64)
    if y.ndim == 2 and y.shape[1] == 1:
        y = y[:, 0]
    if y.ndim != 1:
        raise FairkitError(f"predictions must be 1-D (one per row), got shape {y.shape}")
    return np.ascontiguousarray(y)


class WassersteinPostProcessor(BaseEstimator):
    """Maps regression predictions to the Wasserstein barycenter of the groups' distributions.

    Chzhen, Denis, Hebiri, Oneto & Pontil, "Fair Regression with Wasserstein Barycenters"
    (NeurIPS 2020): a prediction ``y`` of group ``s`` becomes ``sum_t p_t Q_t(F_s(y))`` (its
    group's empirical CDF, then the share-weighted average of the groups' quantile functions),
    and ``alpha`` moves along the geodesic: ``(1 - alpha) * fair + alpha * y`` (equipy's
    ``epsilon``; 0 = demographic parity, 1 = unchanged; Chzhen & Schreuder's relative
    improvement ``a`` is ``alpha = sqrt(a)``). Several sensitive features (columns) are made fair
    one after another as equipy's ``MultiWasserstein`` does. The conventions are equipy's, so
    ``sigma=0`` gives ``FairWasserstein(sigma=0)``'s output; ``sigma > 0`` adds equipy's uniform
    jitter in ``[-sigma, sigma]`` from a seeded stream (``random_state``).

    This is the bare post-processor on arrays: ``fit(y_pred, sensitive_features)`` then
    ``transform(y_pred, sensitive_features)``. :class:`WassersteinBarycenter` wraps a regressor.

    Parameters
    ----------
    alpha : float or list of float, default=0.0
        Fairness level in [0, 1], one for all sensitive features or one per feature.
    sigma : float, default=0.0
        Jitter half-width (0: deterministic; equipy's default is 1e-4).
    random_state : int, default=0
        Seed of the jitter.

    Examples
    --------
    >>> import numpy as np
    >>> from fairkit.estimators import WassersteinPostProcessor
    >>> y = np.array([0.0, 1.0, 2.0, 1.0, 2.0, 3.0])
    >>> group = ["a", "a", "a", "b", "b", "b"]
    >>> post = WassersteinPostProcessor().fit(y, sensitive_features=group)
    >>> fair = post.transform(y, sensitive_features=group)
    >>> bool(np.allclose(fair[:3], fair[3:]))
    True
    """

    def __init__(self, alpha: Any = 0.0, *, sigma: float = 0.0, random_state: int = 0):
        self.alpha = alpha
        self.sigma = sigma
        self.random_state = random_state

    def fit(self, y_pred: Any, sensitive_features: Any = None, *, sample_weight: Any = None):
        """Learns every group's CDF and quantile function from the predictions ``y_pred``."""
        y = _predictions(y_pred)
        columns = _feature_columns(sensitive_features)
        self.group_indexes_ = []
        codes = []
        for name, column in columns:
            index, c = GroupIndex.fit(column, len(y))
            self.group_indexes_.append(index)
            codes.append(c)
        w = None if sample_weight is None else np.ascontiguousarray(sample_weight, dtype=np.float64)
        self.model_ = _core.wasserstein_barycenter_fit(
            y, codes, [ix.names for ix in self.group_indexes_], w,
            alpha=_alphas(self.alpha), sigma=float(self.sigma), seed=int(self.random_state),
        )
        self.feature_names_ = [name for name, _ in columns]
        return self

    def _codes(self, sensitive_features: Any, n: int) -> list[np.ndarray]:
        columns = _feature_columns(sensitive_features)
        if len(columns) != len(self.group_indexes_):
            raise FairkitError(
                f"sensitive_features has {len(columns)} feature(s) but the post-processor was "
                f"fitted with {len(self.group_indexes_)} ({', '.join(self.feature_names_)})"
            )
        return [ix.transform(col, n) for ix, (_, col) in zip(self.group_indexes_, columns)]

    def transform(self, y_pred: Any, sensitive_features: Any = None, *, alpha: Any = None) -> np.ndarray:
        """Fair predictions; ``alpha`` overrides the fitted level (no refit needed)."""
        check_is_fitted(self, "model_")
        y = _predictions(y_pred)
        codes = self._codes(sensitive_features, len(y))
        return self.model_.transform(
            y, codes, [ix.names for ix in self.group_indexes_],
            None if alpha is None else _alphas(alpha),
        )

    def fit_transform(self, y_pred: Any, sensitive_features: Any = None, *, sample_weight: Any = None):
        """``fit`` then ``transform`` on the same predictions."""
        return self.fit(y_pred, sensitive_features, sample_weight=sample_weight).transform(
            y_pred, sensitive_features
        )

    # Pickling: the crate's versioned bytes (FKWB) instead of the Rust object.
    def __getstate__(self):
        state = dict(super().__getstate__())
        model = state.pop("model_", None)
        if model is not None:
            state["_saved_model"] = model.to_bytes()
        return state

    def __setstate__(self, state):
        state = dict(state)
        saved = state.pop("_saved_model", None)
        if saved is not None:
            state["model_"] = _core.wasserstein_barycenter_from_bytes(saved)
        super().__setstate__(state)


class WassersteinBarycenter(MetaEstimatorMixin, RegressorMixin, BaseEstimator):
    """A regressor whose predictions are post-processed to the groups' Wasserstein barycenter.

    ``fit(X, y, sensitive_features=...)`` fits ``estimator`` on ``(X, y)`` (unless
    ``prefit=True``: then it must already be fitted and is used as it is), then fits a
    :class:`WassersteinPostProcessor` on its predictions of ``X`` (the calibration rows: pass
    held-out rows with ``prefit=True`` to calibrate on data the regressor did not see).
    ``predict(X, sensitive_features=...)`` post-processes the regressor's predictions.

    Parameters
    ----------
    estimator : regressor, default=None
        Any scikit-learn regressor; ``None`` is ``LinearRegression()``.
    prefit : bool, default=False
        Use ``estimator`` as already fitted.
    alpha, sigma, random_state : as :class:`WassersteinPostProcessor`.

    Attributes
    ----------
    estimator_ : the fitted regressor.  postprocessor_ : the fitted post-processor.

    Pickling stores the post-processor's versioned bytes (``FKWB``).

    Examples
    --------
    >>> import numpy as np, pickle
    >>> from fairkit.estimators import WassersteinBarycenter
    >>> rng = np.random.default_rng(0)
    >>> X = rng.normal(size=(200, 2))
    >>> group = np.where(X[:, 0] > 0, "a", "b")
    >>> y = X @ [1.0, 0.5] + (group == "a") * 2.0
    >>> model = WassersteinBarycenter(alpha=0.0).fit(X, y, sensitive_features=group)
    >>> pred = model.predict(X, sensitive_features=group)
    >>> bool(abs(pred[group == "a"].mean() - pred[group == "b"].mean()) < 0.05)
    True
    >>> again = pickle.loads(pickle.dumps(model))
    >>> bool((again.predict(X, sensitive_features=group) == pred).all())
    True
    """

    def __init__(
        self,
        estimator: Any = None,
        *,
        prefit: bool = False,
        alpha: Any = 0.0,
        sigma: float = 0.0,
        random_state: int = 0,
    ):
        self.estimator = estimator
        self.prefit = prefit
        self.alpha = alpha
        self.sigma = sigma
        self.random_state = random_state

    def fit(self, X: Any, y: Any = None, *, sensitive_features: Any = None, sample_weight: Any = None):
        """Fits the regressor (unless ``prefit``) and the post-processor on its predictions."""
        if sensitive_features is None:
            raise FairkitError(
                "sensitive_features is missing: WassersteinBarycenter.fit needs one group label "
                "per row (sensitive_features=...)"
            )
        if self.prefit:
            if self.estimator is None:
                raise FairkitError("prefit=True needs a fitted estimator (estimator=...)")
            check_is_fitted(self.estimator)
            self.estimator_ = self.estimator
        else:
            if y is None:
                raise FairkitError("y is missing: fitting the regressor needs targets (or prefit=True)")
            if self.estimator is None:
                from sklearn.linear_model import LinearRegression

                base = LinearRegression()
            else:
                base = clone(self.estimator)
            if sample_weight is None:
                self.estimator_ = base.fit(X, y)
            else:
                self.estimator_ = base.fit(X, y, sample_weight=sample_weight)
        if hasattr(self.estimator_, "n_features_in_"):
            self.n_features_in_ = self.estimator_.n_features_in_
        self.postprocessor_ = WassersteinPostProcessor(
            self.alpha, sigma=self.sigma, random_state=self.random_state
        ).fit(self.estimator_.predict(X), sensitive_features, sample_weight=sample_weight)
        return self

    def predict(self, X: Any, *, sensitive_features: Any = None, alpha: Any = None) -> np.ndarray:
        """Post-processed predictions; ``alpha`` overrides the fitted level."""
        check_is_fitted(self, "postprocessor_")
        return self.postprocessor_.transform(
            self.estimator_.predict(X), sensitive_features, alpha=alpha
        )
