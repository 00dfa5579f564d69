//! The rows the exact score metrics need, held compactly and spilled to disk above the memory
//! budget.
//!
//! Per stream (finest group × label) only the score's order-preserving `u64` key is kept, plus
//! the weight when the audit is weighted: 8 (or 16) bytes per row, no other copy. When the
//! buffered rows exceed `--memory-budget`, every stream's buffer is sorted and appended to one
//! anonymous temporary file as a descending run, and the buffers are emptied. At the end the
//! runs (on disk, or the in-memory buffers when nothing was spilled) are handed to
//! [`fair_metrics::score_sweep::sweep`], which k-way merges them: the result is exact and bit
//! for bit the same as without spilling. The temporary file is deleted when the store is dropped
//! (also on error or panic) because it was never linked into a directory.

use crate::error::CliError;
use fair_metrics::MetricError;
use fair_metrics::distribution::{DistributionSettings, SliceDistribution};
use fair_metrics::score_sweep::{
    Run, SliceMap, SliceScores, StreamTotals, SweepSettings, score_key, sort_keys, sort_weighted,
    stream_of, sweep,
};
use std::fs::File;
use std::io::{BufWriter, Write};
use std::path::PathBuf;

/// One stream's rows since the last spill.
enum Buffer {
    Unit(Vec<u64>),
    Weighted(Vec<(u64, f64)>),
}

impl Buffer {
    fn len(&self) -> usize {
        match self {
            Buffer::Unit(v) => v.len(),
            Buffer::Weighted(v) => v.len(),
        }
    }
    fn sort(&mut self) {
        match self {
            Buffer::Unit(v) => sort_keys(v),
            Buffer::Weighted(v) => sort_weighted(v),
        }
    }
    fn run(&self, stream: usize) -> Run<'_> {
        match self {
            Buffer::Unit(v) => Run::from_sorted_keys(stream, v),
            Buffer::Weighted(v) => Run::from_sorted_pairs(stream, v),
        }
    }
}

/// Where one spilled run sits in the temporary file.
#[derive(Debug, Clone, Copy)]
struct RunSpan {
    stream: usize,
    offset: u64,
    rows: u64,
}

struct Spill {
    file: File,
    dir: PathBuf,
    written: u64,
    runs: Vec<RunSpan>,
}

/// The score rows of an audit.
pub struct ScoreStore {
    weighted: bool,
    buffers: Vec<Buffer>,
    totals: StreamTotals,
    buffered_rows: u64,
    budget: u64,
    spill_dir: PathBuf,
    spill: Option<Spill>,
}

impl ScoreStore {
    /// An empty store that spills above `budget` bytes into a temporary file in `spill_dir`.
    pub fn new(weighted: bool, budget: u64, spill_dir: PathBuf) -> Self {
        Self {
            weighted,
            buffers: Vec::new(),
            totals: StreamTotals::new(weighted),
            buffered_rows: 0,
            budget,
            spill_dir,
            spill: None,
        }
    }

    /// Bytes one buffered row takes.
    pub fn bytes_per_row(&self) -> u64 {
        if self.weighted { 16 } else { 8 }
    }

    /// Number of runs written to disk so far.
    #[cfg(test)]
    pub fn spilled_runs(&self) -> usize {
        self.spill.as_ref().map_or(0, |s| s.runs.len())
    }

    /// Adds one batch: finest group, 0/1 label, finite score and weight of each row.
    ///
    /// # Errors
    /// [`CliError::Write`] when a spill to disk fails.
    pub fn add(
        &mut self,
        finest: &[usize],
        labels: &[usize],
        scores: &[f64],
        weights: Option<&[f64]>,
    ) -> Result<(), CliError> {
        for (i, ((&g, &y), &s)) in finest.iter().zip(labels).zip(scores).enumerate() {
            let stream = stream_of(g, y.min(1));
            while self.buffers.len() <= stream {
                self.buffers.push(if self.weighted {
                    Buffer::Weighted(Vec::new())
                } else {
                    Buffer::Unit(Vec::new())
                });
            }
            let key = score_key(s);
            match &mut self.buffers[stream] {
                Buffer::Weighted(v) => {
                    // +0.0, never -0.0: weights sort by their bits.
                    let w = weights.map_or(1.0, |w| w[i]) + 0.0;
                    v.push((key, w));
                    self.totals.add(stream, w);
                }
                Buffer::Unit(v) => {
                    v.push(key);
                    self.totals.add(stream, 1.0);
                }
            }
        }
        self.buffered_rows += finest.len() as u64;
        if self.buffered_rows.saturating_mul(self.bytes_per_row()) > self.budget {
            self.spill_buffers()?;
        }
        Ok(())
    }

