//! Reference fair-SVM fit through the `fair-svm` Rust API only (no binding code), for
//! `python/tests/test_estimators_fair_svm.py`, which compares `fairkit.estimators.FairSVM` with
//! it bit for bit.
//!
//! Run: `cargo run -p fairkit-py --example fair_svm_reference -- <dir>`
//!
//! `<dir>` holds `settings.txt` (`n d kernel gamma lambda d_bound mu`, kernel =
//! linear_primal|linear|rbf; demographic parity, default tolerance and iteration limit) and the
//! little-endian raw buffers `x.f64` (N × d row-major), `y.f64` and `z.f64` (±1, the paper's
//! notation; mapped here to the crate's 0/1 classes and two groups, +1 → code 1). Writes
//! `scores.f64` (the decision function on the training rows).

use fair_svm::{Groups, Kernel, KernelFairSvm, SpectralFairSvm};
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

fn main() -> Res<()> {
    let dir = std::env::args()
        .nth(1)
        .ok_or("usage: fair_svm_reference <dir>")?;
    let dir = Path::new(&dir);
    let text = std::fs::read_to_string(dir.join("settings.txt"))?;
    let s: Vec<&str> = text.split_whitespace().collect();
    if s.len() != 7 {
        return Err(format!("settings.txt needs 7 fields, got {}", s.len()).into());
    }
    let (n, d): (usize, usize) = (s[0].parse()?, s[1].parse()?);
    let gamma: f64 = s[3].parse()?;
    let (lambda, bound, mu): (f64, f64, f64) = (s[4].parse()?, s[5].parse()?, s[6].parse()?);
    let x = DMatrix::from_row_slice(n, d, &read_f64(&dir.join("x.f64"))?);
    let code = |v: &f64| usize::from(*v > 0.0);
    let y: Vec<usize> = read_f64(&dir.join("y.f64"))?.iter().map(code).collect();
    let z = Groups::new(
        read_f64(&dir.join("z.f64"))?.iter().map(code).collect(),
        vec!["z=-1".into(), "z=+1".into()],
    )?;
    let scores = match s[2] {
        "linear_primal" => SpectralFairSvm::params()
            .lambda(lambda)
            .d(bound)
            .mu(mu)
            .fit(&x, &y, &z)?
            .decision_function(&x)?,
        kernel => {
            let k = if kernel == "rbf" {
                Kernel::Rbf { gamma }
            } else {
                Kernel::Linear
            };
            KernelFairSvm::params(k)
                .lambda(lambda)
                .d(bound)
                .mu(mu)
                .fit(&x, &y, &z)?
                .decision_function(&x)?
        }
    };
    let bytes: Vec<u8> = scores.iter().flat_map(|v| v.to_le_bytes()).collect();
    Ok(std::fs::write(dir.join("scores.f64"), bytes)?)
}
