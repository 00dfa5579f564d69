//! Fairness over time: one audit per window of a `--by` column (a date bucketed by day, ISO week
//! or month, or any key such as a model version), each window's gaps with their inference, and
//! each window's change against a baseline window (the first, or the previous one) with a
//! two-sample bootstrap interval and p-value (`fair_metrics::ci::gap_change_inference`).
//!
//! The window is the first component of the finest groups of an [`AuditState`] decoded with the
//! `--by` column before the sensitive columns; dropping it gives back, exactly, the audit
//! without `--by`, so the overall report is unchanged.

use crate::compute::{GAPS, Stats, slice_gaps};
use crate::error::AuditError;
use crate::ingest::{AuditState, GROUP_SEPARATOR};
use crate::keys::{Key, de};
use fair_metrics::ci::{CellDraws, change_interval};
use fair_metrics::state::ConfusionState;
use serde::{Deserialize, Serialize};
use std::collections::HashMap;
use std::sync::{Arc, Mutex};

/// How a `--by` value becomes a window.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Window {
    /// The value itself (a model version, a batch id, or a date column's day).
    Value,
    /// The day of a date (`2026-11-27`).
    Day,
    /// The ISO week of a date (`2026-W48`).
    Week,
    /// The month of a date (`2026-11`).
    Month,
}

impl Window {
    /// The window of `value` (a date `YYYY-MM-DD`, optionally followed by a time, for the
    /// calendar windows), as written.
    ///
    /// # Errors
    /// A message naming the value when a calendar window meets a value that is not a date.
    pub fn of(self, value: &str) -> Result<String, String> {
        self.of_in(value, None)
    }

    /// The window of `value` in the time zone `zone`: a timestamp that names its offset
    /// (`2026-01-05T23:30:00Z`, `2026-01-06 04:30:00+00:00`, RFC 3339) is an instant, and its
    /// day is the day in `zone` (the business's day); a date, or a time without an offset, is
    /// already a local day and is taken as written. Without a zone, every value is taken as
    /// written (an instant's day is its day at its own offset).
    ///
    /// # Errors
    /// A message naming the value when a calendar window meets a value that is not a date.
    ///
    /// # Example
    /// ```
    /// use fair_audit::over_time::{Window, parse_timezone};
    ///
    /// let ny = parse_timezone("America/New_York")?;
    /// // 04:30 UTC on the 6th is 23:30 on the 5th in New York.
    /// assert_eq!(Window::Day.of_in("2026-01-06T04:30:00Z", Some(ny))?, "2026-01-05");
    /// assert_eq!(Window::Day.of_in("2026-01-06T04:30:00Z", None)?, "2026-01-06");
    /// // Sunday the 4th in New York is ISO week 1, Monday the 5th in UTC week 2.
    /// assert_eq!(Window::Week.of_in("2026-01-05T03:00:00+00:00", Some(ny))?, "2026-W01");
    /// # Ok::<(), String>(())
    /// ```
    pub fn of_in(self, value: &str, zone: Option<chrono_tz::Tz>) -> Result<String, String> {
        if self == Window::Value {
            return Ok(value.to_string());
        }
        let local = zone.and_then(|z| instant(value).map(|t| t.with_timezone(&z).date_naive()));
        let day = local
            .or_else(|| value.get(..10).and_then(chrono_date))
            .ok_or_else(|| {
                format!("{value:?} is not a date (YYYY-MM-DD, optionally with a time)")
            })?;
        Ok(match self {
            Window::Value | Window::Day => day.format("%Y-%m-%d").to_string(),
            Window::Week => day.format("%G-W%V").to_string(),
            Window::Month => day.format("%Y-%m").to_string(),
        })
    }

    /// Its name in the report (the one vocabulary: [`Window::NAMES`]).
    pub fn key(self) -> &'static str {
        self.as_str()
    }
}

// The names `--window`/`--baseline`, Python's `window=`/`baseline=` and the report use.
fair_core::string_enum!(Window, "window", {
    Value => "value",
    Day => "day",
    Week => "week",
    Month => "month",
});

fair_core::string_enum!(Baseline, "baseline", {
    First => "first",
    Previous => "previous",
});

