"""Conformance of the audit's front ends (issue 29): the same generated rows give the same
numbers to the bit, or the same error, through

* ``fairkit audit`` on a CSV file and on a Parquet file (``cli-csv``, ``cli-parquet``),
* ``fairkit.audit`` on the same CSV and Parquet files (``py-csv``, ``py-parquet``: the command's
  readers inside the extension) and on the pyarrow Table (``arrow``),
* ``fairkit.spark.audit`` on a Spark DataFrame in 3 partitions (``spark``),

compared through the schema-v1 report JSON without its ``input`` block (the weighted Spark score
metrics up to rounding, as docs/spark.md and test_spark.py accept), and

* ``fairkit.metrics`` and fairlearn (``metrics``): the report's per-group rates equal
  ``MetricFrame``'s to 1e-12, and each gap equals the fairlearn function of that name wherever
  the conventions agree; where they differ, the report must say so at the gap, naming the group.

Regression cases (a numeric target: ``fairkit audit --target``) go through the same front ends
(Spark through ``fairkit.audit``); their per-group means are checked against numpy and their
per-group MAE, MSE, RMSE, R² and mean prediction against fairlearn's ``MetricFrame`` with
scikit-learn's regression metrics and ``fairkit.metrics.regression_metrics`` (1e-12).

Every case × front end is its own test. The cases and the runners are in
``conformance_cases.py``; the command's CSV report is the reference the other front ends are
compared with, and it is itself checked against counts computed here with numpy. Error cases
compare (kind, column, row, value) extracted from each message with the values the case put in.

This suite is the contract: nothing is skipped or marked xfail.
"""

from __future__ import annotations

import functools
import math
import re

import numpy as np
import pytest

import conformance_cases as cc
from test_spark import spark  # noqa: F401  (the module's local[2] Spark session fixture)

pytestmark = pytest.mark.filterwarnings("ignore:PySpark does not yet fully support pandas",
                                        "ignore::UserWarning", "ignore::RuntimeWarning")

_PAIRS = [(c.name, f) for c in cc.CASES for f in cc.FRONT_ENDS]
_PAIRS += [(c.name, "metrics") for c in cc.CASES if c.error is None]

_OUTCOMES: dict = {}


@pytest.fixture(scope="module")
def workdir(tmp_path_factory):
    return tmp_path_factory.mktemp("conformance")


def outcome(case: cc.Case, front_end: str, workdir, spark_session=None) -> cc.Outcome:
    """Each case × front end runs once per session (the reference is shared by several tests)."""
    key = (case.name, front_end)
    if key not in _OUTCOMES:
        if front_end == "cli-csv":
            _OUTCOMES[key] = cc.run_cli(case, "csv", workdir)
        elif front_end == "cli-parquet":
            _OUTCOMES[key] = cc.run_cli(case, "parquet", workdir)
        elif front_end in ("py-csv", "py-parquet"):
            _OUTCOMES[key] = cc.run_python_file(case, front_end[3:], workdir)
        elif front_end == "arrow":
            _OUTCOMES[key] = cc.run_arrow(case)
        elif front_end == "spark":
            _OUTCOMES[key] = cc.run_spark(spark_session, case)
        else:  # pragma: no cover
            raise AssertionError(front_end)
    return _OUTCOMES[key]


# -- counts computed here, independently of every front end --------------------------------

