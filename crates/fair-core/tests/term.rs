//! The call-form reader: `quote`/`unquote` are exact inverses, every term's `Display` reads back
//! to the same term, and no string makes the reader panic.

use fair_core::{Term, quote, split_call, unquote};
use proptest::prelude::*;

/// Words of the grammar: non-empty, no whitespace or `( ) , " \ =`.
fn words() -> impl Strategy<Value = String> {
    "[^\\s(),\"\\\\=]{1,8}"
}

fn terms() -> impl Strategy<Value = Term> {
    let leaf = prop_oneof![
        words().prop_map(Term::Word),
        any::<String>().prop_map(Term::Str),
    ];
    leaf.prop_recursive(4, 32, 4, |inner| {
        (words(), prop::collection::vec(inner, 0..4))
            .prop_map(|(name, args)| Term::Call { name, args })
    })
}

proptest! {
    #[test]
    fn unquote_inverts_quote(s in any::<String>()) {
        prop_assert_eq!(unquote(&quote(&s)), Ok(s));
    }

    #[test]
    fn unquote_inverts_quote_on_awkward_text(s in "[\"\\\\,() \\n\\t\u{0}\u{7f}é{}u]{0,16}") {
        prop_assert_eq!(unquote(&quote(&s)), Ok(s));
    }

    #[test]
    fn display_reads_back(t in terms()) {
        let text = t.to_string();
        prop_assert_eq!(text.parse::<Term>(), Ok(t.clone()), "{}", text);
        // Whitespace around the value and its parts does not matter.
        let padded = format!(" \t{text}\n ");
        prop_assert_eq!(padded.parse::<Term>(), Ok(t));
    }

    #[test]
    fn no_string_panics(s in any::<String>(), t in "[a-z(),\" \\\\u{}0-9=]{0,40}") {
        for s in [&s, &t] {
            if let Err(e) = s.parse::<Term>() {
                prop_assert!(e.at <= s.len());
                prop_assert!(s.is_char_boundary(e.at));
            }
            if let Err(e) = unquote(s) {
                prop_assert!(e.at <= s.len());
            }
            let _ = split_call(s);
        }
    }
}

#[test]
fn deep_nesting_is_an_error_not_a_stack_overflow() {
    let s = "f(".repeat(100_000);
    let e = s.parse::<Term>().unwrap_err();
    assert!(e.expected.contains("nesting"), "{e}");
    let s = "(".repeat(100_000);
    assert!(s.parse::<Term>().is_err());
}
