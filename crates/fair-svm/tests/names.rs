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
    round_trip::<fair_svm::MeanVector>(fair_svm::MeanVector::NAMES, "mean vector");
    round_trip::<fair_svm::CovarianceNormalisation>(
        fair_svm::CovarianceNormalisation::NAMES,
        "covariance normalisation",
    );
    round_trip::<fair_svm::CovariancePenalty>(
        fair_svm::CovariancePenalty::NAMES,
        "covariance penalty",
    );
}

/// The fairness notions parse through fair-core's one constraint table: every canonical name
/// and alias of a supported one, typed errors naming the supported ones for the rest.
#[test]
fn fairness_comes_from_the_shared_vocabulary() {
    fair_core::assert_constraint_subset::<fair_svm::Fairness>();
    assert_eq!(
        "statistical_parity".parse::<fair_svm::Fairness>(),
        Ok(fair_svm::Fairness::DemographicParity)
    );
}

proptest::proptest! {
    /// Every kernel prints to a form that parses back to the same bits.
    #[test]
    fn kernels_round_trip(gamma in proptest::num::f64::POSITIVE | proptest::num::f64::NORMAL, degree in 1u32..10, coef0 in 0.0f64..1e6) {
        use fair_svm::Kernel;
        for k in [Kernel::Linear, Kernel::Rbf { gamma }, Kernel::Polynomial { degree, gamma, coef0 }] {
            let back: Kernel = k.to_string().parse().unwrap();
            proptest::prop_assert_eq!(format!("{back:?}"), format!("{k:?}"));
        }
    }

    /// No string makes the kernel parser panic.
    #[test]
    fn kernel_parsing_never_panics(s in ".*") {
        let _ = s.parse::<fair_svm::Kernel>();
    }
}

#[test]
fn malformed_kernels_name_the_forms() {
    for bad in [
        "rbf",
        "rbf()",
        "rbf(a)",
        "poly(3, 1)",
        "poly(-1, 1, 0)",
        "sigmoid(1)",
        "linear(1)",
    ] {
        let e = bad.parse::<fair_svm::Kernel>().unwrap_err().to_string();
        assert!(e.contains("poly(degree, gamma, coef0)"), "{bad}: {e}");
    }
}