def count_divergence(case: cc.Case, report: dict) -> list:
    """Rows and confusion cells per group of every slice, against numpy (weighted: math.fsum,
    the exactly rounded sum the audit's exact accumulators round to)."""
    enc = cc.encoded(case)
    y, p, w = enc["y"], enc["p"], enc["w"]
    out = []
    slices = report["audits"][0]["slices"]
    want_slices = list(enc["slices"])
    got_slices = [" & ".join(s["attributes"]) for s in slices]
    if got_slices != want_slices:
        out.append(f"slices: {got_slices} vs {want_slices} (computed here)")
    for s in slices:
        names = enc["slices"].get(" & ".join(s["attributes"]))
        if names is None:
            continue
        want_groups = sorted(set(names.tolist()))
        got_groups = [g["group"] for g in s["groups"]]
        if sorted(got_groups) != want_groups:
            out.append(f"{s['slice']}: groups {got_groups} vs {want_groups} (computed here)")
        for g in s["groups"]:
            m = names == g["group"]
            if g["rows"] != int(m.sum()):
                out.append(f"{s['slice']}={g['group']}: rows {g['rows']} vs {int(m.sum())}")
            cells = {"tp": (y == 1) & (p == 1), "fp": (y == 0) & (p == 1),
                     "tn": (y == 0) & (p == 0), "fn_": (y == 1) & (p == 0)}
            for k, cell in cells.items():
                sel = m & cell
                want = float(sel.sum()) if w is None else math.fsum(w[sel].tolist())
                if g["counts"].get(k) != want:
                    out.append(f"{s['slice']}={g['group']}: {k} {g['counts'].get(k)!r} vs "
                               f"{want!r} (computed here)")
    return out


def regression_divergence(case: cc.Case, report: dict) -> list:
    """A regression audit's rows and per-group means against numpy (weighted: math.fsum, the
    exactly rounded sums the audit's exact accumulators round to)."""
    t = case.table
    y = np.asarray(t.column(case.target).to_pylist(), dtype=float)
    p = np.asarray(t.column(case.pred).to_pylist(), dtype=float)
    w = (np.ones(len(y)) if case.weight is None
         else np.asarray(t.column(case.weight).to_pylist(), dtype=float))
    enc = cc.encoded(case)
    out = []
    for s in report["regression"]["slices"]:
        names = enc["slices"][" & ".join(s["attributes"])]
        for g in s["groups"]:
            m = names == g["group"]
            if g["rows"] != int(m.sum()):
                out.append(f"{s['slice']}={g['group']}: rows {g['rows']} vs {int(m.sum())}")
            total = math.fsum(w[m].tolist())
            for key, values in (("mean_prediction", p), ("mean_target", y),
                                ("mean_residual", p - y), ("mean_absolute_error", abs(p - y))):
                want = math.fsum((w[m] * values[m]).tolist()) / total
                got = g["metrics"][key]["value"]
                if abs(got - want) > TOL * max(1.0, abs(want)):
                    out.append(f"{s['slice']}={g['group']} {key}: {got!r} vs {want!r} (numpy)")
    return out


def regression_metrics_divergence(case: cc.Case, report: dict) -> list:
    """The report's per-group MAE, MSE, RMSE, R² and mean prediction against fairlearn's
    MetricFrame with scikit-learn's regression metrics and fairkit.metrics.regression_metrics
    (1e-12)."""
    from fairlearn.metrics import MetricFrame, mean_prediction
    from sklearn.metrics import (mean_absolute_error, mean_squared_error, r2_score,
                                 root_mean_squared_error)

    from fairkit.metrics import regression_metrics

    t = case.table
    y = np.asarray(t.column(case.target).to_pylist(), dtype=float)
    p = np.asarray(t.column(case.pred).to_pylist(), dtype=float)
    w = None if case.weight is None else np.asarray(t.column(case.weight).to_pylist(), float)
    fns = {"mean_absolute_error": mean_absolute_error, "mean_squared_error": mean_squared_error,
           "root_mean_squared_error": root_mean_squared_error, "r2_score": r2_score,
           "mean_prediction": mean_prediction}
    enc = cc.encoded(case)
    out = []
    for s in report["regression"]["slices"]:
        sf = enc["slices"][" & ".join(s["attributes"])]
        params = None if w is None else {k: {"sample_weight": w} for k in fns}
        mf = MetricFrame(metrics=fns, y_true=y, y_pred=p, sensitive_features=sf,
                         sample_params=params)
        kit = regression_metrics(y, p, sensitive_features=sf, sample_weight=w)
        for g in s["groups"]:
            for key in fns:
                got = g["metrics"][key]["value"]
                a = float(mf.by_group[key][g["group"]])
                b = float(kit.by_group[key][g["group"]])
                if not (abs(got - a) <= TOL * max(1.0, abs(a)) and
                        abs(got - b) <= TOL * max(1.0, abs(b))):
                    out.append(f"{s['slice']}={g['group']} {key}: report {got!r}, fairlearn "
                               f"{a!r}, fairkit.metrics {b!r}")
    return out


