"""fairlearn 0.15's metrics unit tests run against fairkit (see substitute.py and
docs/fairlearn-suite.md)."""
