"""fairkit.metrics.disparities against Aequitas 1.1 (pip ``aequitas``, the differential oracle).

On COMPAS (the data Aequitas' own tutorial audits: ``score`` = decile score above 4, label
``two_year_recid``, attributes race, sex and age category) and on seeded synthetic rows with an
empty-denominator group and a small group, for each reference method Aequitas has (majority,
min_metric, predefined groups): the crosstab, every disparity, reference group, parity and
composite determination equal at 1e-12, and every significance p-value at 1e-9 (Aequitas' come
from scipy's incomplete beta, fairkit's from statrs') with the same True/False mask. Weights off:
Aequitas has none.
"""

from __future__ import annotations

import warnings

import numpy as np
import pandas as pd
import pytest

from fairkit import FairkitError
from fairkit.datasets import fetch_compas
from fairkit.metrics import disparities

# Installed without its dependency pins (they cap pandas below 3): see requirements-test.txt.
from aequitas import group as aequitas_group
from aequitas.bias import Bias
from aequitas.fairness import Fairness

RATES = ["ppr", "pprev", "precision", "fdr", "for", "fpr", "fnr", "tpr", "tnr", "npv"]
CROSSTAB = ["k", "accuracy", "tpr", "tnr", "for", "fdr", "fpr", "fnr", "npv", "precision", "pp",
            "pn", "ppr", "pprev", "fp", "fn", "tn", "tp", "group_label_pos", "group_label_neg",
            "group_size", "total_entities", "prev"]
PARITY = ["Statistical Parity", "Impact Parity", "FDR Parity", "FPR Parity", "FOR Parity",
          "FNR Parity", "TPR Parity", "TNR Parity", "NPV Parity", "Precision Parity",
          "TypeI Parity", "TypeII Parity", "Equalized Odds", "Unsupervised Fairness",
          "Supervised Fairness"]
SIGNIFICANCE = ["label_value_significance", "score_significance"] + [f"{r}_significance" for r in RATES]


def _compas():
    f = fetch_compas().frame
    return pd.DataFrame({
        "score": (f["decile_score"] > 4).astype(int),
        "label_value": f["two_year_recid"].astype(int),
        "race": f["race"].astype(str).astype(object),
        "sex": f["sex"].astype(str).astype(object),
        "age_cat": f["age_cat"].astype(str).astype(object),
    })


def _synthetic():
    rng = np.random.default_rng(20240607)
    n = 900
    race = rng.choice(["grp_A", "grp_B", "grp_C", "grp_D"], n, p=[0.55, 0.3, 0.13, 0.02])
    score = (rng.random(n) < np.where(race == "grp_B", 0.5, 0.35)).astype(int)
    label = (rng.random(n) < 0.4).astype(int)
    score[race == "grp_C"] = 0  # no predicted positives: precision and fdr undefined there
    df = pd.DataFrame({
        "score": score, "label_value": label, "race": race,
        "region": rng.choice(["north", "south", "east"], n),
    })
    # Aequitas accepts object columns only (pandas 3 infers its str dtype from strings).
    return df.astype({"race": object, "region": object})


def _aequitas(df, attrs, method, ref_groups):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        xtab, _ = aequitas_group.Group().get_crosstabs(df, attr_cols=attrs)
        b = Bias()
        kw = dict(original_df=df.copy(), check_significance=True, mask_significance=False)
        if method == "largest":
            out = b.get_disparity_major_group(xtab, **kw)
        elif method == "min_metric":
            out = b.get_disparity_min_metric(xtab, **kw)
        else:
            out = b.get_disparity_predefined_groups(xtab, ref_groups_dict=ref_groups, **kw)
        out = Fairness().get_group_value_fairness(out)
    return out.sort_values(["attribute_name", "attribute_value"]).reset_index(drop=True)


def _same(a, b):
    return (a is None and b is None) or (a is not None and b is not None and (
        (isinstance(a, float) and isinstance(b, float) and np.isnan(a) and np.isnan(b)) or a == b))


