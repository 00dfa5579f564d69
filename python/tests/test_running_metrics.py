"""fairkit.metrics.RunningMetrics: a streaming MetricFrame of the recognised rates, equal to the
one-shot MetricFrame bit for bit (any batches, any merge order, through bytes and pickle)."""

import pickle
import re
from pathlib import Path

import numpy as np
import pandas as pd
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from fairkit import FairkitError
from fairkit.metrics import (
    MetricFrame,
    RunningMetrics,
    false_positive_rate,
    selection_rate,
    true_positive_rate,
)

DOCS = Path(__file__).resolve().parents[2] / "docs" / "python.md"
RATES = [
    "selection_rate",
    "true_positive_rate",
    "false_positive_rate",
    "true_negative_rate",
    "false_negative_rate",
    "accuracy_score",
    "precision_score",
    "recall_score",
    "zero_one_loss",
]


def bits(x):
    """Float64 values as comparable bit patterns (every NaN alike)."""
    a = np.asarray(x, dtype=np.float64).reshape(-1)
    out = a.view(np.int64).copy()
    out[np.isnan(a)] = 0x7FF8000000000000
    return out


def assert_same(got, want):
    """The same pandas object (index, columns, dtypes) and the same bits."""
    assert type(got) is type(want)
    if isinstance(want, (pd.Series, pd.DataFrame)):
        assert got.index.equals(want.index), (got.index, want.index)
        assert list(got.index.names) == list(want.index.names)
        if isinstance(want, pd.DataFrame):
            assert list(got.columns) == list(want.columns)
            assert list(got.dtypes) == list(want.dtypes)
        else:
            assert got.dtype == want.dtype and got.name == want.name
        np.testing.assert_array_equal(bits(got.to_numpy()), bits(want.to_numpy()))
    else:
        np.testing.assert_array_equal(bits(got), bits(want))


def assert_frames_equal(mf, want):
    assert_same(mf.overall, want.overall)
    assert_same(mf.by_group, want.by_group)
    assert_same(mf.group_min(), want.group_min())
    assert_same(mf.group_max(), want.group_max())
    for method in ("between_groups", "to_overall"):
        assert_same(mf.difference(method=method), want.difference(method=method))
        assert_same(mf.ratio(method=method), want.ratio(method=method))
    assert mf.sensitive_levels == want.sensitive_levels


def one_shot(metrics, y, p, sf, w=None, pos_label=None):
    params = None
    if w is not None:
        if isinstance(metrics, dict):
            params = {name: {"sample_weight": w} for name in metrics}
        else:
            params = {"sample_weight": w}
    return MetricFrame(metrics=metrics, y_true=y, y_pred=p, sensitive_features=sf,
                       sample_params=params, pos_label=pos_label)


# -- hand-computed cases ------------------------------------------------------------------------

def test_hand_computed_two_batches():
    rm = RunningMetrics({"sel": selection_rate, "tpr": true_positive_rate,
                         "fpr": false_positive_rate})
    # a: y 1 0 1 / p 1 0 0 -> sel 1/3, tpr 1/2, fpr 0; b: y 1 0 0 / p 1 1 0 -> 2/3, 1, 1/2.
    rm.update([1, 0, 1], [1, 0, 0], sensitive_features=["a", "a", "a"])
    rm.update(np.array([1, 0, 0]), np.array([1, 1, 0]), sensitive_features=np.array(["b"] * 3))
    mf = rm.result()
    assert isinstance(mf, MetricFrame)
    assert mf.by_group["sel"].tolist() == [1 / 3, 2 / 3]
    assert mf.by_group["tpr"].tolist() == [0.5, 1.0]
    assert mf.by_group["fpr"].tolist() == [0.0, 0.5]
    assert mf.overall.tolist() == [0.5, 2 / 3, 1 / 3]
    assert mf.difference()["tpr"] == 0.5
    assert mf.ratio()["sel"] == 0.5
    assert rm.n_rows == 6 and rm.labels == [0, 1]


