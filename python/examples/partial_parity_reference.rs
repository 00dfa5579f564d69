//! Reference partial-parity fit through the `dc-opt` Rust API only (no binding code), for
//! `python/tests/test_estimators_partial_parity.py`, which compares
//! `fairkit.estimators.PartialParityClassifier` with it bit for bit.
//!
//! Run: `cargo run -p fairkit-py --example partial_parity_reference -- <dir>`
//!
//! `<dir>` holds `settings.txt` (`n d constraint alpha beta kappa grid_size threshold surrogate
//! outer_iters inner_iters eps`), `group_names.txt` (one per line) and the little-endian raw
//! buffers `x.f64` (N × d row-major), `y.i64` (0/1), `codes.i64`. Writes `weights.f64` and
//! `scores.f64` (the fitted scores of the training rows).

use dc_opt::{
    CrossData, Idca, PartialConstraint, PartialDp, PartialSp, SparseRows, Surrogate, cross_dim,
    cross_scores, percentile_grid,
};
use fair_data::Groups;
use fair_metrics::partial::PercentileInterval;
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

fn write_f64(path: &Path, values: &[f64]) -> Res<()> {
    let bytes: Vec<u8> = values.iter().flat_map(|v| v.to_le_bytes()).collect();
    Ok(std::fs::write(path, bytes)?)
}

fn main() -> Res<()> {
    let dir = std::env::args()
        .nth(1)
        .ok_or("usage: partial_parity_reference <dir>")?;
    let dir = Path::new(&dir);
    let text = std::fs::read_to_string(dir.join("settings.txt"))?;
    let s: Vec<&str> = text.split_whitespace().collect();
    if s.len() != 12 {
        return Err(format!("settings.txt needs 12 fields, got {}", s.len()).into());
    }
    let (n, d): (usize, usize) = (s[0].parse()?, s[1].parse()?);
    let interval = PercentileInterval::new(s[3].parse()?, s[4].parse()?)?;
    let kappa: f64 = s[5].parse()?;
    let surrogate = if s[8] == "logistic" {
        Surrogate::Logistic
    } else {
        Surrogate::HardSigmoid
    };
    let names: Vec<String> = std::fs::read_to_string(dir.join("group_names.txt"))?
        .lines()
        .map(str::to_string)
        .collect();
    let x = DMatrix::from_row_slice(n, d, &read_f64(&dir.join("x.f64"))?);
    let rows = SparseRows::from_dense(&x)?;
    let groups = Groups::new(read_usize(&dir.join("codes.i64"))?, names)?;
    let data = CrossData::new(&rows, &read_usize(&dir.join("y.i64"))?, &groups)?;
    let idca = Idca::params()
        .outer_iters(s[9].parse()?)
        .inner_iters(s[10].parse()?)
        .eps(s[11].parse()?);
    // The constraint through the shared vocabulary (fair-core's table, as the binding reads it).
    let constraint: PartialConstraint = s[2].parse()?;
    let weights = if let Some(variant) = constraint.dp_variant() {
        let model = PartialDp::new(&data, interval, kappa, s[7].parse()?, surrogate, variant)?;
        let fit = idca.fit(&model, &model.initial_point())?;
        fit.x[..cross_dim(d)].to_vec()
    } else {
        let grid = percentile_grid(interval, kappa, s[6].parse()?)?;
        let model = PartialSp::new(&data, interval, kappa, grid, surrogate)?;
        let fit = idca.fit(&model, &model.initial_point())?;
        model.weights(&fit.x).to_vec()
    };
    write_f64(&dir.join("weights.f64"), &weights)?;
    write_f64(
        &dir.join("scores.f64"),
        &cross_scores(&weights, &rows, &groups)?,
    )
}
