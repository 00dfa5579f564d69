"""``fairkit.metrics.regression_metrics``: per-group regression metrics equal to scikit-learn's
functions under fairlearn's ``MetricFrame`` (differential, 1e-12), fairlearn's gap semantics,
weights as duplicated rows, scikit-learn's R² conventions, and bad inputs named."""

import numpy as np
import pandas as pd
import pytest
from hypothesis import given, settings, strategies as st
from sklearn.metrics import (mean_absolute_error, mean_squared_error, r2_score,
                             root_mean_squared_error)

from fairkit import FairkitError
from fairkit.metrics import regression_metrics

SKLEARN = {"mean_absolute_error": mean_absolute_error, "mean_squared_error": mean_squared_error,
           "root_mean_squared_error": root_mean_squared_error, "r2_score": r2_score}


def _mean_target(y_true, y_pred, sample_weight=None):
    return np.average(y_true, weights=sample_weight)


def _mean_residual(y_true, y_pred, sample_weight=None):
    return np.average(np.asarray(y_pred) - np.asarray(y_true), weights=sample_weight)


def data(seed: int, n: int = 5000):
    rng = np.random.default_rng(seed)
    g = rng.choice(["a", "b", "c", "d"], n, p=[0.4, 0.3, 0.2, 0.1])
    y = rng.normal(50 + 5 * (g == "b"), 10, n)
    p = y + rng.normal(1.0 * (g == "c"), 3 + 2 * (g == "d"), n)
    w = rng.uniform(0.2, 3.0, n)
    return y, p, g, w


@pytest.mark.parametrize("weighted", [False, True])
def test_equal_to_metricframe_with_scikit_learn(weighted):
    from fairlearn.metrics import MetricFrame

    y, p, g, w = data(0)
    sw = w if weighted else None
    metrics = dict(SKLEARN, mean_target=_mean_target, mean_residual=_mean_residual)
    params = {k: {"sample_weight": w} for k in metrics} if weighted else None
    mf = MetricFrame(metrics=metrics, y_true=y, y_pred=p, sensitive_features=g,
                     sample_params=params)
    ours = regression_metrics(y, p, sensitive_features=g, sample_weight=sw)
    for name in metrics:
        np.testing.assert_allclose(ours.by_group[name].to_numpy(),
                                   mf.by_group[name].to_numpy(dtype=float), rtol=1e-12)
        np.testing.assert_allclose(float(ours.overall[name]), float(mf.overall[name]),
                                   rtol=1e-12)
        assert ours.difference(name) == pytest.approx(mf.difference()[name], rel=1e-12, abs=1e-12)
        assert ours.difference(name, "to_overall") == pytest.approx(
            mf.difference(method="to_overall")[name], rel=1e-12, abs=1e-12)
        assert ours.group_min(name) == pytest.approx(mf.group_min()[name], rel=1e-12)
        assert ours.group_max(name) == pytest.approx(mf.group_max()[name], rel=1e-12)
    for name in ("mean_absolute_error", "root_mean_squared_error"):
        assert ours.ratio(name) == pytest.approx(mf.ratio()[name], rel=1e-12)
        assert ours.ratio(name, "to_overall") == pytest.approx(
            mf.ratio(method="to_overall")[name], rel=1e-12)
    assert ours.bounded_group_loss("squared") == ("d", pytest.approx(
        mf.by_group["mean_squared_error"]["d"], rel=1e-12))


@settings(max_examples=60, deadline=None, derandomize=True)
@given(st.lists(st.tuples(st.floats(-1e3, 1e3), st.floats(-1e3, 1e3), st.integers(0, 2),
                          st.integers(0, 4)), min_size=1, max_size=40))
def test_integer_weights_equal_duplicated_rows_and_order_does_not_matter(rows):
    y = np.array([r[0] for r in rows])
    p = np.array([r[1] for r in rows])
    g = np.array(["abc"[r[2]] for r in rows])
    w = np.array([float(r[3]) for r in rows])
    if w.sum() == 0:
        with pytest.raises(FairkitError, match="sum to zero"):
            regression_metrics(y, p, sensitive_features=g, sample_weight=w)
        return
    weighted = regression_metrics(y, p, sensitive_features=g, sample_weight=w)
    reps = w.astype(int)
    dup = regression_metrics(np.repeat(y, reps), np.repeat(p, reps),
                             sensitive_features=np.repeat(g, reps))
    kept = weighted.by_group[weighted.by_group["weight"] > 0]
    cols = ["mean_target", "mean_prediction", "mean_residual", "mean_absolute_error",
            "mean_squared_error"]
    pd.testing.assert_frame_equal(kept[cols], dup.by_group.loc[kept.index, cols], rtol=1e-12)
    # The exact sums do not depend on the row order: the same bits reversed.
    order = np.arange(len(y))[::-1]
    rev = regression_metrics(y[order], p[order], sensitive_features=g[order],
                             sample_weight=w[order])
    pd.testing.assert_frame_equal(rev.by_group, weighted.by_group, check_exact=True)


