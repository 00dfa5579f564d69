"""Cases and front-end runners of the audit conformance suite (``test_conformance.py``).

Every case is one table of generated rows (a seeded numpy generator, at most 2,000 rows) and
the audit's arguments. The same rows are audited by every front end:

* ``cli-csv``     — ``fairkit audit`` on a CSV file of the rows,
* ``cli-parquet`` — ``fairkit audit`` on a Parquet file of the rows (written with pyarrow),
* ``py-csv``, ``py-parquet`` — ``fairkit.audit`` on the same CSV / Parquet file (the command's
  readers, in the extension),
* ``arrow``       — ``fairkit.audit`` on the pyarrow Table,
* ``spark``       — ``fairkit.spark.audit`` on a Spark DataFrame of the rows in 3 partitions,

and each outcome is reduced to a comparable :class:`Outcome`: the schema-v1 report JSON without
its ``input`` block, or the error reduced to ``(kind, column, row, value)`` by
:func:`normalise_error`, which does not depend on the message's prefix (file name, "Arrow
table", "in a Spark partition") or on how the front end spells a role (``--label`` vs
``label=``).

Conventions of the contract (the command's rules; issue 29):

* Labels and predictions: integer, float (0.0/1.0), boolean, string and dictionary columns are
  all accepted; a row is positive when its value equals ``pos_label`` (compared as text, then as
  a number, then as a boolean). A third value is an error naming the row and column.
* Nulls in any column the audit reads, non-finite scores, and negative or non-finite weights are
  errors naming the row, the column and (for non-null values) the value.
* Rows are 1-based data rows (the header not counted), as the command counts them; on CSV the
  command also names the file line (data row r is line r + 1: the header is line 1, no field
  spans lines). Spark does not know a row's position in the DataFrame, so its row number is not
  compared.
"""

from __future__ import annotations

import csv
import json
import math
import os
import re
import subprocess
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Optional

import numpy as np
import pyarrow as pa
import pyarrow.parquet as pq

N_ROWS = 1500
RESAMPLES = 200
SEED = 7
INTERVAL = (0.1, 0.6)
SPARK_PARTITIONS = 3
# The row (0-based index into the table) that holds the offending value in error cases; the
# command reports it as data row BAD_ROW + 1.
BAD_ROW = 733

FRONT_ENDS = ("cli-csv", "cli-parquet", "py-csv", "py-parquet", "arrow", "spark")


# -- cases ------------------------------------------------------------------------------------

@dataclass(frozen=True)
class ExpectedError:
    """What every front end's error must name: the kind of problem, the column, the 1-based
    data row and the offending value (``None``: a null, which has no value)."""

    kind: str
    column: str
    row: Optional[int]
    value: Optional[str]


@dataclass
class Case:
    name: str
    table: pa.Table
    label: str = "label"
    pred: str = "pred"
    sensitive: tuple = ("group",)
    score: Optional[str] = None
    weight: Optional[str] = None
    pos_label: Any = 1
    error: Optional[ExpectedError] = None
    note: str = ""
    allow_single_group: bool = False
    # A regression audit: this numeric target instead of the label, `pred` the numeric
    # prediction.
    target: Optional[str] = None

    @property
    def weighted(self) -> bool:
        return self.weight is not None

    def python_kwargs(self) -> dict:
        if self.target is not None:
            return dict(target=self.target, pred=self.pred, sensitive=list(self.sensitive),
                        weight=self.weight, n_resamples=RESAMPLES, seed=SEED,
                        allow_single_group=self.allow_single_group)
        return dict(label=self.label, pred=self.pred, sensitive=list(self.sensitive),
                    score=self.score, weight=self.weight, pos_label=self.pos_label,
                    n_resamples=RESAMPLES, seed=SEED,
                    # As the command's flags: the interval with a score (--interval needs
                    # --score in every front end's one check).
                    partial_interval=INTERVAL if self.score is not None else None,
                    allow_single_group=self.allow_single_group)

    def cli_flags(self) -> list:
        if self.target is not None:
            flags = ["--target", self.target, "--pred", self.pred,
                     "--sensitive", ",".join(self.sensitive),
                     "--resamples", str(RESAMPLES), "--seed", str(SEED)]
            return flags + (["--weight", self.weight] if self.weight is not None else [])
        flags = ["--label", self.label, "--pred", self.pred,
                 "--sensitive", ",".join(self.sensitive), "--pos-label", cli_value(self.pos_label),
                 "--resamples", str(RESAMPLES), "--seed", str(SEED)]
        if self.score is not None:
            flags += ["--score", self.score, "--interval", f"{INTERVAL[0]},{INTERVAL[1]}"]
        if self.weight is not None:
            flags += ["--weight", self.weight]
        if self.allow_single_group:
            flags += ["--allow-single-group"]
        return flags