fn chrono_date(text: &str) -> Option<chrono::NaiveDate> {
    chrono::NaiveDate::parse_from_str(text, "%Y-%m-%d").ok()
}

/// A timestamp with its offset (RFC 3339, or with a space before the time), as an instant.
fn instant(text: &str) -> Option<chrono::DateTime<chrono::FixedOffset>> {
    let text = text.trim();
    chrono::DateTime::parse_from_rfc3339(text)
        .or_else(|_| chrono::DateTime::parse_from_str(text, "%Y-%m-%d %H:%M:%S%.f%#z"))
        .or_else(|_| chrono::DateTime::parse_from_str(text, "%Y-%m-%d %H:%M:%S%.fZ"))
        .ok()
}

/// An IANA time zone by name (`America/New_York`, `Europe/Berlin`, `UTC`), for `--timezone`.
///
/// # Errors
/// A message naming the value, with the closest known name when there is one.
///
/// # Example
/// ```
/// use fair_audit::over_time::parse_timezone;
///
/// assert!(parse_timezone("Europe/Berlin").is_ok());
/// let e = parse_timezone("America/New_Yrok").unwrap_err();
/// assert!(e.contains("did you mean \"America/New_York\""), "{e}");
/// ```
pub fn parse_timezone(name: &str) -> Result<chrono_tz::Tz, String> {
    name.parse::<chrono_tz::Tz>().map_err(|_| {
        let closest = chrono_tz::TZ_VARIANTS
            .iter()
            .map(|z| (strsim::jaro_winkler(z.name(), name), z.name()))
            .max_by(|a, b| a.0.total_cmp(&b.0))
            .filter(|(score, _)| *score > 0.85)
            .map(|(_, n)| format!(" (did you mean {n:?}?)"))
            .unwrap_or_default();
        format!(
            "unknown time zone {name:?}{closest}: expected an IANA time zone name such as \"America/New_York\", \"Europe/Berlin\" or \"UTC\""
        )
    })
}

/// Which window each window is compared with.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Baseline {
    /// The first window (in window order).
    First,
    /// The window before it.
    Previous,
}

/// One gap of one window.
#[derive(Debug, Clone, Serialize, Deserialize, PartialEq)]
pub struct WindowGap {
    /// Report key.
    pub key: Key,
    /// The gap in this window (null when undefined).
    pub value: Option<f64>,
    /// Bootstrap interval.
    pub lower: Option<f64>,
    /// Bootstrap interval.
    pub upper: Option<f64>,
    /// Permutation p-value of "no dependence on the group".
    pub p_value: Option<f64>,
    /// Change against the baseline window (null for the baseline itself or when undefined).
    pub change: Option<f64>,
    /// Interval of the change.
    pub change_lower: Option<f64>,
    /// Interval of the change.
    pub change_upper: Option<f64>,
    /// p-value of "no change since the baseline".
    pub change_p_value: Option<f64>,
    /// `change_p_value` adjusted for the many changes of the audit over time (Benjamini–Hochberg
    /// over every window, slice and gap with a p-value; see [`OverTime::multiple_comparisons`]):
    /// the report calls a change distinguishable when this is below 1 − confidence.
    #[serde(default)]
    pub change_q_value: Option<f64>,
}

/// One slice of one window.
#[derive(Debug, Clone, Serialize, Deserialize, PartialEq)]
pub struct WindowSlice {
    /// Slice name.
    pub slice: String,
    /// The eight count gaps.
    pub gaps: Vec<WindowGap>,
    /// Each group's rates in this window.
    pub groups: Vec<WindowGroup>,
}

/// One group's rates in one window: selection rate, true and false positive rates and accuracy,
/// each with its interval (the audit's rate interval method; null when the denominator is empty
/// in this window).
#[derive(Debug, Clone, Serialize, Deserialize, PartialEq)]
pub struct WindowGroup {
    /// Group name.
    pub group: String,
    /// Rows of the group in the window.
    pub rows: u64,
    /// Rate key → value with its interval.
    #[serde(deserialize_with = "de::rate_map")]
    pub rates: std::collections::BTreeMap<&'static str, Option<crate::model::Estimate>>,
}

