//! `fairkit._core.ll144_files`: `fairkit.ll144(...)` reads CSV and Parquet files with the
//! `fairkit ll144` command's readers and computes its NYC Local Law 144 tables, so the tables
//! from Python are the command's, byte for byte in their CSV form.

use crate::convert::to_py;
use crate::errors::invalid;
use crate::errors::to_py_err;
use crate::spark::counts::counted_rows;
use arrow_array::RecordBatch;
use arrow_array::cast::AsArray;
use arrow_array::types::{Float64Type, Int32Type};
use fair_audit::ingest::{Decoder, FlagStyle, IngestError, LabelPair, Roles, Typing};
use fair_audit::ll144::{Ll144Cell, Ll144Mode, Ll144Report};
use fair_metrics::distribution::{GroupSum, MedianSweep, Piece};
use fair_metrics::score_sweep::score_key;
use fair_metrics::state::ExactSumParts;
use fairkit_cli::cli::Ll144Args;
use fairkit_cli::error::{CliError, InputError};
use fairkit_cli::input::Format;
use pyo3::prelude::*;
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;
use std::path::PathBuf;

/// Adds `ll144_files` and the Spark classes (`Ll144Counted`, `Ll144Rows`) to the top-level
/// `fairkit._core` module.
pub fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_function(wrap_pyfunction!(ll144_files, m)?)?;
    m.add_class::<Ll144Counted>()?;
    m.add_class::<Ll144Rows>()
}

/// The keyword arguments of `fairkit.ll144`, as a dict.
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
struct Settings {
    sex: String,
    race: String,
    selected: Option<String>,
    selected_value: Option<String>,
    score: Option<String>,
    weight: Option<String>,
    unknown_values: Option<Vec<String>>,
    /// `None`: no exclusion.
    exclude_below: Option<f64>,
    data_source: Option<String>,
    audit_date: Option<String>,
    confidence: Option<f64>,
    delimiter: Option<String>,
    input_format: Option<String>,
    memory_budget: Option<String>,
    /// What the tables call the input instead of the files' paths (a table written to a
    /// temporary Parquet file).
    describe_as: Option<String>,
}

/// The tables in every form the command writes.
#[derive(Serialize)]
struct Tables {
    json: String,
    csv: BTreeMap<String, String>,
    markdown: String,
    html: String,
}

/// The LL144 tables of `inputs` (paths: files, folders of parts or patterns) under `settings`
/// (see [`Settings`]); errors name the Python keyword. The GIL is released while reading.
#[pyfunction]
#[pyo3(signature = (inputs, settings))]
fn ll144_files<'py>(
    py: Python<'py>,
    inputs: Vec<PathBuf>,
    settings: &Bound<'py, PyAny>,
) -> PyResult<Bound<'py, PyAny>> {
    if inputs.is_empty() {
        return Err(invalid("data: no file given"));
    }
    let s: Settings = crate::convert::from_kwargs(settings, "fairkit.ll144", |p| format!("{p}="))?;
    let describe_as = s.describe_as.clone();
    let args = args_of(inputs, s)?;
    let mut report = py
        .detach(|| fairkit_cli::ll144::tables(&args, FlagStyle::Python).map_err(|e| e.to_string()))
        .map_err(invalid)?;
    if let Some(name) = describe_as {
        report.input = name;
    }
    rendered(py, &report)
}

/// The command's arguments for the settings of `fairkit.ll144` (or `fairkit.spark.ll144`).
fn args_of(inputs: Vec<PathBuf>, s: Settings) -> PyResult<Ll144Args> {
    let mut args = Ll144Args::with_defaults(inputs, &s.sex, &s.race);
    args.selected = s.selected;
    if let Some(v) = s.selected_value {
        args.selected_value = v;
    }
    args.score = s.score;
    args.weight = s.weight;
    if let Some(u) = s.unknown_values {
        args.unknown_values = u;
    }
    match s.exclude_below {
        Some(t) => args.exclude_below = t,
        None => args.no_exclusion = true,
    }
    args.data_source = s.data_source;
    args.audit_date = s.audit_date;
    if let Some(c) = s.confidence {
        args.confidence = c;
    }
    if let Some(d) = s.delimiter {
        args.delimiter = d;
    }
    args.input_format = match s.input_format.as_deref() {
        None => None,
        Some("csv") => Some(Format::Csv),
        Some("parquet") => Some(Format::Parquet),
        Some(other) => {
            return Err(invalid(format!(
                "invalid input_format '{other}': expected \"csv\" or \"parquet\""
            )));
        }
    };
    args.memory_budget = s.memory_budget;
    args.quiet = true;
    Ok(args)
}