def cli_value(v: Any) -> str:
    """A Python value as the command's flag spells it."""
    if isinstance(v, bool):
        return "true" if v else "false"
    return str(v)


def _base(seed: int, n: int = N_ROWS, groups=("ga", "gb", "gc"), probs=(0.5, 0.35, 0.15)) -> dict:
    """Numpy columns: group, region (0..2), label, score (2 decimals: many ties), pred, weight."""
    rng = np.random.default_rng(seed)
    g = rng.choice(np.array(groups), n, p=np.array(probs))
    y = rng.integers(0, 2, n)
    s = np.round(np.clip(rng.normal(0.4 + 0.2 * y + 0.07 * (g == groups[-1]), 0.2), 0, 1), 2)
    return {
        "group": g,
        "region": rng.integers(0, 3, n),
        "label": y.astype(np.int64),
        "pred": (s >= 0.5).astype(np.int64),
        "score": s,
        "w": rng.uniform(0.1, 3.0, n),
    }


def _continuous(seed: int) -> dict:
    """:func:`_base` with continuous scores: all distinct but every 41st row at 0.5 and a few at
    0.0 and -0.0; predictions follow them."""
    c = _base(seed)
    rng = np.random.default_rng(seed + 1000)
    s = np.clip(rng.normal(0.4 + 0.2 * c["label"], 0.2), 0, 1)
    s[::41], s[3::97], s[5::97] = 0.5, -0.0, 0.0
    return {**c, "score": s, "pred": (s >= 0.5).astype(np.int64)}


def _table(cols: dict, types: Optional[dict] = None) -> pa.Table:
    types = types or {}
    return pa.table({k: pa.array(v, type=types.get(k)) if not isinstance(v, pa.Array) else v
                     for k, v in cols.items()})


def _with(cols: dict, name: str, index: int, value: Any, type_=None) -> pa.Array:
    """Column ``name`` as an Arrow array with ``value`` (``None``: a null) at ``index``."""
    values = list(cols[name].tolist() if isinstance(cols[name], np.ndarray) else cols[name])
    values[index] = value
    return pa.array(values, type=type_)


