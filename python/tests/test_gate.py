"""`fairkit._core.check_report`: the `--fail-if` gates of `fairkit audit` on a report.json text,
by the same Rust code (fair_audit::fail_if): report keys, fairlearn's names as aliases, and the
same errors."""

import json

import pyarrow as pa
import pytest

from fairkit._core import FairkitError, check_report
from fairkit import audit as audit_local

# Group a: selection 3/4, TPR 2/2, FPR 1/2, accuracy 3/4.
# Group b: selection 1/4, TPR 1/2, FPR 0/2, accuracy 3/4.
LABELS = [1, 1, 0, 0, 1, 1, 0, 0]
PREDS = [1, 1, 1, 0, 1, 0, 0, 0]
GROUPS = ["a", "a", "a", "a", "b", "b", "b", "b"]


def report_json(labels=LABELS, preds=PREDS, groups=GROUPS):
    table = pa.table({"y": labels, "p": preds, "g": groups})
    result = audit_local(table, label="y", pred="p", sensitive=["g"], n_resamples=200,
                         min_group_size=0)
    return result.report(formats=["json"])["json"]


@pytest.fixture(scope="module")
def report():
    return report_json()


def verdict(report, expr):
    (out,) = check_report(report, [expr])
    assert out["expression"] == expr
    return out["failed"]


def test_true_and_false_cases_by_hand(report):
    assert json.loads(report)["headline"]["dp_difference"]["value"] == 0.5
    assert verdict(report, "dp_difference > 0.49")
    assert not verdict(report, "dp_difference > 0.5")
    assert verdict(report, "dp_difference >= 0.5")
    assert verdict(report, "eo_ratio < 0.6")
    assert not verdict(report, "eo_ratio < 0.5")
    assert verdict(report, "eq_odds_ratio <= 0")  # FPR 0 in group b
    assert not verdict(report, "accuracy_difference > 0")
    # `and` binds tighter than `or`.
    assert verdict(report, "accuracy_difference > 0 and dp_difference > 0 or eo_difference >= 0.5")
    assert not verdict(report, "accuracy_difference > 0 and dp_difference > 0 || eo_ratio > 0.5")


def test_result_shape(report):
    out = check_report(report, ["dp_difference > 0.1 and eo_ratio < 0.4", "dp_ratio < 0.5"])
    assert [o["failed"] for o in out] == [False, True]
    first = out[0]["comparisons"]
    assert [c["comparison"] for c in first] == ["dp_difference > 0.1", "eo_ratio < 0.4"]
    assert [c["holds"] for c in first] == [True, False]
    assert [c["actual"] for c in first] == [0.5, 0.5]
    assert out[1]["comparisons"][0]["actual"] == pytest.approx(1 / 3, abs=1e-15)
    assert check_report(report, []) == []


ALIASES = {
    "demographic_parity_difference": "dp_difference",
    "selection_rate_difference": "dp_difference",
    "demographic_parity_ratio": "dp_ratio",
    "selection_rate_ratio": "dp_ratio",
    "equal_opportunity_difference": "eo_difference",
    "true_positive_rate_difference": "eo_difference",
    "equal_opportunity_ratio": "eo_ratio",
    "true_positive_rate_ratio": "eo_ratio",
    "equalized_odds_difference": "eq_odds_difference",
    "equalized_odds_ratio": "eq_odds_ratio",
    "accuracy_score_difference": "accuracy_difference",
    "accuracy_score_ratio": "accuracy_ratio",
}


@pytest.mark.parametrize("alias,key", sorted(ALIASES.items()))
def test_aliases_give_the_canonical_answer_and_fairlearns_number(report, alias, key):
    for bound in (0.0, 1 / 3, 0.5, 0.75, 1.0):
        for op in (">", ">=", "<", "<="):
            a = check_report(report, [f"{alias} {op} {bound}"])[0]
            k = check_report(report, [f"{key} {op} {bound}"])[0]
            assert a["failed"] == k["failed"]
            assert a["comparisons"][0]["actual"] == k["comparisons"][0]["actual"]
            assert a["comparisons"][0]["comparison"].startswith(alias)
    # The value under fairlearn's name is fairlearn's (fairlearn is a test requirement: this
    # always runs).
    import fairlearn.metrics as fairlearn
    got = check_report(report, [f"{alias} > 0"])[0]["comparisons"][0]["actual"]
    want = getattr(fairlearn, alias)(LABELS, PREDS, sensitive_features=GROUPS)
    assert got == pytest.approx(want, abs=1e-12)


def test_alias_refuses_where_fairlearns_convention_differs():
    # Group c has no positives: the audit skips its TPR, fairlearn counts it as 0.
    labels = LABELS + [0, 0]
    preds = PREDS + [1, 0]
    groups = GROUPS + ["c", "c"]
    report = report_json(labels, preds, groups)
    assert verdict(report, "eo_difference >= 0.5")  # the report's value: a and b only
    with pytest.raises(FairkitError, match=r"group 'c'.*gate on eo_difference"):
        check_report(report, ["equal_opportunity_difference > 0.1"])
    # Selection rates are defined in every group: the alias answers.
    assert verdict(report, "demographic_parity_difference >= 0.5")


def test_bad_expressions_raise_helpful_messages(report):
    with pytest.raises(FairkitError, match=r"unknown key 'dp_diff'.*dp_difference.*"
                                           r"demographic_parity_difference = dp_difference"):
        check_report(report, ["dp_diff > 0.1"])
    with pytest.raises(FairkitError, match=r"unexpected character '=' at position 14"):
        check_report(report, ["dp_difference = 0.1"])
    with pytest.raises(FairkitError, match=r"expected a number"):
        check_report(report, ["dp_difference >"])
    with pytest.raises(FairkitError, match="empty"):
        check_report(report, ["  "])
    with pytest.raises(FairkitError, match=r"ks_dp.*--score"):
        check_report(report, ["ks_dp > 0.1"])
    with pytest.raises(FairkitError, match="not a fairkit audit report"):
        check_report("{}", ["dp_difference > 0.1"])
