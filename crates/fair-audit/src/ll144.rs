//! The bias-audit tables of NYC Local Law 144 (the DCWP rule, 6 RCNY §§ 5-300 – 5-304) for an
//! automated employment decision tool: per sex category, per race/ethnicity category and per
//! intersectional sex × race/ethnicity category, the number of applicants, the number selected
//! (or scored above the sample's median score), the selection (or scoring) rate and the impact
//! ratio (÷ the highest rate); the individuals in an unknown category, counted and left out of
//! the impact ratios; the optional exclusion of a category under 2 % of the data from the impact
//! ratios, disclosed, its count and rate still reported; the data source and the audit date.
//! Beside every rate, not instead of it, a Wilson interval (Kish effective n when weighted): the
//! rule does not ask for it, an auditor will.
//!
//! Plain data in ([`Ll144Cell`] per sex × race value pair, which a front end counts from its
//! rows), tables out ([`Ll144Report`]), and their text: CSV per table, markdown, HTML and JSON.
//! No file is read or written here.
//!
//! # Example
//! ```
//! use fair_audit::ll144::{Ll144Cell, Ll144Mode, Ll144Settings, ll144_tables};
//! let cell = |sex: &str, race: &str, rows: u64, selected: f64| Ll144Cell {
//!     sex: sex.into(), race: race.into(), rows, weight: rows as f64,
//!     weight_sq: rows as f64, positive: selected,
//! };
//! let cells = [cell("F", "A", 40, 20.0), cell("M", "A", 50, 30.0), cell("M", "", 10, 5.0)];
//! let report = ll144_tables(&cells, &Ll144Settings::new(Ll144Mode::Selection))?;
//! let sex = &report.tables[0];
//! assert_eq!(sex.categories[0].category, "F");
//! assert_eq!(sex.categories[0].rate, Some(0.5));
//! // M: 35 selected of 60 (the 10 of unknown race count in the sex table).
//! assert_eq!(sex.categories[0].impact_ratio, Some(0.5 / (35.0 / 60.0)));
//! // The race table: 10 applicants with no race value are an unknown category.
//! assert_eq!(report.tables[1].unknown_applicants, 10.0);
//! # Ok::<(), fair_audit::ll144::Ll144Error>(())
//! ```

use fair_metrics::ci::{RateCiMethod, rate_interval};
use fair_metrics::state::ExactSumParts;
use fair_report::{HtmlReport, Table, fmt4};
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;
use std::fmt::Write as _;

/// The rule's exclusion threshold: a category under 2 % of the data may be left out of the
/// impact ratios (6 RCNY § 5-301).
pub const DEFAULT_EXCLUDE_BELOW: f64 = 0.02;

/// The JSON's `schema` value.
pub const LL144_SCHEMA: &str = "fairkit-ll144 v1";

/// What the tool does with an applicant.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Ll144Mode {
    /// It selects (moves forward, or assigns a classification): selection rates (6 RCNY § 5-301).
    Selection,
    /// It scores: scoring rates, the share scored above the sample's median (6 RCNY § 5-301).
    Scoring,
}

impl Ll144Mode {
    /// The column names of the count and the rate in this mode.
    pub fn names(self) -> (&'static str, &'static str) {
        match self {
            Ll144Mode::Selection => ("selected", "selection_rate"),
            Ll144Mode::Scoring => ("scored_above_median", "scoring_rate"),
        }
    }
}

/// The applicants of one sex value × race/ethnicity value pair (values as written in the data;
/// a null value is `""`).
#[derive(Debug, Clone, PartialEq)]
pub struct Ll144Cell {
    /// The sex value.
    pub sex: String,
    /// The race/ethnicity value.
    pub race: String,
    /// Rows.
    pub rows: u64,
    /// Applicants: the sum of the weights (the rows when unweighted).
    pub weight: f64,
    /// The sum of the squared weights (Kish's effective n; the rows when unweighted).
    pub weight_sq: f64,
    /// Selected applicants, or applicants scored strictly above the whole sample's median score
    /// (weighted).
    pub positive: f64,
}

