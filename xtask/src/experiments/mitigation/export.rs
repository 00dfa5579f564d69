//! The data of the mitigation benchmark, exported from the embedded datasets as `.npy` files
//! (readable by `numpy.load` alone) under `<target>/mitigation-data/`.

use crate::report::{Result, XtaskError};
use fair_data::recipes;
use fair_data::{Dataset, Splitter};
use serde_json::{Value, json};
use std::path::{Path, PathBuf};

/// Seeds of the 70/30 train/test splits (stratified on the label).
pub const SPLIT_SEEDS: [u64; 5] = [0, 1, 2, 3, 4];
/// Test fraction of every split.
pub const TEST_FRACTION: f64 = 0.3;

/// One exported dataset: its directory name, the recipe it comes from and its attributes.
struct Export {
    dir: &'static str,
    recipe: &'static str,
    data: Dataset,
    /// (attribute name, how its groups were made binary, group code of every row, group names).
    attributes: Vec<(String, String, Vec<i64>, [String; 2])>,
    note: String,
}

/// One benchmark case: a dataset directory and one sensitive attribute of it.
pub struct Case {
    pub name: &'static str,
    pub dir: &'static str,
    pub attribute: &'static str,
    pub multiclass: bool,
}

/// The cases, in report order (the last is multi-class: FairProjection vs the base only).
pub const CASES: [Case; 6] = [
    Case {
        name: "adult-sex",
        dir: "adult",
        attribute: "sex",
        multiclass: false,
    },
    Case {
        name: "adult-race",
        dir: "adult",
        attribute: "race",
        multiclass: false,
    },
    Case {
        name: "compas-race",
        dir: "compas",
        attribute: "race",
        multiclass: false,
    },
    Case {
        name: "german-sex",
        dir: "german",
        attribute: "sex",
        multiclass: false,
    },
    Case {
        name: "law-race",
        dir: "law",
        attribute: "race",
        multiclass: false,
    },
    Case {
        name: "law-zfya5-race",
        dir: "law-zfya5",
        attribute: "race",
        multiclass: true,
    },
];

fn io_err(path: &Path) -> impl FnOnce(std::io::Error) -> XtaskError + '_ {
    move |source| XtaskError::Io {
        path: path.to_path_buf(),
        source,
    }
}

/// Binary group codes of attribute `name`: 1 for rows whose group is in `positive`, else 0.
fn binary(
    data: &Dataset,
    name: &str,
    positive: &[&str],
    names: [&str; 2],
) -> Result<(Vec<i64>, [String; 2])> {
    let groups = data.groups(name)?;
    let is_pos: Vec<bool> = groups
        .names()
        .iter()
        .map(|g| positive.contains(&g.as_str()))
        .collect();
    let codes = groups
        .codes()
        .iter()
        .map(|&c| i64::from(is_pos[c]))
        .collect();
    Ok((codes, [names[0].to_string(), names[1].to_string()]))
}

