"""Differential tests: fairkit.metrics against fairlearn 0.15 on random inputs.

Every shared function and every MetricFrame property must agree to 1e-12 (absolute), with NaN
exactly where fairlearn gives NaN. Inputs cover any number of groups, sample weights, groups
with one class only, intersectional features with absent combinations, and the label encodings
fairlearn accepts ({0, 1}, {-1, 1}, bool).
"""

from __future__ import annotations

import math
import warnings

import fairlearn.metrics as fl
import numpy as np
import pandas as pd
import pytest
import sklearn.metrics as skm
from hypothesis import given
from hypothesis import strategies as st

import fairkit.metrics as fk

# Single-group inputs are drawn on purpose; their UserWarning is tested in test_bad_input.py.
pytestmark = pytest.mark.filterwarnings("ignore:the sensitive features have only one group")

TOL = 1e-12
METHODS = ("between_groups", "to_overall")
AGGS = ("worst_case", "mean")
GAP_FUNCTIONS = (
    "demographic_parity_difference",
    "demographic_parity_ratio",
    "equal_opportunity_difference",
    "equal_opportunity_ratio",
)
EO_FUNCTIONS = ("equalized_odds_difference", "equalized_odds_ratio")
RATE_FUNCTIONS = (
    "true_positive_rate",
    "false_positive_rate",
    "true_negative_rate",
    "false_negative_rate",
)


def same(a, b) -> bool:
    """Equal to TOL, or both NaN."""
    a, b = float(a), float(b)
    if math.isnan(a) or math.isnan(b):
        return math.isnan(a) and math.isnan(b)
    return abs(a - b) <= TOL


def assert_same(a, b, what):
    assert same(a, b), f"{what}: fairkit {a!r} vs fairlearn {b!r}"


def assert_same_series(a: pd.Series, b: pd.Series, what):
    assert list(a.index) == list(b.index), f"{what}: index {list(a.index)} vs {list(b.index)}"
    for k, (x, y) in enumerate(zip(a.to_numpy(dtype=float), b.to_numpy(dtype=float))):
        assert same(x, y), f"{what}[{a.index[k]!r}]: fairkit {x!r} vs fairlearn {y!r}"


@st.composite
def audits(draw, max_rows=60, max_features=3):
    """Random labels, predictions, weights and 1..3 sensitive features."""
    n = draw(st.integers(1, max_rows))
    labels = draw(st.sampled_from(["01", "pm1", "bool"]))
    bits = st.lists(st.integers(0, 1), min_size=n, max_size=n)
    yt, yp = np.array(draw(bits)), np.array(draw(bits))
    if labels == "pm1":
        yt, yp = 2 * yt - 1, 2 * yp - 1
    elif labels == "bool":
        yt, yp = yt.astype(bool), yp.astype(bool)
    n_features = draw(st.integers(1, max_features))
    features = {}
    for f in range(n_features):
        k = draw(st.integers(1, 5))
        kind = draw(st.sampled_from(["int", "str", "ids"]))
        codes = draw(st.lists(st.integers(0, k - 1), min_size=n, max_size=n))
        if kind == "ids":
            # A numpy int64 column of non-negative ids, sparse, sometimes past the core's
            # one-pass id range (1024): covers the one-pass counting path and its fallback.
            step = draw(st.sampled_from([1, 7, 255, 300]))
            features[f"sf{f}"] = np.array(codes, dtype=np.int64) * step
        else:
            features[f"sf{f}"] = [
                c * 3 - 2 if kind == "int" else "abcde"[c] * (c + 1) for c in codes
            ]
    weighted = draw(st.booleans())
    w = None
    if weighted:
        w = np.array(
            draw(st.lists(st.floats(0.01, 10.0, allow_nan=False), min_size=n, max_size=n))
        )
    return yt, yp, features, w


def _sf(features, as_frame):
    if len(features) == 1 and not as_frame:
        column = next(iter(features.values()))
        if isinstance(column, np.ndarray) and len(column) == 1:
            # fairlearn squeezes a one-row array to 0-d and then rejects it.
            return column.tolist()
        return column
    return pd.DataFrame(features)


def _quiet(fn, *args, **kwargs):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        return fn(*args, **kwargs)


