//! The re-rankers: FA*IR and Geyik et al.'s deterministic ones, one query and many.

use crate::error::{RankingError as E, Result};
use crate::params::{DetMethod, DetRerankValidParams, FairTopKValidParams};

/// FA*IR (the algorithm's entry point; settings via [`FairTopK::params`]).
#[derive(Debug, Clone, Copy)]
pub struct FairTopK;

impl FairTopK {
    /// Default settings (k = 10, p = 0.5, alpha = 0.1, corrected table).
    pub fn params() -> crate::FairTopKParams {
        crate::FairTopKParams::default()
    }
}

/// Geyik et al.'s deterministic re-rankers (settings via [`DetRerank::params`]).
#[derive(Debug, Clone, Copy)]
pub struct DetRerank;

impl DetRerank {
    /// Default settings (DetGreedy, k = 10, two groups of share 0.5).
    pub fn params() -> crate::DetRerankParams {
        crate::DetRerankParams::default()
    }
}

fn check_scores(scores: &[f64], k: usize) -> Result<()> {
    if let Some((row, &value)) = scores.iter().enumerate().find(|(_, s)| !s.is_finite()) {
        return Err(E::NonFinite { row, value });
    }
    if scores.len() < k {
        return Err(E::NotEnoughCandidates {
            k,
            got: scores.len(),
        });
    }
    Ok(())
}

fn check_groups(groups: &[usize], n_groups: usize) -> Result<()> {
    match groups.iter().enumerate().find(|(_, g)| **g >= n_groups) {
        Some((row, &group)) => Err(E::GroupOutOfRange {
            row,
            group,
            groups: n_groups,
        }),
        None => Ok(()),
    }
}

fn check_len(what: &'static str, expected: usize, got: usize) -> Result<()> {
    if expected == got {
        Ok(())
    } else {
        Err(E::LengthMismatch {
            what,
            expected,
            got,
        })
    }
}

/// Candidate indices from the best score down; ties keep input order (a stable sort).
fn by_score(scores: &[f64]) -> Vec<usize> {
    let mut order: Vec<usize> = (0..scores.len()).collect();
    order.sort_by(|&a, &b| scores[b].total_cmp(&scores[a]));
    order
}

impl FairTopKValidParams {
    /// FA*IR's top `k` of the candidates: the indices of the chosen candidates, position 1
    /// first.
    ///
    /// At position `i`, when the protected items placed so far are fewer than `m(i)`
    /// ([`mtable`](Self::mtable)), the best remaining protected candidate is placed, else the
    /// best remaining candidate of either kind. Equal scores keep input order (the earlier
    /// candidate first), in both groups and between them. Within each group the output keeps
    /// the score order, and every prefix passes FA*IR's test with this table.
    ///
    /// # Errors
    /// [`E::LengthMismatch`], [`E::NonFinite`] for a NaN or infinite score,
    /// [`E::NotEnoughCandidates`] when there are fewer than `k`, [`E::NotEnoughProtected`]
    /// when the table asks for more protected items than there are.
    ///
    /// # Examples
    /// ```
    /// use fair_ranking::{FairTopK, ParamGuard};
    /// let params = FairTopK::params().k(4).p(0.5).alpha(0.1).adjust(false).check()?;
    /// assert_eq!(params.mtable(), &[0, 0, 0, 1]);
    /// let scores = [0.9, 0.8, 0.7, 0.6, 0.5];
    /// let protected = [false, false, false, false, true];
    /// // The unprotected top 3 stay; position 4 must hold a protected item.
    /// assert_eq!(params.rerank(&scores, &protected)?, vec![0, 1, 2, 4]);
    /// # Ok::<(), fair_ranking::RankingError>(())
    /// ```
    pub fn rerank(&self, scores: &[f64], protected: &[bool]) -> Result<Vec<usize>> {
        check_len("protected", scores.len(), protected.len())?;
        let k = self.k();
        check_scores(scores, k)?;
        let n_protected = protected.iter().filter(|&&p| p).count();
        let table = &self.mtable;
        if let Some(position) = table.iter().position(|&m| m > n_protected as u64) {
            return Err(E::NotEnoughProtected {
                needed: table[position],
                position: position + 1,
                needed_total: table[k - 1],
                got: n_protected,
            });
        }
        let order = by_score(scores);
        // Positions in `order` of each kind: comparing positions compares scores with ties
        // broken by input order.
        let (prot, rest): (Vec<usize>, Vec<usize>) =
            (0..order.len()).partition(|&r| protected[order[r]]);
        let (mut ip, mut ir) = (0, 0);
        let mut out = Vec::with_capacity(k);
        let mut placed_protected = 0_u64;
        for &m in table {
            let take_protected = match (prot.get(ip), rest.get(ir)) {
                _ if placed_protected < m => true,
                (Some(&a), Some(&b)) => a < b,
                (Some(_), None) => true,
                (None, _) => false,
            };
            // The count check above guarantees a protected item whenever the table needs one,
            // and `n >= k` one of either kind at every position.
            let r = if take_protected {
                ip += 1;
                placed_protected += 1;
                prot[ip - 1]
            } else {
                ir += 1;
                rest[ir - 1]
            };
            out.push(order[r]);
        }
        Ok(out)
    }

