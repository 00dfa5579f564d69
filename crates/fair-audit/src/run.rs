//! The one audit: from a checked [`AuditRequest`](crate::request::AuditRequest) and the merged
//! decoded state(s) to the report, its charts and the `--fail-if` verdicts. Every front end
//! (the `fairkit audit` command, Python's `fairkit.audit`, Spark's `audit`) decodes its rows into
//! [`AuditState`]s and calls [`run`]; nothing between the state and the report is written twice.
//!
//! ```text
//! slice states ─ group guard ─ --by window cap ─ score metrics ─ build_report
//!     ─ disparities ─ over time ─ paired comparison ─ --fail-if
//! ```

use crate::charts::ChartData;
use crate::compute::SliceDef;
use crate::error::AuditError;
use crate::guard::check_groups;
use crate::ingest::{AuditState, FlagStyle, GROUP_SEPARATOR};
use crate::model::{AuditReport, Columns, InputInfo};
use crate::over_time;
use crate::request::CheckedRequest;
use crate::{ReportSpec, compare};
use fair_metrics::distribution::{DistributionSettings, SliceDistribution};
use fair_metrics::regression::RegressionState;
use fair_metrics::score_sweep::{SliceScores, SweepSettings};

/// What the report says was read: the input's description, its format and its rows, and the
/// label pair the decoder settled on.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Origin {
    /// The input's description (`input.file`).
    pub file: String,
    /// The format's name (`input.format`).
    pub format: String,
    /// Rows read (`input.rows`).
    pub rows: u64,
    /// The positive label.
    pub positive_label: String,
    /// The negative label, once seen or given.
    pub negative_label: Option<String>,
}

/// What [`ScoreSource::score_metrics`] is given: the slices of the report and the all-rows
/// state whose finest groups they merge.
#[derive(Debug, Clone, Copy)]
pub struct ScoreSlices<'a> {
    /// The report's slices, in report order.
    pub slices: &'a [SliceDef],
    /// The merged state of every row, its finest groups the sensitive columns' values.
    pub state: &'a AuditState,
    /// The sensitive columns.
    pub sensitive: &'a [String],
    /// The sweep's settings (the request's partial-parity interval, the charts' curve points).
    pub settings: &'a SweepSettings,
}

/// Where a front end's exact score metrics come from: the command's spilling score store, or
/// the merged score segment of Spark and `fairkit.audit`. Called once, after the group guard,
/// with the report's slices; returns one [`SliceScores`] per slice in their order.
pub trait ScoreSource {
    /// The front end's error (run's own errors convert into it).
    type Error: From<AuditError>;

    /// The score metrics of every slice.
    ///
    /// # Errors
    /// The front end's error when the scores cannot be read or swept.
    fn score_metrics(self, at: ScoreSlices<'_>) -> Result<Vec<SliceScores>, Self::Error>;

    /// A regression audit's prediction distributions of every slice, from the same rows kept
    /// as a score is (one stream per finest group): what [`fair_metrics::distribution::sweep`]
    /// returns, for all rows and — with `at.windows` — for each `--by` window's rows alone (in
    /// the windows' order). A front end without a regression audit keeps this default, an error.
    ///
    /// # Errors
    /// The front end's error when the predictions cannot be read or swept.
    fn distributions(self, at: DistributionSlices<'_>) -> Result<WindowedDistributions, Self::Error>
    where
        Self: Sized,
    {
        Err(AuditError::Input {
            name: "prediction distributions",
            reason: format!(
                "{} slices asked for the predictions' distributions, but this front end keeps no prediction rows",
                at.slices.len()
            ),
        }
        .into())
    }
}

/// The distributions of all rows, and of each window's rows (empty without `--by`).
pub type WindowedDistributions = (Vec<SliceDistribution>, Vec<Vec<SliceDistribution>>);

/// What [`ScoreSource::distributions`] is given: the report's slices over the finest groups
/// (values joined by [`GROUP_SEPARATOR`]) and the sweep's settings.
#[derive(Debug, Clone, Copy)]
pub struct DistributionSlices<'a> {
    /// The report's slices, in report order.
    pub slices: &'a [SliceDef],
    /// The sensitive columns.
    pub sensitive: &'a [String],
    /// The quantile level and the charts' curve points.
    pub settings: &'a DistributionSettings,
    /// With `--by`: each window's label and the finest groups of its rows, named as the
    /// regression sums name them (the raw `by` value leading, then the sensitive values, joined
    /// by [`GROUP_SEPARATOR`]); each window's slices are `slices`, over its rows alone.
    pub windows: Option<&'a [(String, Vec<String>)]>,
}

/// No score column.
#[derive(Debug, Clone, Copy, Default)]
pub struct NoScores;

impl ScoreSource for NoScores {
    type Error = AuditError;

