"""FairProjection: fair post-processing of a probabilistic classifier by information projection."""

from __future__ import annotations

import numbers
import warnings
from typing import Any

import numpy as np

from fairkit._core import FairkitError
from fairkit._core import estimators as _core
from fairkit._core import metrics as _core_metrics
from fairkit._validation import as_1d, check_no_missing
from fairkit.estimators._groups import GroupIndex
from fairkit.estimators._params import canonical_constraint

try:
    from sklearn.base import BaseEstimator, ClassifierMixin, MetaEstimatorMixin, clone
    from sklearn.exceptions import ConvergenceWarning, NotFittedError
    from sklearn.utils import get_tags
    from sklearn.utils.validation import check_is_fitted
except ImportError as e:  # pragma: no cover - exercised only without scikit-learn
    raise ImportError(
        "fairkit.estimators needs scikit-learn: pip install scikit-learn"
    ) from e


_DECISIONS = ("auto", "thresholds", "argmax", "sample")
# The shared vocabulary's names this estimator enforces -> the binding's names.


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
        Names in the vocabulary every fairkit estimator shares: ``"demographic_parity"``
        (alias ``"statistical_parity"``): ``|P(Y^=c|S=a)/P(Y^=c) - 1| <= alpha``;
        ``"equalized_odds"`` (every true/predicted class pair); ``"equalized_odds_diagonal"``
        (true = predicted class only, the authors' code); ``"error_rate_parity"`` (aliases
        ``"overall_accuracy"``, ``"equal_accuracy"``: equal accuracy); two classes only:
        ``"equal_opportunity"`` (alias ``"true_positive_rate_parity"``, fairlearn's
        ``TruePositiveRateParity``) and ``"false_positive_rate_parity"``. A list stacks
        several; another name raises an error listing these.
    alpha : float, default=0.05
        Relative tolerance of every constraint (>= 0).
    divergence : {"kl", "cross_entropy"}, default="kl"
        ``KL(h || p)`` (softmax tilt) or ``KL(p || h)`` (FairProjection-CE).
    solver : {"dual", "admm"}, default="dual"
        Direct projected Newton/L-BFGS on the dual, or the paper's ADMM; both reach the same
        multipliers (to ``tol``).
    prefit : bool, default=False
        Use ``estimator`` as already fitted (not cloned, not refitted).
    decision : {"auto", "thresholds", "argmax", "sample"}, default="auto"
        How ``predict`` turns the fair probabilities into labels, and what it guarantees:

        * ``"thresholds"`` (two classes; what ``"auto"`` means for two classes): randomized
          group thresholds on the fair probability of ``classes_[1]``, fitted on the training
          rows as the most accurate rule of that kind whose *hard decisions* meet the
          constraints there — the relative tolerance ``alpha`` on every rate the constraints
          name (for equalized odds: true- and false-positive rates and their complements), or
          ``difference_bound`` when given. Found exactly by a linear program over each group's
          ROC hull (Hardt et al. 2016's derived predictor, without a grid). Rows near a
          threshold are decided by a seeded draw (``random_state``): same seed, same labels.
        * ``"argmax"`` (what ``"auto"`` means for more than two classes): the most probable
          class. Deterministic, but carries no fairness guarantee: only the probabilities do.
        * ``"sample"``: a seeded draw from the fair probabilities; meets the constraints in
          expectation (as ``predict_proba``), at a cost in accuracy.

        ``predict_proba`` always returns the projected probabilities, whose *expected* rates
        meet the constraints up to ``alpha`` and the ``zeta`` relaxation (``allowances_``).
    difference_bound : float or None, default=None
        fairlearn-style bound on the hard decisions: the largest difference between groups of
        every constrained rate (e.g. ``equalized_odds_difference <= difference_bound`` on the
        training rows). None: the relative ``alpha``. Used by ``decision="thresholds"``.
    random_state : int, default=0
        Seed of ``predict``'s draws (``"thresholds"`` and ``"sample"``).
    threshold : float or None, default=None
        Overrides ``decision`` (two classes only): predict ``classes_[1]`` when its fair
        probability exceeds this fixed value (the authors' code uses 0.5). No guarantee.
    zeta : float or None, default=None
        Regulariser of the relaxed problem (6) of the paper; None uses the paper's
        ``1/sqrt(N)``. It loosens the constraints of ``predict_proba`` by ``allowances_``
        (``report_["max_violation"]`` is the largest constraint value reached): on Adult/sex
        with statistical parity at ``alpha=0`` the fair probabilities' training DP gap is
        0.0087 with the default and 0.0002 with ``zeta=1e-4`` (same 4 iterations). ``predict``'s
        threshold rule is fitted exactly to ``alpha`` (or ``difference_bound``) whatever zeta.
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
    decision_rates_ : dict or None
        ``decision="thresholds"``: the expected rates of ``predict``'s hard decisions on the
        fitting rows per group (``selection_rate``, ``true_positive_rate``,
        ``false_positive_rate``, ``accuracy``) and their ``overall_accuracy``; None otherwise.
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
        decision: str = "auto",
        difference_bound: float | None = None,
        random_state: int = 0,
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
        self.decision = decision
        self.difference_bound = difference_bound
        self.random_state = random_state
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
        self._set_fitted(core, settings, index)
        self._fit_decision_rule(proba, codes, labels)
        self._warn_if_unmet()
        return self

    def _resolved_decision(self) -> str:
        if self.decision == "auto":
            return "thresholds" if len(self.classes_) == 2 else "argmax"
        return self.decision

    def _fit_decision_rule(self, proba: np.ndarray, codes: np.ndarray, labels: Any) -> None:
        """``decision="thresholds"``: the group-threshold rule, fitted on the training rows."""
        self._decision_rule = None
        self.decision_rates_ = None
        if self._resolved_decision() != "thresholds":
            return
        if len(self.classes_) != 2:
            raise FairkitError(
                f"decision='thresholds' needs two classes, got {len(self.classes_)}: use "
                "decision='argmax' or 'sample' for more"
            )
        bound = None if self.difference_bound is None else float(self.difference_bound)
        self._decision_rule = _core.fair_projection_decision_rule(
            self._projection, proba, codes, labels, bound
        )
        self.decision_rates_ = dict(self._decision_rule.fitted_rates())

    def _warn_if_unmet(self) -> None:
        """A fit that stopped early or whose relaxed constraints are violated warns, as
        scikit-learn's solvers do (``ConvergenceWarning``)."""
        if not self.report_.get("converged", True):
            warnings.warn(
                f"FairProjection did not converge: {self.report_.get('summary', '')}; the fair "
                "probabilities may violate the constraints (raise max_iter or loosen tol)",
                ConvergenceWarning,
                stacklevel=3,
            )
        elif self.report_.get("max_excess", 0.0) > 1e-4:
            warnings.warn(
                f"FairProjection's constraints are violated on the training rows by "
                f"{self.report_['max_excess']:.3g} beyond their relaxed allowance",
                ConvergenceWarning,
                stacklevel=3,
            )

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
        # A partitioned (Spark) fit never sees the rows together, so it has no threshold rule.
        self._decision_rule = None
        self.decision_rates_ = None
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
        if self.decision not in _DECISIONS:
            raise FairkitError(
                f"invalid parameter decision = {self.decision!r}: expected one of "
                f"{', '.join(map(repr, _DECISIONS))}"
            )
        if self.difference_bound is not None and (
            not isinstance(self.difference_bound, numbers.Real)
            or isinstance(self.difference_bound, bool)
            or not 0.0 <= float(self.difference_bound) <= 1.0
        ):
            raise FairkitError(
                f"invalid parameter difference_bound = {self.difference_bound!r}: expected None "
                "or a number in [0, 1] (the largest allowed difference of a rate between groups)"
            )
        if not isinstance(self.random_state, numbers.Integral) or isinstance(
            self.random_state, bool
        ) or self.random_state < 0:
            raise FairkitError(
                f"invalid parameter random_state = {self.random_state!r}: expected an integer >= 0"
            )
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
        """The constraints as the core names them, after the shared vocabulary's checks."""
        c = self.constraints
        if isinstance(c, str):
            cs = [c]
        else:
            try:
                cs = list(c)
            except TypeError:
                cs = [c]
        return [canonical_constraint(name, "FairProjection") for name in cs]

    # -- prediction ----------------------------------------------------------------------------

    def _inputs(self, X: Any, sensitive_features: Any) -> tuple[np.ndarray, np.ndarray]:
        check_is_fitted(self, "lambda_")
        if sensitive_features is None:
            raise FairkitError(
                "sensitive_features is missing: pass one group label per row, as at fit (in "
                "cross_val_score or GridSearchCV, route it with scikit-learn's metadata "
                "routing: see FairProjection.score)"
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

    def predict(
        self, X: Any, *, sensitive_features: Any = None, random_state: int | None = None
    ) -> np.ndarray:
        """Fair hard predictions, by the rule ``decision`` names (see the class docstring for
        what each guarantees). ``random_state`` overrides the estimator's seed of the draws."""
        proba, codes = self._inputs(X, sensitive_features)
        if self.threshold is not None:
            return self.classes_[self._projection.predict(proba, codes, float(self.threshold))]
        seed = self.random_state if random_state is None else random_state
        if not isinstance(seed, numbers.Integral) or isinstance(seed, bool) or seed < 0:
            raise FairkitError(f"invalid random_state = {seed!r}: expected an integer >= 0")
        decision = self._resolved_decision()
        if decision == "argmax":
            return self.classes_[self._projection.predict(proba, codes, None)]
        fair = self._projection.predict_proba(proba, codes)
        if decision == "sample":
            u = np.random.default_rng(int(seed)).random(fair.shape[0])
            cumulative = np.cumsum(fair, axis=1)
            picks = (cumulative < u[:, None]).sum(axis=1)
            return self.classes_[np.minimum(picks, fair.shape[1] - 1)]
        rule = getattr(self, "_decision_rule", None)
        if rule is None:
            if self.decision == "auto":
                warnings.warn(
                    "this FairProjection has no group-threshold rule (fitted on a Spark "
                    "DataFrame, whose rows are never gathered): predict takes the most probable "
                    "class, which does not keep the constraints; fit locally for decision="
                    "'thresholds'",
                    UserWarning,
                    stacklevel=2,
                )
                return self.classes_[self._projection.predict(proba, codes, None)]
            raise FairkitError(
                "this FairProjection has no group-threshold rule (decision was changed after "
                "fit, or it was fitted on Spark): refit locally, or set decision='argmax'"
            )
        scores = np.ascontiguousarray(fair[:, 1])
        return self.classes_[rule.predict(scores, codes, int(seed))]

    def score(
        self, X: Any, y: Any, sample_weight: Any = None, *, sensitive_features: Any = None
    ) -> float:
        """Accuracy of ``predict`` on ``(X, y)``; needs ``sensitive_features`` like ``predict``.

        In ``cross_val_score``/``GridSearchCV``, route them with scikit-learn's metadata
        routing: ``sklearn.set_config(enable_metadata_routing=True)``,
        ``FairProjection(...).set_fit_request(sensitive_features=True)
        .set_score_request(sensitive_features=True)`` and
        ``cross_val_score(est, X, y, params={"sensitive_features": s})``.
        """
        if sensitive_features is None:
            # A subclass may derive the groups from X; the base class raises, naming the fix.
            pred = self.predict(X)
        else:
            pred = self.predict(X, sensitive_features=sensitive_features)
        from sklearn.metrics import accuracy_score

        return float(
            accuracy_score(
                y, pred, sample_weight=sample_weight
            )
        )


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
        rule = state.pop("_decision_rule", None)
        if rule is not None:
            state["_saved_decision_rule"] = rule.to_bytes()
        return state

    def __setstate__(self, state):
        state = dict(state)
        saved = state.pop("_saved_projection", None)
        saved_rule = state.pop("_saved_decision_rule", None)
        super().__setstate__(state)
        if saved_rule is not None:
            self._decision_rule = _core.group_thresholds_restore(saved_rule, self._groups.names)
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
