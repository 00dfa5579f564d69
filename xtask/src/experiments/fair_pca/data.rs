//! The data cases: Adult and Default credit with their sensitive attributes, standardised.

use super::*;

/// One dataset × sensitive attribute.
pub(super) struct Case {
    pub(super) key: &'static str,
    pub(super) title: &'static str,
    pub(super) x: DMatrix<f64>,
    pub(super) groups: Groups,
    pub(super) r_grid: Vec<usize>,
    pub(super) notes: String,
}

/// Adult one-hot (122 columns): the 32,561 adult.data rows (training) and the 16,281 adult.test
/// rows; quick mode subsamples both (seeded).
pub(super) fn adult_parts(quick: bool) -> Result<(Dataset, Dataset)> {
    let all = recipes::adult_tfco()?;
    let n = all.n_rows();
    let train_idx: Vec<usize> = (0..recipes::ADULT_TRAIN_ROWS).collect();
    let test_idx: Vec<usize> = (recipes::ADULT_TRAIN_ROWS..n).collect();
    let mut train = all.select(&train_idx)?;
    let mut test = all.select(&test_idx)?;
    if quick {
        train = subsample(&train, QUICK_ADULT_ROWS)?;
        test = subsample(&test, QUICK_ADULT_ROWS / 2)?;
    }
    Ok((train, test))
}

pub(super) fn subsample(ds: &Dataset, rows: usize) -> Result<Dataset> {
    let keep = rows as f64 / ds.n_rows() as f64;
    let idx = Splitter::new()
        .test(1.0 - keep)
        .seed(SPLIT_SEED)
        .split_stratified(ds.y())?;
    Ok(ds.select(&idx.train)?)
}

/// Default credit with the paper's 23 features (EDUCATION and MARRIAGE as integer codes):
/// `fair_data::recipes::default_credit_23`.
pub(super) fn credit_23() -> Result<Dataset> {
    Ok(recipes::default_credit_23()?)
}

pub(super) fn standardized(x: &DMatrix<f64>) -> Result<DMatrix<f64>> {
    Ok(Standardizer::fit(x)?.transform(x)?)
}

pub(super) fn build_cases(quick: bool, adult: &Dataset, credit: &Dataset) -> Result<Vec<Case>> {
    let adult_grid = if quick {
        vec![2, 10]
    } else {
        vec![1, 2, 3, 5, 8, 10, 15, 20, 30]
    };
    let credit_grid: Vec<usize> = if quick {
        vec![2, 10]
    } else {
        (1..=22).collect()
    };
    let credit_x = standardized(credit.x())?;
    // Marriage: the 54 rows with the undocumented code 0 are dropped (the paper's 3 groups sum
    // to 29,946 = 30,000 − 54).
    let marriage = credit.groups("marriage")?;
    let unknown = marriage.names().iter().position(|n| n == "unknown (0)");
    let keep: Vec<usize> = (0..credit.n_rows())
        .filter(|&i| Some(marriage.codes()[i]) != unknown)
        .collect();
    let credit_married = credit.select(&keep)?;
    let married_x = standardized(credit_married.x())?;
    let adult_note = format!(
        "{} rows of adult.data{}, 122 one-hot/bucket indicator columns (`adult_tfco`), centred \
         (not scaled: every column is a 0/1 indicator)",
        adult.n_rows(),
        if quick { " (quick-mode subsample)" } else { "" }
    );
    let credit_note = "30,000 rows, the paper's 23 features (EDUCATION and MARRIAGE as codes), \
                       z-scored"
        .to_string();
    Ok(vec![
        Case {
            key: "adult-sex",
            title: "Adult, gender (2 groups)",
            x: adult.x().clone(),
            groups: adult.groups("sex")?.clone(),
            r_grid: adult_grid.clone(),
            notes: adult_note.clone(),
        },
        Case {
            key: "adult-race",
            title: "Adult, race (5 groups)",
            x: adult.x().clone(),
            groups: adult.groups("race")?.clone(),
            r_grid: adult_grid,
            notes: adult_note,
        },
        Case {
            key: "credit-sex",
            title: "Default credit, sex (2 groups)",
            x: credit_x.clone(),
            groups: credit.groups("sex")?.clone(),
            r_grid: credit_grid.clone(),
            notes: credit_note.clone(),
        },
        Case {
            key: "credit-marriage",
            title: "Default credit, marriage (3 groups)",
            x: married_x,
            groups: credit_married.groups("marriage")?.compact(),
            r_grid: credit_grid.clone(),
            notes: "29,946 rows (the 54 rows with MARRIAGE = 0 dropped, as the paper's counts \
                    imply), 23 features, z-scored on these rows"
                .into(),
        },
        Case {
            key: "credit-education",
            title: "Default credit, education (4 groups)",
            x: credit_x,
            groups: credit.groups("education")?.clone(),
            r_grid: credit_grid,
            notes: format!(
                "{credit_note}; groups graduate school / university / high school / other \
                 (codes 0, 4, 5, 6 merged into other)"
            ),
        },
    ])
}
