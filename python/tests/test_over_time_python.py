"""`by=` / `against=` of `fairkit.audit` (issue 26): fairness over time and the paired comparison of
two models from Python, equal to `fairkit audit --by` / `--against` on the same rows (the same
Rust code builds both), and their bad arguments."""

import json
import subprocess

import numpy as np
import pandas as pd
import pytest

from conformance_cases import fairkit_binary
from fairkit._core import FairkitError
from fairkit import audit as audit_local


def frame() -> pd.DataFrame:
    """Three months; group f's selection rate 0.6, 0.5, 0.7 against m's 0.4, 0.5, 0.3; a second
    model `new` that selects 0.5 in both groups every month."""
    rows = []
    for month, (sel_f, sel_m) in zip((9, 10, 11), ((120, 80), (100, 100), (140, 60))):
        for g, sel in (("f", sel_f), ("m", sel_m)):
            for i in range(200):
                rows.append({"y": i % 2, "p": int(i < sel), "new": int(i < 100), "sex": g,
                             "scored_at": f"2026-{month:02d}-{1 + i % 28:02d}"})
    return pd.DataFrame(rows)


def cli(tmp_path, df: pd.DataFrame, extra: list) -> dict:
    csv = tmp_path / "rows.csv"
    df.to_csv(csv, index=False)
    out = tmp_path / "cli"
    subprocess.run([fairkit_binary(), "audit", str(csv), "--label", "y", "--pred", "p",
                    "--sensitive", "sex", "--resamples", "300", "--seed", "3", "--format", "json",
                    "--out", str(out), "--quiet", *extra], check=True, capture_output=True)
    return json.loads((out / "report.json").read_text())


def arrow(df, **kw):
    return audit_local(df, label="y", pred="p", sensitive=["sex"], n_resamples=300, seed=3, **kw)


@pytest.mark.parametrize("window,baseline", [("month", "first"), ("week", "previous")])
def test_by_equals_the_command(tmp_path, window, baseline):
    df = frame()
    r = arrow(df, by="scored_at", window=window, baseline=baseline)
    want = cli(tmp_path, df, ["--by", "scored_at", "--window", window, "--baseline", baseline])
    assert r.over_time == want["over_time"]
    assert r.document["summary"] == want["summary"]
    assert r.document["headline"] == want["headline"]
    # The audit of all rows is unchanged by by=.
    assert r.document["audits"] == arrow(df).document["audits"]
    if window == "month":
        months = [w["window"] for w in r.over_time["windows"]]
        assert months == ["2026-09", "2026-10", "2026-11"]
        dp = [next(g for g in w["slices"][0]["gaps"] if g["key"] == "dp_difference")
              for w in r.over_time["windows"]]
        assert [round(g["value"], 12) for g in dp] == [0.2, 0.0, 0.4]
    # The report carries the over-time section and its banded chart.
    text = r.report(formats=["md"])
    assert "Over time, by scored" in text["markdown"]
    assert "figures/over-time-sex.svg" in text["figures"]


def test_by_reads_date_and_timestamp_columns_as_their_utc_day(tmp_path):
    df = frame()
    as_text = arrow(df, by="scored_at", window="month").over_time
    for column in (pd.to_datetime(df["scored_at"]).dt.date,
                   pd.to_datetime(df["scored_at"]).dt.tz_localize("UTC")):
        got = arrow(df.assign(scored_at=column), by="scored_at", window="month").over_time
        assert got == as_text


def test_against_equals_the_command(tmp_path):
    df = frame()
    r = arrow(df, against="new")
    want = cli(tmp_path, df, ["--against", "new"])
    strip = lambda c: {k: v for k, v in c.items() if k not in ("before", "after")}  # noqa: E731
    assert strip(r.comparison) == strip(want["comparison"])
    assert r.comparison["before"]["file"] == "Arrow table (p)"
    assert r.comparison["after"]["file"] == "Arrow table (new)"
    dp = r.comparison["changes"][0]["gaps"][0]
    assert dp["before"] == pytest.approx(0.2) and dp["after"] == 0.0 and dp["p_value"] < 0.05
    # Gates on the paired change, from Python as from the command.
    out = r.check("change(dp_difference) < -0.1 and p < 0.05")
    assert out.failed


def test_bad_by_and_against_arguments_raise():
    # The messages are the library's one check's (`fair_audit::request`), as the command gives
    # them, naming the keyword argument.
    df = frame()
    with pytest.raises(FairkitError, match='window: unknown window "weekly"'):
        arrow(df, by="scored_at", window="weekly")
    with pytest.raises(FairkitError, match='baseline: unknown baseline "last"'):
        arrow(df, by="scored_at", baseline="last")
    with pytest.raises(FairkitError, match="invalid window 'month': a --by column"):
        arrow(df, window="month")
    with pytest.raises(FairkitError, match="invalid by 'sex': a column that is not also given"):
        arrow(df, by="sex")
    with pytest.raises(FairkitError, match="not a date"):
        arrow(df, by="sex2", window="month") if False else arrow(df.assign(v="x"), by="v",
                                                                 window="month")
    with pytest.raises(FairkitError, match="invalid against 'new': an unweighted audit"):
        arrow(df.assign(w=1.0), against="new", weight="w")
    with pytest.raises(FairkitError, match="second prediction column"):
        arrow(df, against="p")
    with pytest.raises(FairkitError, match="scored_atx"):
        arrow(df, by="scored_atx")
    with pytest.raises(FairkitError, match="neither label value"):
        arrow(df.assign(new=np.where(df["new"] == 1, 2, 0)), against="new")


def test_timezone_puts_zoned_timestamps_on_the_business_day(tmp_path):
    """A zoned timestamp column falls on its day in ``timezone`` — as ``fairkit audit
    --timezone`` places text timestamps with an offset — and every Sunday-evening New York row
    (04:30 UTC on a Monday) moves to the ISO week before."""
    df = frame()
    utc = pd.to_datetime(df["scored_at"]).dt.tz_localize("UTC") + pd.Timedelta(hours=4, minutes=30)
    zoned = df.assign(scored_at=utc)
    ny = arrow(zoned, by="scored_at", window="week", timezone="America/New_York").over_time
    as_utc = arrow(zoned, by="scored_at", window="week").over_time
    assert ny != as_utc
    assert sum(w["rows"] for w in ny["windows"]) == sum(w["rows"] for w in as_utc["windows"])
    # The same instants written as text with their offset, through the command.
    text = df.assign(scored_at=utc.dt.strftime("%Y-%m-%dT%H:%M:%SZ"))
    want = cli(tmp_path, text, ["--by", "scored_at", "--window", "week",
                                "--timezone", "America/New_York"])
    assert ny == want["over_time"]
    # The same instants held in a New York column read the same.
    local = zoned.assign(scored_at=utc.dt.tz_convert("America/New_York"))
    assert arrow(local, by="scored_at", window="week", timezone="America/New_York").over_time == ny
    with pytest.raises(FairkitError, match='did you mean "America/New_York"'):
        arrow(zoned, by="scored_at", window="week", timezone="America/New_Yrok")
