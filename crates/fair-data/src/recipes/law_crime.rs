//! Law School (LSAC, Kusner et al. version, 21,791 rows) and Communities and Crime (1,993 rows).

use crate::dataset::{Dataset, SensitiveAttribute};
use crate::embedded::{CRIME, LAW, malformed};
use crate::encode::{ColumnBuilder, quantile};
use crate::error::{DataError, Result};
use crate::recipes::Table;
use fair_core::Groups;

const LAW_RACES: [&str; 8] = [
    "Amerindian",
    "Asian",
    "Black",
    "Hispanic",
    "Mexican",
    "Other",
    "Puertorican",
    "White",
];

/// Law-school rows with race and sex decoded from the file's one-hot columns.
struct LawRows {
    table: Table,
    race: Vec<&'static str>,
    sex: Vec<&'static str>,
}

fn law_rows() -> Result<LawRows> {
    let table = Table::from_embedded(&LAW)?;
    let mut race = Vec::with_capacity(table.len());
    let mut sex = Vec::with_capacity(table.len());
    for r in 0..table.len() {
        let mut found = None;
        for name in LAW_RACES {
            if table.flag(r, &format!("Race_{name}"))? {
                found = Some(name);
            }
        }
        race.push(found.ok_or_else(|| malformed(&LAW, r + 2, "no Race_* column is set"))?);
        // Sex_1 (9,537) / Sex_2 (12,254): LSAC codes 1 = female, 2 = male; the counts agree
        // with the known male majority of the 1991 cohort.
        sex.push(if table.flag(r, "Sex_1")? {
            "female"
        } else {
            "male"
        });
    }
    Ok(LawRows { table, race, sex })
}

fn law_dataset(name: &str, with_zfya: bool) -> Result<(Dataset, Vec<f64>)> {
    let rows = law_rows()?;
    let t = &rows.table;
    let all: Vec<usize> = (0..t.len()).collect();
    let mut b = ColumnBuilder::default();
    b.push("LSAT", t.nums(&all, "LSAT")?);
    b.push("UGPA", t.nums(&all, "UGPA")?);
    let zfya = t.nums(&all, "ZFYA")?;
    if with_zfya {
        b.push("ZFYA", zfya.clone());
    }
    b.push(
        "sex=female",
        rows.sex
            .iter()
            .map(|s| f64::from(u8::from(*s == "female")))
            .collect(),
    );
    for race in LAW_RACES {
        b.push(
            format!("race={race}"),
            t.nums(&all, &format!("Race_{race}"))?,
        );
    }
    let (x, names) = b.build(all.len());
    let y = t
        .flags(&all, "PF_1")?
        .into_iter()
        .map(usize::from)
        .collect();
    let sensitive = vec![
        SensitiveAttribute {
            name: "race".into(),
            groups: Groups::from_labels(&rows.race),
        },
        SensitiveAttribute {
            name: "sex".into(),
            groups: Groups::from_labels(&rows.sex),
        },
    ];
    let ds = Dataset::new(
        name,
        x,
        names,
        y,
        vec!["fail".into(), "pass".into()],
        sensitive,
    )?;
    Ok((ds, zfya))
}

/// Law School: bar passage on the first try (class 1 = pass, 19,360 rows) from LSAT, UGPA, ZFYA
/// (first-year average), sex and race indicators (12 features). Attributes `race` (8 groups) and
/// `sex`. This is the 21,791-row Kusner et al. file, not the 20,798-row file of the IDCA paper.
///
/// # Errors
/// Only if the embedded file is corrupt.
pub fn law_school() -> Result<Dataset> {
    Ok(law_dataset("law-school", true)?.0)
}

/// Law School as a `k`-class task: ZFYA binned into `k` equal-frequency classes (cut points at the
/// `i/k` quantiles of the whole file; class 0 = lowest), features LSAT, UGPA, sex and race (ZFYA
/// itself removed). A multi-class, multi-group stand-in for FairProjection's HSLS/ENEM.
///
/// # Errors
/// [`DataError::InvalidParameter`] for `k < 2`.
pub fn law_school_zfya_classes(k: usize) -> Result<Dataset> {
    if k < 2 {
        return Err(DataError::InvalidParameter {
            name: "k",
            value: k.to_string(),
            expected: "at least 2 classes",
        });
    }
    let (ds, zfya) = law_dataset(&format!("law-school-zfya-{k}"), false)?;
    let cuts = (1..k)
        .map(|i| quantile(&zfya, i as f64 / k as f64))
        .collect::<Result<Vec<_>>>()?;
    let y = zfya
        .iter()
        .map(|&z| cuts.iter().take_while(|&&c| z > c).count())
        .collect();
    let names = (0..k).map(|i| format!("ZFYA q{}", i + 1)).collect();
    ds.with_labels(y, names)
}

/// Communities and Crime (normalised UCI attributes as shipped, no missing values): every numeric
/// column except `fold`, `ViolentCrimesPerPop` (the continuous target), `high_crime` (the label,
/// class 1 = 653 communities) and `>0.06black`, which is the attribute `black_share` with groups
/// `> 6 %` (970) and `<= 6 %`. `racepctblack` and the state indicators stay in x.
///
/// # Errors
/// Only if the embedded file is corrupt.
pub fn communities_crime() -> Result<Dataset> {
    let t = Table::from_embedded(&CRIME)?;
    let all: Vec<usize> = (0..t.len()).collect();
    let skip = [
        "communityname",
        "fold",
        "ViolentCrimesPerPop",
        "high_crime",
        ">0.06black",
    ];
    let mut b = ColumnBuilder::default();
    for (name, _) in t.columns() {
        if !skip.contains(&name) {
            b.push(name, t.nums(&all, name)?);
        }
    }
    let (x, names) = b.build(all.len());
    let y = t
        .flags(&all, "high_crime")?
        .into_iter()
        .map(usize::from)
        .collect();
    let black: Vec<&str> = t
        .flags(&all, ">0.06black")?
        .into_iter()
        .map(|v| if v { "> 6 %" } else { "<= 6 %" })
        .collect();
    let sensitive = vec![SensitiveAttribute {
        name: "black_share".into(),
        groups: Groups::from_labels(&black),
    }];
    Dataset::new(
        "communities-crime",
        x,
        names,
        y,
        vec!["low crime".into(), "high crime".into()],
        sensitive,
    )
}