    fn write_err(&self, source: std::io::Error) -> CliError {
        CliError::Write {
            path: self.spill_dir.join("(temporary score runs)"),
            source,
        }
    }

    /// Sorts every buffer and appends it to the temporary file as one descending run.
    fn spill_buffers(&mut self) -> Result<(), CliError> {
        if self.spill.is_none() {
            let file = tempfile::tempfile_in(&self.spill_dir).map_err(|e| self.write_err(e))?;
            self.spill = Some(Spill {
                file,
                dir: self.spill_dir.clone(),
                written: 0,
                runs: Vec::new(),
            });
        }
        let spill = self.spill.as_mut().expect("created above");
        let mut out = BufWriter::with_capacity(1 << 20, &spill.file);
        let mut result = Ok(());
        for (stream, buf) in self.buffers.iter_mut().enumerate() {
            if buf.len() == 0 {
                continue;
            }
            buf.sort();
            let rows = buf.len() as u64;
            let written = match buf {
                Buffer::Unit(v) => v
                    .iter()
                    .rev()
                    .try_for_each(|k| out.write_all(&k.to_le_bytes())),
                Buffer::Weighted(v) => v.iter().rev().try_for_each(|(k, w)| {
                    out.write_all(&k.to_le_bytes())?;
                    out.write_all(&w.to_le_bytes())
                }),
            };
            if let Err(e) = written {
                result = Err(e);
                break;
            }
            let item = if self.weighted { 16 } else { 8 };
            spill.runs.push(RunSpan {
                stream,
                offset: spill.written,
                rows,
            });
            spill.written += rows * item;
            match buf {
                Buffer::Unit(v) => v.clear(),
                Buffer::Weighted(v) => v.clear(),
            }
        }
        let flushed = result.and_then(|()| out.flush());
        drop(out);
        flushed.map_err(|e| self.write_err(e))?;
        self.buffered_rows = 0;
        Ok(())
    }

    /// Every slice's exact score metrics, from one sweep over the runs (spilled or in memory)
    /// with the streams renumbered by `rank` (the sorted-name order of the groups).
    ///
    /// # Errors
    /// [`CliError::Metric`] when the sweep fails, [`CliError::Write`] when spilling fails.
    pub fn metrics(
        self,
        slices: &[SliceMap],
        settings: &SweepSettings,
        rank: &[usize],
    ) -> Result<Vec<SliceScores>, CliError> {
        self.swept("score metrics", rank, |totals, runs| {
            sweep(slices, totals, runs, settings)
        })
    }

    /// A regression audit's prediction distributions of every slice (see
    /// [`fair_metrics::distribution::sweep`]), from the same runs.
    ///
    /// # Errors
    /// As [`ScoreStore::metrics`].
    pub fn distributions(
        self,
        slices: &[SliceMap],
        settings: &DistributionSettings,
        rank: &[usize],
    ) -> Result<Vec<SliceDistribution>, CliError> {
        self.swept("prediction distributions", rank, |totals, runs| {
            fair_metrics::distribution::sweep(slices, totals, runs, settings)
        })
    }

    /// NYC Local Law 144's cut: the sample's median score and each group's count strictly
    /// above it, exact ([`fair_metrics::distribution::median_cut_of_runs`]); `groups` are each
    /// finest group's rows and exact weight sum, as the caller counted them.
    ///
    /// # Errors
    /// As [`ScoreStore::metrics`].
    pub fn median_cut(
        self,
        groups: &[fair_metrics::distribution::GroupSum],
    ) -> Result<fair_metrics::distribution::MedianCut, CliError> {
        let rank: Vec<usize> = (0..groups.len()).collect();
        self.swept("median score", &rank, |totals, runs| {
            fair_metrics::distribution::median_cut_of_runs(totals, groups, runs)
        })
    }

