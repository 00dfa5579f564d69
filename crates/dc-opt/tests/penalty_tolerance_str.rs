//! `Penalty`'s and `Tolerance`'s `Display`/`FromStr` round-trip every value bit for bit, the unit
//! enums' names parse back to every variant, and no string panics.

use dc_opt::baselines::{PairwiseKind, Penalty};
use dc_opt::{DpVariant, Tolerance};
use proptest::prelude::*;

fn real() -> impl Strategy<Value = f64> {
    any::<f64>().prop_filter("not NaN", |v| !v.is_nan())
}

fn penalties() -> impl Strategy<Value = Penalty> {
    prop_oneof![
        prop::collection::vec(real(), 0..6).prop_map(|grid| Penalty::PartialSp { grid }),
        real().prop_map(|threshold| Penalty::PartialDp { threshold }),
    ]
}

fn tolerances() -> impl Strategy<Value = Tolerance> {
    prop_oneof![
        real().prop_map(Tolerance::Constant),
        real().prop_map(Tolerance::Diminishing),
    ]
}

fn penalty_bits(p: &Penalty) -> (u8, Vec<u64>) {
    match p {
        Penalty::PartialSp { grid } => (0, grid.iter().map(|v| v.to_bits()).collect()),
        Penalty::PartialDp { threshold } => (1, vec![threshold.to_bits()]),
    }
}

fn tolerance_bits(t: Tolerance) -> (u8, u64) {
    match t {
        Tolerance::Constant(e) => (0, e.to_bits()),
        Tolerance::Diminishing(c) => (1, c.to_bits()),
    }
}

proptest! {
    #[test]
    fn penalty_display_then_parse_is_the_same_penalty(p in penalties()) {
        let back: Penalty = p.to_string().parse().unwrap();
        prop_assert_eq!(penalty_bits(&back), penalty_bits(&p));
    }

    #[test]
    fn tolerance_display_then_parse_is_the_same_schedule(t in tolerances()) {
        let back: Tolerance = t.to_string().parse().unwrap();
        prop_assert_eq!(tolerance_bits(back), tolerance_bits(t));
    }

    #[test]
    fn any_string_parses_or_errs_without_panicking(s in ".{0,24}", t in "[a-z_]{0,12}\\([-0-9e., ]{0,16}\\)") {
        for s in [&s, &t] {
            let _ = s.parse::<Penalty>();
            let _ = s.parse::<Tolerance>();
            let _ = s.parse::<PairwiseKind>();
            let _ = s.parse::<DpVariant>();
        }
    }
}

#[test]
fn every_unit_variant_round_trips() {
    for k in [
        PairwiseKind::GroupAuc,
        PairwiseKind::InterGroup,
        PairwiseKind::IntraGroup,
    ] {
        assert_eq!(k.to_string().parse::<PairwiseKind>(), Ok(k));
    }
    for v in [
        DpVariant::DemographicParity,
        DpVariant::EqualOpportunity,
        DpVariant::EqualizedOdds,
    ] {
        assert_eq!(v.to_string().parse::<DpVariant>(), Ok(v));
    }
}

#[test]
fn malformed_forms_are_errors_listing_the_accepted_forms() {
    for s in [
        "",
        "partial_sp",
        "partial_dp()",
        "partial_dp(0, 1)",
        "partial_sp(0.1, x)",
        "partial_sp(0.1,)",
        "partial_sp(0.1",
        "Partial_dp(0)",
        "penalty(0)",
    ] {
        let e = s.parse::<Penalty>().unwrap_err();
        assert!(e.to_string().contains("partial_dp(threshold)"), "{s}: {e}");
    }
    for s in [
        "",
        "constant",
        "constant()",
        "constant(1, 2)",
        "constant(x)",
        "linear(1)",
    ] {
        let e = s.parse::<Tolerance>().unwrap_err();
        assert!(e.to_string().contains("diminishing(c)"), "{s}: {e}");
    }
}
