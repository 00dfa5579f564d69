//! The text form of the rate language (`Filter`, `Subset`, `Atom`, `Rate`): the exact text of
//! every variant, round trips of arbitrary values (names with quotes, backslashes, commas,
//! parentheses, spaces, unicode or nothing), no string panics, and bad inputs are errors that
//! name the problem.

use fair_core::ParseTermError;
use game_opt::{Atom, Filter, Prediction, Rate, Subset};
use proptest::prelude::*;

fn black() -> Subset {
    Subset::group("race", "Black")
}

#[test]
fn every_filter_has_its_text() {
    let cases = [
        (
            Filter::Group {
                attribute: "race".into(),
                group: "Black".into(),
            },
            r#"group("race", "Black")"#,
        ),
        (
            Filter::Group {
                attribute: String::new(),
                group: "a \"b\", (c)\\ é\n".into(),
            },
            r#"group("", "a \"b\", (c)\\ é\n")"#,
        ),
        (Filter::Label(true), "label(true)"),
        (Filter::Label(false), "label(false)"),
        (Filter::Baseline(false), "baseline(false)"),
        (Filter::Baseline(true), "baseline(true)"),
        (Filter::BaselineCorrect(true), "baseline_correct(true)"),
        (Filter::BaselineCorrect(false), "baseline_correct(false)"),
        (Filter::Mask("steering".into()), r#"mask("steering")"#),
    ];
    for (filter, text) in cases {
        assert_eq!(filter.to_string(), text);
        assert_eq!(text.parse::<Filter>(), Ok(filter));
    }
}

#[test]
fn subsets_have_their_text() {
    let cases = [
        (Subset::all(), "all()"),
        (black(), r#"subset(group("race", "Black"))"#),
        (
            black()
                .positives()
                .baseline(false)
                .and(Filter::Mask("m".into())),
            r#"subset(group("race", "Black"), label(true), baseline(false), mask("m"))"#,
        ),
    ];
    for (subset, text) in cases {
        assert_eq!(subset.to_string(), text);
        assert_eq!(text.parse::<Subset>(), Ok(subset));
    }
    // Other spellings that read to the same subsets.
    assert_eq!("subset()".parse::<Subset>(), Ok(Subset::all()));
    assert_eq!(" all ( ) ".parse::<Subset>(), Ok(Subset::all()));
    assert_eq!(
        "subset( group( race ,Black ) )".parse::<Subset>(),
        Ok(black())
    );
}

#[test]
fn atoms_have_their_text() {
    let cases = [
        (
            Atom::Predicted {
                prediction: Prediction::Positive,
                on: black().positives(),
                per: black(),
            },
            r#"predicted(positive, subset(group("race", "Black"), label(true)), subset(group("race", "Black")))"#,
        ),
        (
            Atom::Predicted {
                prediction: Prediction::Negative,
                on: Subset::all(),
                per: Subset::all(),
            },
            "predicted(negative, all(), all())",
        ),
        (
            Atom::Fraction {
                on: Subset::all().baseline(true),
                per: Subset::all(),
            },
            "fraction(subset(baseline(true)), all())",
        ),
    ];
    for (atom, text) in cases {
        assert_eq!(atom.to_string(), text);
        assert_eq!(text.parse::<Atom>(), Ok(atom));
    }
}

#[test]
fn every_rate_has_its_text_and_alias() {
    let b = black;
    let cases: [(Rate, &str, &str); 15] = [
        (
            Rate::PositivePrediction(b()),
            "selection_rate",
            "positive_prediction",
        ),
        (
            Rate::NegativePrediction(b()),
            "negative_prediction_rate",
            "negative_prediction",
        ),
        (
            Rate::TruePositive(b()),
            "true_positive_rate",
            "true_positive",
        ),
        (
            Rate::FalsePositive(b()),
            "false_positive_rate",
            "false_positive",
        ),
        (
            Rate::TrueNegative(b()),
            "true_negative_rate",
            "true_negative",
        ),
        (
            Rate::FalseNegative(b()),
            "false_negative_rate",
            "false_negative",
        ),
        (Rate::Error(b()), "error_rate", "error"),
        (Rate::Accuracy(b()), "accuracy", "accuracy"),
        (Rate::Churn(b()), "churn", "churn"),
        (Rate::Win(b()), "win_rate", "win"),
        (Rate::Loss(b()), "loss_rate", "loss"),
        (
            Rate::LossOnlyChurn(b()),
            "loss_only_churn",
            "loss_only_churn",
        ),
        (Rate::LabelPositive(b()), "label_positive", "label_positive"),
        (
            Rate::BaselinePositive(b()),
            "baseline_positive",
            "baseline_positive",
        ),
        (
            Rate::BaselineAccuracy(b()),
            "baseline_accuracy",
            "baseline_accuracy",
        ),
    ];
    for (i, (rate, name, alias)) in cases.into_iter().enumerate() {
        let text = format!(r#"{name}(subset(group("race", "Black")))"#);
        assert_eq!(rate.to_string(), text);
        assert_eq!(rate.name(), name);
        assert_eq!(Rate::NAMES[i], name);
        assert_eq!(text.parse::<Rate>(), Ok(rate.clone()));
        let aliased = format!(r#"{alias}(subset(group("race", "Black")))"#);
        assert_eq!(aliased.parse::<Rate>(), Ok(rate));
    }
    assert_eq!(
        "positive_prediction_rate(all())".parse::<Rate>(),
        Ok(Rate::PositivePrediction(Subset::all()))
    );
}

// ---- round trips ---------------------------------------------------------------------------

/// Names: arbitrary unicode, weighted towards the characters the grammar treats specially.
fn names() -> impl Strategy<Value = String> {
    prop_oneof![
        any::<String>(),
        "[\"\\\\,() =\\n\\t\u{0}\u{7f}éß中🙂a-z{}u]{0,12}",
        Just(String::new()),
    ]
}

fn filters() -> impl Strategy<Value = Filter> {
    prop_oneof![
        (names(), names()).prop_map(|(attribute, group)| Filter::Group { attribute, group }),
        any::<bool>().prop_map(Filter::Label),
        any::<bool>().prop_map(Filter::Baseline),
        any::<bool>().prop_map(Filter::BaselineCorrect),
        names().prop_map(Filter::Mask),
    ]
}

fn subsets() -> impl Strategy<Value = Subset> {
    prop::collection::vec(filters(), 0..5)
        .prop_map(|fs| fs.into_iter().fold(Subset::all(), Subset::and))
}

fn atoms() -> impl Strategy<Value = Atom> {
    let prediction = prop_oneof![Just(Prediction::Positive), Just(Prediction::Negative)];
    prop_oneof![
        (prediction, subsets(), subsets()).prop_map(|(prediction, on, per)| Atom::Predicted {
            prediction,
            on,
            per
        }),
        (subsets(), subsets()).prop_map(|(on, per)| Atom::Fraction { on, per }),
    ]
}

fn rates() -> impl Strategy<Value = Rate> {
    let makers: [fn(Subset) -> Rate; 15] = [
        Rate::PositivePrediction,
        Rate::NegativePrediction,
        Rate::TruePositive,
        Rate::FalsePositive,
        Rate::TrueNegative,
        Rate::FalseNegative,
        Rate::Error,
        Rate::Accuracy,
        Rate::Churn,
        Rate::Win,
        Rate::Loss,
        Rate::LossOnlyChurn,
        Rate::LabelPositive,
        Rate::BaselinePositive,
        Rate::BaselineAccuracy,
    ];
    (0..makers.len(), subsets()).prop_map(move |(i, s)| makers[i](s))
}

proptest! {
    #[test]
    fn filters_round_trip(f in filters()) {
        prop_assert_eq!(f.to_string().parse::<Filter>(), Ok(f));
    }

    #[test]
    fn subsets_round_trip(s in subsets()) {
        prop_assert_eq!(s.to_string().parse::<Subset>(), Ok(s));
    }

    #[test]
    fn atoms_round_trip(a in atoms()) {
        prop_assert_eq!(a.to_string().parse::<Atom>(), Ok(a));
    }

    #[test]
    fn rates_round_trip(r in rates()) {
        let text = r.to_string();
        prop_assert_eq!(text.parse::<Rate>(), Ok(r.clone()));
        // The text of a rate is its name around its subset's text.
        prop_assert_eq!(text, format!("{}({})", r.name(), r.subset()));
    }

    #[test]
    fn no_string_panics(
        s in any::<String>(),
        t in "[a-z_(),\" \\\\=]{0,40}",
        u in "(true_positive_rate|subset|group|label|all|predicted|fraction|mask)\\((all\\(\\)|subset\\(|group\\(|\"[a-z,)(]*\"|true|positive|, |\\)){0,8}",
    ) {
        for s in [&s, &t, &u] {
            let _ = s.parse::<Filter>();
            let _ = s.parse::<Subset>();
            let _ = s.parse::<Atom>();
            let _ = s.parse::<Rate>();
        }
    }
}

// ---- bad inputs ----------------------------------------------------------------------------

fn err<T: std::str::FromStr<Err = ParseTermError> + std::fmt::Debug>(s: &str) -> String {
    s.parse::<T>().unwrap_err().to_string()
}

#[test]
fn bad_inputs_are_errors_naming_the_problem() {
    // Unknown names, with the accepted forms listed.
    let e = err::<Rate>("recall(all())");
    assert!(e.contains("unknown name `recall`"), "{e}");
    assert!(
        e.contains("name(subset) with name one of selection_rate, "),
        "{e}"
    );
    assert!(
        e.contains("baseline_accuracy (aliases: positive_prediction_rate, "),
        "{e}"
    );
    let e = err::<Filter>(r#"grp("race", "Black")"#);
    assert!(e.contains("unknown name `grp`"), "{e}");
    assert!(e.contains("baseline_correct(true|false)"), "{e}");
    let e = err::<Subset>("everything()");
    assert!(
        e.contains("unknown name `everything`") && e.contains("all()"),
        "{e}"
    );
    let e = err::<Atom>("ratio(all(), all())");
    assert!(
        e.contains("unknown name `ratio`") && e.contains("fraction("),
        "{e}"
    );
    let e = err::<Atom>("predicted(maybe, all(), all())");
    assert!(
        e.contains("bad prediction `maybe`") && e.contains("positive or negative"),
        "{e}"
    );
    let e = err::<Rate>(r#"accuracy(subset(group("a", "b"), sex("f")))"#);
    assert!(
        e.contains("bad filter `sex(\"f\")`: unknown name `sex`"),
        "{e}"
    );

    // Missing parenthesis.
    let e = err::<Rate>("accuracy(all()");
    assert_eq!(
        e,
        "cannot read rate: expected ',' or ')' at byte 14, found end of input"
    );
    let e = err::<Subset>("all");
    assert!(e.contains("a bare word, not a call"), "{e}");
    let e = err::<Filter>("label true)");
    assert!(e.contains("at byte 6"), "{e}");

    // Unterminated string.
    let e = err::<Filter>(r#"mask("steering)"#);
    assert!(
        e.contains("closing '\"' (string opened at byte 5) at byte 15, found end of input"),
        "{e}"
    );
    // A bad escape.
    let e = err::<Filter>(r#"mask("a\q")"#);
    assert!(e.contains("an escape") && e.contains("at byte 8"), "{e}");

    // Trailing garbage.
    let e = err::<Rate>("churn(all()) extra");
    assert!(
        e.contains("end of input after the value at byte 13, found 'e'"),
        "{e}"
    );
    let e = err::<Subset>("all())");
    assert!(e.contains("at byte 5"), "{e}");

    // Wrong arity.
    let e = err::<Rate>("churn(all(), all())");
    assert!(
        e.contains("`churn` takes 1 argument (a subset), got 2"),
        "{e}"
    );
    let e = err::<Rate>("churn()");
    assert!(e.contains("got 0"), "{e}");
    let e = err::<Filter>(r#"group("race")"#);
    assert!(e.contains("`group` takes 2 arguments, got 1"), "{e}");
    let e = err::<Filter>("label(true, false)");
    assert!(e.contains("`label` takes 1 argument, got 2"), "{e}");
    let e = err::<Subset>("all(label(true))");
    assert!(e.contains("`all` takes no arguments, got 1"), "{e}");
    let e = err::<Atom>("fraction(all())");
    assert!(e.contains("`fraction` takes 2 arguments, got 1"), "{e}");

    // Arguments of the wrong kind.
    let e = err::<Filter>("label(1)");
    assert!(
        e.contains("bad flag `1`: not a boolean; expected true or false"),
        "{e}"
    );
    let e = err::<Filter>(r#"label("true")"#);
    assert!(e.contains("not a boolean"), "{e}");
    let e = err::<Filter>("mask(all())");
    assert!(e.contains("a call where a name is expected"), "{e}");
    let e = err::<Rate>(r#"accuracy("all")"#);
    assert!(e.contains("a quoted string, not a call"), "{e}");
    let e = err::<Rate>("");
    assert!(
        e.contains("expected a value") && e.contains("at byte 0"),
        "{e}"
    );
}

#[test]
fn errors_are_typed() {
    match "accuracy(all()".parse::<Rate>() {
        Err(ParseTermError::Syntax { what, source }) => {
            assert_eq!(what, "rate");
            assert_eq!(source.at, 14);
        }
        other => panic!("{other:?}"),
    }
    match "label(2)".parse::<Filter>() {
        Err(ParseTermError::Form { what, got, .. }) => {
            assert_eq!(what, "flag");
            assert_eq!(got, "2");
        }
        other => panic!("{other:?}"),
    }
}
