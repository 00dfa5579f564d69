"""What every fairkit estimator shares: one constraint vocabulary and renamed parameters.

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
from typing import Any, Iterable

from fairkit._core import FairkitError

#: Sentinel default of a renamed parameter (scikit-learn's pattern: ``get_params``, ``set_params``
#: and ``clone`` keep working, and only a value the user set triggers the FutureWarning).
DEPRECATED = "deprecated"

#: Canonical constraint names and the notion each one means.
CONSTRAINTS = {
    "demographic_parity": "equal selection rate P(y^=1 | A) across groups",
    "equalized_odds": "equal true- and false-positive rates across groups",
    "equal_opportunity": "equal true-positive rate across groups",
    "false_positive_rate_parity": "equal false-positive rate across groups",
    "error_rate_parity": "equal accuracy (error rate) across groups",
    "equalized_odds_diagonal": "equal P(y^=c | Y=c, A) for every class c (multi-class)",
    "percentile_parity": "equal score percentiles across groups on a percentile interval",
}

#: Other spellings of the canonical names (fairlearn's and earlier fairkit releases').
ALIASES = {
    "statistical_parity": "demographic_parity",
    "equal_odds": "equalized_odds",
    "true_positive_rate_parity": "equal_opportunity",
    "equal_accuracy": "error_rate_parity",
    "overall_accuracy": "error_rate_parity",
    "overall_accuracy_equality": "error_rate_parity",
}


def _describe(supported: Iterable[str]) -> str:
    parts = []
    for name in supported:
        aliases = [a for a, c in ALIASES.items() if c == name]
        parts.append(repr(name) + (f" (alias {', '.join(map(repr, aliases))})" if aliases else ""))
    return ", ".join(parts)


def canonical_constraint(name: Any, estimator: str, supported: tuple[str, ...]) -> str:
    """The canonical name of constraint ``name``; raises :class:`FairkitError` listing
    ``supported`` when ``estimator`` does not support it (or it is no constraint name)."""
    if not isinstance(name, str):
        raise FairkitError(
            f"{estimator}: invalid constraint {name!r}: expected a name, one of {_describe(supported)}"
        )
    key = ALIASES.get(name, name)
    if key not in supported:
        what = "does not support" if key in CONSTRAINTS else "has no constraint named"
        raise FairkitError(
            f"{estimator} {what} {name!r}; supported constraints: {_describe(supported)}"
        )
    return key


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
