//! The `FKGO` bytes are frozen: a mixture saves to exactly the bytes captured from the format's
//! first implementation, and those bytes decode and re-save unchanged (issue 27 moved the codec
//! into `fair_core::bytes`; this proves the layout did not move with it).

use game_opt::{Linear, Mlp, Model, SavedClassifier, StochasticClassifier};

const GOLDEN_LINEAR: &str = "464b474f0100020000000000000000000000000000000200000000000000000000000000d03f0300000000000000000000000000f03f00000000000000c0000000000000e03f000000000000e83f03000000000000000000000000000000000000000000f03f000000000000f0bf";
const GOLDEN_MLP: &str = "464b474f0101020000000000000002000000000000000100000000000000000000000000f03f0900000000000000000000000000e0bf000000000000d8bf000000000000d0bf000000000000c0bf0000000000000000000000000000c03f000000000000d03f000000000000d83f000000000000e03f";

fn hex(b: &[u8]) -> String {
    b.iter().map(|x| format!("{x:02x}")).collect()
}

fn unhex(s: &str) -> Vec<u8> {
    (0..s.len())
        .step_by(2)
        .map(|i| u8::from_str_radix(&s[i..i + 2], 16).unwrap())
        .collect()
}

fn linear() -> StochasticClassifier<Linear> {
    StochasticClassifier::new(vec![
        (0.25, Linear::from_parts(&[1.0, -2.0], 0.5).unwrap()),
        (0.75, Linear::from_parts(&[0.0, 1.0], -1.0).unwrap()),
    ])
    .unwrap()
}

fn mlp() -> StochasticClassifier<Mlp> {
    let mut m = Mlp::new(2, 2, 0).unwrap();
    for (i, p) in m.parameters_mut().iter_mut().enumerate() {
        *p = i as f64 * 0.125 - 0.5;
    }
    StochasticClassifier::new(vec![(1.0, m)]).unwrap()
}

#[test]
fn saved_bytes_are_the_frozen_layout() {
    assert_eq!(hex(&linear().to_bytes()), GOLDEN_LINEAR);
    assert_eq!(hex(&mlp().to_bytes()), GOLDEN_MLP);
    let back = StochasticClassifier::<Linear>::from_bytes(&unhex(GOLDEN_LINEAR)).unwrap();
    assert_eq!(back, linear());
    assert_eq!(hex(&back.to_bytes()), GOLDEN_LINEAR);
    match SavedClassifier::from_bytes(&unhex(GOLDEN_MLP)).unwrap() {
        SavedClassifier::Mlp(back) => {
            assert_eq!(back, mlp());
            assert_eq!(hex(&back.to_bytes()), GOLDEN_MLP);
        }
        other => panic!("expected a network mixture, got {other:?}"),
    }
}