/// What [`ll144_tables`] computes besides the counts.
#[derive(Debug, Clone, PartialEq)]
pub struct Ll144Settings {
    /// Selection or scoring rates.
    pub mode: Ll144Mode,
    /// Values of the sex or race column that are an unknown category (`""`: empty or null).
    pub unknown_values: Vec<String>,
    /// Leave a category under this share of all applicants out of the impact ratios (`None`:
    /// no exclusion). In `[0, 0.5)`.
    pub exclude_below: Option<f64>,
    /// Level of the Wilson intervals beside the rates.
    pub confidence: f64,
    /// Whether the counts are weighted (the intervals then use Kish's effective n).
    pub weighted: bool,
    /// The sample's median score (scoring mode).
    pub median_score: Option<f64>,
    /// The columns read, as the report names them.
    pub columns: Ll144Columns,
    /// The input, as the report names it.
    pub input: String,
    /// The audit's data-source description (given by the user).
    pub data_source: Option<String>,
    /// The audit's date (given by the user, `YYYY-MM-DD`).
    pub audit_date: Option<String>,
}

impl Ll144Settings {
    /// The rule's defaults: empty/null is unknown, the 2 % exclusion on, 95 % intervals,
    /// unweighted, no median, no columns, source or date named.
    pub fn new(mode: Ll144Mode) -> Self {
        Self {
            mode,
            unknown_values: vec![String::new()],
            exclude_below: Some(DEFAULT_EXCLUDE_BELOW),
            confidence: 0.95,
            weighted: false,
            median_score: None,
            columns: Ll144Columns::default(),
            input: String::new(),
            data_source: None,
            audit_date: None,
        }
    }
}

/// The columns of an LL144 audit.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct Ll144Columns {
    /// The sex column.
    pub sex: String,
    /// The race/ethnicity column.
    pub race: String,
    /// The 0/1 selection column (selection mode).
    pub selected: Option<String>,
    /// The score column (scoring mode).
    pub score: Option<String>,
    /// The weight column.
    pub weight: Option<String>,
}

/// One category's row of a table.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Ll144Row {
    /// The category (`"Female & Black"` in the intersection table; `""` is an empty or null
    /// value).
    pub category: String,
    /// Number of applicants (weighted).
    pub applicants: f64,
    /// Rows.
    pub rows: u64,
    /// The category as the pages show it: an empty (or missing) value named, and in the
    /// intersection table each part shown so.
    pub display: String,
    /// Selected, or scored above the median (weighted).
    pub positive: f64,
    /// The category's share of all applicants.
    pub share: f64,
    /// Selection or scoring rate (`None`: no applicant weight).
    pub rate: Option<f64>,
    /// Rate ÷ the highest rate (`None`: excluded, unknown, or no highest rate above 0).
    pub impact_ratio: Option<f64>,
    /// Left out of the impact ratios for being under the exclusion threshold.
    pub excluded: bool,
    /// An unknown category (not part of the impact ratios).
    pub unknown: bool,
    /// Why the impact ratio is missing, in words (empty otherwise).
    pub note: String,
    /// Wilson interval of the rate (not in the rule: added).
    pub rate_low: Option<f64>,
    /// Upper end of the interval.
    pub rate_high: Option<f64>,
    /// The interval's n: rows, or Kish's effective n when weighted.
    pub effective_n: f64,
}

/// One of the three tables.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Ll144Table {
    /// `sex`, `race` or `intersection`.
    pub name: String,
    /// The heading (`"Sex categories"`, …).
    pub title: String,
    /// The known categories, in name order.
    pub categories: Vec<Ll144Row>,
    /// The unknown categories, counted and listed, not part of the impact ratios.
    pub unknown: Vec<Ll144Row>,
    /// Applicants in an unknown category.
    pub unknown_applicants: f64,
    /// Rows in an unknown category.
    pub unknown_rows: u64,
    /// The category whose rate is the impact ratios' denominator (as the pages show it).
    pub highest: Option<String>,
}

