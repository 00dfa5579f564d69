"""Bad input raises FairkitError (a ValueError) whose message names the problem; nothing crashes."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest
from hypothesis import given
from hypothesis import strategies as st
from hypothesis.extra import numpy as hnp

import fairkit
import fairkit.metrics as fk

# Single-group inputs are drawn on purpose; their UserWarning is tested in test_bad_input.py.
pytestmark = pytest.mark.filterwarnings("ignore:the sensitive features have only one group")

Y = np.array([1, 0, 1, 1, 0, 0])
P = np.array([1, 1, 0, 1, 0, 1])
SF = np.array(["a", "a", "a", "b", "b", "b"])


def raises(match, fn, *args, **kwargs):
    with pytest.raises(fairkit.FairkitError, match=match) as info:
        fn(*args, **kwargs)
    assert isinstance(info.value, ValueError)
    return info.value


def test_nan_label():
    y = Y.astype(float)
    y[2] = np.nan
    raises(r"y_true has a missing value .* row 2", fk.true_positive_rate, y, P)


def test_nan_prediction_in_a_gap():
    p = P.astype(float)
    p[4] = np.nan
    raises(r"y_pred has a missing value .* row 4", fk.equalized_odds_difference, Y, p,
           sensitive_features=SF)


def test_length_mismatch_predictions():
    raises(r"length mismatch for y_pred: expected 6 rows .* got 5", fk.demographic_parity_difference,
           Y, P[:5], sensitive_features=SF)


def test_length_mismatch_sensitive_features():
    raises(r"length mismatch for sensitive feature 'sensitive_feature_0'.*got 4",
           fk.equal_opportunity_difference, Y, P, sensitive_features=SF[:4])


def test_length_mismatch_weights():
    raises(r"length mismatch for sample_weight", fk.selection_rate, Y, P, sample_weight=[1.0, 2.0])


def test_nan_weight_names_the_row():
    w = np.ones(6)
    w[3] = np.nan
    raises(r"sample weights? .*non-finite.*row 3|non-finite value \(NaN\) at row 3",
           fk.equalized_odds_ratio, Y, P, sensitive_features=SF, sample_weight=w)


def test_negative_weight_names_the_row():
    w = np.ones(6)
    w[1] = -0.5
    raises(r"sample weight at row 1 is negative", fk.demographic_parity_ratio, Y, P,
           sensitive_features=SF, sample_weight=w)


def test_group_with_zero_total_weight_names_the_group():
    w = np.array([1.0, 1.0, 1.0, 0.0, 0.0, 0.0])
    raises(r'group "b" has no rows \(or zero total weight\)', fk.demographic_parity_difference,
           Y, P, sensitive_features=SF, sample_weight=w)


def test_three_label_values():
    raises(r"3 distinct values \(0, 1, 2\).*binary", fk.false_positive_rate, [0, 1, 2], [0, 1, 1])


def test_unknown_pos_label():
    raises(r"pos_label='yes' is not one of the label values \('n', 'y'\)",
           fk.equalized_odds_difference, ["y", "n"], ["n", "n"], sensitive_features=["a", "b"],
           pos_label="yes")


def test_string_labels_need_pos_label():
    raises(r"without pos_label they must be a subset of \{0, 1\} or \{-1, 1\}",
           fk.true_positive_rate, ["no", "yes"], ["yes", "yes"])


def test_missing_sensitive_value():
    sf = pd.Series(["a", None, "b", "b", "a", "a"], name="race")
    raises(r"sensitive feature 'race' has a missing value .* row 1", fk.demographic_parity_difference,
           Y, P, sensitive_features=sf)


def test_missing_categorical_value():
    sf = pd.Series(pd.Categorical(["a", np.nan, "b", "b", "a", "a"]), name="race")
    raises(r"sensitive feature 'race' has a missing value at row 1", fk.equal_opportunity_ratio,
           Y, P, sensitive_features=sf)


def test_empty_input():
    raises(r"y_true is empty", fk.true_positive_rate, [], [])
    # fairlearn's text (its test compares it word for word)
    raises(r"^Empty y_pred passed to selection_rate function\.$", fk.selection_rate, [], [])


def test_unknown_method_and_agg():
    # fairlearn's texts (its tests compare them word for word: no quotes around the value)
    raises(r"^Unrecognised comparison method: pairwise$", fk.demographic_parity_difference, Y, P,
           sensitive_features=SF, method="pairwise")
    raises(r"agg must be one of 'worst_case' or 'mean', got median$",
           fk.equalized_odds_difference, Y, P, sensitive_features=SF, agg="median")


def test_any_callable_in_frame():
    # Arbitrary callables are called on each group's rows (issue 25); a metric that is
    # neither callable nor a known name is refused with fairlearn's message.
    from sklearn.metrics import f1_score

    mf = fk.MetricFrame(metrics=f1_score, y_true=Y, y_pred=P, sensitive_features=SF)
    for g in np.unique(SF):
        assert mf.by_group[g] == f1_score(Y[SF == g], P[SF == g])
    raises(r"^Object passed as metric function not callable$", fk.MetricFrame,
           metrics=3, y_true=Y, y_pred=P, sensitive_features=SF)
    raises(r"not a function name fairkit knows", fk.MetricFrame,
           metrics="f1", y_true=Y, y_pred=P, sensitive_features=SF)


def test_too_many_dimensions():
    raises(r"too many dimensions \(3\)", fk.demographic_parity_difference, Y, P,
           sensitive_features=np.zeros((6, 2, 2)))


def test_non_string_column_name():
    raises(r"column names must be strings", fk.demographic_parity_difference, Y, P,
           sensitive_features=pd.DataFrame({0: SF}))


def test_2d_labels():
    raises(r"y_true must be 1-D .* shape \(3, 2\)", fk.true_positive_rate, np.zeros((3, 2)), P)


def test_sample_params_keys_must_match():
    raises(r"keys in sample_params \(\['x'\]\) do not match", fk.MetricFrame,
           metrics={"sr": fk.selection_rate, "tpr": fk.true_positive_rate}, y_true=Y, y_pred=P,
           sensitive_features=SF, sample_params={"x": {"sample_weight": np.ones(6)}})


def test_single_group_follows_fairlearn_but_warns():
    with pytest.warns(UserWarning, match="only one group"):
        assert fk.demographic_parity_difference(Y, P, sensitive_features=["a"] * 6) == 0.0


# Any array of any dtype in any position: a float or a FairkitError, never a crash.
arrays = st.one_of(
    hnp.arrays(
        dtype=st.sampled_from([np.int64, np.int8, np.uint64, np.float64, np.float32, np.bool_]),
        shape=st.integers(0, 8),
    ),
    st.lists(st.one_of(st.integers(-3, 3), st.text(max_size=2), st.none(),
                       st.floats(allow_nan=True)), max_size=8),
)


@given(arrays, arrays, arrays, st.one_of(st.none(), arrays))
def test_garbage_never_crashes(y_true, y_pred, sf, w):
    for fn in (fk.equalized_odds_difference, fk.demographic_parity_ratio):
        try:
            out = fn(y_true, y_pred, sensitive_features=sf, sample_weight=w)
        except fairkit.FairkitError:
            continue
        assert isinstance(out, float)