def _check(df, attrs, method, ref_groups=None):
    theirs = _aequitas(df, attrs, method, ref_groups)
    reference = ref_groups if method == "predefined" else method
    kw = dict(sensitive_features=df[attrs], reference=reference)
    ours_p = disparities(df["label_value"], df["score"], p_values=True, **kw)
    ours_m = disparities(df["label_value"], df["score"], **kw)
    order = ["attribute_name", "attribute_value"]
    ours_p = ours_p.sort_values(order).reset_index(drop=True)
    ours_m = ours_m.sort_values(order).reset_index(drop=True)
    assert list(ours_p[order].itertuples(index=False)) == list(theirs[order].itertuples(index=False))
    numeric = CROSSTAB + [f"{r}_disparity" for r in RATES]
    np.testing.assert_allclose(ours_p[numeric].to_numpy(float), theirs[numeric].to_numpy(float),
                               rtol=1e-12, atol=1e-12, equal_nan=True)
    for r in RATES:
        assert list(ours_p[f"{r}_ref_group_value"]) == list(theirs[f"{r}_ref_group_value"]), r
    for c in PARITY:
        for k, (a, b) in enumerate(zip(ours_p[c], theirs[c])):
            assert _same(_py(a), _py(b)), (method, c, k, a, b)
    np.testing.assert_allclose(ours_p[SIGNIFICANCE].to_numpy(float),
                               theirs[SIGNIFICANCE].to_numpy(float), rtol=0, atol=1e-9,
                               equal_nan=True)
    # Aequitas' mask (bias.py): np.select([p < alpha, p >= alpha], [True, False], default=None).
    for c in SIGNIFICANCE:
        p = theirs[c].to_numpy(float)
        mask = [True if x < 0.05 else False if x >= 0.05 else None for x in p]
        assert [_py(x) for x in ours_m[c]] == mask, c
    return ours_p


def _py(x):
    if isinstance(x, np.generic):
        x = x.item()
    return x


@pytest.mark.parametrize("method", ["largest", "min_metric", "predefined"])
def test_compas_equals_aequitas(method):
    df = _compas()
    refs = {"race": "Caucasian", "sex": "Male", "age_cat": "25 - 45"}
    ours = _check(df, ["race", "sex", "age_cat"], method, refs)
    assert len(ours) == 6 + 2 + 3  # one row per value, not per intersection


@pytest.mark.parametrize("method", ["largest", "min_metric", "predefined"])
def test_synthetic_equals_aequitas(method):
    df = _synthetic()
    ours = _check(df, ["race", "region"], method, {"race": "grp_B", "region": "south"})
    c = ours[ours["attribute_value"] == "grp_C"].iloc[0]
    assert np.isnan(c["precision"]) and np.isnan(c["precision_disparity"])


def test_options_are_validated_in_rust():
    y, p, s = [1, 0, 1, 0], [1, 1, 0, 0], {"sex": ["f", "f", "m", "m"]}
    with pytest.raises(FairkitError, match=r'"x" is not a value of attribute "sex".*f, m'):
        disparities(y, p, sensitive_features=s, reference={"sex": "x"})
    with pytest.raises(FairkitError, match="tau"):
        disparities(y, p, sensitive_features=s, tau=1.25)
    with pytest.raises(FairkitError, match="tau"):
        disparities(y, p, sensitive_features=s, tau=0.0)
    with pytest.raises(FairkitError, match="'largest', 'min_metric'"):
        disparities(y, p, sensitive_features=s, reference="majority")
    with pytest.raises(FairkitError, match='no group for attribute "age"'):
        disparities(y, p, sensitive_features={**s, "age": ["o", "y", "o", "y"]}, reference={"sex": "f"})
    with pytest.raises(FairkitError, match="not a sensitive feature"):
        disparities(y, p, sensitive_features=s, reference={"sex": "f", "race": "a"})


def test_weights_scale_free_and_integer_weights_replicate_rows():
    rng = np.random.default_rng(3)
    n = 200
    y, p = rng.integers(0, 2, n), rng.integers(0, 2, n)
    g = rng.choice(["u", "v", "w"], n)
    w = rng.integers(1, 4, n).astype(float)
    a = disparities(y, p, sensitive_features=g, sample_weight=w, p_values=True)
    b = disparities(y, p, sensitive_features=g, sample_weight=w * 0.125, p_values=True)
    cols = [f"{r}_disparity" for r in RATES] + RATES
    np.testing.assert_array_equal(a[cols].to_numpy(float), b[cols].to_numpy(float))
    # Integer weights are frequency weights: the same as the replicated rows, p-values included.
    rep = np.repeat(np.arange(n), w.astype(int))
    c = disparities(y[rep], p[rep], sensitive_features=g[rep], p_values=True)
    np.testing.assert_allclose(a[cols + SIGNIFICANCE].to_numpy(float),
                               c[cols + SIGNIFICANCE].to_numpy(float), rtol=1e-12, equal_nan=True)


def test_docs_example_runs(capsys):
    import re
    from pathlib import Path

    text = (Path(__file__).resolve().parents[2] / "docs" / "python.md").read_text(encoding="utf-8")
    section = text.split("## Reference-group disparities", 1)[1]
    block = re.findall(r"```python\n(.*?)```", section, flags=re.S)[0]
    exec(compile(block, "docs/python.md", "exec"), {})
    assert "pprev_disparity" in capsys.readouterr().out


# -- the audit's disparities (report.json's audits[].slices[].disparities) --------------------

def _audit_frame(df, attrs, reference, **kw):
    import fairkit

    r = fairkit.audit(df, label="label_value", pred="score", sensitive=attrs,
                      disparity_reference=reference, n_resamples=100, min_group_size=0, **kw)
    return r, r.disparities(p_values=True).sort_values(
        ["attribute_name", "attribute_value"]).reset_index(drop=True)


