"""fairlearn's metric functions (same names, keyword signatures and results), computed in Rust."""

from __future__ import annotations

import warnings
from typing import Any

import numpy as np

from fairkit._core import FairkitError
from fairkit._core import metrics as _core
from fairkit import _validation as v


# Scalars are numpy.float64, as fairlearn's (a displayed value reads np.float64(0.5)), except
# the equalized-odds aggregates, which fairlearn returns as Python floats.
def _ungrouped(rate: str, y_true, y_pred, sample_weight, pos_label) -> np.float64:
    yt, yp = v.binary_labels(y_true, y_pred, pos_label)
    w = v.weights(sample_weight, len(yt))
    return np.float64(_core.group_rates(yt, yp, None, ["all rows"], w).summary(rate)["overall"])


def selection_rate(y_true, y_pred, *, pos_label: Any = 1, sample_weight=None) -> np.float64:
    """Fraction of predictions equal to ``pos_label`` (``y_true`` is ignored, as in fairlearn).

    >>> float(selection_rate([0, 0, 1, 1], [1, 0, 0, 0]))
    0.25
    """
    del y_true
    if len(v.as_1d(y_pred, "y_pred")) == 0:
        raise FairkitError("Empty y_pred passed to selection_rate function.")
    yp = v.selected(y_pred, pos_label)
    w = v.weights(sample_weight, len(yp))
    return np.float64(
        _core.group_rates(yp, yp, None, ["all rows"], w).summary("selection_rate")["overall"]
    )


def true_positive_rate(y_true, y_pred, sample_weight=None, pos_label=None) -> np.float64:
    """P(prediction positive | label positive); 0 without positive labels (as fairlearn)."""
    return _ungrouped("true_positive_rate", y_true, y_pred, sample_weight, pos_label)


def false_positive_rate(y_true, y_pred, sample_weight=None, pos_label=None) -> np.float64:
    """P(prediction positive | label negative); 0 without negative labels (as fairlearn)."""
    return _ungrouped("false_positive_rate", y_true, y_pred, sample_weight, pos_label)


def true_negative_rate(y_true, y_pred, sample_weight=None, pos_label=None) -> np.float64:
    """P(prediction negative | label negative); 0 without negative labels (as fairlearn)."""
    return _ungrouped("true_negative_rate", y_true, y_pred, sample_weight, pos_label)


def false_negative_rate(y_true, y_pred, sample_weight=None, pos_label=None) -> np.float64:
    """P(prediction negative | label positive); 0 without positive labels (as fairlearn)."""
    return _ungrouped("false_negative_rate", y_true, y_pred, sample_weight, pos_label)


def _gap(rate, y_true, y_pred, sensitive_features, method, sample_weight, pos_label, kind):
    from fairkit.metrics._frame import MetricFrame, _check_method

    _check_method(method)
    mf = MetricFrame(
        metrics=rate,
        y_true=y_true,
        y_pred=y_pred,
        sensitive_features=sensitive_features,
        sample_params={"sample_weight": sample_weight},
        pos_label=pos_label,
    )
    _warn_single_group(mf)
    return np.float64(
        mf.difference(method=method) if kind == "difference" else mf.ratio(method=method)
    )


def _warn_single_group(mf) -> None:
    # fairlearn returns a gap of 0 (ratio 1 or NaN) for one group; fairkit keeps that result for
    # compatibility but says why it is meaningless, since the cause is usually a wrong column.
    if mf._n_present_groups() < 2:
        warnings.warn(
            "the sensitive features have only one group with rows, so every gap is 0: check "
            "sensitive_features (a gap compares at least two groups)",
            UserWarning,
            stacklevel=3,
        )


def demographic_parity_difference(
    y_true, y_pred, *, sensitive_features, method="between_groups", sample_weight=None, pos_label=1
) -> np.float64:
    """Largest gap in selection rate between groups (or to the overall rate).

    >>> float(demographic_parity_difference([0] * 4, [1, 1, 0, 1], sensitive_features=["a", "a", "b", "b"]))
    0.5
    """
    return _gap("selection_rate", y_true, y_pred, sensitive_features, method, sample_weight,
                pos_label, "difference")


def demographic_parity_ratio(
    y_true, y_pred, *, sensitive_features, method="between_groups", sample_weight=None, pos_label=1
) -> np.float64:
    """Smallest ratio of selection rates between groups (NaN when every rate is 0)."""
    return _gap("selection_rate", y_true, y_pred, sensitive_features, method, sample_weight,
                pos_label, "ratio")


def equal_opportunity_difference(
    y_true, y_pred, *, sensitive_features, method="between_groups", sample_weight=None,
    pos_label=None,
) -> np.float64:
    """Largest gap in true positive rate between groups (or to the overall rate)."""
    return _gap("true_positive_rate", y_true, y_pred, sensitive_features, method, sample_weight,
                pos_label, "difference")


def equal_opportunity_ratio(
    y_true, y_pred, *, sensitive_features, method="between_groups", sample_weight=None,
    pos_label=None,
) -> np.float64:
    """Smallest ratio of true positive rates between groups (NaN when every rate is 0)."""
    return _gap("true_positive_rate", y_true, y_pred, sensitive_features, method, sample_weight,
                pos_label, "ratio")


def _equalized_odds(y_true, y_pred, sensitive_features, method, sample_weight, agg, pos_label, kind):
    from fairkit.metrics._frame import MetricFrame, _check_method

    if agg not in ("worst_case", "mean"):
        raise FairkitError(f"agg must be one of 'worst_case' or 'mean', got {agg}")
    _check_method(method)
    mf = MetricFrame(
        metrics={"tpr": "true_positive_rate", "fpr": "false_positive_rate"},
        y_true=y_true,
        y_pred=y_pred,
        sensitive_features=sensitive_features,
        sample_params={"tpr": {"sample_weight": sample_weight}, "fpr": {"sample_weight": sample_weight}},
        pos_label=pos_label,
    )
    _warn_single_group(mf)
    gaps = mf.difference(method=method) if kind == "difference" else mf.ratio(method=method)
    tpr, fpr = float(gaps["tpr"]), float(gaps["fpr"])
    return float(_core.aggregate_pair(tpr, fpr, agg, "max" if kind == "difference" else "min"))


def equalized_odds_difference(
    y_true, y_pred, *, sensitive_features, method="between_groups", sample_weight=None,
    agg="worst_case", pos_label=None,
) -> float:
    """The larger (``agg="worst_case"``) or mean of the TPR and FPR differences."""
    return _equalized_odds(y_true, y_pred, sensitive_features, method, sample_weight, agg,
                           pos_label, "difference")


def equalized_odds_ratio(
    y_true, y_pred, *, sensitive_features, method="between_groups", sample_weight=None,
    agg="worst_case", pos_label=None,
) -> float:
    """The smaller (``agg="worst_case"``) or mean of the TPR and FPR ratios."""
    return _equalized_odds(y_true, y_pred, sensitive_features, method, sample_weight, agg,
                           pos_label, "ratio")
