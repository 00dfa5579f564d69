"""RateConstrainedClassifier: a classifier trained under rate constraints (crate ``game-opt``)."""

from __future__ import annotations

import copy
import inspect
import numbers
import warnings
from typing import Any

import numpy as np

from fairkit._core import FairkitError
from fairkit._core import estimators as _core
from fairkit.estimators._binary import binary_fit_inputs
from fairkit.estimators._groups import GroupIndex
from fairkit.estimators._params import DEPRECATED, canonical_constraint, renamed
from fairkit.estimators.rates import Goal
from fairkit.estimators.rates import named as named_goal

try:
    from sklearn.base import BaseEstimator, ClassifierMixin, clone
    from sklearn.exceptions import ConvergenceWarning
    from sklearn.utils.validation import check_is_fitted, validate_data
except ImportError as e:  # pragma: no cover - exercised only without scikit-learn
    raise ImportError("fairkit.estimators needs scikit-learn: pip install scikit-learn") from e

# The defaults are the crate's, read from it: game_opt::GameOptParams::oracle_game for the
# oracle games (measured on Adult (sex) and COMPAS (race) against fairlearn's
# ExponentiatedGradient, issue 24), GameOptParams::new for the minibatch games and their
# settings, LogisticOracle::approximate for a best response.
_DEFAULTS = _core.rate_constrained_defaults()


