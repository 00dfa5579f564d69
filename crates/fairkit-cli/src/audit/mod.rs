//! `fairkit audit`: read the file batch by batch into mergeable states, compute every rate, gap
//! and score metric with its uncertainty, write the reports, and apply `--fail-if`.

mod accumulate;
pub mod flags;
pub(crate) mod score_store;

use crate::cli::AuditArgs;
use crate::error::CliError;
use crate::input::{ColumnSpec, Progress, ReadOptions, Reader};
use crate::progress::Bar;
use accumulate::Accumulator;
use fair_audit::guard::DEFAULT_MAX_GROUPS;
use fair_audit::ingest::FlagStyle;
use fair_audit::over_time;
use fair_audit::request::{AuditRequest, CheckedRequest};
use fair_audit::run::{
    DistributionSlices, Inputs, Origin as RunOrigin, ScoreSlices, ScoreSource, States,
    WindowedDistributions,
};
use fair_audit::{Audit, compute};
use fair_core::ParamGuard;
use fair_metrics::score_sweep::SliceScores;
use score_store::ScoreStore;

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
    let audit = audit_input(args, FlagStyle::Command)?;
    let Audit { report, charts } = &audit;
    crate::report::write_all(report, charts, &args.out, &args.format)?;
    if !args.quiet {
        crate::report::print_to_stderr(report, &args.out);
    }
    Ok(if audit.failed() {
        Verdict::Fail
    } else {
        Verdict::Pass
    })
}

