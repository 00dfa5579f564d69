"""The Wasserstein-barycenter post-processor (crate fair-regression) against equipy, its
closed-form Gaussian case, and the estimator's scikit-learn contract."""

from __future__ import annotations

import pickle

import numpy as np
import pytest

from fairkit import FairkitError
from fairkit.estimators import WassersteinBarycenter, WassersteinPostProcessor

equipy = pytest.importorskip("equipy.fairness")
pd = pytest.importorskip("pandas")


def _data(seed: int, n: int = 3000):
    """Continuous predictions (no ties) with two attributes: color (3 groups), sex (2)."""
    rng = np.random.default_rng(seed)
    color = rng.choice(["red", "green", "blue"], size=n, p=[0.5, 0.3, 0.2])
    sex = rng.choice(["f", "m"], size=n, p=[0.4, 0.6])
    shift = (color == "green") * 1.5 + (color == "blue") * -2.0 + (sex == "m") * 0.7
    y = rng.normal(size=n) * (1.0 + (color == "red")) + shift
    assert len(np.unique(y)) == n
    return y, color, sex


@pytest.mark.parametrize("epsilon", [0.0, 0.3, 1.0])
def test_equals_equipy_fair_wasserstein(epsilon):
    y, color, _ = _data(1)
    calib, test = slice(0, 2000), slice(2000, None)
    ours = WassersteinPostProcessor(alpha=epsilon).fit(y[calib], color[calib])
    ref = equipy.FairWasserstein(sigma=0)
    ref.fit(y[calib], pd.DataFrame({"color": color[calib]}))
    for rows in (calib, test):
        expected = ref.transform(y[rows].copy(), pd.DataFrame({"color": color[rows]}), epsilon=epsilon)
        got = ours.transform(y[rows], color[rows])
        np.testing.assert_allclose(got, expected, rtol=0, atol=1e-9)


def test_equals_equipy_multi_wasserstein():
    y, color, sex = _data(2)
    calib, test = slice(0, 2000), slice(2000, None)
    frame = pd.DataFrame({"color": color, "sex": sex})
    ours = WassersteinPostProcessor(alpha=[0.2, 0.0]).fit(y[calib], frame.iloc[calib])
    ref = equipy.MultiWasserstein(sigma=0)
    ref.fit(y[calib].copy(), frame.iloc[calib].reset_index(drop=True))
    for rows in (calib, test):
        part = frame.iloc[rows].reset_index(drop=True)
        expected = ref.transform(y[rows].copy(), part, epsilon=[0.2, 0.0])
        np.testing.assert_allclose(ours.transform(y[rows], part), expected, rtol=0, atol=1e-9)


def test_gaussian_groups_reach_the_closed_form_barycenter():
    # N(1, 0.5^2) with share 0.75 and N(4, 2^2) with 0.25: barycenter N(1.75, 0.875^2).
    rng = np.random.default_rng(3)
    y = np.concatenate([rng.normal(1.0, 0.5, 15000), rng.normal(4.0, 2.0, 5000)])
    g = np.repeat(["a", "b"], [15000, 5000])
    fair = WassersteinPostProcessor().fit_transform(y, g)
    for name in "ab":
        part = fair[g == name]
        assert abs(part.mean() - 1.75) < 0.02 * 0.875
        assert abs(part.std() - 0.875) < 0.02 * 0.875


def test_alpha_zero_equalises_groups_of_equal_size():
    rng = np.random.default_rng(4)
    y = np.concatenate([rng.normal(0, 1, 500), rng.normal(3, 2, 500)])
    g = np.repeat([0, 1], 500)
    fair = WassersteinPostProcessor().fit_transform(y, g)
    np.testing.assert_allclose(np.sort(fair[g == 0]), np.sort(fair[g == 1]), atol=1e-12)


def test_estimator_fits_predicts_pickles_and_prefit():
    from sklearn.ensemble import GradientBoostingRegressor
    from sklearn.linear_model import LinearRegression

    rng = np.random.default_rng(5)
    X = rng.normal(size=(600, 3))
    group = np.where(rng.random(600) < 0.4, "a", "b")
    y = X @ [1.0, -0.5, 0.2] + (group == "a") * 2.0 + rng.normal(scale=0.1, size=600)
    model = WassersteinBarycenter(alpha=0.0).fit(X, y, sensitive_features=group)
    pred = model.predict(X, sensitive_features=group)
    assert abs(np.median(pred[group == "a"]) - np.median(pred[group == "b"])) < 0.05
    again = pickle.loads(pickle.dumps(model))
    assert (again.predict(X, sensitive_features=group) == pred).all()
    # alpha = 1 gives the regressor's predictions back.
    np.testing.assert_array_equal(
        model.predict(X, sensitive_features=group, alpha=1.0), model.estimator_.predict(X)
    )
    base = GradientBoostingRegressor(n_estimators=20, random_state=0).fit(X, y)
    pre = WassersteinBarycenter(base, prefit=True, alpha=0.5).fit(X, sensitive_features=group)
    assert pre.estimator_ is base
    expected = WassersteinPostProcessor(alpha=0.5).fit(base.predict(X), group)
    np.testing.assert_array_equal(
        pre.predict(X, sensitive_features=group), expected.transform(base.predict(X), group)
    )
    with pytest.raises(Exception):
        WassersteinBarycenter(LinearRegression(), prefit=True).fit(X, sensitive_features=group)


def test_errors_come_from_rust_and_name_the_problem():
    y = np.array([0.1, 0.2, 0.3, 0.4])
    g = ["a", "a", "b", "b"]
    with pytest.raises(FairkitError, match="invalid parameter alpha = 1.5"):
        WassersteinPostProcessor(alpha=1.5).fit(y, g)
    with pytest.raises(FairkitError, match="invalid parameter sigma"):
        WassersteinPostProcessor(sigma=-1).fit(y, g)
    with pytest.raises(FairkitError, match=r"non-finite value \(NaN at row 1\)"):
        WassersteinPostProcessor().fit(np.array([0.1, np.nan, 0.3, 0.4]), g)
    with pytest.raises(FairkitError, match="single group"):
        WassersteinPostProcessor().fit(y, ["a"] * 4)
    post = WassersteinPostProcessor().fit(y, g)
    with pytest.raises(FairkitError, match="not seen at fit"):
        post.transform(np.array([0.1]), ["c"])


def test_docstring_examples_run():
    import doctest

    import fairkit.estimators._wasserstein as module

    failures, tried = doctest.testmod(module)
    assert tried >= 8 and failures == 0
