//! Settings of the re-rankers, checked once by [`ParamGuard`] (FA*IR's table is built there).

use crate::error::{RankingError as E, Result};
use fair_core::ParamGuard;
use fair_metrics::ranking::{adjusted_mtable, mtable};

/// Settings of FA*IR (unchecked; [`ParamGuard::check`] validates and builds the table).
///
/// # Examples
/// ```
/// use fair_ranking::{FairTopK, ParamGuard};
/// let params = FairTopK::params().k(10).p(0.5).alpha(0.1).check()?;
/// assert_eq!(params.mtable().len(), 10);
/// assert!(FairTopK::params().p(1.0).check().is_err());
/// # Ok::<(), fair_ranking::RankingError>(())
/// ```
#[derive(Debug, Clone, PartialEq)]
pub struct FairTopKParams {
    pub(crate) k: usize,
    pub(crate) p: f64,
    pub(crate) alpha: f64,
    pub(crate) adjust: bool,
}

/// Checked FA*IR settings with their table: only these re-rank.
#[derive(Debug, Clone, PartialEq)]
pub struct FairTopKValidParams {
    pub(crate) params: FairTopKParams,
    pub(crate) mtable: Vec<u64>,
    pub(crate) table_alpha: f64,
}

impl Default for FairTopKParams {
    fn default() -> Self {
        Self {
            k: 10,
            p: 0.5,
            alpha: 0.1,
            adjust: true,
        }
    }
}

impl FairTopKParams {
    /// Positions to fill (default 10).
    #[must_use]
    pub fn k(mut self, k: usize) -> Self {
        self.k = k;
        self
    }

    /// Target minimum proportion of protected items, in (0, 1) (default 0.5).
    #[must_use]
    pub fn p(mut self, p: f64) -> Self {
        self.p = p;
        self
    }

    /// Significance level of the ranked group fairness test, in (0, 1) (default 0.1).
    #[must_use]
    pub fn alpha(mut self, alpha: f64) -> Self {
        self.alpha = alpha;
        self
    }

    /// Whether the table uses the paper's multiple-test correction of `alpha`
    /// ([`adjusted_mtable`]; default `true`) or the uncorrected level ([`mtable`]).
    #[must_use]
    pub fn adjust(mut self, adjust: bool) -> Self {
        self.adjust = adjust;
        self
    }
}

fn open_unit(name: &'static str, x: f64) -> Result<()> {
    if x > 0.0 && x < 1.0 {
        Ok(())
    } else {
        Err(E::InvalidParameter {
            name,
            value: x.to_string(),
            expected: "a number strictly between 0 and 1",
        })
    }
}

impl ParamGuard for FairTopKParams {
    type Checked = FairTopKValidParams;
    type Error = E;

    fn check_ref(&self) -> Result<FairTopKValidParams> {
        if self.k == 0 {
            return Err(E::InvalidParameter {
                name: "k",
                value: "0".into(),
                expected: "at least 1 position",
            });
        }
        open_unit("p", self.p)?;
        open_unit("alpha", self.alpha)?;
        // The checks above are the table functions' only error conditions; should they ever
        // differ, their message is passed on rather than unwrapped.
        let invalid = |e: fair_metrics::MetricError| E::Table {
            reason: e.to_string(),
        };
        let (mtable, table_alpha) = if self.adjust {
            let a = adjusted_mtable(self.k, self.p, self.alpha).map_err(invalid)?;
            (a.mtable, a.alpha)
        } else {
            (
                mtable(self.k, self.p, self.alpha).map_err(invalid)?,
                self.alpha,
            )
        };
        Ok(FairTopKValidParams {
            params: self.clone(),
            mtable,
            table_alpha,
        })
    }
}

impl FairTopKValidParams {
    /// Positions to fill.
    pub fn k(&self) -> usize {
        self.params.k
    }

    /// Target minimum proportion of protected items.
    pub fn p(&self) -> f64 {
        self.params.p
    }

    /// The significance level asked for.
    pub fn alpha(&self) -> f64 {
        self.params.alpha
    }

    /// The per-prefix level the table was built at (the corrected one when adjusting).
    pub fn table_alpha(&self) -> f64 {
        self.table_alpha
    }

    /// `m(i)`, the fewest protected items the top `i` must hold, for `i = 1..=k`.
    pub fn mtable(&self) -> &[u64] {
        &self.mtable
    }
}

/// Which of Geyik et al.'s deterministic re-rankers to run (AIF360's `rerank_type` in brackets).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum DetMethod {
    /// DetGreedy (`"Greedy"`): a group below its floor gets the position, else the best item
    /// among the groups below their ceiling.
    Greedy,
    /// DetCons (`"Conservative"`): as DetGreedy, but among the groups below their ceiling the
    /// one that would next fall below its floor soonest, `⌈k·p⌉ / p`.
    Cons,
    /// DetRelaxed (`"Relaxed"`): as DetCons with the key rounded up, `⌈⌈k·p⌉ / p⌉`, so that
    /// groups whose next deadline falls on the same position compete by score.
    Relaxed,
    /// DetConstSort (`"Constrained"`): inserts each group's next item when its floor rises and
    /// moves it up past lower-scored items whose deadlines allow it.
    ConstSort,
}