def test_hand_computed_weighted_and_single_metric():
    rm = RunningMetrics(selection_rate)
    rm.update([0, 0], [1, 0], sensitive_features=["a", "b"], sample_weight=[3.0, 1.0])
    rm.update([0, 0], [0, 1], sensitive_features=["a", "b"], sample_weight=[1.0, 0.5])
    mf = rm.result()
    # a: selected weight 3 of 4; b: 0.5 of 1.5; overall 3.5 of 5.5.
    assert isinstance(mf.by_group, pd.Series)
    assert mf.by_group.tolist() == [0.75, 0.5 / 1.5]
    assert mf.overall == 3.5 / 5.5


def test_groups_first_seen_later_and_intersections():
    rm = RunningMetrics(["true_positive_rate", "selection_rate"])
    rm.update([1, 1], [1, 0], sensitive_features=pd.DataFrame({"s": ["x", "x"], "r": [1, 2]}))
    rm.update([1, 0], [1, 1], sensitive_features=pd.DataFrame({"s": ["y", "z"], "r": [2, 1]}))
    want = one_shot({"true_positive_rate": "true_positive_rate",
                     "selection_rate": "selection_rate"},
                    [1, 1, 1, 0], [1, 0, 1, 1],
                    pd.DataFrame({"s": ["x", "x", "y", "z"], "r": [1, 2, 2, 1]}))
    assert_frames_equal(rm.result(), want)
    # The product of the levels, NaN rows for combinations never seen (as MetricFrame).
    assert len(rm.result().by_group) == 6


def test_pos_label_strings_and_minus_one():
    rm = RunningMetrics("true_positive_rate", pos_label="yes")
    rm.update(["yes", "no"], ["yes", "yes"], sensitive_features=[1, 1])
    rm.update(["yes"], ["no"], sensitive_features=[2])
    want = one_shot("true_positive_rate", ["yes", "no", "yes"], ["yes", "yes", "no"], [1, 1, 2],
                    pos_label="yes")
    assert_frames_equal(rm.result(), want)
    rm = RunningMetrics("false_positive_rate")
    rm.update([-1, 1], [1, 1], sensitive_features=["a", "b"])
    rm.update([-1], [-1], sensitive_features=["a"])
    assert_frames_equal(rm.result(), one_shot("false_positive_rate", [-1, 1, -1], [1, 1, -1],
                                              ["a", "b", "a"]))


def test_selection_only_ignores_y_true():
    rm = RunningMetrics({"sel": "selection_rate"})
    rm.update(["whatever", 7], [1, 0], sensitive_features=["a", "b"])
    assert rm.result().by_group["sel"].tolist() == [1.0, 0.0]


# -- the property: any batches, any merge order, bytes and pickle --------------------------------

@st.composite
def problems(draw):
    n = draw(st.integers(1, 40))
    n_features = draw(st.integers(1, 3))
    alphabets = [["a", "b", "c"], [0, 1, 2, 3], [True, False], [1.5, -2.0]]
    columns = {}
    for j in range(n_features):
        alphabet = draw(st.sampled_from(alphabets))
        columns[f"f{j}"] = draw(st.lists(st.sampled_from(alphabet), min_size=n, max_size=n))
    labels = draw(st.sampled_from(["01", "pm1", "str", "bool"]))
    y = draw(st.lists(st.integers(0, 1), min_size=n, max_size=n))
    p = draw(st.lists(st.integers(0, 1), min_size=n, max_size=n))
    pos_label = None
    if labels == "pm1":
        y, p = [2 * v - 1 for v in y], [2 * v - 1 for v in p]
    elif labels == "str":
        y, p = [["no", "yes"][v] for v in y], [["no", "yes"][v] for v in p]
        pos_label = "yes"
    elif labels == "bool":
        y, p = [bool(v) for v in y], [bool(v) for v in p]
    weighted = draw(st.booleans())
    w = None
    if weighted:
        w = draw(st.lists(
            st.one_of(st.floats(1e-3, 1e3), st.floats(1e-300, 1e300), st.sampled_from([0.1, 0.7, 0.0])),
            min_size=n, max_size=n))
    names = draw(st.lists(st.sampled_from(RATES), min_size=1, max_size=4, unique=True))
    single = draw(st.booleans()) and len(names) == 1
    metrics = names[0] if single else {f"m_{k}": k for k in names}
    cuts = sorted(draw(st.lists(st.integers(0, n), max_size=5)))
    order = draw(st.permutations(range(len(cuts) + 1)))
    return dict(columns=columns, y=np.array(y), p=np.array(p), w=None if w is None else np.array(w),
                pos_label=pos_label, metrics=metrics, cuts=cuts, order=order,
                as_frame=draw(st.booleans()))


