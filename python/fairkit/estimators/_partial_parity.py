"""PartialParityClassifier: fairness on an interval of percentiles (crate ``dc-opt``)."""

from __future__ import annotations

import numbers
import warnings
from typing import Any

import numpy as np

from fairkit._core import FairkitError
from fairkit._core import estimators as _core
from fairkit.estimators._binary import binary_fit_inputs
from fairkit.estimators._groups import GroupIndex
from fairkit.estimators._params import DEPRECATED, canonical_constraint, renamed

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
    constraints : {"percentile_parity", "demographic_parity", "equal_opportunity", \
        "equalized_odds"}, default="percentile_parity"
        The constraint, in the vocabulary every fairkit estimator shares:

        * ``"percentile_parity"``: the groups' score percentiles agree on the interval (the
          paper's partial statistical parity, model (15), on a grid of percentiles);
        * ``"demographic_parity"`` (alias ``"statistical_parity"``): the groups' selection
          rates at ``threshold`` agree where they fall in the interval (model (21));
        * ``"equal_opportunity"`` (alias ``"true_positive_rate_parity"``, model (50)) and
          ``"equalized_odds"`` (model (56)): the same on the positives, and on both classes.

        Other names raise an error listing these. *Changed in fairkit 0.2:* the model (15) was
        called ``"statistical_parity"`` here, while every other estimator reads that name as
        demographic parity; it is now ``"percentile_parity"`` (still the default), and
        ``"statistical_parity"`` means demographic parity (model (21)) as everywhere, with a
        FutureWarning saying so until fairkit 0.3.
    interval : (float, float), default=(0.0, 0.5)
        Percentile interval ``[alpha, beta)`` of the scores where parity is enforced.
    kappa : float, default=0.05
        Tolerance of the constraint, in [0, 1].
    grid_size : int, default=10
        Grid points in the interval (percentile parity).
    threshold : float, default=0.0
        Score threshold of the demographic-parity models (the paper uses 0).
    surrogate : {"hard_sigmoid", "logistic"}, default="hard_sigmoid"
    max_iter : int, default=40
        IDCA outer iterations.
    max_inner_iter : int, default=100
        Inner switching-subgradient iterations per outer iteration.
    eps : float, default=1e-3
        Constraint tolerance of the inner solver.
    constraint, outer_iters, inner_iters :
        Deprecated names of ``constraints``, ``max_iter`` and ``max_inner_iter``
        (FutureWarning; removed in fairkit 0.3).

    Attributes
    ----------
    classes_, n_features_in_, groups_ : as usual; ``classes_[1]`` is the positive class.
    coef_ : ndarray of length ``2 * n_features_in_ + 2``, the weights ``w``.
    report_ : dict, the solver's report (``summary``, ``objective``, ``max_violation``).
    n_iter_ : int, outer iterations run.

    Pickling stores the crate's versioned bytes of the model (``dc_opt::CrossModel``: ``w`` and
    the group names, never the fitting rows); unpickling checks and restores them.

    Examples
    --------
    >>> import numpy as np, pickle
    >>> from fairkit.estimators import PartialParityClassifier
    >>> rng = np.random.default_rng(0)
    >>> X = rng.normal(size=(80, 2))
    >>> group = np.where(rng.random(80) < 0.5, "a", "b")
    >>> y = (X[:, 0] + 0.5 * (group == "a") > 0).astype(int)
    >>> clf = PartialParityClassifier("demographic_parity", max_iter=5, max_inner_iter=20)
    >>> clf = clf.fit(X, y, sensitive_features=group)
    >>> again = pickle.loads(pickle.dumps(clf))
    >>> p = clf.predict_proba(X, sensitive_features=group)
    >>> bool((again.predict_proba(X, sensitive_features=group) == p).all())
    True
    """

    def __init__(
        self,
        constraints: str = "percentile_parity",
        *,
        interval: tuple = (0.0, 0.5),
        kappa: float = 0.05,
        grid_size: int = 10,
        threshold: float = 0.0,
        surrogate: str = "hard_sigmoid",
        max_iter: int = 40,
        max_inner_iter: int = 100,
        eps: float = 1e-3,
        constraint: Any = DEPRECATED,
        outer_iters: Any = DEPRECATED,
        inner_iters: Any = DEPRECATED,
    ):
        self.constraints = constraints
        self.interval = interval
        self.kappa = kappa
        self.grid_size = grid_size
        self.threshold = threshold
        self.surrogate = surrogate
        self.max_iter = max_iter
        self.max_inner_iter = max_inner_iter
        self.eps = eps
        self.constraint = constraint
        self.outer_iters = outer_iters
        self.inner_iters = inner_iters

    def fit(self, X: Any, y: Any, *, sensitive_features: Any = None):
        """Trains on ``(X, y)`` with one group label per row in ``sensitive_features``."""
        constraint = self._constraint()
        iters = dict(
            max_iter=renamed(self, "outer_iters", "max_iter", 40),
            max_inner_iter=renamed(self, "inner_iters", "max_inner_iter", 100),
            grid_size=self.grid_size,
        )
        X, y, classes, codes = binary_fit_inputs(self, X, y, sensitive_features)
        try:
            lo, hi = (float(v) for v in self.interval)
        except (TypeError, ValueError) as e:
            raise FairkitError(
                f"invalid parameter interval = {self.interval!r}: expected (alpha, beta)"
            ) from e
        for name, value in iters.items():
            if not isinstance(value, numbers.Integral) or isinstance(value, bool) or value < 1:
                raise FairkitError(f"invalid parameter {name} = {value!r}: expected an integer >= 1")
        index, group_codes = GroupIndex.fit(sensitive_features, X.shape[0])
        w, info = _core.partial_parity_fit(
            X, codes, group_codes, index.names,
            constraint=constraint, interval=(lo, hi), kappa=float(self.kappa),
            grid_size=int(self.grid_size), threshold=float(self.threshold),
            surrogate=self.surrogate, outer_iters=int(iters["max_iter"]),
            inner_iters=int(iters["max_inner_iter"]), eps=float(self.eps),
        )
        self.classes_ = classes
        self._groups = index
        self.groups_ = list(index.labels)
        self.coef_ = w
        self.report_ = dict(info)
        self.n_iter_ = int(info["iterations"])
        return self

    def _constraint(self) -> str:
        name = renamed(self, "constraint", "constraints", "percentile_parity")
        if isinstance(name, str) and name == "statistical_parity":
            warnings.warn(
                "PartialParityClassifier: 'statistical_parity' now means demographic parity "
                "(model (21)), as in every fairkit estimator; before fairkit 0.2 it selected the "
                "percentile-grid model (15), now called 'percentile_parity' (the default): pass "
                "constraints='percentile_parity' for the old behaviour, or 'demographic_parity' "
                "to silence this warning",
                FutureWarning,
                stacklevel=3,
            )
        return canonical_constraint(name, "PartialParityClassifier")

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

    # -- pickling: the crate's versioned bytes of the model (dc_opt::CrossModel) --------------

    def __getstate__(self):
        state = dict(super().__getstate__())
        coef = state.pop("coef_", None)
        if coef is not None:
            state["_saved_model"] = _core.partial_parity_to_bytes(coef, state["_groups"].names)
        return state

    def __setstate__(self, state):
        state = dict(state)
        saved = state.pop("_saved_model", None)
        if saved is not None:
            coef, names = _core.partial_parity_from_bytes(saved)
            if names != state["_groups"].names:
                raise FairkitError(
                    "corrupted PartialParityClassifier state: the saved model's groups "
                    f"{names} are not the estimator's {state['_groups'].names}"
                )
            state["coef_"] = coef
        super().__setstate__(state)

    def __sklearn_tags__(self):
        tags = super().__sklearn_tags__()
        tags.classifier_tags.multi_class = False  # binary scores
        return tags