/// The rates each window reports per group.
const WINDOW_RATES: [fair_metrics::Rate; 4] = [
    fair_metrics::Rate::Selection,
    fair_metrics::Rate::TruePositive,
    fair_metrics::Rate::FalsePositive,
    fair_metrics::Rate::Accuracy,
];

/// Each group's [`WINDOW_RATES`] with intervals.
fn window_groups(
    state: &fair_metrics::state::ConfusionState,
    stats: &Stats,
) -> Result<Vec<WindowGroup>, AuditError> {
    let metric = |source| AuditError::Metric {
        what: "a window's rates".into(),
        source,
    };
    let per_rate = WINDOW_RATES
        .iter()
        .map(|&r| fair_metrics::ci::rate_intervals(state, r, stats.confidence, stats.method))
        .collect::<Result<Vec<_>, _>>()
        .map_err(metric)?;
    let names = state.group_names();
    Ok(names
        .iter()
        .enumerate()
        .map(|(g, name)| WindowGroup {
            group: name.clone(),
            rows: state.rows(name).unwrap_or(0),
            rates: per_rate
                .iter()
                .map(|ri| {
                    let gi = &ri.groups[g];
                    let est = match (gi.estimate, gi.interval) {
                        (Some(value), Some(iv)) => Some(crate::model::Estimate {
                            value,
                            lower: iv.lower,
                            upper: iv.upper,
                        }),
                        _ => None,
                    };
                    (crate::compute::rate_key(ri.rate), est)
                })
                .collect(),
        })
        .collect())
}

/// One window.
#[derive(Debug, Clone, Serialize, Deserialize, PartialEq)]
pub struct WindowAudit {
    /// Its name ("2026-11-27", "2026-W48", "v2").
    pub window: String,
    /// Rows in it.
    pub rows: u64,
    /// The window it is compared with (null for the first window).
    pub baseline: Option<String>,
    /// Per slice.
    pub slices: Vec<WindowSlice>,
}

/// The audit over time (report.json's `over_time`).
#[derive(Debug, Clone, Serialize, Deserialize, PartialEq)]
pub struct OverTime {
    /// The `--by` column.
    pub column: String,
    /// How values became windows.
    pub window: Window,
    /// What each window is compared with.
    pub baseline: Baseline,
    /// The windows in order (dates chronologically; other values numerically when they all are
    /// numbers, else as text).
    pub windows: Vec<WindowAudit>,
    /// How the changes' p-values are adjusted for their number, in words (empty in a report
    /// written before the adjustment).
    #[serde(default)]
    pub multiple_comparisons: String,
}

/// What [`OverTime::multiple_comparisons`] says.
pub const MULTIPLE_COMPARISONS: &str = "Benjamini–Hochberg over every window change with a p-value (all windows, slices and gaps): a change is distinguishable when its adjusted p-value (q) is below 1 − confidence, which keeps the expected share of false discoveries among the changes called distinguishable at or below 1 − confidence";

/// Fills every window gap's `change_q_value` from the `change_p_value`s of all of them.
pub(crate) fn adjust(windows: &mut [WindowAudit]) {
    let p: Vec<f64> = windows
        .iter()
        .flat_map(|w| &w.slices)
        .flat_map(|s| &s.gaps)
        .filter_map(|g| g.change_p_value)
        .collect();
    let mut q = fair_metrics::ci::benjamini_hochberg(&p).into_iter();
    for g in windows
        .iter_mut()
        .flat_map(|w| &mut w.slices)
        .flat_map(|s| &mut s.gaps)
    {
        if g.change_p_value.is_some() {
            g.change_q_value = q.next();
        }
    }
}

/// The settings of an audit over time.
#[derive(Debug, Clone)]
pub struct OverTimeSpec {
    /// The `--by` column.
    pub column: String,
    /// How its values become windows.
    pub window: Window,
    /// What each window is compared with.
    pub baseline: Baseline,
    /// The time zone whose days, weeks and months the calendar windows are (`--timezone`):
    /// timestamps with an offset are moved into it ([`Window::of_in`]); `None` takes every
    /// value as written.
    pub timezone: Option<chrono_tz::Tz>,
}

/// The first component of a finest group name (the window) and the rest.
pub(crate) fn split(name: &str) -> (&str, &str) {
    name.split_once(GROUP_SEPARATOR).unwrap_or((name, ""))
}

