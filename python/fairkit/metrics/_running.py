"""``RunningMetrics``: a ``MetricFrame`` of the recognised rates, fed batch by batch.

fairlearn asks for all the predictions at once (fairlearn issue #655). ``RunningMetrics`` keeps
instead the audit's mergeable state (``fair_metrics::state::ConfusionState``: per group, the
row count and, with weights, the exact sum of the weights of each confusion cell) and answers
``result()`` with a real :class:`~fairkit.metrics.MetricFrame` equal, bit for bit, to the
one-shot ``MetricFrame`` on all the rows: counts are integers and weight sums exact, so neither
the split into batches nor the order of ``merge`` can move a bit.

A group is the tuple of its sensitive feature values; in the state its name is the JSON of that
tuple (``["F", 3]``), so ``1``, ``1.0``, ``True`` and ``"1"`` stay different groups, and the
levels come back as the values (their types included) from ``to_bytes`` / ``from_bytes``.
"""

from __future__ import annotations

import itertools
import json
import numbers
import struct
from typing import Any, Callable

import numpy as np

from fairkit import _validation as v
from fairkit._core import FairkitError
from fairkit._core import metrics as _core
from fairkit.metrics._frame import (
    _RATE_OF_FUNCTION,
    MetricFrame,
    _Cells,
    _check_rows,
    _factorized,
    _levels_and_codes,
    _n_samples,
    _process_features,
    _squeeze,
)

_MAGIC = b"FKRM"
_VERSION = 1
_MAX_CELLS = 10_000_000
_SUPPORTED = ", ".join(sorted(_RATE_OF_FUNCTION))


class _RateMetric:
    """What ``MetricFrame`` reads of a metric once its values are known."""

    def __init__(self, name: str, source: str) -> None:
        self.name = name
        self.source = source  # the recognised function name (``recall_score``...)
        self.rate = _RATE_OF_FUNCTION[source]
        self.func = None
        self.params: dict = {}
        self.own = True


def _source_of(metric: Any, where: str) -> str:
    """The recognised function name behind ``metric`` (a name, or a fairkit/fairlearn/
    scikit-learn function of such a name); a FairkitError naming the supported ones else."""
    if isinstance(metric, str):
        if metric in _RATE_OF_FUNCTION:
            return metric
    elif callable(metric):
        name = getattr(metric, "__name__", None)
        module = getattr(metric, "__module__", "") or ""
        if name in _RATE_OF_FUNCTION and module.startswith(("fairkit", "fairlearn", "sklearn")):
            return name
    raise FairkitError(
        f"metrics: {where} {metric!r} is not a rate RunningMetrics can stream. Supported: "
        f"{_SUPPORTED} (fairkit, fairlearn or scikit-learn functions of these names, or the "
        "names as strings); other metrics need the rows: use MetricFrame"
    )


def _parse_metrics(metrics: Any) -> tuple[list[_RateMetric], bool]:
    """The metrics and whether one was given alone (``MetricFrame(metrics=f)``: Series results)."""
    if metrics is None:
        raise FairkitError("metrics is missing: pass a rate name, a function, a list or a dict")
    if isinstance(metrics, dict):
        if not metrics:
            raise FairkitError("metrics is an empty dict: pass at least one rate")
        out = []
        for name, m in metrics.items():
            if not isinstance(name, str):
                raise FairkitError(f"metrics: the dict's keys must be strings, got {name!r}")
            out.append(_RateMetric(name, _source_of(m, f"metrics[{name!r}] =")))
        return out, False
    if isinstance(metrics, (list, tuple)):
        if not metrics:
            raise FairkitError("metrics is an empty list: pass at least one rate")
        out = []
        for m in metrics:
            source = _source_of(m, "the entry")
            name = m if isinstance(m, str) else m.__name__
            if any(o.name == name for o in out):
                raise FairkitError(f"metrics: {name!r} is listed twice")
            out.append(_RateMetric(name, source))
        return out, False
    source = _source_of(metrics, "the metric")
    name = metrics if isinstance(metrics, str) else metrics.__name__
    return [_RateMetric(name, source)], True


