"""fairkit.datasets' loaders named as fairlearn's return fairlearn's rows: order, names, dtypes,
categories, target encoding and Bunch, pinned against public sources.

Sources:

* OpenML data set 1590 ("adult", version 2), what ``fairlearn.datasets.fetch_adult`` downloads
  through scikit-learn's ``fetch_openml(data_id=1590)``. scikit-learn records it in its test
  fixture ``sklearn/datasets/tests/data/openml/id_1590/`` (github.com/scikit-learn/scikit-learn):
  ``data-v1-dl-1595261.arff.gz`` (OpenML's adult.arff header and its first 10 records),
  ``api-v1-jdf-1590.json.gz`` (the features: names, order, types, each nominal column's values
  and missing-value count over all 48,842 rows). The first rows and counts below are copied from
  it. OpenML's description says the file is UCI's training and test sets merged; its first
  records are adult.test's first lines, so the last record is adult.data's last line (UCI's
  ``adult.data``, embedded, sha256 in crates/fair-data/DATA.md).
* Default of Credit Card Clients (Yeh & Lien 2009, UCI): the first and last rows of UCI's file
  in its ID order, with UCI's coding (SEX 1 = male, 2 = female); fairlearn's feature names from
  ``fairlearn/datasets/_fetch_credit_card.py``.
"""

from __future__ import annotations

import gzip
import hashlib
import importlib.resources
import io
import json
from unittest import mock

import numpy as np
import pandas as pd
import pytest

import fairkit
import fairkit.datasets as ds
from fairkit._core import datasets as core

ADULT_COLUMNS = [
    "age", "workclass", "fnlwgt", "education", "education-num", "marital-status",
    "occupation", "relationship", "race", "sex", "capital-gain", "capital-loss",
    "hours-per-week", "native-country", "class",
]
ADULT_NUMERIC = {"age", "fnlwgt", "education-num", "capital-gain", "capital-loss",
                 "hours-per-week"}

# OpenML 1590's first 10 records (scikit-learn's fixture data-v1-dl-1595261.arff.gz).
ADULT_FIRST_ROWS = """\
25, Private, 226802, 11th, 7, Never-married, Machine-op-inspct, Own-child, Black, Male, 0, 0, 40, United-States, <=50K
38, Private, 89814, HS-grad, 9, Married-civ-spouse, Farming-fishing, Husband, White, Male, 0, 0, 50, United-States, <=50K
28, Local-gov, 336951, Assoc-acdm, 12, Married-civ-spouse, Protective-serv, Husband, White, Male, 0, 0, 40, United-States, >50K
44, Private, 160323, Some-college, 10, Married-civ-spouse, Machine-op-inspct, Husband, Black, Male, 7688, 0, 40, United-States, >50K
18, ?, 103497, Some-college, 10, Never-married, ?, Own-child, White, Female, 0, 0, 30, United-States, <=50K
34, Private, 198693, 10th, 6, Never-married, Other-service, Not-in-family, White, Male, 0, 0, 30, United-States, <=50K
29, ?, 227026, HS-grad, 9, Never-married, ?, Unmarried, Black, Male, 0, 0, 40, United-States, <=50K
63, Self-emp-not-inc, 104626, Prof-school, 15, Married-civ-spouse, Prof-specialty, Husband, White, Male, 3103, 0, 32, United-States, >50K
24, Private, 369667, Some-college, 10, Never-married, Other-service, Unmarried, White, Female, 0, 0, 40, United-States, <=50K
55, Private, 104996, 7th-8th, 4, Married-civ-spouse, Craft-repair, Husband, White, Male, 0, 0, 10, United-States, <=50K
"""
# The merged file's last record: adult.data's last line.
ADULT_LAST_ROW = ("52, Self-emp-inc, 287927, HS-grad, 9, Married-civ-spouse, Exec-managerial, "
                  "Wife, White, Female, 15024, 0, 40, United-States, >50K")

