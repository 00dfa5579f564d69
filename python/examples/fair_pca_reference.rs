//! Reference FairPCA fit through the `fair-pca` Rust API only (no binding code), for
//! `python/tests/test_estimators_fair_pca.py`, which compares `fairkit.estimators.FairPCA` with
//! it bit for bit.
//!
//! Run: `cargo run -p fairkit-py --example fair_pca_reference -- <dir>`
//!
//! `<dir>` holds `settings.txt` (`n d rank max_iter random_starts seed`; default objectives,
//! penalty, α and tolerance), `group_names.txt` (one per line) and the little-endian raw
//! buffers `x.f64` (N × d row-major) and `codes.i64`. Writes `basis.f64` (d × r row-major) and
//! `transformed.f64` (N × r row-major).

use fair_data::Groups;
use fair_pca::FairPca;
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

fn write_rows(path: &Path, m: &DMatrix<f64>) -> Res<()> {
    let bytes: Vec<u8> = m
        .transpose()
        .as_slice()
        .iter()
        .flat_map(|v| v.to_le_bytes())
        .collect();
    Ok(std::fs::write(path, bytes)?)
}

fn main() -> Res<()> {
    let dir = std::env::args()
        .nth(1)
        .ok_or("usage: fair_pca_reference <dir>")?;
    let dir = Path::new(&dir);
    let text = std::fs::read_to_string(dir.join("settings.txt"))?;
    let s: Vec<usize> = text
        .split_whitespace()
        .map(str::parse)
        .collect::<Result<_, _>>()?;
    if s.len() != 6 {
        return Err(format!("settings.txt needs 6 fields, got {}", s.len()).into());
    }
    let (n, d) = (s[0], s[1]);
    let names: Vec<String> = std::fs::read_to_string(dir.join("group_names.txt"))?
        .lines()
        .map(str::to_string)
        .collect();
    let codes: Vec<usize> = std::fs::read(dir.join("codes.i64"))?
        .chunks_exact(8)
        .map(|b| i64::from_le_bytes(b.try_into().unwrap_or([0; 8])) as usize)
        .collect();
    let x = DMatrix::from_row_slice(n, d, &read_f64(&dir.join("x.f64"))?);
    let groups = Groups::new(codes, names)?;
    let fit = FairPca::params(s[2])
        .max_iter(s[3])
        .random_starts(s[4])
        .seed(s[5] as u64)
        .fit(&x, &groups)?;
    write_rows(&dir.join("basis.f64"), fit.basis())?;
    write_rows(&dir.join("transformed.f64"), &fit.transform(&x)?)
}