/// `state` (finest groups led by the `--by` value) with the window bucketed.
///
/// # Errors
/// [`AuditError::Input`] naming the first value that is not a date under a calendar window.
pub fn bucket(state: &AuditState, spec: &OverTimeSpec) -> Result<AuditState, AuditError> {
    for name in state.finest_names() {
        spec.window
            .of_in(split(&name).0, spec.timezone)
            .map_err(|reason| AuditError::Input {
                name: "--by",
                reason: format!(
                    "column {:?}: {reason}; --window {} needs dates (or use --window value)",
                    spec.column,
                    spec.window.key()
                ),
            })?;
    }
    Ok(state.regroup(|name| {
        let (w, rest) = split(name);
        let w = spec
            .window
            .of_in(w, spec.timezone)
            .unwrap_or_else(|_| w.to_string());
        if rest.is_empty() {
            w
        } else {
            format!("{w}{GROUP_SEPARATOR}{rest}")
        }
    }))
}

/// The audit without its window: every window's rows merged (exactly the audit without `--by`).
pub fn without_window(state: &AuditState) -> AuditState {
    state.regroup(|name| split(name).1.to_string())
}

pub(crate) fn ordered(mut windows: Vec<String>) -> Vec<String> {
    windows.sort();
    windows.dedup();
    if windows.iter().all(|w| w.parse::<f64>().is_ok()) {
        windows.sort_by(|a, b| {
            a.parse::<f64>()
                .unwrap_or(0.0)
                .total_cmp(&b.parse::<f64>().unwrap_or(0.0))
        });
    }
    windows
}

/// One slice of one window: its state (for the group sizes), its draws, and the gaps computed
/// from them by (gap, kept groups), so a baseline's gaps are computed once for all the windows
/// compared with it.
struct Drawn {
    state: ConfusionState,
    /// The slice's gaps as the audit of the window's rows alone reports them ([`count_gap`]),
    /// in [`GAPS`] order.
    gaps: Vec<crate::model::Gap>,
    draws: Option<CellDraws>,
    cache: Mutex<HashMap<(Key, Vec<bool>), GapDraws>>,
}

/// A gap on the observed cells and on every draw.
type GapDraws = (Option<f64>, Vec<Option<f64>>);

impl Drawn {
    fn gap(
        &self,
        key: Key,
        metric: fair_metrics::ci::GapMetric,
        kind: fair_metrics::ci::GapKind,
        keep: &[bool],
    ) -> Option<GapDraws> {
        let draws = self.draws.as_ref()?;
        let id = (key, keep.to_vec());
        // A poisoned lock only means another window's thread panicked: its entries are whole.
        let cached = |c: &Mutex<HashMap<_, GapDraws>>| {
            c.lock()
                .unwrap_or_else(|e| e.into_inner())
                .get(&id)
                .cloned()
        };
        if let Some(hit) = cached(&self.cache) {
            return Some(hit);
        }
        let computed = draws.gap(metric, kind, keep).ok()?;
        self.cache
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .insert(id, computed.clone());
        Some(computed)
    }
}

/// A window's slices by name.
type SliceDraws = Vec<(String, Arc<Drawn>)>;

