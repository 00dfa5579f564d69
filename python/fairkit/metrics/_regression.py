"""Fairness of a numeric output: per-group regression metrics and the gaps between groups.

:func:`regression_metrics` computes, in one pass in Rust (``fair_metrics::regression``, exact
sums), what ``MetricFrame(metrics={"mae": mean_absolute_error, ...})`` computes with
scikit-learn's functions per group, and fairlearn's ``difference``/``ratio``/``group_min``/
``group_max`` of each.
"""

from __future__ import annotations

from typing import Any, Optional

import numpy as np

from fairkit._core import FairkitError
from fairkit._core import metrics as _core

#: The metrics, by their scikit-learn names where scikit-learn has one.
METRICS = ("mean_target", "mean_prediction", "mean_residual", "mean_absolute_error",
           "mean_squared_error", "root_mean_squared_error", "r2_score")
_NON_NEGATIVE = ("mean_absolute_error", "mean_squared_error", "root_mean_squared_error")
_METHODS = ("between_groups", "to_overall")


def _values(name: str, x: Any) -> np.ndarray:
    try:
        a = np.asarray(x, dtype=np.float64)
    except (TypeError, ValueError) as e:
        raise FairkitError(f"{name} must hold numbers: {e}") from None
    if a.ndim != 1:
        a = a.reshape(-1) if a.ndim == 2 and 1 in a.shape else a
    if a.ndim != 1:
        raise FairkitError(f"{name} must be one-dimensional, got shape {a.shape}")
    return np.ascontiguousarray(a)


def _groups(sensitive_features: Any, n: int) -> tuple[np.ndarray, list[str]]:
    a = np.asarray(sensitive_features, dtype=object)
    if a.ndim == 2 and a.shape[1] == 1:
        a = a[:, 0]
    if a.ndim != 1:
        raise FairkitError(
            f"sensitive_features must be one column (got shape {a.shape}); combine several "
            f"columns into one label per row first"
        )
    if len(a) != n:
        raise FairkitError(
            f"length mismatch for sensitive_features: expected {n} rows (as y_true), got {len(a)}")
    try:
        import pandas as pd
    except ImportError:  # numpy only: slower for many rows, same groups
        labels = np.array([str(v) for v in a], dtype=object)
        names, codes = np.unique(labels, return_inverse=True)
        return np.ascontiguousarray(codes.reshape(-1), dtype=np.int64), [str(x) for x in names]
    # Groups are named by their text, as the audit names them; values that read the same are
    # one group.
    codes, levels = pd.factorize(a, sort=False, use_na_sentinel=False)
    text = [str(v) for v in levels]
    names = sorted(set(text))
    place = {name: i for i, name in enumerate(names)}
    to_sorted = np.array([place[t] for t in text], dtype=np.int64)
    return np.ascontiguousarray(to_sorted[codes]), names


