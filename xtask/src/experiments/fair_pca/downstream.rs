//! Downstream (Sec. 6.3): a linear SVM on the r = 10 projections; per-group accuracy, TPR, DEO.

use super::*;

pub(super) struct DownstreamRow {
    pub(super) method: String,
    pub(super) rank: usize,
    pub(super) accuracy: f64,
    pub(super) accuracy_by_group: Vec<f64>,
    pub(super) tpr_by_group: Vec<f64>,
    pub(super) deo: f64,
    pub(super) svm_converged: bool,
}

pub(super) struct Downstream {
    pub(super) title: &'static str,
    pub(super) key: &'static str,
    pub(super) setup: String,
    pub(super) group_names: Vec<String>,
    pub(super) rows: Vec<DownstreamRow>,
}

pub(super) fn svm_row(
    method: &str,
    rank: usize,
    z_train: &DMatrix<f64>,
    train: &Dataset,
    z_test: &DMatrix<f64>,
    test: &Dataset,
) -> Result<DownstreamRow> {
    let scaler = Standardizer::fit(z_train)?;
    let svm = LinearSvm::fit(
        &scaler.transform(z_train)?,
        train.y(),
        &LinearSvmParams::default(),
    )?;
    let pred = svm.predict(&scaler.transform(z_test)?);
    let groups = test.groups("sex")?;
    let gc = GroupConfusion::new(test.y(), &pred, groups, None)?;
    let acc = gc.summary(Rate::Accuracy, ZeroDivision::Error)?;
    let tpr = gc.summary(Rate::TruePositive, ZeroDivision::Error)?;
    let deo =
        equal_opportunity_difference(test.y(), &pred, groups, None, &ParityOptions::default())?;
    Ok(DownstreamRow {
        method: method.to_string(),
        rank,
        accuracy: acc.overall,
        accuracy_by_group: acc.by_group.iter().map(|v| v.unwrap_or(f64::NAN)).collect(),
        tpr_by_group: tpr.by_group.iter().map(|v| v.unwrap_or(f64::NAN)).collect(),
        deo,
        svm_converged: svm.converged,
    })
}

/// PCA fitted on the training rows with every method, then the SVM; plus the SVM on all features.
pub(super) fn downstream_rows(train: &Dataset, test: &Dataset) -> Result<Vec<DownstreamRow>> {
    let g = train.groups("sex")?;
    let mut rows = vec![svm_row(
        "no reduction (all features)",
        train.n_features(),
        train.x(),
        train,
        test.x(),
        test,
    )?];
    for method in Method::ALL {
        let (proj, _) = fit(method, train.x(), g, DOWNSTREAM_R)?;
        rows.push(svm_row(
            method.name(),
            proj.rank(),
            &proj.transform(train.x())?,
            train,
            &proj.transform(test.x())?,
            test,
        )?);
    }
    Ok(rows)
}

pub(super) fn downstream_adult(train: &Dataset, test: &Dataset) -> Result<Downstream> {
    Ok(Downstream {
        title: "Adult, gender",
        key: "adult-sex",
        setup: format!(
            "projections and SVM fitted on the {} adult.data rows, evaluated on the {} adult.test rows",
            train.n_rows(),
            test.n_rows()
        ),
        group_names: train.groups("sex")?.names().to_vec(),
        rows: downstream_rows(train, test)?,
    })
}

pub(super) fn downstream_credit(credit: &Dataset) -> Result<Downstream> {
    let (train, _, test) = Splitter::new()
        .test(TEST_FRACTION)
        .seed(SPLIT_SEED)
        .split_dataset(credit, true)?;
    let scaler = Standardizer::fit(train.x())?;
    let train = train.with_features(scaler.transform(train.x())?)?;
    let test = test.with_features(scaler.transform(test.x())?)?;
    Ok(Downstream {
        title: "Default credit, sex",
        key: "credit-sex",
        setup: format!(
            "70/30 split stratified on the label (seed {SPLIT_SEED}); z-scoring, projections \
             and SVM fitted on the {} training rows, evaluated on the {} test rows",
            train.n_rows(),
            test.n_rows()
        ),
        group_names: train.groups("sex")?.names().to_vec(),
        rows: downstream_rows(&train, &test)?,
    })
}