# -- fairkit.metrics and fairlearn ---------------------------------------------------------------

def _fairlearn_rates():
    from fairlearn import metrics as fl
    from sklearn.metrics import accuracy_score, precision_score, zero_one_loss

    return {
        "selection_rate": functools.partial(fl.selection_rate, pos_label=1),
        "true_positive_rate": functools.partial(fl.true_positive_rate, pos_label=1),
        "false_positive_rate": functools.partial(fl.false_positive_rate, pos_label=1),
        "true_negative_rate": functools.partial(fl.true_negative_rate, pos_label=1),
        "false_negative_rate": functools.partial(fl.false_negative_rate, pos_label=1),
        "accuracy": accuracy_score,
        "error_rate": zero_one_loss,
        "precision": functools.partial(precision_score, zero_division=0.0),
    }


_FAIRKIT_RATE_NAMES = {
    "selection_rate": "selection_rate", "true_positive_rate": "true_positive_rate",
    "false_positive_rate": "false_positive_rate", "true_negative_rate": "true_negative_rate",
    "false_negative_rate": "false_negative_rate", "accuracy": "accuracy_score",
    "error_rate": "zero_one_loss", "precision": "precision_score",
}

# Report gap key → (fairlearn / fairkit.metrics function name, the rates it is built from).
_GAPS = {
    "dp_difference": ("demographic_parity_difference", ("selection_rate",)),
    "dp_ratio": ("demographic_parity_ratio", ("selection_rate",)),
    "eo_difference": ("equal_opportunity_difference", ("true_positive_rate",)),
    "eo_ratio": ("equal_opportunity_ratio", ("true_positive_rate",)),
    "eq_odds_difference": ("equalized_odds_difference",
                           ("true_positive_rate", "false_positive_rate")),
    "eq_odds_ratio": ("equalized_odds_ratio", ("true_positive_rate", "false_positive_rate")),
    "accuracy_difference": ("accuracy_difference", ("accuracy",)),
    "accuracy_ratio": ("accuracy_ratio", ("accuracy",)),
}

TOL = 1e-12


def _close(a, b) -> bool:
    if a is None or b is None:
        return a is None and b is None
    a, b = float(a), float(b)
    if math.isnan(a) or math.isnan(b):
        return math.isnan(a) and math.isnan(b)
    return abs(a - b) <= TOL


def _gap_value(lib, name: str, y, p, sf, w):
    """The gap ``name`` by ``lib`` (fairlearn.metrics or fairkit.metrics)."""
    if name.startswith("accuracy_"):
        from sklearn.metrics import accuracy_score

        kw = {} if w is None else {"sample_params": {"sample_weight": w}}
        mf = lib.MetricFrame(metrics=accuracy_score, y_true=y, y_pred=p, sensitive_features=sf,
                             **kw)
        return float(mf.difference() if name.endswith("difference") else mf.ratio())
    kw = {} if w is None else {"sample_weight": w}
    return float(getattr(lib, name)(y, p, sensitive_features=sf, **kw))


def _strings(x) -> list:
    if isinstance(x, str):
        return [x]
    if isinstance(x, dict):
        return [s for k, v in x.items() if k not in ("key", "name", "kind", "slice")
                for s in _strings(v)]
    if isinstance(x, list):
        return [s for v in x for s in _strings(v)]
    return []


def _names(text: str, group: str) -> bool:
    """Whether ``text`` names ``group`` as a word (not as part of another word)."""
    return re.search(rf"(?<![\w-]){re.escape(group)}(?![\w-])", text) is not None


