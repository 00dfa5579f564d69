//! Statlog German credit (1,000 rows) and Default of credit card clients, Taiwan (30,000 rows).

use crate::dataset::{Dataset, SensitiveAttribute};
use crate::embedded::{DEFAULT_CREDIT, GERMAN, malformed};
use crate::encode::{ColumnBuilder, OneHotEncoder};
use crate::error::Result;
use crate::recipes::Table;
use fair_core::Groups;

/// German credit attribute names (UCI `german.doc`), in file order.
const GERMAN_ATTRIBUTES: [(&str, bool); 20] = [
    ("checking_status", false),
    ("duration_months", true),
    ("credit_history", false),
    ("purpose", false),
    ("credit_amount", true),
    ("savings", false),
    ("employment_since", false),
    ("installment_rate", true),
    ("personal_status_sex", false),
    ("other_debtors", false),
    ("residence_since", true),
    ("property", false),
    ("age", true),
    ("other_installment_plans", false),
    ("housing", false),
    ("existing_credits", true),
    ("job", false),
    ("people_liable", true),
    ("telephone", false),
    ("foreign_worker", false),
];

/// Statlog German credit: 7 numeric attributes as numbers, 13 categorical ones one-hot with
/// their UCI codes as category names (all levels kept), 61 columns. Label class 1 = **bad**
/// credit (defaulted; 300 rows), as in the fair-SVM paper where y = +1 means default.
///
/// Attributes: `sex` from attribute 9 (A92 = female, A91/A93/A94 = male: 310 / 690), `housing`
/// from attribute 15 (rent 179 / own 713 / for free 108). The housing and personal-status columns
/// stay in x; drop them with [`Dataset::drop_features`] when a method must not see them.
///
/// # Errors
/// Only if the embedded file is corrupt.
pub fn german_credit() -> Result<Dataset> {
    let text = GERMAN.text()?;
    let rows: Vec<Vec<&str>> = text
        .lines()
        .filter(|l| !l.trim().is_empty())
        .map(|l| l.split_whitespace().collect())
        .collect();
    if let Some((i, r)) = rows.iter().enumerate().find(|(_, r)| r.len() != 21) {
        return Err(malformed(
            &GERMAN,
            i + 1,
            format!("{} fields, expected 21", r.len()),
        ));
    }
    let mut b = ColumnBuilder::default();
    for (j, &(name, numeric)) in GERMAN_ATTRIBUTES.iter().enumerate() {
        let raw: Vec<&str> = rows.iter().map(|r| r[j]).collect();
        if numeric {
            let v = raw
                .iter()
                .enumerate()
                .map(|(i, s)| {
                    s.parse::<f64>()
                        .map_err(|_| malformed(&GERMAN, i + 1, format!("{name} = {s:?}")))
                })
                .collect::<Result<Vec<_>>>()?;
            b.push(name, v);
        } else {
            b.push_one_hot(&OneHotEncoder::fit(name, &raw), &raw);
        }
    }
    let (x, names) = b.build(rows.len());
    let y = rows.iter().map(|r| usize::from(r[20] == "2")).collect();
    let sex: Vec<&str> = rows
        .iter()
        .map(|r| if r[8] == "A92" { "female" } else { "male" })
        .collect();
    let housing: Vec<&str> = rows
        .iter()
        .map(|r| match r[14] {
            "A151" => "rent",
            "A152" => "own",
            _ => "for free",
        })
        .collect();
    let sensitive = vec![
        SensitiveAttribute {
            name: "sex".into(),
            groups: Groups::from_labels(&sex),
        },
        SensitiveAttribute {
            name: "housing".into(),
            groups: Groups::from_labels(&housing),
        },
    ];
    Dataset::new(
        "german-credit",
        x,
        names,
        y,
        vec!["good".into(), "bad".into()],
        sensitive,
    )
}