# api-v1-jdf-1590.json.gz: each nominal feature's values (pandas' sorted categories are these).
ADULT_CATEGORIES = {
    "workclass": ["Federal-gov", "Local-gov", "Never-worked", "Private", "Self-emp-inc",
                  "Self-emp-not-inc", "State-gov", "Without-pay"],
    "education": ["10th", "11th", "12th", "1st-4th", "5th-6th", "7th-8th", "9th", "Assoc-acdm",
                  "Assoc-voc", "Bachelors", "Doctorate", "HS-grad", "Masters", "Preschool",
                  "Prof-school", "Some-college"],
    "marital-status": ["Divorced", "Married-AF-spouse", "Married-civ-spouse",
                       "Married-spouse-absent", "Never-married", "Separated", "Widowed"],
    "occupation": ["Adm-clerical", "Armed-Forces", "Craft-repair", "Exec-managerial",
                   "Farming-fishing", "Handlers-cleaners", "Machine-op-inspct", "Other-service",
                   "Priv-house-serv", "Prof-specialty", "Protective-serv", "Sales",
                   "Tech-support", "Transport-moving"],
    "relationship": ["Husband", "Not-in-family", "Other-relative", "Own-child", "Unmarried",
                     "Wife"],
    "race": ["Amer-Indian-Eskimo", "Asian-Pac-Islander", "Black", "Other", "White"],
    "sex": ["Female", "Male"],
    "native-country": [
        "Cambodia", "Canada", "China", "Columbia", "Cuba", "Dominican-Republic", "Ecuador",
        "El-Salvador", "England", "France", "Germany", "Greece", "Guatemala", "Haiti",
        "Holand-Netherlands", "Honduras", "Hong", "Hungary", "India", "Iran", "Ireland", "Italy",
        "Jamaica", "Japan", "Laos", "Mexico", "Nicaragua", "Outlying-US(Guam-USVI-etc)", "Peru",
        "Philippines", "Poland", "Portugal", "Puerto-Rico", "Scotland", "South", "Taiwan",
        "Thailand", "Trinadad&Tobago", "United-States", "Vietnam", "Yugoslavia"],
    "class": ["<=50K", ">50K"],
}
# api-v1-jdf-1590.json.gz: number_of_missing_values ("?") over all rows.
ADULT_MISSING = {"workclass": 2799, "occupation": 2809, "native-country": 857}


def _record(line: str) -> list:
    """One ARFF record as the typed values a row of the frame holds (``?`` missing)."""
    out = []
    for name, value in zip(ADULT_COLUMNS, line.split(", "), strict=True):
        out.append(None if value == "?" else int(value) if name in ADULT_NUMERIC else value)
    return out


def _row(frame, i: int) -> list:
    return [None if pd.isna(v) else (int(v) if isinstance(v, np.integer) else v)
            for v in frame.iloc[i].tolist()]


def test_adult_rows_are_openml_1590s_in_its_order():
    b = ds.fetch_adult()
    assert b.frame.shape == (48_842, 15) and b.data.shape == (48_842, 14)
    for i, line in enumerate(ADULT_FIRST_ROWS.splitlines()):
        assert _row(b.frame, i) == _record(line), f"row {i}"
    assert _row(b.frame, 48_841) == _record(ADULT_LAST_ROW)
    # adult.test's 16,281 rows come first: row 16,281 is adult.data's first line
    assert _row(b.frame, 16_281)[:4] == [39, "State-gov", 77516, "Bachelors"]


def test_adult_columns_dtypes_and_categories_are_openml_1590s():
    b = ds.fetch_adult()
    assert list(b.frame.columns) == ADULT_COLUMNS
    assert b.feature_names == ADULT_COLUMNS[:-1]
    assert b.target_names == ["class"]
    for name in ADULT_COLUMNS:
        dtype = b.frame[name].dtype
        if name in ADULT_NUMERIC:
            assert dtype == np.int64, name
        else:
            assert isinstance(dtype, pd.CategoricalDtype), name
            assert dtype.categories.tolist() == ADULT_CATEGORIES[name], name
            assert not dtype.ordered
    missing = {k: v for k, v in b.frame.isna().sum().to_dict().items() if v}
    assert missing == ADULT_MISSING
    assert b.target.name == "class" and int((b.target == ">50K").sum()) == 11_687
    assert b.categories is None
    assert b.url == "https://www.openml.org/d/1590"
    assert b.details["md5_checksum"] == "60f1500865c66fe7667551e82a70dc9c"
    assert b.DESCR.startswith("**Author**: Ronny Kohavi and Barry Becker")
    assert b.DESCR.endswith("\n\nDownloaded from openml.org.")


def test_adult_as_arrays_and_x_y():
    b = ds.fetch_adult(as_frame=False)
    assert b.frame is None and b.data.dtype == object and b.data.shape == (48_842, 14)
    assert b.categories == ADULT_CATEGORIES
    assert b.data[0].tolist() == _record(ADULT_FIRST_ROWS.splitlines()[0])[:-1]
    assert b.target[:3].tolist() == ["<=50K", "<=50K", ">50K"]
    X, y = ds.fetch_adult(return_X_y=True)
    assert isinstance(X, pd.DataFrame) and isinstance(y, pd.Series) and y.name == "class"
    Xn, yn = ds.fetch_adult(as_frame=False, return_X_y=True)
    assert isinstance(Xn, np.ndarray) and isinstance(yn, np.ndarray) and Xn.shape == (48_842, 14)


