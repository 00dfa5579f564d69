//! The one constraint vocabulary of fairkit: the fairness notions a method crate can enforce,
//! under fairlearn's names (canonical) with the papers' names as aliases.
//!
//! A name means the same notion in every estimator (each enforces it its own way: exactly, in
//! expectation, on a percentile interval, or at every threshold). Each method crate names the
//! subset it supports with an enum of its own declared through [`constraint_subset!`]; that
//! enum's `Display`, `FromStr` and `NAMES` come from [`Constraint`]'s table, and a name the crate does not
//! support is a [`ConstraintError`] listing the ones it does.

use thiserror::Error;

macro_rules! constraint_table {
    ($( $(#[$doc:meta])* $variant:ident => $name:literal $(| $alias:literal)* : $notion:literal ),+ $(,)?) => {
        /// A fairness notion, by its canonical (fairlearn's) name.
        ///
        /// | name | aliases | notion (per group vs. the others) |
        /// |---|---|---|
        /// | `demographic_parity` | `statistical_parity` | selection rate `P(ŷ=1 │ A)` |
        /// | `equalized_odds` | `equal_odds` | true- and false-positive rates |
        /// | `equal_opportunity` | `true_positive_rate_parity` | true-positive rate |
        /// | `false_positive_rate_parity` | | false-positive rate |
        /// | `error_rate_parity` | `equal_accuracy`, `overall_accuracy`, `overall_accuracy_equality` | accuracy (error rate) |
        /// | `equalized_odds_diagonal` | | `P(ŷ=c │ Y=c, A)` for every class c |
        /// | `percentile_parity` | | score percentiles on an interval |
        ///
        /// # Examples
        /// ```
        /// use fair_core::Constraint;
        /// assert_eq!("statistical_parity".parse::<Constraint>()?, Constraint::DemographicParity);
        /// assert_eq!(Constraint::DemographicParity.to_string(), "demographic_parity");
        /// assert_eq!(Constraint::ErrorRateParity.aliases()[0], "equal_accuracy");
        /// # Ok::<(), fair_core::ParseEnumError>(())
        /// ```
        #[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
        pub enum Constraint {
            $( $(#[$doc])* $variant, )+
        }

        crate::string_enum!(Constraint, "constraint", {
            $( $variant => $name $(| $alias)* ),+
        });

        impl Constraint {
            /// Every constraint, in the table's order.
            pub const ALL: &'static [Constraint] = &[$(Constraint::$variant),+];

            /// The other accepted spellings of this constraint (the papers' and earlier
            /// releases' names).
            pub const fn aliases(self) -> &'static [&'static str] {
                match self {
                    $( Constraint::$variant => &[$($alias),*], )+
                }
            }

            /// The notion in one line (what is equalised across groups).
            pub const fn notion(self) -> &'static str {
                match self {
                    $( Constraint::$variant => $notion, )+
                }
            }
        }
    };
}

constraint_table! {
    /// Equal selection rate `P(ŷ=1 │ A)` (statistical parity).
    DemographicParity => "demographic_parity" | "statistical_parity"
        : "equal selection rate P(y^=1 | A) across groups",
    /// Equal true- and false-positive rates (for several classes: every `P(ŷ=c' │ Y=c, A)`).
    EqualizedOdds => "equalized_odds" | "equal_odds"
        : "equal true- and false-positive rates across groups",
    /// Equal true-positive rate (fairlearn's `TruePositiveRateParity`).
    EqualOpportunity => "equal_opportunity" | "true_positive_rate_parity"
        : "equal true-positive rate across groups",
    /// Equal false-positive rate (fairlearn's `FalsePositiveRateParity`).
    FalsePositiveRateParity => "false_positive_rate_parity"
        : "equal false-positive rate across groups",
    /// Equal accuracy (error rate): fairlearn's `ErrorRateParity`, the papers' overall accuracy
    /// equality.
    ErrorRateParity => "error_rate_parity" | "equal_accuracy" | "overall_accuracy"
        | "overall_accuracy_equality"
        : "equal accuracy (error rate) across groups",
    /// Equalized odds on the diagonal only: `P(ŷ=c │ Y=c, A)` for every class `c`.
    EqualizedOddsDiagonal => "equalized_odds_diagonal"
        : "equal P(y^=c | Y=c, A) for every class c (multi-class)",
    /// Equal score percentiles on a percentile interval (partial statistical parity, model (15)).
    PercentileParity => "percentile_parity"
        : "equal score percentiles across groups on a percentile interval",
}

impl Constraint {
    /// The constraint called `name` (a canonical name or an alias) if it is one of `supported`.
    ///
    /// # Errors
    /// [`ConstraintError::Unknown`] when `name` is no constraint name,
    /// [`ConstraintError::Unsupported`] when `estimator` does not support it; both list
    /// `supported` with their aliases.
    ///
    /// # Examples
    /// ```
    /// use fair_core::{Constraint, ConstraintError};
    /// let svm = [Constraint::DemographicParity, Constraint::EqualOpportunity];
    /// assert_eq!(Constraint::parse_for("statistical_parity", "FairSVM", &svm), Ok(Constraint::DemographicParity));
    /// let err = Constraint::parse_for("equal_odds", "FairSVM", &svm).unwrap_err();
    /// assert!(matches!(err, ConstraintError::Unsupported { constraint: Constraint::EqualizedOdds, .. }));
    /// assert_eq!(
    ///     err.to_string(),
    ///     r#"FairSVM does not support "equal_odds"; supported constraints: "demographic_parity" (alias "statistical_parity"), "equal_opportunity" (alias "true_positive_rate_parity")"#
    /// );
    /// ```
    pub fn parse_for(
        name: &str,
        estimator: &str,
        supported: &[Constraint],
    ) -> Result<Constraint, ConstraintError> {
        match name.parse::<Constraint>() {
            Ok(c) if supported.contains(&c) => Ok(c),
            Ok(c) => Err(ConstraintError::Unsupported {
                estimator: estimator.to_string(),
                got: name.to_string(),
                constraint: c,
                supported: supported.to_vec(),
            }),
            Err(_) => Err(ConstraintError::Unknown {
                estimator: estimator.to_string(),
                got: name.to_string(),
                supported: supported.to_vec(),
            }),
        }
    }
}

/// A constraint name an estimator cannot take; the message lists the names it supports, each
/// with its aliases.
#[derive(Debug, Error, Clone, PartialEq, Eq)]
pub enum ConstraintError {
    /// `got` names no constraint of the vocabulary.
    #[error(
        "{estimator} has no constraint named {got:?}; supported constraints: {}",
        describe(supported)
    )]
    Unknown {
        /// The estimator (or method) that was asked.
        estimator: String,
        /// The name that was given.
        got: String,
        /// The constraints the estimator supports.
        supported: Vec<Constraint>,
    },
    /// `got` names `constraint`, which the estimator does not enforce.
    #[error(
        "{estimator} does not support {got:?}; supported constraints: {}",
        describe(supported)
    )]
    Unsupported {
        /// The estimator (or method) that was asked.
        estimator: String,
        /// The name that was given.
        got: String,
        /// The constraint it names.
        constraint: Constraint,
        /// The constraints the estimator supports.
        supported: Vec<Constraint>,
    },
}