fn exports() -> Result<Vec<Export>> {
    let adult = recipes::adult_tfco()?;
    let (sex, sex_names) = binary(&adult, "sex", &["Male"], ["Female", "Male"])?;
    let (race, race_names) = binary(&adult, "race", &["White"], ["non-White", "White"])?;
    let adult = Export {
        dir: "adult",
        recipe: "fair_data::recipes::adult_tfco (122 one-hot columns, sex and race columns included)",
        data: adult,
        attributes: vec![
            (
                "sex".into(),
                "Female (0) vs Male (1)".into(),
                sex,
                sex_names,
            ),
            (
                "race".into(),
                "White (1) vs all others (0): Black, Asian-Pac-Islander, Amer-Indian-Eskimo, Other"
                    .into(),
                race,
                race_names,
            ),
        ],
        note: "all 48,842 rows of adult.data + adult.test; the UCI train/test split is NOT used: \
               the seeded 70/30 splits below replace it"
            .into(),
    };

    let compas_all = recipes::compas_propublica()?;
    let groups = compas_all.groups("race")?;
    let keep: Vec<usize> = groups
        .codes()
        .iter()
        .enumerate()
        .filter(|&(_, &c)| {
            let g = groups.names()[c].as_str();
            g == "African-American" || g == "Caucasian"
        })
        .map(|(i, _)| i)
        .collect();
    let compas = compas_all.select(&keep)?;
    let (race, race_names) = binary(
        &compas,
        "race",
        &["Caucasian"],
        ["African-American", "Caucasian"],
    )?;
    let compas = Export {
        dir: "compas",
        recipe: "fair_data::recipes::compas_propublica (ProPublica filter, one-hot sex/race/age_cat), \
                 African-American and Caucasian rows only",
        data: compas,
        attributes: vec![(
            "race".into(),
            "African-American (0) vs Caucasian (1); the other races' rows are dropped".into(),
            race,
            race_names,
        )],
        note: "label two_year_recid (1 = reoffended within two years)".into(),
    };

    let german = recipes::german_credit()?;
    let (sex, sex_names) = binary(&german, "sex", &["male"], ["female", "male"])?;
    let german = Export {
        dir: "german",
        recipe: "fair_data::recipes::german_credit (7 numeric, 13 categorical one-hot, 61 columns)",
        data: german,
        attributes: vec![(
            "sex".into(),
            "female (0, A92) vs male (1, A91/A93/A94), from personal_status_sex".into(),
            sex,
            sex_names,
        )],
        note: "label 1 = bad credit (300 of 1,000 rows)".into(),
    };

    let law = recipes::law_school()?;
    let (race, race_names) = binary(&law, "race", &["White"], ["non-White", "White"])?;
    let law = Export {
        dir: "law",
        recipe: "fair_data::recipes::law_school (LSAT, UGPA, ZFYA, sex and race indicators)",
        data: law,
        attributes: vec![(
            "race".into(),
            "White (1) vs all other races (0)".into(),
            race,
            race_names,
        )],
        note: "label 1 = passed the bar on the first try".into(),
    };

    let zfya = recipes::law_school_zfya_classes(5)?;
    let (race, race_names) = binary(&zfya, "race", &["White"], ["non-White", "White"])?;
    let zfya = Export {
        dir: "law-zfya5",
        recipe: "fair_data::recipes::law_school_zfya_classes(5) (LSAT, UGPA, sex and race indicators)",
        data: zfya,
        attributes: vec![(
            "race".into(),
            "White (1) vs all other races (0)".into(),
            race,
            race_names,
        )],
        note: "5 classes: ZFYA quintiles (multi-class: FairProjection vs the base model only)"
            .into(),
    };
    Ok(vec![adult, compas, german, law, zfya])
}

/// An `.npy` (format 1.0) file of little-endian `descr` elements with the given shape.
fn npy(descr: &str, shape: &[usize], data: &[u8]) -> Vec<u8> {
    let shape_txt = match shape {
        [n] => format!("({n},)"),
        _ => format!(
            "({})",
            shape
                .iter()
                .map(usize::to_string)
                .collect::<Vec<_>>()
                .join(", ")
        ),
    };
    let mut header =
        format!("{{'descr': '{descr}', 'fortran_order': False, 'shape': {shape_txt}, }}");
    // magic (6) + version (2) + header length (2) + header, padded to a multiple of 64 with a
    // final newline.
    let total = 10 + header.len() + 1;
    header.push_str(&" ".repeat((64 - total % 64) % 64));
    header.push('\n');
    let mut out = Vec::with_capacity(10 + header.len() + data.len());
    out.extend_from_slice(b"\x93NUMPY\x01\x00");
    out.extend_from_slice(
        &u16::try_from(header.len())
            .unwrap_or(u16::MAX)
            .to_le_bytes(),
    );
    out.extend_from_slice(header.as_bytes());
    out.extend_from_slice(data);
    out
}

fn npy_f64_matrix(x: &nalgebra::DMatrix<f64>) -> Vec<u8> {
    let mut data = Vec::with_capacity(x.nrows() * x.ncols() * 8);
    for i in 0..x.nrows() {
        for j in 0..x.ncols() {
            data.extend_from_slice(&x[(i, j)].to_le_bytes());
        }
    }
    npy("<f8", &[x.nrows(), x.ncols()], &data)
}

fn npy_i64(v: &[i64]) -> Vec<u8> {
    let data: Vec<u8> = v.iter().flat_map(|x| x.to_le_bytes()).collect();
    npy("<i8", &[v.len()], &data)
}

/// Writes `bytes` unless the file already holds exactly them (readers of the directory never
/// see a file being rewritten with the same content).
fn write_if_changed(path: &Path, bytes: &[u8]) -> Result<()> {
    if std::fs::read(path).ok().as_deref() == Some(bytes) {
        return Ok(());
    }
    std::fs::write(path, bytes).map_err(io_err(path))
}

const README: &str = "\
Data of `cargo xtask repro mitigation` (issue 24), exported by xtask/src/experiments/mitigation/
export.rs from the datasets embedded in crate fair-data. Regenerated (byte-identical) on every run.
Everything is numpy-readable without pandas: numpy.load(path).

manifest.json          the datasets, their recipes, attributes, group names and the cases
<dataset>/X.npy        float64 (n, d) features, C order, NOT scaled (the benchmark fits a
                       StandardScaler on each training split)
