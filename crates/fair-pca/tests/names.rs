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
    round_trip::<fair_pca::Objectives>(fair_pca::Objectives::NAMES, "objectives");
    round_trip::<fair_pca::Penalty>(fair_pca::Penalty::NAMES, "penalty");
    round_trip::<fair_pca::LossScale>(fair_pca::LossScale::NAMES, "loss scale");
    round_trip::<fair_pca::Normalization>(fair_pca::Normalization::NAMES, "normalization");
    round_trip::<fair_pca::Geometry>(fair_pca::Geometry::NAMES, "geometry");
    round_trip::<fair_pca::Centering>(fair_pca::Centering::NAMES, "centering");
    round_trip::<fair_pca::StartSelection>(fair_pca::StartSelection::NAMES, "start selection");
    round_trip::<fair_pca::MwRounding>(fair_pca::MwRounding::NAMES, "MW rounding");
}
