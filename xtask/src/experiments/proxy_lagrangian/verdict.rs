//! Hit / miss of each row against the paper's test error and test violation.

use super::*;

/// Whether a row reaches the paper's figure: test error within ±0.005 (on the seed mean) and a
/// test violation no worse than the paper's.
pub(super) fn verdict(a: &Aggregate, p: &[f64; 6]) -> String {
    row_verdict(a.stat(2), a.stat(5), p[2], p[5]).into()
}

/// Tolerance on the test error: a row hits when its mean is within 0.005 of the paper's.
pub(super) const ERROR_TOL: f64 = 0.005;

/// The verdict of one row from its test error and test violation (mean, sd over seeds) against
/// the paper's: the error within [`ERROR_TOL`], the violation no worse (1e-12 slack); a miss
/// within 1 sd (violation) or 2 sd (error) says so; a NaN mean (no seed) is "not measured".
pub(super) fn row_verdict(
    (e, e_sd): (f64, f64),
    (v, v_sd): (f64, f64),
    paper_error: f64,
    paper_violation: f64,
) -> &'static str {
    if e.is_nan() || v.is_nan() {
        return "not measured";
    }
    let err_ok = (e - paper_error).abs() <= ERROR_TOL;
    let vio_ok = v <= paper_violation + 1e-12;
    let within_noise = (e - paper_error).abs() <= 2.0 * e_sd;
    match (err_ok, vio_ok) {
        (true, true) => "hit",
        (true, false) if v - paper_violation <= v_sd => "error hit, violation worse (within 1 sd)",
        (true, false) => "error hit, violation worse",
        (false, true) if within_noise => "error off > 0.005 (within 2 sd)",
        (false, true) => "error off > 0.005",
        (false, false) => "error off > 0.005, violation worse",
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const P_ERR: f64 = 0.15;
    const P_VIO: f64 = 0.02;

    #[test]
    fn error_just_inside_and_just_outside_the_tolerance() {
        assert_eq!(
            row_verdict((P_ERR + 0.0049, 0.0), (P_VIO, 0.0), P_ERR, P_VIO),
            "hit"
        );
        assert_eq!(
            row_verdict((P_ERR - 0.0049, 0.0), (P_VIO, 0.0), P_ERR, P_VIO),
            "hit"
        );
        assert_eq!(
            row_verdict((P_ERR + 0.0051, 0.0), (P_VIO, 0.0), P_ERR, P_VIO),
            "error off > 0.005"
        );
        // Off by 0.0051 with sd 0.003: within 2 sd.
        assert_eq!(
            row_verdict((P_ERR - 0.0051, 0.003), (P_VIO, 0.0), P_ERR, P_VIO),
            "error off > 0.005 (within 2 sd)"
        );
        // sd 0.0025: 2 sd = 0.005 < 0.0051.
        assert_eq!(
            row_verdict((P_ERR - 0.0051, 0.0025), (P_VIO, 0.0), P_ERR, P_VIO),
            "error off > 0.005"
        );
    }

    #[test]
    fn violation_no_worse_than_the_paper() {
        assert_eq!(
            row_verdict((P_ERR, 0.0), (P_VIO - 0.01, 0.0), P_ERR, P_VIO),
            "hit"
        );
        assert_eq!(
            row_verdict((P_ERR, 0.0), (P_VIO + 0.001, 0.002), P_ERR, P_VIO),
            "error hit, violation worse (within 1 sd)"
        );
        assert_eq!(
            row_verdict((P_ERR, 0.0), (P_VIO + 0.001, 0.0005), P_ERR, P_VIO),
            "error hit, violation worse"
        );
        assert_eq!(
            row_verdict((P_ERR + 0.01, 0.0), (P_VIO + 0.001, 0.0), P_ERR, P_VIO),
            "error off > 0.005, violation worse"
        );
    }

    #[test]
    fn missing_values_are_not_measured() {
        let none = mean_sd(&[]);
        assert_eq!(
            row_verdict(none, (P_VIO, 0.0), P_ERR, P_VIO),
            "not measured"
        );
        assert_eq!(
            row_verdict((P_ERR, 0.0), none, P_ERR, P_VIO),
            "not measured"
        );
    }

    #[test]
    fn verdict_reads_test_error_and_test_violation() {
        let a = Aggregate {
            label: "x".into(),
            values: [
                vec![0.0],
                vec![0.0],
                vec![0.15, 0.152],
                vec![0.0],
                vec![0.0],
                vec![0.01, 0.03],
            ],
            chosen: Vec::new(),
            support: Vec::new(),
        };
        // Test error 0.151 (hit), test violation 0.02 against the paper's 0.02 (no worse).
        assert_eq!(verdict(&a, &[0.0, 0.0, 0.151, 0.0, 0.0, 0.02]), "hit");
        assert_eq!(
            verdict(&a, &[0.0, 0.0, 0.151, 0.0, 0.0, 0.019]),
            "error hit, violation worse (within 1 sd)"
        );
    }
}
