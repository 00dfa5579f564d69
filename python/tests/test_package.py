"""The package imports, exposes its submodules and its exception type."""

import fairkit
import fairkit._core
import fairkit.estimators
import fairkit.metrics


def test_error_is_a_value_error():
    assert issubclass(fairkit.FairkitError, ValueError)


def test_core_submodules_are_importable():
    import fairkit._core.estimators  # noqa: F401
    import fairkit._core.metrics as m

    assert "selection_rate" in m.RATES


def test_version_matches_the_crate():
    assert fairkit.__version__ == fairkit._core.__version__
    assert fairkit.__version__.count(".") == 2


def test_import_fairkit_leaves_numpy_and_the_submodules_for_later():
    import subprocess
    import sys

    code = ("import sys, fairkit; "
            "print(sorted(m for m in ('numpy', 'fairkit.metrics', 'fairkit.estimators') "
            "if m in sys.modules)); print(fairkit.metrics.selection_rate.__name__)")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.splitlines() == ["[]", "selection_rate"]


def test_the_command_runs_inside_the_extension(capfd):
    from fairkit._cli import main

    assert main(["--version"]) == 0
    assert capfd.readouterr().out == f"fairkit {fairkit.__version__}\n"
    assert main(["audit", "--no-such-flag"]) == 2
    err = capfd.readouterr().err
    assert "--no-such-flag" in err and "Usage: fairkit audit" in err
    assert main(["validate-report", "no-such-file.json"]) == 2
    assert "error: " in capfd.readouterr().err


def test_the_gap_functions_need_no_scikit_learn(monkeypatch):
    import sys

    import numpy as np

    # An install without scikit-learn: importing it raises ImportError.
    monkeypatch.setitem(sys.modules, "sklearn", None)
    monkeypatch.setitem(sys.modules, "sklearn.metrics", None)
    y = np.array([1, 0, 1, 1, 0, 0, 1, 0])
    p = np.array([1, 1, 0, 1, 0, 1, 1, 1])
    sf = np.array(["a", "a", "a", "b", "b", "b", "c", "c"])
    # Selection rates a = 2/3, b = 2/3, c = 1; true positive rates a = 1/2, b = 1, c = 1.
    assert abs(fairkit.metrics.demographic_parity_difference(y, p, sensitive_features=sf)
               - 1 / 3) < 1e-12
    assert abs(fairkit.metrics.equal_opportunity_difference(y, p, sensitive_features=sf)
               - 1 / 2) < 1e-12