/// Default of credit card clients (Taiwan): every column of the carrier file except `ID` and the
/// label, 32 features (LIMIT_BAL, SEX with 1 = female, AGE, PAY_*, BILL_AMT*, PAY_AMT*, and the
/// file's one-hot EDUCATION_0..6 and MARRIAGE_0..3). Label class 1 = default next month (6,636).
///
/// Attributes: `sex` (female 18,112 / male 11,888); `education` (graduate school, university,
/// high school, other = codes 0/4/5/6); `marriage` (married 13,659, single 15,964, other 323,
/// and `unknown (0)` for the 54 undocumented code-0 rows).
///
/// # Errors
/// Only if the embedded file is corrupt.
pub fn default_credit() -> Result<Dataset> {
    let t = Table::from_embedded(&DEFAULT_CREDIT)?;
    let all: Vec<usize> = (0..t.len()).collect();
    let label_col = "default-payment-next-month";
    let mut b = ColumnBuilder::default();
    for (name, _) in t.columns() {
        if name != "ID" && name != label_col {
            b.push(name, t.nums(&all, name)?);
        }
    }
    let (x, names) = b.build(all.len());
    let y = t
        .flags(&all, label_col)?
        .into_iter()
        .map(usize::from)
        .collect();
    let one_hot_level = |prefix: &str, levels: usize, r: usize| -> Result<usize> {
        for l in 0..levels {
            if t.flag(r, &format!("{prefix}_{l}"))? {
                return Ok(l);
            }
        }
        Err(malformed(
            &DEFAULT_CREDIT,
            r + 2,
            format!("no {prefix}_* column is set"),
        ))
    };
    let mut education = Vec::with_capacity(all.len());
    let mut marriage = Vec::with_capacity(all.len());
    let mut sex = Vec::with_capacity(all.len());
    for &r in &all {
        education.push(match one_hot_level("EDUCATION", 7, r)? {
            1 => "graduate school",
            2 => "university",
            3 => "high school",
            _ => "other",
        });
        marriage.push(match one_hot_level("MARRIAGE", 4, r)? {
            1 => "married",
            2 => "single",
            3 => "other",
            _ => "unknown (0)",
        });
        sex.push(if t.flag(r, "SEX")? { "female" } else { "male" });
    }
    let sensitive = vec![
        SensitiveAttribute {
            name: "sex".into(),
            groups: Groups::from_labels(&sex),
        },
        SensitiveAttribute {
            name: "education".into(),
            groups: Groups::from_labels(&education),
        },
        SensitiveAttribute {
            name: "marriage".into(),
            groups: Groups::from_labels(&marriage),
        },
    ];
    Dataset::new(
        "default-credit",
        x,
        names,
        y,
        vec!["no default".into(), "default".into()],
        sensitive,
    )
}

/// [`default_credit`] with the 23 features of the UCI description (X1–X23: LIMIT_BAL, SEX,
/// EDUCATION, MARRIAGE, AGE, PAY_0, PAY_2–6, BILL_AMT1–6, PAY_AMT1–6), as Kamani et al.'s fair
/// PCA uses them: the one-hot EDUCATION_0..6 and MARRIAGE_0..3 columns turned back into their
/// integer codes (0 when no level is set). Same rows, labels and attributes.
///
/// # Errors
/// Only if the embedded file is corrupt.
///
/// # Example
/// ```
/// let ds = fair_data::recipes::default_credit_23()?;
/// assert_eq!(ds.feature_names().len(), 23);
/// assert_eq!(ds.feature_names()[2], "EDUCATION");
/// # Ok::<(), fair_data::DataError>(())
/// ```
pub fn default_credit_23() -> Result<Dataset> {
    let ds = default_credit()?;
    let names = ds.feature_names();
    let col = |name: &str| -> Result<usize> {
        names
            .iter()
            .position(|n| n == name)
            .ok_or_else(|| crate::DataError::MissingColumn {
                name: name.to_string(),
                available: names.join(", "),
            })
    };
    let n = ds.n_rows();
    let plain = |name: &str| -> Result<Vec<f64>> {
        let j = col(name)?;
        Ok((0..n).map(|i| ds.x()[(i, j)]).collect())
    };
    let code = |prefix: &str, levels: usize| -> Result<Vec<f64>> {
        let cols = (0..levels)
            .map(|l| col(&format!("{prefix}_{l}")))
            .collect::<Result<Vec<_>>>()?;
        Ok((0..n)
            .map(|i| cols.iter().position(|&j| ds.x()[(i, j)] > 0.5).unwrap_or(0) as f64)
            .collect())
    };
    let mut out_names = vec!["LIMIT_BAL", "SEX", "EDUCATION", "MARRIAGE"];
    let mut columns = vec![
        plain("LIMIT_BAL")?,
        plain("SEX")?,
        code("EDUCATION", 7)?,
        code("MARRIAGE", 4)?,
    ];
    const REST: [&str; 19] = [
        "AGE",
        "PAY_0",
        "PAY_2",
        "PAY_3",
        "PAY_4",
        "PAY_5",
        "PAY_6",
        "BILL_AMT1",
        "BILL_AMT2",
        "BILL_AMT3",
        "BILL_AMT4",
        "BILL_AMT5",
        "BILL_AMT6",
        "PAY_AMT1",
        "PAY_AMT2",
        "PAY_AMT3",
        "PAY_AMT4",
        "PAY_AMT5",
        "PAY_AMT6",
    ];
    for name in REST {
        out_names.push(name);
        columns.push(plain(name)?);
    }
    let x = nalgebra::DMatrix::from_fn(n, columns.len(), |i, j| columns[j][i]);
    Dataset::new(
        "default-credit-23",
        x,
        out_names.into_iter().map(String::from).collect(),
        ds.y().to_vec(),
        ds.class_names().to_vec(),
        ds.sensitive().to_vec(),
    )
}
