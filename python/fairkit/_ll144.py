"""``fairkit.ll144``: the NYC Local Law 144 bias-audit tables of an applicant table or file, as
the ``fairkit ll144`` command computes them (its readers, its decoder, its numbers): per sex, per
race/ethnicity and per intersectional category the number of applicants, the number selected
(or scored above the sample's median), the selection (or scoring) rate and the impact ratio,
with the unknown categories and the < 2 % exclusion.
"""

from __future__ import annotations

import io
import json
import os
from typing import Any, Optional, Sequence

from fairkit._core import FairkitError


class Ll144Result:
    """The tables of :func:`ll144`.

    Attributes
    ----------
    sex, race, intersection : pandas.DataFrame
        One row per category (known ones first, then the unknown ones), with the command's CSV
        columns: ``category, applicants, selected | scored_above_median, selection_rate |
        scoring_rate, impact_ratio, share_of_applicants, excluded, unknown, note, rate_ci_low,
        rate_ci_high, rows, effective_n``. An undefined value is NaN.
    json : dict
        The command's ll144.json (the tables, unknown counts, exclusion disclosure, data source
        and date).
    csv : dict
        Each table's CSV text, as the command writes ``ll144_<table>.csv``.
    markdown, html : str
        The command's ll144.md and ll144.html.
    """

    def __init__(self, raw: dict):
        self.json = json.loads(raw["json"])
        self.csv = dict(raw["csv"])
        self.markdown = raw["markdown"]
        self.html = raw["html"]
        self.sex = _frame(self.csv["sex"])
        self.race = _frame(self.csv["race"])
        self.intersection = _frame(self.csv["intersection"])

    def __repr__(self) -> str:
        j = self.json
        return (f"Ll144Result({j['mode']}, {j['applicants']:g} applicants, "
                f"{len(self.sex)} sex, {len(self.race)} race, "
                f"{len(self.intersection)} intersectional categories)")


def _frame(text: str):
    import pandas as pd

    # Categories stay text as written (an empty or missing value is ""); the empty cells of
    # the number columns (no impact ratio, no interval) are NaN.
    df = pd.read_csv(io.StringIO(text), dtype={"category": str, "note": str},
                     keep_default_na=False, na_values={
                         c: [""] for c in ("impact_ratio", "selection_rate", "scoring_rate",
                                           "rate_ci_low", "rate_ci_high")})
    for c in ("excluded", "unknown"):
        df[c] = df[c].map({"true": True, "false": False, True: True, False: False})
    return df


def _label_text(value: Any) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    return str(value)


def ll144(
    data: Any,
    *,
    sex: str,
    race: str,
    selected: Optional[str] = None,
    score: Optional[str] = None,
    selected_value: Any = 1,
    weight: Optional[str] = None,
    unknown_values: Sequence[str] = ("",),
    exclude_below: Optional[float] = 0.02,
    data_source: Optional[str] = None,
    audit_date: Optional[str] = None,
    confidence: float = 0.95,
    delimiter: Optional[str] = None,
    input_format: Optional[str] = None,
    memory_budget: Optional[str] = None,
) -> Ll144Result:
    """The NYC Local Law 144 tables of ``data``: a path (CSV, compressed CSV or Parquet; a
    folder of parts or a pattern; or a list of them) read by the ``fairkit ll144`` command's
    readers, or a pandas or polars DataFrame or a pyarrow Table (written to a temporary Parquet
    file and read the same way).

    Give ``selected=`` (a 0/1 column: a tool that selects) or ``score=`` (a tool that scores:
    the scoring rate is the share of a category scored strictly above the median score of the
    whole sample). ``unknown_values`` are the sex or race values counted as an unknown category
    ("" is an empty or missing value); ``exclude_below`` leaves categories under that share of
    the applicants out of the impact ratios (``None``: no exclusion).

    Examples
    --------
    >>> import pandas as pd, fairkit
    >>> df = pd.DataFrame({"sex": ["F", "F", "M", "M"] * 25, "race": ["A", "B"] * 50,
    ...                    "hired": [1, 0, 1, 1] * 25})
    >>> r = fairkit.ll144(df, sex="sex", race="race", selected="hired")
    >>> r.sex[["category", "selection_rate", "impact_ratio"]].values.tolist()
    [['F', 0.5, 0.5], ['M', 1.0, 1.0]]
    """
    if (selected is None) == (score is None):
        raise FairkitError("name exactly one of selected= (a tool that selects, a 0/1 column) "
                           "and score= (a tool that scores)")
    settings = dict(sex=sex, race=race, selected=selected, score=score, weight=weight,
                    selected_value=_label_text(selected_value) if selected is not None else None,
                    unknown_values=[str(u) for u in unknown_values],
                    exclude_below=exclude_below, data_source=data_source,
                    audit_date=audit_date, confidence=confidence, delimiter=delimiter,
                    input_format=input_format, memory_budget=memory_budget)
    from fairkit._audit import _is_polars, _paths
    from fairkit._core import ll144_files

    paths = _paths(data)
    if paths is not None:
        return Ll144Result(ll144_files(paths, settings))
    if delimiter is not None or input_format is not None:
        raise FairkitError(f"delimiter= and input_format= set how files are read; data here is "
                           f"a {type(data).__name__}, not a path")
    description = f"{type(data).__module__.split('.')[0]} {type(data).__name__}"
    if _is_polars(data):
        data = data.to_arrow()
    import tempfile

    import pyarrow as pa
    import pyarrow.parquet as pq

    if isinstance(data, pa.RecordBatchReader):
        data = data.read_all()
    elif isinstance(data, pa.RecordBatch):
        data = pa.Table.from_batches([data])
    elif not isinstance(data, pa.Table):
        data = pa.Table.from_pandas(data, preserve_index=False)
    with tempfile.TemporaryDirectory(prefix="fairkit-") as d:
        path = os.path.join(d, "table.parquet")
        pq.write_table(data, path)
        settings["describe_as"] = description
        return Ll144Result(ll144_files([path], settings))
