"""The dicts that fairkit._core.metrics returns, as the Python layer reads them: keys in order,
value types (int vs float, tuple vs list, float64 numpy arrays) and NaN for absent groups.

They cross from Rust through one serde conversion (python/src/convert.rs `to_py`, issue 27),
numpy fields included; these tests pin what that conversion must keep producing."""

from __future__ import annotations

import math

import numpy as np

from fairkit._core import metrics as core

SUMMARY_KEYS = [
    "overall",
    "by_group",
    "group_min",
    "group_max",
    "difference",
    "difference_to_overall",
    "ratio",
    "ratio_to_overall",
]

Y_TRUE = np.array([1, 0, 1, 1, 0, 0, 1, 0], dtype=np.int64)
Y_PRED = np.array([1, 0, 0, 1, 1, 0, 1, 1], dtype=np.int64)
SCORES = np.array([0.9, 0.1, 0.4, 0.8, 0.7, 0.2, 0.6, 0.55])
# Three declared groups; "c" has no rows.
CODES = np.array([0, 0, 0, 0, 1, 1, 1, 1], dtype=np.int64)
NAMES = ["a", "b", "c"]


def _float64_vector(a, n):
    assert type(a) is np.ndarray
    assert a.dtype == np.float64 and a.shape == (n,)
    assert a.flags.c_contiguous and a.flags.writeable


def _check_summary(d):
    assert type(d) is dict
    assert list(d) == SUMMARY_KEYS
    _float64_vector(d["by_group"], len(NAMES))
    assert math.isnan(d["by_group"][2])
    for key in SUMMARY_KEYS:
        if key != "by_group":
            assert type(d[key]) is float, key


def test_rate_summary_shape():
    d = core.group_rates(Y_TRUE, Y_PRED, CODES, NAMES).summary("selection_rate")
    _check_summary(d)
    assert d["by_group"][:2].tolist() == [0.5, 0.75]


def test_auc_summary_shape():
    _check_summary(core.auc_by_group(Y_TRUE, SCORES, CODES, NAMES))


def test_pairwise_gap_shape():
    for d in (
        core.ks_gap(SCORES, CODES, NAMES),
        core.partial_gap("sp", SCORES, CODES, NAMES, 0.0, 1.0),
    ):
        assert type(d) is dict
        assert list(d) == ["metric", "value", "worst_pair", "groups", "matrix"]
        assert type(d["metric"]) is str and type(d["value"]) is float
        assert type(d["worst_pair"]) is tuple
        assert [type(i) for i in d["worst_pair"]] == [int, int]
        assert type(d["groups"]) is list and d["groups"] == [0, 1]
        # Flat row-major k x k over the groups that have rows.
        _float64_vector(d["matrix"], 4)
        assert d["matrix"].reshape(2, 2)[0, 1] == d["value"]


def test_multiclass_gap_shape():
    d = core.multiclass_gap("sp", Y_PRED, 3, CODES, NAMES)
    assert type(d) is dict
    assert list(d) == ["metric", "value", "class", "worst_pair", "groups", "per_class"]
    assert type(d["value"]) is float and type(d["class"]) is int
    assert type(d["worst_pair"]) is tuple and d["groups"] == [0, 1]
    assert type(d["per_class"]) is list and len(d["per_class"]) == 3
    assert all(type(v) is float for v in d["per_class"])
