"""One number per metric name: fairkit.metrics' function, MetricFrame.overall/by_group, the
derived *_difference/*_ratio/group_min/group_max functions, RunningMetrics and the bootstrap give
the same bits on the same rows and weights; and what those bits are (exactly rounded weight
sums, docs/python.md "Numbers and fairlearn's bits").
"""

from __future__ import annotations

import math

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import fairkit.metrics as fm
from fairkit.metrics import MetricFrame, RunningMetrics, make_derived_metric
from fairkit.metrics._bootstrap import _seeds

RATES = {
    "selection_rate": fm.selection_rate,
    "true_positive_rate": fm.true_positive_rate,
    "false_positive_rate": fm.false_positive_rate,
    "true_negative_rate": fm.true_negative_rate,
    "false_negative_rate": fm.false_negative_rate,
}


def bits(x) -> bytes:
    """A float's bits, NaN normalised (fairkit reports one NaN)."""
    x = float(x)
    return b"nan" if math.isnan(x) else np.float64(x).tobytes()


# Weights that make rounding visible: magnitudes far apart, so per-cell and pooled sums round
# differently from a naive or regrouped summation.
WEIGHT = st.one_of(
    st.floats(0.0, 1.0, allow_nan=False, allow_subnormal=False),
    st.sampled_from([1e-17, 2.0**-53, 0.1, 0.2, 0.3, 1.0, 3.0, 1e16]),
    st.floats(1.0, 1e6, allow_nan=False),
)


@st.composite
def rows(draw):
    n = draw(st.integers(2, 40))
    y = np.array(draw(st.lists(st.integers(0, 1), min_size=n, max_size=n)))
    p = np.array(draw(st.lists(st.integers(0, 1), min_size=n, max_size=n)))
    g = np.array(draw(st.lists(st.sampled_from(["a", "b", "c"]), min_size=n, max_size=n)))
    w = None
    if draw(st.booleans()):
        w = np.array(draw(st.lists(WEIGHT, min_size=n, max_size=n)))
        # every group needs weight (fairkit refuses a zero-weight group, naming it)
        for k in np.unique(g):
            if w[g == k].sum() == 0:
                w[np.flatnonzero(g == k)[0]] = 1.0
    return y, p, g, w


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(rows())
def test_every_door_gives_the_same_bits(data):
    y, p, g, w = data
    kw = {} if w is None else {"sample_weight": w}
    together = MetricFrame(metrics=dict(RATES), y_true=y, y_pred=p, sensitive_features=g,
                           sample_params={k: kw for k in RATES} if kw else None)
    for name, func in RATES.items():
        value = func(y, p, **kw)
        assert isinstance(value, np.float64)
        alone = MetricFrame(metrics=func, y_true=y, y_pred=p, sensitive_features=g,
                            sample_params=kw or None)
        assert bits(alone.overall) == bits(value), name
        assert bits(together.overall[name]) == bits(value), name
        for group in np.unique(g):
            rows_g = g == group
            kw_g = {} if w is None else {"sample_weight": w[rows_g]}
            one = func(y[rows_g], p[rows_g], **kw_g)
            assert bits(alone.by_group[group]) == bits(one), (name, group)
            assert bits(together.by_group[name][group]) == bits(one), (name, group)
        for transform in ("difference", "ratio", "group_min", "group_max"):
            derived = make_derived_metric(metric=func, transform=transform)(
                y, p, sensitive_features=g, **kw)
            assert bits(derived) == bits(getattr(alone, transform)()), (name, transform)
        for transform in ("difference", "ratio"):
            generated = getattr(fm, f"{name}_{transform}")(y, p, sensitive_features=g, **kw)
            assert bits(generated) == bits(getattr(together, transform)()[name])
        # streamed in two batches, in reverse order
        rm = RunningMetrics(func)
        half = len(y) // 2
        for part in (slice(half, None), slice(0, half)):
            rm.update(y[part], p[part], sensitive_features=g[part],
                      **({} if w is None else {"sample_weight": w[part]}))
        assert bits(rm.result().overall) == bits(value), name
    dp = fm.demographic_parity_difference(y, p, sensitive_features=g, **kw)
    assert bits(dp) == bits(fm.selection_rate_difference(y, p, sensitive_features=g, **kw))


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(rows(), st.integers(0, 2**32 - 1))
def test_a_bootstrap_resample_is_the_function_on_its_rows(data, seed):
    """With weights the bootstrap resamples rows as fairlearn does (one seed per resample,
    RandomState(seed).choice(n, n)); one resample's overall is the function on those rows."""
    y, p, g, w = data
    if w is None:
        w = np.ones(len(y))
    for name, func in RATES.items():
        mf = MetricFrame(metrics=func, y_true=y, y_pred=p, sensitive_features=g,
                         sample_params={"sample_weight": w}, n_boot=1, ci_quantiles=[0.5],
                         random_state=seed)
        rows_b = np.random.RandomState(_seeds(seed, 1)[0]).choice(len(y), len(y))
        assert bits(mf.overall_ci[0]) == bits(func(y[rows_b], p[rows_b], sample_weight=w[rows_b]))