def _features(columns, rows, as_frame):
    if as_frame or len(columns) > 1:
        return pd.DataFrame({k: pd.Series(v, dtype=object if isinstance(v[0], str) else None)
                             for k, v in columns.items()}).iloc[rows].reset_index(drop=True)
    (name, v), = columns.items()
    return pd.Series(v, name=name).iloc[rows].reset_index(drop=True)


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(problems())
def test_batches_merges_and_bytes_equal_the_one_shot_frame(pr):
    n = len(pr["y"])
    all_rows = np.arange(n)
    sf_all = _features(pr["columns"], all_rows, pr["as_frame"])
    try:
        want = one_shot(pr["metrics"], pr["y"], pr["p"], sf_all, pr["w"], pr["pos_label"])
        want.by_group  # noqa: B018
        want_err = None
    except FairkitError as e:
        want, want_err = None, e

    bounds = [0] + pr["cuts"] + [n]
    parts = []
    for k in range(len(bounds) - 1):
        rows = all_rows[bounds[k]:bounds[k + 1]]
        rm = RunningMetrics(pr["metrics"], pos_label=pr["pos_label"])
        if len(rows):
            rm.update(pr["y"][rows], pr["p"][rows],
                      sensitive_features=_features(pr["columns"], rows, pr["as_frame"]),
                      sample_weight=None if pr["w"] is None else pr["w"][rows])
        parts.append(rm)

    # One state fed batch by batch; one merged in the drawn order through bytes and pickle.
    fed = RunningMetrics(pr["metrics"], pos_label=pr["pos_label"])
    for k in range(len(bounds) - 1):
        rows = all_rows[bounds[k]:bounds[k + 1]]
        if len(rows):
            fed.update(list(pr["y"][rows]), pr["p"][rows],
                       sensitive_features=_features(pr["columns"], rows, pr["as_frame"]),
                       sample_weight=None if pr["w"] is None else list(pr["w"][rows]))
    merged = RunningMetrics.from_bytes(parts[pr["order"][0]].to_bytes())
    for k in pr["order"][1:]:
        merged.merge(pickle.loads(pickle.dumps(parts[k])))
    assert merged.to_bytes() == fed.to_bytes()
    assert RunningMetrics.from_bytes(merged.to_bytes()).to_bytes() == merged.to_bytes()

    for state in (fed, merged):
        if want_err is not None:
            with pytest.raises(FairkitError):
                state.result()
        else:
            assert_frames_equal(state.result(), want)


# -- bad input: typed errors naming the parameter ------------------------------------------------

def fresh():
    rm = RunningMetrics(["selection_rate", "true_positive_rate"])
    rm.update([0, 1], [1, 1], sensitive_features=["a", "b"], sample_weight=[1.0, 2.0])
    return rm


