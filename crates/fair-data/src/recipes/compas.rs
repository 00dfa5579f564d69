//! ProPublica COMPAS two-year recidivism (7,214 raw rows; 6,172 after the standard filter).

use crate::dataset::{Dataset, SensitiveAttribute};
use crate::embedded::{COMPAS, malformed};
use crate::encode::{ColumnBuilder, OneHotEncoder};
use crate::error::Result;
use crate::recipes::Table;
use fair_core::Groups;

/// Rows in the raw ProPublica file.
pub const COMPAS_RAW_ROWS: usize = 7_214;

/// The standard ProPublica filter: screening within 30 days of arrest, a known recidivism
/// outcome, no ordinary traffic offence, and a score.
pub(super) fn propublica_filter(t: &Table, row: usize, require_score: bool) -> Result<bool> {
    let days = t.cell(row, "days_b_screening_arrest")?;
    if days.is_empty() {
        return Ok(false);
    }
    let within = t.num(row, "days_b_screening_arrest")?.abs() <= 30.0;
    Ok(within
        && t.cell(row, "is_recid")? != "-1"
        && t.cell(row, "c_charge_degree")? != "O"
        && (!require_score || t.cell(row, "score_text")? != "N/A"))
}

/// Row indices kept by the full ProPublica filter (score required): the 6,172 rows both the
/// ProPublica and the TFCO encodings start from.
pub(super) fn propublica_rows(t: &Table) -> Result<Vec<usize>> {
    (0..t.len())
        .filter_map(|r| {
            propublica_filter(t, r, true)
                .map(|k| k.then_some(r))
                .transpose()
        })
        .collect()
}

/// COMPAS after the standard ProPublica filter (6,172 rows), label `two_year_recid`
/// (class 1 = reoffended within two years), AIF360-like features: age, priors and juvenile counts,
/// felony charge, one-hot sex, race and age category. Attributes `race` (6 groups) and `sex`.
///
/// # Errors
/// Only if the embedded file is corrupt.
pub fn compas_propublica() -> Result<Dataset> {
    let t = Table::from_embedded(&COMPAS)?;
    let keep = propublica_rows(&t)?;
    let mut b = ColumnBuilder::default();
    for name in [
        "age",
        "priors_count",
        "juv_fel_count",
        "juv_misd_count",
        "juv_other_count",
    ] {
        b.push(name, t.nums(&keep, name)?);
    }
    b.push(
        "c_charge_degree=F",
        t.strs(&keep, "c_charge_degree")?
            .iter()
            .map(|d| f64::from(u8::from(d == "F")))
            .collect(),
    );
    for name in ["sex", "race", "age_cat"] {
        let v = t.strs(&keep, name)?;
        b.push_one_hot(&OneHotEncoder::fit(name, &v), &v);
    }
    finish("compas-propublica", &t, &keep, b, "two_year_recid")
}

/// COMPAS as in FairProjection's code (Alghamdi et al. 2022): the ProPublica filter without the
/// score condition, African-American and Caucasian rows only (5,278), label `is_recid`, features
/// age, charge degree (F = 1, M = −1), race (Caucasian = 1), sex (Male = 1), priors count and
/// length of stay in whole days (jail out − jail in). Attribute `race`: African-American (0),
/// Caucasian (1); `sex` is a second attribute.
///
/// # Errors
/// Only if the embedded file is corrupt.
pub fn compas_fair_projection() -> Result<Dataset> {
    let t = Table::from_embedded(&COMPAS)?;
    let mut keep = Vec::new();
    for r in 0..t.len() {
        let race = t.cell(r, "race")?;
        if propublica_filter(&t, r, false)? && (race == "African-American" || race == "Caucasian") {
            keep.push(r);
        }
    }
    let mut b = ColumnBuilder::default();
    b.push("age", t.nums(&keep, "age")?);
    b.push(
        "c_charge_degree",
        t.strs(&keep, "c_charge_degree")?
            .iter()
            .map(|d| if d == "F" { 1.0 } else { -1.0 })
            .collect(),
    );
    b.push(
        "race=Caucasian",
        t.strs(&keep, "race")?
            .iter()
            .map(|d| f64::from(u8::from(d == "Caucasian")))
            .collect(),
    );
    b.push(
        "sex=Male",
        t.strs(&keep, "sex")?
            .iter()
            .map(|d| f64::from(u8::from(d == "Male")))
            .collect(),
    );
    b.push("priors_count", t.nums(&keep, "priors_count")?);
    let mut stay = Vec::with_capacity(keep.len());
    for &r in &keep {
        let jail_in = days_since_epoch(t.cell(r, "c_jail_in")?);
        let jail_out = days_since_epoch(t.cell(r, "c_jail_out")?);
        match (jail_in, jail_out) {
            (Some(a), Some(b)) => stay.push((b - a).floor()),
            _ => return Err(malformed(&COMPAS, r + 2, "unparsable c_jail_in/c_jail_out")),
        }
    }
    b.push("length_of_stay", stay);
    finish("compas-fair-projection", &t, &keep, b, "is_recid")
}

/// Assembles a COMPAS dataset from the kept rows: features, a 0/1 label column, and the race and
/// sex attributes every COMPAS recipe carries.
pub(super) fn finish(
    name: &str,
    t: &Table,
    keep: &[usize],
    b: ColumnBuilder,
    label_column: &str,
) -> Result<Dataset> {
    let (x, names) = b.build(keep.len());
    let y = label(t, keep, label_column)?;
    let attribute = |column: &str| -> Result<SensitiveAttribute> {
        Ok(SensitiveAttribute {
            name: column.into(),
            groups: Groups::from_labels(&t.strs(keep, column)?),
        })
    };
    let sensitive = vec![attribute("race")?, attribute("sex")?];
    Dataset::new(
        name,
        x,
        names,
        y,
        vec!["no recid".into(), "recid".into()],
        sensitive,
    )
}

fn label(t: &Table, keep: &[usize], column: &str) -> Result<Vec<usize>> {
    keep.iter()
        .map(|&r| Ok(usize::from(t.cell(r, column)? == "1")))
        .collect()
}

/// `"YYYY-MM-DD hh:mm:ss"` as fractional days since 1970-01-01 (proleptic Gregorian).
fn days_since_epoch(s: &str) -> Option<f64> {
    let (date, time) = s.split_once(' ').unwrap_or((s, "00:00:00"));
    let mut d = date.split('-').map(|p| p.parse::<i64>().ok());
    let (y, m, day) = (d.next()??, d.next()??, d.next()??);
    let mut t = time.split(':').map(|p| p.parse::<f64>().ok());
    let (hh, mm, ss) = (t.next()??, t.next()??, t.next()??);
    // Howard Hinnant's days_from_civil.
    let y = if m <= 2 { y - 1 } else { y };
    let era = y.div_euclid(400);
    let yoe = y - era * 400;
    let doy = (153 * (if m > 2 { m - 3 } else { m + 9 }) + 2) / 5 + day - 1;
    let doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
    let days = era * 146_097 + doe - 719_468;
    Some(days as f64 + (hh * 3600.0 + mm * 60.0 + ss) / 86_400.0)
}

#[cfg(test)]
// Exact comparisons are intended: the expected values are copied or exactly representable.
#[allow(clippy::float_cmp)]
mod tests {
    use super::*;

    #[test]
    fn civil_days() {
        assert_eq!(days_since_epoch("1970-01-02 00:00:00"), Some(1.0));
        assert_eq!(days_since_epoch("2000-03-01 12:00:00"), Some(11_017.5));
        assert_eq!(days_since_epoch("garbage"), None);
    }
}
