"""fairkit.estimators.FairSVM: same numbers as the Rust API (bit for bit, via
``python/examples/fair_svm_reference.rs``), a smaller all-threshold gap, bad inputs."""

from __future__ import annotations

import os
import pickle
import subprocess
from pathlib import Path

import numpy as np
import pytest
from sklearn.exceptions import NotFittedError

from fairkit import FairkitError
from fairkit.estimators import FairSVM
from fairkit.metrics import demographic_parity_ks

REPO = Path(__file__).resolve().parents[2]


def biased(n: int, seed: int):
    """The label correlates with the group through feature 1, so a plain SVM's scores differ."""
    rng = np.random.default_rng(seed)
    group = rng.integers(0, 2, n)
    y = (rng.random(n) < 0.3 + 0.4 * group).astype(np.int64)
    X = np.column_stack([y + rng.normal(size=n), group + 0.3 * rng.normal(size=n)])
    return X, y, group


@pytest.mark.parametrize("kernel", ["linear_primal", "linear", "rbf"])
def test_same_numbers_as_the_rust_api(tmp_path, kernel):
    X, y, group = biased(120, seed=1)
    svm = FairSVM(kernel, ridge=0.05, d=0.1, mu=0.5, gamma=0.5).fit(
        X, y, sensitive_features=group
    )
    (tmp_path / "settings.txt").write_text(f"120 2 {kernel} 0.5 0.05 0.1 0.5\n")
    X.astype("<f8").tofile(tmp_path / "x.f64")
    np.where(y == 1, 1.0, -1.0).astype("<f8").tofile(tmp_path / "y.f64")
    np.where(group == 1, 1.0, -1.0).astype("<f8").tofile(tmp_path / "z.f64")
    run = subprocess.run(
        [os.environ.get("CARGO", "cargo"), "run", "-q", "-p", "fairkit-py", "--example",
         "fair_svm_reference", "--", str(tmp_path)],
        cwd=REPO, capture_output=True, text=True,
    )
    assert run.returncode == 0, run.stderr
    assert np.array_equal(svm.decision_function(X), np.fromfile(tmp_path / "scores.f64"))


def test_fair_svm_narrows_the_all_threshold_gap():
    X, y, group = biased(400, seed=2)
    plain = FairSVM(d=float("inf"), mu=0.0).fit(X, y, sensitive_features=group)
    fair = FairSVM(d=0.05, mu=1.0).fit(X, y, sensitive_features=group)

    def ks(m):
        return demographic_parity_ks(m.decision_function(X), sensitive_features=group).value

    assert ks(plain) > 0.3
    assert ks(fair) < ks(plain) / 2, (ks(plain), ks(fair))
    assert abs(fair.report_["mean_gap"]) <= 0.05 + 1e-6


def test_labels_pickle_and_determinism():
    X, y, group = biased(150, seed=3)
    labels = np.where(y == 1, "good", "bad")
    a = FairSVM("rbf", d=0.1).fit(X, labels, sensitive_features=np.where(group, "F", "M"))
    b = FairSVM("rbf", d=0.1).fit(X, labels, sensitive_features=np.where(group, "F", "M"))
    assert np.array_equal(a.decision_function(X), b.decision_function(X))
    assert set(a.predict(X)) <= {"good", "bad"}
    back = pickle.loads(pickle.dumps(a))
    assert np.array_equal(back.decision_function(X), a.decision_function(X))


def test_bad_inputs():
    X, y, group = biased(100, seed=4)
    with pytest.raises(FairkitError, match="sensitive_features is missing"):
        FairSVM().fit(X, y)
    with pytest.raises(FairkitError, match=r"3 group\(s\).*exactly two protected classes"):
        FairSVM().fit(X, y, sensitive_features=np.arange(100) % 3)
    with pytest.raises(FairkitError, match=r"kernel: \"sigmoid\""):
        FairSVM("sigmoid").fit(X, y, sensitive_features=group)
    with pytest.raises(FairkitError, match=r"no constraint named .parity.; supported constraints"):
        FairSVM(constraints="parity").fit(X, y, sensitive_features=group)
    with pytest.raises(FairkitError, match=r"lambda"):
        FairSVM(ridge=-1.0).fit(X, y, sensitive_features=group)
    with pytest.raises(FairkitError, match=r"gamma"):
        FairSVM("rbf", gamma=0.0).fit(X, y, sensitive_features=group)
    with pytest.raises(FairkitError, match=r"target is multiclass"):
        FairSVM().fit(X, y + group * 2, sensitive_features=group)
    with pytest.raises(NotFittedError):
        FairSVM().decision_function(X)
    svm = FairSVM(max_iter=5).fit(X, y, sensitive_features=group)
    with pytest.raises(ValueError, match="2 features"):
        svm.predict(X[:, :1])