    fn score_metrics(self, at: ScoreSlices<'_>) -> Result<Vec<SliceScores>, AuditError> {
        Err(AuditError::Input {
            name: "score metrics",
            reason: format!(
                "{} slices asked for score metrics, but no score column was read",
                at.slices.len()
            ),
        })
    }
}

/// The merged states of an audit, as decoded.
#[derive(Debug, Clone, Copy)]
pub struct States<'a> {
    /// Every row, its finest groups the sensitive columns' values (the leading column of a
    /// command's `--by` / `--against` state dropped: [`over_time::without_window`]).
    pub all_rows: &'a AuditState,
    /// With `by`: the same rows with the `by` column leading the finest groups.
    pub by: Option<&'a AuditState>,
    /// With `against`: the same rows with the second prediction column leading.
    pub against: Option<&'a AuditState>,
}

/// Everything [`run`] reads besides the request.
#[derive(Debug)]
pub struct Inputs<'a, S> {
    /// The merged states.
    pub states: States<'a>,
    /// With a score column, where its metrics come from.
    pub scores: Option<S>,
    /// What was read.
    pub origin: Origin,
    /// A regression audit's sums of every finest group (named by the decoder's finest names);
    /// `None` for a classification audit. Its distributions come from `scores`.
    pub regression: Option<&'a RegressionState>,
    /// The inferred attributes' states (`sensitive_proba`); `None` without them.
    pub inferred: Option<&'a crate::inferred::InferredStates>,
    /// A ranking audit's rows (`None` otherwise).
    pub ranking: Option<&'a crate::ranking::RankingInput>,
}

/// The audit: the report (its `fail_if` verdicts filled in) and its charts.
#[derive(Debug, Clone)]
pub struct Audit {
    /// The schema-v1 report.
    pub report: AuditReport,
    /// The data of its score charts.
    pub charts: ChartData,
}

impl Audit {
    /// Whether a `--fail-if` expression held.
    pub fn failed(&self) -> bool {
        self.report.fail_if.iter().any(|f| f.failed)
    }
}

