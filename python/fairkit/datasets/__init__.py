"""Fairness datasets, offline: the files embedded in fairkit (crate ``fair-data``), checked
against their published sha256 on every load, returned shaped like fairlearn's ``fetch_*``.

Each ``fetch_*`` returns a :class:`Bunch` with ``data`` (the features), ``target``, ``frame``
(features and target together, or None), ``feature_names``, ``target_names``, ``DESCR`` and
``sha256`` (of the original file); ``as_frame=True`` (the default, as in fairlearn 0.15) gives
pandas objects (categorical columns for text; missing values NaN), ``as_frame=False`` numpy
arrays (``object`` dtype when a column holds text); ``return_X_y=True`` returns
``(data, target)`` only. Nothing is downloaded: sources, licences and digests are in
``crates/fair-data/DATA.md``.

The loaders named as fairlearn's (:func:`fetch_adult`, :func:`fetch_credit_card`) return what
fairlearn's return: the same rows in the same order, column names, dtypes and categories
(their docstrings cite the public source of each). fairlearn's loaders for data fairkit does
not embed (:func:`fetch_acs_income`, :func:`fetch_bank_marketing`, :func:`fetch_boston`,
:func:`fetch_diabetes_hospital`) exist and raise a ``FairkitError`` saying how to load the data.

| function | rows | target (positives) | sensitive columns |
|---|---|---|---|
| :func:`fetch_adult` | 48,842 (fairlearn's: OpenML 1590, adult.test then adult.data) | ``class`` (``>50K``: 11,687) | ``sex``, ``race`` |
| :func:`fetch_credit_card` | 30,000 (fairlearn's name and columns, UCI's coding) | ``y`` (6,636) | ``SEX`` (2 = female) |
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

from ._adult import fetch_adult
from ._common import Bunch
from ._credit_card import fetch_credit_card
from ._embedded import (
    fetch_communities_crime,
    fetch_compas,
    fetch_default_credit,
    fetch_german_credit,
    fetch_law_school,
)
from ._not_embedded import (
    fetch_acs_income,
    fetch_bank_marketing,
    fetch_boston,
    fetch_diabetes_hospital,
)

__all__ = [
    "Bunch",
    "fetch_acs_income",
    "fetch_adult",
    "fetch_bank_marketing",
    "fetch_boston",
    "fetch_communities_crime",
    "fetch_compas",
    "fetch_credit_card",
    "fetch_default_credit",
    "fetch_diabetes_hospital",
    "fetch_german_credit",
    "fetch_law_school",
]