def build_cases() -> list:
    cases = []
    add = cases.append

    c = _base(1)
    add(Case("clean", _table({k: c[k] for k in ("group", "label", "pred")})))
    c = _base(2)
    add(Case("weighted", _table(c), score="score", weight="w",
             note="weighted counts and weighted score metrics"))
    c = _base(3)
    add(Case("scored", _table(c), score="score", note="exact AUC / KS / partial SP"))

    c = _base(4)
    # Group gc has no positive label: its TPR/FNR are undefined (0/0).
    c["label"] = np.where(c["group"] == "gc", 0, c["label"])
    add(Case("group-without-positives", _table(c), score="score"))

    c = _base(5, groups=("only",), probs=(1.0,))
    # One group: refused by the group guard on every front end (nothing to compare) ...
    add(Case("single-group", _table(c), score="score",
             error=ExpectedError("single-group", "group", None, "only")))
    # ... and audited (rates, no gaps) when asked for.
    add(Case("single-group-allowed", _table(c), score="score", allow_single_group=True))

    c = _base(6)
    add(Case("two-sensitive", _table(c), sensitive=("group", "region"), score="score"))

    c = _base(7)
    add(Case("label-float", _table(c, {"label": pa.float64(), "pred": pa.float64()}),
             note="label and prediction 0.0/1.0"))
    c = _base(8)
    c["label"], c["pred"] = c["label"] == 1, c["pred"] == 1
    add(Case("label-bool", _table(c), pos_label=True))
    c = _base(9)
    c["label"] = np.where(c["label"] == 1, "yes", "no")
    c["pred"] = np.where(c["pred"] == 1, "yes", "no")
    add(Case("label-string", _table(c), pos_label="yes"))
    c = _base(10)
    c["label"] = pa.array(np.where(c["label"] == 1, "yes", "no")).dictionary_encode()
    c["pred"] = pa.array(np.where(c["pred"] == 1, "yes", "no")).dictionary_encode()
    c["group"] = pa.array(c["group"]).dictionary_encode()
    add(Case("label-dictionary", _table(c), pos_label="yes",
             note="dictionary (categorical) label, prediction and sensitive columns"))

    # Continuous scores (all distinct but for ties at 0.5 and at 0.0 / -0.0): on Spark the range
    # sweep, whose ranges' totals come from the SQL count, instead of the aggregate by score.
    c = _continuous(101)
    add(Case("scored-continuous", _table({k: c[k] for k in ("group", "label", "pred", "score")}),
             score="score"))
    c = _continuous(102)
    add(Case("weighted-continuous", _table(c), score="score", weight="w"))
    c = _continuous(103)
    add(Case("two-sensitive-continuous", _table(c), sensitive=("group", "region"),
             score="score"))
    c = _continuous(104)
    add(Case("integer-weights-continuous", _table({**c, "w": np.round(c["w"] * 4)}),
             score="score", weight="w"))
    c = _base(105)
    add(Case("weight-zeros", _table({**c, "w": np.where(np.arange(N_ROWS) % 5 == 0, 0.0,
                                                          c["w"])}),
             score="score", weight="w", note="every fifth weight 0"))
    c = _base(106)
    c["group"] = np.unique(c["group"], return_inverse=True)[1].astype(np.int64)
    add(Case("sensitive-int", _table(c), score="score"))
    c = _base(107)
    c["group"] = c["group"] == "ga"
    add(Case("sensitive-bool", _table(c), score="score"))
    c = _base(108)
    tricky = np.array(['a, "b"', "ünï cödé", " sp ace "])
    c["group"] = tricky[np.unique(c["group"], return_inverse=True)[1]]
    add(Case("group-names-tricky", _table(c), score="score",
             note="a comma and quotes (CSV quoting), non-ASCII, surrounding spaces (kept)"))
    c = _base(109)
    c["score"] = np.round(c["score"] * 100).astype(np.int64)
    add(Case("score-int", _table(c), score="score"))
    c = _base(110)
    add(Case("pos-label-zero", _table(c), score="score", pos_label=0))
    c = _base(111)
    add(Case("label-narrow-ints", _table(c, {"label": pa.int32(), "pred": pa.int8()}),
             score="score"))

    c = _base(112, groups=tuple(f"g{i:02d}" for i in range(40)), probs=(1 / 40,) * 40)
    add(Case("forty-groups-weighted", _table(c), score="score", weight="w",
             note="tied scores across many groups: the pooled AUC adds 80 streams per score"))
    c = _base(113)
    c["third"] = np.random.default_rng(113).choice(np.array(["x", "y"]), N_ROWS)
    add(Case("three-sensitive-weighted", _table(c), sensitive=("group", "region", "third"),
             score="score", weight="w", note="slices whose groups add several finest streams"))
    c = _base(114)
    # Every 7th weight 5e152: the squares' sums stay finite, the AUC sums (products of two
    # weight sums) overflow, so the AUCs are undefined — and said so alike everywhere.
    add(Case("weights-huge", _table({**c, "w": np.where(np.arange(N_ROWS) % 7 == 0, 5e152,
                                                          c["w"])}),
             score="score", weight="w", note="AUC sums overflow: every AUC undefined"))

    # -- error cases: one offending value at BAD_ROW ------------------------------------------
    def err(kind, column, value):
        return ExpectedError(kind, column, BAD_ROW + 1, value)

    c = _base(11)
    add(Case("label-third-value", _table({**c, "label": _with(c, "label", BAD_ROW, 2)}),
             error=err("label-value", "label", "2")))
    c = _base(12)
    add(Case("pred-third-value", _table({**c, "pred": _with(c, "pred", BAD_ROW, 2)}),
             error=err("label-value", "pred", "2")))
    c = _base(13)
    add(Case("null-label", _table({**c, "label": _with(c, "label", BAD_ROW, None)}),
             error=err("missing", "label", None)))
    c = _base(14)
    add(Case("null-sensitive", _table({**c, "group": _with(c, "group", BAD_ROW, None)}),
             error=err("missing", "group", None)))
    c = _base(15)
    add(Case("null-score", _table({**c, "score": _with(c, "score", BAD_ROW, None)}),
             score="score", error=err("missing", "score", None)))
    for i, (name, v) in enumerate([("nan", math.nan), ("inf", math.inf), ("neg-inf", -math.inf)]):
        c = _base(16 + i)
        add(Case(f"score-{name}", _table({**c, "score": _with(c, "score", BAD_ROW, v)}),
                 score="score", error=err("non-finite", "score", repr(v))))
    c = _continuous(112)
    add(Case("score-nan-continuous", _table({**c, "score": _with(c, "score", BAD_ROW, math.nan)}),
             score="score", error=err("non-finite", "score", "nan")))
    c = _base(19)
    add(Case("weight-negative", _table({**c, "w": _with(c, "w", BAD_ROW, -1.5)}),
             weight="w", error=err("negative", "w", "-1.5")))
    c = _base(20)
    add(Case("weight-nan", _table({**c, "w": _with(c, "w", BAD_ROW, math.nan)}),
             weight="w", error=err("non-finite", "w", "nan")))
    c = _base(21)
    add(Case("null-weight", _table({**c, "w": _with(c, "w", BAD_ROW, None)}),
             weight="w", error=err("missing", "w", None)))
    c = _base(22)
    add(Case("missing-column", _table(c), weight="weights",
             error=ExpectedError("missing-column", "weights", None, None),
             note="a column named by the arguments is not in the data"))

    # -- the regression audit (a numeric target) ---------------------------------------------
    def regression(seed: int) -> dict:
        c = _base(seed)
        rng = np.random.default_rng(seed + 2000)
        y = rng.normal(10 + (c["group"] == "ga"), 2, N_ROWS)
        # Rounded predictions: ties, as real scores have.
        return {**c, "y": y, "yhat": np.round(y + rng.normal(0.3 * (c["group"] == "gb"), 1,
                                                               N_ROWS), 1)}

    c = regression(201)
    add(Case("regression", _table({k: c[k] for k in ("group", "y", "yhat")}), target="y",
             pred="yhat", note="continuous target and prediction"))
    c = regression(202)
    add(Case("regression-weighted-two-sensitive", _table(c), target="y", pred="yhat",
             sensitive=("group", "region"), weight="w"))
    c = regression(203)
    add(Case("regression-nan-target", _table({**c, "y": _with(c, "y", BAD_ROW, math.nan)}),
             target="y", pred="yhat", error=err("non-finite", "y", "nan")))
    c = regression(204)
    add(Case("regression-null-prediction",
             _table({**c, "yhat": _with(c, "yhat", BAD_ROW, None)}), target="y", pred="yhat",
             error=err("missing", "yhat", None)))
    return cases


