"""``fairkit.audit(..., target=...)``: the audit of a numeric prediction from Python — the
command's report byte for byte on files, the same numbers from a DataFrame, and every per-group
number equal to scikit-learn, numpy and scipy (1e-12)."""

from __future__ import annotations

import json

import numpy as np
import pandas as pd
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import fairkit
from fairkit._core import FairkitError


def frame(seed: int, n: int = 600, weighted: bool = False) -> pd.DataFrame:
    rng = np.random.default_rng(seed)
    g = rng.choice(["a", "b", "c"], size=n, p=[0.5, 0.3, 0.2])
    y = rng.normal(10, 2, size=n) + (g == "a")
    yhat = y + rng.normal(0.4 * (g == "b"), 1.0, size=n)
    df = pd.DataFrame({"y": y, "yhat": np.round(yhat, 2), "g": g})
    if weighted:
        df["w"] = rng.integers(1, 4, size=n).astype(float)
    return df


def _command(*args: str) -> None:
    import subprocess

    from conformance_cases import fairkit_binary

    p = subprocess.run([fairkit_binary(), *args], capture_output=True, text=True, timeout=300)
    assert p.returncode == 0, p.stderr


def test_a_file_gives_the_commands_report_and_a_dataframe_the_same_numbers(tmp_path):
    df = frame(1, weighted=True)
    path = tmp_path / "rows.parquet"
    df.to_parquet(path, index=False)
    out = tmp_path / "cmd"
    _command("audit", str(path), "--target", "y", "--pred", "yhat", "--sensitive", "g",
             "--weight", "w", "--resamples", "200", "--seed", "3", "--out", str(out), "--quiet")
    got = fairkit.audit(path, target="y", pred="yhat", sensitive=["g"], weight="w",
                        n_resamples=200, seed=3)
    assert got.report_json == (out / "report.json").read_text()
    views = got.report(tmp_path / "py")
    assert views["markdown"] == (out / "report.md").read_text()
    mem = fairkit.audit(df, target="y", pred="yhat", sensitive=["g"], weight="w",
                        n_resamples=200, seed=3)
    a, b = json.loads(got.report_json), json.loads(mem.report_json)
    assert b["input"]["file"] == "pandas DataFrame" and b["input"]["format"] == "arrow"
    for doc in (a, b):
        doc.pop("input")
    assert a == b


def _by_group_reference(df: pd.DataFrame, weights: np.ndarray | None):
    from sklearn.metrics import mean_absolute_error, mean_squared_error, r2_score

    out = {}
    for name, part in df.groupby("g"):
        w = None if weights is None else weights[part.index]
        out[name] = {
            "mean_prediction": np.average(part["yhat"], weights=w),
            "mean_residual": np.average(part["yhat"] - part["y"], weights=w),
            "mean_absolute_error": mean_absolute_error(part["y"], part["yhat"], sample_weight=w),
            "mean_squared_error": mean_squared_error(part["y"], part["yhat"], sample_weight=w),
            "r2_score": r2_score(part["y"], part["yhat"], sample_weight=w),
        }
    return out


@pytest.mark.parametrize("weighted", [False, True])
def test_every_group_equals_scikit_learn_numpy_and_scipy(weighted):
    from scipy.stats import ks_2samp, wasserstein_distance

    df = frame(2, weighted=weighted)
    w = df["w"].to_numpy() if weighted else None
    r = fairkit.audit(df, target="y", pred="yhat", sensitive=["g"],
                      weight="w" if weighted else None, n_resamples=200)
    reg = r.document["regression"]
    groups = {g["group"]: g for g in reg["slices"][0]["groups"]}
    for name, want in _by_group_reference(df, w).items():
        for key, value in want.items():
            got = groups[name]["metrics"][key]["value"]
            assert abs(got - value) <= 1e-12 * max(1.0, abs(value)), (name, key, got, value)
    pooled = df["yhat"].to_numpy()
    if not weighted:
        assert reg["pooled_median"] == np.median(pooled)
        for name, part in df.groupby("g"):
            assert groups[name]["prediction_quantile"] == np.quantile(part["yhat"], 0.5)
            above = (part["yhat"] > np.median(pooled)).mean()
            assert abs(groups[name]["metrics"]["scoring_rate"]["value"] - above) < 1e-12
    else:
        assert reg["pooled_median"] == np.quantile(pooled, 0.5, method="inverted_cdf",
                                                   weights=w)
    values = {n: part["yhat"].to_numpy() for n, part in df.groupby("g")}
    wts = {n: (None if w is None else w[part.index]) for n, part in df.groupby("g")}
    for pair in reg["slices"][0]["pairs"]:
        a, b = pair["groups"]
        w1 = wasserstein_distance(values[a], values[b], wts[a], wts[b])
        assert abs(pair["wasserstein"] - w1) <= 1e-12 * max(1.0, w1)
        if not weighted:
            ks = ks_2samp(values[a], values[b]).statistic
            assert abs(pair["ks"] - ks) <= 1e-12


