//! Summary statistics of the experiments' reports (means and spreads over seeds or splits),
//! written once for every experiment.
//!
//! Plain sums in slice order, not statrs' `Statistics` (a running-update mean): the reproduced
//! numbers stay bit-for-bit those of the per-experiment helpers these replace.

/// The arithmetic mean, NaN for no values.
///
/// ```text
/// mean = Σ v_i / n
/// ```
pub fn mean(v: &[f64]) -> f64 {
    v.iter().sum::<f64>() / v.len() as f64
}

/// The sample standard deviation (n − 1 in the denominator): 0 for one value, NaN for none.
///
/// ```text
/// sd = sqrt(Σ (v_i − mean)² / (n − 1))
/// ```
pub fn sd(v: &[f64]) -> f64 {
    mean_sd(v).1
}

/// The mean and the sample standard deviation (see [`mean`] and [`sd`]).
pub fn mean_sd(v: &[f64]) -> (f64, f64) {
    if v.is_empty() {
        return (f64::NAN, f64::NAN);
    }
    let n = v.len() as f64;
    let m = v.iter().sum::<f64>() / n;
    if v.len() < 2 {
        return (m, 0.0);
    }
    let var = v.iter().map(|x| (x - m).powi(2)).sum::<f64>() / (n - 1.0);
    (m, var.sqrt())
}

/// The mean and the half-width of its two-sided 95 % Student-t confidence interval
/// (`t · sd / √n`; the normal 1.96 from 5 degrees of freedom on, as the IDCA report states);
/// a half-width of 0 for one value, (NaN, 0) for none.
pub fn mean_ci95(v: &[f64]) -> (f64, f64) {
    let n = v.len() as f64;
    let m = v.iter().sum::<f64>() / n;
    if v.len() < 2 {
        return (m, 0.0);
    }
    let var = v.iter().map(|x| (x - m).powi(2)).sum::<f64>() / (n - 1.0);
    // Student-t 97.5 % quantiles for 1..=4 degrees of freedom, then the normal value.
    let t = match v.len() - 1 {
        1 => 12.706,
        2 => 4.303,
        3 => 3.182,
        4 => 2.776,
        _ => 1.96,
    };
    (m, t * (var / n).sqrt())
}

#[cfg(test)]
mod tests {
    use super::*;

    const EPS: f64 = 1e-12;

    #[test]
    fn mean_and_sample_sd() {
        let (m, s) = mean_sd(&[1.0, 2.0, 3.0]);
        assert!((m - 2.0).abs() < EPS && (s - 1.0).abs() < EPS);
        assert!((mean(&[1.0, 2.0, 3.0]) - 2.0).abs() < EPS);
        assert!(
            (sd(&[2.0, 4.0, 4.0, 4.0, 5.0, 5.0, 7.0, 9.0]) - (32.0_f64 / 7.0).sqrt()).abs() < EPS
        );
        let (m, s) = mean_sd(&[0.5]);
        assert!((m - 0.5).abs() < EPS && s.abs() < EPS);
    }

    #[test]
    fn no_values_give_nan() {
        assert!(mean(&[]).is_nan());
        assert!(sd(&[]).is_nan());
        let (m, c) = mean_ci95(&[]);
        assert!(m.is_nan() && c.abs() < EPS);
    }

    #[test]
    fn t_interval_half_widths() {
        // Two values 1, 3: sd √2, t(1) = 12.706, half-width 12.706 · √2 / √2.
        let (m, c) = mean_ci95(&[1.0, 3.0]);
        assert!((m - 2.0).abs() < EPS && (c - 12.706).abs() < EPS);
        // Five values: t(4) = 2.776.
        let v = [1.0, 2.0, 3.0, 4.0, 5.0];
        let (_, c) = mean_ci95(&v);
        assert!((c - 2.776 * (2.5_f64 / 5.0).sqrt()).abs() < EPS);
        // Six values: the normal 1.96.
        let v = [1.0, 2.0, 3.0, 4.0, 5.0, 6.0];
        let (_, c) = mean_ci95(&v);
        assert!((c - 1.96 * (3.5_f64 / 6.0).sqrt()).abs() < EPS);
        let (m, c) = mean_ci95(&[0.25]);
        assert!((m - 0.25).abs() < EPS && c.abs() < EPS);
    }

    /// The helpers these replace computed exactly these sums; pin one value bit for bit.
    #[test]
    fn bitwise_as_the_plain_sums() {
        let v = [0.1, 0.2, 0.7, 1e-3];
        let m = v.iter().sum::<f64>() / 4.0;
        assert_eq!(mean(&v).to_bits(), m.to_bits());
        let s = (v.iter().map(|x| (x - m) * (x - m)).sum::<f64>() / 3.0).sqrt();
        assert_eq!(sd(&v).to_bits(), s.to_bits());
    }
}
