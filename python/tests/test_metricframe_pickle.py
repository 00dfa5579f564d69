"""A MetricFrame, and every object it returns or holds (the Rust GroupRates counts, the
bootstrap intervals, derived metrics' outputs), survives pickle, joblib and cloudpickle to an
equal object; a damaged pickle is a FairkitError naming the cause."""

from __future__ import annotations

import io
import pickle

import cloudpickle
import joblib
import numpy as np
import pandas as pd
import pytest

import fairkit
from fairkit._core import metrics as core
from fairkit.metrics import (
    MetricFrame,
    count,
    demographic_parity_difference,
    false_positive_rate,
    selection_rate,
    true_positive_rate,
)


def _joblib_round_trip(obj):
    buf = io.BytesIO()
    joblib.dump(obj, buf)
    buf.seek(0)
    return joblib.load(buf)


ROUND_TRIPS = {
    "pickle": lambda o: pickle.loads(pickle.dumps(o)),
    "pickle-protocol-2": lambda o: pickle.loads(pickle.dumps(o, protocol=2)),
    "joblib": _joblib_round_trip,
    "cloudpickle": lambda o: cloudpickle.loads(cloudpickle.dumps(o)),
}

rng = np.random.default_rng(3)
N = 200
Y, P = rng.integers(0, 2, N), rng.integers(0, 2, N)
SEX = rng.choice(["f", "m"], N)
RACE = rng.choice(["x", "y", "z"], N)
W = rng.random(N) + 0.1


def _frames():
    metrics = {"sel": selection_rate, "tpr": true_positive_rate, "fpr": false_positive_rate,
               "count": count}
    weighted = {k: {"sample_weight": W} for k in ("sel", "tpr", "fpr")}
    return {
        "one callable": MetricFrame(metrics=selection_rate, y_true=Y, y_pred=P,
                                    sensitive_features=SEX),
        "weighted, two features": MetricFrame(
            metrics=metrics, y_true=Y, y_pred=P,
            sensitive_features=pd.DataFrame({"sex": SEX, "race": RACE}),
            sample_params=weighted),
        "control feature": MetricFrame(metrics=metrics, y_true=Y, y_pred=P,
                                       sensitive_features=SEX, control_features=RACE),
        "int ids (one pass)": MetricFrame(metrics=metrics, y_true=Y, y_pred=P,
                                          sensitive_features=(RACE == "x").astype(np.int64),
                                          sample_params=weighted),
        "bootstrap": MetricFrame(metrics=metrics, y_true=Y, y_pred=P, sensitive_features=SEX,
                                 sample_params=weighted, n_boot=20, ci_quantiles=[0.1, 0.9],
                                 random_state=5),
    }


def _results(mf):
    out = {"overall": mf.overall, "by_group": mf.by_group}
    for name in ("group_min", "group_max"):
        out[name] = getattr(mf, name)()
    for method in ("between_groups", "to_overall"):
        out[f"difference {method}"] = mf.difference(method=method)
        out[f"ratio {method}"] = mf.ratio(method=method)
    if mf.n_boot:
        for name in ("overall_ci", "by_group_ci"):
            out[name] = getattr(mf, name)
        for name in ("group_min_ci", "group_max_ci", "difference_ci", "ratio_ci"):
            out[name] = getattr(mf, name)()
    return out


def _assert_equal(a, b):
    if isinstance(a, pd.DataFrame):
        pd.testing.assert_frame_equal(a, b)
    elif isinstance(a, pd.Series):
        pd.testing.assert_series_equal(a, b)
    elif isinstance(a, list):
        assert len(a) == len(b)
        for x, y in zip(a, b):
            _assert_equal(x, y)
    else:
        assert type(a) is type(b) and (a == b or (np.isnan(a) and np.isnan(b)))