/// Runs the audit of a checked request on merged states (see the module docs for the steps).
///
/// # Errors
/// The front end's error: the group guard's refusal naming the column and the setting, a `by`
/// column with more windows than the group limit, a window value that is not a date, bad state
/// or score bytes, a `--fail-if` value the report does not have.
pub fn run<S: ScoreSource>(
    request: &CheckedRequest,
    inputs: Inputs<'_, S>,
    style: FlagStyle,
) -> Result<Audit, S::Error> {
    let r = &request.request;
    let Inputs {
        states,
        scores,
        origin,
        regression,
        inferred,
        ranking,
    } = inputs;
    if r.sensitive_proba.is_empty() != inferred.is_none() {
        return Err(missing(
            "inferred states",
            "the states of the inferred attributes exactly when sensitive_proba is given",
        )
        .into());
    }
    match (&request.ranking, ranking) {
        (Some(settings), Some(rows)) => {
            return run_ranking(request, settings, rows, origin, style);
        }
        (None, None) => {}
        _ => return Err(missing("ranking rows", "the rows of every query (query)").into()),
    }
    if request.regression {
        return run_regression(request, regression, scores, origin, style, states.all_rows);
    }
    if regression.is_some() {
        return Err(missing("regression sums", "a numeric target (target)").into());
    }
    let over_time = match (&request.over_time, states.by) {
        (Some(spec), Some(led)) => Some((over_time::bucket(led, spec)?, spec)),
        (None, None) => None,
        _ => return Err(missing("over-time state", "a state led by the by column").into()),
    };
    if r.against.is_some() != states.against.is_some() {
        return Err(missing("against state", "a state led by the against column").into());
    }
    // Inferred attributes alone: no observed column, so the report has no observed slice.
    let (slices, confusion) = if r.sensitive.is_empty() {
        (Vec::new(), vec![Vec::new(); r.thresholds.len().max(1)])
    } else {
        states.all_rows.slice_states(&r.sensitive)?
    };
    // Before the score sweep and the resampling, which grow with the groups.
    if let Some(first) = confusion.first() {
        check_groups(&slices, first, &request.limits, style)?;
    }
    let over_time = match over_time {
        None => None,
        Some((bucketed, spec)) => {
            window_cap(&bucketed, spec, request.limits.max_groups, style)?;
            Some(over_time::over_time(
                &bucketed,
                &r.sensitive,
                spec,
                &request.stats,
            )?)
        }
    };
    let scores = match scores {
        None => None,
        Some(source) => {
            let settings = SweepSettings {
                interval: request.interval,
                curve_points: crate::CURVE_POINTS,
            };
            Some(source.score_metrics(ScoreSlices {
                slices: &slices,
                state: states.all_rows,
                sensitive: &r.sensitive,
                settings: &settings,
            })?)
        }
    };
    let spec = ReportSpec {
        input: InputInfo {
            file: origin.file.clone(),
            format: origin.format.clone(),
            rows: origin.rows,
            columns: Columns {
                label: r.label.clone(),
                prediction: r.pred.clone(),
                score: r.score.clone(),
                sensitive: r.sensitive.clone(),
                weight: r.weight.clone(),
            },
            positive_label: origin.positive_label.clone(),
            negative_label: origin.negative_label.clone(),
        },
        slices,
        stats: request.stats,
        thresholds: r.thresholds.clone(),
        interval: request.interval,
        weighted: r.weight.is_some(),
    };
    let (mut report, charts) = crate::build_report(&spec, &confusion, scores.as_deref())?;
    report.unknowns = Some(crate::unknowns::count(
        r.unknowns,
        &r.unknown_values,
        states.all_rows,
        &r.sensitive,
    ));
    if let Some(states) = inferred {
        report.inferred = Some(crate::inferred::report(
            states,
            &crate::inferred::InferredSettings {
                proxy: r.proxy.clone(),
                bootstrap: fair_metrics::inferred::BootstrapSettings {
                    resamples: r.resamples,
                    confidence: r.confidence,
                    seed: r.seed,
                },
            },
        )?);
    }
    crate::apply_multiple_testing(&mut report, r.multiple_testing);
    if r.sensitive.is_empty() {
        // No observed column, so no gap to test: say where the audit is instead.
        report.summary = vec![
            "No observed sensitive column: the inferred attributes' estimates and bounds are in the inferred section.".into(),
        ];
    }
    crate::disparity::attach(&mut report, &confusion, &request.disparity)?;
    if let Some(ot) = over_time {
        over_time::attach(&mut report, ot);
    }
    if let (Some(against), Some(led)) = (&r.against, states.against) {
        let is_positive =
            compare::second_model_coder(&origin.positive_label, origin.negative_label.as_deref());
        let side = |column: &str| compare::Side {
            file: format!("{} ({column})", origin.file),
            rows: origin.rows,
        };
        let pred = r.pred.clone().unwrap_or_default();
        let c = compare::compare_paired(
            led,
            &r.sensitive,
            &is_positive,
            (side(&pred), side(against)),
            &request.stats,
        )?;
        compare::attach(&mut report, c);
    }
    if !request.gates.is_empty() {
        crate::fail_if::apply(&mut report, &request.gates).map_err(AuditError::from)?;
    }
    Ok(Audit { report, charts })
}

