# Adapted from fairlearn 0.15's fairlearn/metrics/_plot_model_comparison.py (MIT license,
# below): the same function for fairkit's metrics. Changes: the inputs are checked with numpy
# (no scikit-learn), the sensitive features go to the metrics as given (fairkit's MetricFrame
# forms the intersectional groups fairlearn's helper merged into one column), and matplotlib
# is imported on the first call.
#
# MIT License
#
# Copyright (c) Microsoft Corporation and Fairlearn contributors.
#
# Permission is hereby granted, free of charge, to any person obtaining a copy
# of this software and associated documentation files (the "Software"), to deal
# in the Software without restriction, including without limitation the rights
# to use, copy, modify, merge, publish, distribute, sublicense, and/or sell
# copies of the Software, and to permit persons to whom the Software is
# furnished to do so, subject to the following conditions:
#
# The above copyright notice and this permission notice shall be included in all
# copies or substantial portions of the Software.
#
# THE SOFTWARE IS PROVIDED "AS IS", WITHOUT WARRANTY OF ANY KIND, EXPRESS OR
# IMPLIED, INCLUDING BUT NOT LIMITED TO THE WARRANTIES OF MERCHANTABILITY,
# FITNESS FOR A PARTICULAR PURPOSE AND NONINFRINGEMENT. IN NO EVENT SHALL THE
# AUTHORS OR COPYRIGHT HOLDERS BE LIABLE FOR ANY CLAIM, DAMAGES OR OTHER
# LIABILITY, WHETHER IN AN ACTION OF CONTRACT, TORT OR OTHERWISE, ARISING FROM,
# OUT OF OR IN CONNECTION WITH THE SOFTWARE OR THE USE OR OTHER DEALINGS IN THE
# SOFTWARE

# Copyright (c) Fairlearn contributors.
# Licensed under the MIT License.
from __future__ import annotations

import logging
from collections.abc import Callable

import numpy as np
from numpy import array

from fairkit._core import FairkitError
from fairkit.metrics._derived import _DerivedMetric

_MATPLOTLIB_IMPORT_ERROR_MESSAGE = (
    "plot_model_comparison needs matplotlib: pip install matplotlib"
)
_INPUT_DATA_FORMAT_ERROR_MESSAGE = (
    "The only allowed input data formats for {} are: {}. Your provided data was of type {}."
)
_INCONSISTENT_ARRAY_LENGTH = "Arrays {} have an inconsistent number of items"


def check_array(a):
    """2-D finite float array (what scikit-learn's check_array asked of the predictions)."""
    try:
        out = np.asarray(a, dtype=float)
    except (TypeError, ValueError) as e:
        raise FairkitError(f"y_preds could not be read as numbers: {e}") from e
    if out.ndim != 2:
        raise FairkitError(f"Expected 2D array, got {out.ndim}D array instead")
    # scikit-learn's messages for an empty array, which fairlearn's users see (an empty
    # y_preds: no model, or models without predictions)
    if out.shape[0] == 0:
        raise FairkitError(
            f"Found array with 0 sample(s) (shape={out.shape}) while a minimum of 1 is required."
        )
    if out.shape[1] == 0:
        raise FairkitError(
            f"Found array with 0 feature(s) (shape={out.shape}) while a minimum of 1 is required."
        )
    if not np.isfinite(out).all():
        raise FairkitError("Input y_preds contains NaN or infinity.")
    return out


logger = logging.getLogger(__name__)


