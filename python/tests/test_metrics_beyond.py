"""Metrics beyond fairlearn against independent references (scipy, scikit-learn, brute force)."""

from __future__ import annotations

import itertools
import math

import numpy as np
import pytest
import scipy.stats
import sklearn.metrics as skm
from hypothesis import given
from hypothesis import strategies as st

import fairkit
import fairkit.metrics as fk

TOL = 1e-12


@st.composite
def scored(draw, max_rows=40, weighted=None):
    n = draw(st.integers(2, max_rows))
    k = draw(st.integers(2, 4))
    groups = draw(st.lists(st.integers(0, k - 1), min_size=n, max_size=n))
    # Few distinct score values so ties within and across groups are common.
    scores = draw(st.lists(st.integers(-4, 4).map(lambda x: x / 4), min_size=n, max_size=n))
    labels = draw(st.lists(st.integers(0, 1), min_size=n, max_size=n))
    w = None
    if weighted if weighted is not None else draw(st.booleans()):
        w = np.array(draw(st.lists(st.floats(0.1, 5.0), min_size=n, max_size=n)))
    return np.array(labels), np.array(scores), np.array(["g%d" % g for g in groups]), w


def ccdf(scores, w, theta):
    """Weighted fraction of scores strictly above theta."""
    w = np.ones(len(scores)) if w is None else w
    return float(w[scores > theta].sum() / w.sum())


def band(x, alpha, beta):
    return (min(max(x, alpha), beta) - alpha) / (beta - alpha)


def brute_partial(scores, groups, w, alpha, beta, thetas):
    best = 0.0
    names = sorted(set(groups))
    for a, b in itertools.combinations(names, 2):
        ma, mb = groups == a, groups == b
        wa = None if w is None else w[ma]
        wb = None if w is None else w[mb]
        for t in thetas:
            gap = abs(band(ccdf(scores[ma], wa, t), alpha, beta) -
                      band(ccdf(scores[mb], wb, t), alpha, beta))
            best = max(best, gap)
    return best


@given(scored(weighted=False))
def test_ks_equals_scipy_two_sample_statistic(data):
    _, s, g, _ = data
    names = sorted(set(g))
    expected = max(
        (scipy.stats.ks_2samp(s[g == a], s[g == b]).statistic
         for a, b in itertools.combinations(names, 2)),
        default=0.0,
    )
    got = fk.demographic_parity_ks(s, sensitive_features=g)
    assert abs(float(got) - expected) <= TOL
    assert got.matrix.shape == (len(names), len(names))
    a, b = got.worst_pair
    assert abs(got.matrix.loc[a, b] - got.value) <= TOL


@given(scored(), st.sampled_from([(0.0, 1.0), (0.0, 0.2), (0.1, 0.6), (0.5, 1.0)]))
def test_partial_statistical_parity_brute_force(data, interval):
    _, s, g, w = data
    thetas = np.concatenate([[-np.inf], np.unique(s)])
    expected = brute_partial(s, g, w, *interval, thetas)
    got = fk.partial_statistical_parity(s, sensitive_features=g, interval=interval, sample_weight=w)
    assert abs(got.value - expected) <= TOL
    if interval == (0.0, 1.0):
        ks = fk.demographic_parity_ks(s, sensitive_features=g, sample_weight=w)
        assert got.value == ks.value


@given(scored(), st.sampled_from([0.0, -0.5, 0.25]), st.sampled_from([(0.0, 1.0), (0.0, 0.3)]))
def test_partial_demographic_parity_brute_force(data, threshold, interval):
    _, s, g, w = data
    expected = brute_partial(s, g, w, *interval, [threshold])
    got = fk.partial_demographic_parity(s, sensitive_features=g, interval=interval,
                                        threshold=threshold, sample_weight=w)
    assert abs(got.value - expected) <= TOL


@given(scored())
def test_equal_opportunity_ks_is_ks_among_positives(data):
    y, s, g, w = data
    pos = y == 1
    if len(set(g)) != len(set(g[pos])):
        with pytest.raises(fairkit.FairkitError, match="undefined|positives|no rows"):
            fk.equal_opportunity_ks(y, s, sensitive_features=g, sample_weight=w)
        return
    thetas = np.concatenate([[-np.inf], np.unique(s)])
    expected = brute_partial(s[pos], g[pos], None if w is None else w[pos], 0.0, 1.0, thetas)
    got = fk.equal_opportunity_ks(y, s, sensitive_features=g, sample_weight=w)
    assert abs(got.value - expected) <= TOL