@pytest.mark.parametrize("call, pattern", [
    (lambda rm: rm.update([0, 1, 1], [1, 1], sensitive_features=["a"] * 3), "y_pred"),
    (lambda rm: rm.update([0, 1], [1, 1], sensitive_features=["a"] * 3), "sensitive feature"),
    (lambda rm: rm.update([0, 1], [1, 1], sensitive_features=["a"] * 2,
                          sample_weight=[1.0]), "sample_weight"),
    (lambda rm: rm.update([0, 1], [1, 1], sensitive_features=["a"] * 2,
                          sample_weight=[1.0, np.nan]), r"sample_weight.*row 1"),
    (lambda rm: rm.update([0, 1], [1, 1], sensitive_features=["a"] * 2,
                          sample_weight=[-1.0, 1.0]), r"sample_weight.*row 0"),
    (lambda rm: rm.update([0, 1], [1, 1], sensitive_features=["a"] * 2), "sample_weight"),
    (lambda rm: rm.update([0, 2], [1, 1], sensitive_features=["a"] * 2,
                          sample_weight=[1.0, 1.0]), "y_true and y_pred"),
    (lambda rm: rm.update([-1, 1], [1, 1], sensitive_features=["a"] * 2,
                          sample_weight=[1.0, 1.0]), r"3 distinct label values"),
    (lambda rm: rm.update([0, 1], [1, 1], sensitive_features={"other": ["a", "a"]},
                          sample_weight=[1.0, 1.0]), "sensitive_features"),
    (lambda rm: rm.update([0, 1], [1, 1], sensitive_features=["a", None],
                          sample_weight=[1.0, 1.0]), "missing"),
    (lambda rm: rm.update([0, 1], [1, 1], sensitive_features=None), "sensitive_features"),
    (lambda rm: rm.merge(RunningMetrics("selection_rate")), "merge"),
])
def test_bad_batches_raise_and_leave_the_state_unchanged(call, pattern):
    rm = fresh()
    before = rm.to_bytes()
    with pytest.raises(FairkitError, match=pattern):
        call(rm)
    assert isinstance(FairkitError("x"), ValueError)
    assert rm.to_bytes() == before


def test_conflicting_labels_between_merged_states():
    a, b = RunningMetrics("true_positive_rate"), RunningMetrics("true_positive_rate")
    a.update([0, 1], [0, 1], sensitive_features=["g", "g"])
    b.update([-1, 1], [-1, 1], sensitive_features=["g", "g"])
    with pytest.raises(FairkitError, match="3 distinct label values"):
        a.merge(b)
    c = RunningMetrics("true_positive_rate", pos_label="y")
    c.update(["n"], ["n"], sensitive_features=["g"])
    with pytest.raises(FairkitError, match="pos_label='y' is not one of the label values"):
        c.update(["m"], ["m"], sensitive_features=["g"])


@pytest.mark.parametrize("metrics", ["balanced_accuracy_score", ["selection_rate", "f1"],
                                     {"x": lambda y, p: 0.0}, {"x": None}, [], 3])
def test_unsupported_metrics_name_the_supported_ones(metrics):
    with pytest.raises(FairkitError, match="metrics") as e:
        RunningMetrics(metrics)
    if metrics not in ([],) and not isinstance(metrics, int):
        assert "selection_rate" in str(e.value) and "zero_one_loss" in str(e.value)


def test_garbage_bytes_raise_a_typed_error():
    good = fresh().to_bytes()
    for data in [b"", b"garbage", good[:5], good[:20], good[:-1], good + b"\0",
                 b"FKRM\x01" + b"\xff" * 8, b"FKRM\x02" + good[5:], "text"]:
        with pytest.raises(FairkitError, match="data"):
            RunningMetrics.from_bytes(data)
    with pytest.raises(FairkitError, match="no rows"):
        RunningMetrics("selection_rate").result()


@settings(max_examples=300, deadline=None)
@given(st.binary(max_size=200), st.integers(0, 400), st.binary(max_size=8))
def test_mutated_bytes_never_crash(noise, at, patch):
    good = bytearray(fresh().to_bytes())
    for data in (noise, bytes(good[:at] + patch + good[at + len(patch):])):
        try:
            rm = RunningMetrics.from_bytes(data)
        except FairkitError:
            continue
        try:
            rm.result()
        except FairkitError:
            pass


def test_pickle_copy_and_self_merge():
    rm = fresh()
    assert pickle.loads(pickle.dumps(rm)).to_bytes() == rm.to_bytes()
    twice = rm.copy().merge(rm)
    doubled = rm.copy()
    doubled.merge(doubled)
    assert doubled.to_bytes() == twice.to_bytes()
    assert doubled.n_rows == 4


def test_docs_example_runs(capsys):
    text = DOCS.read_text(encoding="utf-8")
    section = text.split("## Streaming metrics in a training loop", 1)[1]
    blocks = re.findall(r"```python\n(.*?)```", section, flags=re.S)
    assert blocks
    exec(compile(blocks[0], str(DOCS), "exec"), {})
    assert "epoch 1: TPR gap" in capsys.readouterr().out


