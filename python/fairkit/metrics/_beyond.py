"""Metrics fairlearn does not have: exact KS gaps, partial parity, multi-class parity, AUC by group.

All are computed by the Rust crate ``fair-metrics``; groups follow the same rules as
:class:`fairkit.metrics.MetricFrame` (several features = intersectional groups; combinations
without rows are left out of pairwise gaps).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import numpy as np

from fairkit._core import FairkitError
from fairkit._core import metrics as _core
from fairkit import _validation as v


@dataclass(frozen=True)
class PairwiseGap:
    """The largest gap between two groups, and the gap of every pair.

    ``float(gap)`` is ``gap.value``. ``matrix`` is a symmetric ``k × k`` DataFrame (ndarray without
    pandas) over the ``groups`` that have rows; ``worst_pair`` names the pair attaining ``value``.
    """

    metric: str
    value: float
    worst_pair: tuple
    groups: list
    matrix: Any

    def __float__(self) -> float:
        return float(self.value)


@dataclass(frozen=True)
class MulticlassGap:
    """A multi-class parity gap: its value, the class and pair of groups attaining it, and the
    largest gap of each class (NaN when every pair was skipped)."""

    metric: str
    value: float
    class_label: Any
    worst_pair: tuple
    per_class: dict

    def __float__(self) -> float:
        return float(self.value)


def _pairwise(d: dict, enc: v.GroupEncoding) -> PairwiseGap:
    labels = enc.group_labels()
    kept = [labels[g] for g in d["groups"]]
    k = len(kept)
    matrix = np.asarray(d["matrix"]).reshape(k, k)
    if v.has_pandas():
        index = enc.index()[d["groups"]]
        matrix = v.pd.DataFrame(matrix, index=index, columns=index)
    a, b = d["worst_pair"]
    return PairwiseGap(d["metric"], float(d["value"]), (kept[a], kept[b]), kept, matrix)


def _scores(y_score: Any, n: int | None = None) -> np.ndarray:
    s = v.as_1d(y_score, "y_score")
    if s.dtype.kind not in "fiub":
        raise FairkitError(f"y_score must be numeric, got dtype {s.dtype}")
    if n is not None:
        v.check_length(s, n, "y_score")
    if len(s) == 0:
        raise FairkitError("y_score is empty: at least one row is needed")
    return np.ascontiguousarray(s, dtype=np.float64)


def _interval(interval: Any) -> tuple[float, float]:
    try:
        alpha, beta = interval
        return float(alpha), float(beta)
    except (TypeError, ValueError) as e:
        raise FairkitError(
            f"interval must be a pair (alpha, beta) of percentiles, got {interval!r}"
        ) from e


def demographic_parity_ks(y_score, *, sensitive_features, sample_weight=None) -> PairwiseGap:
    """Exact DP-Δ: the largest gap, over every threshold, between two groups' fractions scoring
    above it (the Kolmogorov-Smirnov distance of the score distributions).

    >>> float(demographic_parity_ks([0.1, 0.9, 0.5, 0.6], sensitive_features=["a", "a", "b", "b"]))
    0.5
    """
    s = _scores(y_score)
    enc = v.encode_groups(sensitive_features, len(s))
    d = _core.ks_gap(s, enc.codes, enc.group_names(), None, v.weights(sample_weight, len(s)))
    return _pairwise(d, enc)


def equal_opportunity_ks(
    y_true, y_score, *, sensitive_features, sample_weight=None, pos_label=None
) -> PairwiseGap:
    """Exact EO-Δ: DP-Δ among the rows whose label is positive."""
    yt = _labels(y_true, pos_label)
    s = _scores(y_score, len(yt))
    enc = v.encode_groups(sensitive_features, len(s))
    d = _core.ks_gap(s, enc.codes, enc.group_names(), yt, v.weights(sample_weight, len(s)))
    return _pairwise(d, enc)


def _labels(y_true, pos_label):
    yt, _ = v.binary_labels(y_true, y_true, pos_label)
    return yt


def partial_statistical_parity(
    y_score, *, sensitive_features, interval=(0.0, 1.0), sample_weight=None
) -> PairwiseGap:
    """pSP (IDCA, Def. 4.2): the KS gap restricted to each group's percentile band
    ``interval = (alpha, beta)`` counted from the top (``(0, 0.2)`` = each group's top 20 %).
    On ``(0, 1)`` it equals :func:`demographic_parity_ks`."""
    s = _scores(y_score)
    enc = v.encode_groups(sensitive_features, len(s))
    alpha, beta = _interval(interval)
    d = _core.partial_gap("sp", s, enc.codes, enc.group_names(), alpha, beta, None, None,
                          v.weights(sample_weight, len(s)))
    return _pairwise(d, enc)


def partial_demographic_parity(
    y_score, *, sensitive_features, interval=(0.0, 1.0), threshold=0.0, sample_weight=None
) -> PairwiseGap:
    """pDP (IDCA, Def. 4.3): the in-band selection-rate gap at one score ``threshold``."""
    s = _scores(y_score)
    enc = v.encode_groups(sensitive_features, len(s))
    alpha, beta = _interval(interval)
    d = _core.partial_gap("dp", s, enc.codes, enc.group_names(), alpha, beta, float(threshold),
                          None, v.weights(sample_weight, len(s)))
    return _pairwise(d, enc)


def partial_equal_opportunity(
    y_true, y_score, *, sensitive_features, interval=(0.0, 1.0), threshold=0.0,
    sample_weight=None, pos_label=None,
) -> PairwiseGap:
    """Partial equal opportunity (IDCA model (50)): pDP among each group's positives."""
    yt = _labels(y_true, pos_label)
    s = _scores(y_score, len(yt))
    enc = v.encode_groups(sensitive_features, len(s))
    alpha, beta = _interval(interval)
    d = _core.partial_gap("eop", s, enc.codes, enc.group_names(), alpha, beta, float(threshold),
                          yt, v.weights(sample_weight, len(s)))
    return _pairwise(d, enc)


class GroupMetric:
    """One metric overall and per group with MetricFrame's accessors (``overall``,
    ``by_group``, ``group_min()``, ``group_max()``, ``difference(method=)``, ``ratio(method=)``).
    Groups where the metric is undefined are NaN and left out of the gaps."""

    def __init__(self, name: str, summary: dict, enc: v.GroupEncoding) -> None:
        self._name, self._s, self._enc = name, summary, enc

    @property
    def overall(self) -> float:
        return float(self._s["overall"])

    @property
    def by_group(self):
        values = self._s["by_group"]
        if v.has_pandas():
            return v.pd.Series(values, index=self._enc.index(), name=self._name)
        return dict(zip(self._enc.group_labels(), values.tolist()))

    def group_min(self) -> float:
        return float(self._s["group_min"])

    def group_max(self) -> float:
        return float(self._s["group_max"])

    def difference(self, method: str = "between_groups") -> float:
        from fairkit.metrics._frame import _check_method

        _check_method(method)
        return float(self._s["difference" if method == "between_groups" else "difference_to_overall"])

    def ratio(self, method: str = "between_groups") -> float:
        from fairkit.metrics._frame import _check_method

        _check_method(method)
        return float(self._s["ratio" if method == "between_groups" else "ratio_to_overall"])


def auc_by_group(y_true, y_score, *, sensitive_features, sample_weight=None, pos_label=None):
    """Exact tie-aware ROC AUC overall and per group (NaN for a group lacking positives or
    negatives), as a :class:`GroupMetric`."""
    yt = _labels(y_true, pos_label)
    s = _scores(y_score, len(yt))
    enc = v.encode_groups(sensitive_features, len(s))
    d = _core.auc_by_group(yt, s, enc.codes, enc.group_names(), v.weights(sample_weight, len(s)))
    return GroupMetric("roc_auc", d, enc)


def _classes(y_true, y_pred):
    """Sorted distinct classes of both inputs and each input as int64 class codes."""
    arrays = [(v.as_1d(y_pred, "y_pred"), "y_pred")]
    if y_true is not None:
        arrays.insert(0, (v.as_1d(y_true, "y_true"), "y_true"))
        v.check_length(arrays[1][0], len(arrays[0][0]), "y_pred")
    n = len(arrays[0][0])
    if n == 0:
        raise FairkitError(f"{arrays[0][1]} is empty: at least one row is needed")
    for arr, name in arrays:
        v.check_no_missing(arr, name)
    try:
        classes, inverse = np.unique(np.concatenate([a for a, _ in arrays]), return_inverse=True)
    except TypeError as e:
        raise FairkitError(f"class labels mix types that cannot be compared: {e}") from e
    inverse = np.asarray(inverse, dtype=np.int64).reshape(-1)
    return classes, [np.ascontiguousarray(inverse[k * n:(k + 1) * n]) for k in range(len(arrays))]


def _multiclass(kind, y_true, y_pred, sensitive_features, sample_weight, zero_division):
    classes, coded = _classes(y_true, y_pred)
    n = len(coded[0])
    enc = v.encode_groups(sensitive_features, n)
    yt, yp = (coded[0], coded[1]) if y_true is not None else (None, coded[0])
    n_classes = max(len(classes), 2)
    d = _core.multiclass_gap(kind, yp, n_classes, enc.codes, enc.group_names(), yt,
                             v.weights(sample_weight, n), zero_division)
    labels = enc.group_labels()
    kept = [labels[g] for g in d["groups"]]
    a, b = d["worst_pair"]
    cls = list(map(v._py, classes))
    per_class = dict(zip(cls, d["per_class"]))
    return MulticlassGap(d["metric"], float(d["value"]), cls[d["class"]] if d["class"] < len(cls)
                         else d["class"], (kept[a], kept[b]), per_class)


def multiclass_equalized_odds(
    y_true, y_pred, *, sensitive_features, sample_weight=None, zero_division="skip"
) -> MulticlassGap:
    """FairProjection's MEO (eq. 117): max over classes and group pairs of the mean of the
    one-vs-rest TPR and FPR gaps. Classes are the sorted distinct values of both inputs;
    ``zero_division`` ("skip", "zero", "error") handles a group lacking a class."""
    return _multiclass("meo", y_true, y_pred, sensitive_features, sample_weight, zero_division)


def multiclass_statistical_parity(
    y_pred, *, sensitive_features, sample_weight=None
) -> MulticlassGap:
    """FairProjection's SP (eq. 118): max over classes and group pairs of the gap in
    P(prediction = class)."""
    return _multiclass("sp", None, y_pred, sensitive_features, sample_weight, "skip")