CASES = build_cases()
CASES_BY_NAME = {c.name: c for c in CASES}


# -- files ------------------------------------------------------------------------------------

def _csv_cell(v: Any) -> str:
    if v is None:
        return ""
    if isinstance(v, bool):
        return "true" if v else "false"
    if isinstance(v, float):
        # repr: the shortest text that reads back as the same double (0.0 stays "0.0").
        return repr(v)
    return str(v)


def write_csv(table: pa.Table, path: Path) -> None:
    """One header row, then the rows, CRLF line ends (RFC 4180, Python's csv default); nulls
    are empty cells, floats their shortest exact spelling (``0.0``, ``nan``, ``inf``), booleans
    ``true``/``false``."""
    with open(path, "w", newline="") as f:
        w = csv.writer(f)
        w.writerow(table.column_names)
        for row in zip(*(table.column(n).to_pylist() for n in table.column_names)):
            w.writerow([_csv_cell(v) for v in row])


def write_parquet(table: pa.Table, path: Path) -> None:
    pq.write_table(table, path)


# -- outcomes ---------------------------------------------------------------------------------

@dataclass
class Outcome:
    """What a front end gave: a report (``report`` set) or an error (``message`` set)."""

    front_end: str
    report: Optional[dict] = None
    message: Optional[str] = None
    detail: str = ""

    @property
    def ok(self) -> bool:
        return self.report is not None

    def describe(self) -> str:
        if self.ok:
            return f"{self.front_end}: a report"
        return f"{self.front_end}: error {self.message!r}{self.detail}"


