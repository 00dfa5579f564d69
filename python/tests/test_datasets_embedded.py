"""fairkit.datasets: the embedded files, checksummed, shaped like fairlearn's fetch_* (issue 25).

The golden counts are those of ``crates/fair-data/DATA.md`` (asserted for the Rust recipes in
``tests/datasets.rs``), so the Python loaders read the same rows as the Rust ones.
"""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest

import fairkit
import fairkit.datasets as ds
from fairkit._core import datasets as core

CASES = [
    # fetch, rows, features, target, positive value, positives
    (ds.fetch_adult, 48_842, 14, "class", ">50K", 11_687),
    (ds.fetch_compas, 7_214, 52, "two_year_recid", 1, 3_251),
    (ds.fetch_german_credit, 1_000, 20, "class", "bad", 300),
    (ds.fetch_default_credit, 30_000, 32, "default-payment-next-month", 1, 6_636),
    (ds.fetch_law_school, 21_791, 13, "pass_bar", 1, 19_360),
    (ds.fetch_communities_crime, 1_993, 149, "high_crime", 1, 653),
]


@pytest.mark.parametrize(("fetch", "rows", "n_features", "target", "positive", "positives"), CASES)
def test_bunch_shapes_and_golden_counts(fetch, rows, n_features, target, positive, positives):
    b = fetch()
    assert isinstance(b, ds.Bunch)
    assert set(b) >= {"data", "target", "frame", "feature_names", "target_names", "DESCR", "sha256"}
    assert isinstance(b.data, pd.DataFrame) and b.data.shape == (rows, n_features)
    assert isinstance(b.target, pd.Series) and b.target.name == target
    assert b.frame.shape == (rows, n_features + 1)
    assert b.feature_names == list(b.data.columns)
    assert int((b.target == positive).sum()) == positives
    X, y = fetch(return_X_y=True)
    pd.testing.assert_frame_equal(X, b.data)
    pd.testing.assert_series_equal(y, b.target)
    Xn, yn = fetch(as_frame=False, return_X_y=True)
    assert isinstance(Xn, np.ndarray) and Xn.shape == (rows, n_features)
    assert isinstance(yn, np.ndarray) and int((yn == positive).sum()) == positives
    assert fetch(as_frame=False).frame is None


def test_adult_groups_and_missing_values_like_openml():
    b = ds.fetch_adult()
    assert b.target_names == ["class"]  # fairlearn's (scikit-learn's): the target column
    assert b.target.cat.categories.tolist() == ["<=50K", ">50K"]
    assert b.data["sex"].value_counts().to_dict() == {"Male": 32_650, "Female": 16_192}
    assert isinstance(b.data["race"].dtype, pd.CategoricalDtype)
    # '?' is missing, as in OpenML's copy (workclass has 2,799 of them over the two files)
    assert int(b.data["workclass"].isna().sum()) == 2_799
    assert not b.target.isna().any()


def test_checksums_are_the_published_ones():
    published = dict(core.embedded_files())
    assert published["adult.data"] == (
        "5b00264637dbfec36bdeaab5676b0b309ff9eb788d63554ca0a249491c86603d"
    )
    assert ds.fetch_law_school().sha256 == {"law_school.csv": published["law_school.csv"]}
    with pytest.raises(fairkit.FairkitError, match='no embedded file "nope".*adult.data'):
        core.embedded_text("nope")


def test_a_dataset_through_metricframe():
    """The loaders feed fairkit's metrics directly: selection rate of the true label by sex."""
    from fairkit.metrics import MetricFrame, selection_rate

    b = ds.fetch_adult()
    y = (b.target == ">50K").to_numpy().astype(int)
    mf = MetricFrame(metrics=selection_rate, y_true=y, y_pred=y, sensitive_features=b.data["sex"])
    female = int(((b.data["sex"] == "Female").to_numpy() & (y == 1)).sum()) / 16_192
    assert mf.by_group["Female"] == pytest.approx(female, rel=1e-15)