/// The tables and what the rule asks to publish beside them.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Ll144Report {
    /// [`LL144_SCHEMA`].
    pub schema: String,
    /// Selection or scoring.
    pub mode: Ll144Mode,
    /// The input.
    pub input: String,
    /// The columns read.
    pub columns: Ll144Columns,
    /// The data-source description.
    pub data_source: Option<String>,
    /// The audit date.
    pub audit_date: Option<String>,
    /// Number of applicants (weighted), unknowns included.
    pub applicants: f64,
    /// Rows.
    pub rows: u64,
    /// Whether weighted.
    pub weighted: bool,
    /// The sample's median score (scoring mode).
    pub median_score: Option<f64>,
    /// The values counted as unknown (`""`: empty or null).
    pub unknown_values: Vec<String>,
    /// The exclusion threshold (`None`: no exclusion).
    pub exclude_below: Option<f64>,
    /// The intervals' level.
    pub confidence: f64,
    /// The sentence disclosing the exclusions (or that there are none).
    pub exclusion_disclosure: String,
    /// Sex, race/ethnicity, intersection.
    pub tables: Vec<Ll144Table>,
}

/// Why the tables cannot be computed.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
pub enum Ll144Error {
    /// No applicant, or every weight 0.
    #[error(
        "no applicants: the input has {rows} rows and a total weight of {weight}; the tables need at least one applicant of positive weight"
    )]
    NoApplicants {
        /// Rows.
        rows: u64,
        /// Their weight.
        weight: f64,
    },
    /// A setting out of range.
    #[error("{setting} = {value}: expected {expected}")]
    Setting {
        /// The setting (`exclude_below`, `confidence`).
        setting: &'static str,
        /// Its value.
        value: String,
        /// What it must be.
        expected: &'static str,
    },
    /// A cell with non-finite or negative numbers, or more positives than applicants.
    #[error("the counts of sex '{sex}' × race '{race}' are inconsistent: {why}")]
    BadCell {
        /// Sex value.
        sex: String,
        /// Race value.
        race: String,
        /// What is wrong.
        why: String,
    },
}

/// Checks an exclusion threshold: in `[0, 0.5)` (at 0.5 or above two categories could both be
/// "under" it and the rule's "less than 2 %" would mean nothing).
///
/// # Errors
/// [`Ll144Error::Setting`].
pub fn check_exclude_below(t: f64) -> Result<(), Ll144Error> {
    if (0.0..0.5).contains(&t) {
        Ok(())
    } else {
        Err(Ll144Error::Setting {
            setting: "exclude_below",
            value: t.to_string(),
            expected: "a share in [0, 0.5), e.g. 0.02 (the rule's 2 %)",
        })
    }
}

/// Checks an audit date: a calendar date written `YYYY-MM-DD`.
///
/// ```
/// assert!(fair_audit::ll144::check_audit_date("2026-02-28").is_ok());
/// assert!(fair_audit::ll144::check_audit_date("2026-02-30").is_err());
/// ```
///
/// # Errors
/// [`Ll144Error::Setting`].
pub fn check_audit_date(date: &str) -> Result<(), Ll144Error> {
    let ok = date.len() == 10 && chrono::NaiveDate::parse_from_str(date, "%Y-%m-%d").is_ok();
    if ok {
        Ok(())
    } else {
        Err(Ll144Error::Setting {
            setting: "audit_date",
            value: date.to_string(),
            expected: "a calendar date written YYYY-MM-DD, e.g. 2026-03-31",
        })
    }
}

/// Sums of the cells that fall in one category: exact, rounded once when read, so the tables
/// do not depend on the order of the cells (a front end's first-seen order, Spark's partitions).
#[derive(Debug, Clone, Default)]
struct Exact {
    rows: u64,
    weight: ExactSumParts,
    weight_sq: ExactSumParts,
    positive: ExactSumParts,
}

impl Exact {
    /// Adds a checked cell (finite sums `>= 0`, which an exact sum always takes).
    fn add(&mut self, c: &Ll144Cell) {
        self.rows += c.rows;
        for (sum, v) in [
            (&mut self.weight, c.weight),
            (&mut self.weight_sq, c.weight_sq),
            (&mut self.positive, c.positive),
        ] {
            sum.add(v).expect("a checked cell: finite and >= 0");
        }
    }

    fn sums(&self) -> Sums {
        Sums {
            rows: self.rows,
            weight: self.weight.value(),
            weight_sq: self.weight_sq.value(),
            positive: self.positive.value(),
        }
    }
}

/// A category's sums, rounded.
#[derive(Debug, Clone, Copy)]
struct Sums {
    rows: u64,
    weight: f64,
    weight_sq: f64,
    positive: f64,
}