def metrics_divergence(case: cc.Case, report: dict) -> list:
    import fairkit.metrics as fk
    from fairlearn import metrics as fl

    enc = cc.encoded(case)
    y, p, w = enc["y"], enc["p"], enc["w"]
    fl_rates = _fairlearn_rates()
    out = []
    for s in report["audits"][0]["slices"]:
        sf = enc["slices"][" & ".join(s["attributes"])]
        params = None if w is None else {k: {"sample_weight": w} for k in fl_rates}
        ours = fl.MetricFrame(metrics=fl_rates, y_true=y, y_pred=p, sensitive_features=sf,
                              sample_params=params)
        kit = fk.MetricFrame(metrics={k: v for k, v in _FAIRKIT_RATE_NAMES.items()}, y_true=y,
                             y_pred=p, sensitive_features=sf, pos_label=1,
                             sample_params=None if w is None else
                             {k: {"sample_weight": w} for k in _FAIRKIT_RATE_NAMES})
        undefined = {}  # rate -> groups whose rate the report leaves undefined
        for g in s["groups"]:
            for rate in fl_rates:
                got = (g["rates"].get(rate) or {}).get("value")
                if got is None:
                    undefined.setdefault(rate, []).append(g["group"])
                    continue
                a = ours.by_group[rate][g["group"]]
                b = kit.by_group[rate][g["group"]]
                if not (_close(got, a) and _close(got, b)):
                    out.append(f"{s['slice']}={g['group']} {rate}: report {got!r}, fairlearn "
                               f"{float(a)!r}, fairkit.metrics {float(b)!r}")
        for rate in fl_rates:
            got = (s["overall"]["rates"].get(rate) or {}).get("value")
            if got is not None and not (_close(got, ours.overall[rate])
                                        and _close(got, kit.overall[rate])):
                out.append(f"{s['slice']} overall {rate}: report {got!r}, fairlearn "
                           f"{float(ours.overall[rate])!r}, fairkit.metrics "
                           f"{float(kit.overall[rate])!r}")
        gaps = {g["key"]: g for g in s.get("gaps", [])}
        for key, (name, rates) in _GAPS.items():
            a = _gap_value(fl, name, y, p, sf, w)
            b = _gap_value(fk, name, y, p, sf, w)
            if not _close(a, b):
                out.append(f"{s['slice']} {name}: fairkit.metrics {b!r} != fairlearn {a!r}")
            if key not in gaps:
                out.append(f"{s['slice']}: the report has no gap {key!r} (fairlearn {a!r})")
                continue
            names = sorted({grp for r in rates for grp in undefined.get(r, [])})
            places = [(f"{s['slice']} gap {key}", gaps[key])]
            head = report.get("headline", {}).get(key)
            if isinstance(head, dict) and head.get("slice") == s["slice"]:
                places.append((f"headline {key} ({s['slice']})", head))
            for where, entry in places:
                if _close(entry.get("value"), a):
                    continue
                # The conventions differ here: the report must say so where it shows the value,
                # naming the group(s) whose rate it leaves undefined.
                notes = " ".join(_strings(entry))
                if not notes.strip() or not all(_names(notes, n) for n in names):
                    out.append(f"{where}: report {entry.get('value')!r} vs fairlearn {name} "
                               f"{a!r}, with no note there naming {names or 'why'} "
                               f"(its text: {notes.strip()!r})")
    return out


# -- the test --------------------------------------------------------------------------------

@pytest.mark.parametrize(("case_name", "front_end"), _PAIRS,
                         ids=[f"{c}-{f}" for c, f in _PAIRS])
