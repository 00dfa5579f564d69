//! Fair top-k re-ranking: FA*IR (Zehlike, Bonchi, Castillo, Hajian, Megahed & Baeza-Yates,
//! "FA*IR: A Fair Top-k Ranking Algorithm", CIKM 2017) and the deterministic re-rankers of
//! Geyik, Ambler & Kenthapadi ("Fairness-Aware Ranking in Search & Recommendation Systems with
//! Application to LinkedIn Talent Search", KDD 2019).
//!
//! Also exposure-fair probabilistic rankings (Singh & Joachims, KDD 2018; [`ExposureRanking`]),
//! sampled through a Birkhoff–von Neumann decomposition.
//!
//! Both re-rankers take scored candidates of one query (or of many, by a query code) and return the
//! indices of the `k` chosen, position 1 first.
//!
//! # FA*IR ([`FairTopK`])
//!
//! Two groups, protected or not, and a target minimum proportion `p` of protected items. The
//! table `m(i)` ([`fair_metrics::ranking::adjusted_mtable`], the paper's corrected `alpha`, or
//! the uncorrected [`fair_metrics::ranking::mtable`]) says how many protected items the top `i`
//! must hold; at each position the best remaining protected item is placed when the count is
//! short, else the best remaining item. The output passes
//! [`fair_metrics::ranking::ranked_group_fairness`] with the same settings on every prefix, and
//! each group's items keep their score order. **Ties**: equal scores keep input order (the
//! earlier candidate is placed first), within a group and between the two.
//!
//! # Geyik et al. ([`DetRerank`], [`DetMethod`])
//!
//! Any number of groups with a target share each. At position `k'` a group whose count is below
//! `⌊k'·p⌋` is below its floor, below `⌈k'·p⌉` below its ceiling. DetGreedy places the best
//! item among the groups below their floor, if any, else among those below their ceiling;
//! DetCons and DetRelaxed choose among the latter by deadline; DetConstSort inserts and swaps.
//! The implementation follows AIF360 0.6.1's `DeterministicReranking` step by step, with its
//! tie rules: groups are scanned in code order (AIF360: the unprivileged groups, then the
//! privileged, in the order given) and among equal scores (or equal deadline and score) the
//! first group wins, as Python's `max`/`min` keep the first; DetConstSort's stable sort keeps
//! group order among equal scores. Within a group, equal scores keep input order; AIF360 sorts
//! with pandas' default (unstable) quicksort, so its order among a group's tied items is not
//! specified.
//!
//! **Where this differs from AIF360 0.6.1.**
//! 1. When some groups are below their floor (and, in DetGreedy, when choosing among the groups
//!    below their ceiling) AIF360 takes the best item of the sub-list but records the pick
//!    against the item's position *in that sub-list* (`max(enumerate(sublist))`), not its
//!    group: another group's count goes up, and the same item can be placed again (with two
//!    groups of share 0.5 and group 0 first, group 1's best item repeats). Here the count of the
//!    group placed goes up. `python/tests/test_ranking.py` compares with AIF360's code with
//!    that one index corrected, and shows the repeat on the unmodified code.
//! 2. AIF360 raises `IndexError` as soon as any group has no candidates left (even one not
//!    chosen). Here such a group is skipped; when no group below its ceiling has candidates,
//!    the best remaining candidate of any group is placed (DetConstSort: the floors of the
//!    groups left keep rising; [`RankingError::TargetUnreachable`] when no group with a
//!    positive share has candidates).
//!
//! Candidates whose group has no share are an error here ([`RankingError::GroupOutOfRange`]);
//! AIF360 leaves them out silently.
//!
//! # Example
//!
//! ```
//! use fair_ranking::{FairTopK, ParamGuard};
//! use fair_metrics::ranking::ranked_group_fairness;
//! let scores = [0.95, 0.9, 0.85, 0.8, 0.75, 0.7, 0.5, 0.4, 0.3, 0.2];
//! let protected = [false, false, false, false, false, false, true, true, true, true];
//! let params = FairTopK::params().k(6).p(0.5).alpha(0.1).check()?;
//! let top = params.rerank(&scores, &protected)?;
//! let flags: Vec<bool> = top.iter().map(|&i| protected[i]).collect();
//! assert!(ranked_group_fairness(&flags, 0.5, 0.1, true).unwrap().passes);
//! // Each group keeps its own order.
//! let prot: Vec<usize> = top.iter().copied().filter(|&i| protected[i]).collect();
//! assert!(prot.windows(2).all(|w| w[0] < w[1]));
//! # Ok::<(), fair_ranking::RankingError>(())
//! ```
#![forbid(unsafe_code)]

mod error;
mod exposure;
mod params;
mod rerank;

pub use error::{RankingError, Result};
pub use exposure::{
    ExposureConstraint, ExposureRanking, ExposureRankingParams, ExposureRankingValidParams,
    PositionWeight, StochasticRanking,
};
pub use fair_core::ParamGuard;
pub use params::{
    DetMethod, DetRerankParams, DetRerankValidParams, FairTopKParams, FairTopKValidParams,
};
pub use rerank::{DetRerank, FairTopK};

// docs/ranking.md's Rust example runs as a doctest (its Python example runs in
// python/tests/test_ranking.py).
#[doc = include_str!("../../../docs/ranking.md")]
#[cfg(doctest)]
pub struct RankingDocs;
