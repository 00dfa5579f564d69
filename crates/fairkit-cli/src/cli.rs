//! The command line: `fairkit audit` and `fairkit demo-data` (clap derive).

use crate::input::Format;
use clap::{Args, Parser, Subcommand, ValueEnum};
use std::path::PathBuf;

/// Audit a model's predictions for group fairness, with uncertainty, from one command.
#[derive(Debug, Parser)]
#[command(name = "fairkit", version, about, long_about = None)]
pub struct Cli {
    /// What to do.
    #[command(subcommand)]
    pub command: Command,
}

/// The subcommands.
#[derive(Debug, Subcommand)]
pub enum Command {
    /// Audit a predictions file (CSV or Parquet, any size) per sensitive group.
    Audit(Box<AuditArgs>),
    /// Write a synthetic predictions file with real group gaps, to try `audit` on.
    DemoData(DemoArgs),
    /// Compare two audits (a new model against the old, this week against last): every gap
    /// before and after, the change with its interval and p-value.
    Compare(CompareArgs),
    /// The NYC Local Law 144 bias-audit tables of an automated employment decision tool: the
    /// selection (or scoring) rate and impact ratio per sex, race/ethnicity and intersectional
    /// category, the unknown categories, the < 2 % exclusion, as CSV, markdown, HTML and JSON.
    Ll144(Box<Ll144Args>),
    /// Check a report.json against the audit JSON schema (exit 0 = valid, 2 = invalid).
    ///
    /// Example: `fairkit validate-report report/report.json`
    ValidateReport {
        /// The report.json to check.
        file: PathBuf,
    },
}

/// Arguments of `fairkit compare`.
#[derive(Debug, Args)]
#[command(
    after_long_help = "Example:\n  fairkit audit old.parquet --label y --pred y_hat --sensitive race --out old/\n  fairkit audit new.parquet --label y --pred y_hat --sensitive race --out new/\n  fairkit compare old/ new/ --out change/ --fail-if-worse dp_difference,eo_difference"
)]
pub struct CompareArgs {
    /// The first audit: its report.json, the report directory holding it, a `--state-dir`
    /// directory (the audit of every row appended to it, from its counts), or a predictions
    /// file audited with the flags after `--`.
    ///
    /// Example: `old/report.json`
    pub before: PathBuf,

    /// The second audit, likewise.
    ///
    /// Example: `new/`
    pub after: PathBuf,

    /// Output directory (created if missing): compare.json, compare.md, compare.html.
    ///
    /// Example: `--out change/`
    #[arg(long, value_name = "DIR", default_value = "fairkit-compare")]
    pub out: PathBuf,

    /// Confidence level of the change intervals (the p-value rule is p < 1 − confidence).
    ///
    /// Example: `--confidence 0.99`
    #[arg(long, default_value_t = 0.95)]
    pub confidence: f64,

    /// Bootstrap resamples per gap.
    ///
    /// Example: `--resamples 2000`
    #[arg(long, value_name = "N", default_value_t = 1000)]
    pub resamples: usize,

    /// Seed of the bootstrap (same seed, same comparison).
    ///
    /// Example: `--seed 7`
    #[arg(long, default_value_t = 0)]
    pub seed: u64,

    /// Exit with code 1 when any of these gaps (report keys, comma-separated) got worse — a
    /// difference up or a ratio down — distinguishably (p < 1 − confidence), in any slice: a CI
    /// gate for a new model.
    ///
    /// Example: `--fail-if-worse dp_difference,eo_ratio`
    #[arg(long, value_name = "KEYS", value_delimiter = ',')]
    pub fail_if_worse: Vec<String>,

    /// Exit with code 1 when this expression holds. `change(KEY)` is a count gap's change (after
    /// minus before) and `p(KEY)` its p-value (a bare `p`: of the one change in its `and` group);
    /// all the terms of an `and` group read the same slice, so the gate fails when one slice has
    /// them all. Plain keys (dp_difference, …) read the AFTER audit's headline. Repeatable.
    ///
    /// Example: `--fail-if "change(dp_difference) > 0.02 and p < 0.01"`
    #[arg(long, value_name = "EXPR")]
    pub fail_if: Vec<String>,

    /// For an AFTER predictions file: audit this score column instead of the `--score` of the
    /// audit flags. With the same file as BEFORE, this compares two models' score columns on
    /// the same rows (the score gaps' changes hold whatever the dependence).
    ///
    /// Example: `fairkit compare f.csv f.csv --after-score new_p -- --label y --score old_p
    /// --threshold 0.5 --sensitive race`
    #[arg(long, value_name = "COLUMN")]
    pub after_score: Option<String>,

