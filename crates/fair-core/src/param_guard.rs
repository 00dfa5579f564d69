//! Checked settings: the one way every method crate validates its params.

/// Settings that must be validated before a fit (linfa's `ParamGuard`).
///
/// `check_ref(&self)` validates and returns the checked settings without consuming the
/// unchecked ones; `check(self)` does the same by value. A method crate implements this for its
/// `…Params` type, with `Checked = …ValidParams`; only valid params can fit, and
/// `params.fit(data)` on unchecked params validates first and forwards the error.
///
/// # Examples
/// ```
/// use fair_core::ParamGuard;
///
/// #[derive(Debug, Clone)]
/// struct Params { tol: f64 }
/// #[derive(Debug, Clone)]
/// struct ValidParams { tol: f64 }
///
/// impl ParamGuard for Params {
///     type Checked = ValidParams;
///     type Error = String;
///     fn check_ref(&self) -> Result<ValidParams, String> {
///         if self.tol > 0.0 { Ok(ValidParams { tol: self.tol }) } else { Err(format!("tol = {}", self.tol)) }
///     }
/// }
///
/// let p = Params { tol: 1e-6 };
/// assert!(p.check_ref().is_ok());
/// assert!(p.check().is_ok());
/// assert!(Params { tol: -1.0 }.check().is_err());
/// ```
pub trait ParamGuard {
    /// The validated settings.
    type Checked;
    /// What a failed check returns.
    type Error;

    /// Validates every field (ranges, finiteness, cross-field rules) without consuming `self`.
    ///
    /// # Errors
    /// The crate's error naming the first invalid setting.
    fn check_ref(&self) -> Result<Self::Checked, Self::Error>;

    /// Validates and converts into the checked settings.
    ///
    /// # Errors
    /// As [`check_ref`](Self::check_ref).
    fn check(self) -> Result<Self::Checked, Self::Error>
    where
        Self: Sized,
    {
        self.check_ref()
    }
}
