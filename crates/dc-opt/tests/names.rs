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
    round_trip::<dc_opt::Surrogate>(dc_opt::Surrogate::NAMES, "surrogate");
    round_trip::<dc_opt::baselines::PairwiseKind>(
        dc_opt::baselines::PairwiseKind::NAMES,
        "pairwise kind",
    );
}

/// The constraints parse through fair-core's one table: every canonical name and alias of a
/// supported constraint, typed errors naming the supported ones for the rest.
#[test]
fn constraints_come_from_the_shared_vocabulary() {
    fair_core::assert_constraint_subset::<dc_opt::PartialConstraint>();
    fair_core::assert_constraint_subset::<dc_opt::DpVariant>();
}

#[test]
fn dp_variants_are_spelled_as_the_partial_constraints_of_the_same_models() {
    use dc_opt::{DpVariant, PartialConstraint};
    for c in [
        PartialConstraint::DemographicParity,
        PartialConstraint::EqualOpportunity,
        PartialConstraint::EqualizedOdds,
    ] {
        let v = c.dp_variant().unwrap();
        assert_eq!(v.to_string(), c.to_string());
        assert_eq!(c.to_string().parse::<DpVariant>(), Ok(v));
    }
}