/// One gap of one window and its change since the baseline. The gap, its interval and its
/// p-value are the audit of the window's rows alone ([`count_gap`], the same rules and seed as a
/// standalone audit); the change is this value minus the baseline's, each side over its own
/// comparable groups, with a two-sample bootstrap from the two windows' independent draws.
fn gap_row(
    (index, key, metric, kind): (
        usize,
        Key,
        fair_metrics::ci::GapMetric,
        fair_metrics::ci::GapKind,
    ),
    window: &Drawn,
    base: Option<&Drawn>,
    stats: &Stats,
) -> WindowGap {
    let own = &window.gaps[index];
    let mut row = WindowGap {
        key,
        value: own.value,
        lower: own.lower,
        upper: own.upper,
        p_value: own.p_value,
        change: None,
        change_lower: None,
        change_upper: None,
        change_p_value: None,
        change_q_value: None,
    };
    let Some(base) = base else { return row };
    let (Some(value), Some(base_value)) = (own.value, base.gaps[index].value) else {
        return row;
    };
    // Each side's draws over the groups its own gap compares (small groups kept out).
    let drawn = |d: &Drawn| -> Option<GapDraws> {
        let small = &d.gaps[index].small_groups;
        let keep: Vec<bool> = d
            .draws
            .as_ref()?
            .names()
            .iter()
            .map(|n| !small.iter().any(|s| &s.group == n))
            .collect();
        d.gap(key, metric, kind, &keep)
    };
    let (Some((_, boot)), Some((_, base_boot))) = (drawn(window), drawn(base)) else {
        return row;
    };
    let changes: Vec<f64> = boot
        .iter()
        .zip(&base_boot)
        .filter_map(|(w, b)| Some((*w)? - (*b)?))
        .collect();
    if changes.len() >= boot.len() / 2 {
        let (iv, p) = change_interval(changes, stats.confidence);
        row.change = Some(value - base_value);
        row.change_lower = Some(iv.lower);
        row.change_upper = Some(iv.upper);
        row.change_p_value = Some(p);
    }
    row
}

/// Every window's gaps and changes, from a bucketed state (see [`bucket`]) of the first
/// prediction source. Each window's slices are drawn once ([`CellDraws`], `stats.resamples`
/// draws) and every gap, its interval and its change come from those draws; a window's draws
/// are independent of its baseline's. A window's own gap, interval and permutation p-value are
/// those of the audit of its rows alone.
///
/// # Errors
/// [`AuditError::Input`] when a window's groups do not parse into the sensitive columns.
pub fn over_time(
    state: &AuditState,
    sensitive: &[String],
    spec: &OverTimeSpec,
    stats: &Stats,
) -> Result<OverTime, AuditError> {
    let names: Vec<String> = state
        .finest_names()
        .iter()
        .map(|n| split(n).0.to_string())
        .collect();
    let windows = ordered(names);
    // Each window's audit of its rows alone, both cores over the windows (the costly part:
    // a bootstrap and permutations per slice; each window uses the audit's seed, as the audit
    // of its rows would, so the split does not change a bit).
    let audits = in_two(windows.len(), |k| {
        let w = &windows[k];
        let part = without_window(&state.retain(|n| split(n).0 == w));
        let (slices, states) = part.slice_states(sensitive)?;
        let slices: Vec<Alone> = slices
            .into_iter()
            .zip(states.into_iter().next().unwrap_or_default())
            .map(|(slice, st)| Alone {
                gaps: slice_gaps(&st, stats),
                name: slice.name,
                state: st,
            })
            .collect();
        Ok((part.total_rows(), slices))
    })?;
    let mut audits: Vec<Option<(u64, Vec<Alone>)>> = audits.into_iter().map(Some).collect();
    let mut take = |k: usize| audits[k].take().unwrap_or_default();
    let one = |k: usize, alone: (u64, Vec<Alone>), base: Option<&SliceDraws>| {
        window_audit(alone, stats, (k, &windows), spec.baseline, base)
    };
    let mut out: Vec<WindowAudit> = Vec::new();
    match spec.baseline {
        // Each window depends on the one before it: in order.
        Baseline::Previous => {
            let mut previous: Option<SliceDraws> = None;
            for k in 0..windows.len() {
                let (audit, here) = one(k, take(k), previous.as_ref())?;
                out.push(audit);
                previous = Some(here);
            }
        }
        // Every window after the first depends on the first only: two threads share them
        // (each window's draws have their own seed, so the result does not depend on the split).
        Baseline::First => {
            let (audit, first) = one(0, take(0), None)?;
            out.push(audit);
            let rest: Vec<(usize, (u64, Vec<Alone>))> =
                (1..windows.len()).map(|k| (k, take(k))).collect();
            let half = rest.len().div_ceil(2);
            let (left, right) = {
                let mut rest = rest;
                let right = rest.split_off(half);
                (rest, right)
            };
            let run =
                |ks: Vec<(usize, (u64, Vec<Alone>))>| -> Result<Vec<WindowAudit>, AuditError> {
                    ks.into_iter()
                        .map(|(k, alone)| one(k, alone, Some(&first)).map(|w| w.0))
                        .collect()
                };
            let (a, b) = std::thread::scope(|scope| {
                let second = scope.spawn(|| run(right));
                let a = run(left);
                let b = second.join().unwrap_or_else(|_| Err(panicked()));
                (a, b)
            });
            out.extend(a?);
            out.extend(b?);
        }
    }
    adjust(&mut out);
    Ok(OverTime {
        column: spec.column.clone(),
        window: spec.window,
        baseline: spec.baseline,
        windows: out,
        multiple_comparisons: MULTIPLE_COMPARISONS.to_string(),
    })
}