<dataset>/y.npy        int64 (n,) labels (binary: 1 = positive class; law-zfya5: 0..4)
<dataset>/s_<attr>.npy int64 (n,) binary group code of sensitive attribute <attr> (names in
                       meta.json / manifest.json: index 0 and 1)
<dataset>/meta.json    feature names, class names, attribute definitions, row count
<dataset>/split_<seed>_train.npy, split_<seed>_test.npy
                       int64 row indices (sorted) of the 70/30 train/test split with that seed
                       (fair_data::Splitter, stratified on the label), seeds 0..4
results-quick.json, results-full.json
                       the raw measurements python/bench/mitigation.py wrote (one record per
                       case x seed x method configuration), when the benchmark has run

Datasets: adult (adult_tfco, 48,842 rows: the seeded splits replace the UCI train/test split),
compas (compas_propublica, African-American and Caucasian rows only), german (german_credit),
law (law_school, binary bar passage), law-zfya5 (law_school_zfya_classes(5), multi-class).
Cases (dataset x attribute): adult-sex, adult-race (White vs others), compas-race, german-sex,
law-race (White vs others), law-zfya5-race (multi-class).
";

/// Exports every dataset into `dir`; returns the manifest written there.
pub fn export_all(dir: &Path) -> Result<(PathBuf, Value)> {
    std::fs::create_dir_all(dir).map_err(io_err(dir))?;
    let mut datasets = Vec::new();
    for e in exports()? {
        let sub = dir.join(e.dir);
        std::fs::create_dir_all(&sub).map_err(io_err(&sub))?;
        let d = &e.data;
        write_if_changed(&sub.join("X.npy"), &npy_f64_matrix(d.x()))?;
        let y: Vec<i64> = d.y().iter().map(|&v| v as i64).collect();
        write_if_changed(&sub.join("y.npy"), &npy_i64(&y))?;
        let mut attrs = Vec::new();
        for (name, definition, codes, names) in &e.attributes {
            write_if_changed(&sub.join(format!("s_{name}.npy")), &npy_i64(codes))?;
            let n1 = codes.iter().filter(|&&c| c == 1).count();
            attrs.push(json!({
                "name": name,
                "definition": definition,
                "groups": names,
                "counts": [codes.len() - n1, n1],
            }));
        }
        let mut splits = Vec::new();
        for seed in SPLIT_SEEDS {
            let s = Splitter::new()
                .test(TEST_FRACTION)
                .seed(seed)
                .split_stratified(d.y())?;
            let mut train: Vec<i64> = s.train.iter().map(|&i| i as i64).collect();
            let mut test: Vec<i64> = s.test.iter().map(|&i| i as i64).collect();
            train.sort_unstable();
            test.sort_unstable();
            write_if_changed(
                &sub.join(format!("split_{seed}_train.npy")),
                &npy_i64(&train),
            )?;
            write_if_changed(&sub.join(format!("split_{seed}_test.npy")), &npy_i64(&test))?;
            splits.push(json!({ "seed": seed, "train": train.len(), "test": test.len() }));
        }
        let meta = json!({
            "dataset": e.dir,
            "recipe": e.recipe,
            "note": e.note,
            "rows": d.n_rows(),
            "features": d.n_features(),
            "feature_names": d.feature_names(),
            "class_names": d.class_names(),
            "class_counts": d.class_counts(),
            "attributes": attrs,
            "splits": splits,
        });
        write_if_changed(
            &sub.join("meta.json"),
            serde_json::to_string_pretty(&meta)
                .unwrap_or_default()
                .as_bytes(),
        )?;
        let mut summary = meta.clone();
        if let Some(m) = summary.as_object_mut() {
            m.remove("feature_names");
        }
        datasets.push(summary);
    }
    let cases: Vec<Value> = CASES
        .iter()
        .map(|c| {
            json!({ "case": c.name, "dataset": c.dir, "attribute": c.attribute, "multiclass": c.multiclass })
        })
        .collect();
    let manifest = json!({
        "split": {
            "seeds": SPLIT_SEEDS,
            "test_fraction": TEST_FRACTION,
            "stratified_on": "label",
            "splitter": "fair_data::Splitter (ChaCha8 shuffle per label stratum)",
        },
        "datasets": datasets,
        "cases": cases,
    });
    let path = dir.join("manifest.json");
    write_if_changed(
        &path,
        serde_json::to_string_pretty(&manifest)
            .unwrap_or_default()
            .as_bytes(),
    )?;
    write_if_changed(&dir.join("README.txt"), README.as_bytes())?;
    Ok((path, manifest))
}