    /// [`rerank`](Self::rerank) for each query: `queries[i]` is candidate `i`'s query code.
    /// Returns the chosen candidates' indices, `k` per query, queries in code order.
    ///
    /// # Errors
    /// As [`rerank`](Self::rerank), wrapped in [`E::InQuery`] naming the query's code.
    ///
    /// # Examples
    /// ```
    /// use fair_ranking::{FairTopK, ParamGuard};
    /// let params = FairTopK::params().k(2).p(0.5).alpha(0.3).adjust(false).check()?;
    /// let queries = [0, 0, 0, 1, 1];
    /// let scores = [0.9, 0.8, 0.1, 0.5, 0.7];
    /// let protected = [false, false, true, true, false];
    /// assert_eq!(params.rerank_queries(&queries, &scores, &protected)?, vec![0, 2, 4, 3]);
    /// # Ok::<(), fair_ranking::RankingError>(())
    /// ```
    pub fn rerank_queries(
        &self,
        queries: &[usize],
        scores: &[f64],
        protected: &[bool],
    ) -> Result<Vec<usize>> {
        check_len("protected", scores.len(), protected.len())?;
        // Checked over all rows first, so that an error names the row of the whole input.
        check_scores(scores, 0)?;
        by_query(queries, scores.len(), self.k(), |rows| {
            let s: Vec<f64> = rows.iter().map(|&i| scores[i]).collect();
            let p: Vec<bool> = rows.iter().map(|&i| protected[i]).collect();
            self.rerank(&s, &p)
        })
    }
}

/// Runs `rank` on the rows of each query (in row order) and maps its local indices back.
fn by_query(
    queries: &[usize],
    n: usize,
    k: usize,
    mut rank: impl FnMut(&[usize]) -> Result<Vec<usize>>,
) -> Result<Vec<usize>> {
    check_len("queries", n, queries.len())?;
    let n_queries = queries.iter().max().map_or(0, |&q| q + 1);
    // Rows bucketed by query in one counting pass (query codes are dense, 0..n_queries).
    let mut start = vec![0_usize; n_queries + 1];
    for &q in queries {
        start[q + 1] += 1;
    }
    for q in 0..n_queries {
        start[q + 1] += start[q];
    }
    let mut fill = start.clone();
    let mut rows = vec![0_usize; n];
    for (i, &q) in queries.iter().enumerate() {
        rows[fill[q]] = i;
        fill[q] += 1;
    }
    let mut out = Vec::with_capacity(n_queries.saturating_mul(k).min(n));
    for q in 0..n_queries {
        let local = &rows[start[q]..start[q + 1]];
        if local.is_empty() {
            continue;
        }
        let chosen = rank(local).map_err(|e| E::InQuery {
            query: q,
            source: Box::new(e),
        })?;
        out.extend(chosen.into_iter().map(|i| local[i]));
    }
    Ok(out)
}