/// A slice of one window audited alone: its state and its gaps as the audit of the window's
/// rows reports them.
struct Alone {
    name: String,
    state: ConfusionState,
    gaps: Vec<crate::model::Gap>,
}

fn panicked() -> AuditError {
    AuditError::Input {
        name: "over time",
        reason: "a window's computation panicked".into(),
    }
}

/// `f(0..n)` on two threads (the first half here, the second on a scoped thread), in order.
fn in_two<T: Send>(
    n: usize,
    f: impl Fn(usize) -> Result<T, AuditError> + Sync,
) -> Result<Vec<T>, AuditError> {
    let half = n.div_ceil(2);
    let run = |ks: std::ops::Range<usize>| ks.map(&f).collect::<Result<Vec<T>, AuditError>>();
    let (a, b) = std::thread::scope(|scope| {
        let second = scope.spawn(|| run(half..n));
        let a = run(0..half);
        (a, second.join().unwrap_or_else(|_| Err(panicked())))
    });
    let mut a = a?;
    a.extend(b?);
    Ok(a)
}

/// Window `k` of `windows` from its audit alone (`(rows, slices)`): its slices drawn once for
/// the changes (one seed per window and slice) and every gap with its change against `base`
/// (the baseline window's draws, if any).
fn window_audit(
    (rows, alone): (u64, Vec<Alone>),
    stats: &Stats,
    (k, windows): (usize, &[String]),
    baseline: Baseline,
    base: Option<&SliceDraws>,
) -> Result<(WindowAudit, SliceDraws), AuditError> {
    let w = &windows[k];
    let here: SliceDraws = alone
        .into_iter()
        .enumerate()
        .map(|(s, a)| {
            // One stream per (window, slice), so windows are independent and the same seed
            // gives the same bits.
            let seed =
                stats.seed ^ ((k as u64) << 20 | s as u64).wrapping_mul(0x9E37_79B9_7F4A_7C15);
            let drawn = Drawn {
                gaps: a.gaps,
                draws: CellDraws::new(&a.state, stats.resamples, seed).ok(),
                state: a.state,
                cache: Mutex::new(HashMap::new()),
            };
            (a.name, Arc::new(drawn))
        })
        .collect();
    let mut window_slices = Vec::new();
    for (slice, drawn) in &here {
        let b = base
            .and_then(|b| b.iter().find(|(n, _)| n == slice))
            .map(|(_, d)| d.as_ref());
        let gaps = GAPS
            .iter()
            .enumerate()
            .map(|(i, &(key, _, metric, kind))| gap_row((i, key, metric, kind), drawn, b, stats))
            .collect();
        window_slices.push(WindowSlice {
            slice: slice.clone(),
            gaps,
            groups: window_groups(&drawn.state, stats)?,
        });
    }
    let audit = WindowAudit {
        window: w.clone(),
        rows,
        baseline: match (k, baseline) {
            (0, _) => None,
            (_, Baseline::First) => Some(windows[0].clone()),
            (_, Baseline::Previous) => Some(windows[k - 1].clone()),
        },
        slices: window_slices,
    };
    Ok((audit, here))
}

