"""fairkit.estimators.RateConstrainedClassifier: same numbers as the Rust API, constraints
bite, same seed same bits, pickling, bad inputs.

The differential test runs ``python/examples/rate_constrained_reference.rs`` (the ``game-opt``
API only) through cargo on the same data and compares bit for bit.
"""

from __future__ import annotations

import os
import pickle
import re
import subprocess
from pathlib import Path

import numpy as np
import pytest
from sklearn.exceptions import NotFittedError

from fairkit import FairkitError
from fairkit._core import estimators as _core
from fairkit.estimators import RateConstrainedClassifier, rates

REPO = Path(__file__).resolve().parents[2]


def recall_gap_data(n: int = 1200, seed: int = 0):
    """Group 1's positives score lower, so an unconstrained model's recall lags there."""
    rng = np.random.default_rng(seed)
    group = rng.integers(0, 2, n)
    y = (rng.random(n) < 0.4).astype(np.int64)
    signal = 2.0 * y - 1.0 - 1.2 * group * y + rng.normal(scale=1.0, size=n)
    X = np.column_stack([signal, group.astype(float), rng.normal(size=n)])
    return X, y, group


def rust_reference(tmp_path, X, y, group, goals, *, hidden, algorithm, solution, max_iter,
                   batch_size, lr_theta, lr_lambda, random_state):
    iterations, seed = max_iter, random_state
    n, d = X.shape
    (tmp_path / "settings.txt").write_text(
        f"{n} {d} {hidden} {algorithm} {solution} {iterations} {batch_size} {lr_theta!r} "
        f"{lr_lambda!r} {seed}\n"
    )
    lines = []
    for g in goals:
        s = g.spec()
        kind, direction, slack_kind, slack, kappa, grp = (
            s["kind"], s["direction"], s["slack_kind"], s["slack"], s["kappa"], s["group"])
        lines.append(f"{kind} {direction} {slack_kind} {slack!r} {kappa!r} {grp or '-'}\n")
    (tmp_path / "goals.txt").write_text("".join(lines))
    (tmp_path / "group_names.txt").write_text("0\n1\n")
    np.ascontiguousarray(X, dtype="<f8").tofile(tmp_path / "x.f64")
    np.asarray(y, dtype="<i8").tofile(tmp_path / "y.i64")
    np.asarray(group, dtype="<i8").tofile(tmp_path / "codes.i64")
    run = subprocess.run(
        [os.environ.get("CARGO", "cargo"), "run", "-q", "-p", "fairkit-py", "--example",
         "rate_constrained_reference", "--", str(tmp_path)],
        cwd=REPO, capture_output=True, text=True,
    )
    assert run.returncode == 0, run.stderr
    return (
        np.fromfile(tmp_path / "proba.f64", dtype="<f8"),
        np.fromfile(tmp_path / "pred.i64", dtype="<i8"),
        np.fromfile(tmp_path / "weights.f64", dtype="<f8"),
    )


@pytest.mark.parametrize(
    "hidden, algorithm, solution",
    [
        (0, "proxy_lagrangian", "m_stoch"),
        (0, "zero_one_ext", "t_stoch"),
        (0, "hinge", "best"),
        (4, "proxy_lagrangian", "last"),
    ],
)
def test_same_numbers_as_the_rust_api(tmp_path, hidden, algorithm, solution):
    X, y, group = recall_gap_data(600, seed=1)
    goals = [rates.equal_opportunity(multiplicative=0.95), rates.coverage_at_most(0.6)]
    settings = dict(hidden=hidden, algorithm=algorithm, solution=solution, max_iter=300,
                    batch_size=64, lr_theta=0.05, lr_lambda=0.5, random_state=3)
    clf = RateConstrainedClassifier(goals, **settings).fit(X, y, sensitive_features=group)
    proba, pred, weights = rust_reference(tmp_path, X, y, group, goals, **settings)
    assert np.array_equal(clf.weights_, weights)
    assert np.array_equal(clf.predict_proba(X)[:, 1], proba)
    assert np.array_equal(clf.predict(X), pred)


def tpr(pred, y, mask):
    return pred[(y == 1) & mask].mean()


