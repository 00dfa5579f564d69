//! `fairkit audit`: read the file batch by batch into mergeable states, compute every rate, gap
//! and score metric with its uncertainty, write the reports, and apply `--fail-if`.

mod accumulate;
mod charts;
pub mod compute;
pub mod flags;
pub mod model;
mod score_store;
mod summary;

use crate::cli::{AuditArgs, CiMethod};
use crate::error::CliError;
use crate::fail_if::FailIf;
use crate::input::{ColumnSpec, Progress, ReadOptions, Reader};
use crate::progress::Bar;
use accumulate::Accumulator;
use compute::Stats;
use fair_metrics::ci::RateCiMethod;
use fair_metrics::score_sweep::SweepSettings;
use model::{
    AuditReport, Columns, FailIfOutcome, InputInfo, ScoreSlice, Settings, ThresholdAudit, Tool,
};

/// The fairness verdict of a run.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Verdict {
    /// No --fail-if held.
    Pass,
    /// A --fail-if expression held.
    Fail,
}

/// Score data kept for the charts (downsampled curves), beside the JSON model.
pub use summary::ChartData;

/// Runs an audit end to end.
///
/// # Errors
/// [`CliError`] for bad flags, bad input, or an unwritable output directory.
pub fn run(args: &AuditArgs) -> Result<Verdict, CliError> {
    let flags = flags::Checked::from_args(args)?;
    let known: Vec<&str> = compute::GAPS
        .iter()
        .map(|g| g.0)
        .chain(compute::SCORE_KEYS)
        .collect();
    let gates = args
        .fail_if
        .iter()
        .map(|e| FailIf::parse(e, &known))
        .collect::<Result<Vec<_>, _>>()?;

    let spec = ColumnSpec {
        label: args.label.clone(),
        pred: args.pred.clone(),
        score: args.score.clone(),
        sensitive: args.sensitive.clone(),
        weight: args.weight.clone(),
    };
    let options = ReadOptions {
        format: args.input_format,
        delimiter: flags.delimiter,
        batch_rows: args.batch_rows,
        pos_label: args.pos_label.clone(),
        neg_label: args.neg_label.clone(),
    };
    let (mut acc, reader) = read_all(args, &spec, &options, &flags)?;
    reader.decoders().check_declared(&flags.declared_groups)?;
    let (report, charts) = build_report(args, &flags, &mut acc, &reader, &gates)?;
    crate::report::write_all(&report, &charts, &args.out, &args.format)?;
    if !args.quiet {
        summary::print_to_stderr(&report, &args.out);
    }
    Ok(if report.fail_if.iter().any(|f| f.failed) {
        Verdict::Fail
    } else {
        Verdict::Pass
    })
}

fn read_all(
    args: &AuditArgs,
    spec: &ColumnSpec,
    options: &ReadOptions,
    flags: &flags::Checked,
) -> Result<(Accumulator, Reader), CliError> {
    let mut reader = Reader::open(&args.input, spec, options)?;
    let (total, unit) = match reader.progress() {
        Progress::Bytes { total, .. } => (total, "bytes"),
        Progress::Rows { total, .. } => (total, "rows"),
    };
    let bar = Bar::new(total, unit, args.quiet);
    let scores = args.score.as_ref().map(|_| accumulate::ScoreSettings {
        weighted: args.weight.is_some(),
        budget: flags.memory_budget,
        spill_dir: args.spill_dir.clone().unwrap_or_else(std::env::temp_dir),
    });
    let mut acc = Accumulator::new(&args.sensitive, &args.threshold, scores);
    while let Some(batch) = reader.next_batch()? {
        acc.add(&batch, &reader.decoders().groups)?;
        match reader.progress() {
            Progress::Bytes { done, .. } | Progress::Rows { done, .. } => bar.set(done),
        }
    }
    bar.finish();
    Ok((acc, reader))
}

