"""UCI Adult exactly as fairlearn's ``fetch_adult`` returns it: OpenML data set 1590 read by
scikit-learn's ``fetch_openml(data_id=1590, parser="auto")``, rebuilt from the two embedded UCI
files with the same reading."""

from __future__ import annotations

import copy
import io

from ._common import Bunch, _pandas, _sha, _text
from ._openml_adult import DATA_ID, DESCRIPTION, DETAILS

COLUMNS = [
    "age", "workclass", "fnlwgt", "education", "education-num", "marital-status",
    "occupation", "relationship", "race", "sex", "capital-gain", "capital-loss",
    "hours-per-week", "native-country", "class",
]
# OpenML's nominal attributes (its feature list, data type "nominal"); the others are numeric.
NOMINAL = {
    "workclass", "education", "marital-status", "occupation", "relationship", "race", "sex",
    "native-country", "class",
}
TARGET = "class"
FILES = ["adult.test", "adult.data"]


def _arff_rows() -> str:
    """The data section of OpenML's adult.arff: adult.test's rows (its first line, a comment,
    dropped; the trailing dot of its labels removed, as OpenML merged the files) followed by
    adult.data's, one record per line with UCI's ``, `` separators."""
    test = _text("adult.test").split("\n")[1:]
    rows = [line[:-1] if line.endswith(".") else line for line in test]
    rows.extend(_text("adult.data").split("\n"))
    return "\n".join(r for r in rows if r.strip()) + "\n"


def _read_frame():
    """The rows as scikit-learn's pandas ARFF parser reads them (``read_csv`` with its
    keyword arguments: ``?`` the only missing value, nominal columns read as ``category``, so
    pandas sorts their categories, numeric columns inferred, here int64)."""
    pd = _pandas()
    dtype = {i: "category" for i, name in enumerate(COLUMNS) if name in NOMINAL}
    frame = pd.read_csv(
        io.StringIO(_arff_rows()), header=None, index_col=False, na_values=["?"],
        keep_default_na=False, comment="%", quotechar='"', skipinitialspace=True,
        escapechar="\\", dtype=dtype,
    )
    frame.columns = COLUMNS
    return frame


def fetch_adult(*, cache: bool = True, data_home=None, as_frame: bool = True,
                return_X_y: bool = False):
    """UCI Adult as fairlearn's :func:`fairlearn.datasets.fetch_adult` returns it, offline.

    fairlearn loads OpenML data set 1590 with scikit-learn's ``fetch_openml(data_id=1590,
    parser="auto")``; this returns the same thing from the embedded UCI files (``cache`` and
    ``data_home`` are accepted for compatibility and unused: nothing is downloaded).

    * **Rows**: OpenML's order, which merges UCI's two files with ``adult.test`` first
      (16,281 rows, its labels' trailing dot removed) and ``adult.data`` after (32,561 rows):
      48,842 rows. The order and first rows are those of OpenML's ``adult.arff`` as recorded in
      scikit-learn's test fixture ``sklearn/datasets/tests/data/openml/id_1590/
      data-v1-dl-1595261.arff.gz``.
    * **Columns**: OpenML's 14 features and target ``class``; numeric columns int64, nominal
      columns ``category`` with pandas' sorted categories (what scikit-learn's pandas parser
      gives; they equal OpenML's published ``nominal_value`` lists,
      ``api-v1-jdf-1590.json.gz`` of the same fixture), ``?`` as missing (workclass 2,799,
      occupation 2,809, native-country 857, OpenML's counts).
    * **Bunch**: ``data``, ``target`` (``<=50K`` / ``>50K``), ``frame``, ``categories``
      (None with ``as_frame=True``, else each nominal column's categories),
      ``feature_names``, ``target_names`` (``["class"]``, the target column as scikit-learn
      names it), ``DESCR`` (OpenML's description + "Downloaded from openml.org."),
      ``details`` (OpenML's metadata), ``url``, and fairkit's ``sha256`` of the two files.
      ``as_frame=False`` gives object arrays, ``return_X_y=True`` ``(data, target)``.

    >>> X, y = fetch_adult(return_X_y=True)
    >>> X.iloc[:3, :4]
       age  workclass  fnlwgt   education
    0   25    Private  226802        11th
    1   38    Private   89814     HS-grad
    2   28  Local-gov  336951  Assoc-acdm
    >>> y.head(3).tolist(), X.shape
    (['<=50K', '<=50K', '>50K'], (48842, 14))
    """
    pd = _pandas()
    del cache, data_home
    frame = _read_frame()
    features = COLUMNS[:-1]
    X, y = frame[features], frame[TARGET]
    categories = None
    if not as_frame:
        categories = {
            name: dtype.categories.tolist()
            for name, dtype in frame.dtypes.items()
            if isinstance(dtype, pd.CategoricalDtype)
        }
        X, y, frame = X.to_numpy(), y.to_numpy(), None
    if return_X_y:
        return X, y
    return Bunch(
        data=X,
        target=y,
        frame=frame,
        categories=categories,
        feature_names=features,
        target_names=[TARGET],
        DESCR=f"{DESCRIPTION}\n\nDownloaded from openml.org.",
        details=copy.deepcopy(DETAILS),
        url=f"https://www.openml.org/d/{DATA_ID}",
        sha256={f: _sha(f) for f in FILES},
    )
