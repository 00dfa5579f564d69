//! Shared fixtures for the integration tests.
#![allow(dead_code)]

use fair_data::Groups;
use game_opt::{Direction, Examples, Problem, Slack, Subset, goals};
use nalgebra::DMatrix;

/// Tolerance for exact-rate comparisons (sums of a few fractions).
pub const EXACT: f64 = 1e-12;

/// Six rows, hand-checkable: features are the scores themselves (a unit linear model).
///
/// | row | y | h | g | score |
/// |---|---|---|---|---|
/// | 0 | 1 | 1 | a |  1.0 |
/// | 1 | 1 | 0 | a | -0.5 |
/// | 2 | 0 | 0 | a |  0.5 |
/// | 3 | 1 | 1 | b |  0.0 |
/// | 4 | 0 | 1 | b | -1.0 |
/// | 5 | 0 | 0 | b | -2.0 |
pub fn toy_examples() -> Examples {
    let scores = [1.0, -0.5, 0.5, 0.0, -1.0, -2.0];
    let x = DMatrix::from_row_slice(6, 1, &scores);
    Examples::new(&x, &[1, 1, 0, 1, 0, 0])
        .unwrap()
        .with_attribute("g", Groups::from_labels(&["a", "a", "a", "b", "b", "b"]))
        .unwrap()
        .with_baseline(&[1, 0, 0, 1, 1, 0])
        .unwrap()
        .with_mask("steer", vec![true, false, true, false, true, false])
        .unwrap()
}

/// The fixture's scores (its single feature).
pub const TOY_SCORES: [f64; 6] = [1.0, -0.5, 0.5, 0.0, -1.0, -2.0];

/// A synthetic two-group problem where group "b"'s positives score lower, so equal opportunity
/// binds. Deterministic (no RNG).
pub fn two_group_problem(n: usize) -> Problem {
    let group: Vec<&str> = (0..n).map(|i| if i % 3 == 0 { "b" } else { "a" }).collect();
    let y: Vec<usize> = (0..n).map(|i| usize::from((i * 7919) % 5 < 2)).collect();
    let x = DMatrix::from_fn(n, 3, |i, j| {
        let noise = (((i * 2_654_435_761) % 1000) as f64 / 1000.0 - 0.5) * 2.2;
        let b = i % 3 == 0;
        match j {
            0 => y[i] as f64 * 1.6 - 0.8 + noise - if b { 0.7 } else { 0.0 },
            1 => (((i * 7_777) % 101) as f64 / 101.0) - 0.5,
            _ => (((i * 40_503) % 997) as f64 / 997.0) - 0.5,
        }
    });
    let ex = Examples::new(&x, &y)
        .unwrap()
        .with_attribute("g", Groups::from_labels(&group))
        .unwrap();
    let _ = Subset::all();
    Problem::new(
        ex,
        goals::equal_opportunity(
            "g",
            &["a", "b"],
            Direction::AtLeast,
            Slack::Multiplicative(0.95),
        ),
    )
    .unwrap()
}