/// The report in every form the command writes, as a dict for `Ll144Result`.
fn rendered<'py>(py: Python<'py>, report: &Ll144Report) -> PyResult<Bound<'py, PyAny>> {
    let json = report
        .to_json()
        .map_err(|e| invalid(format!("the tables do not serialize: {e}")))?;
    let page = report.page();
    let tables = Tables {
        json,
        csv: report
            .tables
            .iter()
            .map(|t| (t.name.clone(), report.table_csv(t)))
            .collect(),
        markdown: page.to_markdown(),
        html: page.to_html(),
    };
    to_py(py, &tables)
}

// -- fairkit.spark.ll144 ---------------------------------------------------------------------

/// The settings dict of `fairkit.spark.ll144`, as the command's arguments, checked by the
/// command's one check ([`fairkit_cli::ll144::check`]): a bad value raises before any job.
fn checked_args(settings: &Bound<'_, PyAny>) -> PyResult<(Ll144Args, fairkit_cli::ll144::Checked)> {
    let s: Settings =
        crate::convert::from_kwargs(settings, "fairkit.spark.ll144", |p| format!("{p}="))?;
    let args = args_of(Vec::new(), s)?;
    let checked = fairkit_cli::ll144::check(&args, FlagStyle::Python).map_err(to_py_err)?;
    Ok((args, checked))
}

/// The selection pair of the rule: the selected value and, with the default `1`, `0`.
fn selection_pair(args: &Ll144Args) -> LabelPair {
    LabelPair::new(
        &args.selected_value,
        (args.selected_value == "1").then_some("0"),
    )
}

/// A decoder error in the words `fairkit.ll144` uses for it (selection values, settings named).
fn renamed(e: IngestError, args: &Ll144Args) -> PyErr {
    to_py_err(fairkit_cli::ll144::rename(
        CliError::Input(InputError::Ingest(e)),
        args,
        FlagStyle::Python,
    ))
}

/// The decoder of the DataFrame's rows (every role), as the command's reader builds it.
fn row_decoder(args: &Ll144Args, origin: &str) -> PyResult<Decoder> {
    let sensitive = [args.sex.as_str(), args.race.as_str()];
    let roles = Roles::unlabeled(
        args.selected.as_deref(),
        args.score.as_deref(),
        &sensitive,
        args.weight.as_deref(),
    );
    Decoder::new(
        roles,
        selection_pair(args),
        origin,
        Typing::Typed,
        FlagStyle::Python,
    )
    .map_err(|e| renamed(e, args))
}

/// The rows of a DataFrame partition checked by the command's decoder (on an executor), for
/// data the Spark SQL count finds irregular: the first bad row raises the message
/// `fairkit.ll144` gives for it, naming the partition, row, column and keyword.
#[pyclass(module = "fairkit._core")]
pub struct Ll144Rows {
    args: Ll144Args,
    decoder: Decoder,
}

#[pymethods]
impl Ll144Rows {
    /// A decoder for the settings of `fairkit.spark.ll144`; `origin` names the rows.
    #[new]
    fn new(settings: &Bound<'_, PyAny>, origin: String) -> PyResult<Self> {
        let (args, _) = checked_args(settings)?;
        let decoder = row_decoder(&args, &origin)?;
        Ok(Self { args, decoder })
    }

    /// Checks that the batch's schema has every column, each typed for its role.
    fn check(&self, batch: &Bound<'_, PyAny>) -> PyResult<()> {
        let rb = crate::arrow_ffi::record_batch(batch)?;
        self.decoder
            .check_schema(&rb.schema())
            .map_err(|e| renamed(e, &self.args))
    }

