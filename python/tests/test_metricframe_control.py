"""fairkit's MetricFrame against fairlearn's on control features, arbitrary callables, sample
weights and bootstrap intervals (issue 25): same result objects (type, index, names, dtypes)
and the same numbers."""

from __future__ import annotations

import functools

import numpy as np
import pandas as pd
import pytest
import sklearn.metrics as skm
from fairlearn import metrics as flm

import fairkit.metrics as fkm
from fairkit.metrics import _frame


def data(n=400, seed=0, n_sf=3, n_cf=2):
    rng = np.random.default_rng(seed)
    y = rng.integers(0, 2, n)
    p = np.where(rng.random(n) < 0.7, y, 1 - y)
    sf = rng.choice(np.array(["a", "b", "c", "d"][:n_sf]), n)
    sf2 = rng.integers(0, 2, n)
    cf = rng.choice(np.array(["x", "y", "z"][:n_cf]), n)
    w = rng.random(n) + 0.1
    return y, p, sf, sf2, cf, w


def same(a, b, exact=False):
    """fairlearn's result and fairkit's are the same object, value for value."""
    if isinstance(b, pd.DataFrame):
        pd.testing.assert_frame_equal(a, b, check_exact=exact, rtol=1e-12, atol=1e-15)
    elif isinstance(b, pd.Series):
        pd.testing.assert_series_equal(a, b, check_exact=exact, rtol=1e-12, atol=1e-15)
    else:
        assert type(a) is type(b) or (np.isscalar(a) and np.isscalar(b)), (type(a), type(b))
        if isinstance(b, float) and np.isnan(b):
            assert np.isnan(a)
        else:
            assert a == pytest.approx(b, rel=1e-12, abs=1e-15)


def compare(fk, fl, exact=False):
    same(fk.overall, fl.overall, exact)
    same(fk.by_group, fl.by_group, exact)
    for errors in ("raise", "coerce"):
        same(fk.group_min(errors=errors), fl.group_min(errors=errors), exact)
        same(fk.group_max(errors=errors), fl.group_max(errors=errors), exact)
    for method in ("between_groups", "to_overall"):
        same(fk.difference(method=method), fl.difference(method=method), exact)
        same(fk.ratio(method=method), fl.ratio(method=method), exact)


def both(metrics_of, **kw):
    return (
        fkm.MetricFrame(metrics=metrics_of(fkm), **kw),
        flm.MetricFrame(metrics=metrics_of(flm), **kw),
    )


def rates(mod):
    return {
        "sel": mod.selection_rate,
        "tpr": mod.true_positive_rate,
        "fpr": mod.false_positive_rate,
        "acc": skm.accuracy_score,
        "prec": functools.partial(skm.precision_score, zero_division=0),
    }


@pytest.mark.parametrize("seed", [0, 1, 2])
@pytest.mark.parametrize("n_cf", [0, 1, 2])
def test_rates_with_control_features(seed, n_cf):
    y, p, sf, sf2, cf, w = data(seed=seed)
    controls = None if n_cf == 0 else (
        pd.Series(cf, name="cf") if n_cf == 1 else pd.DataFrame({"cf": cf, "cf2": sf2})
    )
    fk, fl = both(rates, y_true=y, y_pred=p, sensitive_features=pd.Series(sf, name="sf"),
                  control_features=controls)
    compare(fk, fl)