/// The three tables from the cells.
///
/// # Errors
/// [`Ll144Error::NoApplicants`] when no applicant has weight, [`Ll144Error::Setting`] for an
/// exclusion threshold outside `[0, 0.5)` or a confidence outside `(0, 1)`,
/// [`Ll144Error::BadCell`] for inconsistent counts.
pub fn ll144_tables(cells: &[Ll144Cell], s: &Ll144Settings) -> Result<Ll144Report, Ll144Error> {
    if let Some(t) = s.exclude_below {
        check_exclude_below(t)?;
    }
    if let Some(d) = &s.audit_date {
        check_audit_date(d)?;
    }
    if s.confidence.is_nan() || s.confidence <= 0.0 || s.confidence >= 1.0 {
        return Err(Ll144Error::Setting {
            setting: "confidence",
            value: s.confidence.to_string(),
            expected: "a level in (0, 1), e.g. 0.95",
        });
    }
    for c in cells {
        let bad = |why: &str| Ll144Error::BadCell {
            sex: c.sex.clone(),
            race: c.race.clone(),
            why: why.to_string(),
        };
        if ![c.weight, c.weight_sq, c.positive]
            .iter()
            .all(|v| v.is_finite() && *v >= 0.0)
        {
            return Err(bad("a sum is negative or not finite"));
        }
        // Sums of the same weights in another order may differ in the last bits.
        if c.positive > c.weight * (1.0 + 1e-12) {
            return Err(bad("more positives than applicants"));
        }
    }
    let mut all = Exact::default();
    cells.iter().for_each(|c| all.add(c));
    let (rows, total) = (all.rows, all.sums().weight);
    if total <= 0.0 {
        return Err(Ll144Error::NoApplicants {
            rows,
            weight: total,
        });
    }
    let is_unknown = |v: &str| s.unknown_values.iter().any(|u| u == v);
    let mut sex: BTreeMap<&str, Exact> = BTreeMap::new();
    let mut race: BTreeMap<&str, Exact> = BTreeMap::new();
    let mut both: BTreeMap<(&str, &str), Exact> = BTreeMap::new();
    for c in cells {
        sex.entry(&c.sex).or_default().add(c);
        race.entry(&c.race).or_default().add(c);
        both.entry((&c.sex, &c.race)).or_default().add(c);
    }
    let sex_rows: Vec<Group> = sex
        .into_iter()
        .map(|(k, v)| (k.to_string(), shown(k), is_unknown(k), v.sums()))
        .collect();
    let race_rows: Vec<Group> = race
        .into_iter()
        .map(|(k, v)| (k.to_string(), shown(k), is_unknown(k), v.sums()))
        .collect();
    let both_rows: Vec<Group> = both
        .into_iter()
        .map(|((a, b), v)| {
            (
                format!("{a} & {b}"),
                format!("{} & {}", shown(a), shown(b)),
                is_unknown(a) || is_unknown(b),
                v.sums(),
            )
        })
        .collect();
    let tables = vec![
        table("sex", "Sex categories", sex_rows, total, s)?,
        table("race", "Race/ethnicity categories", race_rows, total, s)?,
        table(
            "intersection",
            "Intersectional categories (sex × race/ethnicity)",
            both_rows,
            total,
            s,
        )?,
    ];
    let exclusion_disclosure = disclosure(&tables, s);
    Ok(Ll144Report {
        schema: LL144_SCHEMA.into(),
        mode: s.mode,
        input: s.input.clone(),
        columns: s.columns.clone(),
        data_source: s.data_source.clone(),
        audit_date: s.audit_date.clone(),
        applicants: total,
        rows,
        weighted: s.weighted,
        median_score: s.median_score,
        unknown_values: s.unknown_values.clone(),
        exclude_below: s.exclude_below,
        confidence: s.confidence,
        exclusion_disclosure,
        tables,
    })
}

/// A category's name, its name as the pages show it, whether it is unknown, and its sums.
type Group = (String, String, bool, Sums);

