"""One definition per metric name (docs/conventions.md): on a group without positives the audit
report skips the group in the equal-opportunity gap and names it there with the reason and
fairlearn's value, while ``fairkit.metrics`` keeps fairlearn's convention (TPR counted as 0)
and equals fairlearn on the same rows.
"""

from __future__ import annotations

import json
import math

import numpy as np
import pandas as pd
from fairlearn.metrics import equal_opportunity_difference as fl_eod
from fairlearn.metrics import equalized_odds_difference as fl_eqod

import fairkit.metrics as fm
from fairkit import audit as audit_local


def four_groups(seed: int = 3, n: int = 4000) -> pd.DataFrame:
    """Groups a, b, c with both labels; group d has no positive rows."""
    rng = np.random.default_rng(seed)
    g = rng.choice(["a", "b", "c", "d"], n, p=[0.4, 0.3, 0.2, 0.1])
    y = rng.integers(0, 2, n)
    y[g == "d"] = 0
    p = np.where(rng.random(n) < 0.8, y, 1 - y)
    return pd.DataFrame({"y": y.astype(np.int64), "p": p.astype(np.int64), "g": g})


def test_the_report_names_the_group_without_positives_and_metrics_stay_fairlearn():
    df = four_groups()
    assert (df.loc[df["g"] == "d", "y"] == 0).all()
    text = audit_local(df, label="y", pred="p", sensitive=["g"], n_resamples=200,
                       seed=1).report(formats=["json"])
    report = json.loads(text["json"])
    gaps = {g["key"]: g for g in report["audits"][0]["slices"][0]["gaps"]}
    eo = gaps["eo_difference"]
    assert eo["undefined_groups"] == [
        {"group": "d", "rate": "true_positive_rate", "reason": "no positive rows: TPR undefined"}
    ]

    # The audit's value: max - min of the TPR over a, b, c only.
    tpr = {k: ((s["y"] == 1) & (s["p"] == 1)).sum() / (s["y"] == 1).sum()
           for k, s in df.groupby("g") if k != "d"}
    assert math.isclose(eo["value"], max(tpr.values()) - min(tpr.values()), rel_tol=1e-12)

    # fairkit.metrics is fairlearn-exact: TPR(d) = 0, a different number under the same name,
    # which the report states at the gap.
    kw = dict(sensitive_features=df["g"])
    ours = fm.equal_opportunity_difference(df["y"], df["p"], **kw)
    theirs = fl_eod(df["y"], df["p"], **kw)
    assert ours == theirs
    assert math.isclose(theirs, max(tpr.values()), rel_tol=1e-12)
    assert abs(theirs - eo["value"]) > 0.1
    assert math.isclose(eo["fairlearn_value"], theirs, rel_tol=1e-12, abs_tol=1e-12)
    assert math.isclose(gaps["eq_odds_difference"]["fairlearn_value"],
                        fl_eqod(df["y"], df["p"], **kw), rel_tol=1e-12, abs_tol=1e-12)
    assert math.isclose(fm.equalized_odds_difference(df["y"], df["p"], **kw),
                        fl_eqod(df["y"], df["p"], **kw), rel_tol=1e-12, abs_tol=1e-12)

    # The headline carries the note, and the summary says so, naming the group.
    assert report["headline"]["eo_difference"]["undefined_groups"][0]["group"] == "d"
    said = [s for s in report["summary"] if s.startswith("The headline eo_difference")]
    assert len(said) == 1 and '"d" (no positive rows: TPR undefined)' in said[0]
    assert "equal_opportunity_difference" in said[0] and f"{theirs:.3f}" in said[0]

    # Gaps that never skip a group carry neither field.
    assert "undefined_groups" not in gaps["dp_difference"]
    assert "fairlearn_value" not in gaps["dp_difference"]