@pytest.mark.parametrize(
    "metric",
    [
        skm.balanced_accuracy_score,
        skm.f1_score,
        skm.mean_squared_error,
        skm.confusion_matrix,
        fkm.count,
        lambda y_true, y_pred: float(np.mean(y_true) - np.mean(y_pred)),
    ],
)
@pytest.mark.parametrize("controls", [False, True])
def test_any_callable(metric, controls):
    y, p, sf, sf2, cf, w = data(seed=5)
    kw = dict(y_true=y, y_pred=p, sensitive_features={"sf": sf, "sf2": sf2},
              control_features=cf if controls else None)
    fk = fkm.MetricFrame(metrics=metric, **kw)
    flm_metric = flm.count if metric is fkm.count else metric
    fl = flm.MetricFrame(metrics=flm_metric, **kw)
    same(fk.overall if not isinstance(fl.overall, np.ndarray) else 0,
         fl.overall if not isinstance(fl.overall, np.ndarray) else 0)
    if metric is skm.confusion_matrix:
        for a, b in zip(fk.by_group.dropna(), fl.by_group.dropna()):
            np.testing.assert_array_equal(a, b)
        assert fk.by_group.index.equals(fl.by_group.index)
        same(fk.group_min(errors="coerce"), fl.group_min(errors="coerce"))
        with pytest.raises(ValueError, match="non-scalar cells"):
            fk.group_min()
        return
    compare(fk, fl)


def test_sample_params_routed_per_metric():
    y, p, sf, sf2, cf, w = data(seed=3)
    metrics = {"acc": skm.accuracy_score, "tpr": flm.true_positive_rate, "bal": skm.balanced_accuracy_score}
    params = {"acc": {"sample_weight": w}, "bal": {"sample_weight": w[::-1].copy()}}
    kw = dict(y_true=y, y_pred=p, sensitive_features=sf, control_features=cf, sample_params=params)
    compare(fkm.MetricFrame(metrics=metrics, **kw), flm.MetricFrame(metrics=metrics, **kw))


def test_numeric_aggregates_equal_the_pandas_operations(monkeypatch):
    """The float-table aggregates (numpy) give exactly what the pandas operations give."""
    y, p, sf, sf2, cf, w = data(seed=9, n_sf=4, n_cf=3)
    for controls in (None, cf, {"cf": cf, "cf2": sf2}):
        kw = dict(y_true=y, y_pred=p, sensitive_features=sf, control_features=controls)
        fast = fkm.MetricFrame(metrics=rates(fkm), **kw)
        slow = fkm.MetricFrame(metrics=rates(fkm), **kw)
        monkeypatch.setattr(slow, "_float_table", lambda: False)
        assert fast._float_table()
        compare(fast, slow, exact=True)


# -- bootstrap ---------------------------------------------------------------------------------

CI = [0.05, 0.5, 0.95]


def all_ci(mf):
    out = [mf.overall_ci, mf.by_group_ci, mf.group_min_ci(), mf.group_max_ci()]
    for method in ("between_groups", "to_overall"):
        out += [mf.difference_ci(method), mf.ratio_ci(method)]
    return out


@pytest.mark.parametrize("controls", [False, True])
@pytest.mark.parametrize("random_state", [20231020, "RandomState"])
def test_row_bootstrap_is_fairlearns_bit_for_bit(controls, random_state):
    """Any callable: fairkit draws fairlearn's resamples, so the intervals are fairlearn's."""
    y, p, sf, sf2, cf, w = data(n=150, seed=4)
    metrics = {"bal": skm.balanced_accuracy_score, "mse": skm.mean_squared_error}

    def state():
        return np.random.RandomState(7) if random_state == "RandomState" else random_state

    kw = dict(y_true=y, y_pred=p, sensitive_features=sf, control_features=cf if controls else None,
              n_boot=25, ci_quantiles=CI)
    fk = fkm.MetricFrame(metrics=metrics, random_state=state(), **kw)
    fl = flm.MetricFrame(metrics=metrics, random_state=state(), **kw)
    for a, b in zip(all_ci(fk), all_ci(fl)):
        assert len(a) == len(b) == len(CI)
        for qa, qb in zip(a, b):
            same(qa, qb, exact=True)