    /// For an AFTER predictions file: audit this prediction column instead of the `--pred` of
    /// the audit flags (for a paired comparison of two prediction columns of one file, prefer
    /// `fairkit audit --pred OLD --against NEW`).
    ///
    /// Example: `--after-pred new_pred`
    #[arg(long, value_name = "COLUMN")]
    pub after_pred: Option<String>,

    /// Compare what the two audits share when their slices, thresholds or groups do not match
    /// (without it, such audits are refused with exit code 2, naming the differences). What
    /// was left out is said in the summary.
    #[arg(long)]
    pub allow_partial: bool,

    /// Print nothing but errors.
    #[arg(long, short)]
    pub quiet: bool,

    /// `fairkit audit` flags, after `--`, for a BEFORE or AFTER that is a predictions file (CSV
    /// or Parquet, a folder of parts): each such file is audited with them first (into
    /// OUT/before/ and OUT/after/), then compared.
    ///
    /// Example: `fairkit compare old.parquet new.parquet --out change/ -- --label y --pred y_hat
    /// --sensitive race`
    #[arg(last = true, value_name = "AUDIT FLAGS")]
    pub audit_flags: Vec<String>,
}

// The value vocabularies are the library's (`fair_core::string_enum!`): clap parses them with
// their `FromStr`, so `--window fortnight` fails with the message Python's `window="fortnight"`
// gets.
pub use fair_audit::over_time::{Baseline, Window};
pub use fair_audit::request::ReportFormat;
pub use fair_metrics::ci::RateCiMethod;

/// Parses a flag value with the library type's `FromStr` (one vocabulary for every front end).
fn by_name<T>(text: &str) -> Result<T, String>
where
    T: std::str::FromStr,
    T::Err: std::fmt::Display,
{
    text.parse().map_err(|e: T::Err| e.to_string())
}

impl AuditArgs {
    /// `fairkit audit`'s arguments with every flag at its default, for `inputs` and the
    /// columns: what a front end that is not the command line (Python's `fairkit.audit(path)`)
    /// starts from before setting its own values.
    ///
    /// ```
    /// let args = fairkit_cli::cli::AuditArgs::with_defaults(vec!["preds.csv".into()], "y", &["race"]);
    /// assert_eq!(args.resamples, fair_audit::request::DEFAULT_RESAMPLES);
    /// assert_eq!(args.sensitive, ["race"]);
    /// ```
    pub fn with_defaults(inputs: Vec<PathBuf>, label: &str, sensitive: &[&str]) -> Self {
        let parsed =
            Cli::try_parse_from(["fairkit", "audit", "-", "--label", "-", "--sensitive", "-"]);
        // The argument list is fixed and valid: the command's own tests parse it.
        let Ok(Cli {
            command: Command::Audit(mut args),
        }) = parsed
        else {
            unreachable!("the fixed audit argument list parses")
        };
        args.input = inputs;
        args.label = label.to_string();
        args.sensitive = sensitive.iter().map(|s| s.to_string()).collect();
        *args
    }
}

/// Arguments of `fairkit audit`.
#[derive(Debug, Args)]
#[command(after_long_help = AUDIT_EXAMPLES)]
pub struct AuditArgs {
    /// The predictions: a .csv/.tsv file (header row required; also compressed, .csv.gz or
    /// .csv.zst), a .parquet file, or a folder of part files as Spark and pandas write them
    /// (`_SUCCESS`, `.crc` and other names starting with `_` or `.` are skipped), or a quoted
    /// pattern such as 'data/*.parquet'. Several may be given: their rows are read in order,
    /// each folder's and pattern's files in sorted path order.
    ///
    /// Example: `fairkit audit preds.parquet --label y --pred y_hat --sensitive race,sex`
    #[arg(required = true, num_args = 1.., value_name = "INPUT")]
    pub input: Vec<PathBuf>,