fn table(
    name: &str,
    title: &str,
    groups: Vec<Group>,
    total: f64,
    s: &Ll144Settings,
) -> Result<Ll144Table, Ll144Error> {
    let metric = |e: fair_metrics::MetricError| Ll144Error::Setting {
        setting: "confidence",
        value: format!("{} ({e})", s.confidence),
        expected: "a level in (0, 1)",
    };
    let mut rows = Vec::with_capacity(groups.len());
    for (category, display, unknown, g) in groups {
        let rate = (g.weight > 0.0).then(|| (g.positive / g.weight).min(1.0));
        let effective_n = if s.weighted {
            if g.weight_sq > 0.0 {
                g.weight * g.weight / g.weight_sq
            } else {
                0.0
            }
        } else {
            g.rows as f64
        };
        let interval = match rate {
            Some(p) if effective_n > 0.0 => Some(
                rate_interval(p, effective_n, s.confidence, RateCiMethod::Wilson)
                    .map_err(metric)?,
            ),
            _ => None,
        };
        let share = g.weight / total;
        let excluded = !unknown && s.exclude_below.is_some_and(|t| share < t);
        rows.push(Ll144Row {
            category,
            display,
            applicants: g.weight,
            rows: g.rows,
            positive: g.positive,
            share,
            rate,
            impact_ratio: None,
            excluded,
            unknown,
            note: String::new(),
            rate_low: interval.map(|i| i.lower),
            rate_high: interval.map(|i| i.upper),
            effective_n,
        });
    }
    // The denominator: the highest rate among the known categories kept in the ratios (the
    // first in name order on a tie, so the choice is reproducible).
    let mut highest: Option<(usize, f64)> = None;
    for (i, r) in rows.iter().enumerate() {
        if let (false, false, Some(rate)) = (r.unknown, r.excluded, r.rate)
            && highest.is_none_or(|(_, m)| rate > m)
        {
            highest = Some((i, rate));
        }
    }
    let threshold = s.exclude_below.unwrap_or(0.0);
    for r in &mut rows {
        if r.unknown {
            r.note = "unknown category: counted, not part of the impact ratios".into();
        } else if r.excluded {
            r.note = format!(
                "excluded from the impact ratios: {} of applicants, under {}",
                percent(r.share),
                percent(threshold)
            );
        } else {
            match (r.rate, highest) {
                (Some(rate), Some((_, m))) if m > 0.0 => r.impact_ratio = Some(rate / m),
                (None, _) => r.note = "no applicant weight: no rate".into(),
                _ => r.note = "the highest rate is 0: no impact ratio".into(),
            }
        }
    }
    let highest = highest.map(|(i, _)| rows[i].display.clone());
    let (unknown, categories): (Vec<Ll144Row>, Vec<Ll144Row>) =
        rows.into_iter().partition(|r| r.unknown);
    Ok(Ll144Table {
        name: name.into(),
        title: title.into(),
        unknown_applicants: unknown.iter().map(|r| r.applicants).sum(),
        unknown_rows: unknown.iter().map(|r| r.rows).sum(),
        categories,
        unknown,
        highest,
    })
}

/// A share as a percentage with two decimals (`0.015` → `1.50 %`).
fn percent(share: f64) -> String {
    format!("{:.2} %", share * 100.0)
}

/// A value as the pages show it: the empty (or missing) value named.
fn shown(category: &str) -> String {
    if category.is_empty() {
        "(missing)".into()
    } else {
        category.to_string()
    }
}

fn disclosure(tables: &[Ll144Table], s: &Ll144Settings) -> String {
    let Some(t) = s.exclude_below else {
        return "No category is excluded from the impact ratios (exclusion turned off).".into();
    };
    let (_, rate) = s.mode.names();
    let rate = rate.replace('_', " ");
    let excluded: Vec<String> = tables
        .iter()
        .flat_map(|tb| {
            tb.categories
                .iter()
                .filter(|r| r.excluded)
                .map(move |r| format!("{} {} ({})", tb.name, r.display, percent(r.share)))
        })
        .collect();
    if excluded.is_empty() {
        format!(
            "No category represents less than {} of the applicants: none is excluded from the impact ratios.",
            percent(t)
        )
    } else {
        format!(
            "Excluded from the impact-ratio calculations as representing less than {} of the data (6 RCNY § 5-301): {}. Justification: a category this small gives a rate too uncertain for its impact ratio to be meaningful (see its interval); its number of applicants and {rate} are reported above.",
            percent(t),
            excluded.join("; ")
        )
    }
}