def _plain(x: Any) -> Any:
    """A JSON-safe Python value of a group level, label or ``pos_label`` (str, int, float,
    bool, None), or a FairkitError naming ``what``."""
    if x is None or isinstance(x, (bool, np.bool_)):
        return None if x is None else bool(x)
    if isinstance(x, numbers.Integral):
        return int(x)
    if isinstance(x, numbers.Real):
        return float(x)
    if isinstance(x, str):
        return str(x)
    return x


def _tag(x: Any, what: str) -> Any:
    p = _plain(x)
    if p is None or isinstance(p, (bool, int, float, str)):
        return p
    raise FairkitError(
        f"{what}: RunningMetrics keeps values of type str, int, float or bool; got "
        f"{type(x).__name__} {x!r}"
    )


def _key(values: tuple) -> str:
    return json.dumps(list(values), ensure_ascii=False, allow_nan=True)


def _same_labels(a: Any, b: Any) -> bool:
    try:
        return bool(a == b)
    except Exception:  # noqa: BLE001 - values that cannot be compared are different
        return False


def _sorted_labels(values: list) -> list:
    return sorted(values, key=lambda x: (type(x).__name__, x))


class _StateCells(_Cells):
    """The groups of a state as ``MetricFrame``'s cells: the product of each feature's sorted
    levels, with each cell's row count."""

    def __init__(self, names: list[str], levels: list[list], counts: np.ndarray) -> None:
        self.names = names
        self.levels = levels
        self.size = len(counts)
        self.counts = counts
        self._order = None