    /// Decodes one batch; the first bad value raises.
    fn update(&mut self, py: Python<'_>, batch: &Bound<'_, PyAny>) -> PyResult<()> {
        let rb = crate::arrow_ffi::record_batch(batch)?;
        let (decoder, args) = (&mut self.decoder, &self.args);
        // Boxed: the decoder's error is large, and only the rare bad batch pays for the box.
        py.detach(|| decoder.decode(&rb, None).map(|_| ()).map_err(Box::new))
            .map_err(|e| renamed(*e, args))
    }
}

/// One sex × race pair's exact sums.
#[derive(Debug, Clone, Default)]
struct PairSums {
    rows: u64,
    positive_rows: u64,
    weight: ExactSumParts,
    weight_sq: ExactSumParts,
    positive: ExactSumParts,
}

/// The LL144 tables of a Spark DataFrame from Spark SQL aggregates (`fairkit/spark/_ll144.py`):
/// rows grouped by the sex, race (and selected) values as they are, with a `bigint` row count
/// and, weighted, the exact mantissa limb sums of `fairkit.spark.audit`'s count
/// (`_counts.counting_frame`). The aggregate rows go through the command's decoder (types, group
/// names, the selection pair), and the sums are kept exact: the pairs' cells — and for a
/// scoring tool the score *pieces* (distinct scores, or score ranges) with each pair's exact
/// sums — give the command's tables bit for bit, whatever the partitioning.
#[pyclass(module = "fairkit._core")]
pub struct Ll144Counted {
    args: Ll144Args,
    checked: fairkit_cli::ll144::Checked,
    decoder: Decoder,
    pairs: Vec<PairSums>,
    /// Score pieces by descending `score_key` of their lowest score.
    pieces: std::collections::BTreeMap<std::cmp::Reverse<u64>, (Piece, Vec<GroupSum>)>,
}

impl Ll144Counted {
    fn weighted(&self) -> bool {
        self.args.weight.is_some()
    }

    /// Whether an applicant has positive weight (else there is no median).
    fn has_applicants(&self) -> bool {
        let zero = ExactSumParts::new();
        self.pairs.iter().any(|p| {
            p.rows > 0
                && (!self.weighted() || p.weight.total_cmp(&zero) == std::cmp::Ordering::Greater)
        })
    }

    /// The cells' sums as the median sweep's group totals.
    fn group_totals(&self) -> Vec<GroupSum> {
        self.pairs
            .iter()
            .map(|p| GroupSum {
                rows: p.rows,
                weight: p.weight.clone(),
            })
            .collect()
    }

    /// A sweep over the pieces; `Err(range)` for the first range that holds the median.
    fn sweep(&self) -> PyResult<Result<MedianSweep, (f64, f64)>> {
        let mut sweep =
            MedianSweep::new(self.weighted(), &self.group_totals()).map_err(to_py_err)?;
        for (piece, groups) in self.pieces.values() {
            let sparse: Vec<(usize, GroupSum)> = groups
                .iter()
                .enumerate()
                .filter(|(_, g)| g.rows > 0)
                .map(|(i, g)| (i, g.clone()))
                .collect();
            if !sweep.piece(*piece, &sparse).map_err(to_py_err)? {
                let Piece::Range { lo, hi } = *piece else {
                    unreachable!("only a range is refused")
                };
                return Ok(Err((lo, hi)));
            }
        }
        Ok(Ok(sweep))
    }
}

/// The piece of each aggregate row: its score (`cuts` None) or its score range number (range
/// `r` holds `cuts[r] <= s < cuts[r - 1]`, `_counts.range_sql`, within the bounds `lo <= s <
/// hi` of the rows aggregated).
fn pieces_of(
    rb: &RecordBatch,
    column: &str,
    cuts: Option<&[f64]>,
    (lo, hi): (f64, f64),
) -> PyResult<Vec<Piece>> {
    let a = rb
        .column_by_name(column)
        .ok_or_else(|| invalid(format!("aggregate column {column} missing")))?;
    let values: Vec<f64> = if let Some(f) = a.as_primitive_opt::<Float64Type>() {
        f.iter().map(|v| v.unwrap_or(f64::NAN)).collect()
    } else if let Some(i) = a.as_primitive_opt::<Int32Type>() {
        i.iter().map(|v| v.map_or(f64::NAN, f64::from)).collect()
    } else {
        return Err(invalid(format!(
            "aggregate column {column} must be double or int"
        )));
    };
    values
        .into_iter()
        .map(|v| {
            if !v.is_finite() {
                return Err(invalid("a piece without a finite score"));
            }
            Ok(match cuts {
                None => Piece::Score(v + 0.0),
                Some(cuts) => {
                    let r = v as usize;
                    Piece::Range {
                        lo: cuts.get(r).copied().unwrap_or(lo),
                        hi: if r == 0 { hi } else { cuts[r - 1] },
                    }
                }
            })
        })
        .collect()
}

