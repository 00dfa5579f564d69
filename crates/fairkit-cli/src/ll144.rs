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
use fair_metrics::distribution::DistributionSettings;
use fair_metrics::score_sweep::SliceMap;
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

/// The tables of the input of `args`, without writing them: what [`run`] writes and what
/// Python's `fairkit.ll144` returns. `style` names options as the caller's users write them.
///
/// # Errors
/// [`CliError::InvalidFlag`] for a bad setting, [`CliError::Input`] naming the file, row and
/// column of a bad cell, [`CliError::SelectedValue`] for a selection value outside the pair,
/// [`CliError::Ll144`] when there are no applicants.
pub fn tables(args: &Ll144Args, style: FlagStyle) -> Result<Ll144Report, CliError> {
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
        (Some(s), None) => (Ll144Mode::Selection, Some(s.as_str()), None),
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
    let mut cells: Vec<Sums> = Vec::new();
    let mut store = score.map(|_| {
        ScoreStore::new(
            args.weight.is_some(),
            budget,
            args.spill_dir.clone().unwrap_or_else(std::env::temp_dir),
        )
    });
    let mut zeros: Vec<usize> = Vec::new();
    while let Some(batch) = reader
        .next_batch()
        .map_err(|e| renamed(CliError::Input(e)))?
    {
        let weights = batch.weights.as_deref();
        for (i, &g) in batch.finest.iter().enumerate() {
            if cells.len() <= g {
                cells.resize(g + 1, Sums::default());
            }
            let w = weights.map_or(1.0, |w| w[i]);
            let c = &mut cells[g];
            c.rows += 1;
            c.weight += w;
            c.weight_sq += w * w;
            if let Some(p) = &batch.preds {
                c.positive += w * p[i] as f64;
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
    let mut median_score = None;
    if let Some(store) = store {
        // One slice: every finest group (sex × race pair) on its own; its count above the
        // pooled median sums exactly into the sex and race tables.
        let map = SliceMap {
            names: decoder.finest_names().to_vec(),
            group_of: (0..parts.len()).collect(),
        };
        let settings = DistributionSettings {
            quantile: 0.5,
            curve_points: 0,
        };
        let d = store
            .distributions(&[map], &settings, &[])?
            .pop()
            .expect("one slice in, one out");
        median_score = Some(d.quantiles.pooled_median);
        for (c, above) in cells.iter_mut().zip(&d.quantiles.above_median) {
            c.positive = *above;
        }
    }
    let cells: Vec<Ll144Cell> = cells
        .iter()
        .zip(parts)
        .map(|(c, p)| Ll144Cell {
            sex: p[0].clone(),
            race: p[1].clone(),
            rows: c.rows,
            weight: c.weight,
            weight_sq: c.weight_sq,
            positive: c.positive,
        })
        .collect();
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
            selected: selected.map(str::to_string),
            score: score.map(str::to_string),
            weight: args.weight.clone(),
        },
        input: reader.name().display().to_string(),
        data_source: args.data_source.clone(),
        audit_date: args.audit_date.clone(),
    };
    Ok(ll144_tables(&cells, &settings)?)
}

/// One sex × race pair's running sums.
#[derive(Debug, Clone, Copy, Default)]
struct Sums {
    rows: u64,
    weight: f64,
    weight_sq: f64,
    positive: f64,
}

/// The decoder's messages in this command's settings: it knows the selection column as a
/// prediction and the sex and race columns as sensitive columns.
fn rename(e: CliError, args: &Ll144Args, style: FlagStyle) -> CliError {
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