# ---- differential: scikit-learn's fetch_openml, fed OpenML's metadata offline ---------------

def _sklearn_fixture():
    try:
        root = importlib.resources.files("sklearn.datasets.tests.data.openml.id_1590")
        return {p.name: p.read_bytes() for p in root.iterdir() if p.name.endswith(".gz")}
    except (ModuleNotFoundError, FileNotFoundError):  # pragma: no cover - wheel without tests
        pytest.fail("scikit-learn's OpenML fixture id_1590 is missing from the installed wheel")


def _fetch_openml_served(arff: bytes, **kwargs):
    """scikit-learn's own ``fetch_openml(data_id=1590, parser="auto")`` with OpenML's URLs
    answered from the fixture's JSON and ``arff`` (its checksum recorded in the description,
    since OpenML's file bytes are not available offline)."""
    from sklearn.datasets import _openml, fetch_openml

    files = _sklearn_fixture()
    description = json.loads(gzip.decompress(files["api-v1-jd-1590.json.gz"]))
    description["data_set_description"]["md5_checksum"] = hashlib.md5(arff).hexdigest()

    class Response(io.BytesIO):
        def info(self):
            return {}

    def urlopen(request, *args, **kw):
        url = request.get_full_url()
        if "/json/data/features/" in url:
            return Response(gzip.decompress(files["api-v1-jdf-1590.json.gz"]))
        if "/json/data/qualities/" in url:
            return Response(gzip.decompress(files["api-v1-jdq-1590.json.gz"]))
        if "/json/data/" in url:
            return Response(json.dumps(description).encode())
        if "/data/v1/download" in url:
            return Response(arff)
        raise AssertionError(f"unexpected OpenML URL {url}")

    with mock.patch.object(_openml, "urlopen", urlopen):
        return fetch_openml(data_id=1590, cache=False, parser="auto", **kwargs)


def test_fixture_records_are_the_first_rows_sklearn_reads():
    """scikit-learn reading its own fixture (OpenML's header and first 10 records) gives
    fairkit's first 10 rows value for value."""
    arff = gzip.decompress(_sklearn_fixture()["data-v1-dl-1595261.arff.gz"])
    theirs = _fetch_openml_served(arff).frame
    ours = ds.fetch_adult().frame.iloc[:10]
    assert list(theirs.columns) == ADULT_COLUMNS
    for i in range(10):
        assert _row(theirs, i) == _row(ours, i)


@pytest.mark.parametrize("as_frame", [True, False])
def test_whole_bunch_equals_fetch_openml_on_the_merged_file(as_frame):
    """OpenML's file rebuilt from UCI's two files (header from the fixture, adult.test's records
    without their trailing dot, then adult.data's) and read by scikit-learn: every key of the
    Bunch equals fairkit's."""
    header = gzip.decompress(_sklearn_fixture()["data-v1-dl-1595261.arff.gz"]).decode()
    header = header[: header.index("@data")] + "@data\n"
    test = [ln.rstrip(".") for ln in core.embedded_text("adult.test").splitlines()[1:] if ln]
    data = [ln for ln in core.embedded_text("adult.data").splitlines() if ln]
    arff = (header + "\n".join(test + data) + "\n").encode()
    theirs = _fetch_openml_served(arff, as_frame=as_frame)
    ours = ds.fetch_adult(as_frame=as_frame)
    assert set(ours) - {"sha256"} == set(theirs)
    if as_frame:
        pd.testing.assert_frame_equal(ours.frame, theirs.frame)
        pd.testing.assert_frame_equal(ours.data, theirs.data)
        pd.testing.assert_series_equal(ours.target, theirs.target)
    else:
        assert ours.frame is None and theirs.frame is None
        assert ours.data.dtype == theirs.data.dtype
        assert np.array_equal(pd.isna(ours.data), pd.isna(theirs.data))
        assert (ours.data[~pd.isna(ours.data)] == theirs.data[~pd.isna(theirs.data)]).all()
        assert np.array_equal(ours.target, theirs.target)
    for key in ("categories", "feature_names", "target_names", "DESCR", "url"):
        assert ours[key] == theirs[key], key
    details = dict(theirs.details)
    details["md5_checksum"] = "60f1500865c66fe7667551e82a70dc9c"  # OpenML's, as published
    assert ours.details == details