def test_a_case_where_rounding_twice_differs():
    """fp holds weights 1 and 2^-53, tp 2^-53. Exactly, the selected weight is 1 + 2^-52;
    adding the rounded cells gives 1 (1 + 2^-53 ties to 1 twice). Every door gives the exact
    one, grouped by label or not, in one group or two."""
    e = 2.0**-53
    y, p = np.array([0, 0, 1, 0]), np.array([1, 1, 1, 0])
    w = np.array([1.0, e, e, 1.0])
    exact = (1.0 + 2 * e) / (2.0 + 2 * e)
    assert fm.selection_rate(y, p, sample_weight=w) == exact
    mf = MetricFrame(metrics={"sel": fm.selection_rate, "tpr": fm.true_positive_rate},
                     y_true=y, y_pred=p, sensitive_features=["a", "b", "a", "b"],
                     sample_params={"sel": {"sample_weight": w}, "tpr": {"sample_weight": w}})
    assert mf.overall["sel"] == exact


def test_weighted_values_against_fairlearn_are_within_a_few_ulps():
    """fairlearn sums with numpy (np.dot, pairwise sums), fairkit exactly: on 10,000 weighted
    rows the values agree to a few units in the last place, and fairkit's equal the exactly
    rounded fraction computed with math.fsum."""
    import fairlearn.metrics as fl

    rng = np.random.default_rng(7)
    n = 10_000
    y, p = rng.integers(0, 2, n), rng.integers(0, 2, n)
    w = rng.random(n)
    ours = fm.selection_rate(y, p, sample_weight=w)
    theirs = fl.selection_rate(y, p, sample_weight=w)
    exact = math.fsum(w[p == 1]) / math.fsum(w)
    assert ours == exact
    assert abs(ours - theirs) <= 4 * np.spacing(ours)


def test_scalar_types_and_empty_y_preds_message_are_fairlearns():
    import fairlearn.metrics as fl
    import matplotlib

    matplotlib.use("Agg")
    y, p, s = [0, 1, 1, 0, 1, 0], [1, 1, 0, 0, 1, 1], ["a", "a", "b", "b", "c", "c"]
    for name in ("selection_rate", "true_positive_rate", "false_positive_rate",
                 "true_negative_rate", "false_negative_rate"):
        assert type(getattr(fm, name)(y, p)) is type(getattr(fl, name)(y, p)), name
    for name in ("demographic_parity_difference", "demographic_parity_ratio",
                 "equal_opportunity_difference", "equal_opportunity_ratio",
                 "equalized_odds_difference", "equalized_odds_ratio",
                 "true_positive_rate_difference", "selection_rate_ratio",
                 "accuracy_score_group_min"):
        ours = getattr(fm, name)(y, p, sensitive_features=s)
        assert type(ours) is type(getattr(fl, name)(y, p, sensitive_features=s)), name
    for y_preds in ({}, [], [[]]):
        messages = []
        for lib in (fl, fm):
            with pytest.raises(ValueError) as e:
                lib.plot_model_comparison(
                    x_axis_metric=lib.selection_rate, y_axis_metric=lib.false_positive_rate,
                    y_true=[0, 1], y_preds=y_preds, sensitive_features=["a", "b"],
                    show_plot=False)
            messages.append(str(e.value))
        assert messages[0] == messages[1], y_preds
