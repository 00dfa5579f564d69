//! `StepRule`'s `Display`/`FromStr` round-trip every rule bit for bit; the unit enums' names
//! parse back to every variant; no string panics.

use fair_pca::{
    Centering, Geometry, LossScale, MwRounding, Normalization, StartSelection, StepRule,
};
use proptest::prelude::*;

fn rules() -> impl Strategy<Value = StepRule> {
    let real = any::<f64>().prop_filter("not NaN", |v| !v.is_nan());
    prop_oneof![
        real.clone().prop_map(|eta0| StepRule::InverseSqrt { eta0 }),
        (real.clone(), any::<u32>())
            .prop_map(|(beta, max_halvings)| StepRule::Armijo { beta, max_halvings }),
        (real, any::<u32>())
            .prop_map(|(beta, max_halvings)| StepRule::ArmijoWarm { beta, max_halvings }),
    ]
}

fn bits(rule: StepRule) -> (u8, u64, u32) {
    match rule {
        StepRule::InverseSqrt { eta0 } => (0, eta0.to_bits(), 0),
        StepRule::Armijo { beta, max_halvings } => (1, beta.to_bits(), max_halvings),
        StepRule::ArmijoWarm { beta, max_halvings } => (2, beta.to_bits(), max_halvings),
    }
}

proptest! {
    #[test]
    fn display_then_parse_is_the_same_rule(rule in rules()) {
        let back: StepRule = rule.to_string().parse().unwrap();
        prop_assert_eq!(bits(back), bits(rule));
    }

    #[test]
    fn any_string_parses_or_errs_without_panicking(s in ".{0,24}", t in "[a-z_]{0,12}\\([-0-9e., ]{0,12}\\)") {
        for s in [&s, &t] {
            let _ = s.parse::<StepRule>();
            let _ = s.parse::<LossScale>();
            let _ = s.parse::<Normalization>();
            let _ = s.parse::<Geometry>();
            let _ = s.parse::<Centering>();
            let _ = s.parse::<StartSelection>();
            let _ = s.parse::<MwRounding>();
        }
    }
}

#[test]
fn defaults_round_trip_and_every_unit_variant_has_a_name() {
    for rule in [
        StepRule::default(),
        StepRule::armijo(),
        StepRule::armijo_warm(),
    ] {
        assert_eq!(rule.to_string().parse::<StepRule>().unwrap(), rule);
    }
    use fair_core::ParseEnumError;
    fn all<
        T: std::str::FromStr<Err = ParseEnumError> + std::fmt::Display + PartialEq + std::fmt::Debug,
    >(
        variants: &[T],
    ) {
        for v in variants {
            assert_eq!(&v.to_string().parse::<T>().unwrap(), v);
        }
    }
    all(&[LossScale::PerSample, LossScale::Raw]);
    all(&[
        Normalization::Unit,
        Normalization::PenaltySlope,
        Normalization::None,
    ]);
    all(&[Geometry::Euclidean, Geometry::Riemannian]);
    all(&[Centering::Global, Centering::None]);
    all(&[StartSelection::Fairest, StartSelection::LowestLoss]);
    all(&[
        MwRounding::TopEigenvectors,
        MwRounding::BestIterate,
        MwRounding::ExtraDimensionLp,
    ]);
}

#[test]
fn malformed_forms_are_errors_listing_the_accepted_forms() {
    for s in [
        "",
        "armijo",
        "armijo()",
        "armijo(1e-4)",
        "armijo(1e-4, -1)",
        "armijo(1e-4, 2.5)",
        "inverse_sqrt(1, 2)",
        "inverse_sqrt(x)",
        "inverse_sqrt(1",
        "Armijo(1e-4, 30)",
        "newton(1)",
    ] {
        let e = s.parse::<StepRule>().unwrap_err();
        assert_eq!(e.what, "step rule");
        assert!(
            e.to_string().contains("armijo_warm(beta, max_halvings)"),
            "{s}: {e}"
        );
    }
}
