"""FairProjection's hard decisions: the group-threshold rule keeps the constraint it was fitted
for, beside fairlearn's ThresholdOptimizer on the same data; seeds, pickling, routing, warnings
and bad inputs of the new parameters."""

from __future__ import annotations

import pickle
import warnings

import numpy as np
import pytest
import sklearn
from fairlearn.metrics import demographic_parity_difference, equalized_odds_difference
from fairlearn.postprocessing import ThresholdOptimizer
from sklearn.exceptions import ConvergenceWarning
from sklearn.linear_model import LogisticRegression
from sklearn.model_selection import cross_val_score

from fairkit import FairkitError
from fairkit.estimators import FairProjection


def compas_like(n: int, seed: int):
    """Two groups with different base rates and a feature that reveals the group (as COMPAS's
    priors count does): an unconstrained model has large DP and EO gaps."""
    rng = np.random.default_rng(seed)
    group = rng.integers(0, 2, n)
    y = (rng.random(n) < np.where(group == 1, 0.55, 0.35)).astype(int)
    X = np.column_stack([
        y + rng.normal(scale=1.2, size=n),
        0.8 * group + rng.normal(scale=0.5, size=n),
        rng.normal(size=n),
    ])
    return X, y, np.where(group == 1, "b", "a")


@pytest.fixture(scope="module")
def data():
    X, y, s = compas_like(12000, seed=7)
    return X[:8000], y[:8000], s[:8000], X[8000:], y[8000:], s[8000:]


GAPS = {"statistical_parity": demographic_parity_difference,
        "equalized_odds": equalized_odds_difference}
PEER = {"statistical_parity": "demographic_parity", "equalized_odds": "equalized_odds"}


@pytest.mark.parametrize("constraint", ["statistical_parity", "equalized_odds"])
def test_default_keeps_the_constraint_and_matches_threshold_optimizer(data, constraint):
    Xtr, ytr, str_, Xte, yte, ste = data
    gap = GAPS[constraint]
    base = LogisticRegression().fit(Xtr, ytr)
    base_gap = gap(yte, base.predict(Xte), sensitive_features=ste)
    fp = FairProjection(base, prefit=True, constraints=constraint, alpha=0.0).fit(
        Xtr, ytr, sensitive_features=str_
    )
    # On the fitting rows the rule's expected rates meet alpha = 0 exactly.
    r = fp.decision_rates_
    key = "selection_rate" if constraint == "statistical_parity" else "true_positive_rate"
    assert abs(r[key][0] - r[key][1]) < 1e-7
    ours = fp.predict(Xte, sensitive_features=ste)
    to = ThresholdOptimizer(estimator=base, constraints=PEER[constraint], prefit=True,
                            predict_method="predict_proba").fit(Xtr, ytr, sensitive_features=str_)
    theirs = to.predict(Xte, sensitive_features=ste, random_state=0)
    acc_ours, acc_theirs = np.mean(ours == yte), np.mean(theirs == yte)
    gap_ours = gap(yte, ours, sensitive_features=ste)
    gap_theirs = gap(yte, theirs, sensitive_features=ste)
    # Measured (seed 7, 4,000 test rows): base accuracy 0.672 at DP gap 0.186 / EO gap 0.177;
    # SP: ours 0.6485 at 0.005, ThresholdOptimizer 0.6483 at 0.010; EO: ours 0.6518 at 0.026,
    # ThresholdOptimizer 0.6520 at 0.023 (test-set noise: both are exact on the training rows).
    assert base_gap > 0.15
    assert gap_ours < 0.04, gap_ours
    assert acc_ours >= acc_theirs - 0.005, (acc_ours, acc_theirs)
    assert gap_ours <= gap_theirs + 0.02, (gap_ours, gap_theirs)


def test_argmax_misses_what_thresholds_keep(data):
    """The issue's finding, pinned: argmax of the fair probabilities leaves an EO gap the
    threshold rule closes on the training rows."""
    Xtr, ytr, str_, *_ = data
    fp = FairProjection(LogisticRegression(), constraints="equalized_odds", alpha=0.0).fit(
        Xtr, ytr, sensitive_features=str_
    )
    hard = fp.predict(Xtr, sensitive_features=str_)
    argmax = fp.set_params(decision="argmax").predict(Xtr, sensitive_features=str_)
    gap_hard = equalized_odds_difference(ytr, hard, sensitive_features=str_)
    gap_argmax = equalized_odds_difference(ytr, argmax, sensitive_features=str_)
    assert gap_hard < 0.02
    assert gap_argmax > gap_hard


def test_difference_bound_is_met_in_expectation(data):
    Xtr, ytr, str_, *_ = data
    for bound in (0.0, 0.02, 0.05):
        fp = FairProjection(LogisticRegression(), constraints="equalized_odds",
                            difference_bound=bound).fit(Xtr, ytr, sensitive_features=str_)
        r = fp.decision_rates_
        for key in ("true_positive_rate", "false_positive_rate"):
            assert abs(r[key][0] - r[key][1]) <= bound + 1e-7
    # A looser bound never costs training accuracy.
    accs = [FairProjection(LogisticRegression(), constraints="equalized_odds", difference_bound=b)
            .fit(Xtr, ytr, sensitive_features=str_).decision_rates_["overall_accuracy"]
            for b in (0.0, 0.02, 0.05)]
    assert accs[0] <= accs[1] + 1e-9 <= accs[2] + 2e-9


