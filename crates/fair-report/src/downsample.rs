//! Thinning long curves so an SVG stays small however many rows the curve was computed from.

/// The most points a curve keeps in a chart (plus the points the caller asks to keep).
pub const MAX_CURVE_POINTS: usize = 2_000;

/// At most `max` evenly spaced points of `points` (by index), always keeping the first and the
/// last, plus every index in `keep` (out-of-range indices are ignored); order is preserved.
///
/// ```
/// let pts: Vec<(f64, f64)> = (0..10_000).map(|i| (i as f64, 0.0)).collect();
/// let thin = fair_report::downsample(&pts, 100, &[4_321]);
/// assert!(thin.len() <= 101);
/// assert_eq!(thin[0], pts[0]);
/// assert_eq!(*thin.last().unwrap(), pts[9_999]);
/// assert!(thin.contains(&pts[4_321]));
/// ```
pub fn downsample(points: &[(f64, f64)], max: usize, keep: &[usize]) -> Vec<(f64, f64)> {
    let n = points.len();
    if n <= max.max(2) {
        return points.to_vec();
    }
    let max = max.max(2);
    let mut idx: Vec<usize> = (0..max)
        .map(|k| ((k as f64) * (n - 1) as f64 / (max - 1) as f64).round() as usize)
        .chain(keep.iter().copied().filter(|&i| i < n))
        .collect();
    idx.sort_unstable();
    idx.dedup();
    idx.into_iter().map(|i| points[i]).collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn short_curves_are_untouched() {
        let pts = vec![(0.0, 1.0), (1.0, 0.5)];
        assert_eq!(downsample(&pts, 2, &[]), pts);
        assert_eq!(downsample(&[], 10, &[3]), vec![]);
    }

    #[test]
    fn long_curves_keep_ends_and_requested_points() {
        let pts: Vec<(f64, f64)> = (0..5_001).map(|i| (i as f64, i as f64)).collect();
        let thin = downsample(&pts, 50, &[7, 10_000]);
        assert!(thin.len() <= 51);
        assert_eq!(thin.first(), Some(&(0.0, 0.0)));
        assert_eq!(thin.last(), Some(&(5_000.0, 5_000.0)));
        assert!(thin.contains(&(7.0, 7.0)));
        assert!(thin.windows(2).all(|w| w[0].0 < w[1].0));
    }
}