impl DetRerankValidParams {
    /// The top `k` of the candidates by Geyik et al.'s algorithm ([`method`](Self::method)):
    /// indices of the chosen candidates, position 1 first. `groups[i]` is candidate `i`'s
    /// group code, an index into [`target`](Self::target).
    ///
    /// Follows AIF360 0.6.1's `DeterministicReranking` (see the crate docs for its ties and
    /// the two places this differs).
    ///
    /// # Errors
    /// [`E::LengthMismatch`], [`E::NonFinite`], [`E::GroupOutOfRange`],
    /// [`E::NotEnoughCandidates`] when there are fewer than `k`; DetConstSort
    /// [`E::TargetUnreachable`] when the groups with a positive share run out.
    ///
    /// # Examples
    /// ```
    /// use fair_ranking::{DetMethod, DetRerank, ParamGuard};
    /// let params = DetRerank::params().method(DetMethod::Greedy).k(4).target(vec![0.5, 0.5]).check()?;
    /// let scores = [0.9, 0.8, 0.7, 0.6, 0.5, 0.4];
    /// let groups = [0, 0, 0, 1, 1, 1];
    /// // Group 1 is below its floor ⌊k·0.5⌋ at positions 2 and 4.
    /// assert_eq!(params.rerank(&scores, &groups)?, vec![0, 3, 1, 4]);
    /// # Ok::<(), fair_ranking::RankingError>(())
    /// ```
    pub fn rerank(&self, scores: &[f64], groups: &[usize]) -> Result<Vec<usize>> {
        check_len("groups", scores.len(), groups.len())?;
        let n_groups = self.target().len();
        check_groups(groups, n_groups)?;
        let k = self.k();
        check_scores(scores, k)?;
        let mut members: Vec<Vec<usize>> = vec![Vec::new(); n_groups];
        for i in by_score(scores) {
            members[groups[i]].push(i);
        }
        match self.method() {
            DetMethod::ConstSort => const_sort(scores, &members, self.target(), k),
            method => det_greedy(scores, &members, self.target(), k, method),
        }
    }

    /// [`rerank`](Self::rerank) for each query: `queries[i]` is candidate `i`'s query code.
    /// Returns the chosen candidates' indices, `k` per query, queries in code order.
    ///
    /// # Errors
    /// As [`rerank`](Self::rerank), wrapped in [`E::InQuery`] naming the query's code.
    ///
    /// # Examples
    /// ```
    /// use fair_ranking::{DetMethod, DetRerank, ParamGuard};
    /// let params = DetRerank::params().k(2).target(vec![0.5, 0.5]).check()?;
    /// let queries = [1, 1, 1, 0, 0];
    /// let scores = [0.9, 0.8, 0.1, 0.5, 0.7];
    /// let groups = [0, 0, 1, 1, 0];
    /// assert_eq!(params.rerank_queries(&queries, &scores, &groups)?, vec![4, 3, 0, 2]);
    /// # Ok::<(), fair_ranking::RankingError>(())
    /// ```
    pub fn rerank_queries(
        &self,
        queries: &[usize],
        scores: &[f64],
        groups: &[usize],
    ) -> Result<Vec<usize>> {
        check_len("groups", scores.len(), groups.len())?;
        // Checked over all rows first, so that an error names the row of the whole input.
        check_scores(scores, 0)?;
        check_groups(groups, self.target().len())?;
        by_query(queries, scores.len(), self.k(), |rows| {
            let s: Vec<f64> = rows.iter().map(|&i| scores[i]).collect();
            let g: Vec<usize> = rows.iter().map(|&i| groups[i]).collect();
            self.rerank(&s, &g)
        })
    }
}

