"""fairkit.estimators.FairProjection: same numbers as the Rust API, fairness, bad inputs.

The differential test runs ``python/examples/fair_projection_reference.rs`` (the crate's API only,
no binding code) through cargo on the same data and compares bit for bit: the binding adds no
arithmetic of its own, only buffer conversion.
"""

from __future__ import annotations

import os
import subprocess
from pathlib import Path

import numpy as np
import pandas as pd
import pytest
from sklearn.exceptions import NotFittedError
from sklearn.linear_model import LogisticRegression

from fairkit import FairkitError
from fairkit.estimators import FairProjection

REPO = Path(__file__).resolve().parents[2]


def biased(n: int, n_classes: int, n_groups: int, seed: int):
    """Features, groups, labels and calibrated-ish probabilities where the group shifts the class."""
    rng = np.random.default_rng(seed)
    group = rng.integers(0, n_groups, n)
    X = rng.normal(size=(n, 3)) + 0.8 * group[:, None]
    w = rng.normal(size=(3, n_classes))
    logits = X @ w + 1.2 * np.eye(n_groups, n_classes)[group]
    proba = np.exp(logits - logits.max(axis=1, keepdims=True))
    proba /= proba.sum(axis=1, keepdims=True)
    y = np.array([rng.choice(n_classes, p=p) for p in proba])
    return X, group, y, proba


def rust_reference(tmp_path, proba, codes, names, labels, constraints, alpha, divergence, solver):
    """λ, fair probabilities and predictions of the crate's API, via the reference example."""
    n, c = proba.shape
    (tmp_path / "settings.txt").write_text(
        f"{n} {c} {','.join(constraints)} {alpha!r} {divergence} {solver} "
        f"{int(labels is not None)}\n"
    )
    (tmp_path / "group_names.txt").write_text("".join(f"{s}\n" for s in names))
    np.ascontiguousarray(proba, dtype="<f8").tofile(tmp_path / "proba.f64")
    np.asarray(codes, dtype="<i8").tofile(tmp_path / "codes.i64")
    if labels is not None:
        np.asarray(labels, dtype="<i8").tofile(tmp_path / "labels.i64")
    cargo = os.environ.get("CARGO", "cargo")
    run = subprocess.run(
        [cargo, "run", "-q", "-p", "fairkit-py", "--example", "fair_projection_reference", "--",
         str(tmp_path)],
        cwd=REPO,
        capture_output=True,
        text=True,
    )
    assert run.returncode == 0, run.stderr
    lam = np.fromfile(tmp_path / "lambda.f64", dtype="<f8")
    fair = np.fromfile(tmp_path / "fair_proba.f64", dtype="<f8").reshape(n, c)
    pred = np.fromfile(tmp_path / "pred.i64", dtype="<i8")
    return lam, fair, pred


@pytest.mark.parametrize(
    "n_classes, n_groups, constraints, divergence, solver, with_labels",
    [
        (2, 2, ["statistical_parity"], "kl", "dual", True),
        (2, 2, ["equalized_odds"], "cross_entropy", "dual", False),
        (3, 3, ["equalized_odds"], "kl", "admm", True),
        (3, 2, ["statistical_parity", "overall_accuracy"], "cross_entropy", "admm", False),
        (4, 3, ["equalized_odds_diagonal"], "kl", "dual", True),
    ],
)
def test_same_numbers_as_the_rust_api(
    tmp_path, n_classes, n_groups, constraints, divergence, solver, with_labels
):
    _, group, y, proba = biased(3000, n_classes, n_groups, seed=n_classes * 10 + n_groups)
    names = [f"g{k}" for k in range(n_groups)]
    sf = np.array(names)[group]
    fp = FairProjection(
        constraints=constraints, alpha=0.03, divergence=divergence, solver=solver
    ).fit(proba, y if with_labels else None, sensitive_features=sf)
    assert fp.report_["converged"], fp.report_["summary"]
    lam, fair, pred = rust_reference(
        tmp_path, proba, group, names, y if with_labels else None, constraints, 0.03,
        divergence, solver,
    )
    assert np.any(lam > 0), "the constraints should bind on this biased data"
    assert np.array_equal(fp.lambda_, lam)
    assert np.array_equal(fp.predict_proba(proba, sensitive_features=sf), fair)
    argmax = fp.set_params(decision="argmax")
    assert np.array_equal(argmax.predict(proba, sensitive_features=sf), fp.classes_[pred])


