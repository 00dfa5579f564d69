"""FairSVM: the spectral fair SVM, fair at every threshold (crate ``fair-svm``)."""

from __future__ import annotations

import numbers
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


class FairSVM(ClassifierMixin, BaseEstimator):
    """Support vector machine whose scores are fair at every threshold.

    Olfat & Aswani, "Spectral Algorithms for Computing Fair Support Vector Machines" (AISTATS
    2018). The two groups' score distributions are matched in mean (``|m^T w| <= d``) and
    covariance (penalty ``mu |w^T (S+ - S-) w|``, made tractable by a spectral split and the
    convex-concave procedure), so demographic parity (or equal opportunity) holds approximately
    for every threshold, not one. The core is the Rust crate ``fair-svm``; the GIL is released
    during the fit. The crate offers no way to stop a fit early, so Ctrl-C takes effect when the
    fit returns. ``sensitive_features`` (exactly two groups) is needed at fit only: the scores
    do not use the group.

    Parameters
    ----------
    kernel : {"linear_primal", "linear", "rbf", "poly"}, default="linear_primal"
        The linear primal SSVM, or the kernel SSVM with that kernel.
    ridge : float, default=0.01
        The paper's lambda: weight of ``||w||^2`` in ``(1/n) sum u_i + lambda ||w||^2`` (named
        ``ridge`` because scikit-learn reserves trailing underscores for fitted attributes).
    d : float, default=inf
        Bound on the mean gap (``inf``: none).
    mu : float, default=1.0
        Weight of the covariance-gap penalty (0: none).
    constraints : {"demographic_parity", "equal_opportunity"}, default="demographic_parity"
        The fairness notion, in the vocabulary every fairkit estimator shares (aliases
        ``"statistical_parity"``, ``"true_positive_rate_parity"``): the score distribution
        independent of the group (demographic parity at every threshold), or the same on the
        rows with ``y = classes_[1]`` (equal opportunity at every threshold). Other names raise
        an error listing these.
    fairness : str
        Deprecated name of ``constraints`` (FutureWarning; removed in fairkit 0.3).
    gamma, degree, coef0 : kernel parameters (defaults 1.0, 3, 1.0).
    tol, max_iter : convex-concave stopping tolerance and iteration limit (1e-3, 100, the
        crate's defaults).

    Attributes
    ----------
    classes_, n_features_in_, groups_ : as usual; ``classes_[1]`` is the positive class and
    ``groups_[1]`` the protected class z = +1.
    report_ : dict (``status``, ``iterations``, ``mean_gap``, ``covariance_gap``, ...).

    Pickling stores the crate's versioned bytes of the score function (``fair_svm``'s
    ``FairSvmScorer``): the weights and intercept of the linear model (size independent of the
    rows), or the kernel model's support vectors and dual coefficients. Nothing is refitted on
    unpickling, and the scores are the same bits.

    Examples
    --------
    >>> import numpy as np, pickle
    >>> from fairkit.estimators import FairSVM
    >>> rng = np.random.default_rng(0)
    >>> X = rng.normal(size=(60, 3))
    >>> y = (X[:, 0] > 0).astype(int)
    >>> group = np.where(rng.random(60) < 0.5, "a", "b")
    >>> svm = FairSVM(constraints="demographic_parity", mu=1.0).fit(X, y, sensitive_features=group)
    >>> again = pickle.loads(pickle.dumps(svm))
    >>> bool((again.decision_function(X) == svm.decision_function(X)).all())
    True
    """

    def __init__(
        self,
        kernel: str = "linear_primal",
        *,
        ridge: float = 0.01,
        d: float = float("inf"),
        mu: float = 1.0,
        constraints: str = "demographic_parity",
        gamma: float = 1.0,
        degree: int = 3,
        coef0: float = 1.0,
        tol: float = 1e-3,
        max_iter: int = 100,
        fairness: Any = DEPRECATED,
    ):
        self.kernel = kernel
        self.ridge = ridge
        self.d = d
        self.mu = mu
        self.constraints = constraints
        self.gamma = gamma
        self.degree = degree
        self.coef0 = coef0
        self.tol = tol
        self.max_iter = max_iter
        self.fairness = fairness

    def fit(self, X: Any, y: Any, *, sensitive_features: Any = None):
        """Fits on ``(X, y)``; ``sensitive_features`` must have exactly two groups."""
        constraint = canonical_constraint(
            renamed(self, "fairness", "constraints", "demographic_parity"), "FairSVM"
        )
        X, y, classes, codes = binary_fit_inputs(self, X, y, sensitive_features)
        index, group_codes = GroupIndex.fit(sensitive_features, X.shape[0])
        if len(index.labels) != 2:
            raise FairkitError(
                f"sensitive_features has {len(index.labels)} group(s) "
                f"({', '.join(index.names[:5])}): FairSVM compares exactly two protected classes"
            )
        for name in ("degree", "max_iter"):
            value = getattr(self, name)
            if not isinstance(value, numbers.Integral) or value < 0:
                raise FairkitError(f"invalid parameter {name} = {value!r}: expected an integer >= 0")
        settings = dict(
            kernel=self.kernel, gamma=float(self.gamma), degree=int(self.degree),
            coef0=float(self.coef0), lambda_=float(self.ridge), d=float(self.d),
            mu=float(self.mu), fairness=constraint, tol=float(self.tol),
            max_iter=int(self.max_iter),
        )
        # 0/1 class codes (classes_[1] is 1) and the two groups' codes: the crate takes group
        # code 1 (groups_[1]) as the paper's z = +1; the fit is symmetric in the two groups.
        fitted = _core.fair_svm_fit(
            X, np.ascontiguousarray(codes, dtype=np.int64),
            np.ascontiguousarray(group_codes, dtype=np.int64),
            [str(name) for name in index.names], **settings,
        )
        # Predict through the saved score function, so a pickled copy (which restores exactly
        # these bytes) gives the same bits as this one.
        self._core = _core.fair_svm_from_bytes(fitted.to_bytes())
        self.classes_ = classes
        self.groups_ = list(index.labels)
        self.report_ = dict(fitted.report())
        self.n_iter_ = int(self.report_["iterations"])
        return self

    def decision_function(self, X: Any) -> np.ndarray:
        """Scores; positive favours ``classes_[1]``."""
        check_is_fitted(self, "report_")
        X = validate_data(self, X, dtype=np.float64, order="C", reset=False)
        return self._core.decision_function(X)

    def predict(self, X: Any) -> np.ndarray:
        """``classes_[1]`` where the score is positive."""
        positive = self.decision_function(X) > 0  # checks fitted first
        return self.classes_[positive.astype(np.int64)]

    # -- pickling: the crate's versioned bytes of the score function, no training rows --------

    def __getstate__(self):
        state = dict(super().__getstate__())
        core = state.pop("_core", None)
        if core is not None:
            state["_saved_scorer"] = core.to_bytes()
        return state

    def __setstate__(self, state):
        state = dict(state)
        saved = state.pop("_saved_scorer", None)
        if saved is not None:
            state["_core"] = _core.fair_svm_from_bytes(saved)
        super().__setstate__(state)

    def __sklearn_tags__(self):
        tags = super().__sklearn_tags__()
        tags.classifier_tags.multi_class = False
        return tags
