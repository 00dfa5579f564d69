//! The `FKDC` bytes are frozen: a model saves to exactly the bytes captured from the format's
//! first implementation, and those bytes decode and re-save unchanged (issue 27 moved the codec
//! into `fair_core::bytes`; this proves the layout did not move with it).

use dc_opt::CrossModel;

const GOLDEN: &str = "464b4443010600000000000000000000000000e03f000000000000f03f000000000000d0bf000000000000000076830df4f521943e000000000000f8bf0300000000000000010000000000000061030000000000000062c3a90000000000000000";

fn hex(b: &[u8]) -> String {
    b.iter().map(|x| format!("{x:02x}")).collect()
}

fn unhex(s: &str) -> Vec<u8> {
    (0..s.len())
        .step_by(2)
        .map(|i| u8::from_str_radix(&s[i..i + 2], 16).unwrap())
        .collect()
}

fn model() -> CrossModel {
    CrossModel::new(
        vec![0.5, 1.0, -0.25, 0.0, 3.0e-7, -1.5],
        vec!["a".into(), "bé".into(), String::new()],
    )
    .unwrap()
}

#[test]
fn saved_bytes_are_the_frozen_layout() {
    assert_eq!(hex(&model().to_bytes()), GOLDEN);
    let back = CrossModel::from_bytes(&unhex(GOLDEN)).unwrap();
    assert_eq!(back, model());
    assert_eq!(hex(&back.to_bytes()), GOLDEN);
}
