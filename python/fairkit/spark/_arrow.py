"""Arrow record batches → the Rust audit state. Runs on Spark executors.

Every batch goes to Rust as it is, through the Arrow C Data Interface (no copy), and is decoded
there by the ``fairkit audit`` command's own decoder (``fair_audit::ingest``): the label coder
(positive label, learned or declared negative, a third value is an error naming the row), the
column types each role accepts, nulls, non-finite scores, negative weights, group names. Only
pyarrow is used here (no pandas, no numpy, no row-by-row Python). The same code runs on one
machine in :func:`fairkit.spark.audit_arrow`, which is what makes the two paths give the same
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

    def state(self, origin: str, neg_label: Optional[str] = None) -> "_core.PartitionState":
        """An empty Rust state decoding these columns; ``origin`` names the rows in messages."""
        neg = neg_label if neg_label is not None else label_text(self.neg_label)
        return _core.PartitionState(self.label, self.pred, list(self.sensitive), self.score,
                                    self.weight, label_text(self.pos_label), neg, origin)


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


def score_totals_rows(batches: Iterable[pa.RecordBatch], cols: AuditColumns, names: list,
                      negative: Optional[str]):
    """First score pass (``mapInArrow``): each range partition's score totals."""
    from pyspark import TaskContext

    decoder = score_decoder(cols, names, negative, _origin())
    segment = _core.ScoreSegment(cols.weight is not None, False)
    for batch in batches:
        if batch.num_rows:
            segment.update_arrow(decoder, batch)
    yield pa.RecordBatch.from_arrays(
        [pa.array([TaskContext.get().partitionId()], pa.int32()),
         pa.array([segment.totals()], pa.binary())],
        names=["pid", "totals"],
    )


def score_segment_rows(batches: Iterable[pa.RecordBatch], cols: AuditColumns, names: list,
                       negative: Optional[str], totals: bytes, above: dict, interval: tuple):
    """Second score pass (``mapInArrow``): each range partition swept from the totals of the
    ranges above it."""
    from pyspark import TaskContext

    pid = TaskContext.get().partitionId()
    decoder = score_decoder(cols, names, negative, _origin())
    segment = _core.ScoreSegment(cols.weight is not None, True)
    for batch in batches:
        if batch.num_rows:
            segment.update_arrow(decoder, batch)
    swept = segment.sweep(list(names), totals, above[pid], interval, len(cols.sensitive))
    yield pa.RecordBatch.from_arrays(
        [pa.array([pid], pa.int32()), pa.array([swept], pa.binary())],
        names=["pid", "segment"],
    )