/// The lowest score of a piece (its order among the pieces).
fn piece_key(p: &Piece) -> std::cmp::Reverse<u64> {
    std::cmp::Reverse(score_key(match *p {
        Piece::Score(x) => x,
        Piece::Range { lo, .. } => lo,
    }))
}

#[pymethods]
impl Ll144Counted {
    /// Empty counts for the settings of `fairkit.spark.ll144` (checked here, before any job).
    #[new]
    fn new(settings: &Bound<'_, PyAny>) -> PyResult<Self> {
        let (args, checked) = checked_args(settings)?;
        let sensitive = [args.sex.as_str(), args.race.as_str()];
        let roles = Roles::unlabeled(args.selected.as_deref(), None, &sensitive, None);
        let decoder = Decoder::new(
            roles,
            selection_pair(&args),
            "the DataFrame",
            Typing::Typed,
            FlagStyle::Python,
        )
        .map_err(|e| renamed(e, &args))?;
        Ok(Self {
            args,
            checked,
            decoder,
            pairs: Vec::new(),
            pieces: std::collections::BTreeMap::new(),
        })
    }

    /// Whether the tool scores (else it selects).
    fn scoring(&self) -> bool {
        self.checked.mode == Ll144Mode::Scoring
    }

    /// Adds one batch of aggregate rows: to the pairs' cells when `cells`, and, with a `piece`
    /// column (the score, or with `cuts` the score range number), to the score pieces (`bounds`:
    /// the scores the aggregated rows were restricted to). Returns `None` when added, or why
    /// these rows cannot be counted this way (a bad value somewhere: the row path then names
    /// it); nothing is added then.
    #[pyo3(signature = (batch, cells, piece=None, cuts=None, bounds=(f64::NEG_INFINITY, f64::INFINITY)))]
    fn add(
        &mut self,
        py: Python<'_>,
        batch: &Bound<'_, PyAny>,
        cells: bool,
        piece: Option<String>,
        cuts: Option<Vec<f64>>,
        bounds: (f64, f64),
    ) -> PyResult<Option<String>> {
        let rb = crate::arrow_ffi::record_batch(batch)?;
        let weighted = self.weighted();
        let counted = match counted_rows(&rb, weighted)? {
            Ok(c) => c,
            Err(why) => return Ok(Some(why)),
        };
        let pieces = piece
            .as_deref()
            .map(|c| pieces_of(&rb, c, cuts.as_deref(), bounds))
            .transpose()?;
        let mut decoder = self.decoder.clone();
        let decoded = match py.detach(|| decoder.decode(&rb, None).map_err(Box::new)) {
            Ok(d) => d,
            Err(e) => return Ok(Some(e.to_string())),
        };
        let n_groups = decoder.finest_names().len();
        let mut pairs = self.pairs.clone();
        pairs.resize(n_groups, PairSums::default());
        let mut new_pieces = self.pieces.clone();
        let parts = |s: &fair_metrics::score_sweep::ScaledSum| {
            let mut p = ExactSumParts::new();
            p.add_scaled(s.integer, s.exponent).map_err(to_py_err)?;
            Ok::<_, PyErr>(p)
        };
        for (i, (rows, sums)) in counted.iter().enumerate() {
            let g = decoded.finest[i];
            let selected = decoded.preds.as_ref().is_some_and(|p| p[i] == 1);
            let weight = match sums {
                Some((w, _)) => parts(w)?,
                None => ExactSumParts::new(),
            };
            if cells {
                let c = &mut pairs[g];
                c.rows += rows;
                if let Some((_, sq)) = sums {
                    c.weight.merge(&weight).map_err(to_py_err)?;
                    match sq {
                        Some(sq) => c.weight_sq.merge(&parts(sq)?).map_err(to_py_err)?,
                        None => c.weight_sq.add_infinity(),
                    }
                    if selected {
                        c.positive.merge(&weight).map_err(to_py_err)?;
                    }
                } else if selected {
                    c.positive_rows += rows;
                }
            }
            if let Some(pieces) = &pieces {
                let p = pieces[i];
                let entry = new_pieces
                    .entry(piece_key(&p))
                    .or_insert_with(|| (p, Vec::new()));
                if entry.0 != p {
                    return Err(invalid(format!(
                        "overlapping score pieces {:?} and {p:?}",
                        entry.0
                    )));
                }
                if entry.1.len() < n_groups {
                    entry.1.resize(n_groups, GroupSum::default());
                }
                entry.1[g]
                    .merge(&GroupSum {
                        rows: *rows,
                        weight,
                    })
                    .map_err(to_py_err)?;
            }
        }
        self.decoder = decoder;
        self.pairs = pairs;
        self.pieces = new_pieces;
        Ok(None)
    }