    /// The prediction distributions of subsets of the store's groups, one sweep each: subset
    /// `i` is `(groups, slices)` — the groups (the store's numbering) in the order the
    /// subset's slices number them. For `--by` windows: each window's rows alone.
    ///
    /// # Errors
    /// As [`ScoreStore::metrics`].
    pub fn distributions_of_subsets(
        mut self,
        subsets: &[(Vec<usize>, Vec<SliceMap>)],
        settings: &DistributionSettings,
    ) -> Result<Vec<Vec<SliceDistribution>>, CliError> {
        let metric = |source| CliError::Metric {
            what: "a window's prediction distributions".into(),
            source,
        };
        // The streams of a subset: (old stream, new stream) for both labels of each group.
        let streams_of = |groups: &[usize]| -> Vec<usize> {
            groups
                .iter()
                .flat_map(|&g| [stream_of(g, 0), stream_of(g, 1)])
                .collect()
        };
        let mut out = Vec::with_capacity(subsets.len());
        if self.spill.is_some() {
            self.spill_buffers()?;
            self.buffers = Vec::new();
            let spill = self.spill.as_ref().expect("spilled");
            let item = self.bytes_per_row();
            let per_run = (self.budget / 2 / spill.runs.len().max(1) as u64).clamp(4096, 1 << 20);
            let rows_per_read = (per_run / item).max(1);
            for (groups, maps) in subsets {
                let old = streams_of(groups);
                let totals = self.totals.subset(&old);
                let runs = spill
                    .runs
                    .iter()
                    .filter_map(|span| {
                        let new = old.iter().position(|&o| o == span.stream)?;
                        Some(Run::new(
                            new,
                            RunReader::new(&spill.file, *span, item, rows_per_read, &spill.dir),
                        ))
                    })
                    .collect();
                out.push(
                    fair_metrics::distribution::sweep(maps, &totals, runs, settings)
                        .map_err(metric)?,
                );
            }
            return Ok(out);
        }
        self.buffers.iter_mut().for_each(Buffer::sort);
        for (groups, maps) in subsets {
            let old = streams_of(groups);
            let totals = self.totals.subset(&old);
            let runs = old
                .iter()
                .enumerate()
                .filter_map(|(new, &o)| self.buffers.get(o).map(|b| b.run(new)))
                .collect();
            out.push(
                fair_metrics::distribution::sweep(maps, &totals, runs, settings).map_err(metric)?,
            );
        }
        Ok(out)
    }

    /// Hands the runs (spilled or in memory) and their renumbered totals to a sweep.
    fn swept<T>(
        mut self,
        what: &str,
        rank: &[usize],
        sweep_runs: impl FnOnce(&StreamTotals, Vec<Run<'_>>) -> Result<T, MetricError>,
    ) -> Result<T, CliError> {
        let metric = |source| CliError::Metric {
            what: what.into(),
            source,
        };
        let renumber = |s: usize| stream_of(rank.get(s / 2).copied().unwrap_or(s / 2), s % 2);
        let new_of: Vec<usize> = (0..self.totals.n_streams()).map(renumber).collect();
        let totals = self.totals.renumbered(&new_of).map_err(metric)?;
        if self.spill.is_some() {
            // Once anything is on disk, everything goes there: the merge then holds only its
            // read buffers, not the last buffers as well.
            self.spill_buffers()?;
            self.buffers = Vec::new();
            let spill = self.spill.as_ref().expect("spilled");
            let item = self.bytes_per_row();
            // Read buffers share half the budget (at least 4 KiB and at most 1 MiB a run).
            let per_run = (self.budget / 2 / spill.runs.len().max(1) as u64).clamp(4096, 1 << 20);
            let rows_per_read = (per_run / item).max(1);
            let runs = spill
                .runs
                .iter()
                .map(|span| {
                    Run::new(
                        renumber(span.stream),
                        RunReader::new(&spill.file, *span, item, rows_per_read, &spill.dir),
                    )
                })
                .collect();
            return sweep_runs(&totals, runs).map_err(metric);
        }
        self.buffers.iter_mut().for_each(Buffer::sort);
        let runs = self
            .buffers
            .iter()
            .enumerate()
            .map(|(s, b)| b.run(renumber(s)))
            .collect();
        sweep_runs(&totals, runs).map_err(metric)
    }
}

/// Reads one spilled run back in chunks with positional reads (one shared file handle for all
/// runs, so the number of runs is not limited by open files).
struct RunReader<'a> {
    file: &'a File,
    dir: &'a PathBuf,
    next_offset: u64,
    rows_left: u64,
    item: u64,
    rows_per_read: u64,
    buf: Vec<u8>,
    pos: usize,
}