fn build_report(
    args: &AuditArgs,
    flags: &flags::Checked,
    acc: &mut Accumulator,
    reader: &Reader,
    gates: &[FailIf],
) -> Result<(AuditReport, ChartData), CliError> {
    let stats = Stats {
        confidence: args.confidence,
        method: match args.ci_method {
            CiMethod::Wilson => RateCiMethod::Wilson,
            CiMethod::ClopperPearson => RateCiMethod::ClopperPearson,
        },
        resamples: args.resamples,
        seed: args.seed,
    };
    let mut audits = Vec::new();
    for (source, states) in acc.confusion.iter().enumerate() {
        let slices = acc
            .slices
            .iter()
            .zip(states)
            .map(|(slice, state)| compute::confusion_slice(slice, &args.sensitive, state, &stats))
            .collect::<Result<Vec<_>, _>>()?;
        audits.push(ThresholdAudit {
            threshold: args.threshold.get(source).copied(),
            slices,
        });
    }
    let mut charts = ChartData::default();
    let score_metrics = match acc.scores.take() {
        None => None,
        Some(store) => {
            let maps: Vec<_> = acc
                .slices
                .iter()
                .map(|slice| compute::slice_map(slice, &acc.finest_parts))
                .collect();
            let settings = SweepSettings {
                interval: flags.interval,
                curve_points: fair_report::MAX_CURVE_POINTS / 2,
            };
            let results = store.metrics(&maps, &settings)?;
            let mut out: Vec<ScoreSlice> = Vec::new();
            for (slice, m) in acc.slices.iter().zip(&results) {
                charts.add_slice(&slice.name, m);
                out.push(compute::score_slice(slice, m, &stats, flags.interval));
            }
            Some(out)
        }
    };
    let decoders = reader.decoders();
    let mut report = AuditReport {
        schema: model::SCHEMA_NAME,
        schema_version: model::SCHEMA_VERSION,
        tool: Tool {
            name: "fairkit",
            version: env!("CARGO_PKG_VERSION"),
        },
        input: InputInfo {
            file: args.input.display().to_string(),
            format: reader.format(),
            rows: reader.rows(),
            columns: Columns {
                label: args.label.clone(),
                prediction: args.pred.clone(),
                score: args.score.clone(),
                sensitive: args.sensitive.clone(),
                weight: args.weight.clone(),
            },
            positive_label: decoders.labels.positive().to_string(),
            negative_label: decoders.labels.negative().map(str::to_string),
        },
        settings: Settings {
            confidence: args.confidence,
            rate_ci_method: match args.ci_method {
                CiMethod::Wilson => "wilson",
                CiMethod::ClopperPearson => "clopper-pearson",
            },
            gap_method: "stratified bootstrap percentile interval (each group's confusion cells redrawn from its multinomial) and one-sided permutation p-value (multivariate hypergeometric tables with the margins fixed), both from counts; equalized odds permutes within positives and within negatives; weighted data uses Kish effective counts (approximate)",
            score_inference_method: compute::SCORE_INFERENCE_METHOD,
            resamples: args.resamples,
            seed: args.seed,
            thresholds: args.threshold.clone(),
            interval: flags.interval.map(|iv| [iv.alpha(), iv.beta()]),
            weighted: args.weight.is_some(),
        },
        headline: Default::default(),
        audits,
        score_metrics,
        summary: Vec::new(),
        fail_if: Vec::new(),
    };
    report.headline = summary::headline(&report);
    report.summary = summary::sentences(&report);
    let values = summary::headline_values(&report);
    for gate in gates {
        let (failed, comparisons) = gate.evaluate(&values)?;
        report.fail_if.push(FailIfOutcome {
            expression: gate.text.clone(),
            failed,
            comparisons: comparisons
                .into_iter()
                .map(|c| model::ComparisonOutcome {
                    comparison: c.comparison,
                    actual: c.actual,
                    holds: c.holds,
                })
                .collect(),
        });
    }
    Ok((report, charts))
}
