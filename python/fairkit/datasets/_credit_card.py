"""Default of Credit Card Clients (Taiwan) under fairlearn's name and columns."""

from __future__ import annotations

import io

from fairkit._core import FairkitError

from ._common import Bunch, _pandas, _sha, _text

FILE = "default_credit_taiwan.csv"
# fairlearn's names (fairlearn/datasets/_fetch_credit_card.py, _CREDIT_FEATURE_NAMES): UCI's.
FEATURES = (
    ["LIMIT_BAL", "SEX", "EDUCATION", "MARRIAGE", "AGE",
     "PAY_0", "PAY_2", "PAY_3", "PAY_4", "PAY_5", "PAY_6"]
    + [f"BILL_AMT{i}" for i in range(1, 7)]
    + [f"PAY_AMT{i}" for i in range(1, 7)]
)
TARGET = "y"
DESCR = (
    "Default of Credit Card Clients (Taiwan, April-September 2005): 30,000 clients, 23 "
    "features, target y (1 = default payment next month). I-Cheng Yeh and Che-hui Lien, "
    '"The comparisons of data mining techniques for the predictive accuracy of probability of '
    'default of credit card clients", Expert Systems with Applications 36(2), 2473-2480, 2009. '
    "UCI Machine Learning Repository, CC BY 4.0: "
    "https://archive.ics.uci.edu/ml/datasets/default+of+credit+card+clients. "
    "Embedded in fairkit (nothing downloaded); the UCI coding restored from the embedded copy."
)


def _one_hot_back(frame, prefix: str):
    """The code whose one-hot column ``<prefix>_<code>`` is 1 (exactly one per row)."""
    cols = [c for c in frame.columns if c.startswith(prefix + "_")]
    block = frame[cols].to_numpy()
    if not (block.sum(axis=1) == 1).all():
        raise FairkitError(f"{FILE}: {prefix} is not one-hot in every row; the file is damaged")
    codes = [int(c.rsplit("_", 1)[1]) for c in cols]
    return [codes[i] for i in block.argmax(axis=1)]


def _uci_frame():
    """UCI's table from the embedded copy: rows in UCI's ID order, SEX back to 1 = male,
    2 = female, EDUCATION and MARRIAGE back from one-hot to their codes, every value int64."""
    pd = _pandas()
    raw = pd.read_csv(io.StringIO(_text(FILE))).sort_values("ID", kind="stable")
    raw = raw.reset_index(drop=True)
    uci = pd.DataFrame({
        "LIMIT_BAL": raw["LIMIT_BAL"],
        "SEX": raw["SEX"].map({1: 2, 0: 1}),
        "EDUCATION": _one_hot_back(raw, "EDUCATION"),
        "MARRIAGE": _one_hot_back(raw, "MARRIAGE"),
    })
    for name in FEATURES[4:]:
        uci[name] = raw[name]
    uci[TARGET] = raw["default-payment-next-month"]
    for name in uci.columns:
        values = uci[name].to_numpy()
        if (values != values.round()).any():
            raise FairkitError(f"{FILE}: column {name} holds a fraction; the file is damaged")
        uci[name] = uci[name].astype("int64")
    return uci


def fetch_credit_card(*, cache: bool = True, data_home=None, as_frame: bool = True,
                      return_X_y: bool = False):
    """The 'Default of Credit Card clients' data under fairlearn's name
    (:func:`fairlearn.datasets.fetch_credit_card`), offline: 30,000 rows in UCI's order (its
    ``ID`` column, dropped), the 23 features with fairlearn's names (UCI's: ``LIMIT_BAL``,
    ``SEX``, ``EDUCATION``, ``MARRIAGE``, ``AGE``, ``PAY_0``, ``PAY_2`` … ``PAY_6``,
    ``BILL_AMT1`` … ``BILL_AMT6``, ``PAY_AMT1`` … ``PAY_AMT6``) and UCI's codes (``SEX`` 1 =
    male, 2 = female; ``EDUCATION`` 0–6; ``MARRIAGE`` 0–3), target ``y`` (1 = default).
    ``cache`` and ``data_home`` are accepted and unused.

    The values and order are UCI's file (Yeh & Lien 2009). fairlearn reads OpenML data set
    42477, whose column types were not available offline to check: here every column is
    int64, so a dtype may differ from fairlearn's where OpenML stores a column as float or
    nominal. The same data in the embedded file's own coding: :func:`fetch_default_credit`.

    >>> X, y = fetch_credit_card(return_X_y=True)
    >>> X.iloc[:2, :6]
       LIMIT_BAL  SEX  EDUCATION  MARRIAGE  AGE  PAY_0
    0      20000    2          2         1   24      2
    1     120000    2          2         2   26     -1
    >>> X.shape, int(y.sum())
    ((30000, 23), 6636)
    """
    del cache, data_home
    frame = _uci_frame()
    X, y = frame[FEATURES], frame[TARGET]
    categories = None
    if not as_frame:
        X, y, frame, categories = X.to_numpy(), y.to_numpy(), None, {}
    if return_X_y:
        return X, y
    return Bunch(
        data=X,
        target=y,
        frame=frame,
        categories=categories,
        feature_names=list(FEATURES),
        target_names=[TARGET],
        DESCR=DESCR,
        sha256={FILE: _sha(FILE)},
    )
