//! Reference FairProjection fit through the `info-projection` Rust API only (no binding code),
//! for the differential test `python/tests/test_estimators_fair_projection.py`: the test writes
//! the inputs, runs this example, and checks that `fairkit.estimators.FairProjection` gives the
//! same multipliers, fair probabilities and predictions.
//!
//! Run: `cargo run -p fairkit-py --example fair_projection_reference -- <dir> [repeats]`
//!
//! With `repeats`, it also times `repeats` fits (the crate's `fit` on the prebuilt matrix and
//! groups, what a Rust user times) and prints `{"rust_fit_seconds": [...]}` for
//! `python/bench/bench_fair_projection.py`.
//!
//! `<dir>` holds (little-endian raw buffers):
//! - `settings.txt`: `n c constraint[,constraint…] alpha divergence solver with_labels`
//!   (`divergence` = kl|cross_entropy, `solver` = dual|admm, `with_labels` = 0|1);
//! - `group_names.txt`: one group name per line, in code order;
//! - `proba.f64` (N × C row-major), `codes.i64` (N), `labels.i64` (N, when `with_labels`).
//!
//! Writes `lambda.f64`, `fair_proba.f64` (N × C row-major, the fitting rows) and `pred.i64`.

use fair_data::Groups;
use info_projection::{Constraint, Decision, Divergence, FairProjection, Solver};
use nalgebra::DMatrix;
use std::error::Error;
use std::path::Path;
use std::time::Instant;

fn read_f64(path: &Path) -> Result<Vec<f64>, Box<dyn Error>> {
    let bytes = std::fs::read(path)?;
    Ok(bytes
        .chunks_exact(8)
        .map(|b| f64::from_le_bytes(b.try_into().unwrap_or([0; 8])))
        .collect())
}

fn read_usize(path: &Path) -> Result<Vec<usize>, Box<dyn Error>> {
    let bytes = std::fs::read(path)?;
    bytes
        .chunks_exact(8)
        .map(|b| {
            let v = i64::from_le_bytes(b.try_into().unwrap_or([0; 8]));
            usize::try_from(v).map_err(|e| e.into())
        })
        .collect()
}

fn write_f64(path: &Path, values: &[f64]) -> Result<(), Box<dyn Error>> {
    let bytes: Vec<u8> = values.iter().flat_map(|v| v.to_le_bytes()).collect();
    Ok(std::fs::write(path, bytes)?)
}

fn main() -> Result<(), Box<dyn Error>> {
    let dir = std::env::args()
        .nth(1)
        .ok_or("usage: fair_projection_reference <dir>")?;
    let dir = Path::new(&dir);
    let settings = std::fs::read_to_string(dir.join("settings.txt"))?;
    let f: Vec<&str> = settings.split_whitespace().collect();
    if f.len() != 7 {
        return Err(format!("settings.txt needs 7 fields, got {}", f.len()).into());
    }
    let (n, c): (usize, usize) = (f[0].parse()?, f[1].parse()?);
    let constraints = f[2]
        .split(',')
        // The shared vocabulary (fair-core's table: the canonical names and their aliases).
        .map(str::parse::<Constraint>)
        .collect::<Result<Vec<_>, _>>()?;
    let divergence = match f[4] {
        "kl" => Divergence::Kl,
        _ => Divergence::CrossEntropy,
    };
    let solver = match f[5] {
        "dual" => Solver::Dual,
        _ => Solver::Admm,
    };
    let names: Vec<String> = std::fs::read_to_string(dir.join("group_names.txt"))?
        .lines()
        .map(str::to_string)
        .collect();
    let probs = DMatrix::from_row_slice(n, c, &read_f64(&dir.join("proba.f64"))?);
    let groups = Groups::new(read_usize(&dir.join("codes.i64"))?, names)?;
    let params = FairProjection::params()
        .constraints(&constraints)
        .alpha(f[3].parse()?)
        .divergence(divergence)
        .solver(solver);
    let labels = if f[6] == "1" {
        Some(read_usize(&dir.join("labels.i64"))?)
    } else {
        None
    };
    let fit = || match &labels {
        Some(y) => params.fit_with_labels(&probs, &groups, y),
        None => params.fit(&probs, &groups),
    };
    let fitted = fit()?;
    if let Some(repeats) = std::env::args().nth(2) {
        let mut seconds = Vec::new();
        for _ in 0..repeats.parse::<usize>()? {
            let start = Instant::now();
            let again = fit()?;
            seconds.push(start.elapsed().as_secs_f64());
            if again.lambda() != fitted.lambda() {
                return Err("two fits on the same data gave different multipliers".into());
            }
        }
        println!("{{\"rust_fit_seconds\": {seconds:?}}}");
    }
    write_f64(&dir.join("lambda.f64"), fitted.lambda())?;
    let fair = fitted.predict_proba(&probs, &groups)?;
    write_f64(&dir.join("fair_proba.f64"), fair.transpose().as_slice())?;
    let pred: Vec<u8> = fitted
        .predict(&probs, &groups, Decision::Argmax)?
        .into_iter()
        .flat_map(|l| (l as i64).to_le_bytes())
        .collect();
    std::fs::write(dir.join("pred.i64"), pred)?;
    Ok(())
}
