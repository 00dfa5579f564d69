"""scikit-learn's estimator checks for the fairkit estimators.

``sensitive_features`` is a required keyword of ``fit`` and ``predict`` (a fairness method cannot
guess the groups), and sklearn's checks call ``fit(X, y)`` and ``predict(X)`` without it. So each
estimator is checked twice:

* the class itself, with every check that fits listed in ``expected_failed_checks`` for that one
  reason (the xfail is strict: a listed check that passes fails the suite, so the list cannot
  silently go stale);
* a test harness subclass that derives the sensitive feature from ``X`` (see ``_groups_from_X``),
  so every check that fits, predicts, clones, pickles or refits runs against the real estimator
  code. The harnesses pass every check but one, listed with its reason
  (``_PCA_HARNESS_FAILURES``).
"""

from __future__ import annotations

import os

# sklearn's check_array_api_input (array API dispatch on NumPy input must not change results)
# skips itself unless this is set; set it so the check runs instead of being skipped.
os.environ.setdefault("SCIPY_ARRAY_API", "1")

import numpy as np  # noqa: E402
import scipy.sparse as sp  # noqa: E402
from sklearn.linear_model import LogisticRegression  # noqa: E402
from sklearn.utils.estimator_checks import parametrize_with_checks  # noqa: E402

from fairkit.estimators import (  # noqa: E402
    FairPCA,
    FairProjection,
    FairSVM,
    PartialParityClassifier,
    RateConstrainedClassifier,
    rates,
)


def _groups_from_X(X) -> np.ndarray:
    """The harness's sensitive feature, a function of each row's first value (so it is the same
    for a row whatever the other rows): the parity of ``floor(17 |x_0|)`` (the parity of x_0 for integers), two groups on any
    non-degenerate check data. Input the base estimator must reject (1-D, empty, NaN, sparse)
    still gets one group per row, so the base estimator's own error is what the check sees."""
    try:
        arr = X.toarray() if sp.issparse(X) else np.asarray(X, dtype=float)
    except (TypeError, ValueError):
        return np.zeros(len(X), dtype=int)
    if arr.ndim != 2 or arr.shape[1] == 0:
        return np.zeros(arr.shape[0] if arr.ndim else 1, dtype=int)
    return (np.floor(17 * np.abs(np.nan_to_num(arr[:, 0]))) % 2).astype(int)


class FairProjectionGroupsFromX(FairProjection):
    """FairProjection whose sensitive feature is computed from X (test harness only)."""

    def fit(self, X, y=None, **fit_params):
        return super().fit(X, y, sensitive_features=_groups_from_X(X), **fit_params)

    def predict(self, X):
        return super().predict(X, sensitive_features=_groups_from_X(X))

    def predict_proba(self, X):
        return super().predict_proba(X, sensitive_features=_groups_from_X(X))


class RateConstrainedGroupsFromX(RateConstrainedClassifier):
    """RateConstrainedClassifier whose sensitive feature is computed from X (test harness)."""

    def fit(self, X, y=None, **fit_params):
        return super().fit(X, y, sensitive_features=_groups_from_X(X), **fit_params)


class PartialParityGroupsFromX(PartialParityClassifier):
    """PartialParityClassifier whose sensitive feature is computed from X (test harness)."""

    def fit(self, X, y=None, **fit_params):
        return super().fit(X, y, sensitive_features=_groups_from_X(X), **fit_params)

    def decision_function(self, X):
        return super().decision_function(X, sensitive_features=_groups_from_X(X))

    def predict_proba(self, X):
        return super().predict_proba(X, sensitive_features=_groups_from_X(X))

    def predict(self, X):
        return super().predict(X, sensitive_features=_groups_from_X(X))


class FairPCAGroupsFromX(FairPCA):
    """FairPCA whose sensitive feature is computed from X (test harness)."""

    def fit(self, X, y=None):
        return super().fit(X, y, sensitive_features=_groups_from_X(X))

    def fit_transform(self, X, y=None):
        return super().fit_transform(X, y, sensitive_features=_groups_from_X(X))


class FairSVMGroupsFromX(FairSVM):
    """FairSVM whose sensitive feature is computed from X (test harness)."""

    def fit(self, X, y=None):
        return super().fit(X, y, sensitive_features=_groups_from_X(X))


# Checks that fit or predict: they call fit(X, y) / predict(X) without sensitive_features, which
# FairProjection requires (FairkitError "sensitive_features is missing"). The harness runs them.
_NEEDS_SENSITIVE_FEATURES = (
    "sensitive_features is a required argument of fit/predict; this check calls fit(X, y) "
    "without it (run against the harness subclass instead)"
)