impl std::str::FromStr for DetMethod {
    type Err = E;

    /// Parses a method name, case-insensitively: the paper's (`detgreedy`, `detcons`,
    /// `detrelaxed`, `detconstsort`, with or without `det`) or AIF360's `rerank_type`
    /// (`greedy`, `conservative`, `relaxed`, `constrained`).
    ///
    /// ```
    /// use fair_ranking::DetMethod;
    /// assert_eq!("Conservative".parse::<DetMethod>()?, DetMethod::Cons);
    /// assert_eq!("detconstsort".parse::<DetMethod>()?, DetMethod::ConstSort);
    /// assert!("best".parse::<DetMethod>().is_err());
    /// # Ok::<(), fair_ranking::RankingError>(())
    /// ```
    fn from_str(s: &str) -> Result<Self> {
        let lower = s.to_ascii_lowercase();
        match lower.strip_prefix("det").unwrap_or(&lower) {
            "greedy" => Ok(Self::Greedy),
            "cons" | "conservative" => Ok(Self::Cons),
            "relaxed" => Ok(Self::Relaxed),
            "constsort" | "constrained" => Ok(Self::ConstSort),
            _ => Err(E::InvalidParameter {
                name: "method",
                value: format!("{s:?}"),
                expected: "one of \"greedy\", \"cons\" (\"conservative\"), \"relaxed\", \"constsort\" (\"constrained\")",
            }),
        }
    }
}

/// Settings of the deterministic re-rankers (unchecked; [`ParamGuard::check`] validates).
///
/// # Examples
/// ```
/// use fair_ranking::{DetMethod, DetRerank, ParamGuard};
/// let params = DetRerank::params().method(DetMethod::Cons).k(4).target(vec![0.5, 0.5]).check()?;
/// assert_eq!(params.target(), &[0.5, 0.5]);
/// assert!(DetRerank::params().target(vec![0.5, 0.6]).check().is_err());
/// # Ok::<(), fair_ranking::RankingError>(())
/// ```
#[derive(Debug, Clone, PartialEq)]
pub struct DetRerankParams {
    pub(crate) method: DetMethod,
    pub(crate) k: usize,
    pub(crate) target: Vec<f64>,
}

/// Checked settings of the deterministic re-rankers: only these re-rank.
#[derive(Debug, Clone, PartialEq)]
pub struct DetRerankValidParams(pub(crate) DetRerankParams);

impl Default for DetRerankParams {
    fn default() -> Self {
        Self {
            method: DetMethod::Greedy,
            k: 10,
            target: vec![0.5, 0.5],
        }
    }
}

/// How far the target shares may sum from 1 (rounding of shares such as 1/3 written out).
const SUM_TOLERANCE: f64 = 1e-6;

impl DetRerankParams {
    /// The algorithm (default [`DetMethod::Greedy`]).
    #[must_use]
    pub fn method(mut self, method: DetMethod) -> Self {
        self.method = method;
        self
    }

    /// Positions to fill (default 10).
    #[must_use]
    pub fn k(mut self, k: usize) -> Self {
        self.k = k;
        self
    }

    /// The target share of each group, indexed by group code; each in [0, 1], summing to 1
    /// (default `[0.5, 0.5]`).
    #[must_use]
    pub fn target(mut self, target: Vec<f64>) -> Self {
        self.target = target;
        self
    }
}

impl ParamGuard for DetRerankParams {
    type Checked = DetRerankValidParams;
    type Error = E;

    fn check_ref(&self) -> Result<DetRerankValidParams> {
        if self.k == 0 {
            return Err(E::InvalidParameter {
                name: "k",
                value: "0".into(),
                expected: "at least 1 position",
            });
        }
        if self.target.is_empty() {
            return Err(E::InvalidParameter {
                name: "target",
                value: "[]".into(),
                expected: "one share per group",
            });
        }
        if let Some(t) = self.target.iter().find(|t| !(0.0..=1.0).contains(*t)) {
            return Err(E::InvalidParameter {
                name: "target",
                value: t.to_string(),
                expected: "shares in [0, 1]",
            });
        }
        let sum: f64 = self.target.iter().sum();
        if (sum - 1.0).abs() > SUM_TOLERANCE {
            return Err(E::InvalidParameter {
                name: "target",
                value: format!("{:?} (sum {sum})", self.target),
                expected: "shares that sum to 1",
            });
        }
        Ok(DetRerankValidParams(self.clone()))
    }
}

impl DetRerankValidParams {
    /// The algorithm.
    pub fn method(&self) -> DetMethod {
        self.0.method
    }

    /// Positions to fill.
    pub fn k(&self) -> usize {
        self.0.k
    }

    /// The target share of each group.
    pub fn target(&self) -> &[f64] {
        &self.0.target
    }
}