def sp_gap(proba: np.ndarray, group: np.ndarray) -> float:
    """Largest difference over classes of the mean predicted probability between groups."""
    rates = np.array([proba[group == a].mean(axis=0) for a in np.unique(group)])
    return float((rates.max(axis=0) - rates.min(axis=0)).max())


def test_statistical_parity_improves_multiclass_multigroup():
    _, group, y, proba = biased(20_000, 3, 4, seed=1)
    before = sp_gap(proba, group)
    fp = FairProjection(constraints="statistical_parity", alpha=0.01).fit(
        proba, y, sensitive_features=group
    )
    fair = fp.predict_proba(proba, sensitive_features=group)
    np.testing.assert_allclose(fair.sum(axis=1), 1.0, atol=1e-12)
    after = sp_gap(fair, group)
    assert before > 0.2
    assert after < before / 5, (before, after)
    # The projection stays close to the base: most hard predictions are kept.
    assert np.mean(fair.argmax(axis=1) == proba.argmax(axis=1)) > 0.6


def test_wrapping_a_sklearn_model_improves_equalized_odds():
    # Base rates differ by group and the only real feature is weak, so a model that sees the
    # group leans on it: a large gap in true-positive rates between the groups.
    rng = np.random.default_rng(2)
    n = 8000
    group = rng.integers(0, 2, n)
    y = rng.random(n) < 0.3 + 0.4 * group
    X = np.column_stack([y + rng.normal(size=n), group, rng.normal(size=n)])
    labels = np.where(y, "approved", "denied")
    sex = np.where(group == 1, "F", "M")
    fp = FairProjection(LogisticRegression(), constraints="equalized_odds", alpha=0.01)
    fp.fit(X, labels, sensitive_features=sex)
    assert list(fp.classes_) == ["approved", "denied"]
    assert fp.n_features_in_ == 3
    pred = fp.predict(X, sensitive_features=sex)
    base = fp.estimator_.predict(X)

    def tpr_gap(p):
        rates = [np.mean(p[(sex == s) & (labels == "approved")] == "approved") for s in "FM"]
        return abs(rates[0] - rates[1])

    assert tpr_gap(base) > 0.2
    assert tpr_gap(pred) < tpr_gap(base) / 2, (tpr_gap(base), tpr_gap(pred))


def test_prefit_uses_the_given_model_and_equals_passing_its_probabilities():
    X, group, y, _ = biased(3000, 3, 2, seed=3)
    model = LogisticRegression().fit(X, y)
    wrapped = FairProjection(model, prefit=True, constraints="statistical_parity").fit(
        X, y, sensitive_features=group
    )
    assert wrapped.estimator_ is model
    direct = FairProjection(constraints="statistical_parity").fit(
        model.predict_proba(X), y, sensitive_features=group
    )
    assert np.array_equal(wrapped.lambda_, direct.lambda_)
    assert np.array_equal(
        wrapped.predict_proba(X, sensitive_features=group),
        direct.predict_proba(model.predict_proba(X), sensitive_features=group),
    )
    # Not prefit: the model is cloned and fitted, the original stays untouched.
    fresh = LogisticRegression()
    FairProjection(fresh).fit(X, y, sensitive_features=group)
    assert not hasattr(fresh, "coef_")


def test_same_inputs_same_bits():
    _, group, y, proba = biased(5000, 3, 3, seed=4)
    runs = [
        FairProjection(solver="admm", alpha=0.02).fit(proba, y, sensitive_features=group)
        for _ in range(2)
    ]
    assert np.array_equal(runs[0].lambda_, runs[1].lambda_)
    assert np.array_equal(
        runs[0].predict_proba(proba, sensitive_features=group),
        runs[1].predict_proba(proba, sensitive_features=group),
    )


def test_pickle_round_trip_gives_the_same_bits():
    import pickle

    _, group, y, proba = biased(3000, 3, 2, seed=8)
    fp = FairProjection(constraints="statistical_parity").fit(proba, y, sensitive_features=group)
    restored = pickle.loads(pickle.dumps(fp))
    assert np.array_equal(restored.lambda_, fp.lambda_)
    assert np.array_equal(
        restored.predict_proba(proba, sensitive_features=group),
        fp.predict_proba(proba, sensitive_features=group),
    )
    # The pickle holds the saved projector, not the fitting rows: later changes to the
    # caller's array cannot reach it, and its size does not grow with the rows.
    proba[:] = 1 / 3
    again = pickle.loads(pickle.dumps(fp))
    assert np.array_equal(again.lambda_, fp.lambda_)
    big_group = np.tile(group, 20)
    big = FairProjection(constraints="statistical_parity").fit(
        np.tile(proba, (20, 1)), np.tile(y, 20), sensitive_features=big_group
    )
    assert len(pickle.dumps(big)) < len(pickle.dumps(fp)) + 1000
    assert len(pickle.dumps(fp)) < 20_000


