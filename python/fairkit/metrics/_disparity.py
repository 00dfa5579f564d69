"""Reference-group disparities, Aequitas' model, computed in Rust (``fair_metrics::disparity``).

One row per (sensitive feature, value), Aequitas 1.1's column names: the crosstab of
``Group.get_crosstabs`` (counts and rates), the ``{rate}_disparity``, ``{rate}_ref_group_value``
and ``{rate}_significance`` columns of ``Bias.get_disparity_*`` and the ``... Parity``
determinations of ``Fairness.get_group_value_fairness``. The rules (undefined values, the
disparity cap of 10, ties, the significance test and where fairkit deliberately differs) are
documented in docs/python.md and in the Rust module.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from fairkit._core import FairkitError
from fairkit._core import metrics as _core
from fairkit import _validation as v

_RATES = list(_core.DISPARITY_RATES)
_PARITY = list(_core.DISPARITY_PARITY_NAMES)
# Aequitas' crosstab columns, in its order (without model_id and score_threshold).
_CROSSTAB = [
    "k", "attribute_name", "attribute_value", "accuracy", "tpr", "tnr", "for", "fdr", "fpr",
    "fnr", "npv", "precision", "pp", "pn", "ppr", "pprev", "fp", "fn", "tn", "tp",
    "group_label_pos", "group_label_neg", "group_size", "total_entities", "prev",
]
_COMPOSITE = [
    ("TypeI Parity", "type_i"),
    ("TypeII Parity", "type_ii"),
    ("Equalized Odds", "equalized_odds"),
    ("Unsupervised Fairness", "unsupervised"),
    ("Supervised Fairness", "supervised"),
]


def _nan(x):
    return float("nan") if x is None else x


def disparities(
    y_true, y_pred, *, sensitive_features, sample_weight=None, reference="largest", tau=0.8,
    alpha=0.05, p_values=False, pos_label=None,
):
    """Every confusion rate of every group ÷ the reference group's, Aequitas' disparity frame.

    ``sensitive_features``: one feature (a list, array or Series) or several (a DataFrame, a
    dict of columns or a 2-D array); each feature is audited on its own (one row per value, as
    Aequitas' crosstab), not intersected. ``reference``: ``"largest"`` (the largest group,
    Aequitas' default ``"majority"``), ``"min_metric"`` (per rate, the group with the smallest
    value) or a dict naming the reference group of every feature (``{"race": "Caucasian"}``).
    ``tau``: parity holds for a disparity in ``[tau, 1/tau]``. ``{rate}_significance`` is
    ``True``/``False`` (p < ``alpha``, Aequitas' masked output) or, with ``p_values=True``, the
    p-value; undefined values are NaN (determinations ``None``/NaN as Aequitas has them).

    Returns a pandas DataFrame (requires pandas).

    >>> d = disparities([1, 0, 1, 0, 1, 0], [1, 1, 1, 0, 0, 0],
    ...                 sensitive_features={"sex": ["f", "f", "f", "m", "m", "m"]})
    >>> d[["attribute_value", "pprev", "pprev_disparity", "pprev_ref_group_value", "Impact Parity"]]
      attribute_value  pprev  pprev_disparity pprev_ref_group_value Impact Parity
    0               f    1.0              1.0                     f          True
    1               m    0.0              0.0                     f         False
    """
    if not v.has_pandas():
        raise FairkitError("disparities returns a pandas DataFrame: install pandas")
    pd = v.pd
    yt, yp = v.binary_labels(y_true, y_pred, pos_label)
    n = len(yt)
    attributes = []
    labels_of = {}
    for name, column in v._feature_columns(sensitive_features):
        uniques, codes = v._factorize(column, name, n)
        labels = [v._py(u) for u in uniques]
        names = [str(u) for u in labels]
        if len(set(names)) != len(names):
            raise FairkitError(
                f"sensitive feature {name!r} has distinct values with the same text ({names}); "
                "make them distinct strings"
            )
        labels_of[name] = dict(zip(names, labels))
        attributes.append((name, np.ascontiguousarray(codes, dtype=np.int64), names))
    if isinstance(reference, dict):
        # Group names are the values' text; the check that they exist is Rust's.
        reference = {k: v_ if isinstance(v_, str) else str(v_) for k, v_ in reference.items()}
    w = v.weights(sample_weight, n)
    rows = _core.disparities(yt, yp, attributes, reference, w, float(tau), float(alpha))
    return _frame(pd, rows, labels_of, p_values)


def _frame(pd, rows: list[dict[str, Any]], labels_of, p_values: bool):
    cols: dict[str, list] = {c: [] for c in _CROSSTAB}
    extra: dict[str, list] = {"label_value_significance": [], "score_significance": []}
    for key in sorted(_RATES):
        for suffix in ("_disparity", "_ref_group_value", "_significance"):
            extra[key + suffix] = []
    parity: dict[str, list] = {name: [] for name in _PARITY}
    parity.update({name: [] for name, _ in _COMPOSITE})
    for r in rows:
        value = dict(zip(_RATES, r["values"]))
        tp, fp, tn, fn = r["tp"], r["fp"], r["tn"], r["fn"]
        crosstab = {
            "k": r["k"], "attribute_name": r["attribute_name"],
            "attribute_value": labels_of[r["attribute_name"]][r["attribute_value"]],
            "accuracy": r["accuracy"], "pp": tp + fp, "pn": tn + fn, "fp": fp, "fn": fn,
            "tn": tn, "tp": tp, "group_label_pos": tp + fn, "group_label_neg": fp + tn,
            "group_size": r["group_size"], "total_entities": r["total_entities"],
            "prev": r["prev"],
        }
        for c in _CROSSTAB:
            cols[c].append(_nan(crosstab[c] if c in crosstab else value[c]))
        p = dict(zip(_RATES, r["p_values"]))
        sig = dict(zip(_RATES, r["significant"]))
        d = dict(zip(_RATES, r["disparities"]))
        ref = dict(zip(_RATES, r["ref_groups"]))
        label_of = labels_of[r["attribute_name"]]
        test = (lambda pv, s: _nan(pv)) if p_values else (lambda pv, s: s)
        extra["label_value_significance"].append(test(r["label_value_p"], r["label_value_significant"]))
        extra["score_significance"].append(test(r["score_p"], r["score_significant"]))
        for key in _RATES:
            extra[key + "_disparity"].append(_nan(d[key]))
            extra[key + "_ref_group_value"].append(label_of[ref[key]])
            extra[key + "_significance"].append(test(p[key], sig[key]))
        for key, name in zip(_RATES, _PARITY):
            parity[name].append(_nan(r["parities"][_RATES.index(key)]))
        for name, field in _COMPOSITE:
            parity[name].append(_nan(r[field]))
    frame = {**cols, **extra, **parity}
    out = pd.DataFrame({c: pd.Series(vals, dtype=_dtype(c, vals, p_values)) for c, vals in frame.items()})
    return out


def _dtype(column: str, values: list, p_values: bool):
    if column in ("attribute_name",) or column.endswith("_ref_group_value") or column == "attribute_value":
        return object
    if column.endswith("_significance"):
        return float if p_values else object
    if " " in column:  # determinations: True/False with NaN, as Aequitas' object columns
        return object
    return float