# One gap function per example (every method and agg of it): the 200 examples spread over the
# functions instead of running all 16 fairlearn calls on each (that took 4 minutes of CI), and
# every function still meets dozens of random inputs.
@given(audits(), st.booleans(), st.sampled_from(GAP_FUNCTIONS + EO_FUNCTIONS))
def test_gap_functions_match_fairlearn(data, as_frame, name):
    yt, yp, features, w = data
    sf = _sf(features, as_frame)
    aggs = AGGS if name in EO_FUNCTIONS else (None,)
    for method in METHODS:
        for agg in aggs:
            kw = dict(sensitive_features=sf, method=method, sample_weight=w)
            if agg is not None:
                kw["agg"] = agg
            expected = _quiet(getattr(fl, name), yt, yp, **kw)
            got = getattr(fk, name)(yt, yp, **kw)
            assert_same(got, expected, f"{name}({method}, {agg})")


@given(audits(max_features=1))
def test_ungrouped_rates_match_fairlearn(data):
    yt, yp, _, w = data
    for name in RATE_FUNCTIONS:
        expected = _quiet(getattr(fl, name), yt, yp, sample_weight=w)
        assert_same(getattr(fk, name)(yt, yp, sample_weight=w), expected, name)
    expected = _quiet(fl.selection_rate, yt, yp, sample_weight=w)
    assert_same(fk.selection_rate(yt, yp, sample_weight=w), expected, "selection_rate")


FRAME_METRICS_FL = {
    "selection_rate": fl.selection_rate,
    "tpr": fl.true_positive_rate,
    "fpr": fl.false_positive_rate,
    "tnr": fl.true_negative_rate,
    "fnr": fl.false_negative_rate,
    "accuracy": skm.accuracy_score,
}
FRAME_METRICS_FK = {
    "selection_rate": fk.selection_rate,
    "tpr": fk.true_positive_rate,
    "fpr": fk.false_positive_rate,
    "tnr": fk.true_negative_rate,
    "fnr": fk.false_negative_rate,
    "accuracy": skm.accuracy_score,
}


def _frames(yt, yp, sf, w, single=None):
    if single is not None:
        m_fl, m_fk = FRAME_METRICS_FL[single], FRAME_METRICS_FK[single]
        params = {"sample_weight": w}
    else:
        m_fl, m_fk = FRAME_METRICS_FL, FRAME_METRICS_FK
        params = {k: {"sample_weight": w} for k in FRAME_METRICS_FL}
    ours = fk.MetricFrame(metrics=m_fk, y_true=yt, y_pred=yp, sensitive_features=sf,
                          sample_params=params)
    theirs = _quiet(fl.MetricFrame, metrics=m_fl, y_true=yt, y_pred=yp, sensitive_features=sf,
                    sample_params=params)
    return ours, theirs


@given(audits(), st.booleans())
def test_metric_frame_matches_fairlearn(data, as_frame):
    yt, yp, features, w = data
    sf = _sf(features, as_frame)
    ours, theirs = _frames(yt, yp, sf, w)
    assert_same_series(ours.overall, theirs.overall, "overall")
    assert list(ours.by_group.columns) == list(theirs.by_group.columns)
    assert list(ours.by_group.index.names) == list(theirs.by_group.index.names)
    for col in theirs.by_group.columns:
        assert_same_series(ours.by_group[col], theirs.by_group[col], f"by_group[{col}]")
    assert_same_series(ours.group_min(), theirs.group_min(), "group_min")
    assert_same_series(ours.group_max(), theirs.group_max(), "group_max")
    for method in METHODS:
        assert_same_series(ours.difference(method=method), _quiet(theirs.difference, method=method),
                           f"difference({method})")
        assert_same_series(ours.ratio(method=method), _quiet(theirs.ratio, method=method),
                           f"ratio({method})")
    assert ours.sensitive_levels == theirs.sensitive_levels


