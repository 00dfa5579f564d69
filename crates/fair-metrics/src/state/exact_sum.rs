//! An exact, order-independent f64 sum: a thin wrapper over `bitrep`'s superaccumulator that adds
//! the traits the states need.

/// The exact sum of the `f64` values added, rounded once when read. Adding and merging commute,
/// so any order and any partitioning of the same values give the same bits.
#[derive(Clone, Default)]
pub(crate) struct ExactSum(bitrep::SumF64);

impl ExactSum {
    /// Adds one value (the callers pass finite values only).
    #[inline]
    pub(crate) fn add(&mut self, x: f64) {
        self.0.add(x);
    }

    /// Adds every value of `other`.
    pub(crate) fn merge(&mut self, other: &ExactSum) {
        self.0.merge(&other.0);
    }

    /// The exactly rounded sum (`+inf` if it overflows `f64`).
    pub(crate) fn value(&self) -> f64 {
        self.0.value()
    }

    /// Canonical bytes (equal sums of equal multisets give equal bytes).
    pub(crate) fn to_bytes(&self) -> [u8; bitrep::SumF64::BYTES] {
        self.0.to_bytes()
    }

    /// Decodes [`to_bytes`](Self::to_bytes); `None` for corrupt bytes.
    pub(crate) fn from_bytes(bytes: &[u8; bitrep::SumF64::BYTES]) -> Option<Self> {
        bitrep::SumF64::from_bytes(bytes).map(Self)
    }
}

impl PartialEq for ExactSum {
    fn eq(&self, other: &Self) -> bool {
        self.0.to_bytes() == other.0.to_bytes()
    }
}

impl std::fmt::Debug for ExactSum {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "ExactSum({})", self.value())
    }
}