def _expected_failures(estimator) -> dict[str, str]:
    if type(estimator) is FairProjection:
        return {name: _NEEDS_SENSITIVE_FEATURES for name in _FITTING_CHECKS}
    if type(estimator) is FairSVM:
        return {name: _NEEDS_SENSITIVE_FEATURES for name in _SVM_FITTING_CHECKS}
    if type(estimator) is FairPCA:
        return {name: _NEEDS_SENSITIVE_FEATURES for name in _PCA_FITTING_CHECKS}
    if type(estimator) is PartialParityClassifier:
        return {name: _NEEDS_SENSITIVE_FEATURES for name in _PARTIAL_FITTING_CHECKS}
    if type(estimator) is RateConstrainedClassifier:
        return {name: _NEEDS_SENSITIVE_FEATURES for name in _RATE_FITTING_CHECKS}
    if type(estimator) is FairPCAGroupsFromX:
        return _PCA_HARNESS_FAILURES
    if type(estimator) is FairProjectionGroupsFromX and estimator.decision != "argmax":
        return _THRESHOLD_DECISION_FAILURES
    return _HARNESS_FAILURES


# Every check that calls fit(X, y) on FairProjection (all pass on the harness).
_FITTING_CHECKS = [
    "check_array_api_input",
    "check_classifier_data_not_an_array",
    "check_classifiers_classes",
    "check_classifiers_one_label",
    "check_classifiers_one_label_sample_weights",
    "check_classifiers_regression_target",
    "check_classifiers_train",
    "check_complex_data",
    "check_dict_unchanged",
    "check_dont_overwrite_parameters",
    "check_dtype_object",
    "check_estimator_sparse_array",
    "check_estimator_sparse_matrix",
    "check_estimator_sparse_tag",
    "check_estimators_dtypes",
    "check_estimators_empty_data_messages",
    "check_estimators_fit_returns_self",
    "check_estimators_nan_inf",
    "check_estimators_overwrite_params",
    "check_estimators_pickle",
    "check_f_contiguous_array_estimator",
    "check_fit2d_1feature",
    "check_fit2d_1sample",
    "check_fit2d_predict1d",
    "check_fit_check_is_fitted",
    "check_fit_idempotent",
    "check_fit_score_takes_y",
    "check_methods_sample_order_invariance",
    "check_methods_subset_invariance",
    "check_n_features_in",
    "check_n_features_in_after_fitting",
    "check_non_transformer_estimators_n_iter",
    "check_pipeline_consistency",
    "check_positive_only_tag_during_fit",
    "check_readonly_memmap_input",
    "check_requires_y_none",
    "check_supervised_y_2d",
]
# The same for RateConstrainedClassifier (its harness passes them all).
_RATE_FITTING_CHECKS = [
    "check_array_api_input",
    "check_classifier_data_not_an_array",
    "check_classifier_not_supporting_multiclass",
    "check_classifiers_classes",
    "check_classifiers_one_label",
    "check_classifiers_regression_target",
    "check_classifiers_train",
    "check_complex_data",
    "check_decision_proba_consistency",
    "check_dict_unchanged",
    "check_dont_overwrite_parameters",
    "check_dtype_object",
    "check_estimator_sparse_array",
    "check_estimator_sparse_matrix",
    "check_estimator_sparse_tag",
    "check_estimators_dtypes",
    "check_estimators_empty_data_messages",
    "check_estimators_fit_returns_self",
    "check_estimators_nan_inf",
    "check_estimators_overwrite_params",
    "check_estimators_pickle",
    "check_f_contiguous_array_estimator",
    "check_fit2d_1feature",
    "check_fit2d_1sample",
    "check_fit2d_predict1d",
    "check_fit_check_is_fitted",
    "check_fit_idempotent",
    "check_fit_score_takes_y",
    "check_methods_sample_order_invariance",
    "check_methods_subset_invariance",
    "check_n_features_in",
    "check_n_features_in_after_fitting",
    "check_non_transformer_estimators_n_iter",
    "check_pipeline_consistency",
    "check_positive_only_tag_during_fit",
    "check_readonly_memmap_input",
    "check_requires_y_none",
    "check_supervised_y_2d",
]
# PartialParityClassifier (binary, like RateConstrainedClassifier): the same checks fit.
_PARTIAL_FITTING_CHECKS = _RATE_FITTING_CHECKS
# FairPCA (a transformer; its harness passes them all).
_PCA_FITTING_CHECKS = [
    "check_array_api_input",
    "check_complex_data",
    "check_dict_unchanged",
    "check_dont_overwrite_parameters",
    "check_dtype_object",
    "check_estimator_sparse_array",
    "check_estimator_sparse_matrix",
    "check_estimator_sparse_tag",
    "check_estimators_dtypes",
    "check_estimators_empty_data_messages",
    "check_estimators_fit_returns_self",
    "check_estimators_nan_inf",
    "check_estimators_overwrite_params",
    "check_estimators_pickle",
    "check_f_contiguous_array_estimator",
    "check_fit2d_1feature",
    "check_fit2d_1sample",
    "check_fit2d_predict1d",
    "check_fit_check_is_fitted",
    "check_fit_idempotent",
    "check_fit_score_takes_y",
    "check_methods_sample_order_invariance",
    "check_methods_subset_invariance",
    "check_n_features_in",
    "check_n_features_in_after_fitting",
    "check_pipeline_consistency",
    "check_positive_only_tag_during_fit",
    "check_readonly_memmap_input",
    "check_transformer_data_not_an_array",
    "check_transformer_general",
    "check_transformer_n_iter",
    "check_transformer_preserve_dtypes",
]
# FairSVM (binary, decision_function only; its harness passes them all).
_SVM_FITTING_CHECKS = [
    "check_array_api_input",
    "check_classifier_data_not_an_array",
    "check_classifier_not_supporting_multiclass",
    "check_classifiers_classes",
    "check_classifiers_one_label",
    "check_classifiers_regression_target",
    "check_classifiers_train",
    "check_complex_data",
    "check_dict_unchanged",
    "check_dont_overwrite_parameters",
    "check_dtype_object",
    "check_estimator_sparse_array",
    "check_estimator_sparse_matrix",
    "check_estimator_sparse_tag",
    "check_estimators_dtypes",
    "check_estimators_empty_data_messages",
    "check_estimators_fit_returns_self",
    "check_estimators_nan_inf",
    "check_estimators_overwrite_params",
    "check_estimators_pickle",
    "check_f_contiguous_array_estimator",
    "check_fit2d_1feature",
    "check_fit2d_1sample",
    "check_fit2d_predict1d",
    "check_fit_check_is_fitted",
    "check_fit_idempotent",
    "check_fit_score_takes_y",
    "check_methods_sample_order_invariance",
    "check_methods_subset_invariance",
    "check_n_features_in",
    "check_n_features_in_after_fitting",
    "check_non_transformer_estimators_n_iter",
    "check_pipeline_consistency",
    "check_positive_only_tag_during_fit",
    "check_readonly_memmap_input",
    "check_requires_y_none",
    "check_supervised_y_2d",
]
# The harness passes every check.
_HARNESS_FAILURES: dict[str, str] = {}
# FairPCA's default start is the min-max (MW) solution, and n_iter_ counts the descent steps
# taken from it: on this check's data that start is already Pareto-stationary, so n_iter_ is 0,
# which sklearn's check (n_iter_ >= 1) reads as "did not iterate". Reporting 1 would be untrue.
# FairProjection's default predict for two classes is the group-threshold rule that keeps the
# constraint on hard decisions (a seeded draw near each group's thresholds), so by design it is
# not argmax(predict_proba); and sample_weight reaches the base estimator only (the projection
# and its decision rule are unweighted). The argmax harness below passes both checks.
_THRESHOLD_DECISION_FAILURES = {
    "check_classifiers_train": "predict is the constraint-keeping threshold rule, not argmax",
    "check_classifiers_train(readonly_memmap=True)": "as check_classifiers_train",
    "check_classifiers_train(readonly_memmap=True,X_dtype=float32)": "as check_classifiers_train",
    "check_classifiers_one_label_sample_weights": "the decision rule ignores sample_weight",
}
_PCA_HARNESS_FAILURES = {
    "check_transformer_n_iter": "n_iter_ is 0 when the min-max start is already stationary",
}


@parametrize_with_checks(
    [
        FairProjection(LogisticRegression()),
        FairProjectionGroupsFromX(LogisticRegression(), constraints="statistical_parity"),
        FairProjectionGroupsFromX(
            LogisticRegression(), constraints="statistical_parity", decision="argmax"
        ),
        RateConstrainedClassifier([rates.equal_opportunity(additive=0.05)], max_iter=200),
        RateConstrainedGroupsFromX([rates.equal_opportunity(additive=0.05)], max_iter=200),
        PartialParityClassifier(max_iter=5, max_inner_iter=30),
        PartialParityGroupsFromX(max_iter=5, max_inner_iter=30),
        FairPCA(1, max_iter=50),
        FairPCAGroupsFromX(1, max_iter=50),
        FairSVM(max_iter=5),
        FairSVMGroupsFromX(max_iter=5),
    ],
    expected_failed_checks=_expected_failures,
    xfail_strict=True,
)
def test_sklearn_conventions(estimator, check):
    check(estimator)
