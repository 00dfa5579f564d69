//! Exposure-fair ranking of one query (Singh & Joachims, "Fairness of Exposure in Rankings",
//! KDD 2018, §4): the **probabilistic ranking** of highest expected utility whose groups receive
//! exposure in the proportion a constraint asks, sampled through a Birkhoff–von Neumann
//! decomposition.
//!
//! A probabilistic ranking is a doubly stochastic matrix `P` (`P[i][j]`: the probability that item
//! `i` is shown at position `j`). With position weights `v_j` (the DCG discount `1/log2(1 + j)`,
//! 1-based, or a geometric `γ^(j−1)`) and relevances `u_i`, the expected utility is `uᵀPv` and
//! item `i`'s exposure `Σ_j P[i][j] v_j`. The three constraints of the paper, between every group
//! and the first (code 0), each linear in `P`:
//!
//! * **demographic parity**: equal mean exposure per item, `(1/|G|) Σ_{i∈G} Exposure_i`;
//! * **disparate treatment**: mean exposure ÷ mean relevance `U(G)` equal across groups;
//! * **disparate impact**: mean expected click-through `u_i·Exposure_i` ÷ `U(G)` equal.
//!
//! The linear program `max uᵀPv` over doubly stochastic `P` with those equalities (each allowed a
//! slack `tolerance`, the paper's δ) is solved by microlp's simplex. `P` is then written as a
//! mixture `Σ θ_k Π_k` of permutation matrices (Birkhoff–von Neumann: repeatedly a perfect matching
//! on the positive entries, found by augmenting paths, weighted by its smallest entry), and
//! rankings are drawn from the mixture with a seeded ChaCha8 stream — the same seed, the same
//! rankings. The mixture's expected exposure is `P`'s up to rounding (tested to 1e-9), and the
//! drawn rankings' mean exposure converges to it.
//!
//! ```
//! use fair_ranking::{ExposureConstraint, ExposureRanking, ParamGuard};
//! // Four items, the two of group 1 less relevant: a plain ranking shows group 0 first.
//! let relevance = [0.9, 0.8, 0.3, 0.2];
//! let groups = [0, 0, 1, 1];
//! let params = ExposureRanking::params().constraint(ExposureConstraint::DemographicParity).check()?;
//! let policy = params.solve(&relevance, &groups)?;
//! let by_group = policy.group_mean_exposure(&groups, 2);
//! assert!((by_group[0] - by_group[1]).abs() < 1e-9);
//! let rankings = policy.sample(1000, 7);
//! assert_eq!(rankings[0].len(), 4);
//! # Ok::<(), fair_ranking::RankingError>(())
//! ```

use crate::error::{RankingError as E, Result};
use fair_core::ParamGuard;
use good_lp::{
    Expression, ProblemVariables, ResolutionError, Solution, SolverModel, Variable, microlp,
    variable,
};
use rand::{RngExt, SeedableRng};
use rand_chacha::ChaCha8Rng;

/// Which groups' exposure the ranking must balance (see the module docs).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ExposureConstraint {
    /// Equal mean exposure per item in every group.
    DemographicParity,
    /// Mean exposure proportional to mean relevance.
    DisparateTreatment,
    /// Mean expected click-through (relevance × exposure) proportional to mean relevance.
    DisparateImpact,
}

/// The position weights.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum PositionWeight {
    /// `1 / log2(1 + j)` for position `j` (1-based): DCG's discount.
    Log2,
    /// `γ^(j − 1)`: a user who moves on with probability `1 − γ` at each position (RBP).
    Geometric(f64),
}

impl PositionWeight {
    /// The weights of positions `1..=n`.
    pub fn weights(self, n: usize) -> Vec<f64> {
        (1..=n)
            .map(|j| match self {
                PositionWeight::Log2 => 1.0 / (1.0 + j as f64).log2(),
                PositionWeight::Geometric(g) => g.powi(j as i32 - 1),
            })
            .collect()
    }
}

/// The exposure-fair ranking of one query.
#[derive(Debug, Clone, Copy)]
pub struct ExposureRanking;

impl ExposureRanking {
    /// Its settings, with the defaults.
    pub fn params() -> ExposureRankingParams {
        ExposureRankingParams::default()
    }
}