class RegressionMetrics:
    """Per-group regression metrics of one model's numeric output (see
    :func:`regression_metrics`).

    Attributes
    ----------
    by_group : pandas.DataFrame
        One row per group (sorted by name): ``count``, ``weight`` and every metric of
        :data:`METRICS`; NaN where undefined (R² needs two rows). Then
        ``prediction_quantile`` (the ``quantile`` asked for: numpy's default quantile without
        weights, its ``inverted_cdf`` with them), ``scoring_rate`` — NYC Local Law 144's share
        of the group scored above the median of all rows — and ``scoring_rate_impact_ratio``
        (÷ the highest group's scoring rate).
    overall : pandas.Series
        The same on all rows pooled, with ``pooled_median`` (the scoring rate's cut).
    wasserstein, ks : pandas.DataFrame
        Groups × groups: the Wasserstein-1 distance (the mean distance the predictions must
        move to turn one group's distribution into the other's; scipy's
        ``wasserstein_distance``) and the Kolmogorov–Smirnov distance (the largest difference,
        over thresholds, in the share of each group predicted at most that value; ``ks_2samp``'s
        statistic) between the groups' predictions, weighted when ``sample_weight`` is given.
    wasserstein_to_pooled, ks_to_pooled : pandas.Series
        Each group's distance to all rows' predictions.
    """

    def __init__(self, summary: dict) -> None:
        import pandas as pd

        self._summary = summary
        self.by_group = pd.DataFrame(summary["by_group"], index=pd.Index(summary["names"],
                                                                            name="group"))
        self.by_group = self.by_group.astype({m: float for m in METRICS})
        q = summary["quantile"]
        self.quantile_level = q["q"]
        self.by_group["prediction_quantile"] = np.array(q["by_group"], dtype=float)
        rates = np.array(q["scoring_rate"], dtype=float)
        self.by_group["scoring_rate"] = rates
        top = np.nanmax(rates)
        self.by_group["scoring_rate_impact_ratio"] = rates / top if top > 0 else np.nan
        self.overall = pd.Series(summary["overall"], dtype=object).rename("overall")
        self.overall["prediction_quantile"] = summary["quantile"]["pooled"]
        self.overall["pooled_median"] = summary["quantile"]["pooled_median"]
        self._gaps = dict(summary["gaps"])
        names = pd.Index(summary["names"], name="group")
        self.wasserstein = pd.DataFrame(summary["wasserstein"], index=names, columns=names)
        self.ks = pd.DataFrame(summary["ks"], index=names, columns=names)
        self.wasserstein_to_pooled = pd.Series(summary["wasserstein_to_pooled"], index=names,
                                               name="wasserstein_to_pooled")
        self.ks_to_pooled = pd.Series(summary["ks_to_pooled"], index=names, name="ks_to_pooled")

    def _gap(self, metric: str) -> dict:
        if metric not in METRICS:
            raise FairkitError(f"unknown metric {metric!r}; expected one of {', '.join(METRICS)}")
        gap = self._gaps[metric]
        if gap is None:
            raise FairkitError(f"{metric} is undefined in every group (R² needs two rows)")
        return gap

    @staticmethod
    def _method(method: str) -> str:
        if method not in _METHODS:
            raise FairkitError(f"method={method!r}; expected 'between_groups' or 'to_overall'")
        return method

    def group_min(self, metric: str) -> float:
        """The smallest group value of ``metric``."""
        return self._gap(metric)["group_min"]

    def group_max(self, metric: str) -> float:
        """The largest group value of ``metric``."""
        return self._gap(metric)["group_max"]

    def difference(self, metric: str, method: str = "between_groups") -> float:
        """fairlearn's ``difference``: max − min between groups, or the largest distance of a
        group to the overall value (``method="to_overall"``)."""
        gap = self._gap(metric)
        if self._method(method) == "between_groups":
            return gap["difference"]
        return gap["difference_to_overall"]

    def ratio(self, metric: str, method: str = "between_groups") -> float:
        """fairlearn's ``ratio`` (min / max, or the smallest ratio to the overall value) for the
        error metrics, which cannot be negative; a signed metric has no ratio."""
        gap = self._gap(metric)
        if metric not in _NON_NEGATIVE:
            raise FairkitError(
                f"{metric} can be negative, where a ratio of group values means nothing; use "
                f"difference(), or one of {', '.join(_NON_NEGATIVE)}")
        return gap["ratio" if self._method(method) == "between_groups" else "ratio_to_overall"]

    def distribution_gap(self, distance: str = "wasserstein",
                         method: str = "between_groups") -> tuple[tuple[str, ...], float]:
        """The largest distance between two groups' predictions (``method="between_groups"``:
        the pair) or between a group's and all rows' (``"to_overall"``: the group), with the
        groups it is between. ``distance`` is ``"wasserstein"`` or ``"ks"``."""
        if distance not in ("wasserstein", "ks"):
            raise FairkitError(f"distance={distance!r}; expected 'wasserstein' or 'ks'")
        if self._method(method) == "to_overall":
            column = self.wasserstein_to_pooled if distance == "wasserstein" else self.ks_to_pooled
            column = column.dropna()
            group = column.idxmax()
            return (str(group),), float(column[group])
        matrix = self.wasserstein if distance == "wasserstein" else self.ks
        best = None
        names = list(matrix.index)
        for i, a in enumerate(names):
            for b in names[i + 1:]:
                v = matrix.loc[a, b]
                if not np.isnan(v) and (best is None or v > best[1]):
                    best = ((str(a), str(b)), float(v))
        if best is None:
            raise FairkitError("a distribution gap needs two groups with weight")
        return best

    def _intervals(self) -> dict:
        ci = self._summary["intervals"]
        if ci is None:
            raise FairkitError("no intervals: pass n_resamples= (e.g. 1000) to regression_metrics")
        return ci

    @staticmethod
    def _pair(v) -> Optional[tuple]:
        return None if v is None else (float(v[0]), float(v[1]))

    def interval(self, metric: str, group: Optional[str] = None) -> Optional[tuple]:
        """The bootstrap interval ``(lower, upper)`` of ``metric`` in ``group`` (all rows when
        ``None``); ``None`` where the metric is undefined in most resamples."""
        self._gap(metric)
        ci = self._intervals()
        j = METRICS.index(metric)
        if group is None:
            return self._pair(ci["overall"][j])
        names = list(self.by_group.index)
        if group not in names:
            raise FairkitError(f"no group {group!r}; the groups are {names}")
        return self._pair(ci["by_group"][names.index(group)][j])

    def difference_interval(self, metric: str) -> Optional[tuple]:
        """The bootstrap interval of ``difference(metric)`` (between groups)."""
        self._gap(metric)
        return self._pair(self._intervals()["difference"][METRICS.index(metric)])

    def ratio_interval(self, metric: str) -> Optional[tuple]:
        """The bootstrap interval of ``ratio(metric)`` (between groups; error metrics only)."""
        self.ratio(metric)
        return self._pair(self._intervals()["ratio"][METRICS.index(metric)])

    def bounded_group_loss(self, loss: str = "squared") -> tuple[str, float]:
        """The largest group loss — mean squared error (``loss="squared"``) or mean absolute
        error (``"absolute"``) — and its group: the quantity fairlearn's ``BoundedGroupLoss``
        keeps below a bound."""
        metric = {"squared": "mean_squared_error", "absolute": "mean_absolute_error"}.get(loss)
        if metric is None:
            raise FairkitError(f"loss={loss!r}; expected 'squared' or 'absolute'")
        column = self.by_group[metric]
        group = column.idxmax()
        return str(group), float(column[group])

    def __repr__(self) -> str:
        return f"RegressionMetrics({len(self.by_group)} groups)\n{self.by_group!r}"


