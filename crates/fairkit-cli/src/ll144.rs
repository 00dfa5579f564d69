//! `fairkit ll144`: the NYC Local Law 144 tables of an applicant file. The rows are read by the
//! command's readers and the audit's one decoder (without a label column; a missing sex or race
//! value is the unknown category `""`), folded into one cell per sex × race value pair, and for a
//! scoring tool the scores go to the audit's score store (sorted runs, spilled to disk above the
//! memory budget) whose exact sweep gives the sample's median and each pair's count strictly
//! above it. `fair_audit::ll144` computes the tables; this module writes them.

use crate::audit::flags::{default_budget, parse_size};
use crate::audit::score_store::ScoreStore;
use crate::cli::{Ll144Args, Ll144Format};
use crate::error::{CliError, InputError};
use crate::input::{ColumnSpec, ReadOptions, Reader};
use fair_audit::ingest::{FlagStyle, IngestError, Roles};
use fair_audit::ll144::{
    Ll144Cell, Ll144Columns, Ll144Mode, Ll144Report, Ll144Settings, check_audit_date,
    check_exclude_below, ll144_tables,
};
use fair_metrics::distribution::GroupSum;
use fair_metrics::state::ExactSumParts;
use std::path::Path;

/// The file each table's CSV is written to, by table name.
pub fn csv_file(table: &str) -> String {
    format!("ll144_{table}.csv")
}

/// Computes the tables and writes the formats asked for.
///
/// # Errors
/// [`CliError`] for bad flags or input, or an unwritable output directory.
pub fn run(args: &Ll144Args) -> Result<(), CliError> {
    let report = tables(args, FlagStyle::Command)?;
    write_all(&report, &args.out, &args.format)?;
    if !args.quiet {
        let (_, rate) = report.mode.names();
        eprintln!(
            "fairkit ll144: {} applicants ({} rows) of {}; {} tables written to {}",
            report.applicants,
            report.rows,
            report.input,
            rate.replace('_', " "),
            args.out.display()
        );
        eprintln!("  • {}", report.exclusion_disclosure);
    }
    Ok(())
}