def test_weighted_rates_bootstrap_matches_fairlearn():
    """Rates with sample weights are resampled by rows (fairlearn's resamples) and counted in
    Rust: fairlearn's intervals up to the last bits of the weighted sums."""
    y, p, sf, sf2, cf, w = data(n=200, seed=8)
    sp = {k: {"sample_weight": w} for k in ("sel", "tpr", "acc")}
    metrics_of = lambda m: {"sel": m.selection_rate, "tpr": m.true_positive_rate,  # noqa: E731
                            "acc": skm.accuracy_score}
    kw = dict(y_true=y, y_pred=p, sensitive_features=sf, control_features=cf, n_boot=20,
              ci_quantiles=CI, random_state=3, sample_params=sp)
    fk, fl = both(metrics_of, **kw)
    for a, b in zip(all_ci(fk), all_ci(fl)):
        for qa, qb in zip(a, b):
            same(qa, qb)


def test_count_bootstrap_same_seed_same_bits_and_shapes():
    y, p, sf, sf2, cf, w = data(n=300, seed=6)
    kw = dict(y_true=y, y_pred=p, sensitive_features=sf, control_features=cf, n_boot=200,
              ci_quantiles=CI)
    a = fkm.MetricFrame(metrics=rates(fkm), random_state=5, **kw)
    b = fkm.MetricFrame(metrics=rates(fkm), random_state=5, **kw)
    c = fkm.MetricFrame(metrics=rates(fkm), random_state=6, **kw)
    fl = flm.MetricFrame(metrics=rates(flm), random_state=5, **{**kw, "n_boot": 3})
    differs = False
    for xa, xb, xc, xf in zip(all_ci(a), all_ci(b), all_ci(c), all_ci(fl)):
        for qa, qb, qc, qf in zip(xa, xb, xc, xf):
            same(qa, qb, exact=True)
            assert type(qa) is type(qf)
            if isinstance(qf, (pd.Series, pd.DataFrame)):
                assert qa.index.equals(qf.index) and qa.shape == qf.shape
            differs |= not np.allclose(np.asarray(qa, float), np.asarray(qc, float), equal_nan=True)
    assert differs, "another seed must give other resamples"


def test_count_bootstrap_agrees_with_row_resampling(monkeypatch):
    """The multinomial draw of the per-cell counts is the row bootstrap's distribution: with
    2,000 resamples each, the 5 % / 50 % / 95 % points of every statistic agree with the row
    bootstrap's (fairlearn's scheme, forced here) to within 0.25 bootstrap SD (the Monte-Carlo
    error of these quantiles is about 0.05-0.1 SD). Fixed seeds: deterministic."""
    from fairkit.metrics import _bootstrap

    y, p, sf, sf2, cf, w = data(n=3000, seed=10)
    metrics = {"sel": fkm.selection_rate, "tpr": fkm.true_positive_rate, "acc": skm.accuracy_score}
    kw = dict(y_true=y, y_pred=p, sensitive_features=sf, control_features=cf, n_boot=2000,
              ci_quantiles=CI)
    counted = fkm.MetricFrame(metrics=metrics, random_state=1, **kw)
    monkeypatch.setattr(_bootstrap, "_count_samples", lambda *a: None)
    rows = fkm.MetricFrame(metrics=metrics, random_state=2, **kw)
    for xa, xb in zip(all_ci(counted), all_ci(rows)):
        lo, mid, hi = (np.asarray(q, float) for q in xb)
        sd = (hi - lo) / (2 * 1.645)
        for qa, qb in zip(xa, xb):
            a, b = np.asarray(qa, float), np.asarray(qb, float)
            ok = np.isnan(b) | (np.abs(a - b) <= 0.25 * sd + 1e-12)
            assert ok.all(), (a, b, sd)