def test_seeded_and_pickled(data):
    Xtr, ytr, str_, Xte, _, ste = data
    fp = FairProjection(LogisticRegression(), constraints="statistical_parity").fit(
        Xtr, ytr, sensitive_features=str_
    )
    a = fp.predict(Xte, sensitive_features=ste)
    assert np.array_equal(a, fp.predict(Xte, sensitive_features=ste))
    b = fp.predict(Xte, sensitive_features=ste, random_state=5)
    # Only rows near a threshold are drawn: another seed changes few labels.
    assert 0 < np.sum(a != b) < 0.05 * len(a)
    back = pickle.loads(pickle.dumps(fp))
    assert np.array_equal(back.predict(Xte, sensitive_features=ste), a)
    assert back.decision_rates_ == fp.decision_rates_


def test_sample_decision_is_seeded_and_multiclass_defaults_to_argmax():
    rng = np.random.default_rng(0)
    p = rng.dirichlet([1, 1, 1], size=600)
    s = rng.choice(["a", "b"], 600)
    fp = FairProjection(constraints="statistical_parity").fit(p, sensitive_features=s)
    assert fp.decision_rates_ is None
    assert np.array_equal(fp.predict(p, sensitive_features=s),
                          np.argmax(fp.predict_proba(p, sensitive_features=s), axis=1))
    fp.set_params(decision="sample", random_state=3)
    one = fp.predict(p, sensitive_features=s)
    assert np.array_equal(one, fp.predict(p, sensitive_features=s))
    assert set(np.unique(one)) <= {0, 1, 2}
    with pytest.raises(FairkitError, match="two classes"):
        FairProjection(constraints="statistical_parity", decision="thresholds").fit(
            p, sensitive_features=s
        )


def test_score_routes_sensitive_features_with_metadata_routing(data):
    Xtr, ytr, str_, *_ = data
    est = FairProjection(LogisticRegression(), constraints="statistical_parity")
    assert est.fit(Xtr, ytr, sensitive_features=str_).score(
        Xtr, ytr, sensitive_features=str_
    ) > 0.6
    with pytest.raises(FairkitError, match="metadata"):
        est.score(Xtr, ytr)
    with sklearn.config_context(enable_metadata_routing=True):
        routed = (FairProjection(LogisticRegression(), constraints="statistical_parity")
                  .set_fit_request(sensitive_features=True)
                  .set_score_request(sensitive_features=True, sample_weight=False))
        scores = cross_val_score(routed, Xtr, ytr, cv=3, params={"sensitive_features": str_},
                                 error_score="raise")
    assert np.all(scores > 0.6)


def test_warns_when_the_fit_stops_early(data):
    Xtr, ytr, str_, *_ = data
    with pytest.warns(ConvergenceWarning, match="did not converge"):
        FairProjection(LogisticRegression(), constraints="equalized_odds", max_iter=1).fit(
            Xtr, ytr, sensitive_features=str_
        )
    with warnings.catch_warnings():
        warnings.simplefilter("error", ConvergenceWarning)
        FairProjection(LogisticRegression(), constraints="equalized_odds").fit(
            Xtr, ytr, sensitive_features=str_
        )


@pytest.mark.parametrize(
    "params, match",
    [
        ({"decision": "vote"}, "decision"),
        ({"decision": None}, "decision"),
        ({"difference_bound": -0.1}, "difference_bound"),
        ({"difference_bound": 2.0}, "difference_bound"),
        ({"difference_bound": "0.1"}, "difference_bound"),
        ({"difference_bound": True}, "difference_bound"),
        ({"random_state": -1}, "random_state"),
        ({"random_state": 1.5}, "random_state"),
    ],
)
def test_bad_new_parameters(data, params, match):
    Xtr, ytr, str_, *_ = data
    with pytest.raises(FairkitError, match=match):
        FairProjection(LogisticRegression(), **params).fit(Xtr, ytr, sensitive_features=str_)


def test_bad_seed_at_predict(data):
    Xtr, ytr, str_, *_ = data
    fp = FairProjection(LogisticRegression()).fit(Xtr, ytr, sensitive_features=str_)
    with pytest.raises(FairkitError, match="random_state"):
        fp.predict(Xtr, sensitive_features=str_, random_state=-3)


@pytest.mark.parametrize(
    "constraint, rate, other",
    [
        ("equal_opportunity", "true_positive_rate", "false_positive_rate"),
        ("true_positive_rate_parity", "true_positive_rate", "false_positive_rate"),
        ("false_positive_rate_parity", "false_positive_rate", "true_positive_rate"),
    ],
)
def test_single_rate_parity(data, constraint, rate, other):
    """fairlearn's TruePositiveRateParity / FalsePositiveRateParity: only the named rate is
    equalised, so the other one keeps more of the base model's gap."""
    Xtr, ytr, str_, *_ = data
    fp = FairProjection(LogisticRegression(), constraints=constraint, alpha=0.0).fit(
        Xtr, ytr, sensitive_features=str_
    )
    r = fp.decision_rates_
    assert abs(r[rate][0] - r[rate][1]) < 1e-7
    assert abs(r[other][0] - r[other][1]) > 0.01
    assert fp.report_["n_constraints"] == 8


def test_single_rate_parity_needs_two_classes():
    rng = np.random.default_rng(1)
    p = rng.dirichlet([1, 1, 1], size=300)
    y = np.array([rng.choice(3, p=row) for row in p])
    s = rng.choice(["a", "b"], 300)
    with pytest.raises(FairkitError, match="two classes"):
        FairProjection(constraints="equal_opportunity").fit(p, y, sensitive_features=s)