/// How a setting is spelt for the caller's users.
fn flag(style: FlagStyle, setting: &'static str) -> &'static str {
    match (style, setting) {
        (FlagStyle::Command, "sex") => "--sex",
        (FlagStyle::Command, "race") => "--race",
        (FlagStyle::Command, "selected") => "--selected",
        (FlagStyle::Command, "selected_value") => "--selected-value",
        (FlagStyle::Command, "score") => "--score",
        (FlagStyle::Command, "weight") => "--weight",
        (FlagStyle::Command, "exclude_below") => "--exclude-below",
        (FlagStyle::Command, "audit_date") => "--audit-date",
        (FlagStyle::Command, "confidence") => "--confidence",
        (FlagStyle::Command, "batch_rows") => "--batch-rows",
        (FlagStyle::Command, "delimiter") => "--delimiter",
        (FlagStyle::Python, "sex") => "sex=",
        (FlagStyle::Python, "race") => "race=",
        (FlagStyle::Python, "selected") => "selected=",
        (FlagStyle::Python, "selected_value") => "selected_value=",
        (FlagStyle::Python, "score") => "score=",
        (FlagStyle::Python, "weight") => "weight=",
        (FlagStyle::Python, "exclude_below") => "exclude_below=",
        (FlagStyle::Python, "audit_date") => "audit_date=",
        (FlagStyle::Python, "confidence") => "confidence=",
        (FlagStyle::Python, "batch_rows") => "batch_rows=",
        (FlagStyle::Python, "delimiter") => "delimiter=",
        (_, other) => other,
    }
}

/// The settings of `args` checked before any row is read (every front end calls this: the
/// command, `fairkit.ll144` and `fairkit.spark.ll144`), named as the caller's users write them.
///
/// # Errors
/// [`CliError::InvalidFlag`] for a bad setting, naming it.
pub fn check(args: &Ll144Args, style: FlagStyle) -> Result<Checked, CliError> {
    let invalid = |setting: &'static str, value: String, expected: String| CliError::InvalidFlag {
        flag: flag(style, setting),
        value,
        expected,
    };
    let exclude_below = if args.no_exclusion {
        None
    } else {
        check_exclude_below(args.exclude_below).map_err(|_| {
            invalid(
                "exclude_below",
                args.exclude_below.to_string(),
                "a share in [0, 0.5), e.g. 0.02 (the rule's 2 %); turn the exclusion off with --no-exclusion".into(),
            )
        })?;
        Some(args.exclude_below)
    };
    if let Some(d) = &args.audit_date {
        check_audit_date(d).map_err(|_| {
            invalid(
                "audit_date",
                d.clone(),
                "a calendar date written YYYY-MM-DD, e.g. 2026-03-31".into(),
            )
        })?;
    }
    if args.confidence.is_nan() || args.confidence <= 0.0 || args.confidence >= 1.0 {
        return Err(invalid(
            "confidence",
            args.confidence.to_string(),
            "a level in (0, 1), e.g. 0.95".into(),
        ));
    }
    if args.batch_rows == 0 {
        return Err(invalid("batch_rows", "0".into(), "at least 1".into()));
    }
    let delimiter = match args.delimiter.as_str() {
        "\\t" | "\t" | "tab" => b'\t',
        d if d.len() == 1 => d.as_bytes()[0],
        d => {
            return Err(invalid(
                "delimiter",
                d.into(),
                "one ASCII character, or \\t for tab".into(),
            ));
        }
    };
    let (mode, selected, score) = match (&args.selected, &args.score) {
        (Some(s), None) => (Ll144Mode::Selection, Some(s.as_str()), None::<&str>),
        (None, Some(s)) => (Ll144Mode::Scoring, None, Some(s.as_str())),
        _ => {
            return Err(invalid(
                "selected",
                format!("{:?} / {:?}", args.selected, args.score),
                format!(
                    "exactly one of {} (a tool that selects) and {} (a tool that scores)",
                    flag(style, "selected"),
                    flag(style, "score")
                ),
            ));
        }
    };
    // One column in two roles is refused here, naming this command's settings.
    let named: Vec<(&str, &'static str)> = [
        (Some(args.sex.as_str()), "sex"),
        (Some(args.race.as_str()), "race"),
        (selected, "selected"),
        (score, "score"),
        (args.weight.as_deref(), "weight"),
    ]
    .into_iter()
    .filter_map(|(c, s)| c.map(|c| (c, s)))
    .collect();
    for (i, (a, sa)) in named.iter().enumerate() {
        if let Some((_, sb)) = named[i + 1..].iter().find(|(b, _)| b == a) {
            return Err(invalid(
                sb,
                a.to_string(),
                format!(
                    "a column not already given to {}: one column cannot play two roles",
                    flag(style, sa)
                ),
            ));
        }
    }
    Ok(Checked {
        mode,
        exclude_below,
        delimiter,
    })
}

