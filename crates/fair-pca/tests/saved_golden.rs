//! The `FKPC` bytes are frozen: a projection saves to exactly the bytes captured from the
//! format's first implementation, and those bytes decode and re-save unchanged (issue 27 moved
//! the codec into `fair_core::bytes`; this proves the layout did not move with it).

use fair_pca::Projection;
use nalgebra::{DMatrix, DVector};

const GOLDEN: &str = "464b504301030000000000000002000000000000000600000000000000000000000000f03f000000000000000000000000000000000000000000000000333333333333e33f9a9999999999e93f0300000000000000000000000000e03f000000000000f0bf0000000000000240";

fn hex(b: &[u8]) -> String {
    b.iter().map(|x| format!("{x:02x}")).collect()
}

fn unhex(s: &str) -> Vec<u8> {
    (0..s.len())
        .step_by(2)
        .map(|i| u8::from_str_radix(&s[i..i + 2], 16).unwrap())
        .collect()
}

fn projection() -> Projection {
    Projection::new(
        DMatrix::from_column_slice(3, 2, &[1.0, 0.0, 0.0, 0.0, 0.6, 0.8]),
        DVector::from_vec(vec![0.5, -1.0, 2.25]),
    )
    .unwrap()
}

#[test]
fn saved_bytes_are_the_frozen_layout() {
    assert_eq!(hex(&projection().to_bytes()), GOLDEN);
    let back = Projection::from_bytes(&unhex(GOLDEN)).unwrap();
    assert_eq!(back, projection());
    assert_eq!(hex(&back.to_bytes()), GOLDEN);
}
