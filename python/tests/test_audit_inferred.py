"""``fairkit.audit(..., sensitive_proba=..., proxy=...)``: inferred sensitive attributes from
Python — the command's report on files, certain membership equal to the ordinary audit bit for
bit, and bad probability columns refused with the command's message (one check, in Rust)."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest

import fairkit
from fairkit._core import FairkitError


def frame(certain: bool, n: int = 400, seed: int = 0) -> pd.DataFrame:
    rng = np.random.default_rng(seed)
    g = rng.choice(["a", "b"], size=n, p=[0.6, 0.4])
    zone = rng.integers(0, 8, size=n)
    y = (rng.random(n) < 0.4).astype(int)
    p = (rng.random(n) < np.where(g == "a", 0.5, 0.3) + 0.2 * y).astype(int)
    if certain:
        pa = (g == "a").astype(float)
    else:
        pa = np.round(0.2 + 0.08 * zone, 2)
    return pd.DataFrame({"y": y, "p": p, "g": g, "zone": zone, "a": pa, "b": 1.0 - pa})


def _command(*args: str):
    import subprocess

    from conformance_cases import fairkit_binary

    return subprocess.run([fairkit_binary(), *args], capture_output=True, text=True, timeout=300)


def test_certain_membership_equals_the_ordinary_audit():
    r = fairkit.audit(frame(True), label="y", pred="p", sensitive=["g"],
                      sensitive_proba={"race": ["a", "b"]}, n_resamples=100)
    race = r.inferred["attributes"][0]
    assert [s["name"] for s in race["slices"]] == ["race", "g & race"]
    ordinary = {g.group: g for g in r.slice("g").groups}
    for group in race["slices"][0]["groups"]:
        for rate in group["rates"]:
            want = ordinary[group["group"]].rates[rate["rate"]].value
            assert rate["weighted"]["value"] == want
            assert rate["thresholded"]["value"] == want
            if rate["bounds"] is not None:
                assert rate["bounds"] == [want, want]
    assert "accurate on average within each proxy cell" in r.inferred["note"]
    # Certain membership: the bounds are points, so no disparity beyond the observed one.
    observed = r.slice("g").gap("dp_difference").value
    assert not r.check(f"selection_rate_disparity_bound > {observed + 1e-12}").failed
    assert r.check(f"selection_rate_disparity_bound > {observed - 1e-12}").failed


def test_a_file_gives_the_commands_report(tmp_path):
    df = frame(False)
    path = tmp_path / "rows.csv"
    df.to_csv(path, index=False)
    out = tmp_path / "cmd"
    p = _command("audit", str(path), "--label", "y", "--pred", "p", "--sensitive", "g",
                 "--sensitive-proba", "race=a,b", "--proxy", "zone", "--resamples", "100",
                 "--out", str(out), "--quiet")
    assert p.returncode == 0, p.stderr
    got = fairkit.audit(path, label="y", pred="p", sensitive=["g"],
                        sensitive_proba={"race": ["a", "b"]}, proxy="zone", n_resamples=100)
    assert got.report_json == (out / "report.json").read_text()
    mem = fairkit.audit(df, label="y", pred="p", sensitive=["g"],
                        sensitive_proba={"race": ["a", "b"]}, proxy="zone", n_resamples=100)
    assert mem.inferred == got.inferred
    race = got.inferred["attributes"][0]
    assert race["proxy"] == "zone" and race["cells"] == 8
    sr = race["slices"][0]["disparities"][0]
    assert sr["rate"] == "selection_rate"
    assert sr["bounds"]["lower"] <= sr["weighted"]["value"] <= sr["bounds"]["upper"]


@pytest.mark.parametrize("bad, problem", [
    (0.9, "they sum to 1.9"),
    (1.5, "a is above 1 (1.5)"),
    (-0.5, "a is negative (-0.5)"),
])
def test_bad_probabilities_give_the_commands_message(tmp_path, bad, problem):
    # (A NaN from pandas is a null in Arrow and in CSV: a missing value, refused as such.)
    df = frame(False, n=50)
    df.loc[7, "a"] = bad
    df.loc[7, "b"] = 1.0
    path = tmp_path / "rows.csv"
    df.to_csv(path, index=False)
    p = _command("audit", str(path), "--label", "y", "--pred", "p", "--sensitive", "g",
                 "--sensitive-proba", "race=a,b", "--resamples", "100", "--out",
                 str(tmp_path / "o"), "--quiet")
    assert p.returncode != 0
    with pytest.raises(FairkitError) as e:
        fairkit.audit(path, label="y", pred="p", sensitive=["g"],
                      sensitive_proba={"race": ["a", "b"]}, n_resamples=100)
    message = str(e.value)
    assert problem in message and "row 8 (line 9)" in message
    assert message.split(": ", 1)[1] in p.stderr
    with pytest.raises(FairkitError, match="membership probabilities of race"):
        fairkit.audit(df, label="y", pred="p", sensitive=["g"],
                      sensitive_proba={"race": ["a", "b"]}, n_resamples=100)


def test_an_inferred_attribute_alone(tmp_path):
    df = frame(False)
    r = fairkit.audit(df, label="y", pred="p", sensitive_proba={"race": ["a", "b"]},
                      proxy="zone", n_resamples=100)
    assert r.document["audits"][0]["slices"] == []
    assert [s["name"] for s in r.inferred["attributes"][0]["slices"]] == ["race"]
    with pytest.raises(FairkitError, match="sensitive"):
        fairkit.audit(df, label="y", pred="p")


def test_bad_requests_name_the_keyword():
    df = frame(True, n=20)
    with pytest.raises(FairkitError, match="sensitive_proba"):
        fairkit.audit(df, label="y", pred="p", sensitive=["g"],
                      sensitive_proba={"race": ["a"]})
    with pytest.raises(FairkitError, match="proxy"):
        fairkit.audit(df, label="y", pred="p", sensitive=["g"], proxy="zone")