def test_equal_opportunity_constraint_closes_the_recall_gap():
    X, y, group = recall_gap_data(3000, seed=2)
    settings = dict(algorithm="proxy_lagrangian", max_iter=1500, batch_size=200, lr_theta=0.05,
                    lr_lambda=1.0, random_state=1)
    base = RateConstrainedClassifier(**{**settings, "algorithm": "unconstrained"}).fit(
        X, y, sensitive_features=group
    )
    fair = RateConstrainedClassifier(
        [rates.equal_opportunity(multiplicative=0.95)], **settings
    ).fit(X, y, sensitive_features=group)
    p_base, p_fair = base.predict_proba(X)[:, 1], fair.predict_proba(X)[:, 1]

    def ratio(p):  # expected recall of group 1 over recall of all
        return tpr(p, y, group == 1) / tpr(p, y, np.ones_like(y, dtype=bool))

    assert ratio(p_base) < 0.9
    assert ratio(p_fair) > ratio(p_base) + 0.05, (ratio(p_base), ratio(p_fair))
    assert fair.n_components_ <= len(fair.train_constraints_) + 1  # m-stoch: at most m+1
    assert max(fair.train_constraints_.values()) < 0.02


def test_recall_floor_and_coverage():
    X, y, group = recall_gap_data(2000, seed=3)
    clf = RateConstrainedClassifier(
        [rates.recall_at_least(0.9)], algorithm="proxy_lagrangian", max_iter=1500,
        batch_size=200, lr_theta=0.05, lr_lambda=1.0,
    ).fit(X, y, sensitive_features=group)
    p = clf.predict_proba(X)[:, 1]
    assert tpr(p, y, np.ones_like(y, dtype=bool)) > 0.88
    clf = RateConstrainedClassifier(
        [rates.coverage_at_most(0.2)], algorithm="proxy_lagrangian", max_iter=1500,
        batch_size=200, lr_theta=0.05, lr_lambda=1.0,
    ).fit(X, y, sensitive_features=group)
    assert clf.predict_proba(X)[:, 1].mean() < 0.22


def test_same_seed_same_bits_and_labels():
    X, y, group = recall_gap_data(500, seed=4)
    labels = np.where(y == 1, "yes", "no")
    runs = [
        RateConstrainedClassifier([rates.statistical_parity(additive=0.05)], hidden=3,
                                  max_iter=200, random_state=9).fit(X, labels, sensitive_features=group)
        for _ in range(2)
    ]
    assert list(runs[0].classes_) == ["no", "yes"]
    assert np.array_equal(runs[0].weights_, runs[1].weights_)
    assert np.array_equal(runs[0].predict_proba(X), runs[1].predict_proba(X))
    assert np.array_equal(runs[0].predict(X, random_state=5), runs[1].predict(X, random_state=5))
    assert set(runs[0].predict(X)) <= {"no", "yes"}


def test_pickle_round_trip():
    X, y, group = recall_gap_data(400, seed=5)
    for hidden in (0, 3):
        clf = RateConstrainedClassifier([rates.equal_opportunity(additive=0.05)], hidden=hidden,
                                        max_iter=100).fit(X, y, sensitive_features=group)
        back = pickle.loads(pickle.dumps(clf))
        assert np.array_equal(back.predict_proba(X), clf.predict_proba(X))
        assert np.array_equal(back.predict(X), clf.predict(X))