/// The tables of the input of `args`, without writing them: what [`run`] writes and what
/// Python's `fairkit.ll144` returns. `style` names options as the caller's users write them.
///
/// # Errors
/// [`CliError::InvalidFlag`] for a bad setting, [`CliError::Input`] naming the file, row and
/// column of a bad cell, [`CliError::SelectedValue`] for a selection value outside the pair,
/// [`CliError::Ll144`] when there are no applicants.
pub fn tables(args: &Ll144Args, style: FlagStyle) -> Result<Ll144Report, CliError> {
    let Checked {
        mode,
        exclude_below,
        delimiter,
    } = check(args, style)?;
    let (selected, score) = (args.selected.as_deref(), args.score.as_deref());
    let spec: ColumnSpec = Roles::unlabeled(
        selected,
        score,
        &[&args.sex, &args.race],
        args.weight.as_deref(),
    );
    let options = ReadOptions {
        format: args.input_format,
        delimiter,
        batch_rows: args.batch_rows,
        pos_label: args.selected_value.clone(),
        // The rule's selection is 0/1: with the default selected value the other must be 0.
        neg_label: (args.selected_value == "1").then(|| "0".to_string()),
        timezone: None,
        style,
        unknowns: None,
    };
    let budget = match &args.memory_budget {
        Some(s) => parse_size(s)?,
        None => default_budget(),
    };
    let renamed = |e: CliError| rename(e, args, style);
    let mut reader =
        Reader::open_all(&args.input, &spec, &options).map_err(|e| renamed(CliError::Input(e)))?;
    // Exact sums per sex × race pair (rounded once at the end): the cells do not depend on the
    // order of the rows, so Spark's partitions give the same bits (docs/ll144.md).
    let mut cells: Vec<Sums> = Vec::new();
    let mut store = score.map(|_| {
        ScoreStore::new(
            args.weight.is_some(),
            budget,
            args.spill_dir.clone().unwrap_or_else(std::env::temp_dir),
        )
    });
    let mut zeros: Vec<usize> = Vec::new();
    let exact = |e: fair_metrics::MetricError| CliError::Metric {
        what: "the applicants' weight sums".into(),
        source: e,
    };
    while let Some(batch) = reader
        .next_batch()
        .map_err(|e| renamed(CliError::Input(e)))?
    {
        let weights = batch.weights.as_deref();
        for (i, &g) in batch.finest.iter().enumerate() {
            if cells.len() <= g {
                cells.resize(g + 1, Sums::default());
            }
            let c = &mut cells[g];
            c.rows += 1;
            if let Some(w) = weights {
                let w = w[i];
                c.weight.add(w).map_err(exact)?;
                c.weight_sq.add(w * w).map_err(exact)?;
                if batch.preds.as_ref().is_some_and(|p| p[i] == 1) {
                    c.positive.add(w).map_err(exact)?;
                }
            } else if batch.preds.as_ref().is_some_and(|p| p[i] == 1) {
                c.positive_rows += 1;
            }
        }
        if let (Some(store), Some(scores)) = (store.as_mut(), batch.scores.as_deref()) {
            // The store keeps streams per (group, label); LL144 has no label: all in label 0.
            zeros.resize(batch.len(), 0);
            store.add(&batch.finest, &zeros, scores, weights)?;
        }
    }
    let decoder = reader.decoder();
    let parts = decoder.finest_parts();
    let weighted = args.weight.is_some();
    let sums = cells;
    let mut cells: Vec<Ll144Cell> = sums
        .iter()
        .zip(parts)
        .map(|(c, p)| c.cell(&p[0], &p[1], weighted))
        .collect();
    let mut median_score = None;
    // Without an applicant of positive weight there is no median: the tables say why.
    if let Some(store) = store.filter(|_| cells.iter().any(|c| c.weight > 0.0)) {
        // Each sex × race pair on its own: its count above the pooled median sums exactly into
        // the sex and race tables.
        let groups: Vec<GroupSum> = sums
            .iter()
            .map(|c| GroupSum {
                rows: c.rows,
                weight: c.weight.clone(),
            })
            .collect();
        let cut = store.median_cut(&groups)?;
        median_score = Some(cut.median);
        for (c, (_, above)) in cells.iter_mut().zip(&cut.above) {
            c.positive = *above;
        }
    }
    finish(
        args,
        mode,
        exclude_below,
        &cells,
        median_score,
        reader.name().display().to_string(),
    )
}

/// What [`check`] makes of the settings.
#[derive(Debug, Clone, Copy)]
pub struct Checked {
    /// Selection or scoring.
    pub mode: Ll144Mode,
    /// The exclusion threshold (`None`: off).
    pub exclude_below: Option<f64>,
    /// The CSV delimiter.
    pub delimiter: u8,
}

/// The tables of counted cells (one per sex × race pair, their sums rounded once) and, for a
/// scoring tool, the sample's median score (each cell's `positive` its count above it), under
/// the settings of `args` (checked by [`check`]); `input` names the data.
///
/// # Errors
/// [`CliError::Ll144`] when there are no applicants or a cell is inconsistent.
pub fn finish(
    args: &Ll144Args,
    mode: Ll144Mode,
    exclude_below: Option<f64>,
    cells: &[Ll144Cell],
    median_score: Option<f64>,
    input: String,
) -> Result<Ll144Report, CliError> {
    let settings = Ll144Settings {
        mode,
        unknown_values: args.unknown_values.clone(),
        exclude_below,
        confidence: args.confidence,
        weighted: args.weight.is_some(),
        median_score,
        columns: Ll144Columns {
            sex: args.sex.clone(),
            race: args.race.clone(),
            selected: args.selected.clone(),
            score: args.score.clone(),
            weight: args.weight.clone(),
        },
        input,
        data_source: args.data_source.clone(),
        audit_date: args.audit_date.clone(),
    };
    Ok(ll144_tables(cells, &settings)?)
}

