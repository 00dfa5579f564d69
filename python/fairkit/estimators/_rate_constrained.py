"""RateConstrainedClassifier: a classifier trained under rate constraints (crate ``game-opt``)."""

from __future__ import annotations

import numbers
from typing import Any

import numpy as np

from fairkit._core import FairkitError
from fairkit._core import estimators as _core
from fairkit.estimators._binary import binary_fit_inputs
from fairkit.estimators._groups import GroupIndex
from fairkit.estimators.rates import Goal

try:
    from sklearn.base import BaseEstimator, ClassifierMixin
    from sklearn.utils.validation import check_is_fitted, validate_data
except ImportError as e:  # pragma: no cover - exercised only without scikit-learn
    raise ImportError("fairkit.estimators needs scikit-learn: pip install scikit-learn") from e


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

    Parameters
    ----------
    constraints : list of rates.Goal, default=()
        The goals; group goals use ``sensitive_features`` of ``fit``. Empty: unconstrained.
    hidden : int, default=0
        0: linear model; > 0: one hidden layer of that many ReLU units.
    algorithm : {"proxy_lagrangian", "zero_one_ext", "hinge", "unconstrained"}
        The paper's Algorithm 3 (default), 4, 5, or the unconstrained baseline.
    solution : {"m_stoch", "t_stoch", "best", "last"}, default="m_stoch"
        Mixture over at most m+1 iterates (the shrinking LP), the uniform mixture, the best
        iterate (Eq. 18 rank rule) or the last one.
    iterations, batch_size, lr_theta, lr_lambda, l2, snapshot_every :
        The game's settings (defaults 2000, 256, 0.01, 0.1, 0.0, 20).
    optimizer : {"adam", "sgd"}, default="adam"
    objective_loss : {"hinge", "logistic"}, default="hinge"
    seed : int, default=0
        Seed of the minibatch order, the MLP initialisation and ``predict``'s draws: same seed,
        same bits.

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
    """

    def __init__(
        self,
        constraints: Any = (),
        *,
        hidden: int = 0,
        algorithm: str = "proxy_lagrangian",
        solution: str = "m_stoch",
        iterations: int = 2000,
        batch_size: int = 256,
        lr_theta: float = 0.01,
        lr_lambda: float = 0.1,
        l2: float = 0.0,
        snapshot_every: int = 20,
        optimizer: str = "adam",
        objective_loss: str = "hinge",
        seed: int = 0,
    ):
        self.constraints = constraints
        self.hidden = hidden
        self.algorithm = algorithm
        self.solution = solution
        self.iterations = iterations
        self.batch_size = batch_size
        self.lr_theta = lr_theta
        self.lr_lambda = lr_lambda
        self.l2 = l2
        self.snapshot_every = snapshot_every
        self.optimizer = optimizer
        self.objective_loss = objective_loss
        self.seed = seed

    def fit(self, X: Any, y: Any, *, sensitive_features: Any = None):
        """Plays the game on ``(X, y)``; ``sensitive_features`` (one group per row) is required."""
        goals = self._goal_specs()
        X, y, classes, codes = binary_fit_inputs(self, X, y, sensitive_features)
        self.classes_ = classes
        index, group_codes = GroupIndex.fit(sensitive_features, X.shape[0])
        for name in ("iterations", "batch_size", "snapshot_every", "seed", "hidden"):
            value = getattr(self, name)
            if not isinstance(value, numbers.Integral) or value < 0:
                raise FairkitError(f"invalid parameter {name} = {value!r}: expected an integer >= 0")
        core, info = _core.rate_constrained_fit(
            np.ascontiguousarray(X),
            codes,
            group_codes,
            index.names,
            goals,
            hidden=int(self.hidden),
            algorithm=self.algorithm,
            solution=self.solution,
            optimizer=self.optimizer,
            objective_loss=self.objective_loss,
            iterations=int(self.iterations),
            batch_size=int(self.batch_size),
            lr_theta=float(self.lr_theta),
            lr_lambda=float(self.lr_lambda),
            l2=float(self.l2),
            snapshot_every=int(self.snapshot_every),
            seed=int(self.seed),
        )
        self._core = core
        self._fitted_hidden = int(self.hidden)
        self.groups_ = list(index.labels)
        self.report_ = {k: info[k] for k in ("summary", "completed", "iterations")}
        self.n_iter_ = int(info["iterations"])
        self.train_error_ = float(info["train_error"])
        self.train_constraints_ = dict(zip(info["constraint_names"], info["train_constraints"]))
        comps = core.components()
        self.weights_ = np.array([w for w, _ in comps])
        self.n_components_ = len(comps)
        return self

    def _goal_specs(self) -> list:
        goals = list(self.constraints) if self.constraints is not None else []
        for g in goals:
            if not isinstance(g, Goal):
                raise FairkitError(
                    f"constraints must hold goals from fairkit.estimators.rates (e.g. "
                    f"rates.equal_opportunity(multiplicative=0.95)), got {g!r}"
                )
        return [g.spec() for g in goals]

    def _X(self, X: Any) -> np.ndarray:
        check_is_fitted(self, "weights_")
        X = validate_data(self, X, dtype=np.float64, order="C", reset=False)
        return np.ascontiguousarray(X)

    def predict_proba(self, X: Any) -> np.ndarray:
        """Exact class probabilities of the stochastic classifier (columns: ``classes_``)."""
        X = self._X(X)  # checks fitted before the core object is looked up
        p1 = self._core.positive_probability(X)
        return np.column_stack([1.0 - p1, p1])

    def predict(self, X: Any, *, seed: int | None = None) -> np.ndarray:
        """Labels sampled from the stochastic classifier with ``seed`` (default: ``self.seed``);
        same seed, same labels."""
        seed = self.seed if seed is None else seed
        X = self._X(X)
        codes = self._core.predict(X, int(seed))
        return self.classes_[codes]

    def decision_function(self, X: Any) -> np.ndarray:
        """``P(y^ = classes_[1] | x) - 0.5`` (positive: the positive class is more likely)."""
        return self.predict_proba(X)[:, 1] - 0.5

    def __sklearn_tags__(self):
        tags = super().__sklearn_tags__()
        tags.classifier_tags.multi_class = False  # binary only (the crate's rates are 0/1)
        return tags

    # The core object is rebuilt from the mixture (weights and parameters) on unpickling.
    def __getstate__(self):
        state = dict(super().__getstate__())
        core = state.pop("_core", None)
        if core is not None:
            state["_components"] = core.components()
        return state

    def __setstate__(self, state):
        components = state.pop("_components", None)
        super().__setstate__(state)
        if components is not None:
            self._core = _core.rate_classifier_from_components(
                int(self.n_features_in_), self._fitted_hidden, components
            )


def _py(v: Any) -> Any:
    return v.item() if isinstance(v, np.generic) else v
