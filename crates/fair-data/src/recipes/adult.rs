//! UCI Adult (adult.data + adult.test = 48,842 rows) and the encodings three papers use.

use crate::dataset::{Dataset, SensitiveAttribute};
use crate::embedded::{ADULT_DATA, ADULT_TEST, EmbeddedFile, malformed};
use crate::encode::{ColumnBuilder, OneHotEncoder, quantile};
use crate::error::Result;
use fair_core::Groups;

/// Rows of adult.data (the official training part); the rest come from adult.test.
pub const ADULT_TRAIN_ROWS: usize = 32_561;

/// One parsed Adult row (strings trimmed; `?` kept as the category `"?"`).
struct AdultRow {
    age: f64,
    workclass: String,
    fnlwgt: f64,
    education: String,
    education_num: f64,
    marital_status: String,
    occupation: String,
    relationship: String,
    race: String,
    sex: String,
    capital_gain: f64,
    capital_loss: f64,
    hours_per_week: f64,
    native_country: String,
    high_income: bool,
}

fn parse(file: &EmbeddedFile, out: &mut Vec<AdultRow>) -> Result<()> {
    let text = file.text()?;
    for (i, line) in text.lines().enumerate() {
        let line = line.trim();
        // adult.test opens with "|1x3 Cross validator"; both files end with a blank line.
        if line.is_empty() || line.starts_with('|') {
            continue;
        }
        let f: Vec<&str> = line.split(',').map(str::trim).collect();
        if f.len() != 15 {
            return Err(malformed(
                file,
                i + 1,
                format!("{} fields, expected 15", f.len()),
            ));
        }
        let num = |j: usize| -> Result<f64> {
            f[j].parse().map_err(|_| {
                malformed(
                    file,
                    i + 1,
                    format!("field {} = {:?} is not a number", j + 1, f[j]),
                )
            })
        };
        out.push(AdultRow {
            age: num(0)?,
            workclass: f[1].into(),
            fnlwgt: num(2)?,
            education: f[3].into(),
            education_num: num(4)?,
            marital_status: f[5].into(),
            occupation: f[6].into(),
            relationship: f[7].into(),
            race: f[8].into(),
            sex: f[9].into(),
            capital_gain: num(10)?,
            capital_loss: num(11)?,
            hours_per_week: num(12)?,
            native_country: f[13].into(),
            high_income: f[14].trim_end_matches('.') == ">50K",
        });
    }
    Ok(())
}

fn rows() -> Result<Vec<AdultRow>> {
    let mut rows = Vec::with_capacity(48_842);
    parse(&ADULT_DATA, &mut rows)?;
    parse(&ADULT_TEST, &mut rows)?;
    Ok(rows)
}

/// Reads one categorical field of a row.
type TextField = fn(&AdultRow) -> String;

fn col<T>(rows: &[AdultRow], f: impl Fn(&AdultRow) -> T) -> Vec<T> {
    rows.iter().map(f).collect()
}

fn labels(rows: &[AdultRow]) -> (Vec<usize>, Vec<String>) {
    (
        col(rows, |r| usize::from(r.high_income)),
        vec!["<=50K".into(), ">50K".into()],
    )
}

fn sex_and_race(rows: &[AdultRow]) -> Vec<SensitiveAttribute> {
    vec![
        SensitiveAttribute {
            name: "sex".into(),
            groups: Groups::from_labels(&col(rows, |r| r.sex.clone())),
        },
        SensitiveAttribute {
            name: "race".into(),
            groups: Groups::from_labels(&col(rows, |r| r.race.clone())),
        },
    ]
}

