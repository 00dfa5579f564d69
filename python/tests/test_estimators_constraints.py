"""One constraint vocabulary (the Rust table, ``fair_core::Constraint``) in every estimator:
each canonical name and alias parses in every estimator that supports it, the others are
errors naming the supported ones; the estimators' defaults are read from Rust."""

from __future__ import annotations

import warnings

import numpy as np
import pytest

from fairkit import FairkitError
from fairkit._core import estimators as _core
from fairkit.estimators import (
    FairProjection,
    FairSVM,
    PartialParityClassifier,
    RateConstrainedClassifier,
    rates,
)
from fairkit.estimators._params import ALIASES, CONSTRAINTS, canonical_constraint

TABLE = _core.constraint_table()
SUPPORTED = {
    "FairProjection": {
        "demographic_parity", "equalized_odds", "equalized_odds_diagonal", "error_rate_parity",
        "equal_opportunity", "false_positive_rate_parity",
    },
    "PartialParityClassifier": {
        "percentile_parity", "demographic_parity", "equal_opportunity", "equalized_odds",
    },
    "FairSVM": {"demographic_parity", "equal_opportunity"},
    "RateConstrainedClassifier": {
        "demographic_parity", "equalized_odds", "equal_opportunity",
        "false_positive_rate_parity", "error_rate_parity",
    },
}
SPELLINGS = [(canonical, name) for canonical, aliases, _ in TABLE
             for name in (canonical, *aliases)]


def test_the_table_is_fairlearns_names_with_the_papers_as_aliases():
    assert [name for name, _, _ in TABLE][:5] == [
        "demographic_parity", "equalized_odds", "equal_opportunity",
        "false_positive_rate_parity", "error_rate_parity",
    ]
    assert ALIASES["statistical_parity"] == "demographic_parity"
    assert ALIASES["overall_accuracy"] == "error_rate_parity"
    assert ALIASES["equal_odds"] == "equalized_odds"
    assert set(CONSTRAINTS) == {name for name, _, _ in TABLE}


@pytest.mark.parametrize("estimator", sorted(SUPPORTED))
@pytest.mark.parametrize("canonical,name", SPELLINGS)
def test_every_name_and_alias_in_every_estimator(estimator, canonical, name):
    assert set(_core.supported_constraints(estimator)) == SUPPORTED[estimator]
    if canonical in SUPPORTED[estimator]:
        assert canonical_constraint(name, estimator) == canonical
    else:
        with pytest.raises(FairkitError, match=f"{estimator} does not support \"{name}\"") as e:
            canonical_constraint(name, estimator)
        for supported in SUPPORTED[estimator]:
            assert f'"{supported}"' in str(e.value)


@pytest.mark.parametrize("estimator", sorted(SUPPORTED))
def test_unknown_names_list_the_supported_ones(estimator):
    with pytest.raises(FairkitError, match=f"{estimator} has no constraint named \"parity\"") as e:
        canonical_constraint("parity", estimator)
    for supported in SUPPORTED[estimator]:
        assert f'"{supported}"' in str(e.value)


def _binary(n=120, seed=0):
    rng = np.random.default_rng(seed)
    group = rng.integers(0, 2, n)
    y = (rng.random(n) < 0.3 + 0.4 * group).astype(np.int64)
    X = np.column_stack([y + rng.normal(size=n), group + 0.3 * rng.normal(size=n)])
    return X, y, group


def _proba(X):
    p1 = 1 / (1 + np.exp(-X[:, 0]))
    return np.column_stack([1 - p1, p1])


def _fit(estimator, name, X, y, group):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # short fits, PartialParity's statistical_parity note
        if estimator == "FairProjection":
            return FairProjection(constraints=name, max_iter=20).fit(_proba(X), y,
                                                                     sensitive_features=group)
        if estimator == "PartialParityClassifier":
            return PartialParityClassifier(name, max_iter=2, max_inner_iter=5).fit(
                X, y, sensitive_features=group)
        if estimator == "FairSVM":
            return FairSVM(constraints=name, max_iter=5).fit(X, y, sensitive_features=group)
        return RateConstrainedClassifier(name, max_iter=3).fit(X, y, sensitive_features=group)


@pytest.mark.parametrize("estimator", sorted(SUPPORTED))
def test_the_estimators_take_every_spelling_the_table_gives(estimator):
    """The fit path (the binding parses the name in Rust): an alias fits exactly as its
    canonical name, an unsupported name fails naming the supported ones."""
    X, y, group = _binary()
    for canonical, name in SPELLINGS:
        if canonical == "equalized_odds_diagonal" and estimator == "FairProjection":
            continue  # multi-class notion, covered by the name test above
        if canonical not in SUPPORTED[estimator]:
            with pytest.raises(FairkitError, match="does not support"):
                _fit(estimator, name, X, y, group)
            continue
        if name == canonical:
            continue
        a = _fit(estimator, name, X, y, group)
        b = _fit(estimator, canonical, X, y, group)
        if estimator == "PartialParityClassifier":
            assert np.array_equal(a.coef_, b.coef_), name
        elif estimator == "FairProjection":
            proba = _proba(X)
            assert np.array_equal(a.predict_proba(proba, sensitive_features=group),
                                  b.predict_proba(proba, sensitive_features=group)), name
        elif estimator == "FairSVM":
            assert np.array_equal(a.decision_function(X), b.decision_function(X)), name
        else:
            assert np.array_equal(a.predict_proba(X), b.predict_proba(X)), name


def test_rate_goals_by_alias_are_the_goals_by_name():
    for canonical, name in SPELLINGS:
        if canonical in SUPPORTED["RateConstrainedClassifier"]:
            assert rates.named(name, 0.02) == rates.named(canonical, 0.02)
    with pytest.raises(FairkitError, match="does not support \"percentile_parity\""):
        rates.named("percentile_parity")


def test_rate_constrained_defaults_are_the_crates():
    d = _core.rate_constrained_defaults()
    assert (d["oracle_max_iter"], d["oracle_tol"]) == (15, 1e-3)  # LogisticOracle::approximate
    assert d["oracle"] == {"iterations": 60, "lr_lambda": 1.0, "l2": 1e-4}
    assert d["minibatch"] == {"iterations": 2000, "lr_lambda": 0.1, "l2": 0.0}
    params = RateConstrainedClassifier().get_params()
    for name in ("oracle_max_iter", "oracle_tol", "batch_size", "lr_theta", "snapshot_every",
                 "optimizer", "objective_loss"):
        assert params[name] == d[name], name
