"""Confidence intervals for every rate and every gap (fairlearn has none of these).

Rates: the Wilson score interval (default) or the exact Clopper-Pearson interval; with sample
weights the proportion is the weighted rate and ``n`` Kish's effective sample size. Gaps: a
seeded stratified bootstrap percentile interval (each group's confusion cells redrawn from its
multinomial, which is exactly resampling that group's rows) and a seeded permutation p-value for
"the rate does not depend on the group". Computed in Rust by ``fair_metrics::ci`` from a
mergeable per-group state; same seed, same bits.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from fairkit._core import FairkitError
from fairkit._core import metrics as _core
from fairkit import _validation as v
from fairkit.metrics._frame import _rate_of

_GAP_ALIASES = {
    "demographic_parity": "selection_rate",
    "equal_opportunity": "true_positive_rate",
    "equalized_odds": "equalized_odds",
}


@dataclass(frozen=True)
class RateIntervals:
    """A rate with a confidence interval per group and overall.

    ``by_group`` is a DataFrame (dict of dicts without pandas) with columns ``estimate``,
    ``lower``, ``upper``, ``effective_n``, indexed like ``MetricFrame.by_group`` (groups with
    rows only); ``overall`` the same four values for all rows. Undefined rates (no rows in the
    denominator) are NaN.
    """

    rate: str
    method: str
    confidence: float
    by_group: Any
    overall: dict


@dataclass(frozen=True)
class GapInterval:
    """A gap with its bootstrap confidence interval and permutation p-value."""

    metric: str
    kind: str
    method: str
    estimate: float
    lower: float
    upper: float
    p_value: float
    confidence: float
    n_resamples: int
    n_permutations: int
    seed: int
    approximate: bool

    def __float__(self) -> float:
        return float(self.estimate)


def _prepared(y_true, y_pred, sensitive_features, sample_weight, pos_label, selection_only):
    if selection_only:
        yp = v.selected(y_pred, 1 if pos_label is None else pos_label)
        yt = yp
    else:
        yt, yp = v.binary_labels(y_true, y_pred, pos_label)
    enc = v.encode_groups(sensitive_features, len(yp))
    names = enc.group_names()
    if len(set(names)) != len(names):  # e.g. 1 and "1" in one column: keep the state keys distinct
        names = [f"#{k}: {n}" for k, n in enumerate(names)]
    return yt, yp, enc, names, v.weights(sample_weight, len(yp))


def _nan(x):
    return float("nan") if x is None else float(x)


def rate_intervals(
    y_true, y_pred, *, sensitive_features, rate="selection_rate", sample_weight=None,
    pos_label=None, confidence=0.95, method="wilson",
) -> RateIntervals:
    """``rate`` (a built-in rate function or its name, as in :class:`MetricFrame`) per group and
    overall with a ``confidence`` interval; ``method`` is ``"wilson"`` or ``"clopper-pearson"``.

    >>> r = rate_intervals([1, 0, 1, 1], [1, 0, 0, 1], sensitive_features=["a", "a", "b", "b"])
    >>> r.overall["estimate"], r.overall["lower"] < 0.5 < r.overall["upper"]
    (0.5, True)
    """
    rate_name = _rate_of(rate)
    yt, yp, enc, names, w = _prepared(y_true, y_pred, sensitive_features, sample_weight,
                                      pos_label, rate_name == "selection_rate")
    d = _core.rate_intervals(yt, yp, enc.codes, names, rate_name, w, float(confidence), method)
    position = {n: k for k, n in enumerate(names)}
    rows = sorted(d["groups"], key=lambda t: position[t[0]])
    cols = ("estimate", "lower", "upper", "effective_n")
    values = {c: [_nan(t[i + 1]) for t in rows] for i, c in enumerate(cols)}
    kept = [position[t[0]] for t in rows]
    labels = enc.group_labels()
    if v.has_pandas():
        by_group = v.pd.DataFrame(values, index=enc.index()[kept])
    else:
        by_group = {labels[g]: {c: values[c][k] for c in cols} for k, g in enumerate(kept)}
    overall = {c: _nan(d["overall"][i + 1]) for i, c in enumerate(cols)}
    return RateIntervals(rate_name, d["method"], float(d["confidence"]), by_group, overall)


def gap_interval(
    y_true, y_pred, *, sensitive_features, metric="demographic_parity", kind="difference",
    method="between_groups", sample_weight=None, pos_label=None, confidence=0.95,
    n_resamples=2000, seed=0,
) -> GapInterval:
    """A gap across groups with a seeded bootstrap interval and a permutation p-value.

    ``metric``: ``"demographic_parity"``, ``"equal_opportunity"``, ``"equalized_odds"`` or any
    built-in rate (function or name); ``kind``: ``"difference"`` or ``"ratio"``; ``method`` as
    fairlearn's. The estimate follows the Rust crate's conventions, which differ from fairlearn's
    in two corner cases: a ratio of two zero rates is 1 (fairlearn: NaN), and a group whose rate
    is undefined (a TPR without positives) is left out of the gap (fairlearn counts it as 0).
    Elsewhere it equals the fairlearn-compatible function. Needs at least two groups.
    """
    if not isinstance(metric, str) or metric not in _GAP_ALIASES:
        key = _rate_of(metric)
    else:
        key = _GAP_ALIASES[metric]
    if not isinstance(n_resamples, int) or isinstance(n_resamples, bool) or n_resamples < 0:
        raise FairkitError(f"n_resamples must be a non-negative integer, got {n_resamples!r}")
    if not isinstance(seed, int) or isinstance(seed, bool) or not 0 <= seed < 2**64:
        raise FairkitError(f"seed must be an integer in [0, 2**64), got {seed!r}")
    yt, yp, enc, names, w = _prepared(y_true, y_pred, sensitive_features, sample_weight,
                                      pos_label, key == "selection_rate")
    d = _core.gap_inference(yt, yp, enc.codes, names, key, kind, method, w, float(confidence),
                            n_resamples, seed)
    label = metric if isinstance(metric, str) else key
    return GapInterval(label, kind, method, float(d["estimate"]), float(d["lower"]),
                       float(d["upper"]), float(d["p_value"]), float(confidence),
                       int(d["n_resamples"]), int(d["n_permutations"]), int(d["seed"]),
                       bool(d["approximate"]))