@pytest.mark.parametrize("how", list(ROUND_TRIPS))
@pytest.mark.parametrize("case", list(_frames()))
def test_metricframe_round_trips_to_an_equal_frame(case, how):
    mf = _frames()[case]
    back = ROUND_TRIPS[how](mf)
    assert type(back) is MetricFrame
    before, after = _results(mf), _results(back)
    for key in before:
        _assert_equal(before[key], after[key])
    # the held counts come back equal too
    assert list(back._counted) == list(mf._counted)
    held = [x for v in mf._counted.values() for x in (v if isinstance(v, tuple) else (v,))]
    again = [x for v in back._counted.values() for x in (v if isinstance(v, tuple) else (v,))]
    assert any(isinstance(x, core.GroupRates) for x in held) or not held
    for a, b in zip(held, again, strict=True):
        if isinstance(a, np.ndarray):
            np.testing.assert_array_equal(a, b)
        else:
            assert a == b
    # and the returned objects themselves pickle
    for value in before.values():
        _assert_equal(ROUND_TRIPS[how](value), value)


def test_a_lambda_metric_pickles_with_cloudpickle():
    mf = MetricFrame(metrics={"m": lambda y, p: float(np.mean(p))}, y_true=Y, y_pred=P,
                     sensitive_features=SEX)
    back = cloudpickle.loads(cloudpickle.dumps(mf))
    pd.testing.assert_frame_equal(back.by_group, mf.by_group)
    with pytest.raises((pickle.PicklingError, AttributeError)):
        pickle.dumps(mf)  # the standard pickle cannot serialise a lambda, as for any object


@pytest.mark.parametrize("weighted", [False, True])
def test_group_rates_round_trip(weighted):
    codes = (RACE == "y").astype(np.int64) + 2 * (RACE == "z")
    rates = core.group_rates(Y, P, codes, ["x", "y", "z", "never"], W if weighted else None)
    back = pickle.loads(pickle.dumps(rates))
    assert back == rates and back.n_groups == 4
    for rate in ("selection_rate", "true_positive_rate", "accuracy"):
        a, b = rates.summary(rate), back.summary(rate)
        np.testing.assert_array_equal(a.pop("by_group"), b.pop("by_group"))
        assert a == pytest.approx(b, nan_ok=True, rel=0, abs=0)


def _damage(data: bytes, at: bytes) -> bytes:
    i = data.index(at)
    return data[:i] + bytes([data[i] ^ 0x01]) + data[i + 1:]


def test_damaged_group_rates_are_a_fairkit_error():
    rates = core.group_rates(Y, P, None, ["all"], W)
    data = pickle.dumps(rates)
    with pytest.raises(fairkit.FairkitError, match="damaged.*checksum"):
        pickle.loads(_damage(data, b'"names"'))
    for bad in (b"", b"fkGR\x00\x00\x00\x01", b"not a state at all"):
        with pytest.raises(fairkit.FairkitError, match="damaged"):
            core.GroupRates._from_pickle(bad)


def test_damaged_metricframe_pickles_are_a_fairkit_error():
    mf = _frames()["weighted, two features"]
    data = pickle.dumps(mf)
    # a flipped bit inside the frame's state: the checksum catches it
    with pytest.raises(fairkit.FairkitError, match="damaged.*checksum"):
        pickle.loads(_damage(data, b"_overall_values"))
    # a state that is not a MetricFrame's
    from fairkit.metrics._frame import _restore_metricframe

    with pytest.raises(fairkit.FairkitError, match="damaged"):
        _restore_metricframe(1, pickle.dumps({"_yt": 1}), None)
    with pytest.raises(fairkit.FairkitError, match="format"):
        _restore_metricframe(99, b"", "")
    payload = pickle.dumps({"_yt": np.zeros(2)})
    import hashlib

    with pytest.raises(fairkit.FairkitError, match="lacks"):
        _restore_metricframe(1, payload, hashlib.sha256(payload).hexdigest())


def test_derived_function_results_pickle():
    d = demographic_parity_difference(Y, P, sensitive_features=SEX, sample_weight=W)
    assert isinstance(d, np.float64)
    assert pickle.loads(pickle.dumps(d)) == d
