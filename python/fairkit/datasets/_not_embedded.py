"""fairlearn's loaders for data fairkit does not embed: same names, a FairkitError saying why
and how to load the data instead of an ImportError."""

from __future__ import annotations

from fairkit._core import FairkitError

# name -> (data set, OpenML data id fairlearn downloads, why fairkit does not embed it)
_NOT_EMBEDDED = {
    "fetch_acs_income": (
        "ACS Income (folktables, 2018 American Community Survey)", 43141,
        "1,664,500 rows, far more than the offline package should carry",
    ),
    "fetch_bank_marketing": (
        "UCI Bank Marketing (Moro et al., 2014)", 1461,
        "fairkit embeds only the data sets its own experiments and tests use",
    ),
    "fetch_boston": (
        "Boston Housing (Harrison & Rubinfeld, 1978)", 531,
        "its 'B' column encodes a racist assumption; scikit-learn removed it for that reason, "
        "and fairlearn keeps it only to teach about it",
    ),
    "fetch_diabetes_hospital": (
        "Diabetes 130-US hospitals 1999-2008 (Strack et al., 2014)", 43874,
        "101,766 rows, larger than the offline package should carry",
    ),
}


def _raiser(name: str):
    dataset, data_id, why = _NOT_EMBEDDED[name]

    def fetch(*args, **kwargs):
        raise FairkitError(
            f"fairkit.datasets.{name}: {dataset} is not embedded in fairkit ({why}). Load it "
            f"with fairlearn.datasets.{name}(), which downloads OpenML data set {data_id}, or "
            f"with sklearn.datasets.fetch_openml(data_id={data_id}); both need the network"
        )

    fetch.__name__ = fetch.__qualname__ = name
    fetch.__doc__ = (
        f"{dataset}: not embedded in fairkit ({why}); calling it raises a ``FairkitError`` "
        f"saying how to load it (fairlearn's ``{name}`` or scikit-learn's "
        f"``fetch_openml(data_id={data_id})``, online).\n\n"
        f">>> from fairkit.datasets import {name}\n"
        f">>> {name}()  # doctest: +ELLIPSIS\n"
        f"Traceback (most recent call last):\n"
        f"    ...\n"
        f"fairkit.FairkitError: fairkit.datasets.{name}: ... is not embedded in fairkit ...\n"
    )
    fetch.__module__ = "fairkit.datasets"
    return fetch


fetch_acs_income = _raiser("fetch_acs_income")
fetch_bank_marketing = _raiser("fetch_bank_marketing")
fetch_boston = _raiser("fetch_boston")
fetch_diabetes_hospital = _raiser("fetch_diabetes_hospital")
