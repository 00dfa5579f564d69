"""``MetricFrame``: fairlearn's disaggregated view for the built-in rates, computed in Rust."""

from __future__ import annotations

from typing import Any, Callable

import numpy as np

from fairkit._core import FairkitError
from fairkit._core import metrics as _core
from fairkit import _validation as v

_METHODS = ("between_groups", "to_overall")

# Function names fairkit recognises in `metrics=` (fairkit's, fairlearn's or scikit-learn's
# function of that name, or the name as a string) → the core's rate name.
_RATE_OF_FUNCTION = {
    "selection_rate": "selection_rate",
    "true_positive_rate": "true_positive_rate",
    "recall_score": "true_positive_rate",
    "false_positive_rate": "false_positive_rate",
    "true_negative_rate": "true_negative_rate",
    "false_negative_rate": "false_negative_rate",
    "precision_score": "precision",
    "accuracy_score": "accuracy",
    "zero_one_loss": "error_rate",
}
_KNOWN_MODULES = ("fairkit", "fairlearn", "sklearn")


def _rate_of(metric: Any) -> str:
    """The core rate computed by ``metric`` (a recognised function or its name)."""
    if isinstance(metric, str):
        name = metric
    else:
        name = getattr(metric, "__name__", None)
        module = getattr(metric, "__module__", "") or ""
        if name not in _RATE_OF_FUNCTION or not module.startswith(_KNOWN_MODULES):
            name = None
    if name not in _RATE_OF_FUNCTION:
        raise FairkitError(
            f"metric {metric!r} is not one of the built-in rates fairkit computes in Rust: "
            f"{', '.join(sorted(_RATE_OF_FUNCTION))} (fairkit, fairlearn or scikit-learn "
            "functions of these names, or the names as strings); use fairlearn's MetricFrame "
            "for arbitrary callables"
        )
    return _RATE_OF_FUNCTION[name]


def _metric_name(metric: Any) -> str:
    return metric if isinstance(metric, str) else metric.__name__


def _check_method(method: str) -> None:
    if method not in _METHODS:
        raise FairkitError(
            f"Unrecognised comparison method: {method!r}; expected 'between_groups' or 'to_overall'"
        )