def fairkit_binary() -> str:
    """The `fairkit` command of this checkout (as python/tests/test_spark.py finds it)."""
    root = Path(__file__).resolve().parents[2]
    target = Path(os.environ.get("CARGO_TARGET_DIR", root / "target"))
    exe = target / "debug" / "fairkit"
    if not exe.exists():
        subprocess.run(["cargo", "build", "-q", "-p", "fairkit-cli"], cwd=root, check=True)
    return str(exe)


def _strip_report(d: dict) -> dict:
    d = dict(d)
    d.pop("input", None)
    return d


def run_cli(case: Case, fmt: str, workdir: Path) -> Outcome:
    workdir.mkdir(parents=True, exist_ok=True)
    front = f"cli-{fmt}"
    path = workdir / f"{case.name}.{fmt}"
    (write_csv if fmt == "csv" else write_parquet)(case.table, path)
    out = workdir / f"{case.name}-{fmt}-report"
    args = [fairkit_binary(), "audit", str(path), *case.cli_flags(), "--format", "json",
            "--out", str(out), "--quiet"]
    p = subprocess.run(args, capture_output=True, text=True, timeout=300)
    if p.returncode == 0:
        return Outcome(front, report=_strip_report(json.loads((out / "report.json").read_text())))
    lines = [ln for ln in p.stderr.splitlines() if ln.strip()]
    first = lines[0] if lines else ""
    detail = ""
    if p.returncode != 2:
        detail += f" [exit code {p.returncode}, expected 2]"
    if not first.startswith("error: "):
        detail += " [stderr does not start with 'error: ']"
    return Outcome(front, message=first[len("error: "):] if first.startswith("error: ") else
                   p.stderr.strip(), detail=detail)


def _python_outcome(front: str, run) -> Outcome:
    from fairkit._core import FairkitError

    try:
        result = run()
    except FairkitError as e:
        return Outcome(front, message=str(e))
    except Exception as e:  # noqa: BLE001 - any other exception is a conformance failure
        return Outcome(front, message=f"{type(e).__name__}: {e}",
                       detail=f" [raised {type(e).__name__}, not FairkitError]")
    return Outcome(front, report=_strip_report(json.loads(result.report(formats=["json"])["json"])))


def run_python_file(case: Case, fmt: str, workdir: Path) -> Outcome:
    from fairkit import audit as audit_local

    workdir.mkdir(parents=True, exist_ok=True)
    path = workdir / f"{case.name}-py.{fmt}"
    (write_csv if fmt == "csv" else write_parquet)(case.table, path)
    return _python_outcome(f"py-{fmt}", lambda: audit_local(path, **case.python_kwargs()))


def run_arrow(case: Case) -> Outcome:
    from fairkit import audit as audit_local

    return _python_outcome("arrow", lambda: audit_local(case.table, **case.python_kwargs()))


def spark_frame(spark, table: pa.Table):
    """The rows as a Spark DataFrame in SPARK_PARTITIONS partitions (round-robin, as
    test_spark.py's ``partitioned``). Dictionary columns become their value type, as Spark has no
    dictionary type; nulls stay nulls."""
    plain = pa.table({n: (table.column(n).cast(table.column(n).type.value_type)
                          if pa.types.is_dictionary(table.column(n).type) else table.column(n))
                      for n in table.column_names})
    return spark.createDataFrame(plain).repartition(SPARK_PARTITIONS)


def run_spark(spark, case: Case) -> Outcome:
    from fairkit import audit as audit_any
    from fairkit.spark import audit

    sdf = spark_frame(spark, case.table)
    if case.target is not None:
        # The audit of a numeric target on Spark goes through fairkit.audit.
        return _python_outcome("spark", lambda: audit_any(sdf, **case.python_kwargs()))
    return _python_outcome("spark", lambda: audit(sdf, **case.python_kwargs()))


# -- error messages ---------------------------------------------------------------------------

@dataclass(frozen=True)
class NormalisedError:
    kind: Optional[str]
    column: Optional[str]
    row: Optional[int]
    value: Optional[str]
    line: Optional[int] = None  # the CSV file's line (the command on CSV only)


