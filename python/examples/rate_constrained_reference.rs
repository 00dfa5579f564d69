//! Reference rate-constrained fit through the `game-opt` Rust API only (no binding code), for
//! `python/tests/test_estimators_rate_constrained.py`: the test writes the inputs, runs this
//! example, and checks that `fairkit.estimators.RateConstrainedClassifier` gives the same
//! mixture, probabilities and sampled predictions.
//!
//! Run: `cargo run -p fairkit-py --example rate_constrained_reference -- <dir>`
//!
//! `<dir>` holds:
//! - `settings.txt`: `n d hidden algorithm solution iterations batch_size lr_theta lr_lambda seed`
//!   (algorithm = proxy_lagrangian|zero_one_ext|hinge|unconstrained, solution =
//!   m_stoch|t_stoch|best|last; Adam, hinge objective, no ridge, snapshots every 20 steps);
//! - `goals.txt`: one goal per line, `kind direction slack_kind slack kappa group` (group `-`
//!   for all rows); `group_names.txt`: one group name per line, in code order;
//! - `x.f64` (N × d row-major), `y.i64` (0/1), `codes.i64` (little-endian raw buffers).
//!
//! Writes `proba.f64` (P(ŷ = 1) per row), `pred.i64` (sampled with the fit seed) and
//! `weights.f64` (the mixture weights).

use fair_data::Groups;
use game_opt::{
    Algorithm, Constraint, Direction, Examples, GameOptParams, GroupConstraint, Linear, Mlp, Model,
    Problem, Slack, SolutionType, StochasticClassifier, Subset, goals,
};
use nalgebra::DMatrix;
use std::error::Error;
use std::path::Path;

type Res<T> = Result<T, Box<dyn Error>>;

fn read_f64(path: &Path) -> Res<Vec<f64>> {
    Ok(std::fs::read(path)?
        .chunks_exact(8)
        .map(|b| f64::from_le_bytes(b.try_into().unwrap_or([0; 8])))
        .collect())
}

fn read_usize(path: &Path) -> Res<Vec<usize>> {
    std::fs::read(path)?
        .chunks_exact(8)
        .map(|b| {
            Ok(usize::try_from(i64::from_le_bytes(
                b.try_into().unwrap_or([0; 8]),
            ))?)
        })
        .collect()
}

fn write_bytes(path: &Path, values: impl Iterator<Item = [u8; 8]>) -> Res<()> {
    Ok(std::fs::write(path, values.flatten().collect::<Vec<u8>>())?)
}

fn goal_constraints(line: &str, names: &[&str]) -> Res<Vec<Constraint>> {
    let f: Vec<&str> = line.split_whitespace().collect();
    if f.len() != 6 {
        return Err(format!("goal line needs 6 fields: {line}").into());
    }
    let direction = match f[1] {
        "at_least" => Direction::AtLeast,
        "at_most" => Direction::AtMost,
        _ => Direction::Both,
    };
    let value: f64 = f[3].parse()?;
    let slack = match f[2] {
        "additive" => Slack::Additive(value),
        "multiplicative" => Slack::Multiplicative(value),
        _ => Slack::None,
    };
    let kappa: f64 = f[4].parse()?;
    let subset = if f[5] == "-" {
        Subset::all()
    } else {
        Subset::group("group", f[5])
    };
    // Group goals through the shared vocabulary (fair-core's table, canonical names and aliases).
    if let Ok(c) = f[0].parse::<GroupConstraint>() {
        return Ok(goals::parity(c, "group", names, direction, slack));
    }
    Ok(match f[0] {
        "coverage_at_least" => vec![goals::coverage_at_least(subset, kappa)],
        "coverage_at_most" => vec![goals::coverage_at_most(subset, kappa)],
        "recall_at_least" => vec![goals::recall_at_least(subset, kappa)],
        "precision_at_least" => vec![goals::precision_at_least(subset, kappa)],
        "accuracy_at_least" => vec![goals::accuracy_at_least(subset, kappa)],
        other => return Err(format!("unknown goal {other}").into()),
    })
}

fn outputs<M: Model>(
    dir: &Path,
    clf: &StochasticClassifier<M>,
    x: &DMatrix<f64>,
    seed: u64,
) -> Res<()> {
    let proba = clf.positive_probability(x)?;
    write_bytes(
        &dir.join("proba.f64"),
        proba.iter().map(|v| v.to_le_bytes()),
    )?;
    let pred = clf.predict(x, seed)?;
    write_bytes(
        &dir.join("pred.i64"),
        pred.iter().map(|&v| (v as i64).to_le_bytes()),
    )?;
    write_bytes(
        &dir.join("weights.f64"),
        clf.components().iter().map(|(w, _)| w.to_le_bytes()),
    )
}

fn main() -> Res<()> {
    let dir = std::env::args()
        .nth(1)
        .ok_or("usage: rate_constrained_reference <dir>")?;
    let dir = Path::new(&dir);
    let settings = std::fs::read_to_string(dir.join("settings.txt"))?;
    let s: Vec<&str> = settings.split_whitespace().collect();
    if s.len() != 10 {
        return Err(format!("settings.txt needs 10 fields, got {}", s.len()).into());
    }
    let (n, d, hidden): (usize, usize, usize) = (s[0].parse()?, s[1].parse()?, s[2].parse()?);
    let algorithm = match s[3] {
        "proxy_lagrangian" => Algorithm::ProxyLagrangian,
        "zero_one_ext" => Algorithm::ZeroOneExt,
        "hinge" => Algorithm::Hinge,
        _ => Algorithm::Unconstrained,
    };
    let solution = match s[4] {
        "m_stoch" => SolutionType::MStoch,
        "t_stoch" => SolutionType::TStoch,
        "best" => SolutionType::Best,
        _ => SolutionType::Last,
    };
    let seed: u64 = s[9].parse()?;
    let names_text = std::fs::read_to_string(dir.join("group_names.txt"))?;
    let names: Vec<&str> = names_text.lines().collect();
    let mut constraints = Vec::new();
    for line in std::fs::read_to_string(dir.join("goals.txt"))?.lines() {
        constraints.extend(goal_constraints(line, &names)?);
    }
    let x = DMatrix::from_row_slice(n, d, &read_f64(&dir.join("x.f64"))?);
    let y = read_usize(&dir.join("y.i64"))?;
    let groups = Groups::new(
        read_usize(&dir.join("codes.i64"))?,
        names.iter().map(|s| s.to_string()).collect(),
    )?;
    let examples = Examples::new(&x, &y)?.with_attribute("group", groups)?;
    let problem = if constraints.is_empty() {
        Problem::unconstrained(examples)?
    } else {
        Problem::new(examples, constraints)?
    };
    let params = GameOptParams::new()
        .algorithm(algorithm)
        .iterations(s[5].parse()?)
        .batch_size(s[6].parse()?)
        .lr_theta(s[7].parse()?)
        .lr_lambda(s[8].parse()?)
        .seed(seed);
    if hidden == 0 {
        let fit = params.fit(&problem, Linear::new(d))?;
        let clf = fit.classifier(&fit.solution(solution)?)?;
        outputs(dir, &clf, &x, seed)
    } else {
        let fit = params.fit(&problem, Mlp::new(d, hidden, seed)?)?;
        let clf = fit.classifier(&fit.solution(solution)?)?;
        outputs(dir, &clf, &x, seed)
    }
}
