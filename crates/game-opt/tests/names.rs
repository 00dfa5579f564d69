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
    round_trip::<game_opt::Algorithm>(game_opt::Algorithm::NAMES, "algorithm");
    round_trip::<game_opt::SolutionType>(game_opt::SolutionType::NAMES, "solution");
    round_trip::<game_opt::Optimizer>(game_opt::Optimizer::NAMES, "optimizer");
    round_trip::<game_opt::ObjectiveLoss>(game_opt::ObjectiveLoss::NAMES, "objective loss");
    round_trip::<game_opt::rates::Direction>(game_opt::rates::Direction::NAMES, "direction");
    round_trip::<game_opt::Prediction>(game_opt::Prediction::NAMES, "prediction");
}

/// The group goals parse through fair-core's one constraint table: every canonical name and
/// alias of a supported constraint, typed errors naming the supported ones for the rest.
#[test]
fn group_constraints_come_from_the_shared_vocabulary() {
    fair_core::assert_constraint_subset::<game_opt::GroupConstraint>();
    assert_eq!(
        "statistical_parity".parse::<game_opt::GroupConstraint>(),
        Ok(game_opt::GroupConstraint::DemographicParity)
    );
}
