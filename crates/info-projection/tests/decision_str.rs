//! `Decision`'s `Display`/`FromStr` round-trip every decision bit for bit.

use info_projection::Decision;
use proptest::prelude::*;

proptest! {
    #[test]
    fn display_then_parse_is_the_same_decision(t in any::<f64>().prop_filter("not NaN", |t| !t.is_nan()), argmax in any::<bool>()) {
        let d = if argmax { Decision::Argmax } else { Decision::Threshold(t) };
        let back: Decision = d.to_string().parse().unwrap();
        prop_assert_eq!(back.to_string(), d.to_string());
        match (back, d) {
            (Decision::Threshold(a), Decision::Threshold(b)) => prop_assert_eq!(a.to_bits(), b.to_bits()),
            (a, b) => prop_assert_eq!(a, b),
        }
    }

    #[test]
    fn any_string_parses_or_errs_without_panicking(s in ".{0,24}") {
        let _ = s.parse::<Decision>();
    }
}

#[test]
fn malformed_forms_are_errors_listing_the_accepted_forms() {
    for s in [
        "",
        "Argmax",
        "threshold",
        "threshold()",
        "threshold(0.5",
        "threshold(x)",
    ] {
        let e = s.parse::<Decision>().unwrap_err();
        assert!(e.to_string().contains("threshold(t)"), "{s}: {e}");
    }
}