/// Adult with the 122 features of the proxy-Lagrangian paper (Cotter et al. 2019, Table 3),
/// built with the recipe of TFCO's `Fairness_adult.ipynb`.
///
/// * one-hot of workclass, education, marital status, occupation, relationship, race, sex and
///   native country (`?` is a category), categories learned on adult.data;
/// * one-hot buckets: age in 4 quantile buckets of adult.data, capital gain
///   `(-1,1,4000,10000,100000]`, capital loss `(-1,1,1800,1950,4500]`, hours per week
///   `(0,39,41,50,100]`, education-num `(0,8,9,11,16]`.
///
/// 9+16+7+15+6+5+2+42+4·5 = 122 columns; 48,842 rows (the paper's Table 3 sums to 48,841: one row
/// fewer, unexplained). Label `>50K`; attributes `sex` (Female/Male) and `race` (5 groups). The
/// sensitive columns stay in x, as in the paper ("constraint group in x": yes).
///
/// # Errors
/// Only if the embedded file is corrupt.
pub fn adult_tfco() -> Result<Dataset> {
    let rows = rows()?;
    let train = &rows[..ADULT_TRAIN_ROWS];
    let mut b = ColumnBuilder::default();
    let cats: [(&str, TextField); 8] = [
        ("workclass", |r| r.workclass.clone()),
        ("education", |r| r.education.clone()),
        ("marital_status", |r| r.marital_status.clone()),
        ("occupation", |r| r.occupation.clone()),
        ("relationship", |r| r.relationship.clone()),
        ("race", |r| r.race.clone()),
        ("gender", |r| r.sex.clone()),
        ("native_country", |r| r.native_country.clone()),
    ];
    for (name, get) in cats {
        let enc = OneHotEncoder::fit(name, &col(train, get));
        b.push_one_hot(&enc, &col(&rows, get));
    }
    let train_age = col(train, |r| r.age);
    let age_edges = [
        f64::NEG_INFINITY,
        quantile(&train_age, 0.25)?,
        quantile(&train_age, 0.5)?,
        quantile(&train_age, 0.75)?,
        f64::INFINITY,
    ];
    b.push_buckets("age", &col(&rows, |r| r.age), &age_edges);
    b.push_buckets(
        "capital_gain",
        &col(&rows, |r| r.capital_gain),
        &[-1.0, 1.0, 4000.0, 10000.0, 100000.0],
    );
    b.push_buckets(
        "capital_loss",
        &col(&rows, |r| r.capital_loss),
        &[-1.0, 1.0, 1800.0, 1950.0, 4500.0],
    );
    b.push_buckets(
        "hours_per_week",
        &col(&rows, |r| r.hours_per_week),
        &[0.0, 39.0, 41.0, 50.0, 100.0],
    );
    b.push_buckets(
        "education_num",
        &col(&rows, |r| r.education_num),
        &[0.0, 8.0, 9.0, 11.0, 16.0],
    );
    let (x, names) = b.build(rows.len());
    let (y, classes) = labels(&rows);
    Dataset::new("adult-tfco-122", x, names, y, classes, sex_and_race(&rows))
}