    /// Rows counted in the pairs' cells.
    fn rows(&self) -> u64 {
        self.pairs.iter().map(|p| p.rows).sum()
    }

    /// Number of pairs seen.
    fn pairs(&self) -> usize {
        self.pairs.len()
    }

    /// The score range `(lo, hi)` (scores `lo <= s < hi`) that holds the median and must be
    /// split into finer pieces, or `None` when the pieces give the median.
    fn locate(&self) -> PyResult<Option<(f64, f64)>> {
        if !self.has_applicants() {
            return Ok(None); // no median: the tables say why
        }
        Ok(self.sweep()?.err())
    }

    /// Removes the range piece `[lo, hi)` (its rows come back as finer pieces).
    fn split(&mut self, lo: f64, hi: f64) -> PyResult<()> {
        let key = piece_key(&Piece::Range { lo, hi });
        match self.pieces.get(&key) {
            Some((Piece::Range { lo: l, hi: h }, _))
                if l.to_bits() == lo.to_bits() && h.to_bits() == hi.to_bits() =>
            {
                self.pieces.remove(&key);
                Ok(())
            }
            _ => Err(invalid(format!("no score range [{lo}, {hi}) to split"))),
        }
    }

    /// The tables (as `fairkit.ll144` returns them); `input` names the data.
    fn tables<'py>(&self, py: Python<'py>, input: String) -> PyResult<Bound<'py, PyAny>> {
        let weighted = self.weighted();
        let mut cells: Vec<Ll144Cell> = self
            .pairs
            .iter()
            .zip(self.decoder.finest_parts())
            .map(|(c, p)| {
                let (weight, weight_sq, positive) = if weighted {
                    (c.weight.value(), c.weight_sq.value(), c.positive.value())
                } else {
                    (c.rows as f64, c.rows as f64, c.positive_rows as f64)
                };
                Ll144Cell {
                    sex: p[0].clone(),
                    race: p[1].clone(),
                    rows: c.rows,
                    weight,
                    weight_sq,
                    positive,
                }
            })
            .collect();
        let mut median = None;
        // Without an applicant of positive weight there is no median: the tables say why.
        if self.scoring() && self.has_applicants() {
            let sweep = self.sweep()?.map_err(|(lo, hi)| {
                invalid(format!(
                    "the score range [{lo}, {hi}) holding the median was not split"
                ))
            })?;
            let cut = sweep.finish().map_err(to_py_err)?;
            median = Some(cut.median);
            for (c, (_, above)) in cells.iter_mut().zip(&cut.above) {
                c.positive = *above;
            }
        }
        let report = fairkit_cli::ll144::finish(
            &self.args,
            self.checked.mode,
            self.checked.exclude_below,
            &cells,
            median,
            input,
        )
        .map_err(to_py_err)?;
        rendered(py, &report)
    }
}