_KINDS = [
    # (kind, pattern), first match wins; the label check comes before "negative" because its
    # message names the negative label.
    ("single-group", r"single value"),
    ("missing-column", r"not in the file|not found|not in the DataFrame|no such column"),
    ("label-value", r"neither the positive|outside the|third value|exactly two values|not 0/1"
                    r"|not a label|not one of the two"),
    ("missing", r"\bmissing\b|\bnulls?\b"),
    ("non-finite", r"finite|\bnan\b|\binf"),
    ("negative", r"negative"),
    ("type", r"has type|must be .*type|wrong type|not numeric|is not a number"),
]

_COLUMN_PATTERNS = [
    r"column '([^']+)'",
    r'column "([^"]+)"',
    r"column `([^`]+)`",
    r"\b(?:label|pred|sensitive|score|weight)\s*=\s*'([^']+)'",
]

_VALUE_PATTERNS = [
    r'single value, "([^"]*)"',
    r"value '([^']*)'",
    r"'([^']*)' is not a number",
    r"(?:column '[^']*'|\)),? ?:? ?(\S+) is not a finite number",
    r": (\S+) is not a finite number",
    r"weight (\S+) is negative",
    r"non-finite value \(([^)]*)\)",
    r"is negative \(([^)]*)\)",
    r"value (\S+?)[,;:)]? ",
]


def canonical_value(v: Optional[str]) -> Optional[str]:
    """A value as text, spelled one way: numbers by their float value (``2`` = ``2.0``),
    ``nan``/``inf``/``-inf`` lower-case, other text as is (quotes stripped)."""
    if v is None:
        return None
    v = v.strip().strip("'\"")
    try:
        x = float(v)
    except ValueError:
        return v
    if math.isnan(x):
        return "nan"
    return repr(x)


def normalise_error(message: str) -> NormalisedError:
    """(kind, column, row, value) of an error message, whatever its prefix and flag spelling."""
    low = message.lower()
    kind = next((k for k, pat in _KINDS if re.search(pat, low)), None)
    column = None
    for pat in _COLUMN_PATTERNS:
        m = re.search(pat, message)
        if m:
            column = m.group(1)
            break
    m = re.search(r"\brow (\d+)", message)
    row = int(m.group(1)) if m else None
    m = re.search(r"\bline (\d+)", message)
    line = int(m.group(1)) if m else None
    value = None
    if kind not in ("missing", "missing-column"):
        for pat in _VALUE_PATTERNS:
            m = re.search(pat, message)
            if m:
                value = canonical_value(m.group(1))
                break
    return NormalisedError(kind, column, row, value, line)


def expected_normalised(case: Case, front_end: str) -> NormalisedError:
    e = case.error
    # The CSV's line: the header is line 1 and no field spans lines, so data row r is line r + 1.
    line = e.row + 1 if front_end == "cli-csv" and e.row is not None else None
    return NormalisedError(e.kind, e.column, None if front_end == "spark" else e.row,
                           canonical_value(e.value), line)


def error_divergence(case: Case, outcome: Outcome) -> Optional[str]:
    """None when the outcome is the error the case expects; else a one-line explanation that
    shows both sides."""
    want = expected_normalised(case, outcome.front_end)
    if outcome.ok:
        return (f"{case.name} × {outcome.front_end}: expected an error {want} but got a report "
                f"(rows audited: {rows_audited(outcome.report)})")
    got = normalise_error(outcome.message)
    if outcome.front_end == "spark":
        # Spark cannot know a row's position in the DataFrame; its row is not compared.
        got = NormalisedError(got.kind, got.column, None, got.value)
    if outcome.front_end != "cli-csv":
        got = NormalisedError(got.kind, got.column, got.row, got.value)  # no file lines
    problems = [f"{f}: got {getattr(got, f)!r}, want {getattr(want, f)!r}"
                for f in ("kind", "column", "row", "value", "line")
                if getattr(got, f) != getattr(want, f)]
    if outcome.detail:
        problems.append(outcome.detail.strip())
    if not problems:
        return None
    return (f"{case.name} × {outcome.front_end}: " + "; ".join(problems)
            + f" — message: {outcome.message!r}")


def rows_audited(report: dict) -> Any:
    try:
        return report["audits"][0]["slices"][0]["overall"]["rows"]
    except (KeyError, IndexError, TypeError):
        return "?"