def test_pickle_restores_without_refitting_and_keeps_the_fitted_settings():
    import pickle

    _, group, y, proba = biased(2000, 3, 3, seed=9)
    fp = FairProjection(solver="admm", alpha=0.03).fit(proba, y, sensitive_features=group)
    fp.set_params(alpha=0.5)  # changing params after fit does not change the fitted projector
    restored = pickle.loads(pickle.dumps(fp))
    assert restored.alpha == 0.5
    assert restored.report_ == fp.report_
    assert np.array_equal(
        restored.predict_proba(proba, sensitive_features=group),
        fp.predict_proba(proba, sensitive_features=group),
    )


@pytest.mark.parametrize(
    "labels", [np.array(["no", "yes"]), np.array([False, True]), np.array([-1, 1])]
)
def test_any_two_label_values_without_an_estimator(labels):
    _, group, y, proba = biased(2000, 2, 2, seed=9)
    fp = FairProjection().fit(proba, labels[y], sensitive_features=group)
    assert list(fp.classes_) == list(labels)
    coded = FairProjection().fit(proba, y, sensitive_features=group)
    assert np.array_equal(fp.lambda_, coded.lambda_)
    assert np.array_equal(
        fp.predict(proba, sensitive_features=group),
        labels[coded.predict(proba, sensitive_features=group)],
    )


def test_intersectional_pandas_groups_and_group_order_at_predict():
    _, group, y, proba = biased(4000, 2, 4, seed=5)
    frame = pd.DataFrame(
        {
            "sex": pd.Categorical(np.where(group % 2 == 0, "F", "M")),
            "age": np.where(group < 2, "young", "old"),
        }
    )
    fp = FairProjection(constraints="statistical_parity").fit(proba, y, sensitive_features=frame)
    assert fp.groups_ == [("F", "old"), ("F", "young"), ("M", "old"), ("M", "young")]
    # Predicting on shuffled rows gives the shuffled fair probabilities.
    order = np.random.default_rng(0).permutation(len(y))
    full = fp.predict_proba(proba, sensitive_features=frame)
    part = fp.predict_proba(proba[order], sensitive_features=frame.iloc[order])
    assert np.array_equal(full[order], part)
    # A group present only in part of the prediction rows is fine.
    first = fp.predict_proba(proba[:10], sensitive_features=frame.iloc[:10])
    assert np.array_equal(first, full[:10])


def test_threshold_decision_for_two_classes():
    _, group, y, proba = biased(2000, 2, 2, seed=6)
    fp = FairProjection(threshold=0.7).fit(proba, y, sensitive_features=group)
    h = fp.predict_proba(proba, sensitive_features=group)
    assert np.array_equal(fp.predict(proba, sensitive_features=group), (h[:, 1] > 0.7).astype(int))


# -- bad inputs: the exception type and a message that names the problem --------------------------


@pytest.fixture(scope="module")
def data():
    _, group, y, proba = biased(500, 2, 2, seed=7)
    return proba, y, group


def test_rows_not_summing_to_one(data):
    proba, y, group = data
    bad = proba.copy()
    bad[3] *= 0.5
    with pytest.raises(FairkitError, match=r"row 3 of base probabilities sums to 0\.49.*not 1.*renormalize=True"):
        FairProjection().fit(bad, y, sensitive_features=group)
    fp = FairProjection(renormalize=True).fit(bad, y, sensitive_features=group)
    assert fp.report_["converged"]


def test_nan_probability(data):
    proba, y, group = data
    bad = proba.copy()
    bad[7, 1] = np.nan
    with pytest.raises(FairkitError, match=r"non-finite value \(NaN\) at row 7, column 1"):
        FairProjection().fit(bad, y, sensitive_features=group)
    fp = FairProjection().fit(proba, y, sensitive_features=group)
    with pytest.raises(FairkitError, match=r"non-finite .* row 7, column 1"):
        fp.predict_proba(bad, sensitive_features=group)


