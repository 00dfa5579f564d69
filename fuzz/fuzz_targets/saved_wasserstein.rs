//! fair-regression `FittedBarycenter::from_bytes` (the bytes `WassersteinBarycenter` pickles) on
//! arbitrary bytes, as given and behind the `FKWB` magic and version. Invariants: no panic or
//! abort (no allocation sized by a decoded count); a decoded post-processor re-encodes to the
//! same bytes, and transforms a few finite predictions of every group it names into as many
//! values, none NaN (or refuses them with an error: a stratum unseen at fit time).
#![no_main]

use fair_core::Groups;
use fair_regression::FittedBarycenter;
use libfuzzer_sys::fuzz_target;

fn check(bytes: &[u8]) {
    let Ok(fitted) = FittedBarycenter::from_bytes(bytes) else {
        return;
    };
    assert_eq!(fitted.to_bytes(), bytes, "canonical encoding");
    // Row i is in group i mod m of each attribute: every named group appears at least once.
    let widest = fitted.group_names().iter().map(Vec::len).max().unwrap_or(0);
    if widest > 256 {
        return;
    }
    let rows = widest.max(1);
    let attributes: Vec<Groups> = fitted
        .group_names()
        .iter()
        .map(|names| {
            let labels: Vec<&str> = (0..rows).map(|i| names[i % names.len()].as_str()).collect();
            Groups::from_labels(&labels)
        })
        .collect();
    let predictions: Vec<f64> = (0..rows).map(|i| i as f64 / 4.0 - 1.0).collect();
    if let Ok(out) = fitted.transform(&predictions, &attributes) {
        assert_eq!(out.len(), rows);
        assert!(
            out.iter().all(|v| !v.is_nan()),
            "NaN from finite predictions"
        );
    }
}

fuzz_target!(|data: &[u8]| {
    check(data);
    let mut framed = b"FKWB\x01".to_vec();
    framed.extend_from_slice(data);
    check(&framed);
});