    /// Column with the true label (two distinct values; see --pos-label).
    ///
    /// Example: `--label y`
    #[arg(
        long,
        value_name = "COLUMN",
        default_value = "",
        hide_default_value = true,
        required_unless_present_any = ["target", "query"],
        conflicts_with_all = ["target", "query"]
    )]
    pub label: String,

    /// Column with a numeric target: audits the numeric prediction in --pred (a predicted
    /// grade, a credit limit, a risk score read as a number) instead of a classifier — per
    /// group mean prediction, residual, MAE, RMSE, R², a quantile and the LL144 scoring rate,
    /// the gaps between groups, and the distances between the groups' predictions.
    ///
    /// Example: `--target grade --pred grade_hat`
    #[arg(long, value_name = "COLUMN")]
    pub target: Option<String>,

    /// With --target: the level of each group's quantile of the prediction (0.5: the median).
    ///
    /// Example: `--quantile 0.9`
    #[arg(long, value_name = "LEVEL", default_value_t = fair_audit::request::DEFAULT_QUANTILE)]
    pub quantile: f64,

    /// Column with the query id: audits rankings (each query's rows are one ranking, ordered
    /// by --rank, or by --score highest first) instead of a classifier — per group exposure
    /// and its ratio to the group's share of items, exposure and clicks per unit of relevance
    /// (Singh & Joachims' treatment and impact), NDCG, top-k shares and FA*IR's test per query,
    /// with intervals from resampling queries.
    ///
    /// Example: `--query q --rank position --sensitive gender --relevance rel`
    #[arg(long, value_name = "COLUMN", conflicts_with = "target")]
    pub query: Option<String>,

    /// With --query: the rank of each item in its query (1 = top; equal ranks tie and share
    /// their positions).
    ///
    /// Example: `--rank position`
    #[arg(long, value_name = "COLUMN", requires = "query")]
    pub rank: Option<String>,

    /// With --query: the relevance (utility, ≥ 0) of each item, for the treatment and impact
    /// ratios and NDCG.
    ///
    /// Example: `--relevance rel`
    #[arg(long, value_name = "COLUMN", requires = "query")]
    pub relevance: Option<String>,

    /// With --query: the top-k cut-offs of the groups' top-k shares, comma-separated; FA*IR's
    /// test runs over the largest.
    ///
    /// Example: `--top-k 5,10`
    #[arg(long, value_name = "K", value_delimiter = ',', default_values_t = [fair_audit::request::DEFAULT_TOP_K], requires = "query")]
    pub top_k: Vec<u64>,

    /// With --query: a geometric (rank-biased precision) discount, persistence^(position − 1),
    /// instead of 1/log2(1 + position); in (0, 1).
    ///
    /// Example: `--persistence 0.8`
    #[arg(long, value_name = "P", requires = "query")]
    pub persistence: Option<f64>,

    /// With --query: FA*IR's target share of each tested group (default: the group's share of
    /// each query's items).
    ///
    /// Example: `--fair-p 0.5`
    #[arg(long, value_name = "P", requires = "query")]
    pub fair_p: Option<f64>,

    /// With --query: FA*IR's significance level (corrected for testing every prefix).
    ///
    /// Example: `--fair-alpha 0.05`
    #[arg(long, value_name = "ALPHA", default_value_t = fair_audit::request::DEFAULT_FAIR_ALPHA, requires = "query")]
    pub fair_alpha: f64,

    /// Column with the model's predicted label (same two values as the label); with --target,
    /// the numeric prediction. Without it, predictions are `score >= threshold` for each
    /// --threshold.
    ///
    /// Example: `--pred y_hat`
    #[arg(long, value_name = "COLUMN", visible_alias = "prediction")]
    pub pred: Option<String>,

    /// Column with the model's score (probability or margin). Enables per-group AUC, ROC
    /// curves, the exact KS gaps (DP-Δ, EO-Δ) and partial SP.
    ///
    /// Example: `--score p`
    #[arg(long, value_name = "COLUMN")]
    pub score: Option<String>,

    /// Sensitive columns, comma-separated (text, integer or boolean values = group names).
    /// With two or more, their intersection is audited too.
    ///
    /// Example: `--sensitive race,sex`
    #[arg(
        long,
        value_name = "COLUMNS",
        value_delimiter = ',',
        required_unless_present = "sensitive_proba"
    )]
    pub sensitive: Vec<String>,

    /// What a row whose sensitive value is unknown (null, empty, or listed with
    /// --unknown-values) does: `as-group` (the group "(unknown)" of its column, flagged in the
    /// report), `exclude` (counted in the report, kept out of every rate, gap and overall
    /// figure) or `error` (default: the audit stops naming the row, as before the option;
    /// docs/conventions.md says why). The report gives the unknown count per column either way.
    ///
    /// Example: `--unknowns exclude`
    #[arg(long, value_name = "HANDLING", value_parser = by_name::<fair_audit::ingest::Unknowns>, default_value = "error")]
    pub unknowns: fair_audit::ingest::Unknowns,

    /// Sensitive values that mean "unknown" besides a null and an empty value, comma-separated,
    /// compared with the value as text (`99` matches an integer column's 99). Needs
    /// --unknowns as-group or exclude.
    ///
    /// Example: `--unknown-values NA,99`
    #[arg(
        long,
        value_name = "VALUES",
        value_delimiter = ',',
        allow_hyphen_values = true
    )]
    pub unknown_values: Vec<String>,

    /// Column with non-negative sample weights.
    ///
    /// Example: `--weight w`
    #[arg(long, value_name = "COLUMN")]
    pub weight: Option<String>,

    /// The label value meaning "positive" (compared as text, then as a number, then as a
    /// boolean: `1` matches `1.0` and `true`).
    ///
    /// Example: `--pos-label yes`
    #[arg(
        long,
        value_name = "VALUE",
        default_value = "1",
        allow_hyphen_values = true
    )]
    pub pos_label: String,

    /// The label value meaning "negative". Default: the first other value seen; a third
    /// value is then an error.
    ///
    /// Example: `--neg-label no`
    #[arg(long, value_name = "VALUE", allow_hyphen_values = true)]
    pub neg_label: Option<String>,

    /// Decision thresholds on the score, comma-separated: one audit per threshold,
    /// predicting positive when `score >= threshold`. Needs --score; conflicts with --pred.
    ///
    /// Example: `--threshold 0.5,0.7`
    #[arg(
        long,
        value_name = "T,T",
        value_delimiter = ',',
        allow_hyphen_values = true
    )]
    pub threshold: Vec<f64>,

    /// Percentile interval [alpha, beta) of the scores (from the top) on which partial
    /// statistical parity is measured. Needs --score.
    ///
    /// Example: `--interval 0.05,0.3` (ranks 5 %–30 % of each group)
    #[arg(long, value_name = "ALPHA,BETA", value_delimiter = ',', num_args = 1)]
    pub interval: Option<Vec<f64>>,

    /// Confidence level of every interval; gaps whose permutation p-value is below
    /// 1 − confidence are called distinguishable from zero in the summary.
    ///
    /// Example: `--confidence 0.99`
    #[arg(long, value_name = "LEVEL", default_value_t = fair_audit::request::DEFAULT_CONFIDENCE)]
    pub confidence: f64,

    /// Confidence-interval method of the per-group rates.
    ///
    /// Example: `--ci-method clopper-pearson` (`wilson` or `clopper-pearson`)
    #[arg(long, value_name = "METHOD", value_parser = by_name::<RateCiMethod>, default_value = "wilson")]
    pub ci_method: RateCiMethod,

    /// Bootstrap and permutation resamples per gap.
    ///
    /// Example: `--resamples 2000`
    #[arg(long, value_name = "N", default_value_t = fair_audit::request::DEFAULT_RESAMPLES)]
    pub resamples: usize,

    /// Seed of the bootstrap and permutation draws (same seed, same report).
    ///
    /// Example: `--seed 7`
    #[arg(long, default_value_t = 0)]
    pub seed: u64,

    /// Compare with a second model's predictions of the same rows (a column of the same file):
    /// every gap of `--pred` and of this column, the change, its paired bootstrap interval and
    /// p-value (report.json `comparison`, and a section of the report).
    ///
    /// Example: `--pred old_pred --against new_pred`
    #[arg(long, value_name = "COLUMN", conflicts_with = "by")]
    pub against: Option<String>,

    /// Audit over time: one audit per window of this column (a date or timestamp column, or any
    /// key such as a model version), each window's gaps and their change against a baseline
    /// window, beside the audit of all rows (which is unchanged by this flag).
    ///
    /// Example: `--by scored_at --window week`
    #[arg(long, value_name = "COLUMN")]
    pub by: Option<String>,

    /// How `--by` values become windows: their value as is, or the day, ISO week or month of a
    /// date (`YYYY-MM-DD`, optionally followed by a time; a timestamp that carries its time
    /// zone or offset is an instant, read as its day in `--timezone`, UTC by default).
    ///
    /// Example: `--window month` (`value`, `day`, `week` or `month`)
    #[arg(long, value_name = "WINDOW", value_parser = by_name::<Window>, default_value = "value")]
    pub window: Window,

    /// The time zone whose days, weeks and months the windows are, as an IANA name: an instant
    /// (a Parquet/Arrow timestamp with a time zone, or a text timestamp with an offset such as
    /// `2026-01-06T04:30:00Z`) falls in its day in this zone, so a New York evening stays on its
    /// day. Dates and times without a zone are taken as written. Default: UTC.
    ///
    /// Example: `--by scored_at --window week --timezone America/New_York`
    #[arg(long, value_name = "ZONE")]
    pub timezone: Option<String>,

    /// What each window is compared with: the first window, or the one before it.
    ///
    /// Example: `--baseline previous` (`first` or `previous`)
    #[arg(long, value_name = "BASELINE", value_parser = by_name::<Baseline>, default_value = "first")]
    pub baseline: Baseline,

    /// Keep the audit's count state in this directory between runs: a saved state (built with
    /// the same columns and labels) is merged with this run's rows, and the merged state is
    /// saved back, so a daily job audits only the new day (`--by day` then covers every day
    /// seen). An input appended before (same path, size and modification time) is refused, so
    /// a rerun does not count rows twice. Not with `--score` (the exact score metrics keep
    /// every score).
    ///
    /// Example: `--by day --window day --state-dir audits/state`
    #[arg(long, value_name = "DIR")]
    pub state_dir: Option<std::path::PathBuf>,

    /// Minimum group size: a group with fewer rows in a gap's denominator (rows for selection
    /// rate and accuracy, positive rows for TPR, negative rows for FPR; positives and negatives
    /// for AUC and KS) keeps its rates in the tables but is kept out of that gap and the
    /// headline, listed under "Small groups". 0 keeps every group in.
    ///
    /// Example: `--min-group-size 100`
    #[arg(long, value_name = "ROWS", default_value_t = fair_audit::compute::DEFAULT_MIN_GROUP_SIZE)]
    pub min_group_size: u64,

    /// Adjust every gap's p-value for multiple comparisons before calling it distinguishable:
    /// `bh` (Benjamini–Hochberg, false-discovery rate), `by` (Benjamini–Yekutieli, any
    /// dependence), `bonferroni` or `holm` (family-wise error rate), over all the gaps of the
    /// report; the adjusted value is written beside the raw one. `none` (default) keeps each
    /// p-value on its own (docs/conventions.md says why).
    ///
    /// Example: `--multiple-testing bh`
    #[arg(long, value_name = "METHOD", value_parser = by_name::<fair_metrics::ci::MultipleTesting>, default_value = "none")]
    pub multiple_testing: fair_metrics::ci::MultipleTesting,

    /// The reference group of each slice's Aequitas disparities (every rate of every group ÷
    /// the reference group's): `largest` (default, Aequitas' majority group), `min_metric` (per
    /// rate the group with the smallest value; `min` for short), or `SLICE=GROUP` naming one
    /// slice's group (`race=white`; the intersection as `race & sex=white & female`). A rule
    /// word applies to the slices no `SLICE=GROUP` names. Repeatable.
    ///
    /// Example: `--disparity-reference min --disparity-reference race=white`
    #[arg(long, value_name = "RULE|SLICE=GROUP")]
    pub disparity_reference: Vec<String>,

    /// Parity band of the disparities: a group's rate is in parity with the reference's when
    /// their ratio is in [TAU, 1/TAU]; in (0, 1].
    ///
    /// Example: `--tau 0.9`
    #[arg(long, value_name = "TAU", default_value_t = fair_audit::request::DEFAULT_TAU)]
    pub tau: f64,

    /// An inferred sensitive attribute, given as membership probabilities: ATTRIBUTE=COLUMNS,
    /// one column per group, each row's in [0, 1] and summing to 1 within 1e-6. Reported in
    /// the report's inferred section: the weighted and most-likely-group estimates with
    /// intervals and the bounds of every disparity (docs/inferred-groups.md); intersected with
    /// each --sensitive column. Repeatable.
    ///
    /// Example: `--sensitive-proba race=p_white,p_black,p_other`
    #[arg(long, value_name = "ATTRIBUTE=COLUMNS")]
    pub sensitive_proba: Vec<String>,

    /// The column whose values are the proxy cells of the inferred attributes' bounds (the
    /// proxy the probabilities were inferred from, e.g. a surname × tract key); without it,
    /// rows with the same probabilities form a cell.
    ///
    /// Example: `--proxy geo_surname`
    #[arg(long, value_name = "COLUMN")]
    pub proxy: Option<String>,

    /// Largest number of groups a sensitive column (or the intersection) may have; more stops
    /// the audit at once (exit 2) naming the column. Without this flag, a column with a value
    /// on most rows (an identifier, a continuous number) is refused too; giving the flag audits
    /// it as asked.
    ///
    /// Example: `--max-groups 5000`
    #[arg(long, value_name = "N")]
    pub max_groups: Option<usize>,

    /// Audit a sensitive column with a single value (its rates, without gaps) instead of
    /// stopping with exit 2.
    ///
    /// Example: `--allow-single-group`
    #[arg(long)]
    pub allow_single_group: bool,

    /// Output directory (created if missing).
    ///
    /// Example: `--out report/`
    #[arg(long, value_name = "DIR", default_value = "fairkit-report")]
    pub out: PathBuf,

    /// Report formats to write, comma-separated (`html`, `md`, `json`).
    ///
    /// Example: `--format html,json`
    #[arg(
        long,
        value_parser = by_name::<ReportFormat>,
        value_delimiter = ',',
        default_value = "html,md,json"
    )]
    pub format: Vec<ReportFormat>,

    /// Exit with code 1 when this expression over the headline numbers of report.json holds
    /// (keys: dp_difference, dp_ratio, eo_difference, eo_ratio, eq_odds_difference,
    /// eq_odds_ratio, accuracy_difference, accuracy_ratio, auc_difference, ks_dp, ks_eo, psp;
    /// the disparity keys ppr_disparity, pprev_disparity, precision_disparity, fdr_disparity,
    /// for_disparity, fpr_disparity, fnr_disparity, tpr_disparity, tnr_disparity, npv_disparity
    /// — each the worst group's disparity folded below 1, min(d, 1/d), so `fpr_disparity<0.8`
    /// holds when a group is outside [0.8, 1.25] — and parity_failures, the number of false
    /// parity determinations at --tau;
    /// operators > >= < <=; combine with `and`/`&&`, `or`/`||`). Repeatable: any failing
    /// expression fails the run. With `--against`, `change(KEY)` (the second model's gap minus
    /// the first's) and `p(KEY)` (its p-value; a bare `p` for the one change of its `and` group)
    /// gate on the paired comparison, slice by slice.
    ///
    /// Example: `--fail-if "dp_difference>0.1 or eo_ratio<0.8"`,
    /// `--against new_pred --fail-if "change(dp_difference) > 0.02 and p < 0.01"`
    #[arg(long, value_name = "EXPR")]
    pub fail_if: Vec<String>,

    /// Declare the expected groups of a sensitive column; a declared group with no rows is an
    /// error (exit 2). Repeatable.
    ///
    /// Example: `--groups sex=female,male`
    #[arg(long, value_name = "COLUMN=V1,V2,...")]
    pub groups: Vec<String>,

    /// Field delimiter of a CSV file (one character; `\t` for tab).
    ///
    /// Example: `--delimiter ';'`
    #[arg(long, value_name = "CHAR", default_value = ",")]
    pub delimiter: String,

    /// Read the file as this format instead of guessing from its extension (a gzip or zstd
    /// compressed CSV is recognised by its first bytes).
    ///
    /// Example: `--input-format csv`
    #[arg(long, value_enum)]
    pub input_format: Option<Format>,

    /// Rows decoded per batch (memory of the reader is one batch).
    ///
    /// Example: `--batch-rows 131072`
    #[arg(long, value_name = "N", default_value_t = 65536)]
    pub batch_rows: usize,

    /// Memory budget of the score rows (KS, AUC, partial SP keep every row's score: 8 bytes a
    /// row, 16 when weighted), e.g. `512MiB`, `4GiB`. Above it the rows are sorted and spilled
    /// to a temporary file in --spill-dir and merged back at the end: the results are exactly
    /// the same, only slower. Default: a quarter of the machine's RAM.
    ///
    /// Example: `--memory-budget 2GiB`
    #[arg(long, value_name = "SIZE")]
    pub memory_budget: Option<String>,

    /// Directory of the temporary file score rows are spilled to above --memory-budget (it is
    /// deleted when the audit ends). Default: the system's temporary directory ($TMPDIR).
    ///
    /// Example: `--spill-dir /mnt/scratch`
    #[arg(long, value_name = "DIR")]
    pub spill_dir: Option<PathBuf>,

    /// No progress bar and no summary on stderr.
    #[arg(long, short)]
    pub quiet: bool,
}