/// Adds the audit over time to `report`, with one summary sentence per window whose gap changed
/// distinguishably from its baseline (Benjamini–Hochberg adjusted q < 1 − confidence), largest
/// change first (at most
/// [`MAX_LISTED`](crate::summary::MAX_LISTED), the rest counted), or one saying none did.
pub fn attach(report: &mut crate::model::AuditReport, over_time: OverTime) {
    let conf = report.settings.confidence;
    let a = crate::summary::alpha(conf);
    let level = format!("{:.0} %", conf * 100.0);
    let mut items: Vec<(f64, String)> = Vec::new();
    let tests = over_time
        .windows
        .iter()
        .flat_map(|w| &w.slices)
        .flat_map(|s| &s.gaps)
        .filter(|g| g.change_q_value.is_some())
        .count();
    for w in &over_time.windows {
        let Some(base) = &w.baseline else { continue };
        for s in &w.slices {
            for g in &s.gaps {
                let (Some(v), Some(d), Some(lo), Some(hi), Some(p), Some(q)) = (
                    g.value,
                    g.change,
                    g.change_lower,
                    g.change_upper,
                    g.change_p_value,
                    g.change_q_value,
                ) else {
                    continue;
                };
                if !crate::summary::distinguishable(q, conf) {
                    continue;
                }
                let name = GAPS
                    .iter()
                    .find(|x| x.0 == g.key)
                    .map_or(g.key.name(), |x| x.1);
                items.push((
                    d.abs(),
                    format!(
                        "Over time: in {} {} the {name} across {} is {}, {} {} since {base} ({level} interval {} to {}, {}; q = {} adjusted over {tests} window changes).",
                        over_time.column,
                        w.window,
                        s.slice,
                        crate::summary::value_text(v),
                        if d > 0.0 { "up" } else { "down" },
                        crate::summary::value_text(d.abs()),
                        crate::summary::value_text(lo),
                        crate::summary::value_text(hi),
                        crate::summary::p_text(p, None),
                        crate::summary::value_text(q)
                    ),
                ));
            }
        }
    }
    items.sort_by(|x, y| y.0.total_cmp(&x.0));
    let n = items.len();
    let max = crate::summary::MAX_LISTED;
    report
        .summary
        .extend(items.into_iter().take(max).map(|i| i.1));
    report.summary.push(match n {
        0 => format!(
            "Over time: no gap of any of the {} windows of {} changed distinguishably from its baseline (every p-value adjusted for the {tests} window changes by Benjamini–Hochberg is at least {a}).",
            over_time.windows.len(),
            over_time.column
        ),
        n if n > max => format!(
            "Over time: {n} window changes are distinguishable (Benjamini–Hochberg adjusted q < {a} over {tests} changes); the {max} largest are listed, the rest are in the Over time tables."
        ),
        n => format!("Over time: the {n} window change(s) above are distinguishable (Benjamini–Hochberg adjusted q < {a} over {tests} changes)."),
    });
    report.over_time = Some(over_time);
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn calendar_windows_by_hand() {
        assert_eq!(
            Window::Day.of("2026-11-27T10:00:00Z").unwrap(),
            "2026-11-27"
        );
        assert_eq!(Window::Week.of("2026-11-27").unwrap(), "2026-W48");
        assert_eq!(Window::Week.of("2027-01-01").unwrap(), "2026-W53");
        assert_eq!(Window::Month.of("2026-11-27").unwrap(), "2026-11");
        assert_eq!(Window::Value.of("v2").unwrap(), "v2");
        assert!(
            Window::Month
                .of("v2")
                .unwrap_err()
                .contains("\"v2\" is not a date")
        );
        assert!(Window::Day.of("2026-13-01").is_err());
    }

    #[test]
    fn windows_and_baselines_parse_their_report_names() {
        for w in [Window::Value, Window::Day, Window::Week, Window::Month] {
            assert_eq!(w.key().parse::<Window>(), Ok(w));
        }
        assert!(
            "weekly"
                .parse::<Window>()
                .unwrap_err()
                .to_string()
                .contains("\"week\"")
        );
        assert_eq!("previous".parse::<Baseline>(), Ok(Baseline::Previous));
        assert_eq!("first".parse::<Baseline>(), Ok(Baseline::First));
        assert!("last".parse::<Baseline>().is_err());
    }

    #[test]
    fn windows_sort_as_numbers_when_they_all_are() {
        let w = |v: &[&str]| ordered(v.iter().map(|s| s.to_string()).collect());
        assert_eq!(w(&["10", "9", "9", "100"]), ["9", "10", "100"]);
        assert_eq!(w(&["v10", "v9"]), ["v10", "v9"]);
        assert_eq!(w(&["2026-W48", "2026-W05"]), ["2026-W05", "2026-W48"]);
    }
}
