"""fairkit.estimators.PartialParityClassifier: same numbers as the Rust API (bit for bit, via
``python/examples/partial_parity_reference.rs``), fairer on the interval, bad inputs."""

from __future__ import annotations

import os
import pickle
import subprocess
from pathlib import Path

import numpy as np
import pytest
from sklearn.exceptions import NotFittedError

from fairkit import FairkitError
from fairkit.estimators import PartialParityClassifier
from fairkit.metrics import partial_statistical_parity

REPO = Path(__file__).resolve().parents[2]


def shifted(n: int, seed: int):
    """Group 1's scores are shifted down: its rows crowd the low percentiles."""
    rng = np.random.default_rng(seed)
    group = rng.integers(0, 2, n)
    y = (rng.random(n) < 0.5).astype(np.int64)
    X = np.column_stack([y - 0.8 * group + rng.normal(size=n), rng.normal(size=n)])
    return X, y, group


SETTINGS = [
    dict(constraints="percentile_parity", interval=(0.0, 0.5), kappa=0.05, grid_size=5,
         surrogate="hard_sigmoid"),
    dict(constraints="demographic_parity", interval=(0.2, 0.8), kappa=0.05, surrogate="logistic"),
    dict(constraints="equal_opportunity", interval=(0.0, 0.6), kappa=0.1,
         surrogate="hard_sigmoid"),
]


@pytest.mark.parametrize("settings", SETTINGS, ids=lambda s: s["constraints"])
def test_same_numbers_as_the_rust_api(tmp_path, settings):
    X, y, group = shifted(400, seed=1)
    full = dict(grid_size=10, threshold=0.0, max_iter=10, max_inner_iter=50, eps=1e-3)
    full.update(settings)
    clf = PartialParityClassifier(**full).fit(X, y, sensitive_features=group)
    lo, hi = full["interval"]
    (tmp_path / "settings.txt").write_text(
        f"{len(y)} 2 {full['constraints']} {lo!r} {hi!r} {full['kappa']!r} {full['grid_size']} "
        f"{full['threshold']!r} {full['surrogate']} {full['max_iter']} "
        f"{full['max_inner_iter']} {full['eps']!r}\n"
    )
    (tmp_path / "group_names.txt").write_text("0\n1\n")
    X.astype("<f8").tofile(tmp_path / "x.f64")
    y.astype("<i8").tofile(tmp_path / "y.i64")
    group.astype("<i8").tofile(tmp_path / "codes.i64")
    run = subprocess.run(
        [os.environ.get("CARGO", "cargo"), "run", "-q", "-p", "fairkit-py", "--example",
         "partial_parity_reference", "--", str(tmp_path)],
        cwd=REPO, capture_output=True, text=True,
    )
    assert run.returncode == 0, run.stderr
    assert np.array_equal(clf.coef_, np.fromfile(tmp_path / "weights.f64", dtype="<f8"))
    assert np.array_equal(
        clf.decision_function(X, sensitive_features=group),
        np.fromfile(tmp_path / "scores.f64", dtype="<f8"),
    )


def test_partial_statistical_parity_improves_on_the_interval():
    # Base rates differ by group, so an unconstrained scorer ranks group 1 far higher.
    rng = np.random.default_rng(2)
    group = rng.integers(0, 2, 1500)
    y = (rng.random(1500) < 0.3 + 0.4 * group).astype(np.int64)
    X = np.column_stack([y + rng.normal(size=1500), rng.normal(size=1500)])
    interval = (0.0, 0.5)
    base = PartialParityClassifier(kappa=1.0, interval=interval, max_iter=30).fit(
        X, y, sensitive_features=group
    )
    fair = PartialParityClassifier(kappa=0.02, interval=interval, max_iter=30).fit(
        X, y, sensitive_features=group
    )

    def psp(clf):
        scores = clf.decision_function(X, sensitive_features=group)
        return partial_statistical_parity(scores, sensitive_features=group, interval=interval).value

    assert psp(base) > 0.5
    assert psp(fair) < psp(base) / 4, (psp(base), psp(fair))
    assert fair.report_["max_violation"] <= 1e-3


def test_labels_pickle_and_determinism():
    X, y, group = shifted(300, seed=3)
    labels = np.where(y == 1, "hire", "reject")
    a = PartialParityClassifier(max_iter=5).fit(X, labels, sensitive_features=group)
    b = PartialParityClassifier(max_iter=5).fit(X, labels, sensitive_features=group)
    assert np.array_equal(a.coef_, b.coef_)
    assert list(a.classes_) == ["hire", "reject"]
    back = pickle.loads(pickle.dumps(a))
    assert np.array_equal(back.predict(X, sensitive_features=group),
                          a.predict(X, sensitive_features=group))


def test_bad_inputs():
    X, y, group = shifted(200, seed=4)
    with pytest.raises(FairkitError, match="sensitive_features is missing"):
        PartialParityClassifier().fit(X, y)
    with pytest.raises(FairkitError, match=r'no constraint named "parity"; supported constraints: "percentile_parity"'):
        PartialParityClassifier("parity").fit(X, y, sensitive_features=group)
    with pytest.raises(FairkitError, match=r"surrogate: \"relu\""):
        PartialParityClassifier(surrogate="relu").fit(X, y, sensitive_features=group)
    with pytest.raises(FairkitError, match=r"interval"):
        PartialParityClassifier(interval=(0.6, 0.2)).fit(X, y, sensitive_features=group)
    with pytest.raises(FairkitError, match=r"kappa|κ"):
        PartialParityClassifier(kappa=2.0).fit(X, y, sensitive_features=group)
    with pytest.raises(FairkitError, match=r"target is multiclass"):
        PartialParityClassifier().fit(X, y + group * 2, sensitive_features=group)
    with pytest.raises(NotFittedError):
        PartialParityClassifier().decision_function(X, sensitive_features=group)
    clf = PartialParityClassifier(max_iter=3).fit(X, y, sensitive_features=group)
    with pytest.raises(FairkitError, match="sensitive_features is missing"):
        clf.predict(X)
    with pytest.raises(FairkitError, match="not seen at fit"):
        clf.predict(X, sensitive_features=group + 5)


def test_ctrl_c_stops_a_long_fit():
    import _thread
    import threading
    import time

    # Uninterrupted, this fit runs ≈ 80 outer iterations (≈ 4 s here) before it turns
    # stationary; the simulated Ctrl-C comes at 0.3 s.
    X, y, group = shifted(20_000, seed=5)
    timer = threading.Timer(0.3, _thread.interrupt_main)
    start = time.perf_counter()
    timer.start()
    try:
        with pytest.raises(KeyboardInterrupt):
            PartialParityClassifier(max_iter=1_000_000, max_inner_iter=50).fit(
                X, y, sensitive_features=group
            )
    finally:
        timer.cancel()
    assert time.perf_counter() - start < 20
