"""Bootstrap intervals of ``MetricFrame`` (``n_boot``, ``ci_quantiles``, ``random_state``).

Two ways to draw the resamples, both the distribution of resampling the rows with replacement:

- **Counts** (every metric a recognised rate, no sample weights): a rate of a cell depends on
  the rows only through the cell's counts of (label, prediction). Resampling ``n`` rows with
  replacement draws those counts, over all cells at once, from the multinomial with ``n``
  trials and the observed shares, so each resample is one multinomial draw, made in Rust
  (``fairkit._core.metrics.multinomial_resamples``: sequential binomials from a ChaCha8
  generator seeded with ``random_state``): no row is touched.
- **Rows** (anything else): fairlearn's own scheme, reproduced bit for bit —
  ``numpy.random.default_rng(random_state)`` draws one 32-bit seed per resample and
  ``numpy.random.RandomState(seed).choice(n, n)`` the rows (what ``DataFrame.sample(frac=1,
  replace=True, random_state=seed)`` does); the metric is computed on the resampled rows'
  cells as for the point estimate.

Each resample's per-cell values give its ``overall``, ``group_min``/``max``, ``difference`` and
``ratio`` with fairlearn's rules (NaN-skipping min/max), and the quantiles are taken as
fairlearn takes them (``numpy.quantile`` across resamples for the results that are Series
without control features, ``numpy.nanquantile`` for the DataFrames).
"""

from __future__ import annotations

import numbers
from typing import Any

import numpy as np

from fairkit._core import FairkitError
from fairkit._core import metrics as _core
from fairkit import _validation as v

_BOOTSTRAP_QUANTILE_ERROR = (
    "Error calling numpy.quantiles. Most likely due to a metric returning a non-scalar result"
)


def _as_float(x: Any) -> float:
    if x is None:
        return np.nan
    if not np.isscalar(x):
        arr = np.asarray(x)
        if arr.size == 1 and arr.dtype.kind in "iufb":
            return float(arr.reshape(()))
        try:
            bool(arr)  # numpy's own error for an array of several values: the cause
        except ValueError as e:
            raise FairkitError(_BOOTSTRAP_QUANTILE_ERROR) from e
        raise FairkitError(_BOOTSTRAP_QUANTILE_ERROR)
    try:
        return float(x)
    except (TypeError, ValueError) as e:
        raise FairkitError(_BOOTSTRAP_QUANTILE_ERROR) from e


def _seeds(random_state: Any, n_boot: int) -> np.ndarray:
    """fairlearn's per-resample seeds."""
    top = np.iinfo(np.uint32).max
    if random_state is None:
        return np.random.default_rng().integers(low=0, high=top, size=n_boot, dtype=np.uint32)
    if isinstance(random_state, np.random.RandomState):
        return random_state.randint(low=0, high=top, size=n_boot, dtype=np.uint32)
    if isinstance(random_state, numbers.Integral) and not isinstance(random_state, bool):
        gen = np.random.default_rng(seed=int(random_state))
        return gen.integers(low=0, high=top, size=n_boot, dtype=np.uint32)
    raise FairkitError(f"Unsupported random_state: {random_state}")


def _seed(random_state: Any) -> int:
    """The 64-bit seed of the Rust count resampler."""
    if random_state is None:
        return int(np.random.default_rng().integers(0, 2**63))
    if isinstance(random_state, np.random.RandomState):
        return int(random_state.randint(low=0, high=np.iinfo(np.uint32).max, dtype=np.uint32))
    if isinstance(random_state, numbers.Integral) and not isinstance(random_state, bool):
        if random_state < 0 or random_state >= 2**64:
            raise FairkitError(f"random_state must be in [0, 2**64), got {random_state}")
        return int(random_state)
    raise FairkitError(f"Unsupported random_state: {random_state}")


def _rates_from_counts(rate: str, tp, fp, fn, tn) -> np.ndarray:
    """The rate from (…, 4) counts with fairlearn's conventions: 0 for a zero denominator
    within a cell that has rows, NaN for a cell without rows."""
    n = tp + fp + fn + tn
    if rate == "selection_rate":
        num, den = tp + fp, n
    elif rate == "true_positive_rate":
        num, den = tp, tp + fn
    elif rate == "false_positive_rate":
        num, den = fp, fp + tn
    elif rate == "true_negative_rate":
        num, den = tn, fp + tn
    elif rate == "false_negative_rate":
        num, den = fn, tp + fn
    elif rate == "precision":
        num, den = tp, tp + fp
    elif rate == "accuracy":
        num, den = tp + tn, n
    elif rate == "error_rate":
        num, den = fp + fn, n
    else:  # pragma: no cover - the rates are the core's list
        raise FairkitError(f"unknown rate {rate!r}")
    with np.errstate(invalid="ignore", divide="ignore"):
        out = np.where(den > 0, num / np.where(den > 0, den, 1), 0.0)
    return np.where(n > 0, out, np.nan)