const AUDIT_EXAMPLES: &str = "\
Examples:
  fairkit demo-data --rows 1000000 --out preds.parquet --seed 1
  fairkit audit preds.parquet --label y --pred y_hat --score p --sensitive race,sex --weight w
  fairkit audit preds.parquet --label y --score p --threshold 0.5,0.7 --interval 0.05,0.3 \\
      --sensitive race --out report/ --format html,json --fail-if \"dp_difference>0.1\"
  fairkit audit spark-out.parquet/ --label y --pred y_hat --sensitive race   (a folder of parts)
  fairkit audit 'data/*.parquet' --label y --pred y_hat --sensitive race     (quoted pattern)
  fairkit audit preds.csv.gz --label y --pred y_hat --sensitive race

Exit codes: 0 = audited (and no --fail-if held), 1 = a --fail-if expression held,
2 = bad input or flags (the message names the file, row and column).";

/// Output compression of demo-data's Parquet file.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum Compression {
    /// Snappy pages (the Spark/pandas default).
    Snappy,
    /// Gzip pages.
    Gzip,
    /// Zstandard pages.
    Zstd,
    /// No compression.
    None,
}

/// Arguments of `fairkit demo-data`.
#[derive(Debug, Args)]
#[command(
    after_long_help = "Example:\n  fairkit demo-data --rows 1000000 --out preds.parquet --seed 1\n  fairkit audit preds.parquet --label y --pred y_hat --score p --sensitive race,sex --weight w"
)]
pub struct DemoArgs {
    /// Number of rows.
    ///
    /// Example: `--rows 10000000`
    #[arg(long, default_value_t = 100_000)]
    pub rows: u64,

