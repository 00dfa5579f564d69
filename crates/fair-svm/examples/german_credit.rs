//! Plain, Zafar and spectral linear SVMs on German credit (z = renting), with the fit report
//! and the test-set Δ / AUC of each. Run: `cargo run --release -p fair-svm --example german_credit`.

use fair_data::{Splitter, Standardizer, recipes};
use fair_metrics::ks::ks_statistic;
use fair_metrics::roc::roc_auc;
use fair_svm::{FairSvmError, SpectralFairSvm, SpectralFairSvmParams, one_vs_rest};

fn main() -> Result<(), FairSvmError> {
    let data = recipes::german_credit()?.drop_features(&[
        "housing=A151",
        "housing=A152",
        "housing=A153",
    ])?;
    let (train, _, test) = Splitter::new()
        .test(0.3)
        .seed(0)
        .split_dataset(&data, true)?;
    let scaler = Standardizer::fit(train.x())?;
    let (x_train, x_test) = (scaler.transform(train.x())?, scaler.transform(test.x())?);
    // Housing has three groups; renters (code 1) against owners and "for free" (code 0).
    let z = one_vs_rest(train.groups("housing")?, &["rent"])?;
    let z_test = one_vs_rest(test.groups("housing")?, &["rent"])?;
    println!("{:<8} {:>8} {:>8}  report", "model", "Δ", "AUC");
    for (name, params) in [
        ("LSVM", SpectralFairSvmParams::plain()),
        ("ZSVM", SpectralFairSvmParams::zafar(0.01)),
        ("SSVM", SpectralFairSvm::params().d(0.01).mu(0.1)),
    ] {
        let model = params.lambda(0.1).fit(&x_train, train.y(), &z)?;
        let s = model.decision_function(&x_test)?;
        let delta = ks_statistic(s.as_slice(), &z_test, None)?.max;
        let auc = roc_auc(test.y(), s.as_slice(), None)?;
        println!("{name:<8} {delta:>8.4} {auc:>8.4}  {}", model.report());
    }
    Ok(())
}