def _count_samples(mf, n_boot: int, random_state: Any):
    """Per-metric (n_boot, cells) and (n_boot, overall cells) arrays from multinomial draws of
    the per-cell counts; None when this path does not apply."""
    from fairkit.metrics._frame import _rate_inputs

    metrics = mf._metrics
    if not all(m.rate is not None and not m.params for m in metrics):
        return None
    rates = {m.rate for m in metrics}
    only_sel = rates == {"selection_rate"}
    if not only_sel and not v.is_default_pos_label(mf._pos_label):
        return None
    labels = _rate_inputs(mf._yt, mf._yp, "selection_rate" if only_sel else "accuracy",
                          mf._pos_label)
    if labels is None:
        return None
    yt, yp = labels
    cells = mf._cells
    cat = cells.code * 4 + np.asarray(yt, dtype=np.int64) * 2 + np.asarray(yp, dtype=np.int64)
    counts = np.bincount(cat, minlength=cells.size * 4)
    draws = _core.multinomial_resamples(counts.astype(np.int64), n_boot, _seed(random_state))
    draws = draws.reshape(n_boot, cells.size, 4).astype(np.float64)
    tn, fp, fn, tp = draws[..., 0], draws[..., 1], draws[..., 2], draws[..., 3]
    n_cf = mf._cf_cells.size if mf._cf_cells is not None else 1
    shape = (n_boot, n_cf, cells.size // n_cf)
    out_cells, out_overall = [], []
    for m in metrics:
        out_cells.append(_rates_from_counts(m.rate, tp, fp, fn, tn))
        agg = [a.reshape(shape).sum(axis=2) for a in (tp, fp, fn, tn)]
        out_overall.append(_rates_from_counts(m.rate, *agg))
    return out_cells, out_overall


def _row_samples(mf, n_boot: int, random_state: Any):
    """Per-metric arrays from fairlearn's row resamples."""
    from fairkit.metrics._frame import _Cells

    n = mf._n
    cells = mf._cells
    seeds = _seeds(random_state, n_boot)
    out_cells = [np.full((n_boot, cells.size), np.nan) for _ in mf._metrics]
    n_ov = mf._cf_cells.size if mf._cf_cells is not None else 1
    out_overall = [np.full((n_boot, n_ov), np.nan) for _ in mf._metrics]
    n_cf = n_ov
    for b, seed in enumerate(seeds):
        idx = np.random.RandomState(seed).choice(n, size=n, replace=True)
        code = cells.code[idx]
        sub = _Cells.__new__(_Cells)
        sub.size, sub.code = cells.size, code
        sub.counts = np.bincount(code, minlength=cells.size)
        sub._order = None
        yt, yp = mf._yt[idx], mf._yp[idx]
        cf_code = code // (cells.size // n_cf)
        for k, m in enumerate(mf._metrics):
            params = {name: p[idx] for name, p in m.params.items()}
            done = False
            if m.rate is not None:
                done = _rate_sample(mf, m, yt, yp, params, sub, cf_code, n_cf,
                                    out_cells[k][b], out_overall[k][b])
            if done:
                continue
            order = np.argsort(code, kind="stable")
            starts = np.concatenate(([0], np.cumsum(sub.counts)))
            for c in np.flatnonzero(sub.counts):
                rows = order[starts[c] : starts[c + 1]]
                kw = {name: p[rows] for name, p in params.items()}
                out_cells[k][b, c] = _as_float(m.func(yt[rows], yp[rows], **kw))
            if mf._cf_cells is None:
                out_overall[k][b, 0] = _as_float(m.func(yt, yp, **params))
            else:
                cf_counts = np.bincount(cf_code, minlength=n_cf)
                cf_order = np.argsort(cf_code, kind="stable")
                cf_starts = np.concatenate(([0], np.cumsum(cf_counts)))
                for c in np.flatnonzero(cf_counts):
                    rows = cf_order[cf_starts[c] : cf_starts[c + 1]]
                    kw = {name: p[rows] for name, p in params.items()}
                    out_overall[k][b, c] = _as_float(m.func(yt[rows], yp[rows], **kw))
    return out_cells, out_overall


def _rate_sample(mf, m, yt_raw, yp_raw, params, sub, cf_code, n_cf, cell_out, ov_out) -> bool:
    from fairkit.metrics._frame import _rate_inputs

    labels = _rate_inputs(yt_raw, yp_raw, m.rate, mf._pos_label)
    if labels is None:
        return False
    yt, yp = labels
    w = params.get("sample_weight")
    w = None if w is None else np.ascontiguousarray(w, dtype=np.float64)
    try:
        s = _core.group_rates(yt, yp, sub.code, mf._cells.labels(), w)
        cell_out[:] = s.summary(m.rate)["by_group"]
        if mf._cf_cells is None:
            ov_out[0] = s.summary(m.rate)["overall"]
        else:
            s2 = _core.group_rates(yt, yp, cf_code, [str(i) for i in range(n_cf)], w)
            ov_out[:] = s2.summary(m.rate)["by_group"]
    except FairkitError:
        return False
    return True


def _nan_reduce(func, a, axis):
    with np.errstate(invalid="ignore", divide="ignore"):
        import warnings

        with warnings.catch_warnings():
            warnings.simplefilter("ignore", RuntimeWarning)
            return func(a, axis=axis)


def bootstrap(mf, n_boot: int, quantiles: list[float], random_state: Any) -> dict:
    """Every ``*_ci`` result of ``mf``, keyed as ``MetricFrame`` reads them."""
    pd = v.pd
    if pd is None:
        raise FairkitError("bootstrap intervals need pandas (pip install pandas)")
    drawn = _count_samples(mf, n_boot, random_state)
    if drawn is None:
        drawn = _row_samples(mf, n_boot, random_state)
    cells_s, overall_s = drawn
    names = [m.name for m in mf._metrics]
    n_cf = mf._cf_cells.size if mf._cf_cells is not None else 1
    has_cf = mf._cf_cells is not None
    n_sf = mf._cells.size // n_cf

    # (n_boot, n_cf, n_sf, metrics) and (n_boot, n_cf, metrics)
    bg = np.stack([c.reshape(n_boot, n_cf, n_sf) for c in cells_s], axis=-1)
    ov = np.stack(overall_s, axis=-1)
    gmin = _nan_reduce(np.nanmin, bg, 2)
    gmax = _nan_reduce(np.nanmax, bg, 2)
    with np.errstate(invalid="ignore", divide="ignore"):
        diff_between = _nan_reduce(np.nanmax, np.abs(bg - gmin[:, :, None, :]), 2)
        diff_overall = _nan_reduce(np.nanmax, np.abs(bg - ov[:, :, None, :]), 2)
        ratio_between = gmin / gmax
        r = bg / ov[:, :, None, :]
        r = np.where(r > 1, 1 / r, r)
        ratio_overall = _nan_reduce(np.nanmin, r, 2)

    def q_series(samples):  # (n_boot, 1, metrics) → per quantile a Series over metrics
        res = np.quantile(samples[:, 0, :], q=quantiles, axis=0)
        return [mf._extract(pd.Series(res[i], index=names), False) for i in range(len(quantiles))]

    def q_frame(samples, index, no_cf):  # (n_boot, rows, metrics)
        with np.errstate(invalid="ignore"):
            import warnings

            with warnings.catch_warnings():
                warnings.simplefilter("ignore", RuntimeWarning)
                res = np.nanquantile(samples, q=quantiles, axis=0)
        return [
            mf._extract(pd.DataFrame(res[i], index=index, columns=names), no_cf)
            for i in range(len(quantiles))
        ]

    def q_agg(samples):
        if not has_cf:
            return q_series(samples)
        if len(mf._cf_cells.names) == 1:
            samples = samples[:, mf._cf_cells.present(), :]
        return q_frame(samples, mf._overall_raw.index, False)

    # by_group rows in the table's order: the full product for several features, the present
    # levels for one.
    bg_rows = bg.reshape(n_boot, n_cf * n_sf, len(names))
    present = mf._cells.present()
    if len(mf._cells.names) == 1:
        bg_rows = bg_rows[:, present, :]
    out = {
        "overall": q_agg(ov),
        "by_group": q_frame(bg_rows, mf._by_group_df.index, True),
        "group_min": q_agg(gmin),
        "group_max": q_agg(gmax),
        ("difference", "between_groups"): q_agg(diff_between),
        ("difference", "to_overall"): q_agg(diff_overall),
        ("ratio", "between_groups"): q_agg(ratio_between),
        ("ratio", "to_overall"): q_agg(ratio_overall),
    }
    return out