@given(audits(max_features=2), st.sampled_from(sorted(FRAME_METRICS_FL)))
def test_single_metric_frame_matches_fairlearn(data, metric):
    yt, yp, features, w = data
    sf = _sf(features, False)
    ours, theirs = _frames(yt, yp, sf, w, single=metric)
    assert_same(ours.overall, theirs.overall, "overall")
    assert isinstance(ours.by_group, pd.Series)
    assert ours.by_group.name == theirs.by_group.name
    assert_same_series(ours.by_group, theirs.by_group, "by_group")
    assert_same(ours.group_min(), theirs.group_min(), "group_min")
    assert_same(ours.group_max(), theirs.group_max(), "group_max")
    for method in METHODS:
        assert_same(ours.difference(method=method), _quiet(theirs.difference, method=method),
                    f"difference({method})")
        assert_same(ours.ratio(method=method), _quiet(theirs.ratio, method=method),
                    f"ratio({method})")


@given(audits(max_features=2))
def test_pos_label_on_string_labels_matches_fairlearn_on_zero_one(data):
    """Any two label values with pos_label give fairlearn's numbers on the 0/1 encoding."""
    yt, yp, features, w = data
    yt01, yp01 = (np.asarray(yt) == np.max(yt)).astype(int), (np.asarray(yp) == np.max(yt)).astype(int)
    names = np.array(["denied", "granted"], dtype=object)
    yt_s, yp_s = pd.Series(names[yt01]), list(names[yp01])
    sf = _sf(features, True)
    for name in GAP_FUNCTIONS + EO_FUNCTIONS:
        pos = "granted"
        expected = _quiet(getattr(fl, name), yt01, yp01, sensitive_features=sf, sample_weight=w)
        got = getattr(fk, name)(yt_s, yp_s, sensitive_features=sf, sample_weight=w, pos_label=pos)
        assert_same(got, expected, name)


def test_categorical_features_group_by_value_like_fairlearn():
    """A pandas categorical groups by its values in sorted order; unused categories vanish."""
    rng = np.random.default_rng(7)
    n = 500
    cat = pd.Series(
        pd.Categorical(rng.choice(["z", "b", "m"], n), categories=["z", "m", "b", "unused"]),
        name="region",
    )
    yt, yp = rng.integers(0, 2, n), rng.integers(0, 2, n)
    ours, theirs = _frames(yt, yp, cat, None)
    assert list(ours.by_group.index) == list(theirs.by_group.index) == ["b", "m", "z"]
    for col in theirs.by_group.columns:
        assert_same_series(ours.by_group[col], theirs.by_group[col], col)


def test_bool_and_float_features_keep_their_values_as_group_labels():
    rng = np.random.default_rng(5)
    n = 200
    yt, yp = rng.integers(0, 2, n), rng.integers(0, 2, n)
    for sf in (rng.random(n) < 0.5, rng.choice([0.5, 1.5, 2.25], n)):
        ours, theirs = _frames(yt, yp, pd.Series(sf, name="f"), None)
        assert [type(v) for v in ours.by_group.index] == [type(v) for v in theirs.by_group.index]
        assert list(ours.by_group.index) == list(theirs.by_group.index)
        for col in theirs.by_group.columns:
            assert_same_series(ours.by_group[col], theirs.by_group[col], col)


def test_inputs_of_every_container_give_the_same_numbers():
    rng = np.random.default_rng(3)
    n = 300
    yt, yp = rng.integers(0, 2, n), rng.integers(0, 2, n)
    sf = rng.choice(["a", "b", "c"], n)
    w = rng.random(n) + 0.1
    expected = fl.equalized_odds_difference(yt, yp, sensitive_features=sf, sample_weight=w)
    for conv in (
        lambda a: a,
        list,
        pd.Series,
        lambda a: a.astype(np.int32) if a.dtype.kind == "i" else a,
        lambda a: np.asfortranarray(a.reshape(-1, 1)),
        lambda a: a[::-1][::-1].copy()[::1],
    ):
        got = fk.equalized_odds_difference(conv(yt), conv(yp), sensitive_features=conv(sf),
                                           sample_weight=conv(w))
        assert_same(got, expected, "equalized_odds_difference")
    # Strided views (non-contiguous) are accepted too.
    big = np.stack([yt, yp])
    got = fk.equalized_odds_difference(big[0, :], big[1, :], sensitive_features=sf, sample_weight=w)
    assert_same(got, expected, "from strided rows")
    strided = np.repeat(yt, 2)[::2]
    assert not strided.flags.c_contiguous or strided.base is not None
    assert_same(fk.true_positive_rate(strided, yp), fl.true_positive_rate(yt, yp), "strided")


