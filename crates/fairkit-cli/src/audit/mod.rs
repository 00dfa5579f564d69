//! `fairkit audit`: read the file batch by batch into mergeable states, compute every rate, gap
//! and score metric with its uncertainty, write the reports, and apply `--fail-if`.

mod accumulate;
pub mod flags;
mod score_store;

use crate::cli::{AuditArgs, BaselineArg, CiMethod, WindowArg};
use crate::error::CliError;
use crate::fail_if::FailIf;
use crate::input::{ColumnSpec, Progress, ReadOptions, Reader};
use crate::progress::Bar;
use accumulate::Accumulator;
use fair_audit::compare::Side;
use fair_audit::guard::{DEFAULT_MAX_GROUPS, GroupLimits, check_groups};
use fair_audit::ingest::FlagStyle;
use fair_audit::model::{AuditReport, Columns, InputInfo};
use fair_audit::over_time::{self, Baseline, OverTimeSpec, Window};
use fair_audit::{ChartData, ReportSpec, Stats, compute};
use fair_metrics::ci::RateCiMethod;
use fair_metrics::score_sweep::SweepSettings;

/// From this many finest groups on, the command says (before the long stage) that the
/// resampling will take a while.
const MANY_GROUPS: usize = 2_000;

/// The fairness verdict of a run.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Verdict {
    /// No --fail-if held.
    Pass,
    /// A --fail-if expression held.
    Fail,
}

