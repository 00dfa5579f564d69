//! The data sets (the synthetic one and the Adult stand-in for Wine), their settings and splits.

use super::*;

pub(super) struct Config {
    pub(super) splits: u64,
    pub(super) lambda_grid: Vec<f64>,
    pub(super) d_grid: Vec<f64>,
    pub(super) mu_grid: Vec<f64>,
    pub(super) datasets: Vec<&'static str>,
}

impl Config {
    pub(super) fn new(quick: bool) -> Self {
        if quick {
            Self {
                splits: 1,
                lambda_grid: vec![1e-3, 1e-2, 1e-1],
                d_grid: vec![0.0, 0.01, 0.1],
                mu_grid: vec![0.1, 1.0],
                datasets: vec!["synthetic", "german"],
            }
        } else {
            Self {
                splits: 5,
                lambda_grid: vec![1e-4, 1e-3, 1e-2, 1e-1, 1.0],
                d_grid: PAPER_D_GRID.to_vec(),
                mu_grid: vec![0.1, 1.0],
                datasets: vec!["synthetic", "german", "adult"],
            }
        }
    }
}

/// A dataset with its protected class made binary.
pub(super) struct Source {
    pub(super) name: &'static str,
    pub(super) title: &'static str,
    pub(super) data: Dataset,
    pub(super) attribute: &'static str,
    pub(super) positive: &'static [&'static str],
    pub(super) z_desc: &'static str,
}

pub(super) fn load(name: &str) -> Result<Source> {
    Ok(match name {
        "synthetic" => Source {
            name: "synthetic",
            title: "Synthetic (paper's generator, n = 200, p = 2)",
            data: FairSvmSynthetic::new().seed(0).generate()?.data,
            attribute: "z",
            positive: &["z=+1"],
            z_desc: "z = +1 vs z = −1",
        },
        "german" => Source {
            name: "german",
            title: "German credit (z = renting)",
            data: recipes::german_credit()?.drop_features(&[
                "housing=A151",
                "housing=A152",
                "housing=A153",
            ])?,
            attribute: "housing",
            positive: &["rent"],
            z_desc: "rent (+1) vs own or for free (−1)",
        },
        _ => {
            let full = recipes::adult_tfco()?;
            let (_, _, sample) = Splitter::new()
                .test(SUBSAMPLE_ROWS / full.n_rows() as f64)
                .seed(SUBSAMPLE_SEED)
                .split_dataset(&full, true)?;
            let drop: Vec<String> = sample
                .feature_names()
                .iter()
                .filter(|n| n.starts_with("native_country") || n.starts_with("gender"))
                .cloned()
                .collect();
            let drop: Vec<&str> = drop.iter().map(String::as_str).collect();
            Source {
                name: "adult",
                title: "Adult, 1,500-row subsample (stand-in for Wine; z = sex)",
                data: sample.drop_features(&drop)?,
                attribute: "sex",
                positive: &["Female"],
                z_desc: "female (+1) vs male (−1)",
            }
        }
    })
}

/// One train/test split, standardized on the training part.
pub(super) struct Split {
    pub(super) x_train: DMatrix<f64>,
    /// Classes 0/1.
    pub(super) y_train: Vec<usize>,
    /// Two groups: the protected class (code 1, z = +1) and the rest (code 0).
    pub(super) z_train: Groups,
    pub(super) x_test: DMatrix<f64>,
    pub(super) y_test: Vec<usize>,
    pub(super) z_test: Groups,
}

/// The paper's ±1 of 0/1 codes (class or group code 1 → +1), for statistics in its notation.
pub(super) fn signs(codes: &[usize]) -> Vec<f64> {
    codes
        .iter()
        .map(|&c| if c == 1 { 1.0 } else { -1.0 })
        .collect()
}

pub(super) fn split(src: &Source, seed: u64) -> Result<Split> {
    let (train, _, test) = Splitter::new()
        .test(TEST_FRACTION)
        .seed(seed)
        .split_dataset(&src.data, true)?;
    let scaler = Standardizer::fit(train.x())?;
    Ok(Split {
        x_train: scaler.transform(train.x())?,
        y_train: train.y().to_vec(),
        z_train: one_vs_rest(train.groups(src.attribute)?, src.positive)?,
        x_test: scaler.transform(test.x())?,
        y_test: test.y().to_vec(),
        z_test: one_vs_rest(test.groups(src.attribute)?, src.positive)?,
    })
}

pub(super) fn splits_for(cfg: &Config, src: &Source) -> u64 {
    if src.name == "adult" {
        cfg.splits.min(STAND_IN_SPLITS)
    } else {
        cfg.splits
    }
}