def test_bad_inputs():
    X, y, group = recall_gap_data(300, seed=6)
    with pytest.raises(FairkitError, match="sensitive_features is missing"):
        RateConstrainedClassifier().fit(X, y)
    with pytest.raises(FairkitError, match=r"1 class\(es\).*exactly two classes"):
        RateConstrainedClassifier().fit(X, np.ones(len(y), dtype=int), sensitive_features=group)
    with pytest.raises(FairkitError, match=r"target is multiclass"):
        RateConstrainedClassifier().fit(X, y + group * (y == 0) * 2, sensitive_features=group)
    with pytest.raises(ValueError, match="NaN"):
        bad = X.copy()
        bad[4, 1] = np.nan
        RateConstrainedClassifier().fit(bad, y, sensitive_features=group)
    with pytest.raises(FairkitError, match=r"constraints must hold goals"):
        RateConstrainedClassifier([3]).fit(X, y, sensitive_features=group)
    with pytest.raises(FairkitError, match=r'group "7" is not among'):
        RateConstrainedClassifier([rates.recall_at_least(0.5, group=7)]).fit(
            X, y, sensitive_features=group
        )
    with pytest.raises(FairkitError, match=r"algorithm: \"newton\""):
        RateConstrainedClassifier(algorithm="newton").fit(X, y, sensitive_features=group)
    with pytest.raises(FairkitError, match=r"lr_theta"):
        RateConstrainedClassifier(lr_theta=-1.0).fit(X, y, sensitive_features=group)
    with pytest.raises(FairkitError, match=r"kappa=1.5"):
        rates.coverage_at_least(1.5)
    with pytest.raises(FairkitError, match=r"direction='up'"):
        rates.equal_odds("up")
    with pytest.raises(NotFittedError):
        RateConstrainedClassifier().predict_proba(X)
    clf = RateConstrainedClassifier(max_iter=20).fit(X, y, sensitive_features=group)
    with pytest.raises(ValueError, match="3 features"):
        clf.predict(X[:, :2])


def test_ctrl_c_stops_a_long_fit():
    import _thread
    import threading
    import time

    X, y, group = recall_gap_data(2000, seed=7)
    # Simulates Ctrl-C half a second in; the fit would otherwise run for minutes.
    timer = threading.Timer(0.5, _thread.interrupt_main)
    start = time.perf_counter()
    timer.start()
    try:
        with pytest.raises(KeyboardInterrupt):
            RateConstrainedClassifier(
                [rates.equal_opportunity(additive=0.05)], max_iter=5_000_000, snapshot_every=1000
            ).fit(X, y, sensitive_features=group)
    finally:
        timer.cancel()
    assert time.perf_counter() - start < 20


def compas_like(n: int = 6000, seed: int = 0):
    """Synthetic COMPAS-like data: 4 scores and the group; group 1 has a higher base rate."""
    rng = np.random.default_rng(seed)
    group = (rng.random(n) < 0.4).astype(np.int64)
    z = rng.normal(size=(n, 4))
    logit = 0.9 * z[:, 0] + 0.5 * z[:, 1] - 0.3 * z[:, 2] + 0.8 * group - 0.2
    y = (rng.random(n) < 1 / (1 + np.exp(-logit))).astype(np.int64)
    return np.column_stack([z, group + 0.0]), y, group


def expected_metrics(clf, X, y, group):
    q = clf.predict_proba(X)[:, 1]
    acc = float(np.mean(np.where(y == 1, q, 1 - q)))
    dp = abs(q[group == 1].mean() - q[group == 0].mean())
    eo = max(abs(q[(group == 1) & (y == c)].mean() - q[(group == 0) & (y == c)].mean())
             for c in (0, 1))
    return acc, dp, eo


def test_default_reaches_parity_at_little_cost():
    # Pinned (seeded): the default game (best responses + swap-regret multipliers + the
    # shrinking LP) keeps the unconstrained accuracy within 1.5 points at a training gap of
    # at most 0.02, where an unconstrained logistic regression has a gap of ~0.29.
    X, y, group = compas_like()
    tr, te = slice(0, 4000), slice(4000, None)
    for name, gap_index in (("demographic_parity", 1), ("equalized_odds", 2)):
        clf = RateConstrainedClassifier(name).fit(X[tr], y[tr], sensitive_features=group[tr])
        assert clf.n_iter_ == 60 and clf.n_components_ <= len(clf.train_constraints_) + 1
        assert max(clf.train_constraints_.values()) <= 1e-9
        train = expected_metrics(clf, X[tr], y[tr], group[tr])
        test = expected_metrics(clf, X[te], y[te], group[te])
        assert train[gap_index] <= 0.02, (name, train)
        assert train[0] >= 0.68 and test[0] >= 0.67, (name, train, test)
    unconstrained = RateConstrainedClassifier().fit(X[tr], y[tr], sensitive_features=group[tr])
    assert expected_metrics(unconstrained, X[te], y[te], group[te])[1] > 0.25


