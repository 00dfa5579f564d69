//! dc-opt `CrossModel::from_bytes` (the bytes `PartialParityClassifier` pickles) on arbitrary
//! bytes, as given and behind the `FKDC` magic and version. Invariants: no panic or abort (no
//! allocation sized by a decoded count); a decoded model re-encodes to the same bytes and
//! scores a small matrix of its width.
#![no_main]

use dc_opt::{CrossModel, SparseRows};
use fair_data::Groups;
use libfuzzer_sys::fuzz_target;
use nalgebra::DMatrix;

fn check(bytes: &[u8]) {
    let Ok(model) = CrossModel::from_bytes(bytes) else {
        return;
    };
    assert_eq!(model.to_bytes(), bytes, "canonical encoding");
    let d = model.n_features();
    let k = model.group_names().len();
    let x = SparseRows::from_dense(&DMatrix::from_fn(3, d, |i, j| i as f64 - j as f64))
        .expect("finite rows");
    let groups = Groups::new(
        (0..3).map(|i| i % k).collect(),
        model.group_names().to_vec(),
    );
    if let Ok(groups) = groups {
        let s = model.scores(&x, &groups).expect("shapes agree");
        assert_eq!(s.len(), 3);
    }
}

fuzz_target!(|data: &[u8]| {
    check(data);
    let mut framed = b"FKDC\x01".to_vec();
    framed.extend_from_slice(data);
    check(&framed);
});
