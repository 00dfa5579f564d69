"""``fairkit.audit`` / ``fairkit.compare`` / ``fairkit.AuditResult`` at the top level (issue 38):
one call for a pandas, polars or pyarrow table (and Spark, in test_spark.py's session), the same
report as the pyarrow path (``fairkit.spark._audit_arrow``) on the same rows, and clear refusals."""

import doctest

import numpy as np
import pandas as pd
import pyarrow as pa
import pytest

import fairkit
from fairkit import FairkitError
from fairkit.spark import _audit_arrow


def frame(seed: int = 0) -> pd.DataFrame:
    rng = np.random.default_rng(seed)
    n = 3000
    g = rng.choice(["a", "b", "c"], n, p=[0.5, 0.3, 0.2])
    y = rng.random(n) < 0.4
    p = rng.random(n) < np.where(y, 0.7, 0.1) + (g == "a") * 0.1
    return pd.DataFrame({"y": y.astype(int), "p": p.astype(int), "g": g,
                         "w": rng.uniform(0.5, 2.0, n), "s": rng.random(n)})


KW = dict(label="y", pred="p", sensitive=["g"], n_resamples=200, seed=4)


def test_every_in_memory_table_gives_the_audit_arrow_report():
    df = frame()
    want = _audit_arrow(df, **KW).document
    table = pa.Table.from_pandas(df, preserve_index=False)
    for data in (df, table, table.combine_chunks().to_batches()[0],
                 pa.RecordBatchReader.from_batches(table.schema, table.to_batches())):
        got = fairkit.audit(data, **KW)
        assert isinstance(got, fairkit.AuditResult)
        assert {k: v for k, v in got.document.items() if k != "input"} == \
            {k: v for k, v in want.items() if k != "input"}


def test_a_polars_frame_gives_the_same_report():
    pl = pytest.importorskip("polars")
    df = frame(1)
    got = fairkit.audit(pl.from_pandas(df), **KW).document
    want = _audit_arrow(df, **KW).document
    assert got["audits"] == want["audits"] and got["headline"] == want["headline"]


def test_options_pass_through_and_are_checked_once():
    df = frame(2)
    weighted = fairkit.audit(df, weight="w", score="s", partial_interval=(0.1, 0.9), **KW)
    assert weighted.document["audits"] == _audit_arrow(
        df, weight="w", score="s", partial_interval=(0.1, 0.9), **KW).document["audits"]
    with pytest.raises(FairkitError, match="n_resamples"):
        fairkit.audit(df, label="y", pred="p", sensitive=["g"], n_resamples=5)
    with pytest.raises(TypeError):
        fairkit.audit(df, label="y", pred="p", sensitive=["g"], not_an_option=1)


def test_a_path_is_refused_with_the_command_to_use(tmp_path):
    f = tmp_path / "rows.csv"
    frame().to_csv(f, index=False)
    for path in (str(f), f):
        with pytest.raises(FairkitError, match="fairkit audit FILE"):
            fairkit.audit(path, **KW)


def test_compare_is_the_results_compare():
    a = fairkit.audit(frame(3), **KW)
    b = fairkit.audit(frame(4), **KW)
    assert fairkit.compare(a, b, n_resamples=200) == a.compare(b, n_resamples=200)
    with pytest.raises(FairkitError, match="before must be a fairkit.AuditResult"):
        fairkit.compare({"not": "a result"}, b)
    with pytest.raises(AttributeError):
        fairkit.NotAThing  # noqa: B018


def test_the_docstring_examples_run():
    import fairkit._audit as module

    failures, tried = doctest.testmod(module)
    assert tried >= 2 and failures == 0


def test_the_old_names_still_work_with_a_future_warning():
    import fairkit.spark

    df = frame(5)
    with pytest.warns(FutureWarning, match="renamed fairkit.audit"):
        old = fairkit.spark.audit_arrow(df, **KW)
    assert old == fairkit.audit(df, **KW)
    with pytest.warns(FutureWarning, match="fairkit.AuditResult"):
        cls = fairkit.spark.AuditResult
    assert cls is fairkit.AuditResult
    with pytest.raises(AttributeError):
        fairkit.spark.not_a_name  # noqa: B018
