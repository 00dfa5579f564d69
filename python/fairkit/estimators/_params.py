"""What every fairkit estimator shares: one constraint vocabulary and renamed parameters.

The vocabulary is the Rust one (``fair_core::Constraint``): the table below, the aliases and
each estimator's supported names are read from the compiled core, never restated here.

Constraint names are fairlearn's, and a name means the same fairness notion in every estimator
(each estimator enforces it its own way: exactly, in expectation, on a percentile interval, or
at every threshold). An estimator that cannot enforce a notion rejects its name with an error
listing the names it supports.

===========================  =================================================  =====================================
name                         aliases                                            notion (per group vs. the others)
===========================  =================================================  =====================================
``demographic_parity``       ``statistical_parity``                             selection rate ``P(y^=1 | A)``
``equalized_odds``           ``equal_odds``                                     true- and false-positive rates
``equal_opportunity``        ``true_positive_rate_parity``                      true-positive rate
``false_positive_rate_parity``                                                  false-positive rate
``error_rate_parity``        ``equal_accuracy``, ``overall_accuracy``,          accuracy (error rate)
                             ``overall_accuracy_equality``
``equalized_odds_diagonal``                                                     ``P(y^=c | Y=c, A)`` for every class c
``percentile_parity``                                                           score percentiles on an interval
===========================  =================================================  =====================================
"""

from __future__ import annotations

import warnings
from typing import Any

from fairkit._core import FairkitError
from fairkit._core import estimators as _core

#: Sentinel default of a renamed parameter (scikit-learn's pattern: ``get_params``, ``set_params``
#: and ``clone`` keep working, and only a value the user set triggers the FutureWarning).
DEPRECATED = "deprecated"

#: Canonical constraint names and the notion each one means (the Rust table, fair-core's
#: ``Constraint``: this module only reads it).
CONSTRAINTS = {name: notion for name, _aliases, notion in _core.constraint_table()}

#: Other spellings of the canonical names (fairlearn's, the papers' and earlier fairkit
#: releases').
ALIASES = {
    alias: name for name, aliases, _notion in _core.constraint_table() for alias in aliases
}


def supported_constraints(estimator: str) -> tuple[str, ...]:
    """The canonical names of the constraints ``estimator`` (a class name) supports, as its
    Rust crate declares them."""
    return tuple(_core.supported_constraints(estimator))


def canonical_constraint(name: Any, estimator: str) -> str:
    """The canonical name of constraint ``name``; raises :class:`FairkitError` listing the
    constraints ``estimator`` supports when it does not support it (or it is no constraint
    name). The check is the Rust crates' (fair-core's one table)."""
    if not isinstance(name, str):
        supported = ", ".join(repr(c) for c in supported_constraints(estimator))
        raise FairkitError(
            f"{estimator}: invalid constraint {name!r}: expected a name, one of {supported}"
        )
    return _core.canonical_constraint(name, estimator)


def renamed(estimator: Any, old: str, new: str, default: Any, *, warn: bool = True) -> Any:
    """The value of parameter ``new``, or of the deprecated ``old`` with a FutureWarning naming
    ``new`` when the user set it (``warn=False``: silently, for a use after the fit warned).
    Setting both (``new`` away from its ``default``) is an error."""
    old_value = getattr(estimator, old)
    new_value = getattr(estimator, new)
    if isinstance(old_value, str) and old_value == DEPRECATED:
        return new_value
    name = type(estimator).__name__
    if not _same(new_value, default):
        raise FairkitError(
            f"{name}: both {old}={old_value!r} and {new}={new_value!r} were given; {old} is the "
            f"deprecated name of {new}: pass {new} only"
        )
    if warn:
        warnings.warn(
            f"{name}: parameter {old!r} was renamed {new!r} in fairkit 0.2 and will be removed "
            f"in 0.3; pass {new}={old_value!r} instead",
            FutureWarning,
            stacklevel=4,
        )
    return old_value


def _same(a: Any, b: Any) -> bool:
    try:
        return bool(a is b or a == b)
    except Exception:  # noqa: BLE001 - arrays and the like: not the default
        return False