def regression_metrics(y_true: Any, y_pred: Any, *, sensitive_features: Any,
                       sample_weight: Optional[Any] = None, quantile: float = 0.5,
                       n_resamples: int = 0, confidence: float = 0.95,
                       seed: int = 0) -> RegressionMetrics:
    """Per-group regression metrics and their gaps, in one pass.

    Per group: row count, weight, weighted means of the target, the prediction and the residual
    ``y_pred − y_true`` (positive: over-predicted), MAE, MSE, RMSE and R² — equal (to ~1e-12) to
    scikit-learn's ``mean_absolute_error``, ``mean_squared_error``,
    ``root_mean_squared_error`` and ``r2_score`` with ``sample_weight`` on each group's rows
    (R²: 1 for a constant target predicted exactly, 0 for one missed, undefined below two rows,
    as scikit-learn). The sums are exact (order-independent), so the values do not depend on
    the row order.

    Examples
    --------
    >>> from fairkit.metrics import regression_metrics
    >>> m = regression_metrics([1, 2, 3, 0, 4], [2, 2, 2, 1, 1],
    ...                        sensitive_features=["a", "a", "a", "b", "b"])
    >>> m.by_group["mean_absolute_error"].round(3).to_dict()
    {'a': 0.667, 'b': 2.0}
    >>> m.difference("mean_residual")
    1.0
    >>> m.bounded_group_loss("squared")
    ('b', 5.0)
    """
    y = _values("y_true", y_true)
    p = _values("y_pred", y_pred)
    if len(p) != len(y):
        raise FairkitError(
            f"length mismatch for y_pred: expected {len(y)} rows (as y_true), got {len(p)}")
    codes, names = _groups(sensitive_features, len(y))
    w = None if sample_weight is None else _values("sample_weight", sample_weight)
    if not isinstance(quantile, (int, float)) or isinstance(quantile, bool):
        raise FairkitError(f"quantile={quantile!r}; expected a level in [0, 1]")
    for name, value in (("n_resamples", n_resamples), ("seed", seed)):
        if not isinstance(value, (int, np.integer)) or isinstance(value, bool) or value < 0:
            raise FairkitError(f"{name}={value!r}; expected an integer >= 0")
    if not isinstance(confidence, (int, float)) or isinstance(confidence, bool):
        raise FairkitError(f"confidence={confidence!r}; expected a level in (0, 1)")
    return RegressionMetrics(_core.regression_summary(
        y, p, codes, names, w, float(quantile), int(n_resamples), float(confidence), int(seed)))
