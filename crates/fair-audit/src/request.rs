//! The audit request: every option of `fairkit audit` that changes what is computed or which
//! views are written, with the command's defaults, and its one check.
//!
//! Every front end builds an [`AuditRequest`] — the command from its flags, Python from its
//! keyword arguments (a dict deserialised with serde) — and [`AuditRequest::check`] (the
//! workspace's [`ParamGuard`] pattern) is the only place the options are validated: a bad value
//! gets the same message whichever front end it came through, naming the option. Reading
//! options (delimiter, batch size, memory budget, …) stay with the front end that reads.
//!
//! ```
//! use fair_audit::request::AuditRequest;
//! use fair_core::ParamGuard;
//!
//! let request: AuditRequest = serde_json::from_str(
//!     r#"{"label": "y", "pred": "p", "sensitive": ["race"], "window": "week", "by": "day"}"#,
//! )?;
//! assert_eq!(request.resamples, 1000); // the command's default
//! let checked = request.check_ref()?;
//! assert!(checked.over_time.is_some());
//!
//! let bad = AuditRequest { confidence: 1.5, ..request };
//! let err = bad.check().unwrap_err();
//! assert_eq!(err.param, "confidence");
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```

use crate::compute::{DEFAULT_MIN_GROUP_SIZE, Stats};
use crate::disparity::DisparitySpec;
use crate::fail_if::{self, FailIf};
use crate::guard::{DEFAULT_MAX_GROUPS, GroupLimits};
use crate::ingest::{GROUP_SEPARATOR, UnknownGroups, Unknowns};
use crate::over_time::{Baseline, OverTimeSpec, Window};
use crate::render::Views;
use fair_core::ParamGuard;
use fair_metrics::ci::{MultipleTesting, RateCiMethod};
use fair_metrics::partial::PercentileInterval;
use serde::{Deserialize, Deserializer, Serialize, Serializer};
use std::collections::BTreeMap;

/// A report view (`--format`, Python's `formats=`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ReportFormat {
    /// One self-contained HTML file with inline SVG charts (opens offline).
    Html,
    /// Markdown tables, with the figures as SVG files.
    Md,
    /// Machine-readable JSON (schema: docs/audit-json-schema.md).
    Json,
}

fair_core::string_enum!(ReportFormat, "report format", {
    Html => "html",
    Md => "md" | "markdown",
    Json => "json",
});

impl ReportFormat {
    /// The views of a list of formats.
    pub fn views(formats: &[ReportFormat]) -> Views {
        Views {
            json: formats.contains(&ReportFormat::Json),
            markdown: formats.contains(&ReportFormat::Md),
            html: formats.contains(&ReportFormat::Html),
        }
    }
}

/// The default confidence level (`--confidence`).
pub const DEFAULT_CONFIDENCE: f64 = 0.95;
/// The default bootstrap and permutation resamples per gap (`--resamples`).
pub const DEFAULT_RESAMPLES: usize = 1000;
/// The default level of a regression audit's per-group quantile (`--quantile`): the median.
pub const DEFAULT_QUANTILE: f64 = 0.5;
/// The fewest resamples a gap's interval and p-value are drawn from.
pub const MIN_RESAMPLES: usize = 100;
/// A ranking audit's default top-k cut-off (`--top-k`).
pub const DEFAULT_TOP_K: u64 = 10;
/// A ranking audit's default FA*IR significance level (`--fair-alpha`), the paper's.
pub const DEFAULT_FAIR_ALPHA: f64 = 0.1;
/// The default parity band's lower end (`--tau`): the four-fifths rule, as Aequitas.
pub const DEFAULT_TAU: f64 = 0.8;

/// Everything an audit computes from, besides the rows: the columns' roles, the statistics,
/// the group limits, the partial-parity interval, the thresholds, the audit over time, the
/// paired comparison, the gates and the views. Field names are the request's keys (a dict from
/// Python, a JSON object); missing keys take the command's defaults ([`Default`]).
#[derive(Debug, Clone, PartialEq, Deserialize, Serialize)]
#[serde(deny_unknown_fields, default)]
pub struct AuditRequest {
    /// Column with the true label (empty in a regression audit, which names `target`).
    pub label: String,
    /// Column with a numeric target: a regression audit of the numeric prediction in `pred`
    /// (instead of `label`).
    pub target: Option<String>,
    /// The level of each group's prediction quantile a regression audit reports (0.5: the
    /// median).
    pub quantile: f64,
    /// Column with the predicted label (absent: `thresholds` on the score).
    pub pred: Option<String>,
    /// Column with the model's score.
    pub score: Option<String>,
    /// Column with non-negative sample weights.
    pub weight: Option<String>,
    /// The sensitive columns (two or more: their intersection too).
    pub sensitive: Vec<String>,
    /// Sensitive values that mean "unknown", besides a null and an empty value (compared with
    /// the value as text: `"NA"`, `"99"`). Needs `unknowns` as-group or exclude.
    pub unknown_values: Vec<String>,
    /// What a row with an unknown sensitive value does ("as-group", "exclude" or "error", the
    /// default: see docs/conventions.md for why).
    #[serde(with = "by_name")]
    pub unknowns: Unknowns,
    /// Level of every interval (strictly between 0 and 1).
    pub confidence: f64,
    /// Interval method of the per-group rates.
    #[serde(with = "by_name")]
    pub ci_method: RateCiMethod,
    /// Bootstrap and permutation resamples per gap.
    pub resamples: usize,
    /// Seed of every draw.
    pub seed: u64,
    /// Rows a group needs in a gap's denominator to take part in it (0: every group).
    pub min_group_size: u64,
    /// The adjustment of the gaps' p-values for multiple comparisons before a gap is called
    /// distinguishable ("none", "bh", "by", "bonferroni", "holm"; default "none": see
    /// docs/conventions.md for why).
    #[serde(with = "by_name")]
    pub multiple_testing: MultipleTesting,
    /// Largest number of groups of a slice (absent: [`DEFAULT_MAX_GROUPS`], and a column with a
    /// value per row is refused).
    pub max_groups: Option<usize>,
    /// Audit a column with a single value (its rates, no gaps) instead of refusing it.
    pub allow_single_group: bool,
    /// The percentile interval `[alpha, beta)` of partial statistical parity (absent: not
    /// computed). Needs `score`.
    pub interval: Option<Vec<f64>>,
    /// Decision thresholds on the score, one audit each (instead of `pred`).
    pub thresholds: Vec<f64>,
    /// Audit over time: the column whose windows are compared.
    pub by: Option<String>,
    /// How `by` values become windows.
    #[serde(with = "by_name")]
    pub window: Window,
    /// What each window is compared with.
    #[serde(with = "by_name")]
    pub baseline: Baseline,
    /// The IANA time zone of the calendar windows (absent: UTC): a timestamp that carries its
    /// zone or offset falls on its day there.
    pub timezone: Option<String>,
    /// A second model's prediction column, compared paired with `pred`.
    pub against: Option<String>,
    /// `--fail-if` expressions.
    pub fail_if: Vec<String>,
    /// The views to render.
    #[serde(with = "by_name_list")]
    pub formats: Vec<ReportFormat>,
    /// How each slice's reference group of the Aequitas disparities is chosen: `largest`
    /// (default, Aequitas' "majority"), `min_metric` (per rate the group with the smallest
    /// value; `min` for short), and `SLICE=GROUP` entries naming a slice's reference group
    /// (`race=white`, `race & sex=white & female`). A bare word sets the rule of the slices no
    /// entry names. A string, a list of strings or a map `{slice: group}`.
    #[serde(deserialize_with = "references::deserialize")]
    pub disparity_reference: Vec<String>,
    /// Parity holds when `tau ≤ disparity ≤ 1/tau`: in (0, 1], 0.8 (the four-fifths rule) by
    /// default.
    pub tau: f64,
    /// Inferred sensitive attributes: each attribute's name and its membership-probability
    /// columns, one per group (`{"race": ["p_white", "p_black", "p_other"]}`; the command's
    /// `--sensitive-proba race=p_white,p_black,p_other`). Every row's probabilities must be in
    /// [0, 1] and sum to 1 within 1e-6. See docs/inferred-groups.md.
    pub sensitive_proba: BTreeMap<String, Vec<String>>,
    /// The column naming each row's proxy cell for the inferred attributes' bounds (absent:
    /// rows with the same probabilities form a cell).
    pub proxy: Option<String>,
    /// A ranking audit: the query id column (each query's rows are one ranking). Its positions
    /// come from `rank` (smallest first) or from `score` (highest first).
    pub query: Option<String>,
    /// A ranking audit's rank column (1 = top; equal ranks tie).
    pub rank: Option<String>,
    /// A ranking audit's relevance column (≥ 0; optional: the treatment and impact ratios and
    /// NDCG need it).
    pub relevance: Option<String>,
    /// A ranking audit's top-k cut-offs (default 10); FA*IR's test runs over the largest.
    pub top_k: Vec<u64>,
    /// A ranking audit's geometric (RBP) discount persistence in (0, 1) (absent: 1/log2(1 + r)).
    pub persistence: Option<f64>,
    /// FA*IR's target share of each tested group (absent: the group's share of each query).
    pub fair_p: Option<f64>,
    /// FA*IR's significance level (corrected for the prefixes tested, as the paper does).
    pub fair_alpha: f64,
}

impl Default for AuditRequest {
    /// The command's defaults (no columns named).
    fn default() -> Self {
        Self {
            label: String::new(),
            target: None,
            quantile: DEFAULT_QUANTILE,
            pred: None,
            score: None,
            weight: None,
            sensitive: Vec::new(),
            unknown_values: Vec::new(),
            unknowns: Unknowns::Error,
            confidence: DEFAULT_CONFIDENCE,
            ci_method: RateCiMethod::Wilson,
            resamples: DEFAULT_RESAMPLES,
            seed: 0,
            min_group_size: DEFAULT_MIN_GROUP_SIZE,
            multiple_testing: MultipleTesting::None,
            max_groups: None,
            allow_single_group: false,
            interval: None,
            thresholds: Vec::new(),
            by: None,
            window: Window::Value,
            baseline: Baseline::First,
            timezone: None,
            against: None,
            fail_if: Vec::new(),
            formats: vec![ReportFormat::Html, ReportFormat::Md, ReportFormat::Json],
            disparity_reference: Vec::new(),
            tau: DEFAULT_TAU,
            sensitive_proba: BTreeMap::new(),
            proxy: None,
            query: None,
            rank: None,
            relevance: None,
            top_k: vec![DEFAULT_TOP_K],
            persistence: None,
            fair_p: None,
            fair_alpha: DEFAULT_FAIR_ALPHA,
        }
    }
}

/// An invalid option: which one (the request's key), the value given and what it expects.
/// Front ends show the key in their own spelling (`--confidence`, `confidence=`).
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
#[error("invalid {param} '{value}': {expected}")]
pub struct RequestError {
    /// The request key.
    pub param: &'static str,
    /// The value given, as text.
    pub value: String,
    /// What the option expects (and how to fix it).
    pub expected: String,
}

impl RequestError {
    /// The option as the `fairkit audit` command spells it (`--confidence`, `--threshold`).
    pub fn flag(&self) -> &'static str {
        match self.param {
            "label" => "--label",
            "target" => "--target",
            "quantile" => "--quantile",
            "pred" => "--pred",
            "score" => "--score",
            "weight" => "--weight",
            "sensitive" => "--sensitive",
            "unknown_values" => "--unknown-values",
            "unknowns" => "--unknowns",
            "confidence" => "--confidence",
            "ci_method" => "--ci-method",
            "resamples" => "--resamples",
            "seed" => "--seed",
            "min_group_size" => "--min-group-size",
            "multiple_testing" => "--multiple-testing",
            "max_groups" => "--max-groups",
            "allow_single_group" => "--allow-single-group",
            "interval" => "--interval",
            "thresholds" => "--threshold",
            "by" => "--by",
            "window" => "--window",
            "baseline" => "--baseline",
            "timezone" => "--timezone",
            "against" => "--against",
            "fail_if" => "--fail-if",
            "formats" => "--format",
            "disparity_reference" => "--disparity-reference",
            "tau" => "--tau",
            "sensitive_proba" => "--sensitive-proba",
            "proxy" => "--proxy",
            "query" => "--query",
            "rank" => "--rank",
            "relevance" => "--relevance",
            "top_k" => "--top-k",
            "persistence" => "--persistence",
            "fair_p" => "--fair-p",
            "fair_alpha" => "--fair-alpha",
            other => other,
        }
    }
}

fn invalid(param: &'static str, value: impl ToString, expected: impl ToString) -> RequestError {
    RequestError {
        param,
        value: value.to_string(),
        expected: expected.to_string(),
    }
}

/// A request after [`check`](ParamGuard::check): the settings in the types the computation
/// takes.
#[derive(Debug, Clone)]
pub struct CheckedRequest {
    /// A regression audit (a numeric `target`).
    pub regression: bool,
    /// The request as given.
    pub request: AuditRequest,
    /// The statistics settings.
    pub stats: Stats,
    /// The group guard's limits.
    pub limits: GroupLimits,
    /// The time zone of calendar windows and zoned timestamp groups (the decoder's too).
    pub timezone: Option<chrono_tz::Tz>,
    /// The partial-parity interval, when asked for.
    pub interval: Option<PercentileInterval>,
    /// The audit over time, with `by`.
    pub over_time: Option<OverTimeSpec>,
    /// The parsed gates.
    pub gates: Vec<FailIf>,
    /// The views to render.
    pub views: Views,
    /// The Aequitas disparities' reference groups and thresholds.
    pub disparity: DisparitySpec,
    /// A ranking audit's settings (with `query`).
    pub ranking: Option<fair_metrics::ranking_state::RankingSettings>,
}

impl CheckedRequest {
    /// The decoder's reading of unknown sensitive values for this request, with `skip` leading
    /// columns (a `--by` or `--against` column before the sensitive ones) left out of it.
    pub fn unknown_groups(&self, skip: usize) -> Option<UnknownGroups> {
        UnknownGroups::new(self.request.unknowns, &self.request.unknown_values, skip)
    }
}

impl ParamGuard for AuditRequest {
    type Checked = CheckedRequest;
    type Error = RequestError;

    /// Checks every option and every combination, in the order the command always checked
    /// its flags.
    fn check_ref(&self) -> Result<CheckedRequest, RequestError> {
        let r = self;
        if let Some(query) = &r.query {
            if !r.sensitive_proba.is_empty() || r.proxy.is_some() {
                return Err(invalid(
                    "sensitive_proba",
                    r.sensitive_proba
                        .keys()
                        .cloned()
                        .collect::<Vec<_>>()
                        .join(","),
                    "an audit of a prediction column: inferred attributes are not available in a ranking audit (--query) yet",
                ));
            }
            return check_ranking(r, query);
        }
        if let Some(target) = &r.target {
            check_regression(r, target)?;
        } else if r.label.trim().is_empty() {
            return Err(invalid("label", &r.label, "the name of the label column"));
        }
        if !(r.confidence > 0.0 && r.confidence < 1.0) {
            return Err(invalid(
                "confidence",
                r.confidence,
                "a level strictly between 0 and 1, e.g. 0.95",
            ));
        }
        if r.resamples < MIN_RESAMPLES {
            return Err(invalid(
                "resamples",
                r.resamples,
                format!("at least {MIN_RESAMPLES}"),
            ));
        }
        if r.pred.is_none() && r.thresholds.is_empty() {
            return Err(invalid(
                "pred",
                "(absent)",
                "a prediction column (--pred y_hat), or a score with thresholds (--score p --threshold 0.5)",
            ));
        }
        if let Some(pred) = &r.pred
            && !r.thresholds.is_empty()
        {
            return Err(invalid(
                "thresholds",
                join(&r.thresholds),
                format!(
                    "no thresholds with a prediction column ({pred}): predictions come from the prediction column or from the score's thresholds, not both"
                ),
            ));
        }
        if let Some(t) = r.thresholds.iter().find(|t| !t.is_finite()) {
            return Err(invalid("thresholds", t, "finite numbers, e.g. 0.5,0.7"));
        }
        if !r.thresholds.is_empty() && r.score.is_none() {
            return Err(invalid(
                "thresholds",
                join(&r.thresholds),
                "a score column to threshold (--score p)",
            ));
        }
        // An audit of inferred attributes alone has no observed sensitive column.
        if (r.sensitive.is_empty() && r.sensitive_proba.is_empty())
            || r.sensitive.iter().any(|s| s.trim().is_empty())
        {
            return Err(invalid(
                "sensitive",
                r.sensitive.join(","),
                "column names separated by commas, e.g. race,sex",
            ));
        }
        check_inferred(r)?;
        if !r.unknown_values.is_empty() && r.unknowns == Unknowns::Error {
            return Err(invalid(
                "unknown_values",
                r.unknown_values.join(","),
                "--unknowns as-group (a group of their own) or exclude (counted, kept out of every rate): with the default, error, a listed value would only stop the audit at its first row",
            ));
        }
        if let Some(v) = r
            .unknown_values
            .iter()
            .find(|v| v.contains(GROUP_SEPARATOR))
        {
            return Err(invalid(
                "unknown_values",
                v.escape_debug(),
                "values without the control character \\x1f",
            ));
        }
        if let Some(by) = &r.by
            && r.sensitive.iter().any(|s| s == by)
        {
            return Err(invalid(
                "by",
                by,
                format!(
                    "a column that is not also given to --sensitive ({}): the windows are compared, not its groups",
                    r.sensitive.join(", ")
                ),
            ));
        }
        if r.by.is_none() && (r.window != Window::Value || r.baseline != Baseline::First) {
            let (param, value) = if r.window != Window::Value {
                ("window", r.window.as_str())
            } else {
                ("baseline", r.baseline.as_str())
            };
            return Err(invalid(
                param,
                value,
                "a --by column to take the windows from (--by scored_at)",
            ));
        }
        if let Some(against) = &r.against {
            if r.pred.is_none() || r.pred.as_ref() == Some(against) || r.sensitive.contains(against)
            {
                return Err(invalid(
                    "against",
                    against,
                    "a second prediction column, besides the --pred column it is compared with",
                ));
            }
            if r.weight.is_some() || !r.thresholds.is_empty() {
                return Err(invalid(
                    "against",
                    against,
                    "an unweighted audit of a prediction column (no --weight, no --threshold): the paired comparison redraws rows",
                ));
            }
        }
        let timezone = match &r.timezone {
            None => None,
            Some(name) => Some(
                crate::over_time::parse_timezone(name)
                    .map_err(|reason| invalid("timezone", name, reason))?,
            ),
        };
        let interval = match &r.interval {
            None => None,
            Some(v) if v.len() == 2 => Some(PercentileInterval::new(v[0], v[1]).map_err(|_| {
                invalid(
                    "interval",
                    join(v),
                    "ALPHA,BETA with 0 <= ALPHA < BETA <= 1, e.g. 0.05,0.3",
                )
            })?),
            Some(v) => {
                return Err(invalid(
                    "interval",
                    join(v),
                    "two numbers ALPHA,BETA, e.g. 0.05,0.3",
                ));
            }
        };
        if let (Some(iv), None) = (interval, &r.score) {
            return Err(invalid(
                "interval",
                format!("{},{}", iv.alpha(), iv.beta()),
                "a score column to rank (--score p): partial parity is measured on the scores",
            ));
        }
        let mut gates = Vec::with_capacity(r.fail_if.len());
        for text in &r.fail_if {
            let parsed = fail_if::parse_all(std::slice::from_ref(text))
                .map_err(|e| invalid("fail_if", text, e))?;
            gates.extend(parsed);
        }
        if let (None, Some(g)) = (&r.against, gates.iter().find(|g| g.uses_changes())) {
            return Err(invalid(
                "fail_if",
                &g.text,
                "change(…) and p(…) need a comparison: add --against COLUMN (a second model's predictions), or compare two audits with `fairkit compare BEFORE AFTER --fail-if …`",
            ));
        }
        let disparity =
            DisparitySpec::parse(&r.disparity_reference, r.tau, r.confidence, &r.sensitive)?;
        Ok(CheckedRequest {
            disparity,
            regression: r.target.is_some(),
            request: r.clone(),
            stats: Stats {
                confidence: r.confidence,
                method: r.ci_method,
                resamples: r.resamples,
                seed: r.seed,
                min_group_size: r.min_group_size,
            },
            limits: GroupLimits {
                max_groups: r.max_groups.unwrap_or(DEFAULT_MAX_GROUPS),
                max_groups_given: r.max_groups.is_some(),
                allow_single_group: r.allow_single_group,
            },
            interval,
            over_time: r.by.as_ref().map(|column| OverTimeSpec {
                column: column.clone(),
                window: r.window,
                baseline: r.baseline,
                timezone,
            }),
            timezone,
            gates,
            views: ReportFormat::views(&r.formats),
            ranking: None,
        })
    }
}

/// The inferred attributes: named, two or more distinct probability columns each, none also
/// another role; only with a prediction column and none of the options they do not carry yet.
fn check_inferred(r: &AuditRequest) -> Result<(), RequestError> {
    let spelled = |r: &AuditRequest| {
        r.sensitive_proba
            .iter()
            .map(|(a, c)| format!("{a}={}", c.join(",")))
            .collect::<Vec<_>>()
            .join(" ")
    };
    if r.sensitive_proba.is_empty() {
        if let Some(z) = &r.proxy {
            return Err(invalid(
                "proxy",
                z,
                "inferred attributes to bound (--sensitive-proba race=p_white,p_black): the proxy names the cells of their bounds",
            ));
        }
        return Ok(());
    }
    let mut seen: Vec<&str> = Vec::new();
    for (attribute, columns) in &r.sensitive_proba {
        if attribute.trim().is_empty() || attribute.contains(GROUP_SEPARATOR) {
            return Err(invalid(
                "sensitive_proba",
                spelled(r),
                "ATTRIBUTE=COLUMN,COLUMN,… with a name for the attribute, e.g. race=p_white,p_black,p_other",
            ));
        }
        if r.sensitive.contains(attribute) {
            return Err(invalid(
                "sensitive_proba",
                spelled(r),
                format!(
                    "an attribute name other than the observed sensitive columns ({attribute} is one)"
                ),
            ));
        }
        if columns.len() < 2 || columns.iter().any(|c| c.trim().is_empty()) {
            return Err(invalid(
                "sensitive_proba",
                spelled(r),
                format!(
                    "two or more probability columns for {attribute}, one per group, e.g. {attribute}=p_white,p_black,p_other"
                ),
            ));
        }
        for c in columns {
            if seen.contains(&c.as_str()) {
                return Err(invalid(
                    "sensitive_proba",
                    spelled(r),
                    format!("each probability column once ({c} is repeated)"),
                ));
            }
            seen.push(c);
        }
    }
    let unsupported = if r.target.is_some() {
        Some("a regression audit (--target)")
    } else if r.pred.is_none() {
        Some("predictions from thresholds (--threshold): give the prediction column (--pred)")
    } else if r.by.is_some() {
        Some("--by")
    } else if r.against.is_some() {
        Some("--against")
    } else {
        None
    };
    if let Some(what) = unsupported {
        return Err(invalid(
            "sensitive_proba",
            spelled(r),
            format!(
                "an audit of a prediction column without {what}: inferred attributes are not available with it yet"
            ),
        ));
    }
    Ok(())
}

/// What a ranking audit (a `query` column) takes: the positions from `rank` or `score`, the
/// sensitive columns, optionally relevance and weights, and none of the classifier's or the
/// regression's options.
fn check_ranking(r: &AuditRequest, query: &str) -> Result<CheckedRequest, RequestError> {
    use fair_metrics::ranking_state::{Discount, RankingSettings};
    if query.trim().is_empty() {
        return Err(invalid("query", query, "the name of the query id column"));
    }
    match (&r.rank, &r.score) {
        (Some(_), None) | (None, Some(_)) => {}
        (Some(rank), Some(score)) => {
            return Err(invalid(
                "rank",
                rank,
                format!(
                    "a rank or a score, not both (score {score:?} given too): positions come from one"
                ),
            ));
        }
        (None, None) => {
            return Err(invalid(
                "rank",
                "(absent)",
                "the rank column of each item (--rank position, 1 = top), or a score to rank by within each query (--score s, highest first)",
            ));
        }
    }
    let not_for_rankings: [(&'static str, bool, &str); 10] = [
        (
            "label",
            !r.label.is_empty(),
            "a ranking audit has no label: give --relevance for the utility of each item",
        ),
        (
            "target",
            r.target.is_some(),
            "a ranking audit or a regression audit, not both",
        ),
        (
            "pred",
            r.pred.is_some(),
            "a ranking audit reads positions (--rank or --score), not predictions",
        ),
        (
            "thresholds",
            !r.thresholds.is_empty(),
            "thresholds turn a score into decisions; a ranking audit ranks by it",
        ),
        (
            "interval",
            r.interval.is_some(),
            "partial parity is measured on a classifier's scores",
        ),
        (
            "by",
            r.by.is_some(),
            "the audit over time is not available for rankings yet",
        ),
        (
            "against",
            r.against.is_some(),
            "the paired comparison is not available for rankings yet",
        ),
        (
            "disparity_reference",
            !r.disparity_reference.is_empty(),
            "reference-group disparities compare a classifier's confusion rates",
        ),
        (
            "multiple_testing",
            r.multiple_testing != MultipleTesting::None,
            "the ranking ratios have intervals, not p-values",
        ),
        (
            "unknowns",
            r.unknowns != Unknowns::Error || !r.unknown_values.is_empty(),
            "unknown sensitive values are not available for rankings yet: a missing value is an error naming its row",
        ),
    ];
    if let Some((param, _, why)) = not_for_rankings.iter().find(|c| c.1) {
        return Err(invalid(
            param,
            "(given)",
            format!("nothing with --query: {why}"),
        ));
    }
    if r.sensitive.is_empty() || r.sensitive.iter().any(|s| s.trim().is_empty()) {
        return Err(invalid(
            "sensitive",
            r.sensitive.join(","),
            "column names separated by commas, e.g. race,sex",
        ));
    }
    let named = [
        Some(query),
        r.rank.as_deref(),
        r.score.as_deref(),
        r.relevance.as_deref(),
        r.weight.as_deref(),
    ];
    if let Some(s) = r
        .sensitive
        .iter()
        .find(|s| named.contains(&Some(s.as_str())))
    {
        return Err(invalid(
            "sensitive",
            s,
            "a column that is not also the query, rank, score, relevance or weight",
        ));
    }
    if !(r.confidence > 0.0 && r.confidence < 1.0) {
        return Err(invalid(
            "confidence",
            r.confidence,
            "a level strictly between 0 and 1, e.g. 0.95",
        ));
    }
    if r.resamples < MIN_RESAMPLES {
        return Err(invalid(
            "resamples",
            r.resamples,
            format!("at least {MIN_RESAMPLES}"),
        ));
    }
    if r.top_k.is_empty() || r.top_k.contains(&0) {
        return Err(invalid(
            "top_k",
            join(&r.top_k),
            "cut-offs of at least 1, e.g. 5,10",
        ));
    }
    let settings = RankingSettings {
        discount: match r.persistence {
            None => Discount::Log2,
            Some(persistence) => Discount::Geometric { persistence },
        },
        top_k: r.top_k.iter().map(|&k| k as usize).collect(),
        fair_p: r.fair_p,
        fair_alpha: r.fair_alpha,
        fair_adjust: true,
        fair_k: r.top_k.iter().copied().max().unwrap_or(DEFAULT_TOP_K) as usize,
    };
    settings.check().map_err(|e| match e {
        fair_metrics::MetricError::InvalidParameter {
            name,
            value,
            expected,
        } => invalid(name, value, expected),
        other => invalid("query", query, other),
    })?;
    if !(r.tau > 0.0 && r.tau <= 1.0) {
        return Err(invalid(
            "tau",
            r.tau,
            "a number in (0, 1], e.g. 0.8 (the four-fifths rule)",
        ));
    }
    let mut gates = Vec::with_capacity(r.fail_if.len());
    for text in &r.fail_if {
        let parsed = fail_if::parse_all(std::slice::from_ref(text))
            .map_err(|e| invalid("fail_if", text, e))?;
        gates.extend(parsed);
    }
    if let Some(g) = gates.iter().find(|g| g.uses_changes()) {
        return Err(invalid(
            "fail_if",
            &g.text,
            "change(…) and p(…) need a comparison, which a ranking audit does not have",
        ));
    }
    Ok(CheckedRequest {
        regression: false,
        request: r.clone(),
        stats: Stats {
            confidence: r.confidence,
            method: r.ci_method,
            resamples: r.resamples,
            seed: r.seed,
            min_group_size: r.min_group_size,
        },
        limits: GroupLimits {
            max_groups: r.max_groups.unwrap_or(DEFAULT_MAX_GROUPS),
            max_groups_given: r.max_groups.is_some(),
            allow_single_group: r.allow_single_group,
        },
        timezone: None,
        interval: None,
        over_time: None,
        gates,
        views: ReportFormat::views(&r.formats),
        disparity: DisparitySpec::parse(&[], r.tau, r.confidence, &r.sensitive)?,
        ranking: Some(settings),
    })
}

/// What a regression audit (a numeric `target`) takes: a numeric prediction column, a quantile
/// level, and none of the classification-only options.
fn check_regression(r: &AuditRequest, target: &str) -> Result<(), RequestError> {
    if target.trim().is_empty() {
        return Err(invalid(
            "target",
            target,
            "the name of the numeric target column",
        ));
    }
    if !r.label.is_empty() {
        return Err(invalid(
            "target",
            target,
            format!(
                "a target or a label, not both: --target audits a numeric output, --label a classifier (label {:?} given too)",
                r.label
            ),
        ));
    }
    if r.pred.is_none() {
        return Err(invalid(
            "pred",
            "(absent)",
            "the numeric prediction column of a regression audit (--pred y_hat)",
        ));
    }
    if !(0.0..=1.0).contains(&r.quantile) {
        return Err(invalid(
            "quantile",
            r.quantile,
            "a level in [0, 1] (0.5: the median)",
        ));
    }
    let classification_only: [(&'static str, bool, &str); 7] = [
        (
            "disparity_reference",
            !r.disparity_reference.is_empty(),
            "reference-group disparities compare a classifier's confusion rates",
        ),
        (
            "tau",
            r.tau != DEFAULT_TAU,
            "the parity band applies to a classifier's disparities",
        ),
        (
            "multiple_testing",
            r.multiple_testing != MultipleTesting::None,
            "the adjustment over the report's gaps is not available for a numeric target yet (its windows' changes are adjusted by Benjamini–Hochberg already)",
        ),
        (
            "score",
            r.score.is_some(),
            "a score column is a classifier's (the prediction itself is the number audited)",
        ),
        (
            "thresholds",
            !r.thresholds.is_empty(),
            "thresholds turn a score into decisions; a regression audit measures the prediction itself (its scoring rate is the share above the median)",
        ),
        (
            "interval",
            r.interval.is_some(),
            "partial parity is measured on a classifier's scores",
        ),
        (
            "against",
            r.against.is_some(),
            "the paired comparison is not available for a numeric target yet; compare two audits with `fairkit compare`",
        ),
    ];
    if let Some((param, _, why)) = classification_only.iter().find(|c| c.1) {
        return Err(invalid(
            param,
            "(given)",
            format!("not with --target: {why}"),
        ));
    }
    Ok(())
}

fn join<T: ToString>(v: &[T]) -> String {
    v.iter().map(T::to_string).collect::<Vec<_>>().join(",")
}

/// Serde through the one vocabulary: a `string_enum!` type as its name.
mod by_name {
    use super::*;
    use std::fmt::Display;
    use std::str::FromStr;

    pub fn serialize<T: Display, S: Serializer>(value: &T, s: S) -> Result<S::Ok, S::Error> {
        s.collect_str(value)
    }

    pub fn deserialize<'de, T, D>(d: D) -> Result<T, D::Error>
    where
        T: FromStr,
        T::Err: Display,
        D: Deserializer<'de>,
    {
        let name = String::deserialize(d)?;
        name.parse().map_err(serde::de::Error::custom)
    }
}

/// The reference entries as a string, a list of strings or a map `{slice: group}` (Python's
/// dict), all read as the list of `SLICE=GROUP` / rule entries.
mod references {
    use super::*;
    use std::collections::BTreeMap;

    #[derive(Deserialize)]
    #[serde(untagged)]
    enum Forms {
        One(String),
        Many(Vec<String>),
        Map(BTreeMap<String, String>),
    }

    pub fn deserialize<'de, D: Deserializer<'de>>(d: D) -> Result<Vec<String>, D::Error> {
        Ok(match Forms::deserialize(d).map_err(|_| {
            serde::de::Error::custom(
                "disparity_reference: expected \"largest\", \"min_metric\", a list of such words and SLICE=GROUP entries, or a map {slice: group}",
            )
        })? {
            Forms::One(s) => vec![s],
            Forms::Many(v) => v,
            Forms::Map(m) => m.into_iter().map(|(k, v)| format!("{k}={v}")).collect(),
        })
    }
}

/// Serde of a list of `string_enum!` values by name (one name alone is a list of one).
mod by_name_list {
    use super::*;

    #[derive(Deserialize)]
    #[serde(untagged)]
    enum OneOrMany {
        One(String),
        Many(Vec<String>),
    }

    pub fn serialize<S: Serializer>(value: &[ReportFormat], s: S) -> Result<S::Ok, S::Error> {
        s.collect_seq(value.iter().map(ReportFormat::as_str))
    }

    pub fn deserialize<'de, D: Deserializer<'de>>(d: D) -> Result<Vec<ReportFormat>, D::Error> {
        let names = match OneOrMany::deserialize(d)? {
            OneOrMany::One(n) => vec![n],
            OneOrMany::Many(v) => v,
        };
        names
            .iter()
            .map(|n| n.parse().map_err(serde::de::Error::custom))
            .collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn base() -> AuditRequest {
        AuditRequest {
            label: "y".into(),
            pred: Some("p".into()),
            sensitive: vec!["g".into()],
            ..AuditRequest::default()
        }
    }

    #[test]
    fn defaults_are_the_commands() {
        let r = AuditRequest::default();
        assert_eq!(r.resamples, 1000);
        assert_eq!(r.interval, None);
        assert_eq!(r.min_group_size, 30);
        assert!((r.confidence - 0.95).abs() < f64::EPSILON);
        assert!(base().check().is_ok());
    }

    #[test]
    fn each_bad_option_is_named() {
        let cases: Vec<(AuditRequest, &str)> = vec![
            (
                AuditRequest {
                    confidence: 1.5,
                    ..base()
                },
                "confidence",
            ),
            (
                AuditRequest {
                    resamples: 0,
                    ..base()
                },
                "resamples",
            ),
            (
                AuditRequest {
                    sensitive: vec![],
                    ..base()
                },
                "sensitive",
            ),
            (
                AuditRequest {
                    interval: Some(vec![0.5, 0.1]),
                    score: Some("s".into()),
                    ..base()
                },
                "interval",
            ),
            (
                AuditRequest {
                    interval: Some(vec![0.1, 0.5]),
                    ..base()
                },
                "interval",
            ),
            (
                AuditRequest {
                    window: Window::Week,
                    ..base()
                },
                "window",
            ),
            (
                AuditRequest {
                    by: Some("g".into()),
                    ..base()
                },
                "by",
            ),
            (
                AuditRequest {
                    against: Some("p".into()),
                    ..base()
                },
                "against",
            ),
            (
                AuditRequest {
                    fail_if: vec!["change(dp_difference) > 0".into()],
                    ..base()
                },
                "fail_if",
            ),
            (
                AuditRequest {
                    fail_if: vec!["dp_difference >".into()],
                    ..base()
                },
                "fail_if",
            ),
            (
                AuditRequest {
                    pred: None,
                    ..base()
                },
                "pred",
            ),
            (
                AuditRequest {
                    unknown_values: vec!["NA".into()],
                    ..base()
                },
                "unknown_values",
            ),
            (
                AuditRequest {
                    unknown_values: vec!["a\u{1f}b".into()],
                    unknowns: Unknowns::Exclude,
                    ..base()
                },
                "unknown_values",
            ),
        ];
        for (request, param) in cases {
            assert_eq!(request.check().unwrap_err().param, param);
        }
    }

    #[test]
    fn deserialises_by_name_and_refuses_unknown_keys() {
        let r: AuditRequest = serde_json::from_str(
            r#"{"label":"y","pred":"p","sensitive":["g"],"ci_method":"clopper-pearson","formats":"json","by":"d","window":"month","baseline":"previous"}"#,
        )
        .unwrap();
        assert_eq!(r.ci_method, RateCiMethod::ClopperPearson);
        assert_eq!(r.formats, vec![ReportFormat::Json]);
        assert_eq!(r.window, Window::Month);
        let e = serde_json::from_str::<AuditRequest>(r#"{"window":"fortnight"}"#).unwrap_err();
        assert!(
            e.to_string()
                .starts_with(r#"unknown window "fortnight": expected one of "value""#),
            "{e}"
        );
        assert!(serde_json::from_str::<AuditRequest>(r#"{"n_resamples":5}"#).is_err());
        let back: AuditRequest = serde_json::from_str(&serde_json::to_string(&r).unwrap()).unwrap();
        assert_eq!(back, r);
    }
}
