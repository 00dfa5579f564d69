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