def test_weighted_cells_are_exact_sums_in_metricframe_too():
    # 1 + 1e16 + 1 summed naively in row order is 1e16 (each 1 is lost); exactly, 1e16 + 2.
    w = np.array([1.0, 1e16, 1.0])
    y, p, sf = np.array([1, 1, 1]), np.array([1, 0, 1]), ["g", "g", "g"]
    mf = MetricFrame(metrics=selection_rate, y_true=y, y_pred=p, sensitive_features=sf,
                     sample_params={"sample_weight": w})
    assert mf.overall == 2.0 / (1e16 + 2.0)
    rev = MetricFrame(metrics=selection_rate, y_true=y[::-1], y_pred=p[::-1],
                      sensitive_features=sf, sample_params={"sample_weight": w[::-1].copy()})
    assert_same(rev.by_group, mf.by_group)
    rm = RunningMetrics(selection_rate)
    for k in (2, 0, 1):
        rm.update(y[k:k + 1], p[k:k + 1], sensitive_features=sf[k:k + 1], sample_weight=w[k:k + 1])
    assert_frames_equal(rm.result(), mf)
    # int64 group ids take MetricFrame's one-pass path: the same exact sums.
    ids = MetricFrame(metrics=selection_rate, y_true=y, y_pred=p,
                      sensitive_features=np.array([3, 3, 3]), sample_params={"sample_weight": w})
    assert ids.overall == mf.overall


def test_docstring_examples():
    import doctest

    import fairkit.metrics._running as module

    result = doctest.testmod(module, optionflags=doctest.ELLIPSIS)
    assert result.attempted > 0 and result.failed == 0


def test_input_forms_like_metricframe():
    y = np.array([1, 0, 1, 1, 0, 0, 1, 0])
    p = np.array([1, 1, 0, 1, 0, 1, 1, 0])
    a = np.array(["x", "y", "x", "y", "x", "y", "z", "z"])
    b = np.array([1, 1, 2, 2, 1, 2, 1, 2])
    metrics = {"tpr": true_positive_rate, "acc": "accuracy_score"}
    forms = {
        "2-D numpy": lambda s: np.column_stack([a[s], b[s].astype(str)]),
        "dict": lambda s: {"a": a[s], "b": b[s]},
        "categorical": lambda s: pd.DataFrame({"a": pd.Categorical(a[s], categories=["z", "y", "x"]),
                                               "b": b[s]}),
        "list": lambda s: list(a[s]),
    }
    for name, form in forms.items():
        rm = RunningMetrics(metrics)
        for s in (slice(0, 3), slice(3, 4), slice(4, 8)):
            rm.update(list(y[s]), pd.Series(p[s]), sensitive_features=form(s))
        assert_frames_equal(rm.result(), one_shot(metrics, y, p, form(slice(None))))
    pl = pytest.importorskip("polars")
    rm = RunningMetrics(metrics)
    for s in (slice(0, 5), slice(5, 8)):
        rm.update(pl.Series(y[s]), pl.Series(p[s]),
                  sensitive_features=pl.DataFrame({"a": a[s], "b": b[s]}))
    assert_frames_equal(rm.result(), one_shot(metrics, y, p, pd.DataFrame({"a": a, "b": b})))


@settings(max_examples=40, deadline=None)
@given(st.integers(2, 60).flatmap(lambda n: st.tuples(
    st.lists(st.integers(0, 1), min_size=n, max_size=n),
    st.lists(st.integers(0, 1), min_size=n, max_size=n),
    st.lists(st.sampled_from(["a", "b"]), min_size=n, max_size=n),
    st.lists(st.floats(1e-200, 1e200), min_size=n, max_size=n),
    st.permutations(range(n)))))
def test_weighted_metricframe_does_not_depend_on_the_row_order(case):
    y, p, sf, w, perm = (np.array(x) for x in case)
    metrics = {"sel": selection_rate, "tpr": true_positive_rate}
    a = one_shot(metrics, y, p, sf, w)
    b = one_shot(metrics, y[perm], p[perm], sf[perm], w[perm])
    assert_frames_equal(a, b)