/// A number in a CSV cell: shortest round-trip form, empty when undefined.
fn csv_num(v: Option<f64>) -> String {
    v.map_or_else(String::new, |x| x.to_string())
}

/// A CSV field, quoted when it holds a comma, quote or line break.
fn csv_field(s: &str) -> String {
    if s.contains([',', '"', '\n', '\r']) {
        format!("\"{}\"", s.replace('"', "\"\""))
    } else {
        s.to_string()
    }
}

impl Ll144Report {
    /// The CSV header of every table.
    pub fn csv_header(&self) -> Vec<&'static str> {
        let (count, rate) = self.mode.names();
        vec![
            "category",
            "applicants",
            count,
            rate,
            "impact_ratio",
            "share_of_applicants",
            "excluded",
            "unknown",
            "note",
            "rate_ci_low",
            "rate_ci_high",
            "rows",
            "effective_n",
        ]
    }

    /// One table as CSV: the known categories, then the unknown ones; numbers in full
    /// precision (shortest round-trip form), an undefined value empty.
    pub fn table_csv(&self, table: &Ll144Table) -> String {
        let mut s = self.csv_header().join(",");
        s.push('\n');
        for r in table.categories.iter().chain(&table.unknown) {
            let cells = [
                csv_field(&r.category),
                r.applicants.to_string(),
                r.positive.to_string(),
                csv_num(r.rate),
                csv_num(r.impact_ratio),
                r.share.to_string(),
                r.excluded.to_string(),
                r.unknown.to_string(),
                csv_field(&r.note),
                csv_num(r.rate_low),
                csv_num(r.rate_high),
                r.rows.to_string(),
                r.effective_n.to_string(),
            ];
            let _ = writeln!(s, "{}", cells.join(","));
        }
        s
    }

    /// The JSON (pretty-printed).
    ///
    /// # Errors
    /// A serialization error (not expected: every number is finite or null).
    pub fn to_json(&self) -> Result<String, serde_json::Error> {
        serde_json::to_string_pretty(self)
    }

    /// The page: the audit's facts, the three tables, the unknowns and the exclusions.
    pub fn page(&self) -> HtmlReport {
        let (count, rate) = self.mode.names();
        let mut page = HtmlReport::new("Bias audit: NYC Local Law 144 tables");
        page.heading("Audit");
        let mut facts = vec![
            format!(
                "Data source: {}",
                self.data_source.as_deref().unwrap_or("(not given)")
            ),
            format!(
                "Audit date: {}",
                self.audit_date.as_deref().unwrap_or("(not given)")
            ),
            format!("Input: {}", self.input),
            format!(
                "Number of applicants: {}{}",
                number(self.applicants),
                if self.weighted {
                    format!(" (weighted; {} rows)", self.rows)
                } else {
                    String::new()
                }
            ),
        ];
        match self.mode {
            Ll144Mode::Selection => facts.push(format!(
                "Tool type: selection (column '{}'); selection rate = selected ÷ applicants of the category; impact ratio = selection rate ÷ the highest category's selection rate.",
                self.columns.selected.as_deref().unwrap_or("")
            )),
            Ll144Mode::Scoring => facts.push(format!(
                "Tool type: scoring (column '{}'); median score of the whole sample: {}; scoring rate = share of the category scored strictly above that median (a score equal to the median is not above it); impact ratio = scoring rate ÷ the highest category's scoring rate.",
                self.columns.score.as_deref().unwrap_or(""),
                self.median_score.map_or("–".into(), |m| m.to_string())
            )),
        }
        let unknown: Vec<String> = self
            .unknown_values
            .iter()
            .map(|v| {
                if v.is_empty() {
                    "empty or missing".to_string()
                } else {
                    format!("'{v}'")
                }
            })
            .collect();
        facts.push(format!("Values counted as unknown: {}", unknown.join(", ")));
        facts.push(format!(
            "Intervals: {:.0} % Wilson intervals of each rate{} — not asked for by the rule, added beside the rates.",
            self.confidence * 100.0,
            if self.weighted {
                " with Kish's effective n"
            } else {
                ""
            }
        ));
        page.list(&facts);
        page.heading("Unknown categories");
        let unknown_items: Vec<String> = self
            .tables
            .iter()
            .map(|t| {
                let listed: Vec<String> = t
                    .unknown
                    .iter()
                    .map(|r| format!("{} ({})", r.display, number(r.applicants)))
                    .collect();
                format!(
                    "{}: {} individuals in an unknown category{}",
                    t.title,
                    number(t.unknown_applicants),
                    if listed.is_empty() {
                        String::new()
                    } else {
                        format!(": {}", listed.join(", "))
                    }
                )
            })
            .collect();
        page.list(&unknown_items);
        page.heading("Exclusions")
            .paragraph(&self.exclusion_disclosure);
        let ci = format!("{:.0} % interval", self.confidence * 100.0);
        let (count, rate) = (count.replace('_', " "), rate.replace('_', " "));
        for t in &self.tables {
            let mut table = Table::new(&[
                "category",
                "applicants",
                &count,
                &rate,
                "impact ratio",
                "share",
                "note",
                &ci,
            ]);
            for r in t.categories.iter().chain(&t.unknown) {
                table.text_row(vec![
                    r.display.clone(),
                    number(r.applicants),
                    number(r.positive),
                    fmt4(r.rate),
                    fmt4(r.impact_ratio),
                    percent(r.share),
                    r.note.clone(),
                    match (r.rate_low, r.rate_high) {
                        (Some(a), Some(b)) => format!("[{a:.4}, {b:.4}]"),
                        _ => "–".into(),
                    },
                ]);
            }
            page.heading(&t.title).table(&table);
            if let Some(h) = &t.highest {
                page.paragraph(&format!(
                    "Impact ratios are relative to {h} (the highest {rate})."
                ));
            }
        }
        page
    }
}