    /// Output file; the extension (.parquet or .csv) picks the format.
    ///
    /// Example: `--out preds.parquet`
    #[arg(long, value_name = "FILE")]
    pub out: PathBuf,

    /// Seed of the generator (same seed, same file).
    ///
    /// Example: `--seed 7`
    #[arg(long, default_value_t = 0)]
    pub seed: u64,

    /// Page compression of a Parquet output.
    ///
    /// Example: `--compression zstd`
    #[arg(long, value_enum, default_value_t = Compression::Snappy)]
    pub compression: Compression,

    /// No progress bar.
    #[arg(long, short)]
    pub quiet: bool,
}

/// What `fairkit ll144` writes.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum Ll144Format {
    /// One CSV per table: ll144_sex.csv, ll144_race.csv, ll144_intersection.csv.
    Csv,
    /// ll144.md.
    Md,
    /// ll144.html (self-contained).
    Html,
    /// ll144.json.
    Json,
}

/// Arguments of `fairkit ll144`.
#[derive(Debug, Clone, Args)]
#[command(
    after_long_help = "Examples:\n  fairkit ll144 applicants.csv --sex sex --race race --selected hired --out ll144/\n  fairkit ll144 scores.parquet --sex sex --race race --score score --unknown-values ,NA,Unknown \\\n      --data-source \"2025 applicants, all NYC postings\" --audit-date 2026-03-31 --out ll144/\n\nExit codes: 0 = tables written, 2 = bad input or flags (the message names the file, row and column)."
)]
pub struct Ll144Args {
    /// Applicant files (CSV, compressed CSV or Parquet), folders of part files or quoted
    /// patterns, read as one input.
    ///
    /// Example: `applicants.parquet`
    #[arg(required = true, value_name = "FILE")]
    pub input: Vec<PathBuf>,