class RunningMetrics:
    """A streaming ``MetricFrame`` of the recognised rates (fairlearn issue #655).

    ``metrics`` is a rate name, a function, a list of them, or a dict ``{name: rate}`` as
    ``MetricFrame`` takes it: ``selection_rate``, ``true_positive_rate``,
    ``false_positive_rate``, ``true_negative_rate``, ``false_negative_rate`` (fairkit's or
    fairlearn's functions or their names) and scikit-learn's ``accuracy_score``,
    ``precision_score``, ``recall_score``, ``zero_one_loss``. ``pos_label`` is the positive
    label (fairlearn's rules: without it, labels in {0, 1} or {-1, 1}, 1 positive).

    - ``update(y_true, y_pred, sensitive_features=..., sample_weight=None)`` adds a batch
      (numpy arrays, pandas or polars Series/DataFrames, lists; several sensitive columns give
      intersectional groups as in ``MetricFrame``). The labels seen so far are kept: a batch
      that brings a third label value, or labels outside the rules, raises and leaves the
      state unchanged. Groups may first appear in any batch. Weights are given for every batch
      or for none.
    - ``merge(other)`` adds another state's rows (e.g. one per worker or per data-loader
      shard); ``to_bytes()`` / ``from_bytes(data)`` ship a state between processes, and
      pickling uses them.
    - ``result()`` is a :class:`~fairkit.metrics.MetricFrame` (``overall``, ``by_group``,
      ``group_min()``, ``group_max()``, ``difference()``, ``ratio()``) equal, bit for bit, to
      ``MetricFrame(metrics=..., y_true=all, y_pred=all, sensitive_features=all,
      sample_params={"sample_weight": all})`` on the concatenated batches, whatever the split
      and the merge order (the cells are integer counts or exact sums of weights).

    Memory is a few numbers per group (about 2 kB per group with weights), whatever the rows.
    Group values are kept as str, int, float or bool (a pandas categorical by its values).

    Examples
    --------
    >>> import numpy as np
    >>> from fairkit.metrics import RunningMetrics
    >>> rm = RunningMetrics(["selection_rate", "true_positive_rate"])
    >>> rm.update([1, 0, 1], [1, 0, 0], sensitive_features=["a", "a", "b"])
    >>> rm.update(np.array([1, 1]), np.array([1, 1]), sensitive_features=["b", "c"])
    >>> rm.result().by_group["true_positive_rate"].tolist()
    [1.0, 0.5, 1.0]
    >>> float(RunningMetrics.from_bytes(rm.to_bytes()).result().overall["selection_rate"])
    0.6
    """

    def __init__(
        self,
        metrics: Callable | str | list | tuple | dict[str, Callable | str],
        *,
        pos_label: Any = None,
    ) -> None:
        self._metrics, self._single = _parse_metrics(metrics)
        self._pos_label = _tag(pos_label, "pos_label")
        # All selection rates: y_true is not read (fairlearn's selection_rate ignores it).
        self._only_selection = all(m.rate == "selection_rate" for m in self._metrics)
        self._state = _core.ConfusionState()
        self._features: list[str] | None = None
        self._labels: list = []

    # -- configuration --------------------------------------------------------------------

    @property
    def metrics(self) -> dict[str, str]:
        """``{name: recognised function name}`` of the metrics."""
        return {m.name: m.source for m in self._metrics}

    @property
    def pos_label(self) -> Any:
        return self._pos_label

    @property
    def sensitive_levels(self) -> list[str] | None:
        """Names of the sensitive features (from the first batch; None before it)."""
        return None if self._features is None else list(self._features)

    @property
    def n_rows(self) -> int:
        """Rows added so far (merged states included)."""
        return int(self._state.total_rows)

    @property
    def labels(self) -> list:
        """The label values seen in ``y_true`` and ``y_pred`` (at most two; empty when only
        selection rates are computed, which read ``y_pred == pos_label`` alone)."""
        return _sorted_labels(self._labels)

    def __repr__(self) -> str:
        return (
            f"RunningMetrics(metrics={self.metrics!r}, pos_label={self._pos_label!r}, "
            f"n_rows={self.n_rows}, groups={len(self._state.group_names())})"
        )

    def _config(self) -> dict:
        return {
            "metrics": [[m.name, m.source] for m in self._metrics],
            "single": self._single,
            "pos_label": self._pos_label,
        }

    # -- labels ---------------------------------------------------------------------------

    def _label_union(self, seen: list) -> list:
        """The labels of the state and of a batch (or another state) together, checked with
        fairlearn's binary rules on all of them; raises naming the values."""
        union = list(self._labels)
        for x in seen:
            if not any(_same_labels(x, u) for u in union):
                union.append(x)
        shown = ", ".join(repr(x) for x in _sorted_labels(union)) if len(union) < 6 else ""
        if len(union) > 2:
            raise FairkitError(
                f"y_true and y_pred: the batches together have {len(union)} distinct label values"
                f" ({shown or 'more than five'}); these rates need binary labels (at most two "
                f"values over all batches; earlier batches had "
                f"{', '.join(repr(x) for x in self.labels) or 'none'})"
            )
        pos = self._pos_label
        if pos is None:
            vals = set(union)
            if not (vals <= {0, 1} or vals <= {-1, 1}):
                raise FairkitError(
                    f"y_true and y_pred: labels are ({shown}): without pos_label they must be a "
                    "subset of {0, 1} or {-1, 1} over all batches; pass pos_label= to say which "
                    "value is positive"
                )
        elif len(union) == 2 and not any(_same_labels(pos, u) for u in union):
            raise FairkitError(
                f"pos_label={pos!r} is not one of the label values ({shown}) of the batches"
            )
        return union

    def _batch_labels(self, yt: np.ndarray, yp: np.ndarray) -> tuple[np.ndarray, np.ndarray, list]:
        """0/1 labels of a batch and the label values it holds (checked with the earlier ones)."""
        if self._only_selection:
            pos = 1 if self._pos_label is None else self._pos_label
            sel = v.selected(yp, pos)
            return sel, sel, []
        t01, p01 = v.binary_labels(yt, yp, self._pos_label)
        seen = self._values_of(yt, yp, t01, p01)
        return t01, p01, self._label_union(seen)

    @staticmethod
    def _values_of(yt, yp, t01, p01) -> list:
        """The distinct label values of a batch, without a sort when the arrays are 0/1 already."""
        if yt.dtype.kind in "biu" and yp.dtype.kind in "biu" and t01.dtype.kind in "bi":
            both = (t01, p01)
            has1 = any(bool(np.any(a)) for a in both)
            has0 = any(not bool(np.all(a)) for a in both)
            if np.array_equal(t01, yt) and np.array_equal(p01, yp):
                out = []
                as_bool = yt.dtype.kind == "b" and yp.dtype.kind == "b"
                if has0:
                    out.append(False if as_bool else 0)
                if has1:
                    out.append(True if as_bool else 1)
                return out
        uniq = v._unique_labels([(yt, "y_true"), (yp, "y_pred")])
        return [_tag(x, "y_true/y_pred") for x in uniq.tolist()]

    # -- adding rows ----------------------------------------------------------------------

    def update(
        self, y_true: Any, y_pred: Any, *, sensitive_features: Any, sample_weight: Any = None
    ) -> None:
        """Adds one batch of rows (see the class docs). An empty batch is a no-op. On error the
        state is unchanged."""
        if sensitive_features is None:
            raise FairkitError("sensitive_features is missing: pass one value per row")
        _check_rows(y_pred, _n_samples(y_true), "y_pred")
        yt, yp = _squeeze(y_true), _squeeze(y_pred)
        if yt.dtype.kind in "US":
            yt = yt.astype(object)
        if yp.dtype.kind in "US":
            yp = yp.astype(object)
        n = len(yt)
        w = v.weights(sample_weight, n)
        if n == 0:
            return
        if isinstance(sensitive_features, np.ndarray) and sensitive_features.ndim == 2 and (
            sensitive_features.shape[0] == n
        ):
            # One column per feature, also for a batch of one row (MetricFrame would squeeze a
            # 1 x k array into one feature of k rows).
            sensitive_features = {
                f"sensitive_feature_{i}": sensitive_features[:, i]
                for i in range(sensitive_features.shape[1])
            }
        features = _process_features("sensitive_feature_", sensitive_features, n)
        names = [f.name for f in features]
        if len(set(names)) != len(names):
            raise FairkitError(f"sensitive_features: duplicate feature names {names}")
        if self._features is not None and names != self._features:
            raise FairkitError(
                f"sensitive_features: this batch has the features {names}, earlier batches "
                f"{self._features}: every batch needs the same columns, in the same order"
            )
        t01, p01, union = self._batch_labels(yt, yp)
        codes, keys = self._group_codes(features, n)
        self._state.update(
            _contiguous01(t01), _contiguous01(p01), codes, keys, w
        )
        self._labels = union
        if self._features is None:
            self._features = names

    @staticmethod
    def _group_codes(features: list, n: int) -> tuple[np.ndarray, list[str]]:
        """Per row, the index of its group among the groups present in the batch, and each
        present group's name (the JSON of its tuple of values)."""
        per = []
        code = np.zeros(n, dtype=np.int64)
        for f in features:
            levels, codes = _factorized(f)
            levels = [_tag(x, f"sensitive feature {f.name!r}") for x in levels]
            per.append(levels)
            code = code * len(levels) + np.asarray(codes, dtype=np.int64)
        present, inverse = np.unique(code, return_inverse=True)
        keys = []
        for c in present.tolist():
            values = []
            for levels in reversed(per):
                c, i = divmod(c, len(levels))
                values.append(levels[i])
            keys.append(_key(tuple(reversed(values))))
        return np.ascontiguousarray(inverse.reshape(-1), dtype=np.int64), keys

    def merge(self, *others: "RunningMetrics") -> "RunningMetrics":
        """Adds the rows of other ``RunningMetrics`` (same metrics and ``pos_label``) to this
        one; returns ``self``. Exact: any grouping and order of merges gives the same state."""
        for other in others:
            if not isinstance(other, RunningMetrics):
                raise FairkitError(
                    f"merge: expected a RunningMetrics, got {type(other).__name__}"
                )
            if other._config() != self._config():
                raise FairkitError(
                    "merge: the states were made with different settings: "
                    f"{self._config()} and {other._config()}"
                )
            if (
                self._features is not None
                and other._features is not None
                and other._features != self._features
            ):
                raise FairkitError(
                    f"merge: sensitive features {other._features} differ from {self._features}"
                )
            union = self._label_union(other._labels)
            state = other._state.copy() if other is self else other._state
            self._state.merge(state)
            self._labels = union
            if self._features is None:
                self._features = other._features
        return self

    def copy(self) -> "RunningMetrics":
        """An independent copy."""
        return RunningMetrics.from_bytes(self.to_bytes())

    # -- results --------------------------------------------------------------------------

    def result(self) -> MetricFrame:
        """The ``MetricFrame`` of all the rows added (see the class docs)."""
        keys = self._state.group_names()
        if not keys or self._features is None:
            raise FairkitError("result(): no rows yet: call update() with a batch first")
        tuples = [tuple(json.loads(k)) for k in keys]
        nf = len(self._features)
        levels = []
        for j in range(nf):
            distinct, seen = [], set()
            for t in tuples:
                k = _key((t[j],))
                if k not in seen:
                    seen.add(k)
                    distinct.append(t[j])
            arr = np.empty(len(distinct), dtype=object)
            arr[:] = distinct
            sorted_levels = list(_levels_and_codes(arr)[0])
            if len(sorted_levels) != len(distinct):
                raise FairkitError(
                    f"sensitive feature {self._features[j]!r}: the batches hold values that "
                    f"are equal but of different types ({', '.join(map(repr, distinct))}); "
                    "give the column one type in every batch"
                )
            levels.append(sorted_levels)
        size = int(np.prod([len(lv) for lv in levels]))
        if size > _MAX_CELLS:
            raise FairkitError(
                f"the features {self._features} have more than 10,000,000 combinations of "
                "values: too many groups"
            )
        present = set(keys)
        combos = list(itertools.product(*levels))
        order = []
        for t in combos:
            k = _key(t)
            order.append(k if k in present else None)
        if nf == 1:
            labels = [str(t[0]) for t in combos]
        else:
            labels = ["(" + ", ".join(map(str, t)) + ")" for t in combos]
        rates = self._state.rates(order, labels)
        counts = np.asarray(self._state.rows(order), dtype=np.uint64)
        cells = _StateCells(list(self._features), levels, counts)

        mf = MetricFrame.__new__(MetricFrame)
        mf._yt = mf._yp = None
        mf._n = self.n_rows
        mf._pos_label = self._pos_label
        mf._user_supplied_callable = self._single
        mf._metrics = list(self._metrics)
        mf._sf_names = list(self._features)
        mf._cf_names = None
        mf._counted = {}
        mf._only_selection = self._only_selection
        mf._cells = cells
        mf._cf_cells = None
        mf._values, mf._overall_values = [], []
        for m in self._metrics:
            summary = rates.summary(m.rate)
            mf._values.append(
                [float(x) if counts[i] else None for i, x in enumerate(summary["by_group"].tolist())]
            )
            mf._overall_values.append([float(summary["overall"])])
        mf._build_results()
        mf._n_boot = None
        mf._ci_quantiles = None
        mf._ci = None
        return mf

    # -- bytes ----------------------------------------------------------------------------

    def to_bytes(self) -> bytes:
        """A versioned encoding of the state (settings, features, labels seen and the per-group
        cells; canonical: equal states give equal bytes), for :meth:`from_bytes`."""
        header = dict(self._config())
        header["features"] = self._features
        header["labels"] = self.labels
        text = json.dumps(header, ensure_ascii=False, sort_keys=True, allow_nan=False).encode()
        return (
            _MAGIC + bytes([_VERSION]) + struct.pack("<Q", len(text)) + text
            + bytes(self._state.to_bytes())
        )

    @classmethod
    def from_bytes(cls, data: bytes) -> "RunningMetrics":
        """The ``RunningMetrics`` that :meth:`to_bytes` encoded; a FairkitError naming
        ``data`` for anything else (wrong kind, other version, truncated, corrupt)."""
        if not isinstance(data, (bytes, bytearray, memoryview)):
            raise FairkitError(f"data must be bytes, got {type(data).__name__}")
        data = bytes(data)

        def bad(reason: str) -> FairkitError:
            return FairkitError(f"data is not an encoded RunningMetrics: {reason}")

        if len(data) < 13 or data[:4] != _MAGIC:
            raise bad("wrong magic bytes (expected the output of RunningMetrics.to_bytes)")
        if data[4] != _VERSION:
            raise bad(f"version {data[4]}, this build reads version {_VERSION}")
        (n,) = struct.unpack("<Q", data[5:13])
        if n > len(data) - 13:
            raise bad(f"truncated: a {n}-byte header announced, {len(data) - 13} bytes left")
        try:
            header = json.loads(data[13 : 13 + n].decode("utf-8"))
            metrics = header["metrics"]
            single = header["single"]
            pos_label = header["pos_label"]
            features = header["features"]
            labels = header["labels"]
            if not (
                isinstance(metrics, list)
                and all(
                    isinstance(m, list) and len(m) == 2 and all(isinstance(x, str) for x in m)
                    for m in metrics
                )
                and isinstance(single, bool)
                and (features is None or (
                    isinstance(features, list) and all(isinstance(f, str) for f in features)
                ))
                and isinstance(labels, list)
            ):
                raise ValueError("fields of the wrong type")
        except (ValueError, KeyError, TypeError, UnicodeDecodeError, RecursionError) as e:
            raise bad(f"corrupt header ({e})") from None
        if single:
            spec: Any = metrics[0][1] if len(metrics) == 1 else None
            if spec is None:
                raise bad("corrupt header (one metric expected)")
        else:
            spec = {name: source for name, source in metrics}
        try:
            out = cls(spec, pos_label=pos_label)
        except FairkitError as e:
            raise bad(f"corrupt header ({e})") from None
        if single:
            out._metrics[0].name = metrics[0][0]
        try:
            out._state = _core.ConfusionState.from_bytes(data[13 + n :])
        except FairkitError as e:
            raise bad(str(e)) from None
        out._features = features
        keys = out._state.group_names()
        if keys and features is None:
            raise bad("groups without sensitive feature names")
        for k in keys:
            try:
                t = json.loads(k)
            except ValueError:
                t = None
            if not isinstance(t, list) or len(t) != len(features) or any(
                not isinstance(x, (bool, int, float, str)) or x != x for x in t
            ):
                raise bad(f"group name {k!r} is not a tuple of {len(features)} values")
        try:
            out._labels = []
            out._labels = out._label_union([_tag(x, "labels") for x in labels])
        except FairkitError as e:
            raise bad(f"corrupt labels ({e})") from None
        return out

    def __reduce__(self):
        return (RunningMetrics.from_bytes, (self.to_bytes(),))


def _contiguous01(a: np.ndarray) -> np.ndarray:
    """0/1 labels as the core reads them (``bool`` or ``int64``, C-contiguous)."""
    if a.dtype != np.bool_ and a.dtype != np.int64:
        a = a.astype(np.int64)
    return np.ascontiguousarray(a)