@pytest.mark.filterwarnings("ignore::sklearn.exceptions.ConvergenceWarning")  # max_iter=5
def test_constraints_by_name_single_goal_and_aliases():
    X, y, group = compas_like(1500, seed=1)
    fit = dict(sensitive_features=group)
    by_name = RateConstrainedClassifier("equalized_odds", difference_bound=0.02).fit(X, y, **fit)
    by_goal = RateConstrainedClassifier(rates.equal_odds(additive=0.02)).fit(X, y, **fit)
    by_alias = RateConstrainedClassifier([rates.equalized_odds(additive=0.02)]).fit(X, y, **fit)
    assert np.array_equal(by_name.predict_proba(X), by_goal.predict_proba(X))
    assert np.array_equal(by_alias.predict_proba(X), by_goal.predict_proba(X))
    assert len(by_name.train_constraints_) == 8  # TPR and FPR, 2 groups, both sides
    default_bound = RateConstrainedClassifier("demographic_parity").fit(X, y, **fit)
    explicit = RateConstrainedClassifier(rates.demographic_parity(additive=0.01)).fit(X, y, **fit)
    assert np.array_equal(default_bound.weights_, explicit.weights_)
    counts = {"statistical_parity": 4, "equal_odds": 8, "equal_opportunity": 4,
              "true_positive_rate_parity": 4, "false_positive_rate_parity": 4,
              "error_rate_parity": 4, "equal_accuracy": 4}
    for name, m in counts.items():
        clf = RateConstrainedClassifier(name, max_iter=5).fit(X, y, **fit)
        assert len(clf.train_constraints_) == m, name
    assert all(k.startswith("FPR") for k in RateConstrainedClassifier(
        "false_positive_rate_parity", max_iter=5).fit(X, y, **fit).train_constraints_)


def test_sklearn_spellings_log_loss_and_random_state():
    X, y, group = recall_gap_data(600, seed=8)
    common = dict(algorithm="proxy_lagrangian", max_iter=100)
    a = RateConstrainedClassifier(objective_loss="log_loss", **common).fit(
        X, y, sensitive_features=group)
    b = RateConstrainedClassifier(objective_loss="logistic", **common).fit(
        X, y, sensitive_features=group)
    assert np.array_equal(a.predict_proba(X), b.predict_proba(X))
    c = RateConstrainedClassifier(random_state=4, **common).fit(X, y, sensitive_features=group)
    d = RateConstrainedClassifier(random_state=4, **common).fit(X, y, sensitive_features=group)
    assert np.array_equal(c.weights_, d.weights_)
    assert np.array_equal(c.predict(X), d.predict(X))
    assert np.array_equal(c.predict(X, random_state=2), c.predict(X, random_state=2))


def test_convergence_warning_when_the_training_constraints_stay_violated():
    from sklearn.exceptions import ConvergenceWarning

    X, y, group = compas_like(1500, seed=2)
    with pytest.warns(ConvergenceWarning, match="violates the training constraint"):
        RateConstrainedClassifier("demographic_parity", difference_bound=0.0, max_iter=1).fit(
            X, y, sensitive_features=group)
    import warnings

    with warnings.catch_warnings():
        warnings.simplefilter("error")
        RateConstrainedClassifier("demographic_parity").fit(X, y, sensitive_features=group)


