//! `RateBound`'s `Display`/`FromStr` round-trip every bound bit for bit; `HardRate`'s names parse
//! back to every variant; no string panics.

use info_projection::{HardRate, RateBound};
use proptest::prelude::*;

fn bits(b: RateBound) -> (u8, u64) {
    match b {
        RateBound::Relative(a) => (0, a.to_bits()),
        RateBound::Difference(e) => (1, e.to_bits()),
    }
}

proptest! {
    #[test]
    fn display_then_parse_is_the_same_bound(v in any::<f64>().prop_filter("not NaN", |v| !v.is_nan()), relative in any::<bool>()) {
        let b = if relative { RateBound::Relative(v) } else { RateBound::Difference(v) };
        let back: RateBound = b.to_string().parse().unwrap();
        prop_assert_eq!(bits(back), bits(b));
    }

    #[test]
    fn any_string_parses_or_errs_without_panicking(s in ".{0,24}", t in "[a-z_]{0,12}\\([-0-9e., ]{0,12}\\)") {
        for s in [&s, &t] {
            let _ = s.parse::<RateBound>();
            let _ = s.parse::<HardRate>();
        }
    }
}

#[test]
fn every_hard_rate_round_trips() {
    for r in [
        HardRate::Selection,
        HardRate::TruePositive,
        HardRate::FalsePositive,
        HardRate::Accuracy,
    ] {
        assert_eq!(r.to_string().parse::<HardRate>(), Ok(r));
    }
}

#[test]
fn malformed_forms_are_errors_listing_the_accepted_forms() {
    for s in [
        "",
        "relative",
        "relative()",
        "relative(1, 2)",
        "difference(x)",
        "difference(0.1",
        "Difference(0.1)",
        "ratio(0.8)",
    ] {
        let e = s.parse::<RateBound>().unwrap_err();
        assert_eq!(e.what, "rate bound");
        assert!(e.to_string().contains("difference(eps)"), "{s}: {e}");
    }
}