# -- report comparison ------------------------------------------------------------------------

def nested_diff(a: Any, b: Any, path: str = "report", rel: Optional[float] = None,
                out: Optional[list] = None, limit: int = 25) -> list:
    """Paths where ``a`` and ``b`` differ, each with both values (``rel``: floats may differ by
    that relative amount; ``None``: bit for bit)."""
    out = [] if out is None else out
    if len(out) >= limit:
        return out
    if isinstance(a, dict) and isinstance(b, dict):
        for k in sorted(set(a) | set(b), key=str):
            if k not in a or k not in b:
                out.append(f"{path}.{k}: {'missing' if k not in a else a[k]!r} vs "
                           f"{'missing' if k not in b else b[k]!r}")
            else:
                nested_diff(a[k], b[k], f"{path}.{k}", rel, out, limit)
    elif isinstance(a, list) and isinstance(b, list):
        if len(a) != len(b):
            out.append(f"{path}: {len(a)} items vs {len(b)}: {_short(a)} vs {_short(b)}")
        for i, (x, y) in enumerate(zip(a, b)):
            nested_diff(x, y, f"{path}[{i}]", rel, out, limit)
    elif (rel is not None and isinstance(a, float) and isinstance(b, float)
          and math.isclose(a, b, rel_tol=rel, abs_tol=rel)):
        pass
    elif a != b or isinstance(a, bool) != isinstance(b, bool):
        if not (isinstance(a, float) and isinstance(b, float) and math.isnan(a) and math.isnan(b)):
            out.append(f"{path}: {a!r} vs {b!r}")
    return out


def _short(x: Any) -> str:
    s = json.dumps(x)
    return s if len(s) < 200 else s[:200] + "..."


# Score metrics of the weighted Spark audit start each score range from exactly rounded totals
# (docs/spark.md): equal up to rounding, as test_spark.py's test_report_equals_the_command_report
# accepts; so do the score's LL144 scoring rates (their median is found in the same ranges).
# Everything else is bit for bit.
SPARK_WEIGHTED_SCORE_HEADLINE = ("auc_difference", "ks_dp", "ks_eo", "psp",
                                 "scoring_rate_difference", "scoring_rate_ratio")


def report_divergence(case: Case, got: dict, want: dict, front_end: str) -> list:
    got, want = json.loads(json.dumps(got)), json.loads(json.dumps(want))
    diffs = []
    if front_end == "spark" and case.weighted and case.score is not None:
        diffs += nested_diff(got.pop("score_metrics", None), want.pop("score_metrics", None),
                             "report.score_metrics", rel=1e-12)
        for d in (got, want):
            d["headline"] = {k: v for k, v in d.get("headline", {}).items()
                             if k not in SPARK_WEIGHTED_SCORE_HEADLINE}
            d.pop("summary", None)
        diffs += nested_diff(got, want, "report")
        return diffs
    return nested_diff(got, want, "report")


# -- independent numbers ----------------------------------------------------------------------

def encoded(case: Case) -> dict:
    """The case's rows as numpy: 0/1 label and prediction, group names per slice, weights."""
    t = case.table

    def values(name):
        col = t.column(name)
        if pa.types.is_dictionary(col.type):
            col = col.cast(col.type.value_type)
        return col.to_pylist()

    def positive(name):
        pos = case.pos_label
        return np.array([v == pos or (isinstance(v, float) and not isinstance(pos, (str, bool))
                                      and v == float(pos)) for v in values(name)], dtype=np.int64)

    names = {s: np.array([cli_value(v) for v in values(s)], dtype=object) for s in case.sensitive}
    slices = {s: names[s] for s in case.sensitive}
    if len(case.sensitive) > 1:
        joined = [" & ".join(parts) for parts in zip(*(names[s] for s in case.sensitive))]
        slices[" & ".join(case.sensitive)] = np.array(joined, dtype=object)
    classifier = case.target is None
    return {
        # A regression case has no labels to encode (its target and prediction are numbers).
        "y": positive(case.label) if classifier else None,
        "p": positive(case.pred) if classifier else None,
        "slices": slices,
        "w": None if case.weight is None else np.asarray(values(case.weight), dtype=np.float64),
    }
