"""``fairkit.audit(..., query=..., rank=...)``: the audit of rankings from Python — values by
hand, equal to scikit-learn's tie-averaged DCG where the quantities are the same, files and
DataFrames alike, and bad inputs refused with the column and row named."""

import math

import numpy as np
import pandas as pd
import pytest
from sklearn.metrics import dcg_score

import fairkit
from fairkit import FairkitError

HAND = pd.DataFrame({
    "q": ["a", "a", "a", "b", "b"],
    "pos": [1, 2, 3, 1, 2],
    "g": ["x", "x", "y", "y", "x"],
    "rel": [2.0, 0.0, 1.0, 1.0, 1.0],
})


def v(i):
    return 1.0 / math.log2(1.0 + i)


def groups(result, slice_=0):
    return {g["group"]: g for g in result.ranking["slices"][slice_]["groups"]}


def test_two_queries_by_hand():
    r = fairkit.audit(HAND, query="q", rank="pos", sensitive=["g"], relevance="rel",
                      top_k=[1, 2], n_resamples=200)
    g = groups(r)
    e0, e1 = 1 + 2 * v(2), 1.5
    assert g["x"]["exposure_share"]["value"] == pytest.approx(e0 / (e0 + e1), abs=1e-12)
    assert g["y"]["exposure_per_relevance"]["value"] == pytest.approx(0.75, abs=1e-12)
    assert g["x"]["ndcg"]["value"] == pytest.approx((1 + v(2)) / 2, abs=1e-12)
    assert [t["share"]["value"] for t in g["x"]["top_k_share"]] == [0.5, 0.75]
    want = ((e1 / (e0 + e1)) / 0.4) / ((e0 / (e0 + e1)) / 0.6)
    assert r.headline["exposure_ratio"].value == pytest.approx(want, abs=1e-12)
    assert r.ranking["queries"] == 2
    with pytest.raises(FairkitError, match="query="):
        r.slices


def test_scores_rank_highest_first_and_files_equal_tables(tmp_path):
    by_score = HAND.assign(s=[0.9, 0.8, 0.7, 0.9, 0.2]).drop(columns="pos").sample(
        frac=1.0, random_state=3)
    a = fairkit.audit(HAND, query="q", rank="pos", sensitive=["g"], relevance="rel",
                      n_resamples=200)
    b = fairkit.audit(by_score, query="q", score="s", sensitive=["g"], relevance="rel",
                      n_resamples=200)
    path = tmp_path / "r.csv"
    HAND.to_csv(path, index=False)
    c = fairkit.audit(path, query="q", rank="pos", sensitive=["g"], relevance="rel",
                      n_resamples=200)
    assert a.ranking["slices"] == b.ranking["slices"] == c.ranking["slices"]


def test_equals_scikit_learn_dcg_with_ties():
    # Integer scores in a small range: many ties, which scikit-learn's dcg_score averages over
    # the tied positions (ignore_ties=False), as the audit does. With the query's relevance
    # masked to a group, its DCG is the group's impact (Σ relevance × discount); with the mask
    # as the relevance, the group's exposure; its items alone ranked by relevance, the ideal.
    rng = np.random.default_rng(5)
    rows = []
    for q in range(30):
        n = int(rng.integers(2, 9))
        for _ in range(n):
            rows.append((f"q{q}", int(rng.integers(0, 4)), "ab"[int(rng.integers(0, 2))],
                         float(rng.integers(0, 4))))
    df = pd.DataFrame(rows, columns=["q", "s", "g", "rel"])
    r = fairkit.audit(df, query="q", score="s", sensitive=["g"], relevance="rel",
                      n_resamples=100)
    got = groups(r)
    exposure, impact, relevance, ndcg = {}, {}, {}, {}
    for _, d in df.groupby("q"):
        s = d["s"].to_numpy(float)[None, :]
        for name in "ab":
            m = (d["g"] == name).to_numpy()
            rel = d["rel"].to_numpy()
            exposure[name] = exposure.get(name, 0.0) + dcg_score(m[None, :].astype(float), s)
            dcg = dcg_score((rel * m)[None, :], s)
            impact[name] = impact.get(name, 0.0) + dcg
            relevance[name] = relevance.get(name, 0.0) + rel[m].sum()
            if m.sum() >= 2 and rel[m].sum() > 0:
                ideal = dcg_score(rel[m][None, :], rel[m][None, :])
                ndcg.setdefault(name, []).append(dcg / ideal)
            elif m.sum() == 1 and rel[m].sum() > 0:
                # scikit-learn needs two items; one item's ideal DCG is its relevance.
                ndcg.setdefault(name, []).append(dcg / rel[m].sum())
    total = sum(exposure.values())
    for name in "ab":
        assert got[name]["exposure_share"]["value"] == pytest.approx(
            exposure[name] / total, abs=1e-12)
        assert got[name]["impact_per_relevance"]["value"] == pytest.approx(
            impact[name] / relevance[name], abs=1e-12)
        assert got[name]["exposure_per_relevance"]["value"] == pytest.approx(
            exposure[name] / relevance[name], abs=1e-12)
        assert got[name]["ndcg"]["value"] == pytest.approx(np.mean(ndcg[name]), abs=1e-12)


def test_bad_inputs_name_the_column_and_row(tmp_path):
    with pytest.raises(FairkitError, match=r"column 'qq' \(given by query=\)"):
        fairkit.audit(HAND, query="qq", rank="pos", sensitive=["g"])
    bad = HAND.assign(pos=[1.0, float("inf"), 3.0, 1.0, 2.0])
    with pytest.raises(FairkitError, match=r"row 2.*column 'pos'"):
        fairkit.audit(bad, query="q", rank="pos", sensitive=["g"])
    with pytest.raises(FairkitError, match="rank"):
        fairkit.audit(HAND, query="q", sensitive=["g"])
    with pytest.raises(FairkitError, match="no label"):
        fairkit.audit(HAND, query="q", rank="pos", label="rel", sensitive=["g"])
    with pytest.raises(FairkitError, match="fair_alpha"):
        fairkit.audit(HAND, query="q", rank="pos", sensitive=["g"], fair_alpha=2.0)
    with pytest.raises(FairkitError, match="at least 0"):
        fairkit.audit(HAND.assign(rel=[1.0, -1.0, 0.0, 0.0, 0.0]), query="q", rank="pos",
                      sensitive=["g"], relevance="rel")
    # A query of one item is a ranking: it counts, and FA*IR's test does not run on it.
    one = pd.DataFrame({"q": ["a", "b"], "pos": [1, 1], "g": ["x", "y"]})
    r = fairkit.audit(one, query="q", rank="pos", sensitive=["g"], n_resamples=100)
    assert r.ranking["queries"] == 2
    assert all(g["fair_tested"] == 0 for g in r.ranking["slices"][0]["groups"])