impl ConstraintError {
    /// The same error told by another estimator name (a front end's class name).
    pub fn for_estimator(self, name: &str) -> Self {
        match self {
            Self::Unknown { got, supported, .. } => Self::Unknown {
                estimator: name.to_string(),
                got,
                supported,
            },
            Self::Unsupported {
                got,
                constraint,
                supported,
                ..
            } => Self::Unsupported {
                estimator: name.to_string(),
                got,
                constraint,
                supported,
            },
        }
    }

    /// The constraints the estimator supports.
    pub fn supported(&self) -> &[Constraint] {
        match self {
            Self::Unknown { supported, .. } | Self::Unsupported { supported, .. } => supported,
        }
    }
}

/// `"name" (alias "a", "b"), …` of `supported`.
fn describe(supported: &[Constraint]) -> String {
    supported
        .iter()
        .map(|c| {
            let aliases = c.aliases();
            if aliases.is_empty() {
                format!("{:?}", c.as_str())
            } else {
                let quoted: Vec<String> = aliases.iter().map(|a| format!("{a:?}")).collect();
                format!("{:?} (alias {})", c.as_str(), quoted.join(", "))
            }
        })
        .collect::<Vec<_>>()
        .join(", ")
}

/// A method crate's enum of the constraints it supports, as declared by [`constraint_subset!`].
pub trait ConstraintSubset:
    Copy
    + std::fmt::Debug
    + PartialEq
    + std::fmt::Display
    + std::str::FromStr<Err = ConstraintError>
    + Into<Constraint>
    + TryFrom<Constraint, Error = ConstraintError>
{
    /// The shared constraints the type names, in declaration order.
    const SUPPORTED: &'static [Constraint];
    /// Who supports them, as named in a [`ConstraintError`].
    const ESTIMATOR: &'static str;
}