# ---- credit card --------------------------------------------------------------------------

CREDIT_FEATURES = (
    ["LIMIT_BAL", "SEX", "EDUCATION", "MARRIAGE", "AGE",
     "PAY_0", "PAY_2", "PAY_3", "PAY_4", "PAY_5", "PAY_6"]
    + [f"BILL_AMT{i}" for i in range(1, 7)] + [f"PAY_AMT{i}" for i in range(1, 7)]
)
# UCI's first (ID 1) and last (ID 30000) clients, features then the default flag.
CREDIT_FIRST = [20000, 2, 2, 1, 24, 2, 2, -1, -1, -2, -2, 3913, 3102, 689, 0, 0, 0,
                0, 689, 0, 0, 0, 0, 1]
CREDIT_LAST = [50000, 1, 2, 1, 46, 0, 0, 0, 0, 0, 0, 47929, 48905, 49764, 36535, 32428, 15313,
               2078, 1800, 1430, 1000, 1000, 1000, 1]


def test_credit_card_is_ucis_table_with_fairlearns_names():
    b = ds.fetch_credit_card()
    assert b.data.shape == (30_000, 23) and b.frame.shape == (30_000, 24)
    assert b.feature_names == CREDIT_FEATURES and list(b.data.columns) == CREDIT_FEATURES
    assert list(b.frame.columns) == CREDIT_FEATURES + ["y"]
    assert (b.frame.dtypes == np.int64).all()
    assert b.frame.iloc[0].tolist() == CREDIT_FIRST
    assert b.frame.iloc[-1].tolist() == CREDIT_LAST
    # UCI's codes and counts: 18,112 women (SEX 2), 6,636 defaults
    assert b.data["SEX"].value_counts().to_dict() == {2: 18_112, 1: 11_888}
    assert sorted(b.data["EDUCATION"].unique()) == [0, 1, 2, 3, 4, 5, 6]
    assert sorted(b.data["MARRIAGE"].unique()) == [0, 1, 2, 3]
    assert int(b.target.sum()) == 6_636 and b.target_names == ["y"]
    # the same clients as fetch_default_credit, in its file's coding
    other = ds.fetch_default_credit().data
    assert (b.data["SEX"].to_numpy() == 1 + other["SEX"].to_numpy()).all()
    X, y = ds.fetch_credit_card(as_frame=False, return_X_y=True)
    assert X.dtype == np.int64 and X.shape == (30_000, 23) and int(y.sum()) == 6_636


@pytest.mark.parametrize(
    ("name", "dataset", "data_id"),
    [
        ("fetch_acs_income", "ACS Income", 43141),
        ("fetch_bank_marketing", "Bank Marketing", 1461),
        ("fetch_boston", "Boston Housing", 531),
        ("fetch_diabetes_hospital", "Diabetes 130-US hospitals", 43874),
    ],
)
def test_not_embedded_sets_say_why_and_how_to_load_them(name, dataset, data_id):
    fetch = getattr(ds, name)
    with pytest.raises(fairkit.FairkitError) as e:
        fetch(as_frame=True)
    message = str(e.value)
    assert dataset in message and "not embedded" in message
    assert f"fairlearn.datasets.{name}()" in message
    assert f"fetch_openml(data_id={data_id})" in message


def test_every_fairlearn_loader_name_exists():
    import fairlearn.datasets

    theirs = {n for n in fairlearn.datasets.__all__ if n.startswith("fetch_")}
    assert theirs <= set(ds.__all__)


@pytest.mark.parametrize("module", ["_adult", "_credit_card", "_not_embedded", "_embedded",
                                    "_common", "__init__"])
def test_docstring_examples(module):
    import doctest
    import importlib

    mod = importlib.import_module(
        "fairkit.datasets" if module == "__init__" else f"fairkit.datasets.{module}")
    finder = doctest.DocTestFinder(exclude_empty=True)
    tests = [t for t in finder.find(mod) if t.examples]
    if module == "_not_embedded":  # the raisers are made by a factory: their docstrings
        tests = [t for f in ("fetch_acs_income", "fetch_bank_marketing", "fetch_boston",
                             "fetch_diabetes_hospital")
                 for t in finder.find(getattr(mod, f), f)]
    assert tests
    runner = doctest.DocTestRunner(optionflags=doctest.ELLIPSIS)
    for t in tests:
        runner.run(t)
    assert runner.summarize(verbose=False).failed == 0
