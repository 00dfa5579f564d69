//! `Slack`'s `Display`/`FromStr` round-trip every slack bit for bit; `Prediction`'s names parse
//! back to every variant; no string panics.

use game_opt::{Prediction, Slack};
use proptest::prelude::*;

fn slacks() -> impl Strategy<Value = Slack> {
    let real = any::<f64>().prop_filter("not NaN", |v| !v.is_nan());
    prop_oneof![
        Just(Slack::None),
        real.clone().prop_map(Slack::Additive),
        real.prop_map(Slack::Multiplicative),
    ]
}

fn bits(s: Slack) -> (u8, u64) {
    match s {
        Slack::None => (0, 0),
        Slack::Additive(v) => (1, v.to_bits()),
        Slack::Multiplicative(v) => (2, v.to_bits()),
    }
}

proptest! {
    #[test]
    fn display_then_parse_is_the_same_slack(slack in slacks()) {
        let back: Slack = slack.to_string().parse().unwrap();
        prop_assert_eq!(bits(back), bits(slack));
    }

    #[test]
    fn any_string_parses_or_errs_without_panicking(s in ".{0,24}", t in "[a-z_]{0,14}\\([-0-9e., ]{0,12}\\)") {
        for s in [&s, &t] {
            let _ = s.parse::<Slack>();
            let _ = s.parse::<Prediction>();
        }
    }
}

#[test]
fn every_prediction_round_trips() {
    for p in [Prediction::Positive, Prediction::Negative] {
        assert_eq!(p.to_string().parse::<Prediction>(), Ok(p));
    }
}

#[test]
fn malformed_forms_are_errors_listing_the_accepted_forms() {
    for s in [
        "",
        "None",
        "none()",
        "additive",
        "additive()",
        "additive(1, 2)",
        "additive(x)",
        "multiplicative(0.9",
        "ratio(0.9)",
    ] {
        let e = s.parse::<Slack>().unwrap_err();
        assert_eq!(e.what, "slack");
        assert!(e.to_string().contains("multiplicative(k)"), "{s}: {e}");
    }
}