/// Panics unless `T` parses every canonical name and alias of its constraints (and displays the
/// canonical one), and rejects every other constraint name with
/// [`ConstraintError::Unsupported`] and a non-name with [`ConstraintError::Unknown`], both
/// naming every supported constraint. For the method crates' tests.
///
/// # Examples
/// ```
/// #[derive(Debug, Clone, Copy, PartialEq)]
/// pub enum Only { Dp }
/// fair_core::constraint_subset!(Only, "Only", { Dp => DemographicParity });
/// fair_core::assert_constraint_subset::<Only>();
/// ```
pub fn assert_constraint_subset<T: ConstraintSubset>() {
    let named = |err: &ConstraintError| {
        assert_eq!(err.supported(), T::SUPPORTED, "{err}");
        let text = err.to_string();
        for c in T::SUPPORTED {
            assert!(
                text.contains(&format!("{:?}", c.as_str())),
                "{text} misses {c}"
            );
        }
        assert!(text.starts_with(T::ESTIMATOR), "{text}");
    };
    for &c in Constraint::ALL {
        for name in std::iter::once(c.as_str()).chain(c.aliases().iter().copied()) {
            match name.parse::<T>() {
                Ok(v) => {
                    assert!(
                        T::SUPPORTED.contains(&c),
                        "{name} parsed but is unsupported"
                    );
                    assert_eq!(v.into(), c, "{name}");
                    assert_eq!(v.to_string(), c.as_str(), "{name}");
                    assert_eq!(T::try_from(c), Ok(v));
                }
                Err(err) => {
                    assert!(
                        !T::SUPPORTED.contains(&c),
                        "{name} supported but rejected: {err}"
                    );
                    assert!(
                        matches!(&err, ConstraintError::Unsupported { constraint, got, .. } if *constraint == c && got == name),
                        "{err:?}"
                    );
                    named(&err);
                }
            }
        }
    }
    for bad in ["", "parity", "Demographic_Parity", " demographic_parity"] {
        let err = bad.parse::<T>().unwrap_err();
        assert!(
            matches!(&err, ConstraintError::Unknown { got, .. } if got == bad),
            "{err:?}"
        );
        named(&err);
    }
}