def test_r2_follows_scikit_learn_for_constant_targets_and_single_rows():
    m = regression_metrics([3, 3, 3, 3, 7], [3, 3, 2, 4, 1],
                           sensitive_features=["exact", "exact", "missed", "missed", "one"])
    assert m.by_group.loc["exact", "r2_score"] == r2_score([3, 3], [3, 3]) == 1.0
    assert m.by_group.loc["missed", "r2_score"] == r2_score([3, 3], [2, 4]) == 0.0
    assert np.isnan(m.by_group.loc["one", "r2_score"])
    assert m.group_min("r2_score") == 0.0


def test_bad_inputs_are_named():
    with pytest.raises(FairkitError, match="y_true has a non-finite value"):
        regression_metrics([1.0, np.nan], [1, 2], sensitive_features=["a", "b"])
    with pytest.raises(FairkitError, match="y_pred has a non-finite value"):
        regression_metrics([1.0, 2.0], [1, np.inf], sensitive_features=["a", "b"])
    with pytest.raises(FairkitError, match="length mismatch for y_pred"):
        regression_metrics([1.0, 2.0], [1], sensitive_features=["a", "b"])
    with pytest.raises(FairkitError, match="length mismatch for sensitive_features"):
        regression_metrics([1.0, 2.0], [1, 2], sensitive_features=["a"])
    with pytest.raises(FairkitError, match="negative"):
        regression_metrics([1.0, 2.0], [1, 2], sensitive_features=["a", "b"],
                           sample_weight=[1, -1])
    with pytest.raises(FairkitError, match="must hold numbers"):
        regression_metrics(["x", "y"], [1, 2], sensitive_features=["a", "b"])
    with pytest.raises(FairkitError, match="one column"):
        regression_metrics([1.0, 2.0], [1, 2], sensitive_features=[["a", "b"], ["c", "d"]])
    with pytest.raises(FairkitError, match="empty"):
        regression_metrics([], [], sensitive_features=[])
    m = regression_metrics([1.0, 2.0], [1, 2], sensitive_features=["a", "b"])
    with pytest.raises(FairkitError, match="can be negative"):
        m.ratio("mean_residual")
    with pytest.raises(FairkitError, match="unknown metric"):
        m.difference("mape")
    with pytest.raises(FairkitError, match="method="):
        m.difference("mean_absolute_error", method="pairwise")
    with pytest.raises(FairkitError, match="undefined in every group"):
        m.difference("r2_score")
    with pytest.raises(FairkitError, match="loss="):
        m.bounded_group_loss("huber")


def test_the_docstring_example_runs():
    import doctest

    import fairkit.metrics._regression as module

    assert doctest.testmod(module).failed == 0


@pytest.mark.parametrize("weighted", [False, True])
def test_distribution_gaps_equal_scipy(weighted):
    from scipy.stats import ks_2samp, wasserstein_distance

    y, p, g, w = data(1, 3000)
    p = np.round(p, 1)  # ties inside and across groups
    ours = regression_metrics(y, p, sensitive_features=g, sample_weight=w if weighted else None)
    names = sorted(set(g))
    for a in names:
        for b in names:
            wa, wb = (w[g == a], w[g == b]) if weighted else (None, None)
            want = wasserstein_distance(p[g == a], p[g == b], wa, wb)
            assert ours.wasserstein.loc[a, b] == pytest.approx(want, rel=1e-12, abs=1e-12)
            if not weighted:
                stat = ks_2samp(p[g == a], p[g == b]).statistic if a != b else 0.0
                assert ours.ks.loc[a, b] == pytest.approx(stat, rel=1e-12, abs=1e-15)
        wa = w[g == a] if weighted else None
        pooled = wasserstein_distance(p[g == a], p, wa, w if weighted else None)
        assert ours.wasserstein_to_pooled[a] == pytest.approx(pooled, rel=1e-12, abs=1e-12)
    pair, value = ours.distribution_gap("wasserstein")
    assert value == ours.wasserstein.to_numpy().max()
    assert ours.wasserstein.loc[pair[0], pair[1]] == value
    (group,), to_pool = ours.distribution_gap("ks", method="to_overall")
    assert to_pool == ours.ks_to_pooled.max() and ours.ks_to_pooled[group] == to_pool
    with pytest.raises(FairkitError, match="distance="):
        ours.distribution_gap("energy")
    one = regression_metrics([1.0, 2.0], [1, 2], sensitive_features=["a", "a"])
    with pytest.raises(FairkitError, match="two groups"):
        one.distribution_gap()