/// DetGreedy, DetCons and DetRelaxed, as AIF360's loop (groups scanned in code order; Python's
/// `max`/`min` keep the first of equal keys, so do these strict comparisons).
fn det_greedy(
    scores: &[f64],
    members: &[Vec<usize>],
    target: &[f64],
    k: usize,
    method: DetMethod,
) -> Result<Vec<usize>> {
    let mut counts = vec![0_usize; members.len()];
    let mut out = Vec::with_capacity(k);
    let head = |g: usize, counts: &[usize]| members[g].get(counts[g]).copied();
    let mut below_min = Vec::new();
    let mut below_max = Vec::new();
    let all: Vec<usize> = (0..members.len()).collect();
    for pos in 1..=k {
        below_min.clear();
        below_max.clear();
        let kf = pos as f64;
        for (g, &p) in target.iter().enumerate() {
            // Groups without candidates left cannot take the position (AIF360 raises there).
            if head(g, &counts).is_none() {
                continue;
            }
            let c = counts[g] as f64;
            if c < (kf * p).floor() {
                below_min.push(g);
            } else if c < (kf * p).ceil() {
                below_max.push(g);
            }
        }
        let best_of = |gs: &[usize]| best_of_remaining(gs, members, &counts, scores);
        let deadline_first = |gs: &[usize], key: &dyn Fn(f64) -> f64| -> Option<usize> {
            let mut best: Option<(usize, f64, f64)> = None;
            for &g in gs {
                let d = key(target[g]);
                let s = -scores[members[g][counts[g]]];
                // Tuples compare as Python's: the deadline, then the negated score.
                let earlier = best.is_none_or(|(_, bd, bs)| match d.partial_cmp(&bd) {
                    Some(std::cmp::Ordering::Less) => true,
                    Some(std::cmp::Ordering::Equal) => s < bs,
                    _ => false,
                });
                if earlier {
                    best = Some((g, d, s));
                }
            }
            best.map(|(g, _, _)| g)
        };
        let chosen = if below_min.is_empty() {
            match method {
                DetMethod::Cons => deadline_first(&below_max, &|p| (kf * p).ceil() / p),
                DetMethod::Relaxed => deadline_first(&below_max, &|p| ((kf * p).ceil() / p).ceil()),
                _ => best_of(&below_max),
            }
        } else {
            best_of(&below_min)
        };
        // No group below its ceiling has candidates left: the best remaining candidate of any
        // group (AIF360 raises). `n >= k` guarantees one.
        let g = match chosen.or_else(|| best_of(&all)) {
            Some(g) => g,
            None => {
                return Err(E::NotEnoughCandidates { k, got: out.len() });
            }
        };
        out.push(members[g][counts[g]]);
        counts[g] += 1;
    }
    Ok(out)
}

fn best_of_remaining(
    gs: &[usize],
    members: &[Vec<usize>],
    counts: &[usize],
    scores: &[f64],
) -> Option<usize> {
    let mut best: Option<usize> = None;
    for &g in gs {
        let Some(&i) = members[g].get(counts[g]) else {
            continue;
        };
        if best.is_none_or(|b| scores[i] > scores[members[b][counts[b]]]) {
            best = Some(g);
        }
    }
    best
}

/// DetConstSort as AIF360's `"Constrained"` branch.
fn const_sort(
    scores: &[f64],
    members: &[Vec<usize>],
    target: &[f64],
    k: usize,
) -> Result<Vec<usize>> {
    let n_groups = members.len();
    let mut ranked: Vec<usize> = Vec::with_capacity(k);
    let mut max_indices: Vec<usize> = Vec::with_capacity(k);
    let mut counts = vec![0_usize; n_groups];
    let mut min_counts = vec![0.0_f64; n_groups];
    let mut step = 0_usize;
    let mut changed: Vec<(usize, usize)> = Vec::new();
    while ranked.len() < k {
        // Stop when no group with a positive share has candidates: the floors would rise
        // forever without adding any.
        if !(0..n_groups).any(|g| target[g] > 0.0 && counts[g] < members[g].len()) {
            return Err(E::TargetUnreachable {
                k,
                placed: ranked.len(),
            });
        }
        step += 1;
        let kf = step as f64;
        changed.clear();
        for g in 0..n_groups {
            let floor = (target[g] * kf).floor();
            if floor > min_counts[g] {
                min_counts[g] = floor;
                // A group out of candidates is skipped (AIF360 raises).
                if let Some(&i) = members[g].get(counts[g]) {
                    changed.push((g, i));
                }
            }
        }
        // Python's sort is stable: equal scores keep group order.
        changed.sort_by(|a, b| scores[b.1].total_cmp(&scores[a.1]));
        for &(g, item) in &changed {
            if ranked.len() == k {
                break;
            }
            max_indices.push(step - 1);
            ranked.push(item);
            let mut swap = ranked.len() - 1;
            while swap > 0
                && max_indices[swap - 1] >= swap
                && scores[ranked[swap - 1]] < scores[ranked[swap]]
            {
                max_indices.swap(swap - 1, swap);
                ranked.swap(swap - 1, swap);
                swap -= 1;
            }
            counts[g] += 1;
        }
    }
    Ok(ranked)
}
