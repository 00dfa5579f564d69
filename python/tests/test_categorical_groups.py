"""Categorical and string sensitive features (issue 28): a pandas categorical is counted from its
codes (no per-row values), strings are hashed once, and both give fairlearn's answer — the same
groups (the categories that occur, in value order), the same numbers, the same errors."""

import numpy as np
import pandas as pd
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import fairlearn.metrics as flm
import fairkit.metrics as fkm
from fairkit._core import FairkitError


def rows(n, seed=0):
    rng = np.random.default_rng(seed)
    return rng.integers(0, 2, n), rng.integers(0, 2, n)


@pytest.mark.parametrize("categories", [["a", "m", "z"], ["z", "a", "m", "unused"], [3, 1, 2]])
def test_categorical_groups_equal_fairlearns(categories):
    y, p = rows(300)
    codes = np.arange(300) % 3
    cat = pd.Categorical.from_codes(codes, categories)
    for sf in (cat, pd.Series(cat, name="g")):
        ours = fkm.MetricFrame(metrics=fkm.selection_rate, y_true=y, y_pred=p,
                               sensitive_features=sf)
        theirs = flm.MetricFrame(metrics=flm.selection_rate, y_true=y, y_pred=p,
                                 sensitive_features=sf)
        pd.testing.assert_series_equal(ours.by_group, theirs.by_group)
        assert fkm.demographic_parity_difference(y, p, sensitive_features=sf) == \
            flm.demographic_parity_difference(y, p, sensitive_features=sf)
        # The per-row values are there for whoever reads them (fairlearn's raw_feature_).
        feature = ours._process_features("sensitive_feature_", sf, y)[0]
        assert list(feature.raw_feature_[:3]) == list(cat[:3])


def test_a_missing_category_is_an_error_naming_the_row():
    y, p = rows(10)
    cat = pd.Categorical(["a", "b", None, "a", "b", "a", "b", "a", "b", "a"])
    with pytest.raises(FairkitError, match="row 2"):
        fkm.demographic_parity_difference(y, p, sensitive_features=cat)


@settings(max_examples=40, deadline=None)
@given(st.lists(st.integers(0, 4), min_size=2, max_size=60),
       st.permutations(["v", "b", "x", "a", "k"]), st.integers(0, 2**31))
def test_any_categorical_or_strings_give_fairlearns_numbers(codes, categories, seed):
    codes = np.array(codes)
    y, p = rows(len(codes), seed)
    cat = pd.Categorical.from_codes(codes, list(categories))
    strings = np.asarray(cat, dtype=object)
    want = flm.MetricFrame(metrics={"sel": flm.selection_rate, "acc": flm.count}, y_true=y,
                           y_pred=p, sensitive_features=strings).by_group
    for sf in (cat, pd.Series(cat), strings, list(strings)):
        got = fkm.MetricFrame(metrics={"sel": fkm.selection_rate, "acc": flm.count}, y_true=y,
                              y_pred=p, sensitive_features=sf).by_group
        pd.testing.assert_frame_equal(got, want, check_names=False)
