"""Constraints of :class:`~fairkit.estimators.RateConstrainedClassifier`, in a small Python form
of the ``game-opt`` crate's rate language (the goals of Cotter et al.'s Tables 1-2).

Group goals compare a rate in each group of ``sensitive_features`` with the same rate on all
rows, with a ``direction`` (``"at_least"``, ``"at_most"``, ``"both"``) and a slack:
``multiplicative=0.95`` reads ``rate(group) >= 0.95 * rate(all)``, ``additive=0.05`` reads
``rate(group) >= rate(all) - 0.05`` (mirrored for ``"at_most"``). Threshold goals bound a rate
on all rows or, with ``group=``, on one group.

>>> from fairkit.estimators import rates
>>> goals = [rates.equal_opportunity(multiplicative=0.95), rates.coverage_at_most(0.3)]
>>> goals[0].kind
'equal_opportunity'

fairlearn's names work too: ``demographic_parity``, ``equalized_odds`` (aliases) and
:func:`named` (``"true_positive_rate_parity"``, ``"error_rate_parity"``, ...).
"""

from __future__ import annotations

import numbers
from dataclasses import dataclass
from typing import Any, Optional

from fairkit._core import FairkitError
from fairkit.estimators._params import ALIASES, canonical_constraint, supported_constraints

_ESTIMATOR = "RateConstrainedClassifier"

_DIRECTIONS = ("at_least", "at_most", "both")


@dataclass(frozen=True)
class Goal:
    """One goal; build it with the functions of this module."""

    kind: str
    direction: str = "at_least"
    slack_kind: str = "none"
    slack: float = 0.0
    kappa: float = 0.0
    group: Optional[Any] = None

    def spec(self) -> dict:
        """The goal as the Rust core reads it (a dict with the fields' names)."""
        group = None if self.group is None else str(self.group)
        return {"kind": self.kind, "direction": self.direction, "slack_kind": self.slack_kind,
                "slack": float(self.slack), "kappa": float(self.kappa), "group": group}


def _group_goal(kind: str, direction: str, additive: Any, multiplicative: Any) -> Goal:
    if direction not in _DIRECTIONS:
        raise FairkitError(
            f"{kind}: direction={direction!r}; expected one of {', '.join(map(repr, _DIRECTIONS))}"
        )
    if additive is not None and multiplicative is not None:
        raise FairkitError(f"{kind}: pass either additive= or multiplicative=, not both")
    if additive is not None:
        return Goal(kind, direction, "additive", _number(kind, "additive", additive))
    if multiplicative is not None:
        return Goal(kind, direction, "multiplicative", _number(kind, "multiplicative", multiplicative))
    return Goal(kind, direction)


def _number(kind: str, name: str, value: Any) -> float:
    if not isinstance(value, numbers.Real) or isinstance(value, bool) or value != value:
        raise FairkitError(f"{kind}: {name}={value!r}; expected a number")
    return float(value)


def statistical_parity(direction="both", *, additive=None, multiplicative=None) -> Goal:
    """Positive-prediction rate of every group vs all rows."""
    return _group_goal("statistical_parity", direction, additive, multiplicative)


def equal_opportunity(direction="at_least", *, additive=None, multiplicative=None) -> Goal:
    """True-positive rate (recall) of every group vs all rows (the paper's Adult constraint is
    ``equal_opportunity(multiplicative=0.95)``)."""
    return _group_goal("equal_opportunity", direction, additive, multiplicative)


def equal_odds(direction="both", *, additive=None, multiplicative=None) -> Goal:
    """True- and false-positive rates of every group vs all rows."""
    return _group_goal("equal_odds", direction, additive, multiplicative)


def equal_accuracy(direction="at_least", *, additive=None, multiplicative=None) -> Goal:
    """Accuracy of every group vs all rows."""
    return _group_goal("equal_accuracy", direction, additive, multiplicative)


def false_positive_rate_parity(direction="both", *, additive=None, multiplicative=None) -> Goal:
    """False-positive rate of every group vs all rows (fairlearn's FalsePositiveRateParity)."""
    return _group_goal("false_positive_rate_parity", direction, additive, multiplicative)


# fairlearn's names for the same goals.
def demographic_parity(direction="both", *, additive=None, multiplicative=None) -> Goal:
    """Alias of :func:`statistical_parity` (fairlearn's name)."""
    return statistical_parity(direction, additive=additive, multiplicative=multiplicative)


def equalized_odds(direction="both", *, additive=None, multiplicative=None) -> Goal:
    """Alias of :func:`equal_odds` (fairlearn's name)."""
    return equal_odds(direction, additive=additive, multiplicative=multiplicative)


# The group goal of each constraint of the shared vocabulary this estimator supports (canonical
# names: game_opt::GroupConstraint, fair-core's one table).
_GROUP_GOALS = {
    "demographic_parity": statistical_parity,
    "equalized_odds": equal_odds,
    "equal_opportunity": equal_opportunity,
    "false_positive_rate_parity": false_positive_rate_parity,
    "error_rate_parity": equal_accuracy,
}

# Constraint names accepted by RateConstrainedClassifier(constraints="...", difference_bound=b)
# (the canonical names and their aliases, read from the Rust table): each is the goal in both
# directions with additive slack b, as fairlearn's reductions read difference_bound
# (|rate(group) - rate(all)| <= b).
NAMED_GOALS = {
    name: _GROUP_GOALS[canonical]
    for canonical in supported_constraints(_ESTIMATOR)
    for name in (canonical, *(a for a, c in ALIASES.items() if c == canonical))
}


def named(name: Any, difference_bound: float = 0.01) -> Goal:
    """The goal called ``name`` (one of :data:`NAMED_GOALS`), in both directions with additive
    slack ``difference_bound``.

    >>> named("equalized_odds", 0.02).kind
    'equal_odds'
    """
    canonical = canonical_constraint(name, _ESTIMATOR)
    b = _number(name, "difference_bound", difference_bound)
    if not 0.0 <= b <= 1.0:
        raise FairkitError(f"difference_bound={difference_bound!r}; expected a rate difference "
                           f"in [0, 1]")
    return _GROUP_GOALS[canonical]("both", additive=b)


def _threshold(kind: str, kappa: Any, group: Any) -> Goal:
    k = _number(kind, "kappa", kappa)
    if not 0.0 <= k <= 1.0:
        raise FairkitError(f"{kind}: kappa={k}; expected a rate in [0, 1]")
    return Goal(kind, kappa=k, group=group)


def coverage_at_least(kappa, *, group=None) -> Goal:
    """Share of rows predicted positive ``>= kappa`` (on ``group`` when given)."""
    return _threshold("coverage_at_least", kappa, group)


def coverage_at_most(kappa, *, group=None) -> Goal:
    """Share of rows predicted positive ``<= kappa``."""
    return _threshold("coverage_at_most", kappa, group)


def recall_at_least(kappa, *, group=None) -> Goal:
    """True-positive rate ``>= kappa`` (a recall floor)."""
    return _threshold("recall_at_least", kappa, group)


def precision_at_least(kappa, *, group=None) -> Goal:
    """Precision ``>= kappa`` (linearised, Eq. 9 of the paper)."""
    return _threshold("precision_at_least", kappa, group)


def accuracy_at_least(kappa, *, group=None) -> Goal:
    """Accuracy ``>= kappa``."""
    return _threshold("accuracy_at_least", kappa, group)
