//! `FeasibleSet`'s `Display`/`FromStr` round-trip every set bit for bit.

use dc_opt::FeasibleSet;
use proptest::prelude::*;

fn sets() -> impl Strategy<Value = FeasibleSet> {
    prop_oneof![
        Just(FeasibleSet::Whole),
        (any::<f64>(), any::<f64>())
            .prop_filter("not NaN", |(a, b)| !a.is_nan() && !b.is_nan())
            .prop_map(|(lower, upper)| FeasibleSet::Box { lower, upper }),
        any::<f64>()
            .prop_filter("not NaN", |r| !r.is_nan())
            .prop_map(|radius| FeasibleSet::Ball { radius }),
    ]
}

proptest! {
    #[test]
    fn display_then_parse_is_the_same_set(set in sets()) {
        let back: FeasibleSet = set.to_string().parse().unwrap();
        prop_assert_eq!(back, set);
        prop_assert_eq!(back.to_string(), set.to_string());
    }

    #[test]
    fn any_string_parses_or_errs_without_panicking(s in ".{0,24}") {
        let _ = s.parse::<FeasibleSet>();
    }
}

#[test]
fn malformed_forms_are_errors_listing_the_accepted_forms() {
    for s in [
        "",
        "box",
        "box(1)",
        "ball(1, 2)",
        "box(1, x)",
        "ball(1",
        "cube(1)",
        "whole()",
    ] {
        let e = s.parse::<FeasibleSet>().unwrap_err();
        assert!(e.to_string().contains("box(lower, upper)"), "{s}: {e}");
    }
}
