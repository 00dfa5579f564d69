"""`AuditResult.compare` (issue 26): two audits gap by gap through the same Rust code as
`fairkit compare` — the change, its interval and p-value, identical audits comparing equal, and
the errors of audits that cannot be compared."""

import json

import pyarrow as pa
import pytest

from fairkit._core import FairkitError
from fairkit import audit as audit_local


def table(selected_a, n=100):
    return pa.table({
        "y": [0, 1] * n,
        "p": [int(i < selected_a) for i in range(n)] + [int(i < n // 2) for i in range(n)],
        "g": ["a"] * n + ["b"] * n,
        "w": [1.0] * (2 * n),
    })


def audit(t, **kw):
    return audit_local(t, label="y", pred="p", sensitive=["g"], n_resamples=200, **kw)


def test_a_fairer_model_is_a_distinguishable_better_change(tmp_path):
    old, new = audit(table(80)), audit(table(50))
    c = old.compare(new, n_resamples=500, out=tmp_path / "c")
    dp = c["changes"][0]["gaps"][0]
    assert dp["key"] == "dp_difference"
    assert dp["before"] == pytest.approx(0.3, abs=1e-12)
    assert dp["after"] == 0.0
    assert dp["change"] == pytest.approx(-0.3, abs=1e-12)
    assert dp["upper"] < 0 and dp["p_value"] < 0.05 and not dp["worse"]
    # Every rate of every group too: a's selection rate 0.8 → 0.5.
    sel_a = next(r for r in c["changes"][0]["rates"]
                 if r["group"] == "a" and r["rate"] == "selection_rate")
    assert sel_a["change"] == pytest.approx(-0.3) and sel_a["p_value"] < 0.001
    assert sel_a["lower"] < -0.3 < sel_a["upper"]
    assert any(s.startswith("The demographic parity difference across g went from 0.300 to 0")
               for s in c["summary"])
    assert json.loads((tmp_path / "c" / "compare.json").read_text()) == c
    assert "<table>" in (tmp_path / "c" / "compare.html").read_text()
    # The other way round it got worse; same seed, same numbers.
    back = new.compare(old, n_resamples=500)
    assert back["changes"][0]["gaps"][0]["worse"]
    assert new.compare(old, n_resamples=500) == back


def test_identical_audits_compare_equal():
    a = audit(table(70))
    c = a.compare(a)
    for g in c["changes"][0]["gaps"]:
        if g["change"] is not None:
            assert g["change"] == 0.0 and g["lower"] <= 0 <= g["upper"] and g["p_value"] >= 0.05
    # The first page's sentences open the summary: the model, then each slice's verdict.
    assert c["summary"][0].startswith("Accuracy on all rows:")
    assert "no distinguishable change" in c["summary"][0]
    assert all(v["verdict"] == "unchanged" for v in c["verdicts"]), c["verdicts"]
    assert any(s.startswith("No gap changed distinguishably") for s in c["summary"])


def test_audits_that_cannot_be_compared_raise():
    a = audit(table(70))
    with pytest.raises(FairkitError, match="a weighted audit"):
        a.compare(audit(table(70), weight="w"))
    with pytest.raises(FairkitError, match="another AuditResult"):
        a.compare("report.json")
    with pytest.raises(FairkitError, match="expected at least 100 resamples"):
        a.compare(a, n_resamples=10)
    other = audit_local(table(70).rename_columns(["y", "p", "h", "w"]), label="y", pred="p",
                        sensitive=["h"], n_resamples=200)
    with pytest.raises(FairkitError, match="no sensitive column and prediction source in common"):
        a.compare(other)


def test_fail_if_gates_on_the_change_slice_by_slice():
    old, new = audit(table(50)), audit(table(80))
    gate = "change(dp_difference) > 0.02 and p < 0.01"
    c = old.compare(new, n_resamples=500, fail_if=[gate, "dp_difference > 0.5"])
    first, second = c["fail_if"]
    assert first["expression"] == gate and first["failed"]
    assert first["comparisons"][0]["comparison"] == "change(dp_difference) > 0.02 [slice g]"
    assert first["comparisons"][0]["actual"] == pytest.approx(0.3, abs=1e-12)
    # Plain keys read the after audit's headline: 0.3 is not above 0.5.
    assert not second["failed"] and second["comparisons"][0]["actual"] == pytest.approx(0.3)
    assert not new.compare(old, n_resamples=500, fail_if=gate)["fail_if"][0]["failed"]
    assert "fail_if" not in old.compare(new, n_resamples=500)
    with pytest.raises(FairkitError, match="exactly one change"):
        old.compare(new, fail_if="p < 0.01")
    with pytest.raises(FairkitError, match="unknown key 'change\\(ks_probe\\)'"):
        old.compare(new, fail_if="change(ks_probe) > 0")
    # A score gap's change is a known key, but these audits have no score.
    with pytest.raises(FairkitError, match="needs both audits run with --score"):
        old.compare(new, fail_if="change(ks_dp) > 0")


def test_score_gaps_compare_between_two_score_columns():
    # Two models' scores for the same rows: one shifts group m by 0.3, the other ignores the group.
    n = 500
    base = [0.35 * (i % 2) + 0.6 * ((i * 37 % n) / n) for i in range(n)] * 2
    shift = [0.0] * n + [0.3] * n
    t = pa.table({
        "y": [i % 2 for i in range(n)] * 2,
        "p": [i % 3 % 2 for i in range(n)] * 2,
        "g": ["f"] * n + ["m"] * n,
        "fair": base,
        "unfair": [b + s for b, s in zip(base, shift)],
    })
    old, new = (audit_local(t, label="y", pred="p", score=s, sensitive=["g"])
                for s in ("unfair", "fair"))
    c = old.compare(new, fail_if=["change(ks_dp) < -0.1 and p < 0.05"])
    assert "Bonferroni" in c["settings"]["score_method"]
    ks = next(g for g in c["score_changes"][0]["gaps"] if g["key"] == "ks_dp")
    assert ks["before"] > 0.4 and ks["after"] < 1e-12
    assert ks["upper"] < 0 and ks["p_value"] < 0.05
    assert c["fail_if"][0]["failed"] is True
    same = old.compare(old)
    for g in same["score_changes"][0]["gaps"]:
        assert g["change"] == 0.0 and g["p_value"] == 1.0