def test_conformance(request, workdir, case_name, front_end):
    case = cc.CASES_BY_NAME[case_name]
    spark_session = request.getfixturevalue("spark") if front_end == "spark" else None
    if front_end == "metrics":
        ref = outcome(case, "cli-csv", workdir)
        if not ref.ok:
            ref = outcome(case, "arrow", workdir)
        assert ref.ok, f"{case.name}: no front end gave a report to compare: {ref.describe()}"
        diffs = (regression_metrics_divergence(case, ref.report) if case.target is not None
                 else metrics_divergence(case, ref.report))
        assert not diffs, (f"{case.name} × metrics ({ref.front_end}'s report vs fairlearn "
                           f"{_fl_version()} / fairkit.metrics):\n  " + "\n  ".join(diffs))
        return
    got = outcome(case, front_end, workdir, spark_session)
    if case.error is not None:
        problem = cc.error_divergence(case, got)
        if problem is not None and front_end != "cli-csv":
            ref = outcome(case, "cli-csv", workdir)
            problem += f" | cli-csv: {ref.describe()}"
        assert problem is None, problem
        return
    assert got.ok, (f"{case.name} × {front_end}: expected a report, got {got.describe()}")
    diffs = (regression_divergence(case, got.report) if case.target is not None
             else count_divergence(case, got.report))
    assert not diffs, (f"{case.name} × {front_end}: counts differ from numpy's:\n  "
                       + "\n  ".join(diffs))
    if front_end == "cli-csv":
        return
    ref = outcome(case, "cli-csv", workdir)
    assert ref.ok, (f"{case.name}: {front_end} gave a report but the reference "
                    f"{ref.describe()}")
    diffs = cc.report_divergence(case, got.report, ref.report, front_end)
    assert not diffs, (f"{case.name} × {front_end}: report differs from cli-csv's "
                       f"({front_end} value vs cli-csv value):\n  " + "\n  ".join(diffs))


def _fl_version() -> str:
    import fairlearn

    return fairlearn.__version__


# -- the normaliser itself ---------------------------------------------------------------------

@pytest.mark.parametrize(("message", "want"), [
    ("preds.csv: row 734 (line 735), column 'label': value '2' is neither the positive label "
     "'1' nor the negative label '0'; labels and predictions must take exactly two values (set "
     "them with --pos-label and --neg-label)", ("label-value", "label", 734, "2.0", 735)),
    ("x.parquet: row 734, column 's': NaN is not a finite number (the score must be finite)",
     ("non-finite", "s", 734, "nan", None)),
    ("x.csv: row 9 (line 10), column 'w': weight -1.5 is negative; weights must be >= 0",
     ("negative", "w", 9, "-1.5", 10)),
    ("x.csv: row 3 (line 4), column 'g': the value is missing (empty or null); every row needs "
     "a sensitive value", ("missing", "g", 3, None, 4)),
    ("x.csv: column 'weights' (given by --weight) is not in the file; its columns are: a, b",
     ("missing-column", "weights", None, None, None)),
    ("column(s) not found: weight='weights'; the data has columns ['a', 'b']",
     ("missing-column", "weights", None, None, None)),
    ("in a Spark partition: sample weight at row 239 is negative (-1.5): weights must be >= 0 "
     "(row numbers count within one Arrow batch of that partition)",
     ("negative", None, 239, "-1.5", None)),
    ("column 'group' has 1 null value(s) in this batch: drop or fill them before the audit",
     ("missing", "group", None, None, None)),
])
def test_normaliser(message, want):
    got = cc.normalise_error(message)
    assert (got.kind, got.column, got.row, got.value, got.line) == want


@pytest.mark.parametrize("case_name", ["forty-groups-weighted", "three-sensitive-weighted"])
def test_command_report_does_not_depend_on_row_order(workdir, case_name):
    # The command numbers groups as the file brings them, then renumbers them by sorted name
    # before the score sweep, so weighted sums over several groups add in one order: the rows
    # reversed give the same report, bit for bit.
    case = cc.CASES_BY_NAME[case_name]
    reversed_case = cc.Case(case.name + "-reversed", case.table.take(
        list(range(case.table.num_rows - 1, -1, -1))), sensitive=case.sensitive,
        score=case.score, weight=case.weight)
    a = cc.run_cli(case, "parquet", workdir / "order")
    b = cc.run_cli(reversed_case, "parquet", workdir / "order")
    assert a.ok and b.ok, (a.describe(), b.describe())
    assert a.report == b.report


