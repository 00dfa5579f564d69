"""Without pandas, results are plain dicts with the same numbers."""

import math

import numpy as np
import pytest

import fairkit._validation as validation
import fairkit.metrics as fk

Y = np.array([1, 0, 1, 1, 0, 0, 1, 0])
P = np.array([1, 1, 0, 1, 0, 1, 1, 1])
SF = np.array(["a", "a", "a", "b", "b", "b", "c", "c"])


@pytest.fixture
def no_pandas(monkeypatch):
    with_pandas = fk.MetricFrame(
        metrics={"sr": fk.selection_rate, "tpr": fk.true_positive_rate},
        y_true=Y, y_pred=P, sensitive_features={"g": SF, "h": Y},
    )
    monkeypatch.setattr(validation, "pd", None)
    return with_pandas


def test_metric_frame_returns_dicts(no_pandas):
    mf = fk.MetricFrame(
        metrics={"sr": fk.selection_rate, "tpr": fk.true_positive_rate},
        y_true=Y, y_pred=P, sensitive_features={"g": SF, "h": Y},
    )
    assert isinstance(mf.by_group, dict) and isinstance(mf.overall, dict)
    expected = no_pandas.by_group
    for metric in ("sr", "tpr"):
        for (g, h), value in mf.by_group[metric].items():
            ref = expected[metric][(g, h)]
            assert (math.isnan(value) and math.isnan(ref)) or value == ref
        assert mf.difference()[metric] == no_pandas.difference()[metric]
        assert mf.group_min()[metric] == no_pandas.group_min()[metric]


def test_single_metric_and_intervals_without_pandas(no_pandas):
    mf = fk.MetricFrame(metrics=fk.selection_rate, y_true=Y, y_pred=P, sensitive_features=list(SF))
    assert mf.by_group == {"a": 2 / 3, "b": 2 / 3, "c": 1.0}
    r = fk.rate_intervals(Y, P, sensitive_features=SF)
    assert set(r.by_group) == {"a", "b", "c"}
    ks = fk.demographic_parity_ks(P.astype(float), sensitive_features=SF)
    assert isinstance(ks.matrix, np.ndarray) and ks.matrix.shape == (3, 3)