@pytest.mark.filterwarnings("ignore::sklearn.exceptions.ConvergenceWarning")  # short fits
def test_bad_inputs_of_the_new_parameters():
    X, y, group = compas_like(500, seed=3)
    fit = dict(sensitive_features=group)
    with pytest.raises(FairkitError, match=r'no constraint named "parity".*"demographic_parity"'):
        RateConstrainedClassifier("parity").fit(X, y, **fit)
    with pytest.raises(FairkitError, match=r"difference_bound=2"):
        RateConstrainedClassifier("equalized_odds", difference_bound=2).fit(X, y, **fit)
    with pytest.raises(FairkitError, match=r"difference_bound='a'"):
        RateConstrainedClassifier("equalized_odds", difference_bound="a").fit(X, y, **fit)
    with pytest.raises(FairkitError, match=r"difference_bound applies to constraints given by"):
        RateConstrainedClassifier(rates.equal_odds(additive=0.1), difference_bound=0.1).fit(
            X, y, **fit)
    with pytest.raises(FairkitError, match=r"constraints must be a constraint name"):
        RateConstrainedClassifier(3.5).fit(X, y, **fit)
    with pytest.raises(FairkitError, match=r"objective_loss: 'squared'"):
        RateConstrainedClassifier(objective_loss="squared").fit(X, y, **fit)
    with pytest.raises(FairkitError, match=r"random_state = -1"):
        RateConstrainedClassifier(random_state=-1).fit(X, y, **fit)
    with pytest.raises(FairkitError, match=r"RandomState is not supported"):
        RateConstrainedClassifier(random_state=np.random.RandomState(0)).fit(X, y, **fit)
    with pytest.raises(FairkitError, match=r"sample_weight has shape \(3,\); expected \(500,\)"):
        RateConstrainedClassifier().fit(X, y, sample_weight=np.ones(3), **fit)
    with pytest.raises(FairkitError, match=r"finite and >= 0"):
        RateConstrainedClassifier().fit(X, y, sample_weight=-np.ones(len(y)), **fit)
    with pytest.raises(FairkitError, match=r"finite and >= 0"):
        RateConstrainedClassifier().fit(X, y, sample_weight=np.full(len(y), np.nan), **fit)
    with pytest.raises(FairkitError, match=r"0 for every row"):
        RateConstrainedClassifier().fit(X, y, sample_weight=np.zeros(len(y)), **fit)
    with pytest.raises(FairkitError, match=r"must be numbers"):
        RateConstrainedClassifier().fit(X, y, sample_weight=["a"] * len(y), **fit)
    with pytest.raises(FairkitError, match=r"has no rows in these examples"):
        RateConstrainedClassifier("demographic_parity").fit(
            X, y, sample_weight=(group == 0).astype(float), **fit)
    RateConstrainedClassifier(max_iter=3).fit(X, y, sample_weight=None, **fit)
    with pytest.raises(FairkitError, match=r"unexpected keyword argument\(s\) \['weights'\]"):
        RateConstrainedClassifier().fit(X, y, weights=np.ones(len(y)), **fit)
    with pytest.raises(FairkitError, match=r"hidden = 3 with algorithm='oracle_proxy_lagrangian'"):
        RateConstrainedClassifier(hidden=3, algorithm="oracle_proxy_lagrangian").fit(X, y, **fit)
    with pytest.raises(FairkitError, match=r"oracle_max_iter = -1"):
        RateConstrainedClassifier(oracle_max_iter=-1).fit(X, y, **fit)
    with pytest.raises(FairkitError, match=r"oracle max_iters"):
        RateConstrainedClassifier(oracle_max_iter=0).fit(X, y, **fit)
    with pytest.raises(FairkitError, match=r"oracle tolerance"):
        RateConstrainedClassifier(oracle_tol=0.0).fit(X, y, **fit)
    with pytest.raises(FairkitError, match=r"l2 = -1"):
        RateConstrainedClassifier(l2=-1.0).fit(X, y, **fit)
    with pytest.raises(FairkitError, match=r"lr_lambda = 'x'"):
        RateConstrainedClassifier(lr_lambda="x").fit(X, y, **fit)
    with pytest.raises(FairkitError, match=r"max_iter = 1.5"):
        RateConstrainedClassifier(max_iter=1.5).fit(X, y, **fit)
    # hidden > 0 with the default algorithm trains the network with the minibatch game.
    net = RateConstrainedClassifier("demographic_parity", hidden=3, max_iter=50).fit(
        X, y, **fit)
    assert net.report_["summary"].startswith("0-1 swap")