impl<'a> RunReader<'a> {
    fn new(file: &'a File, span: RunSpan, item: u64, rows_per_read: u64, dir: &'a PathBuf) -> Self {
        Self {
            file,
            dir,
            next_offset: span.offset,
            rows_left: span.rows,
            item,
            rows_per_read,
            buf: Vec::new(),
            pos: 0,
        }
    }

    fn refill(&mut self) -> Result<(), MetricError> {
        let rows = self.rows_left.min(self.rows_per_read);
        let len = (rows * self.item) as usize;
        self.buf.resize(len, 0);
        read_exact_at(self.file, &mut self.buf, self.next_offset).map_err(|e| {
            MetricError::Decode {
                what: "score runs spilled to a temporary file",
                offset: self.next_offset as usize,
                reason: format!("{} (in {})", e, self.dir.display()),
            }
        })?;
        self.next_offset += len as u64;
        self.rows_left -= rows;
        self.pos = 0;
        Ok(())
    }
}

impl Iterator for RunReader<'_> {
    type Item = Result<(u64, f64), MetricError>;

    fn next(&mut self) -> Option<Self::Item> {
        if self.pos >= self.buf.len() {
            if self.rows_left == 0 {
                return None;
            }
            if let Err(e) = self.refill() {
                self.rows_left = 0;
                self.buf.clear();
                return Some(Err(e));
            }
        }
        let at = self.pos;
        let word = |i: usize| {
            let mut b = [0_u8; 8];
            b.copy_from_slice(&self.buf[i..i + 8]);
            u64::from_le_bytes(b)
        };
        let key = word(at);
        let weight = if self.item == 16 {
            f64::from_bits(word(at + 8))
        } else {
            1.0
        };
        self.pos += self.item as usize;
        Some(Ok((key, weight)))
    }
}

#[cfg(unix)]
fn read_exact_at(file: &File, buf: &mut [u8], offset: u64) -> std::io::Result<()> {
    std::os::unix::fs::FileExt::read_exact_at(file, buf, offset)
}

#[cfg(windows)]
fn read_exact_at(file: &File, mut buf: &mut [u8], mut offset: u64) -> std::io::Result<()> {
    while !buf.is_empty() {
        match std::os::windows::fs::FileExt::seek_read(file, buf, offset)? {
            0 => return Err(std::io::ErrorKind::UnexpectedEof.into()),
            n => {
                buf = &mut buf[n..];
                offset += n as u64;
            }
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn metrics(budget: u64, weighted: bool) -> (Vec<SliceScores>, usize) {
        let dir = std::env::temp_dir();
        let mut store = ScoreStore::new(weighted, budget, dir);
        let n = 5_000;
        let finest: Vec<usize> = (0..n).map(|i| (i * 7) % 3).collect();
        let labels: Vec<usize> = (0..n).map(|i| (i * 13 / 5) % 2).collect();
        let scores: Vec<f64> = (0..n)
            .map(|i| ((i * 31) % 97) as f64 / 50.0 - 0.5)
            .collect();
        let weights: Vec<f64> = (0..n).map(|i| ((i * 17) % 11) as f64 / 3.0).collect();
        for start in (0..n).step_by(400) {
            let end = (start + 400).min(n);
            store
                .add(
                    &finest[start..end],
                    &labels[start..end],
                    &scores[start..end],
                    weighted.then(|| &weights[start..end]),
                )
                .unwrap();
        }
        let runs = store.spilled_runs();
        let maps = [SliceMap {
            names: vec!["a".into(), "b".into(), "c".into()],
            group_of: vec![0, 1, 2],
        }];
        let settings = SweepSettings {
            interval: fair_metrics::partial::PercentileInterval::new(0.1, 0.4).ok(),
            curve_points: 20,
        };
        (store.metrics(&maps, &settings, &[]).unwrap(), runs)
    }

    #[test]
    fn spilled_and_in_memory_metrics_are_bit_identical() {
        for weighted in [false, true] {
            let (whole, runs) = metrics(u64::MAX, weighted);
            assert_eq!(runs, 0);
            for budget in [1, 1000, 20_000] {
                let (spilled, runs) = metrics(budget, weighted);
                assert!(runs > 0, "budget {budget} spilled nothing");
                assert_eq!(spilled, whole, "budget {budget}, weighted {weighted}");
            }
        }
    }
}