/// Settings (unchecked; [`ParamGuard::check`] validates).
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct ExposureRankingParams {
    constraint: ExposureConstraint,
    weight: PositionWeight,
    tolerance: f64,
    max_items: usize,
}

/// Checked settings: only these solve.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct ExposureRankingValidParams(ExposureRankingParams);

impl Default for ExposureRankingParams {
    fn default() -> Self {
        Self {
            constraint: ExposureConstraint::DemographicParity,
            weight: PositionWeight::Log2,
            tolerance: 0.0,
            max_items: 100,
        }
    }
}

impl ExposureRankingParams {
    /// The constraint (default demographic parity).
    #[must_use]
    pub fn constraint(mut self, c: ExposureConstraint) -> Self {
        self.constraint = c;
        self
    }
    /// The position weights (default `1/log2(1 + j)`).
    #[must_use]
    pub fn position_weight(mut self, w: PositionWeight) -> Self {
        self.weight = w;
        self
    }
    /// The slack δ ≥ 0 each group's constrained quantity may differ from the first group's by
    /// (default 0: equal).
    #[must_use]
    pub fn tolerance(mut self, delta: f64) -> Self {
        self.tolerance = delta;
        self
    }
    /// The most items a query may have (default 100): the program has `n²` variables.
    #[must_use]
    pub fn max_items(mut self, n: usize) -> Self {
        self.max_items = n;
        self
    }
}

impl ParamGuard for ExposureRankingParams {
    type Checked = ExposureRankingValidParams;
    type Error = E;

    fn check_ref(&self) -> Result<ExposureRankingValidParams> {
        if !(self.tolerance.is_finite() && self.tolerance >= 0.0) {
            return Err(E::InvalidParameter {
                name: "tolerance",
                value: self.tolerance.to_string(),
                expected: "a finite number >= 0",
            });
        }
        if let PositionWeight::Geometric(g) = self.weight
            && !(g > 0.0 && g < 1.0)
        {
            return Err(E::InvalidParameter {
                name: "position_weight",
                value: format!("geometric({g})"),
                expected: "a persistence strictly between 0 and 1",
            });
        }
        if self.max_items == 0 {
            return Err(E::InvalidParameter {
                name: "max_items",
                value: "0".into(),
                expected: "at least 1 item",
            });
        }
        Ok(ExposureRankingValidParams(*self))
    }
}

/// A probabilistic ranking and its decomposition into rankings.
#[derive(Debug, Clone, PartialEq)]
pub struct StochasticRanking {
    n: usize,
    /// Row-major `P[i][j]`.
    matrix: Vec<f64>,
    weights: Vec<f64>,
    /// Expected utility `uᵀPv`.
    pub utility: f64,
    /// `(θ_k, ranking_k)`: each ranking lists the items from position 1 down; the θ sum to 1.
    pub decomposition: Vec<(f64, Vec<usize>)>,
}

impl StochasticRanking {
    /// `P[i][j]`: the probability that item `i` is at position `j` (0-based).
    pub fn probability(&self, item: usize, position: usize) -> f64 {
        self.matrix[item * self.n + position]
    }

    /// Each item's expected exposure under `P`.
    pub fn exposure(&self) -> Vec<f64> {
        (0..self.n)
            .map(|i| {
                (0..self.n)
                    .map(|j| self.probability(i, j) * self.weights[j])
                    .sum()
            })
            .collect()
    }

    /// Each item's expected exposure under the decomposition's mixture of rankings.
    pub fn mixture_exposure(&self) -> Vec<f64> {
        let mut e = vec![0.0; self.n];
        for (theta, ranking) in &self.decomposition {
            for (j, &i) in ranking.iter().enumerate() {
                e[i] += theta * self.weights[j];
            }
        }
        e
    }

    /// Mean exposure per item of each group (`None`-free: a group without items gets 0).
    pub fn group_mean_exposure(&self, groups: &[usize], n_groups: usize) -> Vec<f64> {
        mean_by_group(&self.exposure(), groups, n_groups)
    }

    /// `n_samples` rankings drawn from the decomposition with a seeded stream.
    pub fn sample(&self, n_samples: usize, seed: u64) -> Vec<Vec<usize>> {
        let mut rng = ChaCha8Rng::seed_from_u64(seed);
        let mut cumulative = Vec::with_capacity(self.decomposition.len());
        let mut acc = 0.0;
        for (theta, _) in &self.decomposition {
            acc += theta;
            cumulative.push(acc);
        }
        (0..n_samples)
            .map(|_| {
                let u = rng.random::<f64>() * acc;
                let k = cumulative
                    .partition_point(|&c| c <= u)
                    .min(self.decomposition.len() - 1);
                self.decomposition[k].1.clone()
            })
            .collect()
    }
}