def plot_model_comparison(
    *,
    y_preds,
    y_true=None,
    sensitive_features=None,
    x_axis_metric: Callable[..., float | int] | None = None,
    y_axis_metric: Callable[..., float | int] | None = None,
    ax=None,
    axis_labels=True,
    point_labels=False,
    point_labels_position=(0, 0),
    legend=False,
    show_plot=False,
    **kwargs,
):
    r"""
    Create a scatter plot comparing multiple models along two metrics.

    A typical use case is when one of the metrics is a performance metric
    (e.g., balanced_accuracy) and the other is a fairness metric
    (e.g., false_negative_rate_difference).

    .. versionadded:: 0.8.0

    Parameters
    ----------
    y_preds : array-like, dict of array-like
        An array-like containing predictions per model. Hence, predictions of
        model :code:`i` should be in :code:`y_preds[i]`.

    y_true : list, pandas.Series, numpy.ndarray, pandas.DataFrame
        The ground-truth labels (for classification) or target values (for regression).

    sensitive_features : list, pandas.Series, dict of 1d arrays, numpy.ndarray, pandas.DataFrame, None
        Sensitive features for the fairness metrics (if a fairness metric is
        specified for the x-axis or the y-axis).

    x_axis_metric : Callable | None
        The metric function for the x-axis.
        The metric function must take `y_true`, `y_pred`, and optionally `sensitive_features`
        as arguments, and return a scalar value.

    y_axis_metric : Callable | None
        The metric function for the y-axis, similar to x_axis_metric.
        The metric function must take `y_true`, `y_pred`, and optionally `sensitive_features`
        as arguments, and return a scalar value.

    ax : matplotlib.axes.Axes, optional
        If supplied, the scatter plot is drawn on this Axes object.
        Else, a new figure with Axes is created.

    axis_labels : bool, list
        If true, add the names of x and y axis metrics. You can also pass a
        list of size two (or a two-tuple) of strings to use as axis labels instead.

    point_labels : bool, list
        If true, annotate text with inferred point labels. These labels are
        the keys of y_preds if y_preds is a dictionary, else simply the integers
        0...number of points - 1. You can specify point_labels as a list of
        labels as well.

    point_labels_position : list
        a list (or a two-tuple) containing precisely two numbers that define the
        offset of the point labels in the x and y direction respectively.
        The offset value is in data coordinates, not pixels.

    legend : bool
        If True, add a legend. Legend entries are created by passing the
        key word argument :code:`label` to calls to this function.
        If you want to customize the legend, you should manually call
        ax.legend (where ax is the Axes object) with your customization params

    show_plot : bool
        If true, call pyplot.plot.

    Returns
    -------
    ax : matplotlib.axes.Axes
        The Axes object that was drawn on.

    Notes
    -----
    To offer flexibility in stylistic features besides the aforementioned
    API options, one has at least three options: 1) supply matplotlib arguments
    to :code:`plot_model_comparison` as you normally
    would to :code:`matplotlib.axes.Axes.scatter`
    2) change the style of the returned Axes
    3) supply an Axes with your own style already applied

    In case no Axes object is supplied, axis labels are
    automatically inferred from their class name.
    """
    # --- CHECK DEPENDENCY ---
    try:
        import matplotlib.pyplot as plt
    except ImportError:
        raise RuntimeError(_MATPLOTLIB_IMPORT_ERROR_MESSAGE) from None

    if y_true is None:
        raise FairkitError("y_true is missing: pass one value per row")
    y_true = np.asarray(y_true)
    if y_true.ndim == 2 and 1 in y_true.shape:
        y_true = y_true.reshape(-1)
    if sensitive_features is not None and len(sensitive_features) != len(y_true):
        raise FairkitError(_INCONSISTENT_ARRAY_LENGTH.format("y_true and sensitive_features"))

    # --- VALIDATE INPUT ---
    if isinstance(y_preds, dict):
        inferred_point_labels = []
        y_preds_list = []
        for key, value in y_preds.items():
            inferred_point_labels.append(key)
            y_preds_list.append(value)
        y_preds = array(y_preds_list)
    else:
        inferred_point_labels = range(len(y_preds))
        y_preds = array(y_preds)

    if len(y_preds.shape) == 1:
        y_preds = y_preds.reshape(1, -1)
    y_preds = check_array(y_preds)

    if not len(y_true) == y_preds.shape[1]:
        raise FairkitError(_INCONSISTENT_ARRAY_LENGTH.format("y_true and the rows of y_preds"))

    if isinstance(axis_labels, (list, tuple)):
        if len(axis_labels) != 2:
            raise FairkitError(
                "Key word argument axis_labels should be a list or tuple of two strings."
            )
    elif isinstance(axis_labels, bool):
        pass
    else:
        raise FairkitError(
            _INPUT_DATA_FORMAT_ERROR_MESSAGE.format(
                axis_labels,
                "boolean or tuple of two strings",
                type(axis_labels).__name__,
            )
        )

    for kwarg, name in (
        (legend, "legend"),
        (show_plot, "show_plot"),
    ):
        if not isinstance(kwarg, bool):
            raise FairkitError(
                _INPUT_DATA_FORMAT_ERROR_MESSAGE.format(name, "boolean", type(kwarg).__name__)
            )

    if isinstance(point_labels, list):
        if not len(point_labels) == y_preds.shape[0]:
            raise FairkitError(_INCONSISTENT_ARRAY_LENGTH.format("point_labels and y_preds"))
    elif isinstance(point_labels, bool):
        point_labels = inferred_point_labels if point_labels else None
    else:
        raise FairkitError(
            _INPUT_DATA_FORMAT_ERROR_MESSAGE.format(
                name, "boolean or list of labels", type(kwarg).__name__
            )
        )

    if isinstance(point_labels_position, (list, tuple)) and len(point_labels_position) == 2:
        for item in point_labels_position:
            if not isinstance(item, (int, float)):
                raise FairkitError(
                    "Key word argument point_labels_position is not a list or"
                    + " two-tuple containing only numbers."
                )
    else:
        raise FairkitError("Key word argument point_labels_position is not a two-tuple.")

    # --- COMPUTE METRICS ---
    # try-except structure because we expect: metric(y_true, y_pred, sensitive_attribute)
    # but we have as fallback: metric(y_true, y_pred)
    try:
        x = array(
            [
                x_axis_metric(y_true, y_pred, sensitive_features=sensitive_features)
                for y_pred in y_preds
            ]
        )
    except TypeError:
        x = array([x_axis_metric(y_true, y_pred) for y_pred in y_preds])

    try:
        y = array(
            [
                y_axis_metric(y_true, y_pred, sensitive_features=sensitive_features)
                for y_pred in y_preds
            ]
        )
    except TypeError:
        y = array([y_axis_metric(y_true, y_pred) for y_pred in y_preds])

    # --- PLOTTING ---
    ax_supplied_ = ax is not None

    # Init ax
    if not ax_supplied_:
        logger.warning("No matplotlib.Axes object was provided to draw on, so we create a new one")
        ax = plt.axes()

    # Add axis labels
    if isinstance(axis_labels, bool):
        for f, m in (
            (ax.set_xlabel, x_axis_metric),
            (ax.set_ylabel, y_axis_metric),
        ):
            if hasattr(m, "__qualname__") and m.__qualname__ != "":
                name = m.__qualname__
            elif hasattr(m, "__name__") and m.__name__ != "":
                name = m.__name__
            elif isinstance(m, _DerivedMetric):
                name = f"{m._metric_fn.__name__}, {m._transform}"
            else:
                name = repr(m)
            f(name.replace("_", " "))
    elif isinstance(axis_labels, (tuple, list)):
        ax.set_xlabel(axis_labels[0])
        ax.set_ylabel(axis_labels[1])

    # Add point labels
    # This could be nicer, but we rather not add a dependency on other packages.
    if point_labels is not None:
        x_offset, y_offset = point_labels_position
        for i, label in enumerate(point_labels):
            ax.text(x[i] + x_offset, y[i] + y_offset, label)

    # Add actual points
    ax.scatter(x, y, **kwargs)

    if legend:
        ax.legend()

    # User may want to draw in an ax but not plot it yet.
    if show_plot:
        plt.show()

    return ax
