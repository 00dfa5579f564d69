"""pytest configuration shared by the fairkit test suite.

Hypothesis runs derandomized (a fixed seed per test) and without an example database, so the
suite gives the same verdict on every machine and every run, like the Rust property tests
(PROPTEST_RNG_SEED). Set FAIRKIT_HYPOTHESIS_PROFILE=explore for fresh random cases.
"""

import os

from hypothesis import HealthCheck, settings

settings.register_profile(
    "ci",
    derandomize=True,
    database=None,
    deadline=None,
    max_examples=200,
    suppress_health_check=[HealthCheck.too_slow],
)
settings.register_profile(
    "explore", deadline=None, max_examples=1000, suppress_health_check=[HealthCheck.too_slow]
)
settings.load_profile(os.environ.get("FAIRKIT_HYPOTHESIS_PROFILE", "ci"))

# The files that take longest, first. `cargo xtask test` runs the suite on two workers, one
# file at a time each (pytest-xdist, --dist loadfile), handing out files in collection order:
# when a long file starts last, one worker runs it alone while the other has nothing left.
# Longest first keeps both busy to the end. Measured from CI's `--durations` listing.
LONGEST_FIRST = (
    "test_fairlearn_docs.py",  # reductions.rst's ExponentiatedGradient fits and 5 gallery runs
    "test_spark_counts.py",
    "test_spark.py",
    "test_metrics_fairlearn.py",
    "test_report_browser.py",
)


def pytest_collection_modifyitems(items):
    rank = {name: i for i, name in enumerate(LONGEST_FIRST)}
    # sort is stable: within a file, tests keep their order
    items.sort(key=lambda item: rank.get(item.path.name, len(LONGEST_FIRST)))