/// A count: an integer as an integer, a weighted sum with 4 decimals.
fn number(v: f64) -> String {
    if v.fract() == 0.0 && v.abs() < 1e15 {
        format!("{v:.0}")
    } else {
        format!("{v:.4}")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn cell(sex: &str, race: &str, rows: u64, positive: f64) -> Ll144Cell {
        Ll144Cell {
            sex: sex.into(),
            race: race.into(),
            rows,
            weight: rows as f64,
            weight_sq: rows as f64,
            positive,
        }
    }

    #[test]
    fn bad_settings_and_no_applicants_are_typed_errors() {
        let cells = [cell("F", "A", 2, 1.0)];
        let mut s = Ll144Settings::new(Ll144Mode::Selection);
        for t in [-0.01, 0.5, f64::NAN] {
            s.exclude_below = Some(t);
            assert!(matches!(
                ll144_tables(&cells, &s),
                Err(Ll144Error::Setting {
                    setting: "exclude_below",
                    ..
                })
            ));
        }
        s.exclude_below = Some(0.0);
        assert!(ll144_tables(&cells, &s).is_ok());
        let none = [cell("F", "A", 0, 0.0)];
        assert!(matches!(
            ll144_tables(&none, &s),
            Err(Ll144Error::NoApplicants { rows: 0, .. })
        ));
        let over = [cell("F", "A", 2, 3.0)];
        assert!(matches!(
            ll144_tables(&over, &s),
            Err(Ll144Error::BadCell { .. })
        ));
    }

    #[test]
    fn all_rates_zero_gives_no_ratio_and_says_why() {
        let cells = [cell("F", "A", 5, 0.0), cell("M", "A", 5, 0.0)];
        let r = ll144_tables(&cells, &Ll144Settings::new(Ll144Mode::Selection)).unwrap();
        let f = &r.tables[0].categories[0];
        assert_eq!(f.impact_ratio, None);
        assert!(f.note.contains("highest rate is 0"), "{}", f.note);
    }

    #[test]
    fn csv_quotes_commas_and_shows_empty_as_empty() {
        let cells = [cell("F, trans", "", 5, 1.0), cell("M", "A", 95, 10.0)];
        let r = ll144_tables(&cells, &Ll144Settings::new(Ll144Mode::Selection)).unwrap();
        let csv = r.table_csv(&r.tables[0]);
        assert!(csv.contains("\n\"F, trans\",5,1,0.2,"), "{csv}");
        let race = r.table_csv(&r.tables[1]);
        // The unknown (empty) race comes last, with no impact ratio.
        let last = race.lines().last().unwrap();
        assert!(last.starts_with(",5,1,0.2,,0.05,false,true,"), "{last}");
    }
}
