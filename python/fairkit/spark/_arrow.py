"""Arrow record batches → the Rust audit state. Runs on Spark executors.

Every batch goes to Rust as it is, through the Arrow C Data Interface (no copy), and is decoded
there by the ``fairkit audit`` command's own decoder (``fair_audit::ingest``): the label coder
(positive label, learned or declared negative, a third value is an error naming the row), the
column types each role accepts, nulls, non-finite scores, negative weights, group names. Only
pyarrow is used here (no pandas, no numpy, no row-by-row Python). The same code runs on one
machine in :func:`fairkit.audit`, which is what makes the two paths give the same
state — and the same errors.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Iterable, Optional

import pyarrow as pa

from fairkit._core import spark as _core


def label_text(value: Any) -> Optional[str]:
    """A label value as the decoder compares it (text, then number, then boolean)."""
    if value is None:
        return None
    if isinstance(value, bool):
        return "true" if value else "false"
    return str(value)


@dataclass(frozen=True)
class AuditColumns:
    """Which columns an audit reads, and how (plain data: pickled to every executor)."""

    label: str
    pred: str
    sensitive: tuple
    score: Optional[str] = None
    weight: Optional[str] = None
    pos_label: Any = 1
    neg_label: Any = None
    #: The request's handling of unknown sensitive values and the values listed as unknown.
    unknowns: str = "error"
    unknown_values: tuple = ()
    #: Leading columns of ``sensitive`` the handling leaves out (a ``by`` / ``against`` column).
    lead: int = 0

    def state(self, origin: str, neg_label: Optional[str] = None) -> "_core.PartitionState":
        """An empty Rust state decoding these columns; ``origin`` names the rows in messages."""
        neg = neg_label if neg_label is not None else label_text(self.neg_label)
        return _core.PartitionState(self.label, self.pred, list(self.sensitive), self.score,
                                    self.weight, label_text(self.pos_label), neg, origin,
                                    self.unknowns, list(self.unknown_values), self.lead)


def _origin() -> str:
    from pyspark import TaskContext

    ctx = TaskContext.get()
    return f"Spark partition {ctx.partitionId()}" if ctx is not None else "Spark partition"


def partition_states(batches: Iterable[pa.RecordBatch], cols: AuditColumns):
    """The ``mapInArrow`` function: one output row (the encoded state) per partition.

    Empty partitions (no batch or zero-row batches) still send an empty state, which merges as
    the identity.
    """
    state = cols.state(_origin())
    for batch in batches:
        if batch.num_rows:
            state.update(batch)
    yield pa.RecordBatch.from_arrays([pa.array([state.to_bytes()], pa.binary())],
                                     names=["confusion"])


# -- the score pass: a distributed sweep over score ranges ---------------------------------------

def score_decoder(cols: AuditColumns, names: list, negative: Optional[str], origin: str):
    """A decoder for a score pass: the counting pass's label pair and finest groups (a group it
    did not see is an error)."""
    decoder = cols.state(origin, negative)
    decoder.freeze_groups(list(names))
    return decoder


# The score range number of each row in the score pass (0 holds the highest scores).
RANGE = "__fk_range"


def _by_range(batches: Iterable[pa.RecordBatch], cols: AuditColumns, names: list,
              negative: Optional[str], keep_rows: bool) -> dict:
    """This partition's rows as one ``ScoreSegment`` per score range (``RANGE`` column; the
    shuffle sends one range to each partition, but any mix is handled)."""
    import pyarrow.compute as pc

    decoder = score_decoder(cols, names, negative, _origin())
    segments: dict = {}
    for batch in batches:
        if not batch.num_rows:
            continue
        ranges = batch.column(RANGE)
        rows = batch.drop_columns([RANGE])
        present = pc.unique(ranges).to_pylist()
        for r in present:
            part = rows if len(present) == 1 else rows.filter(pc.equal(ranges, r))
            if r not in segments:
                segments[r] = _core.ScoreSegment(cols.weight is not None, keep_rows)
            segments[r].update_arrow(decoder, part)
    return segments


def score_range_totals(batches: Iterable[pa.RecordBatch], cols: AuditColumns, names: list,
                       negative: Optional[str]):
    """``mapInArrow``: this partition's score totals per range (the row path's way to the
    ranges' totals; the Spark SQL count gives them from its aggregate)."""
    segments = _by_range(batches, cols, names, negative, False)
    ranges = sorted(segments)
    yield pa.RecordBatch.from_arrays(
        [pa.array(ranges, pa.int32()),
         pa.array([segments[r].totals() for r in ranges], pa.binary())],
        names=["range", "totals"],
    )


def score_range_segments(batches: Iterable[pa.RecordBatch], cols: AuditColumns, names: list,
                         negative: Optional[str], totals: bytes, above: dict, interval: tuple):
    """``mapInArrow``, after the shuffle by range: each range's rows swept from the exact totals
    of the ranges above it."""
    segments = _by_range(batches, cols, names, negative, True)
    ranges = sorted(segments)
    swept = [segments[r].sweep(list(names), totals, above[r], interval, len(cols.sensitive))
             for r in ranges]
    yield pa.RecordBatch.from_arrays(
        [pa.array(ranges, pa.int32()), pa.array(swept, pa.binary())],
        names=["range", "segment"],
    )