def test_estimator_as_the_model_player():
    from sklearn.linear_model import LogisticRegression

    X, y, group = compas_like(2000, seed=4)
    fit = dict(sensitive_features=group)
    clf = RateConstrainedClassifier("demographic_parity", estimator=LogisticRegression(),
                                    max_iter=30).fit(X, y, **fit)
    assert len(clf.estimators_) == clf.n_components_ <= len(clf.train_constraints_) + 1
    assert all(isinstance(h, LogisticRegression) for h in clf.estimators_)
    assert max(clf.train_constraints_.values()) <= 1e-9
    acc, dp, _ = expected_metrics(clf, X, y, group)
    assert dp <= 0.02 and abs(acc - (1 - clf.train_error_)) < 1e-9
    builtin = RateConstrainedClassifier("demographic_parity", max_iter=30).fit(X, y, **fit)
    assert acc >= expected_metrics(builtin, X, y, group)[0] - 0.01
    p = clf.predict_proba(X)[:, 1]
    assert np.array_equal(clf.predict(X, random_state=3), clf.predict(X, random_state=3))
    assert abs(clf.predict(X, random_state=3).mean() - p.mean()) < 0.05
    back = pickle.loads(pickle.dumps(clf))
    assert np.array_equal(back.predict_proba(X), clf.predict_proba(X))


def test_estimator_bad_inputs():
    from sklearn.neighbors import KNeighborsClassifier
    from sklearn.linear_model import LogisticRegression

    X, y, group = compas_like(300, seed=5)
    fit = dict(sensitive_features=group)
    with pytest.raises(FairkitError, match=r"KNeighborsClassifier: its fit\(\) takes no "
                                           r"sample_weight"):
        RateConstrainedClassifier("demographic_parity", estimator=KNeighborsClassifier()).fit(
            X, y, **fit)
    with pytest.raises(FairkitError, match=r"not a scikit-learn classifier"):
        RateConstrainedClassifier(estimator=object()).fit(X, y, **fit)
    with pytest.raises(FairkitError, match=r"algorithm='proxy_lagrangian' with estimator="):
        RateConstrainedClassifier(estimator=LogisticRegression(),
                                  algorithm="proxy_lagrangian").fit(X, y, **fit)

    class Broken(LogisticRegression):
        def fit(self, X, y, sample_weight=None):
            raise ValueError("broken on purpose")

    with pytest.raises(ValueError, match="broken on purpose"):
        RateConstrainedClassifier("demographic_parity", estimator=Broken()).fit(X, y, **fit)


def test_sample_weight_counts_like_duplicated_rows():
    X, y, group = compas_like(1200, seed=6)
    w = np.random.default_rng(0).integers(0, 4, len(y)).astype(float)
    rows = np.repeat(np.arange(len(y)), w.astype(int))
    for algorithm in ("oracle_proxy_lagrangian", "proxy_lagrangian"):
        weighted = RateConstrainedClassifier("demographic_parity", algorithm=algorithm).fit(
            X, y, sensitive_features=group, sample_weight=w)
        dup = RateConstrainedClassifier("demographic_parity", algorithm=algorithm).fit(
            X[rows], y[rows], sensitive_features=group[rows])
        # Same problem: the exact training values agree for the same classifier ...
        assert max(weighted.train_constraints_.values()) <= 0.01
        p = weighted.predict_proba(X[rows])[:, 1]
        err_dup = float(np.mean(np.where(y[rows] == 1, 1 - p, p)))
        assert abs(err_dup - weighted.train_error_) < 1e-9, algorithm
        # ... and the two fits land at the same accuracy.
        assert abs(weighted.train_error_ - dup.train_error_) < 0.01, algorithm
    uniform = RateConstrainedClassifier("demographic_parity").fit(
        X, y, sensitive_features=group, sample_weight=np.full(len(y), 3.0))
    plain = RateConstrainedClassifier("demographic_parity").fit(X, y, sensitive_features=group)
    assert np.allclose(uniform.predict_proba(X), plain.predict_proba(X), atol=1e-9)


