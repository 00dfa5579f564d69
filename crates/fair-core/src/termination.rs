//! How a fit ended.

use crate::parse::ParseEnumError;
use std::fmt;
use std::str::FromStr;

/// How a fit ended. Every variant is an outcome, not an error: the fit returns `Ok` with a model
/// (the last or best iterate) and its report carries the termination (argmin's
/// `TerminationReason`, Clarabel's `SolverStatus`).
///
/// | Variant | Display | Used by |
/// |---|---|---|
/// | `Converged` | `converged` | fair-pca, fair-svm, info-projection |
/// | `MaxIterations` | `iteration limit reached` | all five (game-opt and dc-opt run a fixed budget) |
/// | `Stalled` | `stalled` | fair-pca (line search), fair-svm (subproblem failed), info-projection (line search) |
/// | `Stationary` | `stationary (fixed point)` | dc-opt (an inner solve returned its start) |
/// | `NeverFeasible` | `never nearly feasible` | dc-opt (direct SSG) |
/// | `Interrupted` | `interrupted by observer` | all five |
///
/// # Examples
/// ```
/// use fair_core::Termination;
/// let t: Termination = "iteration limit reached".parse()?;
/// assert_eq!(t, Termination::MaxIterations);
/// assert_eq!(t.to_string(), "iteration limit reached");
/// assert!(!t.is_converged() && !t.is_interrupted());
/// # Ok::<(), fair_core::ParseEnumError>(())
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum Termination {
    /// The method's stopping rule held (tolerance met).
    Converged,
    /// The iteration budget was used up (the normal end of fixed-budget methods); the last
    /// iterate is returned.
    MaxIterations,
    /// No further progress was possible (a line search or a subproblem failed) before the
    /// tolerance was met; the last successful (or best) iterate is returned.
    Stalled,
    /// The iterate is a fixed point of the algorithm: every later iteration would repeat it.
    Stationary,
    /// No nearly feasible iterate was ever reached; the returned point is the last iterate,
    /// not a solution.
    NeverFeasible,
    /// The observer returned [`ControlFlow::Break`](std::ops::ControlFlow::Break); the last
    /// iterate is returned.
    Interrupted,
}

impl Termination {
    /// Every variant, in declaration order.
    pub const ALL: [Termination; 6] = [
        Termination::Converged,
        Termination::MaxIterations,
        Termination::Stalled,
        Termination::Stationary,
        Termination::NeverFeasible,
        Termination::Interrupted,
    ];

    /// `true` for [`Termination::Converged`].
    ///
    /// # Examples
    /// ```
    /// assert!(fair_core::Termination::Converged.is_converged());
    /// ```
    pub fn is_converged(self) -> bool {
        self == Termination::Converged
    }

    /// `true` for [`Termination::Interrupted`] (the observer stopped the fit).
    ///
    /// # Examples
    /// ```
    /// assert!(fair_core::Termination::Interrupted.is_interrupted());
    /// ```
    pub fn is_interrupted(self) -> bool {
        self == Termination::Interrupted
    }

    /// The `Display` spelling (also accepted by `FromStr`).
    ///
    /// # Examples
    /// ```
    /// assert_eq!(fair_core::Termination::Stalled.as_str(), "stalled");
    /// ```
    pub fn as_str(self) -> &'static str {
        match self {
            Termination::Converged => "converged",
            Termination::MaxIterations => "iteration limit reached",
            Termination::Stalled => "stalled",
            Termination::Stationary => "stationary (fixed point)",
            Termination::NeverFeasible => "never nearly feasible",
            Termination::Interrupted => "interrupted by observer",
        }
    }
}

impl fmt::Display for Termination {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

impl FromStr for Termination {
    type Err = ParseEnumError;

    /// Parses the `Display` spelling.
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        Termination::ALL
            .into_iter()
            .find(|t| t.as_str() == s)
            .ok_or_else(|| {
                ParseEnumError::new("termination", s, &Termination::ALL.map(Termination::as_str))
            })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn display_from_str_round_trip() {
        for t in Termination::ALL {
            assert_eq!(t.to_string().parse::<Termination>(), Ok(t));
        }
        assert_eq!(Termination::Converged.to_string(), "converged");
        assert_eq!(
            Termination::Interrupted.to_string(),
            "interrupted by observer"
        );
    }

    #[test]
    fn bad_strings_name_the_accepted_values() {
        for bad in ["", "Converged", "done", "converged "] {
            let err = bad.parse::<Termination>().unwrap_err();
            assert_eq!(err.got, bad);
            let msg = err.to_string();
            assert!(msg.starts_with("unknown termination"), "{msg}");
            for t in Termination::ALL {
                assert!(msg.contains(&format!("{:?}", t.as_str())), "{msg}");
            }
        }
    }

    #[test]
    fn helpers() {
        assert!(Termination::Converged.is_converged());
        assert!(!Termination::MaxIterations.is_converged());
        assert!(Termination::Interrupted.is_interrupted());
        assert!(!Termination::Stalled.is_interrupted());
    }
}