@given(scored())
def test_auc_by_group_matches_sklearn(data):
    y, s, g, w = data
    if len(set(y)) < 2 or not any(len(set(y[g == k])) == 2 for k in set(g)):
        with pytest.raises(fairkit.FairkitError, match="undefined"):
            fk.auc_by_group(y, s, sensitive_features=g, sample_weight=w)
        return
    res = fk.auc_by_group(y, s, sensitive_features=g, sample_weight=w)
    assert abs(res.overall - skm.roc_auc_score(y, s, sample_weight=w)) <= TOL
    for name, value in res.by_group.items():
        m = g == name
        if len(set(y[m])) < 2:
            assert math.isnan(value)
        else:
            ref = skm.roc_auc_score(y[m], s[m], sample_weight=None if w is None else w[m])
            assert abs(value - ref) <= TOL


@st.composite
def multiclass(draw):
    n = draw(st.integers(2, 40))
    c = draw(st.integers(2, 4))
    cls = st.lists(st.sampled_from(["cat", "dog", "eel", "fox"][:c]), min_size=n, max_size=n)
    g = draw(st.lists(st.integers(0, 2), min_size=n, max_size=n))
    return np.array(draw(cls)), np.array(draw(cls)), np.array(g)


@given(multiclass())
def test_multiclass_statistical_parity_brute_force(data):
    _, yp, g = data
    classes = np.unique(yp)
    expected = 0.0
    for c in classes:
        rates = [np.mean(yp[g == k] == c) for k in np.unique(g)]
        expected = max(expected, max(rates) - min(rates))
    got = fk.multiclass_statistical_parity(yp, sensitive_features=g)
    assert abs(got.value - expected) <= TOL


@given(multiclass())
def test_multiclass_equalized_odds_brute_force(data):
    yt, yp, g = data
    classes = np.unique(np.concatenate([yt, yp]))
    best = None
    for c in classes:
        for a, b in itertools.combinations(np.unique(g), 2):
            terms = []
            for k in (a, b):
                m = g == k
                pos, neg = yt[m] == c, yt[m] != c
                if not pos.any() or not neg.any():
                    break
                terms.append((np.mean(yp[m][pos] == c), np.mean(yp[m][neg] == c)))
            if len(terms) == 2:
                gap = 0.5 * (abs(terms[0][0] - terms[1][0]) + abs(terms[0][1] - terms[1][1]))
                best = gap if best is None else max(best, gap)
    if len(np.unique(g)) == 1:
        best = 0.0  # one group: no pair, the crate's documented value is 0
    if best is None:
        with pytest.raises(fairkit.FairkitError, match="undefined"):
            fk.multiclass_equalized_odds(yt, yp, sensitive_features=g)
        return
    got = fk.multiclass_equalized_odds(yt, yp, sensitive_features=g)
    assert abs(got.value - best) <= TOL


def test_bad_interval_and_scores():
    s, g = np.array([0.1, 0.2, 0.3, 0.4]), ["a", "a", "b", "b"]
    with pytest.raises(fairkit.FairkitError, match=r"invalid percentile interval \[0.5, 0.2\)"):
        fk.partial_statistical_parity(s, sensitive_features=g, interval=(0.5, 0.2))
    with pytest.raises(fairkit.FairkitError, match=r"y_score has a non-finite value \(NaN\) at row 1|scores has a non-finite value \(NaN\) at row 1"):
        fk.demographic_parity_ks([0.1, np.nan, 0.2, 0.3], sensitive_features=g)
    with pytest.raises(fairkit.FairkitError, match="y_score must be numeric"):
        fk.demographic_parity_ks(["x", "y", "z", "w"], sensitive_features=g)
    with pytest.raises(fairkit.FairkitError, match="interval must be a pair"):
        fk.partial_demographic_parity(s, sensitive_features=g, interval=0.3)