/// The regression audit: the group guard on the sums, the distributions of the predictions,
/// the report and the gates.
fn run_regression<S: ScoreSource>(
    request: &CheckedRequest,
    finest: Option<&RegressionState>,
    source: Option<S>,
    origin: Origin,
    style: FlagStyle,
    counted: &AuditState,
) -> Result<Audit, S::Error> {
    let r = &request.request;
    let (Some(finest), Some(source)) = (finest, source) else {
        return Err(missing(
            "regression state",
            "the sums and the prediction rows of every finest group",
        )
        .into());
    };
    let slices = SliceDef::all(&r.sensitive);
    // With --by the sums' finest groups lead with the raw by value: all rows merge it away,
    // and each window keeps its own.
    let windows = match &request.over_time {
        None => None,
        Some(spec) => Some(crate::regression_over_time::windows(
            finest,
            spec,
            &request.limits,
            style,
        )?),
    };
    let all_rows = match windows {
        None => finest.clone(),
        Some(_) => finest.regroup(|n| crate::regression_over_time::without_window(n).to_string()),
    };
    let per_slice: Vec<Vec<(String, u64)>> = slices
        .iter()
        .map(|s| {
            all_rows
                .regroup(|n| crate::regression::slice_name(n, s))
                .rows()
        })
        .collect();
    crate::guard::check_group_rows(&slices, &per_slice, &request.limits, style)?;
    let settings = DistributionSettings {
        quantile: r.quantile,
        curve_points: crate::CURVE_POINTS,
    };
    let (distributions, window_distributions) = source.distributions(DistributionSlices {
        slices: &slices,
        sensitive: &r.sensitive,
        settings: &settings,
        windows: windows.as_deref(),
    })?;
    let target = r.target.clone().unwrap_or_default();
    let prediction = r.pred.clone().unwrap_or_default();
    let spec = crate::regression::RegressionSpec {
        slices,
        stats: request.stats,
        target: target.clone(),
        prediction: prediction.clone(),
        quantile: r.quantile,
    };
    let input = InputInfo {
        file: origin.file,
        format: origin.format,
        rows: origin.rows,
        columns: Columns {
            label: target,
            prediction: Some(prediction),
            score: None,
            sensitive: r.sensitive.clone(),
            weight: r.weight.clone(),
        },
        positive_label: String::new(),
        negative_label: None,
    };
    let rows = crate::regression::RegressionRows {
        finest: &all_rows,
        distributions,
    };
    let (mut report, charts) =
        crate::regression::build_regression_report(&spec, input, r.weight.is_some(), &rows)?;
    // The unknowns: with exclude the set-aside rows' counts (the state holds nothing else in a
    // regression audit), with as-group the sums' groups (rows only).
    // The unknowns: with exclude the set-aside rows' counts (the only rows the state holds in
    // a regression audit), with as-group the sums' groups (rows only).
    let audited: Vec<(String, u64, Option<f64>)> = all_rows
        .rows()
        .into_iter()
        .map(|(n, k)| (n, k, None))
        .collect();
    let total = audited.iter().map(|g| g.1).sum();
    let groups = match r.unknowns {
        crate::ingest::Unknowns::Exclude => crate::unknowns::groups_of(counted.set_aside()),
        _ => audited,
    };
    report.unknowns = Some(crate::unknowns::count_groups(
        r.unknowns,
        &r.unknown_values,
        groups,
        total,
        &r.sensitive,
    ));
    if let (Some(ot), Some(windows)) = (&request.over_time, &windows) {
        let over_time = crate::regression_over_time::over_time(
            &spec,
            ot,
            finest,
            windows,
            &window_distributions,
        )?;
        crate::over_time::attach(&mut report, over_time);
    }
    if !request.gates.is_empty() {
        crate::fail_if::apply(&mut report, &request.gates).map_err(AuditError::from)?;
    }
    Ok(Audit { report, charts })
}

/// The ranking audit: every slice's rankings, the report and the gates.
fn run_ranking<E: From<AuditError>>(
    request: &CheckedRequest,
    settings: &fair_metrics::ranking_state::RankingSettings,
    rows: &crate::ranking::RankingInput,
    origin: Origin,
    style: FlagStyle,
) -> Result<Audit, E> {
    let audit = crate::ranking::ranking_audit(request, settings, rows, style)?;
    let mut report = crate::ranking::build_report(request, audit, origin);
    if !request.gates.is_empty() {
        crate::fail_if::apply(&mut report, &request.gates).map_err(AuditError::from)?;
    }
    Ok(Audit {
        report,
        charts: ChartData::default(),
    })
}

fn missing(name: &'static str, what: &str) -> AuditError {
    AuditError::Input {
        name,
        reason: format!("the request and the states disagree: {what} goes with the option"),
    }
}

/// The `by` column's windows count as its groups: more than the group limit stop the audit
/// (each window is an audit of its own).
fn window_cap(
    bucketed: &AuditState,
    spec: &over_time::OverTimeSpec,
    max_groups: usize,
    style: FlagStyle,
) -> Result<(), AuditError> {
    let windows: std::collections::BTreeSet<String> = bucketed
        .finest_names()
        .iter()
        .map(|n| n.split(GROUP_SEPARATOR).next().unwrap_or("").to_string())
        .collect();
    if windows.len() <= max_groups {
        return Ok(());
    }
    let n = windows.len();
    Err(AuditError::Groups(match style {
        FlagStyle::Command => format!(
            "--by {:?} gives {n} windows, more than the limit of {max_groups}: use --window day, week or month, or pass --max-groups {n}",
            spec.column
        ),
        FlagStyle::Python => format!(
            "by={:?} gives {n} windows, more than the limit of {max_groups}: use window=\"day\", \"week\" or \"month\", or pass max_groups={n}",
            spec.column
        ),
    }))
}