def test_bootstrap_errors_are_fairlearns():
    y, p, sf, *_ = data(n=50)
    kw = dict(metrics=skm.accuracy_score, y_true=y, y_pred=p, sensitive_features=sf)
    with pytest.raises(ValueError, match="^Must specify both n_boot and ci_quantiles$"):
        fkm.MetricFrame(n_boot=10, **kw)
    with pytest.raises(ValueError, match="^Must have n_boot be a positive integer$"):
        fkm.MetricFrame(n_boot=0, ci_quantiles=[0.5], **kw)
    with pytest.raises(ValueError, match=r"^Must have all ci_quantiles be floats in \(0, 1\)$"):
        fkm.MetricFrame(n_boot=5, ci_quantiles=[1.5], **kw)
    with pytest.raises(ValueError, match="^Could not compute confidence intervals"):
        fkm.MetricFrame(**kw).overall_ci  # noqa: B018


def test_polars_inputs_if_installed():
    pl = pytest.importorskip("polars")
    y, p, sf, sf2, cf, w = data(seed=2)
    kw = dict(y_true=y, y_pred=p)
    fk = fkm.MetricFrame(metrics=rates(fkm), sensitive_features=pl.DataFrame({"sf": sf}),
                         control_features=pl.Series("cf", cf), **kw)
    fl = flm.MetricFrame(metrics=rates(flm), sensitive_features=pd.DataFrame({"sf": sf}),
                         control_features=pd.Series(cf, name="cf"), **kw)
    compare(fk, fl)


def test_features_as_lists_numpy_and_dicts_name_like_fairlearn():
    y, p, sf, sf2, cf, w = data(seed=1)
    for sens in (list(sf), sf, np.stack([sf, sf2.astype(str)], axis=1), {"s": sf, "t": sf2}):
        kw = dict(y_true=y, y_pred=p, sensitive_features=sens, control_features=list(cf))
        fk, fl = both(rates, **kw)
        assert fk.sensitive_levels == fl.sensitive_levels
        assert fk.control_levels == fl.control_levels
        compare(fk, fl)
    with pytest.raises(ValueError, match="^Detected duplicate feature name: 'a'$"):
        fkm.MetricFrame(metrics=fkm.selection_rate, y_true=y, y_pred=p,
                        sensitive_features=pd.Series(sf, name="a"),
                        control_features=pd.Series(cf, name="a"))


def test_fast_path_counts_are_used_for_recognised_rates(monkeypatch):
    """Recognised rates never call the Python function per group (they are counted in Rust)."""
    calls = []
    original = _frame._Metric.call

    def spy(self, *a):
        calls.append(self.name)
        return original(self, *a)

    monkeypatch.setattr(_frame._Metric, "call", spy)
    y, p, sf, sf2, cf, w = data(seed=0)
    fkm.MetricFrame(metrics=rates(fkm), y_true=y, y_pred=p, sensitive_features=sf,
                    control_features=cf)
    # the partial is not a recognised rate (called per cell and per control group); the
    # others are counted
    assert set(calls) == {"prec"} and len(calls) == 3 * 2 + 2


def test_plot_draws_bars_with_the_bootstrap_whiskers():
    matplotlib = pytest.importorskip("matplotlib")
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    y, p, sf, *_ = data(n=300, seed=12)
    mf = fkm.MetricFrame(metrics={"sel": fkm.selection_rate, "acc": skm.accuracy_score},
                         y_true=y, y_pred=p, sensitive_features=sf, n_boot=50,
                         ci_quantiles=[0.05, 0.95], random_state=3)
    axes = np.asarray(mf.plot(kind="bar")).ravel()
    assert len(axes) == 2
    for ax, metric in zip(axes, ["sel", "acc"]):
        bars = [b.get_height() for b in ax.patches]
        np.testing.assert_allclose(bars, mf.by_group[metric].to_numpy())
        # one whisker per group: the error-bar line collection spans the bootstrap interval
        segments = [seg for coll in ax.collections for seg in coll.get_segments()]
        lows = sorted(min(s[:, 1]) for s in segments)
        np.testing.assert_allclose(lows, sorted(mf.by_group_ci[0][metric].to_numpy()))
    plt.close("all")