/// The audit of the command's input (its readers, its saved state when `--state-dir` is
/// given), without writing the report: what [`run`] writes, and what Python's
/// `fairkit.audit(path)` returns. `style` names options in messages as the caller's users write
/// them (`--min-group-size` or `min_group_size=`).
///
/// # Errors
/// [`CliError`] for bad flags or bad input.
pub fn audit_input(args: &AuditArgs, style: FlagStyle) -> Result<Audit, CliError> {
    // The options that change what is computed are checked once, by the library, for every
    // front end; then the reading flags.
    let request = request(args).check().map_err(|e| CliError::InvalidFlag {
        flag: e.flag(),
        value: e.value,
        expected: e.expected,
    })?;
    let flags = flags::Checked::from_args(args)?;
    if args.query.is_some() {
        return ranking_audit(args, &request, &flags, style);
    }

    // With --by (the window) or --against (the second model's prediction) that column leads
    // the finest groups (fair_audit::over_time, fair_audit::compare::compare_paired).
    let mut sensitive = args.sensitive.clone();
    let mut lead_columns = 0;
    if let Some(lead) = args.by.as_ref().or(args.against.as_ref()) {
        sensitive.insert(0, lead.clone());
        lead_columns = 1;
    }
    let regression = args.target.is_some();
    if !args.sensitive_proba.is_empty() && args.state_dir.is_some() {
        return Err(CliError::InvalidFlag {
            flag: "--state-dir",
            value: args
                .state_dir
                .as_ref()
                .map(|d| d.display().to_string())
                .unwrap_or_default(),
            expected: "no --state-dir with --sensitive-proba: the inferred attributes' states are not saved yet (audit all the files in one run)".into(),
        });
    }
    if regression && args.state_dir.is_some() {
        return Err(CliError::InvalidFlag {
            flag: "--state-dir",
            value: args
                .state_dir
                .as_ref()
                .map(|d| d.display().to_string())
                .unwrap_or_default(),
            expected: "no --state-dir with --target: a saved state of a regression audit is not available yet (audit all the files in one run: several inputs, a folder or a pattern)".into(),
        });
    }
    let spec = ColumnSpec {
        label: args.target.clone().unwrap_or_else(|| args.label.clone()),
        pred: args.pred.clone(),
        score: args.score.clone(),
        sensitive,
        weight: args.weight.clone(),
        numeric: regression,
        unlabeled: false,
        missing_groups: false,
        inferred: request
            .request
            .sensitive_proba
            .iter()
            .map(|(a, c)| (a.clone(), c.clone()))
            .collect(),
        proxy: request.request.proxy.clone(),
        rank: None,
        relevance: None,
        query: false,
    };
    let options = ReadOptions {
        format: args.input_format,
        delimiter: flags.delimiter,
        batch_rows: args.batch_rows,
        pos_label: args.pos_label.clone(),
        neg_label: args.neg_label.clone(),
        timezone: request.timezone,
        unknowns: request.unknown_groups(lead_columns),
        style,
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
    let (mut acc, reader) = read_all(args, &spec, &options, &flags, &request)?;
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
    let audit = audit(args, &request, &mut acc, &reader, &origin, style)?;
    drop(stage);
    if let Some((dir, manifest)) = to_save {
        crate::state_dir::save(dir, &acc.state, &manifest)?;
    }
    Ok(audit)
}

fn read_all(
    args: &AuditArgs,
    spec: &ColumnSpec,
    options: &ReadOptions,
    flags: &flags::Checked,
    request: &CheckedRequest,
) -> Result<(Accumulator, Reader), CliError> {
    let mut reader = Reader::open_all(&args.input, spec, options)?;
    let (total, unit) = match reader.progress() {
        Progress::Bytes { total, .. } => (total, "bytes"),
        Progress::Rows { total, .. } => (total, "rows"),
    };
    let bar = Bar::new(total, unit, args.quiet);
    // A regression audit keeps its predictions as a score is kept (sorted, spilled), for the
    // exact quantiles and distribution distances.
    let keep_rows = args.score.is_some() || args.target.is_some();
    let scores = keep_rows.then(|| accumulate::ScoreSettings {
        weighted: args.weight.is_some(),
        budget: flags.memory_budget,
        spill_dir: args.spill_dir.clone().unwrap_or_else(std::env::temp_dir),
    });
    let lead = args.by.is_some() || args.against.is_some();
    let window_scores = (args.target.is_some() && args.by.is_some()).then(|| {
        ScoreStore::new(
            args.weight.is_some(),
            flags.memory_budget,
            args.spill_dir.clone().unwrap_or_else(std::env::temp_dir),
        )
    });
    let mut acc = Accumulator::new(&args.pos_label, &args.threshold, scores, lead);
    if args.target.is_some() {
        acc.regression = Some(fair_metrics::regression::RegressionState::new());
        acc.window_scores = window_scores;
    }
    acc.inferred = fair_audit::inferred::InferredStates::new(
        &request.request.sensitive_proba,
        &args.sensitive,
    )?;
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

/// The audit request of the command's flags (checked by the caller).
pub fn request(args: &AuditArgs) -> AuditRequest {
    AuditRequest {
        label: args.label.clone(),
        target: args.target.clone(),
        quantile: args.quantile,
        pred: args.pred.clone(),
        score: args.score.clone(),
        weight: args.weight.clone(),
        sensitive: args.sensitive.clone(),
        unknown_values: args.unknown_values.clone(),
        unknowns: args.unknowns,
        confidence: args.confidence,
        ci_method: args.ci_method,
        resamples: args.resamples,
        seed: args.seed,
        min_group_size: args.min_group_size,
        multiple_testing: args.multiple_testing,
        max_groups: args.max_groups,
        allow_single_group: args.allow_single_group,
        interval: args.interval.clone(),
        thresholds: args.threshold.clone(),
        by: args.by.clone(),
        window: args.window,
        baseline: args.baseline,
        timezone: args.timezone.clone(),
        against: args.against.clone(),
        fail_if: args.fail_if.clone(),
        formats: args.format.clone(),
        disparity_reference: args.disparity_reference.clone(),
        tau: args.tau,
        sensitive_proba: sensitive_proba(&args.sensitive_proba),
        proxy: args.proxy.clone(),
        query: args.query.clone(),
        rank: args.rank.clone(),
        relevance: args.relevance.clone(),
        top_k: args.top_k.clone(),
        persistence: args.persistence,
        fair_p: args.fair_p,
        fair_alpha: args.fair_alpha,
    }
}

/// `--sensitive-proba race=p_white,p_black …` as the request's map. A value without `=` is
/// kept under an empty attribute name, which the request check refuses saying what to write.
fn sensitive_proba(values: &[String]) -> std::collections::BTreeMap<String, Vec<String>> {
    values
        .iter()
        .map(|v| {
            let (attribute, columns) = v.split_once('=').unwrap_or(("", v));
            (
                attribute.trim().to_string(),
                columns.split(',').map(|c| c.trim().to_string()).collect(),
            )
        })
        .collect()
}

/// The command's score metrics: its score store (spilled to disk above the memory budget),
/// whose streams are the score groups the accumulator numbered as the file brought them.
struct StoreScores<'a> {
    store: ScoreStore,
    parts: &'a [Vec<String>],
    /// A regression audit with --by: the predictions again, streamed by the decoder's finest
    /// groups (the raw by value leading), for each window's own distributions.
    windows: Option<(ScoreStore, &'a [Vec<String>])>,
}

impl ScoreSource for StoreScores<'_> {
    type Error = CliError;

    fn score_metrics(self, at: ScoreSlices<'_>) -> Result<Vec<SliceScores>, CliError> {
        // The score rows' groups are the sensitive columns' (without a --by / --against
        // value), numbered in sorted-name order, as every other front end numbers them.
        let (maps, rank) = sorted_maps(self.parts, at.slices);
        self.store.metrics(&maps, at.settings, &rank)
    }

    fn distributions(self, at: DistributionSlices<'_>) -> Result<WindowedDistributions, CliError> {
        let (maps, rank) = sorted_maps(self.parts, at.slices);
        let all = self.store.distributions(&maps, at.settings, &rank)?;
        let (Some(windows), Some((store, parts))) = (at.windows, self.windows) else {
            return Ok((all, Vec::new()));
        };
        // Each window: its finest groups in sorted-name order of their values without the by
        // value (as the window's sums name them), and the slices over those values.
        let sep = fair_audit::ingest::GROUP_SEPARATOR.to_string();
        let code_of: std::collections::HashMap<String, usize> = parts
            .iter()
            .enumerate()
            .map(|(c, p)| (p.join(&sep), c))
            .collect();
        let mut subsets = Vec::with_capacity(windows.len());
        for (_, names) in windows {
            let mut codes: Vec<(String, usize)> = names
                .iter()
                .filter_map(|n| {
                    let rest = n.split_once(&sep).map_or("", |x| x.1).to_string();
                    code_of.get(n).map(|&c| (rest, c))
                })
                .collect();
            codes.sort();
            let rest_parts: Vec<Vec<String>> =
                codes.iter().map(|&(_, c)| parts[c][1..].to_vec()).collect();
            let maps = at
                .slices
                .iter()
                .map(|slice| compute::slice_map(slice, &rest_parts))
                .collect();
            subsets.push((codes.into_iter().map(|(_, c)| c).collect(), maps));
        }
        let per_window = store.distributions_of_subsets(&subsets, at.settings)?;
        Ok((all, per_window))
    }
}

/// The slice maps of the store's groups (numbered as the file brought them) renumbered in
/// sorted-name order, as every other front end numbers them, and each group's new number.
fn sorted_maps(
    parts: &[Vec<String>],
    slices: &[compute::SliceDef],
) -> (Vec<fair_metrics::score_sweep::SliceMap>, Vec<usize>) {
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
    let maps = slices
        .iter()
        .map(|slice| {
            let mut map = compute::slice_map(slice, parts);
            map.group_of = by_name.iter().map(|&g| map.group_of[g]).collect();
            map
        })
        .collect();
    (maps, rank)
}

/// The accumulated states handed to `fair_audit::run`, the one path from states to report.
fn audit(
    args: &AuditArgs,
    request: &CheckedRequest,
    acc: &mut Accumulator,
    reader: &Reader,
    origin: &Origin,
    style: FlagStyle,
) -> Result<Audit, CliError> {
    let decoder = reader.decoder();
    // With --by (the window) or --against (the second model's prediction) that column leads
    // the finest groups; the audit of all rows drops it (exactly the audit without it).
    let led = args.by.is_some() || args.against.is_some();
    let dropped = led.then(|| over_time::without_window(&acc.state));
    let states = States {
        all_rows: dropped.as_ref().unwrap_or(&acc.state),
        by: args.by.as_ref().map(|_| &acc.state),
        against: args.against.as_ref().map(|_| &acc.state),
    };
    let origin = RunOrigin {
        file: origin.file.clone(),
        format: reader.format().name().to_string(),
        rows: origin.rows,
        positive_label: decoder.labels().positive().to_string(),
        negative_label: decoder
            .labels()
            .negative()
            .or(acc.state.negative())
            .map(str::to_string),
    };
    let windows = acc
        .window_scores
        .take()
        .map(|store| (store, decoder.finest_parts()));
    let scores = acc.scores.take().map(|store| StoreScores {
        store,
        parts: acc.score_groups.parts(decoder),
        windows,
    });
    fair_audit::run(
        request,
        Inputs {
            states,
            scores,
            origin,
            regression: acc.regression.as_ref(),
            inferred: acc.inferred.as_ref(),
            ranking: None,
        },
        style,
    )
}

/// The ranking audit (`--query`): the query column is read as the first group column, the
/// rank (or score) and relevance as numbers, and every row is kept in memory
/// ([`fair_audit::ranking::RankingInput`]) since a query's numbers need all its rows.
fn ranking_audit(
    args: &AuditArgs,
    request: &CheckedRequest,
    flags: &flags::Checked,
    style: FlagStyle,
) -> Result<Audit, CliError> {
    if args.state_dir.is_some() {
        return Err(CliError::InvalidFlag {
            flag: "--state-dir",
            value: args
                .state_dir
                .as_ref()
                .map(|d| d.display().to_string())
                .unwrap_or_default(),
            expected: "no --state-dir with --query: a saved state of a ranking audit is not available yet (audit all the files in one run)".into(),
        });
    }
    let mut sensitive = args.sensitive.clone();
    sensitive.insert(0, args.query.clone().unwrap_or_default());
    let spec = ColumnSpec {
        label: String::new(),
        pred: None,
        score: if args.rank.is_none() {
            args.score.clone()
        } else {
            None
        },
        sensitive,
        weight: args.weight.clone(),
        numeric: false,
        unlabeled: true,
        missing_groups: false,
        rank: args.rank.clone(),
        relevance: args.relevance.clone(),
        query: true,
        inferred: Vec::new(),
        proxy: None,
    };
    let options = ReadOptions {
        format: args.input_format,
        delimiter: flags.delimiter,
        batch_rows: args.batch_rows,
        pos_label: args.pos_label.clone(),
        neg_label: args.neg_label.clone(),
        timezone: None,
        unknowns: None,
        style,
    };
    let mut reader = Reader::open_all(&args.input, &spec, &options)?;
    let (total, unit) = match reader.progress() {
        Progress::Bytes { total, .. } => (total, "bytes"),
        Progress::Rows { total, .. } => (total, "rows"),
    };
    let bar = Bar::new(total, unit, args.quiet);
    let mut rows = fair_audit::ranking::RankingInput::default();
    while let Some(batch) = reader.next_batch()? {
        rows.add(&batch, reader.decoder())?;
        match reader.progress() {
            Progress::Bytes { done, .. } | Progress::Rows { done, .. } => bar.set(done),
        }
    }
    bar.finish();
    let origin = RunOrigin {
        file: reader.name().display().to_string(),
        format: reader.format().name().to_string(),
        rows: reader.rows(),
        positive_label: String::new(),
        negative_label: None,
    };
    let stage = crate::progress::Stage::start(
        &format!(
            "rankings of {} rows × {} resamples of the queries",
            reader.rows(),
            args.resamples
        ),
        args.quiet,
    );
    let empty = fair_audit::ingest::AuditState::new("", 1);
    let audit = fair_audit::run(
        request,
        Inputs {
            states: States {
                all_rows: &empty,
                by: None,
                against: None,
            },
            scores: None::<fair_audit::NoScores>,
            origin,
            regression: None,
            ranking: Some(&rows),
            inferred: None,
        },
        style,
    )?;
    drop(stage);
    Ok(audit)
}
