//! Settings and choices: the feasible set W, the surrogate σ, and the solvers' parameters.

use crate::error::{DcOptError, Result};

/// The closed convex feasible set `W` of the variable, with its Euclidean projection.
#[derive(Debug, Clone, Copy, PartialEq, Default)]
pub enum FeasibleSet {
    /// `W = Rⁿ` (the paper's experiments).
    #[default]
    Whole,
    /// `W = [lower, upper]ⁿ` (the same bounds on every coordinate).
    Box {
        /// Lower bound of every coordinate.
        lower: f64,
        /// Upper bound of every coordinate.
        upper: f64,
    },
    /// `W = {x : ‖x‖ ≤ radius}`.
    Ball {
        /// The radius (> 0).
        radius: f64,
    },
}

impl FeasibleSet {
    /// Checks the set's parameters.
    ///
    /// # Errors
    /// [`DcOptError::InvalidParameter`] for `lower > upper`, non-finite bounds or a radius ≤ 0.
    pub fn check(&self) -> Result<()> {
        match *self {
            FeasibleSet::Whole => Ok(()),
            FeasibleSet::Box { lower, upper } => {
                if lower.is_finite() && upper.is_finite() && lower <= upper {
                    Ok(())
                } else {
                    Err(DcOptError::InvalidParameter {
                        name: "FeasibleSet::Box",
                        value: format!("[{lower}, {upper}]"),
                        expected: "finite bounds with lower <= upper",
                    })
                }
            }
            FeasibleSet::Ball { radius } => {
                if radius.is_finite() && radius > 0.0 {
                    Ok(())
                } else {
                    Err(DcOptError::InvalidParameter {
                        name: "FeasibleSet::Ball",
                        value: format!("{radius}"),
                        expected: "a finite radius > 0",
                    })
                }
            }
        }
    }

    /// Projects `x` onto the set in place.
    pub fn project(&self, x: &mut [f64]) {
        match *self {
            FeasibleSet::Whole => {}
            FeasibleSet::Box { lower, upper } => {
                for v in x.iter_mut() {
                    *v = v.clamp(lower, upper);
                }
            }
            FeasibleSet::Ball { radius } => {
                let norm = x.iter().map(|v| v * v).sum::<f64>().sqrt();
                if norm > radius {
                    let s = radius / norm;
                    for v in x.iter_mut() {
                        *v *= s;
                    }
                }
            }
        }
    }

    /// Whether `x` lies in the set (up to a relative `1e-12`).
    pub fn contains(&self, x: &[f64]) -> bool {
        match *self {
            FeasibleSet::Whole => true,
            FeasibleSet::Box { lower, upper } => x.iter().all(|v| (lower..=upper).contains(v)),
            FeasibleSet::Ball { radius } => {
                x.iter().map(|v| v * v).sum::<f64>().sqrt() <= radius * (1.0 + 1e-12)
            }
        }
    }
}

/// `Display`: `whole`, `box(lower, upper)`, `ball(radius)`, each `f64` in Rust's shortest
/// round-trip form, so `FromStr` gives the same set back (it parses, [`FeasibleSet::check`]
/// validates).
///
/// # Examples
/// ```
/// use dc_opt::FeasibleSet;
/// let set = FeasibleSet::Box { lower: -1.0, upper: 0.25 };
/// assert_eq!(set.to_string(), "box(-1, 0.25)");
/// assert_eq!("box(-1, 0.25)".parse::<FeasibleSet>()?, set);
/// assert_eq!(" Ball( 2.5 ) ".parse::<FeasibleSet>()?, FeasibleSet::Ball { radius: 2.5 });
/// assert!("ball(-1)".parse::<FeasibleSet>()?.check().is_err());
/// assert!("sphere(1)".parse::<FeasibleSet>().is_err());
/// # Ok::<(), fair_core::ParseEnumError>(())
/// ```
impl std::fmt::Display for FeasibleSet {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match *self {
            FeasibleSet::Whole => f.write_str("whole"),
            FeasibleSet::Box { lower, upper } => write!(f, "box({lower}, {upper})"),
            FeasibleSet::Ball { radius } => write!(f, "ball({radius})"),
        }
    }
}

impl std::str::FromStr for FeasibleSet {
    type Err = fair_core::ParseEnumError;

    /// Parses the `Display` form (case-insensitive names, spaces allowed around the numbers).
    fn from_str(s: &str) -> std::result::Result<Self, Self::Err> {
        let error = || {
            fair_core::ParseEnumError::new(
                "feasible set",
                s,
                &["whole", "box(lower, upper)", "ball(radius)"],
            )
        };
        let t = s.trim().to_ascii_lowercase();
        if t == "whole" {
            return Ok(FeasibleSet::Whole);
        }
        let (name, rest) = t.split_once('(').ok_or_else(error)?;
        let args: Vec<f64> = rest
            .strip_suffix(')')
            .ok_or_else(error)?
            .split(',')
            .map(|a| a.trim().parse::<f64>())
            .collect::<std::result::Result<_, _>>()
            .map_err(|_| error())?;
        match (name.trim(), args.as_slice()) {
            ("box", &[lower, upper]) => Ok(FeasibleSet::Box { lower, upper }),
            ("ball", &[radius]) => Ok(FeasibleSet::Ball { radius }),
            _ => Err(error()),
        }
    }
}

