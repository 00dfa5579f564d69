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