@pytest.mark.parametrize("lead", [["--by", "version"], ["--against", "pred2"]])
def test_by_and_against_leave_the_score_metrics_unchanged(workdir, lead):
    # The audit of all rows is unchanged by --by / --against, score metrics included: the score
    # rows are kept by the sensitive groups alone (not by leading value and group, which added a
    # group's weights stream by stream and moved weighted AUCs in the last bits).
    import numpy as np
    import pyarrow as pa
    from dataclasses import dataclass, field

    @dataclass
    class Led(cc.Case):
        extra: list = field(default_factory=list)

        def cli_flags(self):
            return super().cli_flags() + self.extra

    base = cc.CASES_BY_NAME["forty-groups-weighted"]
    rng = np.random.default_rng(3)
    table = base.table.append_column(
        "version", pa.array(rng.choice(np.array(["v1", "v2", "v3"]), base.table.num_rows)))
    table = table.append_column("pred2", pa.array(rng.integers(0, 2, base.table.num_rows)))
    # (--against needs an unweighted audit: the paired comparison redraws rows.)
    kw = dict(score="score", weight=None if lead[0] == "--against" else "w")
    plain = cc.run_cli(Led("lead-none", table, **kw), "parquet", workdir / "lead")
    led = cc.run_cli(Led("lead-" + lead[0][2:], table, extra=lead, **kw), "parquet",
                     workdir / "lead")
    assert plain.ok and led.ok, (plain.describe(), led.describe())
    assert led.report["score_metrics"] == plain.report["score_metrics"]


# -- the regression audit's distributed sweep on Spark ----------------------------------------

def _regression_variant(name: str) -> tuple:
    """A regression case's rows and ``fairkit.audit`` keywords: the suite's cases, and one with
    a single distinct prediction, unknown (null) sensitive values excluded and weights."""
    import pyarrow as pa

    if name != "constant-unknowns":
        case = cc.CASES_BY_NAME[name]
        return case.table, case.python_kwargs()
    case = cc.CASES_BY_NAME["regression-weighted-two-sensitive"]
    t = case.table
    n = t.num_rows
    region = [None if i % 11 == 3 else v for i, v in enumerate(t.column("region").to_pylist())]
    t = (t.set_column(t.schema.get_field_index("yhat"), "yhat", pa.array([2.5] * n))
          .set_column(t.schema.get_field_index("region"), "region", pa.array(region)))
    return t, {**case.python_kwargs(), "unknowns": "exclude"}


@pytest.mark.parametrize(("variant", "partitions", "ranges"), [
    ("regression", 1, None),
    ("regression-weighted-two-sensitive", 7, 7),
    ("constant-unknowns", 3, 3),
])
def test_regression_on_spark_is_swept_not_collected(spark, monkeypatch, variant, partitions,
                                                    ranges):
    """``fairkit.audit(spark_df, target=...)`` sums per group and sweeps the predictions per
    value range on the executors (docs/spark.md): at 1, 3 and 7 partitions and up to 7 ranges
    (ties of the rounded predictions fall on the cuts; ranges without rows; one distinct value)
    its report equals the one-machine audit's — the command's, which the suite checks
    against cli-csv — to the bit, and the rows are never collected to the driver."""
    import fairkit
    import fairkit._audit as audit_module

    table, kwargs = _regression_variant(variant)
    want = fairkit.audit(table, **kwargs)
    def no_collect(*_a, **_k):  # the old path: the columns collected to the driver
        raise AssertionError("the regression audit collected the rows")

    monkeypatch.setattr(audit_module, "_audit_table_of_target", no_collect)
    sdf = cc.spark_frame(spark, table).repartition(partitions)
    extra = {} if ranges is None else {"score_partitions": ranges}
    got = fairkit.audit(sdf, **kwargs, **extra)
    diffs = cc.nested_diff(got._comparable(), want._comparable())
    assert not diffs, f"{variant} at {partitions} partitions:\n  " + "\n  ".join(diffs)
    assert got.document["input"]["format"] == "spark"
    assert got.report(formats=("md",))["markdown"]