@settings(max_examples=15, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.lists(st.tuples(st.integers(0, 6), st.integers(0, 6), st.sampled_from("xyz")),
                min_size=6, max_size=40))
def test_property_group_means_and_distances_match_the_references(rows):
    from scipy.stats import wasserstein_distance

    df = pd.DataFrame(rows, columns=["y", "yhat", "g"]).astype({"y": float, "yhat": float})
    if df["g"].nunique() < 2:
        with pytest.raises(FairkitError, match="single value"):
            fairkit.audit(df, target="y", pred="yhat", sensitive=["g"], min_group_size=0,
                          n_resamples=100)
        return
    r = fairkit.audit(df, target="y", pred="yhat", sensitive=["g"], min_group_size=0,
                      n_resamples=100)
    s = r.document["regression"]["slices"][0]
    groups = {g["group"]: g for g in s["groups"]}
    for name, part in df.groupby("g"):
        got = groups[name]["metrics"]["mean_prediction"]["value"]
        assert abs(got - part["yhat"].mean()) < 1e-12
    for pair in s["pairs"]:
        a, b = pair["groups"]
        want = wasserstein_distance(df.loc[df.g == a, "yhat"], df.loc[df.g == b, "yhat"])
        assert abs(pair["wasserstein"] - want) < 1e-12


def test_bad_calls_say_what_to_fix(tmp_path):
    df = frame(3)
    with pytest.raises(FairkitError, match="not both"):
        fairkit.audit(df, label="y", target="y", pred="yhat", sensitive=["g"])
    with pytest.raises(FairkitError, match="name the outcome"):
        fairkit.audit(df, pred="yhat", sensitive=["g"])
    with pytest.raises(FairkitError, match="quantile"):
        fairkit.audit(df, target="y", pred="yhat", sensitive=["g"], quantile=2.0)
    with pytest.raises(FairkitError, match="pred"):
        fairkit.audit(df, target="y", sensitive=["g"])
    bad = df.copy()
    bad.loc[5, "y"] = np.nan
    with pytest.raises(FairkitError, match="row 6"):
        fairkit.audit(bad, target="y", pred="yhat", sensitive=["g"])
    with pytest.raises(FairkitError, match="score"):
        fairkit.audit(df, target="y", pred="yhat", score="yhat", sensitive=["g"])


def test_the_result_names_where_a_regression_audit_lives():
    r = fairkit.audit(frame(4), target="y", pred="yhat", sensitive=["g"], n_resamples=100)
    assert r.regression["target"] == "y"
    assert [s["slice"] for s in r.regression["slices"]] == ["g"]
    with pytest.raises(FairkitError, match="regression"):
        r.slices  # noqa: B018
    assert not r.check("mean_prediction_difference > 100").failed
    with pytest.raises(FairkitError, match="numeric target"):
        r.check("dp_difference > 0.1")


def test_two_regression_audits_compare_and_by_windows():
    a = fairkit.audit(frame(5), target="y", pred="yhat", sensitive=["g"], n_resamples=100)
    shifted = frame(5)
    shifted.loc[shifted.g == "b", "yhat"] += 1.0
    b = fairkit.audit(shifted, target="y", pred="yhat", sensitive=["g"], n_resamples=100)
    c = a.compare(b, n_resamples=200)
    gaps = {g["key"]: g for g in c["changes"][0]["gaps"]}
    assert gaps["mean_residual_difference"]["change"] > 0.5
    assert gaps["mean_residual_difference"]["p_value"] < 0.05
    df = frame(6)
    df["week"] = np.where(np.arange(len(df)) % 2 == 0, "2026-01-05", "2026-01-12")
    r = fairkit.audit(df, target="y", pred="yhat", sensitive=["g"], by="week", window="week",
                      n_resamples=100)
    assert [w["window"] for w in r.document["over_time"]["windows"]] == ["2026-W02", "2026-W03"]
    plain = fairkit.audit(df.drop(columns="week"), target="y", pred="yhat", sensitive=["g"],
                          n_resamples=100)
    assert r.regression == plain.regression