    /// The sex column.
    ///
    /// Example: `--sex sex`
    #[arg(long, value_name = "COL")]
    pub sex: String,

    /// The race/ethnicity column.
    ///
    /// Example: `--race race_ethnicity`
    #[arg(long, value_name = "COL")]
    pub race: String,

    /// A tool that selects: the 0/1 column of who was selected (moved forward or classified).
    ///
    /// Example: `--selected advanced`
    #[arg(
        long,
        value_name = "COL",
        required_unless_present = "score",
        conflicts_with = "score"
    )]
    pub selected: Option<String>,

    /// The value of --selected that means selected (then any one other value means not
    /// selected; with the default 1 the other must be 0).
    ///
    /// Example: `--selected-value yes`
    #[arg(long, value_name = "V", default_value = "1", requires = "selected")]
    pub selected_value: String,

    /// A tool that scores: the numeric score column (scoring rate = the share of a category
    /// scored strictly above the median score of the whole sample).
    ///
    /// Example: `--score score`
    #[arg(long, value_name = "COL")]
    pub score: Option<String>,

    /// Sample weights (applicants then count by weight; intervals use Kish's effective n).
    ///
    /// Example: `--weight w`
    #[arg(long, value_name = "COL")]
    pub weight: Option<String>,

    /// Values of the sex or race column that are an unknown category (counted, listed, not
    /// part of the impact ratios), comma-separated; an empty item is an empty or missing value.
    ///
    /// Example: `--unknown-values ,NA,Unknown`
    #[arg(long, value_name = "V,...", value_delimiter = ',', default_value = "")]
    pub unknown_values: Vec<String>,

    /// Leave a category representing less than this share of the applicants out of the impact
    /// ratios (its count and rate are still reported; the exclusion is disclosed). In [0, 0.5).
    ///
    /// Example: `--exclude-below 0.02`
    #[arg(long, value_name = "SHARE", default_value_t = fair_audit::ll144::DEFAULT_EXCLUDE_BELOW)]
    pub exclude_below: f64,

    /// Exclude no category from the impact ratios.
    #[arg(long, conflicts_with = "exclude_below")]
    pub no_exclusion: bool,

    /// The audit's data-source description (published with the tables).
    ///
    /// Example: `--data-source "Applicants to NYC postings, 2025-01-01 to 2025-12-31"`
    #[arg(long, value_name = "TEXT")]
    pub data_source: Option<String>,

    /// The audit's date, YYYY-MM-DD.
    ///
    /// Example: `--audit-date 2026-03-31`
    #[arg(long, value_name = "YYYY-MM-DD")]
    pub audit_date: Option<String>,

    /// Level of the Wilson intervals beside the rates.
    ///
    /// Example: `--confidence 0.99`
    #[arg(long, value_name = "LEVEL", default_value_t = 0.95)]
    pub confidence: f64,

    /// Output directory (created if missing).
    ///
    /// Example: `--out ll144/`
    #[arg(long, value_name = "DIR", default_value = "fairkit-ll144")]
    pub out: PathBuf,

    /// What to write, comma-separated.
    ///
    /// Example: `--format csv,html`
    #[arg(
        long,
        value_enum,
        value_delimiter = ',',
        default_value = "csv,md,html,json"
    )]
    pub format: Vec<Ll144Format>,

    /// Force the input format instead of guessing from the extension.
    #[arg(long, value_enum, value_name = "FORMAT")]
    pub input_format: Option<Format>,

    /// CSV field delimiter (one character; `\t` for tab).
    #[arg(long, default_value = ",")]
    pub delimiter: String,

    /// Rows decoded per batch.
    #[arg(long, value_name = "N", default_value_t = 65536)]
    pub batch_rows: usize,

    /// Memory budget of the score rows (8 bytes a row, 16 weighted), e.g. `2GiB`; above it they
    /// are spilled to a temporary file and merged back, with exactly the same result. Default: a
    /// quarter of the machine's RAM.
    #[arg(long, value_name = "SIZE")]
    pub memory_budget: Option<String>,

    /// Directory of the temporary spill file. Default: the system's temporary directory.
    #[arg(long, value_name = "DIR")]
    pub spill_dir: Option<PathBuf>,

    /// No summary on stderr.
    #[arg(long, short)]
    pub quiet: bool,
}

impl Ll144Args {
    /// `fairkit ll144`'s arguments with every flag at its default (a selecting tool, no column
    /// of selection named yet): what Python's `fairkit.ll144` starts from before setting its own
    /// values.
    ///
    /// ```
    /// let args = fairkit_cli::cli::Ll144Args::with_defaults(vec!["a.csv".into()], "sex", "race");
    /// assert_eq!(args.exclude_below, fair_audit::ll144::DEFAULT_EXCLUDE_BELOW);
    /// assert_eq!(args.unknown_values, [""]);
    /// ```
    pub fn with_defaults(inputs: Vec<PathBuf>, sex: &str, race: &str) -> Self {
        let parsed = Cli::try_parse_from([
            "fairkit",
            "ll144",
            "-",
            "--sex",
            "-",
            "--race",
            "-",
            "--selected",
            "-",
        ]);
        // The argument list is fixed and valid: the doctest above parses it.
        let Ok(Cli {
            command: Command::Ll144(args),
        }) = parsed
        else {
            unreachable!("the fixed ll144 arguments parse")
        };
        let mut args = *args;
        args.input = inputs;
        args.sex = sex.to_string();
        args.race = race.to_string();
        args.selected = None;
        args
    }
}