fn mean_by_group(values: &[f64], groups: &[usize], n_groups: usize) -> Vec<f64> {
    let mut sum = vec![0.0; n_groups];
    let mut count = vec![0usize; n_groups];
    for (v, &g) in values.iter().zip(groups) {
        sum[g] += v;
        count[g] += 1;
    }
    sum.iter()
        .zip(&count)
        .map(|(s, &c)| if c > 0 { s / c as f64 } else { 0.0 })
        .collect()
}

impl ExposureRankingValidParams {
    /// The exposure-fair probabilistic ranking of one query's items: `relevance` (finite, ≥ 0)
    /// and `groups` (codes `0..g`, every code present, at least two groups).
    ///
    /// # Errors
    /// [`E::LengthMismatch`], [`E::NonFinite`] or [`E::InvalidParameter`] for bad inputs (a
    /// negative relevance, more items than `max_items`, a missing group, a group of zero mean
    /// relevance under the treatment or impact constraint), and [`E::Infeasible`] when no
    /// ranking meets the constraint (disparate treatment or impact with the groups' relevance
    /// too far apart for any exposure; raise `tolerance`).
    pub fn solve(&self, relevance: &[f64], groups: &[usize]) -> Result<StochasticRanking> {
        let p = self.0;
        let n = relevance.len();
        if groups.len() != n {
            return Err(E::LengthMismatch {
                what: "groups",
                expected: n,
                got: groups.len(),
            });
        }
        if n == 0 || n > p.max_items {
            return Err(E::InvalidParameter {
                name: "relevance",
                value: format!("{n} items"),
                expected: "between 1 and max_items items in the query",
            });
        }
        if let Some((row, &value)) = relevance.iter().enumerate().find(|(_, v)| !v.is_finite()) {
            return Err(E::NonFinite { row, value });
        }
        if let Some(v) = relevance.iter().find(|v| **v < 0.0) {
            return Err(E::InvalidParameter {
                name: "relevance",
                value: v.to_string(),
                expected: "relevances >= 0",
            });
        }
        let n_groups = groups.iter().max().map_or(0, |g| g + 1);
        let mut size = vec![0usize; n_groups];
        groups.iter().for_each(|&g| size[g] += 1);
        if n_groups < 2 || size.contains(&0) {
            return Err(E::InvalidParameter {
                name: "groups",
                value: format!("group sizes {size:?}"),
                expected: "codes 0..g with g >= 2, every code with at least one item",
            });
        }
        let mean_rel = mean_by_group(relevance, groups, n_groups);
        // Per item, its coefficient on its own exposure in its group's constrained quantity.
        let coefficient: Vec<f64> = match p.constraint {
            ExposureConstraint::DemographicParity => {
                groups.iter().map(|&g| 1.0 / size[g] as f64).collect()
            }
            c => {
                if let Some(g) = mean_rel.iter().position(|&u| u <= 0.0) {
                    return Err(E::InvalidParameter {
                        name: "relevance",
                        value: format!("group {g} of mean relevance 0"),
                        expected: "a positive mean relevance in every group (the constraint divides by it)",
                    });
                }
                (0..n)
                    .map(|i| {
                        let g = groups[i];
                        let per = 1.0 / (size[g] as f64 * mean_rel[g]);
                        if c == ExposureConstraint::DisparateImpact {
                            per * relevance[i]
                        } else {
                            per
                        }
                    })
                    .collect()
            }
        };
        let weights = p.weight.weights(n);
        let matrix = solve_lp(relevance, groups, &coefficient, &weights, p.tolerance)?;
        let utility = (0..n)
            .map(|i| {
                (0..n)
                    .map(|j| relevance[i] * matrix[i * n + j] * weights[j])
                    .sum::<f64>()
            })
            .sum();
        let decomposition = birkhoff(&matrix, n);
        Ok(StochasticRanking {
            n,
            matrix,
            weights,
            utility,
            decomposition,
        })
    }
}

