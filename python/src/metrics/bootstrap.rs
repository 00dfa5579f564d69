//! Bootstrap resamples drawn from per-cell counts (for `fairkit.metrics.MetricFrame`).
//!
//! Resampling `n` rows with replacement gives each cell (a group × (label, prediction)
//! combination) a count; jointly those counts are Multinomial(n, observed shares). A rate of a
//! cell depends on the rows only through its cell counts, so drawing the counts directly is the
//! row bootstrap's distribution at a cost independent of `n`.

use crate::convert::contiguous;
use crate::errors::invalid;
use numpy::{IntoPyArray, PyArray1, PyReadonlyArray1};
use pyo3::prelude::*;
use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;
use rand_distr::{Binomial, Distribution};

/// Adds the bootstrap kernel to `fairkit._core.metrics`.
pub fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_function(wrap_pyfunction!(multinomial_resamples, m)?)?;
    Ok(())
}

/// `n_boot` draws of Multinomial(Σ counts, counts / Σ counts), row-major in one flat `int64`
/// array of `n_boot × len(counts)`: the per-cell counts of `n_boot` row resamples with
/// replacement. Seeded ChaCha8 (`seed`): the same seed gives the same draws on every platform.
/// The GIL is released while drawing.
///
/// # Errors
/// A negative count.
#[pyfunction]
fn multinomial_resamples<'py>(
    py: Python<'py>,
    counts: PyReadonlyArray1<'py, i64>,
    n_boot: usize,
    seed: u64,
) -> PyResult<Bound<'py, PyArray1<i64>>> {
    let counts = contiguous(counts.as_slice(), "cell counts")?;
    if let Some(bad) = counts.iter().find(|&&c| c < 0) {
        return Err(invalid(format!("cell counts must be >= 0, got {bad}")));
    }
    let counts: Vec<u64> = counts.iter().map(|&c| c.unsigned_abs()).collect();
    let draws = py.detach(|| draw(&counts, n_boot, seed));
    Ok(draws.into_pyarray(py))
}

/// See [`multinomial_resamples`]: sequential binomials, cell `c` taking a Binomial share of the
/// rows left with probability `counts[c] / Σ counts[c..]` (exact integer tail sums, so a cell
/// with no rows never receives one and the last cell with rows takes the rest).
fn draw(counts: &[u64], n_boot: usize, seed: u64) -> Vec<i64> {
    let k = counts.len();
    let mut tail = vec![0_u64; k + 1];
    for c in (0..k).rev() {
        tail[c] = tail[c + 1] + counts[c];
    }
    let n = tail[0];
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let mut out = vec![0_i64; n_boot * k];
    for row in out.chunks_mut(k.max(1)).take(n_boot) {
        let mut left = n;
        for c in 0..k {
            if left == 0 {
                break;
            }
            let x = if tail[c + 1] == 0 {
                left
            } else if counts[c] == 0 {
                0
            } else {
                let p = counts[c] as f64 / tail[c] as f64;
                Binomial::new(left, p)
                    .map_or(0, |b| b.sample(&mut rng))
                    .min(left)
            };
            row[c] = i64::try_from(x).unwrap_or(i64::MAX);
            left -= x;
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::draw;

    #[test]
    fn every_draw_keeps_the_total_and_empty_cells() {
        let counts = [5, 0, 7, 1, 0, 20];
        let out = draw(&counts, 200, 7);
        for row in out.chunks(counts.len()) {
            assert_eq!(row.iter().sum::<i64>(), 33);
            assert_eq!(row[1], 0);
            assert_eq!(row[4], 0);
        }
        assert_eq!(out, draw(&counts, 200, 7));
        assert_ne!(out, draw(&counts, 200, 8));
    }

    #[test]
    fn the_mean_share_is_the_observed_share() {
        let counts = [300, 100, 600];
        let out = draw(&counts, 4000, 1);
        let mean0 = out.chunks(3).map(|r| r[0] as f64).sum::<f64>() / 4000.0;
        // E = 300, SD of the mean = sqrt(1000 * 0.3 * 0.7 / 4000) ≈ 0.23
        assert!((mean0 - 300.0).abs() < 1.5, "{mean0}");
    }
}