/// Adult as 123 binary features laid out like LIBSVM's `a9a` (Platt 1998), the dataset of the
/// IDCA paper.
///
/// Continuous attributes become quantile indicators (age, fnlwgt, education-num, hours per week:
/// 5 buckets at the 20/40/60/80 % quantiles of adult.data; capital gain and loss: zero / positive),
/// categorical ones one indicator per category with `?` encoded as all zeros:
/// 5+8+5+16+5+7+14+6+5+2+2+2+5+41 = 123. LIBSVM does not publish its exact cut points, so this is
/// "a9a-like", not byte-identical. Gender is one of the features (`sex=Female`, `sex=Male`), as in
/// a9a. 48,842 rows; the first 32,561 are a9a's training part.
///
/// # Errors
/// Only if the embedded file is corrupt.
pub fn adult_a9a() -> Result<Dataset> {
    let rows = rows()?;
    let train = &rows[..ADULT_TRAIN_ROWS];
    let mut b = ColumnBuilder::default();
    let quintiles = |get: fn(&AdultRow) -> f64| -> Result<Vec<f64>> {
        let v = col(train, get);
        let mut edges = vec![f64::NEG_INFINITY];
        for q in [0.2, 0.4, 0.6, 0.8] {
            edges.push(quantile(&v, q)?);
        }
        edges.push(f64::INFINITY);
        Ok(edges)
    };
    let known = |get: fn(&AdultRow) -> String| -> OneHotEncoder {
        let v: Vec<String> = col(train, get).into_iter().filter(|s| s != "?").collect();
        OneHotEncoder::fit("", &v)
    };
    type Step = (
        &'static str,
        Option<fn(&AdultRow) -> f64>,
        Option<fn(&AdultRow) -> String>,
    );
    let layout: [Step; 14] = [
        ("age", Some(|r| r.age), None),
        ("workclass", None, Some(|r| r.workclass.clone())),
        ("fnlwgt", Some(|r| r.fnlwgt), None),
        ("education", None, Some(|r| r.education.clone())),
        ("education_num", Some(|r| r.education_num), None),
        ("marital_status", None, Some(|r| r.marital_status.clone())),
        ("occupation", None, Some(|r| r.occupation.clone())),
        ("relationship", None, Some(|r| r.relationship.clone())),
        ("race", None, Some(|r| r.race.clone())),
        ("sex", None, Some(|r| r.sex.clone())),
        ("capital_gain", Some(|r| r.capital_gain), None),
        ("capital_loss", Some(|r| r.capital_loss), None),
        ("hours_per_week", Some(|r| r.hours_per_week), None),
        ("native_country", None, Some(|r| r.native_country.clone())),
    ];
    for (name, num, cat) in layout {
        if let Some(get) = num {
            let edges = if name.starts_with("capital") {
                vec![f64::NEG_INFINITY, 0.0, f64::INFINITY]
            } else {
                quintiles(get)?
            };
            b.push_buckets(name, &col(&rows, get), &edges);
        } else if let Some(get) = cat {
            let cats = known(get);
            let names: Vec<&str> = cats.categories().iter().map(String::as_str).collect();
            let enc = OneHotEncoder::with_categories(name, &names);
            b.push_one_hot(&enc, &col(&rows, get));
        }
    }
    let (x, names) = b.build(rows.len());
    let (y, classes) = labels(&rows);
    Dataset::new("adult-a9a-123", x, names, y, classes, sex_and_race(&rows))
}

/// Adult as in FairProjection's code (Alghamdi et al. 2022): White and Black rows only (46,447),
/// `fnlwgt`, workclass, occupation, education and native country dropped, sex and race as 0/1
/// features (`sex=Male`, `race=White`), marital status and relationship one-hot, age,
/// education-num, capital gain/loss and hours as raw numbers (scale them on the training split).
/// Attribute `race` has groups Black (0) and White (1); `sex` is kept as a second attribute.
///
/// # Errors
/// Only if the embedded file is corrupt.
pub fn adult_fair_projection() -> Result<Dataset> {
    let rows: Vec<AdultRow> = rows()?
        .into_iter()
        .filter(|r| r.race == "White" || r.race == "Black")
        .collect();
    let mut b = ColumnBuilder::default();
    b.push("age", col(&rows, |r| r.age));
    b.push("education_num", col(&rows, |r| r.education_num));
    b.push("capital_gain", col(&rows, |r| r.capital_gain));
    b.push("capital_loss", col(&rows, |r| r.capital_loss));
    b.push("hours_per_week", col(&rows, |r| r.hours_per_week));
    b.push(
        "sex=Male",
        col(&rows, |r| f64::from(u8::from(r.sex == "Male"))),
    );
    b.push(
        "race=White",
        col(&rows, |r| f64::from(u8::from(r.race == "White"))),
    );
    for (name, get) in [
        (
            "marital_status",
            (|r: &AdultRow| r.marital_status.clone()) as fn(&AdultRow) -> String,
        ),
        ("relationship", |r: &AdultRow| r.relationship.clone()),
    ] {
        let values = col(&rows, get);
        b.push_one_hot(&OneHotEncoder::fit(name, &values), &values);
    }
    let (x, names) = b.build(rows.len());
    let (y, classes) = labels(&rows);
    Dataset::new(
        "adult-fair-projection",
        x,
        names,
        y,
        classes,
        sex_and_race(&rows),
    )
}