@pytest.mark.parametrize("weighted", [False, True])
def test_quantiles_and_the_ll144_scoring_rate_equal_numpy(weighted):
    y, p, g, w = data(2, 2001)
    p = np.round(p)  # ties at the median
    sw = w if weighted else None
    method = "inverted_cdf" if weighted else "linear"
    for q in (0.5, 0.1, 0.9):
        ours = regression_metrics(y, p, sensitive_features=g, sample_weight=sw, quantile=q)
        for name in sorted(set(g)):
            m = g == name
            want = np.quantile(p[m], q, weights=w[m] if weighted else None, method=method)
            assert ours.by_group.loc[name, "prediction_quantile"] == pytest.approx(want, rel=1e-15)
        assert ours.overall["prediction_quantile"] == pytest.approx(
            np.quantile(p, q, weights=sw, method=method), rel=1e-15)
    median = np.quantile(p, 0.5, weights=sw, method=method)
    assert ours.overall["pooled_median"] == median
    rates = {}
    for name in sorted(set(g)):
        m = g == name
        ww = w[m] if weighted else np.ones(m.sum())
        rates[name] = ww[p[m] > median].sum() / ww.sum()
        assert ours.by_group.loc[name, "scoring_rate"] == pytest.approx(rates[name], rel=1e-12)
    top = max(rates.values())
    for name, r in rates.items():
        assert ours.by_group.loc[name, "scoring_rate_impact_ratio"] == pytest.approx(r / top)
    with pytest.raises(FairkitError, match="quantile"):
        regression_metrics(y, p, sensitive_features=g, quantile=2.0)
    with pytest.raises(FairkitError, match="quantile"):
        regression_metrics(y, p, sensitive_features=g, quantile="median")


def test_bootstrap_intervals_are_seeded_and_hold_the_estimates():
    y, p, g, w = data(3, 1500)
    a = regression_metrics(y, p, sensitive_features=g, sample_weight=w, n_resamples=300, seed=5)
    b = regression_metrics(y, p, sensitive_features=g, sample_weight=w, n_resamples=300, seed=5)
    c = regression_metrics(y, p, sensitive_features=g, sample_weight=w, n_resamples=300, seed=6)
    assert a.difference_interval("mean_absolute_error") == b.difference_interval(
        "mean_absolute_error")
    assert a.difference_interval("mean_absolute_error") != c.difference_interval(
        "mean_absolute_error")
    for metric in ("mean_residual", "mean_absolute_error", "r2_score"):
        lo, hi = a.interval(metric, "d")
        assert lo <= a.by_group.loc["d", metric] <= hi
        lo, hi = a.interval(metric)
        assert lo <= a.overall[metric] <= hi
        lo, hi = a.difference_interval(metric)
        assert lo <= a.difference(metric) <= hi
    lo, hi = a.ratio_interval("root_mean_squared_error")
    assert 0 <= lo <= a.ratio("root_mean_squared_error") <= hi <= 1
    with pytest.raises(FairkitError, match="can be negative"):
        a.ratio_interval("mean_residual")
    with pytest.raises(FairkitError, match="no group"):
        a.interval("mean_residual", "zz")
    none = regression_metrics(y, p, sensitive_features=g)
    with pytest.raises(FairkitError, match="pass n_resamples="):
        none.interval("mean_residual")
    with pytest.raises(FairkitError, match="n_resamples"):
        regression_metrics(y, p, sensitive_features=g, n_resamples=10)
    with pytest.raises(FairkitError, match="confidence"):
        regression_metrics(y, p, sensitive_features=g, n_resamples=200, confidence=1.5)
    with pytest.raises(FairkitError, match="seed"):
        regression_metrics(y, p, sensitive_features=g, seed=-1)