class RateConstrainedClassifier(ClassifierMixin, BaseEstimator):
    """Binary classifier trained under rate constraints by the proxy-Lagrangian game.

    Cotter et al., "Optimization with Non-Differentiable Constraints with Applications to
    Fairness, Recall, Churn, and Other Goals" (JMLR 2019; TensorFlow Constrained Optimization).
    Minimises the training error subject to constraints on rates (recall, coverage, group parity
    ...; see :mod:`fairkit.estimators.rates`) by a two-player game between the model and the
    constraint multipliers. The result is a *stochastic* classifier, a mixture of the iterates:
    ``predict_proba`` gives its exact ``P(y^ = classes_[1] | x)``, ``predict`` samples it with a
    seed. The core is the Rust crate ``game-opt``; the GIL is released during the fit and Ctrl-C
    stops a running fit (checked every 50 steps).

    The default game is the paper's Algorithm 2 with a best-response model player: each round
    the multipliers turn the 0-1 Lagrangian into a weighted classification problem (rows
    relabelled to their cheaper prediction, weighted by the cost difference), a full-batch
    weighted logistic regression (L-BFGS, warm-started) answers it, and the swap-regret
    multiplier player reacts to the exact training constraint values; the shrinking LP then
    mixes at most m+1 of the responses. This is the reduction fairlearn's
    ``ExponentiatedGradient`` plays, at a fraction of its time. The minibatch games
    (``"proxy_lagrangian"`` = Algorithm 3, ...) remain available, and are the ones that train
    ``hidden > 0`` networks.

    Parameters
    ----------
    constraints : str, rates.Goal, or list of them, default=()
        The goals; group goals use ``sensitive_features`` of ``fit``. Empty: unconstrained. A
        string names a group goal in the vocabulary every fairkit estimator shares
        (``"demographic_parity"``/``"statistical_parity"``, ``"equalized_odds"``/
        ``"equal_odds"``, ``"equal_opportunity"``/``"true_positive_rate_parity"``,
        ``"false_positive_rate_parity"``, ``"error_rate_parity"``/``"equal_accuracy"``),
        bounded in both directions by ``difference_bound``; other names raise an error listing
        these.
    estimator : scikit-learn classifier, default=None
        The model player, as in fairlearn's reductions: each round fits
        ``clone(estimator).fit(X, y_relabelled, sample_weight=w)`` (its ``fit`` must take
        ``sample_weight``) and the multipliers react to its hard predictions; the result is a
        mixture of at most m+1 fitted estimators (``estimators_``). None: the built-in weighted
        logistic regression in Rust (much faster). Only with the oracle algorithms. A
        scikit-learn linear model with ``warm_start`` (e.g. LogisticRegression) starts each
        response from the previous one (a convex fit: same answer, measured 51 s -> 7 s for
        the 60 rounds on Adult); other estimators are refitted from scratch each round.
    difference_bound : float, default=None
        Additive slack of the named constraints: ``|rate(group) - rate(all)| <= difference_bound``
        (fairlearn's parameter); None means 0.01. Goals built with ``rates`` carry their own.
    hidden : int, default=0
        0: linear model; > 0: one hidden layer of that many ReLU units (minibatch games only).
    algorithm : str, default="auto"
        ``"auto"``: ``"oracle_proxy_lagrangian"`` for the linear model, ``"proxy_lagrangian"``
        for ``hidden > 0``. ``"oracle_proxy_lagrangian"`` (Algorithm 2, best responses,
        swap-regret multipliers),
        ``"oracle_lagrangian"`` (Algorithm 1, best responses, additive multipliers), or the
        minibatch games ``"proxy_lagrangian"`` (Algorithm 3), ``"zero_one_ext"`` (4),
        ``"hinge"`` (5), ``"unconstrained"``.
    solution : {"m_stoch", "t_stoch", "best", "last"}, default="m_stoch"
        Mixture over at most m+1 iterates (the shrinking LP), the uniform mixture, the best
        iterate (Eq. 18 rank rule) or the last one.
    max_iter : int, default=None
        Rounds: best responses for the oracle games (None: 60), minibatch steps otherwise
        (None: 2000).
    lr_lambda : float, default=None
        Multiplier step (None: 1.0 for the oracle games, 0.1 for the minibatch games).
    l2 : float, default=None
        Ridge penalty on the weights (None: 1e-4 for the oracle games, 0 otherwise).
    batch_size, lr_theta, snapshot_every, optimizer :
        Minibatch games only (defaults 256, 0.01, 20, "adam").
    objective_loss : {"hinge", "logistic", "log_loss"}, default="hinge"
        Surrogate of the error in the minibatch games (``"log_loss"`` = ``"logistic"``); the
        oracle games always answer with logistic regression.
    oracle_max_iter : int, default=15
        L-BFGS iterations per best response (an approximate oracle is enough: the game corrects;
        the crate's ``LogisticOracle::approximate``, read from it).
    oracle_tol : float, default=1e-3
        Gradient tolerance of a best response (on the loss with weights rescaled to mean 1).
    random_state : int, default=0
        Seed of the minibatch order, the MLP initialisation and ``predict``'s draws: same seed,
        same bits (None: 0; a numpy RandomState is not accepted).
    seed, iterations :
        Deprecated names of ``random_state`` and ``max_iter`` (FutureWarning; removed in
        fairkit 0.3).

    Attributes
    ----------
    classes_ : ndarray of the two labels; ``classes_[1]`` is the positive class.
    n_features_in_ : int
    groups_ : list, the groups seen at fit.
    weights_ : ndarray, the mixture weights; ``n_components_`` their number.
    train_error_ : float, exact expected training error of the solution.
    train_constraints_ : dict, constraint name -> value on the training rows (<= 0: met).
    report_ : dict, the crate's run report (``summary``, ``completed``, ``iterations``).
    n_iter_ : int, steps taken.
    estimators_ : list, with ``estimator``: the fitted responses of the mixture (weights
        ``weights_``).

    Pickling stores the crate's versioned bytes of the mixture (``game_opt``'s
    ``StochasticClassifier::to_bytes``: weights and parameters, never the training rows);
    unpickling checks and restores them, and ``predict_proba``/``predict`` give the same bits.

    Examples
    --------
    >>> import numpy as np, pickle
    >>> from fairkit.estimators import RateConstrainedClassifier
    >>> rng = np.random.default_rng(0)
    >>> X = rng.normal(size=(200, 3))
    >>> group = np.where(rng.random(200) < 0.5, "a", "b")
    >>> y = (X[:, 0] + (group == "a") > 0.5).astype(int)
    >>> clf = RateConstrainedClassifier("demographic_parity", difference_bound=0.05, max_iter=20)
    >>> clf = clf.fit(X, y, sensitive_features=group)
    >>> again = pickle.loads(pickle.dumps(clf))
    >>> bool((again.predict_proba(X) == clf.predict_proba(X)).all())
    True

    Warns
    -----
    sklearn.exceptions.ConvergenceWarning
        When a training constraint value of the solution exceeds ``CONSTRAINT_TOLERANCE``
        (1e-3) or the fit stopped early.
    """

    #: Largest training constraint value accepted without a ConvergenceWarning.
    CONSTRAINT_TOLERANCE = 1e-3

    def __init__(
        self,
        constraints: Any = (),
        *,
        estimator: Any = None,
        difference_bound: Any = None,
        hidden: int = 0,
        algorithm: str = "auto",
        solution: str = "m_stoch",
        max_iter: Any = None,
        batch_size: int = _DEFAULTS["batch_size"],
        lr_theta: float = _DEFAULTS["lr_theta"],
        lr_lambda: Any = None,
        l2: Any = None,
        snapshot_every: int = _DEFAULTS["snapshot_every"],
        optimizer: str = _DEFAULTS["optimizer"],
        objective_loss: str = _DEFAULTS["objective_loss"],
        oracle_max_iter: int = _DEFAULTS["oracle_max_iter"],
        oracle_tol: float = _DEFAULTS["oracle_tol"],
        random_state: Any = 0,
        seed: Any = DEPRECATED,
        iterations: Any = DEPRECATED,
    ):
        self.constraints = constraints
        self.estimator = estimator
        self.difference_bound = difference_bound
        self.hidden = hidden
        self.algorithm = algorithm
        self.solution = solution
        self.max_iter = max_iter
        self.batch_size = batch_size
        self.lr_theta = lr_theta
        self.lr_lambda = lr_lambda
        self.l2 = l2
        self.snapshot_every = snapshot_every
        self.optimizer = optimizer
        self.objective_loss = objective_loss
        self.oracle_max_iter = oracle_max_iter
        self.oracle_tol = oracle_tol
        self.random_state = random_state
        self.seed = seed
        self.iterations = iterations

    def _seed(self, warn: bool = True) -> int:
        seed = renamed(self, "seed", "random_state", 0, warn=warn)
        if seed is None:
            seed = 0
        if not isinstance(seed, numbers.Integral) or isinstance(seed, bool) or seed < 0:
            name = "random_state"
            raise FairkitError(
                f"invalid parameter {name} = {seed!r}: expected an integer >= 0 (a "
                f"numpy RandomState is not supported: the Rust core takes an integer seed)"
            )
        return int(seed)

    def _algorithm(self) -> str:
        if isinstance(self.algorithm, str) and self.algorithm == "auto":
            hidden = self.hidden
            linear = isinstance(hidden, numbers.Integral) and hidden == 0
            return "oracle_proxy_lagrangian" if linear else "proxy_lagrangian"
        return self.algorithm

    def _settings(self) -> dict:
        oracle = self._algorithm() in _ORACLE_ALGORITHMS
        auto = _ORACLE_DEFAULTS if oracle else _MINIBATCH_DEFAULTS
        out = {}
        given = {
            "iterations": renamed(self, "iterations", "max_iter", None),
            "lr_lambda": self.lr_lambda,
            "l2": self.l2,
        }
        for name, value in given.items():
            out[name] = auto[name] if value is None else value
        for name in ("iterations", "batch_size", "snapshot_every", "hidden", "oracle_max_iter"):
            value = out.get(name, getattr(self, name))
            if not isinstance(value, numbers.Integral) or isinstance(value, bool) or value < 0:
                shown = "max_iter" if name == "iterations" else name
                raise FairkitError(f"invalid parameter {shown} = {value!r}: expected an integer >= 0")
            out[name] = int(value)
        for name in ("lr_theta", "oracle_tol"):
            out[name] = getattr(self, name)
        for name in ("lr_lambda", "l2", "lr_theta", "oracle_tol"):
            value = out[name]
            if not isinstance(value, numbers.Real) or isinstance(value, bool):
                raise FairkitError(f"invalid parameter {name} = {value!r}: expected a number")
            out[name] = float(value)
        if oracle and int(self.hidden) != 0:
            raise FairkitError(
                f"invalid parameter hidden = {self.hidden!r} with algorithm={self._algorithm()!r}: "
                f"the best responses are linear (weighted logistic regression); use "
                f"algorithm='proxy_lagrangian' to train a network"
            )
        loss = self.objective_loss
        out["objective_loss"] = _LOSS_ALIASES.get(loss, loss) if isinstance(loss, str) else loss
        if out["objective_loss"] not in ("hinge", "logistic"):
            raise FairkitError(
                f"invalid parameter objective_loss: {loss!r}; expected \"hinge\", \"logistic\" "
                f"or \"log_loss\""
            )
        return out

    def fit(self, X: Any, y: Any, *, sensitive_features: Any = None, **fit_params: Any):
        """Plays the game on ``(X, y)``; ``sensitive_features`` (one group per row) is required.

        ``sample_weight=`` (keyword; one finite weight >= 0 per row, not all 0) weights the rows:
        the error and every rate count row ``i`` ``sample_weight[i]`` times (integer weights
        equal duplicated rows). With ``estimator=`` the weights reach the estimator through the
        round's weighted classification problem.
        """
        sample_weight = fit_params.pop("sample_weight", None)
        if sensitive_features is None:
            raise FairkitError(
                "sensitive_features is missing: RateConstrainedClassifier.fit(X, y, *, "
                "sensitive_features, sample_weight=None) needs one group label per row "
                "(sensitive_features=...)"
            )
        if fit_params:
            raise FairkitError(
                f"fit() got unexpected keyword argument(s) {sorted(fit_params)}; it takes X, y, "
                f"sensitive_features (and sample_weight=None)"
            )
        goals = self._goal_specs()
        settings = self._settings()
        seed = self._seed()
        X, y, classes, codes = binary_fit_inputs(self, X, y, sensitive_features)
        self.classes_ = classes
        index, group_codes = GroupIndex.fit(sensitive_features, X.shape[0])
        self.groups_ = list(index.labels)
        weights = _sample_weight(sample_weight, X.shape[0])
        if self.estimator is not None:
            return self._fit_estimator(X, codes, group_codes, index, goals, settings, weights)
        core, info = _core.rate_constrained_fit(
            np.ascontiguousarray(X),
            codes,
            group_codes,
            index.names,
            goals,
            {**settings, "algorithm": self._algorithm(), "solution": self.solution,
             "optimizer": self.optimizer, "seed": seed},
            sample_weight=weights,
        )
        self._core = core
        self._fitted_hidden = settings["hidden"]
        self.estimators_ = None
        comps = core.components()
        self._finish(info, np.array([w for w, _ in comps]))
        return self

    def _finish(self, info: dict, weights: np.ndarray) -> None:
        self.report_ = {k: info[k] for k in ("summary", "completed", "iterations")}
        self.n_iter_ = int(info["iterations"])
        self.train_error_ = float(info["train_error"])
        self.train_constraints_ = dict(zip(info["constraint_names"], info["train_constraints"]))
        self.weights_ = weights
        self.n_components_ = len(weights)
        self._warn_if_unconverged()

    def _fit_estimator(self, X, codes, group_codes, index, goals, settings, weights):
        """The oracle game with ``clone(estimator)`` as the best response (loop in Rust)."""
        est = self.estimator
        fit = getattr(est, "fit", None)
        if fit is None or not callable(getattr(est, "predict", None)):
            raise FairkitError(f"estimator={est!r} is not a scikit-learn classifier (fit/predict)")
        try:
            takes_weight = "sample_weight" in inspect.signature(fit).parameters
        except (TypeError, ValueError):
            takes_weight = False
        if not takes_weight:
            raise FairkitError(
                f"estimator {type(est).__name__}: its fit() takes no sample_weight; the best "
                f"responses are weighted classification problems (pass an estimator whose fit "
                f"accepts sample_weight, e.g. LogisticRegression)"
            )
        algorithm = self._algorithm()
        if algorithm not in _ORACLE_ALGORITHMS:
            raise FairkitError(
                f"invalid parameter algorithm={algorithm!r} with estimator=: expected "
                f"'auto', 'oracle_proxy_lagrangian' or 'oracle_lagrangian' (best responses)"
            )
        if settings["hidden"] != 0:
            raise FairkitError("hidden > 0 does not apply with estimator= (the estimator is the "
                               "model)")
        responses = []
        warm = _warm_startable(est)
        last = []

        def respond(targets, weights):
            at_stake = weights > 0
            wanted = np.unique(targets[at_stake])
            if wanted.size < 2:
                # One class at stake (or none): the constant classifier is a best response.
                h = _Constant(int(wanted[0]) if wanted.size else 0)
            elif warm and last:
                # A convex linear model: start from the previous response (same optimum,
                # far fewer solver iterations: 51 s -> 7 s for 60 rounds on Adult).
                h = copy.deepcopy(last[-1])
                h.set_params(warm_start=True)
                h.fit(X, targets, sample_weight=weights)
                h.set_params(warm_start=est.get_params()["warm_start"])
                last.append(h)
            else:
                h = clone(est).fit(X, targets, sample_weight=weights)
                last.append(h)
            responses.append(h)
            return np.ascontiguousarray(np.asarray(h.predict(X)) == 1, dtype=np.int64)

        pairs, info = _core.rate_constrained_play(
            codes,
            group_codes,
            index.names,
            goals,
            respond,
            {"algorithm": algorithm, "solution": self.solution,
             "iterations": settings["iterations"], "lr_lambda": settings["lr_lambda"]},
            sample_weight=weights,
        )
        self._core = None
        self._fitted_hidden = 0
        self.estimators_ = [responses[i] for i, _ in pairs]
        self._finish(info, np.array([w for _, w in pairs]))
        return self

    def _warn_if_unconverged(self) -> None:
        worst_name, worst = None, -np.inf
        for name, value in self.train_constraints_.items():
            if value > worst:
                worst_name, worst = name, value
        if worst > self.CONSTRAINT_TOLERANCE:
            warnings.warn(
                f"RateConstrainedClassifier: the solution violates the training constraint "
                f"{worst_name!r} by {worst:.4f} (> {self.CONSTRAINT_TOLERANCE}); raise "
                f"max_iter, change lr_lambda, or loosen the constraint",
                ConvergenceWarning,
                stacklevel=4,
            )
        if not self.report_["completed"]:
            warnings.warn(
                f"RateConstrainedClassifier: the fit stopped after {self.n_iter_} iterations",
                ConvergenceWarning,
                stacklevel=4,
            )

    def _goal_specs(self) -> list:
        c = self.constraints
        if c is None:
            items = []
        elif isinstance(c, (str, Goal)):
            items = [c]
        else:
            try:
                items = list(c)
            except TypeError:
                raise FairkitError(
                    f"constraints must be a constraint name, a goal from "
                    f"fairkit.estimators.rates, or a list of them; got {c!r}"
                ) from None
        bound = 0.01 if self.difference_bound is None else self.difference_bound
        if self.difference_bound is not None and not any(isinstance(g, str) for g in items):
            raise FairkitError(
                "difference_bound applies to constraints given by name (e.g. "
                "constraints='demographic_parity'); goals from fairkit.estimators.rates carry "
                "their own slack (e.g. rates.demographic_parity(additive=0.02))"
            )
        goals = []
        for g in items:
            if isinstance(g, str):
                name = canonical_constraint(g, "RateConstrainedClassifier")
                goals.append(named_goal(name, bound))
            elif isinstance(g, Goal):
                goals.append(g)
            else:
                raise FairkitError(
                    f"constraints must hold goals from fairkit.estimators.rates (e.g. "
                    f"rates.equal_opportunity(multiplicative=0.95)) or constraint names (e.g. "
                    f"'equalized_odds'), got {g!r}"
                )
        return [g.spec() for g in goals]

    def _X(self, X: Any) -> np.ndarray:
        check_is_fitted(self, "weights_")
        X = validate_data(self, X, dtype=np.float64, order="C", reset=False)
        return np.ascontiguousarray(X)

    def predict_proba(self, X: Any) -> np.ndarray:
        """Exact class probabilities of the stochastic classifier (columns: ``classes_``)."""
        X = self._X(X)  # checks fitted before the core object is looked up
        p1 = self._positive_probability(X)
        return np.column_stack([1.0 - p1, p1])

    def predict(self, X: Any, *, random_state: int | None = None, seed: Any = None
                ) -> np.ndarray:
        """Labels sampled from the stochastic classifier with ``random_state`` (default: the
        estimator's); same seed, same labels. ``seed`` is its deprecated name (FutureWarning)."""
        if seed is not None:
            warnings.warn(
                "RateConstrainedClassifier.predict: parameter 'seed' was renamed 'random_state' "
                f"in fairkit 0.2 and will be removed in 0.3; pass random_state={seed!r} instead",
                FutureWarning,
                stacklevel=2,
            )
            if random_state is None:
                random_state = seed
        seed = self._seed(warn=False) if random_state is None else random_state
        X = self._X(X)
        if getattr(self, "estimators_", None) is not None:
            # One seeded uniform draw per row against the mixture's P(y^ = 1 | x).
            u = np.random.default_rng(int(seed)).random(X.shape[0])
            codes = (u < self._positive_probability(X)).astype(np.int64)
        else:
            codes = self._core.predict(X, int(seed))
        return self.classes_[codes]

    def _positive_probability(self, X: np.ndarray) -> np.ndarray:
        if getattr(self, "estimators_", None) is not None:
            p1 = np.zeros(X.shape[0])
            for w, h in zip(self.weights_, self.estimators_):
                p1 += w * (np.asarray(h.predict(X)) == 1)
            return p1
        return self._core.positive_probability(X)

    def decision_function(self, X: Any) -> np.ndarray:
        """``P(y^ = classes_[1] | x) - 0.5`` (positive: the positive class is more likely)."""
        return self.predict_proba(X)[:, 1] - 0.5

    def __sklearn_tags__(self):
        tags = super().__sklearn_tags__()
        tags.classifier_tags.multi_class = False  # binary only (the crate's rates are 0/1)
        return tags

    # -- pickling: the crate's versioned bytes of the mixture (game_opt), no training rows ------

    def __getstate__(self):
        state = dict(super().__getstate__())
        core = state.pop("_core", None)
        if core is not None:
            state["_saved_classifier"] = core.to_bytes()
        return state

    def __setstate__(self, state):
        state = dict(state)
        saved = state.pop("_saved_classifier", None)
        components = state.pop("_components", None)  # pickled by fairkit 0.1
        if saved is not None:
            state["_core"] = _core.rate_classifier_from_bytes(saved)
        elif components is not None:
            state["_core"] = _core.rate_classifier_from_components(
                int(state["n_features_in_"]), state["_fitted_hidden"], components
            )
        super().__setstate__(state)