def test_estimator_receives_the_sample_weights():
    from sklearn.linear_model import LogisticRegression

    seen = []

    class Spy(LogisticRegression):
        def fit(self, X, y, sample_weight=None):
            seen.append(np.asarray(sample_weight))
            return super().fit(X, y, sample_weight=sample_weight)

    X, y, group = compas_like(600, seed=7)
    w = np.where(np.arange(len(y)) % 2 == 0, 3.0, 0.0)  # odd rows do not count
    clf = RateConstrainedClassifier(estimator=Spy(), max_iter=3).fit(
        X, y, sensitive_features=group, sample_weight=w)
    assert seen and all(np.all(s[1::2] == 0) and np.all(s[::2] > 0) for s in seen)
    assert clf.n_iter_ == 3


def test_linear_estimators_warm_start_to_the_same_answer():
    from sklearn.ensemble import RandomForestClassifier
    from sklearn.linear_model import LogisticRegression

    from fairkit.estimators._rate_constrained import _warm_startable

    class ColdLogisticRegression(LogisticRegression):
        """The same model outside sklearn.linear_model: refitted cold every round."""

    ColdLogisticRegression.__module__ = __name__
    assert _warm_startable(LogisticRegression())
    assert not _warm_startable(ColdLogisticRegression())
    assert not _warm_startable(RandomForestClassifier())  # warm_start adds trees there
    X, y, group = compas_like(3000, seed=5)
    goal = "demographic_parity"
    warm = RateConstrainedClassifier(goal, estimator=LogisticRegression()).fit(
        X, y, sensitive_features=group)
    cold = RateConstrainedClassifier(goal, estimator=ColdLogisticRegression()).fit(
        X, y, sensitive_features=group)
    # Same convex best responses up to the solver's tolerance: the same game.
    assert abs(warm.train_error_ - cold.train_error_) < 2e-3
    diff = np.abs(warm.predict_proba(X)[:, 1] - cold.predict_proba(X)[:, 1])
    assert np.mean(diff) < 0.02, np.mean(diff)
    # The fitted responses keep the user's warm_start setting.
    assert all(not h.get_params()["warm_start"] for h in warm.estimators_
               if hasattr(h, "get_params"))


def test_settings_cross_as_typed_dicts_and_errors_name_the_key():
    # The binding reads goals and settings as typed structs from dicts: a wrong type or an
    # unknown key is refused naming it (the Python name where it differs), never misread by
    # position.
    rng = np.random.default_rng(0)
    X = rng.normal(size=(40, 2))
    y = (X[:, 0] > 0).astype(np.int64)
    codes = (np.arange(40) % 2).astype(np.int64)
    goal = rates.coverage_at_least(0.3).spec()
    assert goal == {"kind": "coverage_at_least", "direction": "at_least", "slack_kind": "none",
                    "slack": 0.0, "kappa": 0.3, "group": None}
    settings = {"hidden": 0, "algorithm": "proxy_lagrangian", "solution": "best",
                "optimizer": "sgd", "objective_loss": "hinge", "iterations": 5, "batch_size": 8,
                "lr_theta": 0.1, "lr_lambda": 0.1, "l2": 0.0, "snapshot_every": 1, "seed": 0,
                "oracle_max_iter": 10, "oracle_tol": 1e-4}
    core, info = _core.rate_constrained_fit(X, y, codes, ["0", "1"], [goal], settings)
    assert info["iterations"] == 5
    cases = [
        ([{**goal, "kappa": "high"}], settings, "goals[0].kappa"),
        ([{**goal, "slak": 0.1}], settings, "slak"),
        ([goal], {**settings, "iterations": -1}, "max_iter"),
        ([goal], {**settings, "batch_size": 2.5}, "batch_size"),
        ([goal], {k: v for k, v in settings.items() if k != "seed"}, "seed"),
        ([goal], {**settings, "solution": "finest"}, "solution"),
    ]
    for goals, s, named in cases:
        with pytest.raises(FairkitError, match=re.escape(named)):
            _core.rate_constrained_fit(X, y, codes, ["0", "1"], goals, s)
    with pytest.raises(FairkitError, match="lr_lambda"):
        _core.rate_constrained_play(y, codes, ["0", "1"], [goal], lambda t, w: t,
                                    {"algorithm": "oracle_lagrangian", "solution": "best",
                                     "iterations": 2, "lr_lambda": "fast"})
