//! `Display`/`FromStr` of the crate's option enums: every name round-trips, aliases parse, and a
//! bad string is a typed error naming every accepted spelling.

use fair_core::ParseEnumError;

fn round_trip<T>(names: &[&str], what: &str)
where
    T: std::str::FromStr<Err = ParseEnumError> + std::fmt::Display + std::fmt::Debug,
{
    for name in names {
        let v: T = name.parse().unwrap();
        assert_eq!(v.to_string(), *name);
    }
    for bad in ["", "bogus", "Kl", " kl"] {
        let err = bad.parse::<T>().unwrap_err();
        assert_eq!(err.what, what);
        assert_eq!(err.got, bad);
        for name in names {
            assert!(err.expected.contains(&format!("{name:?}")), "{err}");
        }
    }
}

#[test]
fn names_round_trip_and_bad_strings_are_rejected() {
    round_trip::<info_projection::Divergence>(info_projection::Divergence::NAMES, "divergence");
    round_trip::<info_projection::Solver>(info_projection::Solver::NAMES, "solver");
    round_trip::<info_projection::VStep>(info_projection::VStep::NAMES, "V-step");
    round_trip::<info_projection::DualMethod>(info_projection::DualMethod::NAMES, "dual method");
    round_trip::<info_projection::QpSolver>(info_projection::QpSolver::NAMES, "QP solver");
    round_trip::<info_projection::RowPolicy>(info_projection::RowPolicy::NAMES, "row policy");
    round_trip::<info_projection::HardRate>(info_projection::HardRate::NAMES, "hard rate");
}

/// Every canonical name and alias of a supported constraint parses (fair-core's table), the
/// others are typed errors naming the supported ones.
#[test]
fn constraints_come_from_the_shared_vocabulary() {
    fair_core::assert_constraint_subset::<info_projection::Constraint>();
    assert_eq!(
        info_projection::Constraint::StatisticalParity.to_string(),
        "demographic_parity"
    );
    assert_eq!(
        "statistical_parity".parse::<info_projection::Constraint>(),
        Ok(info_projection::Constraint::StatisticalParity)
    );
    assert!(matches!(
        "percentile_parity".parse::<info_projection::Constraint>(),
        Err(fair_core::ConstraintError::Unsupported { .. })
    ));
}

#[test]
fn aliases_parse() {
    assert_eq!(
        "demographic_parity".parse::<info_projection::Constraint>(),
        Ok(info_projection::Constraint::StatisticalParity)
    );
    assert_eq!(
        "overall_accuracy_equality".parse::<info_projection::Constraint>(),
        Ok(info_projection::Constraint::OverallAccuracy)
    );
    assert_eq!(
        "true_positive_rate_parity".parse::<info_projection::Constraint>(),
        Ok(info_projection::Constraint::EqualOpportunity)
    );
}