_ORACLE_ALGORITHMS = ("oracle_proxy_lagrangian", "oracle_lagrangian")
_ORACLE_DEFAULTS = _DEFAULTS["oracle"]
_MINIBATCH_DEFAULTS = _DEFAULTS["minibatch"]
_LOSS_ALIASES = {"log_loss": "logistic", "log": "logistic"}


def _sample_weight(sample_weight: Any, n: int):
    if sample_weight is None:
        return None
    try:
        w = np.asarray(sample_weight, dtype=np.float64)
    except (TypeError, ValueError):
        raise FairkitError(f"sample_weight must be numbers, got {sample_weight!r}") from None
    if w.ndim == 0:
        w = np.full(n, float(w))
    if w.shape != (n,):
        raise FairkitError(f"sample_weight has shape {w.shape}; expected ({n},), one per row of X")
    if not np.all(np.isfinite(w)) or np.any(w < 0):
        raise FairkitError("sample_weight must be finite and >= 0")
    if not w.sum() > 0:
        raise FairkitError("sample_weight is 0 for every row")
    return np.ascontiguousarray(w)


class _Constant:
    """A constant best response (when every row at stake wants the same class)."""

    def __init__(self, label: int):
        self.label = label

    def predict(self, X):
        return np.full(np.asarray(X).shape[0], self.label, dtype=np.int64)


def _warm_startable(est: Any) -> bool:
    """Whether a best response may start from the previous one: scikit-learn's linear models
    with ``warm_start`` (a convex fit, so the start changes the cost, not the answer). Not
    ensembles, whose ``warm_start`` *adds* trees or stages instead of refitting."""
    module = type(est).__module__
    try:
        has = "warm_start" in est.get_params()
    except Exception:  # noqa: BLE001 - no sklearn-style params: no warm start
        return False
    return has and module.startswith("sklearn.linear_model")


def _py(v: Any) -> Any:
    return v.item() if isinstance(v, np.generic) else v