class MetricFrame:
    """Rates overall and per group, with fairlearn ``MetricFrame``'s interface and results.

    Parameters mirror ``fairlearn.metrics.MetricFrame``: ``metrics`` is one recognised rate
    function (``selection_rate``, ``true_positive_rate``, ``false_positive_rate``,
    ``true_negative_rate``, ``false_negative_rate``, scikit-learn's ``accuracy_score``,
    ``precision_score``, ``recall_score``, ``zero_one_loss``, from fairkit, fairlearn or
    scikit-learn, or their names) or a dict ``{column name: function}``; ``sensitive_features``
    one or several columns (several = intersectional groups over the Cartesian product of their
    values, absent combinations NaN, as in fairlearn); ``sample_params`` as in fairlearn
    (``{"sample_weight": w}``, or per metric for a dict). ``pos_label`` (fairkit's addition)
    names the positive label; by default fairlearn's rule applies (labels in {0, 1} or {-1, 1},
    1 positive). ``control_features`` and bootstrap arguments are not supported; fairkit's
    intervals are in :func:`fairkit.metrics.rate_intervals`.

    Results are pandas objects when pandas is installed (same shapes as fairlearn: a scalar and
    a Series for one function, a Series and a DataFrame for a dict), dicts otherwise.

    Examples
    --------
    >>> from fairkit.metrics import MetricFrame, selection_rate
    >>> mf = MetricFrame(metrics=selection_rate, y_true=[1, 0, 1, 1], y_pred=[1, 0, 0, 1],
    ...                  sensitive_features=["a", "a", "b", "b"])
    >>> float(mf.difference())
    0.0
    """

    def __init__(
        self,
        *,
        metrics: Callable | str | dict[str, Callable | str],
        y_true: Any,
        y_pred: Any,
        sensitive_features: Any,
        control_features: Any = None,
        sample_params: dict | None = None,
        pos_label: Any = None,
        n_boot: Any = None,
        ci_quantiles: Any = None,
        random_state: Any = None,
    ) -> None:
        if control_features is not None:
            raise FairkitError("control_features is not supported by fairkit's MetricFrame")
        if n_boot is not None or ci_quantiles is not None:
            raise FairkitError(
                "bootstrap arguments (n_boot, ci_quantiles) are not supported; use "
                "fairkit.metrics.rate_intervals / gap_intervals for confidence intervals"
            )
        del random_state
        self._single = not isinstance(metrics, dict)
        named = {_metric_name(metrics): metrics} if self._single else dict(metrics)
        if not named:
            raise FairkitError("metrics is an empty dict: pass at least one metric")
        rates = {name: _rate_of(m) for name, m in named.items()}
        weights_of = self._weights_per_metric(named, sample_params)

        yt_raw = v.as_1d(y_true, "y_true")
        yp_raw = v.as_1d(y_pred, "y_pred")
        v.check_length(yp_raw, len(yt_raw), "y_pred")
        n = len(yt_raw)
        if n == 0:
            raise FairkitError("y_true is empty: at least one row is needed")
        only_selection = all(r == "selection_rate" for r in rates.values())
        self._names = list(rates)
        if self._count_in_one_pass(
            yt_raw, yp_raw, sensitive_features, n, rates, weights_of, pos_label, only_selection
        ):
            return
        self._groups = v.encode_groups(sensitive_features, n)
        names = self._groups.group_names()

        if only_selection:
            # fairlearn's selection_rate ignores y_true and compares y_pred with pos_label (1).
            yp = v.selected(yp_raw, 1 if pos_label is None else pos_label)
            yt = yp
        else:
            yt, yp = v.binary_labels(yt_raw, yp_raw, pos_label)

        # One pass over the rows per distinct weight array (usually one).
        counts: dict[int, Any] = {}
        self._summaries: dict[str, dict] = {}
        for name, rate in rates.items():
            w_obj = weights_of[name]
            key = id(w_obj)
            if key not in counts:
                w = v.weights(w_obj, n)
                counts[key] = _core.group_rates(yt, yp, self._groups.codes, names, w)
            self._summaries[name] = counts[key].summary(rate)

    def _count_in_one_pass(
        self, yt_raw, yp_raw, sensitive_features, n, rates, weights_of, pos_label, only_selection
    ) -> bool:
        """The common case in one read of the rows: 0/1 ``int64``/``bool`` labels and one
        integer sensitive feature of small non-negative ids. The core checks the labels and ids
        while it counts and declines (False: take the general path, which re-encodes or reports
        the bad row) when they do not fit. Same results as the general path, without its
        factorization and label passes."""
        if not v.is_default_pos_label(pos_label):
            return False
        ids = v.one_pass_ids(sensitive_features, n)
        yp = v.one_pass_labels(yp_raw)
        yt = yp if only_selection else v.one_pass_labels(yt_raw)
        if ids is None or yt is None or yp is None:
            return False
        feature, values = ids
        counts: dict[int, Any] = {}
        summaries: dict[str, dict] = {}
        for name, rate in rates.items():
            w_obj = weights_of[name]
            key = id(w_obj)
            if key not in counts:
                counted = _core.group_rates_ids(yt, yp, values, v.weights(w_obj, n))
                if counted is None:
                    return False
                counts[key] = counted
            summaries[name] = counts[key][1].summary(rate)
        uniques = next(iter(counts.values()))[0]
        self._groups = v.GroupEncoding(
            codes=None, n_groups=len(uniques), feature_names=[feature], levels=[uniques]
        )
        self._summaries = summaries
        return True

    @staticmethod
    def _weights_per_metric(named: dict, sample_params: dict | None) -> dict[str, Any]:
        if sample_params is None:
            return {k: None for k in named}
        if not isinstance(sample_params, dict):
            raise FairkitError("sample_params must be a dictionary")
        if len(named) == 1 and "sample_weight" in sample_params and not isinstance(
            sample_params.get("sample_weight"), dict
        ):
            flat = sample_params
            per = {k: flat for k in named}
        else:
            unknown = set(sample_params) - set(named)
            if unknown:
                raise FairkitError(
                    f"keys in sample_params ({sorted(unknown)}) do not match those in metrics"
                )
            per = {k: sample_params.get(k, {}) or {} for k in named}
        out = {}
        for k, params in per.items():
            extra = set(params) - {"sample_weight"}
            if extra:
                raise FairkitError(
                    f"sample_params for {k!r} has {sorted(extra)}; only 'sample_weight' is supported"
                )
            out[k] = params.get("sample_weight")
        return out

    def _n_present_groups(self) -> int:
        by_group = self._summaries[self._names[0]]["by_group"]
        return int(np.count_nonzero(~np.isnan(by_group)))

    # -- shaping ---------------------------------------------------------------------------

    def _scalar_or_series(self, key: str):
        values = {name: self._summaries[name][key] for name in self._names}
        if self._single:
            return values[self._names[0]]
        if v.has_pandas():
            return v.pd.Series(values, dtype=float)
        return values

    @property
    def overall(self):
        """The rate(s) on all rows: a float for one function, a Series (dict) for a dict."""
        return self._scalar_or_series("overall")

    @property
    def by_group(self):
        """Rate(s) per group: a Series (one function) or DataFrame (dict), NaN for absent groups.

        Without pandas: ``{group: value}`` or ``{metric: {group: value}}``.
        """
        labels = self._groups.group_labels()
        if v.has_pandas():
            index = self._groups.index()
            if self._single:
                name = self._names[0]
                return v.pd.Series(self._summaries[name]["by_group"], index=index, name=name)
            return v.pd.DataFrame(
                {name: self._summaries[name]["by_group"] for name in self._names}, index=index
            )
        per = {
            name: dict(zip(labels, self._summaries[name]["by_group"].tolist()))
            for name in self._names
        }
        return per[self._names[0]] if self._single else per

    @property
    def sensitive_levels(self) -> list[str]:
        """Names of the sensitive features (fairlearn's naming rules)."""
        return list(self._groups.feature_names)

    @property
    def control_levels(self) -> None:
        """Always None (control features are not supported)."""
        return None

    def group_min(self, errors: str = "raise"):
        """Smallest group value per metric (NaN groups skipped)."""
        _check_errors(errors)
        return self._scalar_or_series("group_min")

    def group_max(self, errors: str = "raise"):
        """Largest group value per metric (NaN groups skipped)."""
        _check_errors(errors)
        return self._scalar_or_series("group_max")

    def difference(self, method: str = "between_groups", errors: str = "coerce"):
        """``max - min`` over groups, or ``max |group - overall|`` for ``method="to_overall"``."""
        _check_errors(errors)
        _check_method(method)
        key = "difference" if method == "between_groups" else "difference_to_overall"
        return self._scalar_or_series(key)

    def ratio(self, method: str = "between_groups", errors: str = "coerce"):
        """``min / max`` over groups (NaN when both are 0), or the smallest of
        ``min(group / overall, overall / group)`` for ``method="to_overall"``."""
        _check_errors(errors)
        _check_method(method)
        key = "ratio" if method == "between_groups" else "ratio_to_overall"
        return self._scalar_or_series(key)


def _check_errors(errors: str) -> None:
    if errors not in ("raise", "coerce"):
        raise FairkitError(
            f"Invalid error value specified: {errors!r}. Valid values are ['raise', 'coerce']"
        )