def test_probability_out_of_range(data):
    proba, y, group = data
    bad = proba.copy()
    bad[2] = [1.5, -0.5]
    with pytest.raises(FairkitError, match=r"row 2, column 0: probabilities must lie in \[0, 1\]"):
        FairProjection().fit(bad, y, sensitive_features=group)


def test_unseen_group_at_predict(data):
    proba, y, group = data
    fp = FairProjection().fit(proba, y, sensitive_features=group)
    other = group.copy()
    other[11] = 9
    with pytest.raises(FairkitError, match=r"value 9 at row 11, which was not seen at fit"):
        fp.predict(proba, sensitive_features=other)


def test_single_class(data):
    proba, y, group = data
    with pytest.raises(FairkitError, match=r"y has one class only \(1\)"):
        FairProjection(LogisticRegression()).fit(proba, np.ones(len(y), dtype=int), sensitive_features=group)
    with pytest.raises(FairkitError, match=r"1 column\(s\).*at least 2 classes"):
        FairProjection().fit(np.ones((len(y), 1)), sensitive_features=group)


def test_single_group(data):
    proba, y, _ = data
    with pytest.raises(FairkitError, match=r"1 group\(s\) given.*at least 2 groups"):
        FairProjection().fit(proba, y, sensitive_features=np.zeros(len(y)))


def test_labels_and_columns_disagree(data):
    proba, y, group = data
    with pytest.raises(FairkitError, match=r"3 distinct labels but the probability matrix has 2"):
        FairProjection().fit(proba, np.where(group == 1, 2, y), sensitive_features=group)


def test_length_mismatch(data):
    proba, y, group = data
    with pytest.raises(FairkitError, match=r"length mismatch for sensitive feature"):
        FairProjection().fit(proba, y, sensitive_features=group[:-1])
    with pytest.raises(FairkitError, match=r"length mismatch for y"):
        FairProjection().fit(proba, y[:-1], sensitive_features=group)


def test_missing_sensitive_features(data):
    proba, y, group = data
    with pytest.raises(FairkitError, match=r"sensitive_features is missing"):
        FairProjection().fit(proba, y)
    fp = FairProjection().fit(proba, y, sensitive_features=group)
    with pytest.raises(FairkitError, match=r"sensitive_features is missing"):
        fp.predict(proba)


def test_bad_parameters(data):
    proba, y, group = data
    cases = [
        (dict(constraints="fairness"), r'no constraint named "fairness"; supported constraints'),
        (dict(divergence="hellinger"), r"divergence: \"hellinger\""),
        (dict(solver="sgd"), r"solver: \"sgd\""),
        (dict(alpha=-1.0), r"alpha = -1.*>= 0"),
        (dict(tol=2.0), r"tol = 2"),
        (dict(max_iter=0), r"max_iter = 0"),
        (dict(constraints=[]), r"constraints = \[\]"),
        (dict(alpha="big"), r"alpha = 'big'"),
    ]
    for params, message in cases:
        with pytest.raises(FairkitError, match=message):
            FairProjection(**params).fit(proba, y, sensitive_features=group)
    fp = FairProjection(threshold=1.5).fit(proba, y, sensitive_features=group)
    with pytest.raises(FairkitError, match=r"threshold in \[0, 1\]"):
        fp.predict(proba, sensitive_features=group)


def test_not_fitted_and_bad_estimators(data):
    proba, y, group = data
    with pytest.raises(NotFittedError):
        FairProjection().predict(proba, sensitive_features=group)
    with pytest.raises(NotFittedError, match=r"prefit=True but the estimator is not fitted"):
        FairProjection(LogisticRegression(), prefit=True).fit(proba, y, sensitive_features=group)

    class NoProba:
        def fit(self, X, y):
            return self

    with pytest.raises(FairkitError, match=r"NoProba has no predict_proba"):
        FairProjection(NoProba()).fit(proba, y, sensitive_features=group)


def test_unknown_label_with_a_prefit_model(data):
    proba, y, group = data
    model = LogisticRegression().fit(proba, y)
    with pytest.raises(FairkitError, match=r"label 7 at row 0, which is not one of the classes"):
        FairProjection(model, prefit=True).fit(proba, np.full(len(y), 7), sensitive_features=group)


def test_wrong_number_of_columns_at_predict(data):
    proba, y, group = data
    fp = FairProjection().fit(proba, y, sensitive_features=group)
    with pytest.raises(FairkitError, match=r"3 probability columns .* fitted with 2 classes"):
        fp.predict_proba(np.full((len(y), 3), 1 / 3), sensitive_features=group)
