"""One audit request, one check (issue 38): the same bad setting fed to ``fairkit audit``, to
``fairkit.audit`` and to ``fairkit.spark.audit`` gets the same message from the one
check in ``fair_audit::request`` — each front end naming the option in its own spelling
(``--resamples`` / ``n_resamples``) — and Python's defaults are the command's."""

from __future__ import annotations

import inspect
import subprocess

import pandas as pd
import pytest

from conformance_cases import fairkit_binary
from fairkit._core import FairkitError
from fairkit._core import spark as _core
from fairkit import audit as audit_local
from fairkit.spark import audit
from test_spark import spark  # noqa: F401  (the module's local[2] Spark session fixture)

pytestmark = pytest.mark.filterwarnings("ignore:PySpark does not yet fully support pandas",
                                        "ignore::UserWarning")


def frame() -> pd.DataFrame:
    return pd.DataFrame({
        "y": [1, 0, 1, 0] * 10, "p": [1, 0, 0, 0] * 10, "s": [0.9, 0.1, 0.4, 0.3] * 10,
        "g": ["a", "a", "b", "b"] * 10, "d": ["2026-11-0%d" % (1 + i % 3) for i in range(40)],
    })


# (Python keyword arguments, the command's flags, Python's name, the command's name, the
# message's shared part when the option is named by the vocabulary's parser instead).
CASES = [
    ({"confidence": 1.5}, ["--confidence", "1.5"], "confidence", "--confidence", None),
    ({"n_resamples": 0}, ["--resamples", "0"], "n_resamples", "--resamples", None),
    ({"score": "s", "partial_interval": (0.5, 0.2)},
     ["--score", "s", "--interval", "0.5,0.2"], "partial_interval", "--interval", None),
    ({"by": "g"}, ["--by", "g"], "by", "--by", None),
    ({"by": "d", "window": "fortnight"}, ["--by", "d", "--window", "fortnight"], None, None,
     'unknown window "fortnight": expected one of "value", "day", "week", "month"'),
    ({"by": "d", "baseline": "last"}, ["--by", "d", "--baseline", "last"], None, None,
     'unknown baseline "last": expected one of "first", "previous"'),
    ({"ci_method": "normal"}, ["--ci-method", "normal"], None, None,
     'unknown ci_method "normal": expected one of "wilson", "Wilson", "clopper-pearson"'),
]


@pytest.fixture(scope="module")
def rows(tmp_path_factory):
    path = tmp_path_factory.mktemp("request") / "rows.csv"
    frame().to_csv(path, index=False)
    return path


def command_error(rows, flags: list, tmp_path) -> str:
    p = subprocess.run([fairkit_binary(), "audit", str(rows), "--label", "y", "--pred", "p",
                        "--sensitive", "g", "--out", str(tmp_path / "out"), "--quiet", *flags],
                       capture_output=True, text=True, timeout=120)
    assert p.returncode == 2, p.stderr
    assert "panicked" not in p.stderr
    return p.stderr


def python_error(run, data, kwargs: dict) -> str:
    with pytest.raises(FairkitError) as e:
        run(data, label="y", pred="p", sensitive=["g"], **kwargs)
    return str(e.value)


def check_same(py: str, cli: str, py_name, flag, shared) -> None:
    if shared is not None:
        assert shared in py, py
        assert shared in cli, cli
        return
    # The command says "invalid --resamples '0': at least 100", Python "invalid n_resamples '0':
    # at least 100": the same message, the option in each front end's spelling.
    assert py.startswith(f"invalid {py_name} "), py
    assert f"error: invalid {flag} {py[len(f'invalid {py_name} '):]}" in cli, (py, cli)


@pytest.mark.parametrize("kwargs,flags,py_name,flag,shared", CASES,
                         ids=[" ".join(c[1][-2:]) for c in CASES])
def test_same_message_from_the_command_and_audit_arrow(rows, tmp_path, kwargs, flags, py_name,
                                                      flag, shared):
    py = python_error(audit_local, frame(), kwargs)
    cli = command_error(rows, flags, tmp_path)
    check_same(py, cli, py_name, flag, shared)


def test_same_message_from_spark(spark, rows, tmp_path):  # noqa: F811
    df = spark.createDataFrame(frame())
    for kwargs, flags, py_name, flag, shared in CASES:
        py = python_error(audit, df, kwargs)
        assert py == python_error(audit_local, frame(), kwargs)
        check_same(py, command_error(rows, flags, tmp_path), py_name, flag, shared)


def test_a_wrong_type_or_an_unknown_setting_names_the_keyword():
    msg = python_error(audit_local, frame(), {"n_resamples": "many"})
    assert msg.startswith("n_resamples: "), msg
    with pytest.raises(FairkitError, match="unknown field `n_permutations`"):
        _core.check_request({"label": "y", "pred": "p", "sensitive": ["g"],
                             "n_permutations": 5})


def test_python_defaults_are_the_commands():
    defaults = _core.audit_defaults()
    assert defaults["resamples"] == 1000 and defaults["interval"] is None
    for run in (audit, audit_local):
        params = inspect.signature(run).parameters
        assert params["n_resamples"].default == defaults["resamples"]
        assert params["partial_interval"].default is None
        assert params["confidence"].default == defaults["confidence"]
        assert params["min_group_size"].default == defaults["min_group_size"]
        assert params["ci_method"].default == defaults["ci_method"]
        assert params["multiple_testing"].default == defaults["multiple_testing"] == "none"
    # The same rows, the defaults on both sides: the same report.
    r = audit_local(frame(), label="y", pred="p", sensitive=["g"], score="s", min_group_size=0)
    assert r.document["settings"]["resamples"] == 1000
    assert r.document["settings"]["interval"] is None
    assert r.document["score_metrics"][0]["psp"] is None


def test_the_window_cap_holds_on_every_front_end(rows, tmp_path):
    # `fair_audit::run` caps the `by` windows at the group limit; it was the command's alone.
    py = python_error(audit_local, frame(), {"by": "d", "max_groups": 2})
    assert py.startswith('by="d" gives 3 windows, more than the limit of 2'), py
    cli = command_error(rows, ["--by", "d", "--max-groups", "2"], tmp_path)
    assert '--by "d" gives 3 windows, more than the limit of 2' in cli, cli


def test_multiple_testing_adjusts_the_gaps_beside_their_p_values():
    plain = audit_local(frame(), label="y", pred="p", sensitive=["g"], min_group_size=0)
    bh = audit_local(frame(), label="y", pred="p", sensitive=["g"], min_group_size=0,
                     multiple_testing="bh")
    assert "multiple_testing" not in plain.document["settings"]
    assert bh.document["settings"]["multiple_testing"] == "bh"
    gaps = bh.document["audits"][0]["slices"][0]["gaps"]
    raw = [g["p_value"] for g in gaps if g["p_value"] is not None]
    adjusted = [g["p_value_adjusted"] for g in gaps if g["p_value"] is not None]
    assert raw == [g["p_value"] for g in plain.document["audits"][0]["slices"][0]["gaps"]
                   if g["p_value"] is not None]
    assert all(q >= p for p, q in zip(raw, adjusted))
    group = bh.document["audits"][0]["slices"][0]["groups"][0]
    assert set(group["shrunken"]) == set(group["rates"])
    msg = python_error(audit_local, frame(), {"multiple_testing": "fdr"})
    assert msg.startswith("multiple_testing: "), msg