/// The smooth or piecewise-linear surrogate `σ(x) ≈ 1[x > 0]`, written as a scalar DC function
/// `σ = σ⁺ − σ⁻` with both parts convex.
///
/// ```text
/// HardSigmoid: σ(x) = clip(x + ½, 0, 1),   σ⁺(x) = max{x + ½, 0},          σ⁻(x) = max{x − ½, 0}
/// Logistic:    σ(x) = 1/(1 + e^{−x}),       σ⁺(x) = σ(x) + c x²/2,            σ⁻(x) = c x²/2
/// ```
/// with `c = max|σ''| = 1/(6√3)` for the logistic. The paper (Examples D.4/D.6) splits the
/// logistic with `(ρ/2)‖w‖²` on the whole variable; the scalar split used here is also a valid DC
/// decomposition (σ⁺ is convex since σ'' ≥ −c) and keeps the linear-model composition convex.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Surrogate {
    /// `max{min{x + ½, 1}, 0}` (the paper's experiments).
    #[default]
    HardSigmoid,
    /// `1 / (1 + e^{−x})`.
    Logistic,
}

/// `max|σ''|` of the logistic function, attained at `x = ±ln(2 + √3)`.
pub const LOGISTIC_CURVATURE: f64 = 0.096_225_044_864_937_63;

impl Surrogate {
    /// `σ(x)`.
    #[inline]
    pub fn value(self, x: f64) -> f64 {
        match self {
            Surrogate::HardSigmoid => (x + 0.5).clamp(0.0, 1.0),
            Surrogate::Logistic => logistic(x),
        }
    }
    /// The convex part `σ⁺(x)`.
    #[inline]
    pub fn plus(self, x: f64) -> f64 {
        match self {
            Surrogate::HardSigmoid => (x + 0.5).max(0.0),
            Surrogate::Logistic => logistic(x) + 0.5 * LOGISTIC_CURVATURE * x * x,
        }
    }
    /// The subtracted convex part `σ⁻(x)`.
    #[inline]
    pub fn minus(self, x: f64) -> f64 {
        match self {
            Surrogate::HardSigmoid => (x - 0.5).max(0.0),
            Surrogate::Logistic => 0.5 * LOGISTIC_CURVATURE * x * x,
        }
    }
    /// A derivative (subgradient) of `σ⁺` at `x` (at the hard sigmoid's kink: 0).
    #[inline]
    pub fn dplus(self, x: f64) -> f64 {
        match self {
            Surrogate::HardSigmoid => f64::from(u8::from(x > -0.5)),
            Surrogate::Logistic => {
                let s = logistic(x);
                s * (1.0 - s) + LOGISTIC_CURVATURE * x
            }
        }
    }
    /// A derivative (subgradient) of `σ⁻` at `x` (at the hard sigmoid's kink: 0).
    #[inline]
    pub fn dminus(self, x: f64) -> f64 {
        match self {
            Surrogate::HardSigmoid => f64::from(u8::from(x > 0.5)),
            Surrogate::Logistic => LOGISTIC_CURVATURE * x,
        }
    }
    /// A point `x` with `σ(x) = t` for `t ∈ (0, 1)` (the hard sigmoid's `t − ½`).
    pub fn inverse(self, t: f64) -> f64 {
        match self {
            Surrogate::HardSigmoid => t - 0.5,
            Surrogate::Logistic => (t / (1.0 - t)).ln(),
        }
    }
}

#[inline]
pub(crate) fn logistic(x: f64) -> f64 {
    if x >= 0.0 {
        1.0 / (1.0 + (-x).exp())
    } else {
        let e = x.exp();
        e / (1.0 + e)
    }
}

/// Stable `ln(1 + eˣ)`.
#[inline]
pub(crate) fn log1p_exp(x: f64) -> f64 {
    if x > 0.0 {
        x + (-x).exp().ln_1p()
    } else {
        x.exp().ln_1p()
    }
}

pub(crate) fn positive_finite(name: &'static str, v: f64) -> Result<()> {
    if v.is_finite() && v > 0.0 {
        Ok(())
    } else {
        Err(DcOptError::InvalidParameter {
            name,
            value: format!("{v}"),
            expected: "a finite value > 0",
        })
    }
}

pub(crate) fn at_least_one(name: &'static str, v: usize) -> Result<()> {
    if v >= 1 {
        Ok(())
    } else {
        Err(DcOptError::InvalidParameter {
            name,
            value: format!("{v}"),
            expected: ">= 1",
        })
    }
}

// `Display`/`FromStr` with the front ends' spellings (Python's keyword values).
fair_core::string_enum!(Surrogate, "surrogate", {
    HardSigmoid => "hard_sigmoid",
    Logistic => "logistic",
});