/// The linear program of the module docs; `P` row-major, cleaned of the solver's rounding
/// (entries clamped to [0, 1]).
fn solve_lp(
    relevance: &[f64],
    groups: &[usize],
    coefficient: &[f64],
    weights: &[f64],
    tolerance: f64,
) -> Result<Vec<f64>> {
    let n = relevance.len();
    let mut vars = ProblemVariables::new();
    let x: Vec<Variable> = (0..n * n)
        .map(|_| vars.add(variable().min(0.0).max(1.0)))
        .collect();
    let mut objective = Expression::with_capacity(n * n);
    for i in 0..n {
        for j in 0..n {
            objective.add_mul(relevance[i] * weights[j], x[i * n + j]);
        }
    }
    let mut model = vars.maximise(objective).using(microlp);
    for i in 0..n {
        let mut row = Expression::with_capacity(n);
        let mut col = Expression::with_capacity(n);
        for j in 0..n {
            row.add_mul(1.0, x[i * n + j]);
            col.add_mul(1.0, x[j * n + i]);
        }
        model = model.with(row.eq(1.0)).with(col.eq(1.0));
    }
    let n_groups = groups.iter().max().map_or(0, |g| g + 1);
    for k in 1..n_groups {
        // Group 0's quantity minus group k's, within ± tolerance.
        let mut e = Expression::with_capacity(n * n);
        for i in (0..n).filter(|&i| groups[i] == 0 || groups[i] == k) {
            let sign = if groups[i] == 0 { 1.0 } else { -1.0 };
            for j in 0..n {
                e.add_mul(sign * coefficient[i] * weights[j], x[i * n + j]);
            }
        }
        if tolerance > 0.0 {
            model = model.with(e.clone().leq(tolerance)).with(e.geq(-tolerance));
        } else {
            model = model.with(e.eq(0.0));
        }
    }
    match model.solve() {
        Ok(sol) => Ok(x.iter().map(|v| sol.value(*v).clamp(0.0, 1.0)).collect()),
        Err(ResolutionError::Infeasible) => Err(E::Infeasible {
            reason: "no probabilistic ranking gives the groups the constrained exposure".into(),
        }),
        Err(e) => Err(E::Infeasible {
            reason: format!("the linear program failed: {e}"),
        }),
    }
}

/// Entries at or below this are treated as zero by the decomposition (the simplex's rounding).
const ZERO: f64 = 1e-12;

/// Birkhoff–von Neumann: `P = Σ θ_k Π_k`, each ranking listing the items from position 1. The θ
/// are normalised to sum to 1 (the solver's rounding leaves a residue below 1e-9).
fn birkhoff(matrix: &[f64], n: usize) -> Vec<(f64, Vec<usize>)> {
    let mut rest = matrix.to_vec();
    let mut out: Vec<(f64, Vec<usize>)> = Vec::new();
    // At most n² − 2n + 2 permutations (Marcus–Ree); the bound also stops a numerical loop.
    for _ in 0..(n * n).max(1) {
        let Some(item_at) = perfect_matching(&rest, n) else {
            break;
        };
        let theta = (0..n)
            .map(|j| rest[item_at[j] * n + j])
            .fold(f64::INFINITY, f64::min);
        if theta <= ZERO {
            break;
        }
        for (j, &i) in item_at.iter().enumerate() {
            rest[i * n + j] -= theta;
        }
        out.push((theta, item_at));
    }
    let total: f64 = out.iter().map(|t| t.0).sum();
    if total > 0.0 {
        out.iter_mut().for_each(|t| t.0 /= total);
    }
    out
}