/// One sex × race pair's running sums, exact.
#[derive(Debug, Clone, Default)]
struct Sums {
    rows: u64,
    /// Selected rows (unweighted).
    positive_rows: u64,
    weight: ExactSumParts,
    weight_sq: ExactSumParts,
    positive: ExactSumParts,
}

impl Sums {
    /// The pair's cell: every sum rounded once (the rows themselves when unweighted).
    fn cell(&self, sex: &str, race: &str, weighted: bool) -> Ll144Cell {
        let (weight, weight_sq, positive) = if weighted {
            (
                self.weight.value(),
                self.weight_sq.value(),
                self.positive.value(),
            )
        } else {
            let n = self.rows as f64;
            (n, n, self.positive_rows as f64)
        };
        Ll144Cell {
            sex: sex.to_string(),
            race: race.to_string(),
            rows: self.rows,
            weight,
            weight_sq,
            positive,
        }
    }
}

/// The decoder's messages in this command's settings: it knows the selection column as a
/// prediction and the sex and race columns as sensitive columns (every front end's decoder
/// errors go through it).
pub fn rename(e: CliError, args: &Ll144Args, style: FlagStyle) -> CliError {
    let CliError::Input(InputError::Ingest(ingest)) = e else {
        return e;
    };
    let of_column = |column: &str| -> Option<&'static str> {
        if column == args.sex {
            Some(flag(style, "sex"))
        } else if column == args.race {
            Some(flag(style, "race"))
        } else if args.selected.as_deref() == Some(column) {
            Some(flag(style, "selected"))
        } else {
            None
        }
    };
    match ingest {
        IngestError::LabelOutsidePair {
            origin,
            at,
            column,
            value,
            positive,
            negative,
            ..
        } => CliError::SelectedValue {
            origin,
            at,
            column,
            value,
            selected: positive,
            other: negative,
            flag: flag(style, "selected"),
            value_flag: flag(style, "selected_value"),
        },
        IngestError::MissingColumn {
            origin,
            column,
            flag: old,
            available,
            hint,
        } => IngestError::MissingColumn {
            flag: of_column(&column).map_or(old, str::to_string),
            origin,
            column,
            available,
            hint,
        }
        .into_cli(),
        other => other.into_cli(),
    }
}

trait IntoCli {
    fn into_cli(self) -> CliError;
}

impl IntoCli for IngestError {
    fn into_cli(self) -> CliError {
        CliError::Input(InputError::Ingest(self))
    }
}

/// Writes the formats asked for into `out` (created if missing): one CSV per table, ll144.md,
/// ll144.html, ll144.json.
///
/// # Errors
/// [`CliError::Write`].
pub fn write_all(r: &Ll144Report, out: &Path, formats: &[Ll144Format]) -> Result<(), CliError> {
    let write = |path: &Path, text: &str| {
        std::fs::write(path, text).map_err(|source| CliError::Write {
            path: path.to_path_buf(),
            source,
        })
    };
    std::fs::create_dir_all(out).map_err(|source| CliError::Write {
        path: out.to_path_buf(),
        source,
    })?;
    let page = r.page();
    for f in formats {
        match f {
            Ll144Format::Csv => {
                for t in &r.tables {
                    write(&out.join(csv_file(&t.name)), &r.table_csv(t))?;
                }
            }
            Ll144Format::Md => write(&out.join("ll144.md"), &page.to_markdown())?,
            Ll144Format::Html => write(&out.join("ll144.html"), &page.to_html())?,
            Ll144Format::Json => {
                let json = r.to_json().map_err(|e| CliError::InvalidFlag {
                    flag: "--format",
                    value: "json".into(),
                    expected: format!("a report that serializes ({e})"),
                })?;
                write(&out.join("ll144.json"), &json)?;
            }
        }
    }
    Ok(())
}