@pytest.mark.parametrize("n_groups", [1, 2, 8])
def test_zero_copy_fast_path_equals_general_path(n_groups):
    """0/1 int64 labels (no copy) and the same labels as strings (re-encoded) agree bit for bit."""
    rng = np.random.default_rng(n_groups)
    n = 1000
    yt, yp = rng.integers(0, 2, n), rng.integers(0, 2, n)
    sf = rng.integers(0, n_groups, n)
    a = fk.MetricFrame(metrics=fk.true_positive_rate, y_true=yt, y_pred=yp, sensitive_features=sf)
    s = np.array(["n", "y"])
    b = fk.MetricFrame(metrics=fk.true_positive_rate, y_true=s[yt], y_pred=s[yp],
                       sensitive_features=sf, pos_label="y")
    assert a.by_group.to_numpy().tobytes() == b.by_group.to_numpy().tobytes()


@pytest.mark.parametrize(
    "ids",
    [
        np.array([0, 5, 5, 1023, 0, 1023], dtype=np.int64),  # one-pass path, sparse ids
        np.array([0, 5, 5, 1024, 0, 1024], dtype=np.int64),  # past the id range: general path
        np.array([-1, 5, 5, 3, -1, 3], dtype=np.int64),  # negative: general path
    ],
)
@pytest.mark.parametrize("labels", ["01", "bool", "pm1"])
def test_one_pass_ids_equal_general_path(ids, labels):
    """Integer ids counted in one pass give fairlearn's numbers and the string path's bits."""
    yt = np.array([1, 0, 1, 1, 0, 1], dtype=np.int64)
    yp = np.array([1, 1, 0, 1, 0, 0], dtype=np.int64)
    if labels == "bool":
        yt, yp = yt.astype(bool), yp.astype(bool)
    elif labels == "pm1":
        yt, yp = 2 * yt - 1, 2 * yp - 1
    w = np.array([1.0, 0.5, 2.0, 0.0, 3.0, 1.5])
    metrics = {"tpr": fk.true_positive_rate, "sr": fk.selection_rate}
    ours = fk.MetricFrame(metrics=metrics, y_true=yt, y_pred=yp, sensitive_features=ids,
                          sample_params={"tpr": {"sample_weight": w}})
    # A list is encoded by the general path (object values, factorized).
    general = fk.MetricFrame(metrics=metrics, y_true=yt, y_pred=yp,
                             sensitive_features=ids.tolist(),
                             sample_params={"tpr": {"sample_weight": w}})
    theirs = _quiet(fl.MetricFrame, metrics={"tpr": fl.true_positive_rate, "sr": fl.selection_rate},
                    y_true=yt, y_pred=yp, sensitive_features=ids,
                    sample_params={"tpr": {"sample_weight": w}})
    assert list(ours.by_group.index) == sorted(set(ids.tolist()))
    assert ours.by_group.to_numpy().tobytes() == general.by_group.to_numpy().tobytes()
    for col in metrics:
        assert_same_series(ours.by_group[col], theirs.by_group[col], col)
    assert same(float(ours.difference()["tpr"]), float(theirs.difference()["tpr"]))


def test_one_pass_ids_report_bad_rows_like_the_general_path():
    """A label outside the pair or a weight problem is reported as on the general path."""
    ids = np.array([0, 1, 1, 0], dtype=np.int64)
    with pytest.raises(ValueError, match="distinct values"):
        fk.MetricFrame(metrics=fk.true_positive_rate, y_true=np.array([0, 1, 2, 1]),
                       y_pred=np.array([0, 1, 1, 1]), sensitive_features=ids)
    with pytest.raises(ValueError, match="row 2"):
        fk.MetricFrame(metrics=fk.true_positive_rate, y_true=np.array([0, 1, 1, 1]),
                       y_pred=np.array([0, 1, 1, 1]), sensitive_features=ids,
                       sample_params={"sample_weight": np.array([1.0, 1.0, np.nan, 1.0])})
