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


# -- files, read by the command's readers --------------------------------------------------------

def _command(*args: str) -> None:
    from conformance_cases import fairkit_binary

    import subprocess

    p = subprocess.run([fairkit_binary(), *args], capture_output=True, text=True, timeout=300)
    assert p.returncode == 0, p.stderr


def test_a_file_gives_the_commands_report_byte_for_byte(tmp_path):
    df = frame(6)
    csv, parquet = tmp_path / "rows.csv", tmp_path / "rows.parquet"
    df.to_csv(csv, index=False)
    df.to_parquet(parquet, index=False)
    for path in (csv, parquet):
        out = tmp_path / f"report-{path.suffix[1:]}"
        _command("audit", str(path), "--label", "y", "--pred", "p", "--sensitive", "g",
                 "--weight", "w", "--score", "s", "--interval", "0.1,0.9", "--resamples", "200",
                 "--seed", "4", "--format", "json,md,html", "--out", str(out), "--quiet")
        got = fairkit.audit(path, label="y", pred="p", sensitive=["g"], weight="w", score="s",
                            partial_interval=(0.1, 0.9), n_resamples=200, seed=4)
        assert got.report_json == (out / "report.json").read_text()
        views = got.report(tmp_path / f"py-{path.suffix[1:]}")
        assert views["html"] == (out / "report.html").read_text()
        assert views["markdown"] == (out / "report.md").read_text()
        for name, svg in views["figures"].items():
            assert svg == (out / name).read_text()
        # The same rows in memory: the same audit (where the rows came from aside).
        assert got == fairkit.audit(df, label="y", pred="p", sensitive=["g"], weight="w",
                                    score="s", partial_interval=(0.1, 0.9), n_resamples=200,
                                    seed=4)


def test_several_files_and_a_folder_of_parts(tmp_path):
    df = frame(7)
    parts = tmp_path / "parts"
    parts.mkdir()
    halves = (df.iloc[:1500], df.iloc[1500:])
    for i, half in enumerate(halves):
        half.to_parquet(parts / f"part-{i}.parquet", index=False)
    whole = fairkit.audit(df, **KW)
    assert fairkit.audit(parts, **KW) == whole
    assert fairkit.audit([parts / "part-0.parquet", parts / "part-1.parquet"], **KW) == whole
    assert fairkit.audit(str(parts / "part-0.parquet"), **KW) == fairkit.audit(halves[0], **KW)


def test_file_errors_name_the_file_row_and_keyword(tmp_path):
    missing = tmp_path / "nope.csv"
    with pytest.raises(FairkitError, match="nope.csv"):
        fairkit.audit(missing, **KW)
    f = tmp_path / "rows.csv"
    bad = frame(8)
    bad.loc[9, "y"] = 7
    bad.to_csv(f, index=False)
    with pytest.raises(FairkitError, match=r"rows.csv: row 10 \(line 11\), column 'y'"):
        fairkit.audit(f, **KW)
    frame(8).to_csv(f, index=False)
    with pytest.raises(FairkitError, match="label="):
        fairkit.audit(f, label="not_a_column", pred="p", sensitive=["g"])
    with pytest.raises(FairkitError, match="n_resamples"):
        fairkit.audit(f, label="y", pred="p", sensitive=["g"], n_resamples=5)
    with pytest.raises(FairkitError, match="input_format"):
        fairkit.audit(f, input_format="xlsx", **KW)
    with pytest.raises(FairkitError, match="score_partitions"):
        fairkit.audit(f, score_partitions=4, **KW)
    with pytest.raises(FairkitError, match="delimiter set how files are read"):
        fairkit.audit(frame(8), delimiter=";", **KW)
    with pytest.raises(FairkitError, match="bytes"):
        fairkit.audit(b"rows.csv", **KW)


def test_reading_options_reach_the_readers(tmp_path):
    df = frame(9)
    f = tmp_path / "rows.txt"
    df.to_csv(f, index=False, sep=";")
    got = fairkit.audit(f, delimiter=";", input_format="csv", **KW)
    assert got == fairkit.audit(df, **KW)
    yes = df.assign(y=np.where(df["y"] == 1, "yes", "no"))
    yes.to_csv(f, index=False, sep=";")
    yes = yes.assign(p=np.where(df["p"] == 1, "yes", "no"))
    yes.to_csv(f, index=False, sep=";")
    named = fairkit.audit(f, delimiter=";", input_format="csv", pos_label="yes", neg_label="no",
                          label="y", pred="p", sensitive=["g"], n_resamples=200, seed=4)
    assert named.document["input"]["positive_label"] == "yes"