/// A perfect matching of positions to items on the entries above [`ZERO`] (augmenting paths,
/// Kuhn's algorithm; O(n³)), preferring at each position the items of largest entry so the
/// decomposition takes big pieces first; `None` when there is none.
fn perfect_matching(m: &[f64], n: usize) -> Option<Vec<usize>> {
    let mut item_of_position = vec![usize::MAX; n];
    let mut position_of_item = vec![usize::MAX; n];
    let order: Vec<Vec<usize>> = (0..n)
        .map(|j| {
            let mut items: Vec<usize> = (0..n).filter(|&i| m[i * n + j] > ZERO).collect();
            items.sort_by(|&a, &b| m[b * n + j].total_cmp(&m[a * n + j]).then(a.cmp(&b)));
            items
        })
        .collect();
    fn augment(
        j: usize,
        order: &[Vec<usize>],
        seen: &mut [bool],
        item_of_position: &mut [usize],
        position_of_item: &mut [usize],
    ) -> bool {
        for &i in &order[j] {
            if seen[i] {
                continue;
            }
            seen[i] = true;
            let owner = position_of_item[i];
            if owner == usize::MAX
                || augment(owner, order, seen, item_of_position, position_of_item)
            {
                position_of_item[i] = j;
                item_of_position[j] = i;
                return true;
            }
        }
        false
    }
    for j in 0..n {
        let mut seen = vec![false; n];
        if !augment(
            j,
            &order,
            &mut seen,
            &mut item_of_position,
            &mut position_of_item,
        ) {
            return None;
        }
    }
    Some(item_of_position)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn solve(c: ExposureConstraint, rel: &[f64], groups: &[usize]) -> StochasticRanking {
        ExposureRanking::params()
            .constraint(c)
            .check()
            .unwrap()
            .solve(rel, groups)
            .unwrap()
    }

    #[test]
    fn without_a_binding_constraint_the_best_ranking_is_sorted_by_relevance() {
        // Equal group relevance profiles: parity of exposure holds for the sorted ranking
        // interleaving the groups, so P is that permutation (utility of the sorted order).
        let rel = [0.9, 0.9, 0.5, 0.5];
        let groups = [0, 1, 0, 1];
        let s = solve(ExposureConstraint::DemographicParity, &rel, &groups);
        let v = PositionWeight::Log2.weights(4);
        let best: f64 = [0.9, 0.9, 0.5, 0.5]
            .iter()
            .zip(&v)
            .map(|(u, w)| u * w)
            .sum();
        assert!((s.utility - best).abs() < 1e-9, "{} vs {best}", s.utility);
        let e = s.group_mean_exposure(&groups, 2);
        assert!((e[0] - e[1]).abs() < 1e-9);
    }

    #[test]
    fn every_constraint_holds_and_the_mixture_has_the_same_exposure() {
        // Group means 0.725 and 0.45: a ratio the 8 positions can give (at most 1.84).
        let rel = [0.9, 0.8, 0.7, 0.5, 0.6, 0.5, 0.4, 0.3];
        let groups = [0, 0, 0, 0, 1, 1, 1, 1];
        for c in [
            ExposureConstraint::DemographicParity,
            ExposureConstraint::DisparateTreatment,
            ExposureConstraint::DisparateImpact,
        ] {
            let s = solve(c, &rel, &groups);
            let e = s.exposure();
            let mean_rel = mean_by_group(&rel, &groups, 2);
            let quantity = |g: usize| -> f64 {
                let items: Vec<usize> = (0..rel.len()).filter(|&i| groups[i] == g).collect();
                let total: f64 = items
                    .iter()
                    .map(|&i| match c {
                        ExposureConstraint::DisparateImpact => rel[i] * e[i],
                        _ => e[i],
                    })
                    .sum::<f64>()
                    / items.len() as f64;
                match c {
                    ExposureConstraint::DemographicParity => total,
                    _ => total / mean_rel[g],
                }
            };
            assert!((quantity(0) - quantity(1)).abs() < 1e-9, "{c:?}");
            // Doubly stochastic.
            for k in 0..rel.len() {
                let row: f64 = (0..rel.len()).map(|j| s.probability(k, j)).sum();
                let col: f64 = (0..rel.len()).map(|i| s.probability(i, k)).sum();
                assert!((row - 1.0).abs() < 1e-9 && (col - 1.0).abs() < 1e-9);
            }
            let theta: f64 = s.decomposition.iter().map(|t| t.0).sum();
            assert!((theta - 1.0).abs() < 1e-12);
            for (a, b) in e.iter().zip(s.mixture_exposure()) {
                assert!((a - b).abs() < 1e-9, "{c:?}: {a} vs {b}");
            }
            for (_, r) in &s.decomposition {
                let mut sorted = r.clone();
                sorted.sort_unstable();
                assert_eq!(sorted, (0..rel.len()).collect::<Vec<_>>());
            }
        }
    }

    #[test]
    fn sampled_rankings_converge_to_the_expected_exposure_and_repeat_with_the_seed() {
        let rel = [0.95, 0.9, 0.7, 0.4, 0.35, 0.1];
        let groups = [0, 0, 0, 1, 1, 1];
        let s = solve(ExposureConstraint::DemographicParity, &rel, &groups);
        let draws = 20_000;
        let rankings = s.sample(draws, 11);
        assert_eq!(rankings, s.sample(draws, 11));
        let v = PositionWeight::Log2.weights(6);
        let mut mean = [0.0; 6];
        for r in &rankings {
            for (j, &i) in r.iter().enumerate() {
                mean[i] += v[j] / draws as f64;
            }
        }
        // Each exposure is a mean of draws bounded in [v_n, 1]: 4 standard errors at most
        // (1 − v_n)/(2√draws) ≈ 0.0023.
        for (a, b) in mean.iter().zip(s.exposure()) {
            assert!((a - b).abs() < 0.01, "{a} vs {b}");
        }
    }

    mod properties {
        use super::*;
        use proptest::prelude::*;

        proptest! {
            #![proptest_config(ProptestConfig::with_cases(48))]

            /// Demographic parity is always feasible: on any query the LP's ranking meets it to
            /// 1e-9, is doubly stochastic, and its decomposition is a mixture of permutations with
            /// the same expected exposure.
            #[test]
            fn parity_holds_and_the_mixture_equals_the_matrix(
                rel in prop::collection::vec(0.0..1.0f64, 2..12),
                codes in prop::collection::vec(0usize..3, 12),
                geometric in any::<bool>(),
            ) {
                let n = rel.len();
                let mut groups: Vec<usize> = codes[..n].to_vec();
                groups[0] = 0;
                groups[1] = 1;
                // Codes 0..g, every one present.
                let g = if groups.contains(&2) { 3 } else { 2 };
                if g == 3 && !groups.contains(&1) { groups[1] = 1; }
                let weight = if geometric { PositionWeight::Geometric(0.8) } else { PositionWeight::Log2 };
                let s = ExposureRanking::params().position_weight(weight).check().unwrap()
                    .solve(&rel, &groups).unwrap();
                let e = s.group_mean_exposure(&groups, g);
                for k in 1..g {
                    prop_assert!((e[0] - e[k]).abs() < 1e-9, "{:?}", e);
                }
                for (a, b) in s.exposure().iter().zip(s.mixture_exposure()) {
                    prop_assert!((a - b).abs() < 1e-9);
                }
                let identity: Vec<usize> = (0..n).collect();
                for (t, r) in &s.decomposition {
                    let mut sorted = r.clone();
                    sorted.sort_unstable();
                    prop_assert!(*t > 0.0);
                    prop_assert_eq!(&sorted, &identity);
                }
            }
        }
    }

    #[test]
    fn bad_inputs_are_typed_errors() {
        let p = ExposureRanking::params().check().unwrap();
        assert!(matches!(
            p.solve(&[0.5, 0.4], &[0]),
            Err(E::LengthMismatch { .. })
        ));
        assert!(matches!(
            p.solve(&[0.5, f64::NAN], &[0, 1]),
            Err(E::NonFinite { row: 1, .. })
        ));
        assert!(matches!(
            p.solve(&[0.5, 0.4], &[0, 0]),
            Err(E::InvalidParameter { name: "groups", .. })
        ));
        assert!(matches!(
            p.solve(&[0.5, -0.4], &[0, 1]),
            Err(E::InvalidParameter {
                name: "relevance",
                ..
            })
        ));
        assert!(p.solve(&[], &[]).is_err());
        let t = ExposureRanking::params()
            .constraint(ExposureConstraint::DisparateTreatment)
            .check()
            .unwrap();
        assert!(matches!(
            t.solve(&[0.5, 0.0], &[0, 1]),
            Err(E::InvalidParameter {
                name: "relevance",
                ..
            })
        ));
        assert!(ExposureRanking::params().tolerance(-1.0).check().is_err());
        assert!(
            ExposureRanking::params()
                .position_weight(PositionWeight::Geometric(1.0))
                .check()
                .is_err()
        );
        // Disparate treatment between a very relevant and a barely relevant group: exposure
        // would have to be 50× larger for one group than any ranking can give.
        assert!(matches!(
            t.solve(&[1.0, 1.0, 0.02, 0.02], &[0, 0, 1, 1]),
            Err(E::Infeasible { .. })
        ));
    }
}