/// Runs an audit end to end.
///
/// # Errors
/// [`CliError`] for bad flags, bad input, or an unwritable output directory.
pub fn run(args: &AuditArgs) -> Result<Verdict, CliError> {
    let flags = flags::Checked::from_args(args)?;
    let gates = crate::fail_if::parse_all(&args.fail_if)?;
    if let (None, Some(g)) = (&args.against, gates.iter().find(|g| g.uses_changes())) {
        return Err(CliError::InvalidFlag {
            flag: "--fail-if",
            value: g.text.clone(),
            expected: "change(…) and p(…) need a comparison: add --against COLUMN (a second model's predictions), or compare two audits with `fairkit compare BEFORE AFTER --fail-if …`".into(),
        });
    }

    // With --by (the window) or --against (the second model's prediction) that column leads
    // the finest groups (fair_audit::over_time, fair_audit::compare::compare_paired).
    let mut sensitive = args.sensitive.clone();
    if let Some(lead) = args.by.as_ref().or(args.against.as_ref()) {
        sensitive.insert(0, lead.clone());
    }
    let spec = ColumnSpec {
        label: args.label.clone(),
        pred: args.pred.clone(),
        score: args.score.clone(),
        sensitive,
        weight: args.weight.clone(),
    };
    let options = ReadOptions {
        format: args.input_format,
        delimiter: flags.delimiter,
        batch_rows: args.batch_rows,
        pos_label: args.pos_label.clone(),
        neg_label: args.neg_label.clone(),
        timezone: flags.timezone,
    };
    crate::state_dir::check_flags(args)?;
    // The saved state is checked before the (possibly long) read: a state of other columns, or
    // an input appended before, fails at once.
    let saved = match &args.state_dir {
        None => None,
        Some(dir) => {
            let build = crate::state_dir::Build::of(args);
            let inputs = crate::state_dir::inputs_of(args)?;
            let saved = crate::state_dir::load(dir, &build, &inputs)?;
            Some((dir, build, inputs, saved))
        }
    };
    let (mut acc, reader) = read_all(args, &spec, &options, &flags)?;
    crate::input::check_declared(reader.name(), reader.decoder(), &flags.declared_groups)?;
    let mut origin = Origin {
        file: reader.name().display().to_string(),
        rows: reader.rows(),
    };
    let to_save = match saved {
        None => None,
        Some((dir, build, inputs, saved)) => {
            let (merged, mut runs) = crate::state_dir::merge(saved, &acc.state)?;
            if !runs.is_empty() {
                let earlier: u64 = runs.iter().map(|r| r.rows).sum();
                origin.file = format!(
                    "{} + {} earlier run(s) of {} ({} rows)",
                    origin.file,
                    runs.len(),
                    dir.display(),
                    earlier
                );
                origin.rows += earlier;
            }
            runs.push(crate::state_dir::Run {
                inputs,
                rows: reader.rows(),
            });
            acc.state = merged;
            Some((dir, crate::state_dir::manifest(build, runs)))
        }
    };
    let groups = acc.state.finest_names().len();
    // Not when the group guard is about to refuse the column (no --max-groups, past the limit).
    let guarded = args.max_groups.is_none() && groups > DEFAULT_MAX_GROUPS;
    if groups >= MANY_GROUPS && !args.quiet && !guarded {
        eprintln!(
            "fairkit audit: {groups} groups: every gap's bootstrap interval and permutation test redraw each group {} times, which takes a while at this size (--resamples lowers it)",
            args.resamples
        );
    }
    let stage = crate::progress::Stage::start(
        &format!(
            "intervals and tests of {groups} groups × {} resamples",
            args.resamples
        ),
        args.quiet,
    );
    let (report, charts) = build_report(args, &flags, &mut acc, &reader, &origin, &gates)?;
    drop(stage);
    if let Some((dir, manifest)) = to_save {
        crate::state_dir::save(dir, &acc.state, &manifest)?;
    }
    crate::report::write_all(&report, &charts, &args.out, &args.format)?;
    if !args.quiet {
        crate::report::print_to_stderr(&report, &args.out);
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
    let mut reader = Reader::open_all(&args.input, spec, options)?;
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
    let lead = args.by.is_some() || args.against.is_some();
    let mut acc = Accumulator::new(&args.pos_label, &args.threshold, scores, lead);
    while let Some(batch) = reader.next_batch()? {
        acc.add(&batch, reader.decoder())?;
        match reader.progress() {
            Progress::Bytes { done, .. } | Progress::Rows { done, .. } => bar.set(done),
        }
    }
    bar.finish();
    Ok((acc, reader))
}

/// What the report says was audited: the input (and the runs of a saved state before it) and
/// the rows of all of them.
struct Origin {
    file: String,
    rows: u64,
}

fn build_report(
    args: &AuditArgs,
    flags: &flags::Checked,
    acc: &mut Accumulator,
    reader: &Reader,
    origin: &Origin,
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
        min_group_size: args.min_group_size,
    };
    let decoder = reader.decoder();
    let over_time = match &args.by {
        None => None,
        Some(column) => {
            let spec = OverTimeSpec {
                column: column.clone(),
                window: match args.window {
                    WindowArg::Value => Window::Value,
                    WindowArg::Day => Window::Day,
                    WindowArg::Week => Window::Week,
                    WindowArg::Month => Window::Month,
                },
                baseline: match args.baseline {
                    BaselineArg::First => Baseline::First,
                    BaselineArg::Previous => Baseline::Previous,
                },
                timezone: flags.timezone,
            };
            Some((over_time::bucket(&acc.state, &spec)?, spec))
        }
    };
    // The audit of all rows: the leading column dropped (exactly the audit without it).
    let all_rows = if args.by.is_some() || args.against.is_some() {
        over_time::without_window(&acc.state)
    } else {
        acc.state.clone()
    };
    let (slices, confusion) = all_rows.slice_states(&args.sensitive)?;
    // Before the score sweep and the resampling, which grow with the groups.
    let limits = GroupLimits {
        max_groups: args.max_groups.unwrap_or(DEFAULT_MAX_GROUPS),
        max_groups_given: args.max_groups.is_some(),
        allow_single_group: args.allow_single_group,
    };
    if let Some(first) = confusion.first() {
        check_groups(&slices, first, &limits, FlagStyle::Command)?;
    }
    let over_time = match over_time {
        None => None,
        Some((bucketed, spec)) => {
            let windows: std::collections::BTreeSet<String> = bucketed
                .finest_names()
                .iter()
                .map(|n| {
                    n.split(fair_audit::ingest::GROUP_SEPARATOR)
                        .next()
                        .unwrap_or("")
                        .to_string()
                })
                .collect();
            if windows.len() > limits.max_groups {
                return Err(CliError::Groups(format!(
                    "--by {:?} gives {} windows, more than the limit of {}: use --window day, week or month, or pass --max-groups {}",
                    spec.column,
                    windows.len(),
                    limits.max_groups,
                    windows.len()
                )));
            }
            Some(over_time::over_time(
                &bucketed,
                &args.sensitive,
                &spec,
                &stats,
            )?)
        }
    };
    let scores = match acc.scores.take() {
        None => None,
        Some(store) => {
            // The score rows' groups are the sensitive columns' (without a --by / --against
            // value), numbered in sorted-name order, as every other front end numbers them.
            let parts = acc.score_groups.parts(decoder);
            let names: Vec<String> = parts
                .iter()
                .map(|p| p.join(&fair_audit::ingest::GROUP_SEPARATOR.to_string()))
                .collect();
            let mut by_name: Vec<usize> = (0..names.len()).collect();
            by_name.sort_by(|&a, &b| names[a].cmp(&names[b]));
            let mut rank = vec![0; names.len()];
            for (place, &g) in by_name.iter().enumerate() {
                rank[g] = place;
            }
            let maps: Vec<_> = slices
                .iter()
                .map(|slice| {
                    let mut map = compute::slice_map(slice, parts);
                    map.group_of = by_name.iter().map(|&g| map.group_of[g]).collect();
                    map
                })
                .collect();
            let settings = SweepSettings {
                interval: flags.interval,
                curve_points: fair_audit::CURVE_POINTS,
            };
            Some(store.metrics(&maps, &settings, &rank)?)
        }
    };
    let spec = ReportSpec {
        input: InputInfo {
            file: origin.file.clone(),
            format: reader.format().name().to_string(),
            rows: origin.rows,
            columns: Columns {
                label: args.label.clone(),
                prediction: args.pred.clone(),
                score: args.score.clone(),
                sensitive: args.sensitive.clone(),
                weight: args.weight.clone(),
            },
            positive_label: decoder.labels().positive().to_string(),
            negative_label: decoder
                .labels()
                .negative()
                .or(acc.state.negative())
                .map(str::to_string),
        },
        slices,
        stats,
        thresholds: args.threshold.clone(),
        interval: flags.interval,
        weighted: args.weight.is_some(),
    };
    let (mut report, charts) = fair_audit::build_report(&spec, &confusion, scores.as_deref())?;
    if let Some(ot) = over_time {
        over_time::attach(&mut report, ot);
    }
    if let Some(against) = &args.against {
        let is_positive = fair_audit::compare::second_model_coder(
            decoder.labels().positive(),
            decoder.labels().negative(),
        );
        let side = |column: &str| Side {
            file: format!("{} ({column})", origin.file),
            rows: origin.rows,
        };
        let pred = args.pred.clone().unwrap_or_default();
        let c = fair_audit::compare::compare_paired(
            &acc.state,
            &args.sensitive,
            &is_positive,
            (side(&pred), side(against)),
            &stats,
        )?;
        fair_audit::compare::attach(&mut report, c);
    }
    crate::fail_if::apply(&mut report, gates)?;
    Ok((report, charts))
}