@pytest.mark.parametrize("method", ["largest", "min_metric", "predefined"])
def test_audit_disparities_equal_the_metric_and_aequitas(method):
    """fairkit.audit's disparities (from its own confusion cells) equal
    fairkit.metrics.disparities on the same rows column for column, the intersection slice
    equals Aequitas on the joined column, and every column has Aequitas' name."""
    df = _synthetic()
    df["race & region"] = (df["race"] + " & " + df["region"]).astype(object)
    named = {"race": "grp_B", "region": "south", "race & region": "grp_A & north"}
    reference = named if method == "predefined" else method
    r, ours = _audit_frame(df, ["race", "region"], reference)
    assert r.document["settings"]["disparity"]["reference"][0] == (
        "largest" if method == "predefined" else method)
    attrs = ["race", "region", "race & region"]
    metric = disparities(df["label_value"], df["score"], sensitive_features=df[attrs],
                         reference=named if method == "predefined" else method, p_values=True)
    metric = metric.sort_values(["attribute_name", "attribute_value"]).reset_index(drop=True)
    assert list(ours.columns) == list(metric.columns)
    pd.testing.assert_frame_equal(ours, metric, check_exact=True)
    if method == "min_metric":
        # Aequitas 1.1's own min_metric significance fails on this intersection (scipy raises
        # "cannot convert float NaN to integer" in its pre-tests of a tiny group): compare the
        # two columns with it, the intersection with fairkit.metrics above.
        attrs = ["race", "region"]
        ours = ours[ours["attribute_name"].isin(attrs)].reset_index(drop=True)
    theirs = _aequitas(df, attrs, method, named)
    numeric = CROSSTAB + [f"{x}_disparity" for x in RATES]
    np.testing.assert_allclose(ours[numeric].to_numpy(float), theirs[numeric].to_numpy(float),
                               rtol=1e-12, atol=1e-12, equal_nan=True)
    for x in RATES:
        assert list(ours[f"{x}_ref_group_value"]) == list(theirs[f"{x}_ref_group_value"]), x
    for c in PARITY:
        assert [_py(a) for a in ours[c]] == [_py(b) for b in theirs[c]] or all(
            _same(_py(a), _py(b)) for a, b in zip(ours[c], theirs[c])), c
    np.testing.assert_allclose(ours[SIGNIFICANCE].to_numpy(float),
                               theirs[SIGNIFICANCE].to_numpy(float), rtol=0, atol=1e-9,
                               equal_nan=True)


def test_audit_disparity_options_gates_and_errors(tmp_path):
    import fairkit

    df = _synthetic()
    r, ours = _audit_frame(df, ["race"], "largest", tau=0.9)
    assert r.document["settings"]["disparity"]["tau"] == 0.9
    # tau=0.9: parity is [0.9, 1/0.9]; every determination follows from the disparity.
    d = ours["fpr_disparity"]
    want = [None if np.isnan(x) else bool(0.9 <= x <= 1 / 0.9) for x in d]
    assert [_py(x) if not (isinstance(x, float) and np.isnan(x)) else None
            for x in ours["FPR Parity"]] == want
    folded = min((min(x, 1 / x) if x > 0 else 0.0) for x in d if not np.isnan(x))
    out = r.check(f"fpr_disparity < {folded + 1e-9}", f"fpr_disparity < {folded - 1e-9}",
                  "parity_failures > 0")
    assert [o["failed"] for o in out.outcomes] == [True, False, True]
    # A file goes through the command's readers: the options reach them too.
    path = tmp_path / "rows.parquet"
    df.to_parquet(path)
    from_file = fairkit.audit(str(path), label="label_value", pred="score", sensitive=["race"],
                              disparity_reference="min", tau=0.9, n_resamples=100)
    assert from_file.document["settings"]["disparity"]["tau"] == 0.9
    in_memory = fairkit.audit(df, label="label_value", pred="score", sensitive=["race"],
                              disparity_reference="min", tau=0.9, n_resamples=100)
    pd.testing.assert_frame_equal(from_file.disparities(), in_memory.disparities())
    with pytest.raises(FairkitError, match=r"disparity_reference.*no group \"grp_Z\""):
        fairkit.audit(df, label="label_value", pred="score", sensitive=["race"],
                      disparity_reference={"race": "grp_Z"}, n_resamples=100)
    with pytest.raises(FairkitError, match="tau"):
        fairkit.audit(df, label="label_value", pred="score", sensitive=["race"], tau=1.5)
    with pytest.raises(FairkitError, match="disparity_reference"):
        fairkit.audit(df, label="label_value", pred="score", sensitive=["race"],
                      disparity_reference={"age": "old"})