/// Declares a method crate's enum of the [`Constraint`]s it supports (unit variants, each
/// mapped to a shared one): `Display`, `as_str`, `NAMES` (canonical), `SUPPORTED`, `FromStr`
/// (every canonical name and alias of a supported constraint; [`ConstraintError`] otherwise),
/// `From<Self> for Constraint` and `TryFrom<Constraint>`. The names live only in the shared
/// table.
///
/// # Examples
/// ```
/// use fair_core::{Constraint, ConstraintError};
/// #[derive(Debug, Clone, Copy, PartialEq)]
/// pub enum Fairness { DemographicParity, EqualOpportunity }
/// fair_core::constraint_subset!(Fairness, "FairSVM", {
///     DemographicParity => DemographicParity,
///     EqualOpportunity => EqualOpportunity,
/// });
/// assert_eq!("statistical_parity".parse::<Fairness>(), Ok(Fairness::DemographicParity));
/// assert_eq!(Fairness::EqualOpportunity.to_string(), "equal_opportunity");
/// assert_eq!(Fairness::NAMES, ["demographic_parity", "equal_opportunity"]);
/// assert!(matches!("equalized_odds".parse::<Fairness>(), Err(ConstraintError::Unsupported { .. })));
/// assert!(matches!("parity".parse::<Fairness>(), Err(ConstraintError::Unknown { .. })));
/// fair_core::assert_constraint_subset::<Fairness>();
/// ```
#[macro_export]
macro_rules! constraint_subset {
    ($ty:ident, $estimator:literal, { $($variant:ident => $shared:ident),+ $(,)? }) => {
        impl $ty {
            /// The shared constraints this type names, in declaration order.
            pub const SUPPORTED: &'static [$crate::Constraint] = &[$($crate::Constraint::$shared),+];
            /// The canonical names of the variants, in declaration order (aliases excluded).
            pub const NAMES: &'static [&'static str] = &[$($crate::Constraint::$shared.as_str()),+];
            /// Who supports these constraints, as named in a [`ConstraintError`](`$crate::ConstraintError`).
            pub const ESTIMATOR: &'static str = $estimator;

            /// The canonical name (accepted by `FromStr`).
            pub const fn as_str(&self) -> &'static str {
                self.shared().as_str()
            }

            /// The shared constraint.
            pub const fn shared(self) -> $crate::Constraint {
                match self {
                    $($ty::$variant => $crate::Constraint::$shared,)+
                }
            }
        }

        impl $crate::ConstraintSubset for $ty {
            const SUPPORTED: &'static [$crate::Constraint] = $ty::SUPPORTED;
            const ESTIMATOR: &'static str = $estimator;
        }

        impl ::std::convert::From<$ty> for $crate::Constraint {
            fn from(c: $ty) -> Self {
                c.shared()
            }
        }

        impl ::std::convert::TryFrom<$crate::Constraint> for $ty {
            type Error = $crate::ConstraintError;

            fn try_from(c: $crate::Constraint) -> ::std::result::Result<Self, Self::Error> {
                #[allow(unreachable_patterns)]
                match c {
                    $($crate::Constraint::$shared => Ok($ty::$variant),)+
                    other => Err($crate::ConstraintError::Unsupported {
                        estimator: $estimator.to_string(),
                        got: other.as_str().to_string(),
                        constraint: other,
                        supported: Self::SUPPORTED.to_vec(),
                    }),
                }
            }
        }

        impl ::std::fmt::Display for $ty {
            fn fmt(&self, f: &mut ::std::fmt::Formatter<'_>) -> ::std::fmt::Result {
                f.write_str(self.as_str())
            }
        }

        impl ::std::str::FromStr for $ty {
            type Err = $crate::ConstraintError;

            /// Parses a canonical name or an alias of a supported constraint.
            fn from_str(s: &str) -> ::std::result::Result<Self, Self::Err> {
                let c = $crate::Constraint::parse_for(s, $estimator, Self::SUPPORTED)?;
                <Self as ::std::convert::TryFrom<$crate::Constraint>>::try_from(c)
            }
        }
    };
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_name_and_alias_parses_to_its_constraint() {
        let mut seen = std::collections::HashSet::new();
        for &c in Constraint::ALL {
            assert_eq!(c.as_str().parse::<Constraint>(), Ok(c));
            assert!(seen.insert(c.as_str()));
            for alias in c.aliases() {
                assert_eq!(alias.parse::<Constraint>(), Ok(c), "{alias}");
                assert!(seen.insert(alias), "{alias} twice");
            }
        }
        assert_eq!(Constraint::NAMES.len(), Constraint::ALL.len());
    }

    #[test]
    fn errors_name_the_supported_constraints() {
        let err =
            Constraint::parse_for("parity", "X", &[Constraint::PercentileParity]).unwrap_err();
        assert_eq!(
            err.to_string(),
            r#"X has no constraint named "parity"; supported constraints: "percentile_parity""#
        );
        assert_eq!(err.supported(), [Constraint::PercentileParity]);
        let err = err.for_estimator("Y");
        assert!(err.to_string().starts_with("Y has no"));
    }
}
